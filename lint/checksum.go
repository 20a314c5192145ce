package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/source"
)

// LoadLock reads the lockfile the config names. A configured lockfile that does not
// exist is an error (exit 2), not a checksum-missing finding on every file.
func LoadLock(path string) (*canonical.Lock, error) {
	l, err := canonical.ReadLock(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("lockfile %s does not exist (create it with dws checksum --write %s)", path, path)
	}
	return l, err
}

// checksum is stage 9: the canonical checksum, compared with the lockfile when one is
// configured.
func (l *Linter) checksum(f *File, sum string, err error) string {
	if err != nil {
		// Only values with no JSON form get here (source rejects most of them first).
		f.ReportAt("parse", "", fileStart, "no canonical form: "+err.Error())
		return ""
	}
	if l.Lock == nil || f.stdin {
		return sum
	}
	l.published(f)
	key, err := canonical.RelPath(l.Config.Lock, f.Path)
	if err != nil {
		return sum
	}
	want, ok := l.Lock.Files[key]
	switch {
	case !ok:
		f.ReportAt("checksum-missing", "", fileStart, fmt.Sprintf(
			"%s does not list this file (record it with dws checksum --write)", relCwd(l.Config.Lock)))
	case want != sum:
		f.ReportAt("checksum-mismatch", "", fileStart, fmt.Sprintf(
			"checksum %s differs from %s in %s; if the change is intended, record it with dws checksum --write",
			short(sum), short(want), relCwd(l.Config.Lock)))
	}
	return sum
}

func short(sum string) string {
	if len(sum) > len("sha256:")+12 {
		return sum[:len("sha256:")+12] + "…"
	}
	return sum
}

// maxExact is 2^53: integers beyond it have no exact IEEE 754 double, which is what
// most JSON consumers (JavaScript among them) read numbers into.
var maxExact = new(big.Int).Lsh(big.NewInt(1), 53)

// numberPrecision reports integers outside ±2^53. The pointer of a value is built only
// for a finding: a 4 MiB array holds two million values, and formatting a pointer for
// each cost more than the rest of the walk. The way down is kept on one stack, so the
// walk allocates nothing per value.
func numberPrecision(f *File, root *source.Node) {
	w := precisionWalk{f: f}
	if root.Kind == source.Number {
		w.check(root)
		return
	}
	w.walk(root)
}

type precisionWalk struct {
	f    *File
	path []pathStep // from the root to the value being walked
}

// pathStep is one step of the way from the root to a value.
type pathStep struct {
	key   string
	index int
	isKey bool
}

func (w *precisionWalk) walk(n *source.Node) {
	switch n.Kind {
	case source.Array:
		for i, it := range n.Items {
			w.step(pathStep{index: i}, it)
		}
	case source.Object:
		for _, m := range n.Members {
			w.step(pathStep{key: m.Key, isKey: true}, m.Value)
		}
	}
}

func (w *precisionWalk) step(s pathStep, n *source.Node) {
	switch n.Kind {
	case source.Number:
		if len(n.Text) < 16 {
			return // at most 15 digits is well inside ±2^53
		}
	case source.Array, source.Object:
	default:
		return
	}
	w.path = append(w.path, s)
	if n.Kind == source.Number {
		w.check(n)
	} else {
		w.walk(n)
	}
	w.path = w.path[:len(w.path)-1]
}

// check judges one number, at the end of w.path.
func (w *precisionWalk) check(n *source.Node) {
	if len(n.Text) < 16 || strings.ContainsAny(n.Text, ".eE") {
		return // at most 15 digits is well inside ±2^53
	}
	v, ok := new(big.Int).SetString(n.Text, 10)
	if ok && v.CmpAbs(maxExact) > 0 {
		ptr := ""
		for _, s := range w.path {
			if s.isKey {
				ptr = source.AppendPointer(ptr, s.key)
			} else {
				ptr += "/" + strconv.Itoa(s.index)
			}
		}
		w.f.Report("number-precision", ptr, fmt.Sprintf(
			"%s is beyond ±2^53: JSON consumers that read numbers as doubles get %s; write it as a string", n.Text, asDouble(v)))
	}
}

func asDouble(v *big.Int) string {
	d, _ := new(big.Float).SetInt(v).Float64()
	return new(big.Float).SetFloat64(d).Text('f', 0)
}
