package canonical

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// The canonical bytes are written straight from the value tree: the RFC 8785 rules
// (members sorted by their UTF-16 code units, strings escaped as ECMAScript's
// JSON.stringify does, numbers as ECMAScript prints the double) applied in one pass.
// jcs.Transform would first need the document as JSON text, then parse that text into
// a tree of its own: for a 4 MiB array of numbers that is 340 MB of allocations and
// most of the time, for bytes that are the same (TestWriteAgreesWithJCS holds the two
// to that on every test document). Numbers are still formatted by jcs.NumberToJSON.

// numberPattern is the RFC 8259 number grammar, which jcs enforces too.
var numberPattern = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// errFallback marks a value of a Go type the tree writer does not know; Bytes then
// takes the encoding/json route.
var errFallback = errors.New("not a JSON data-model value")

// writeValue writes v's canonical bytes to w.
func writeValue(w *bufio.Writer, v any) error {
	switch v := v.(type) {
	case nil:
		_, err := w.WriteString("null")
		return err
	case bool:
		_, err := w.WriteString(strconv.FormatBool(v))
		return err
	case json.Number:
		return writeNumber(w, string(v))
	case float64:
		s, err := jcs.NumberToJSON(v)
		if err != nil {
			return err
		}
		_, err = w.WriteString(s)
		return err
	case string:
		return writeString(w, v)
	case []any:
		return writeArray(w, len(v), func(i int) error { return writeValue(w, v[i]) })
	case map[string]any:
		members := make([]member, 0, len(v))
		for k := range v {
			members = append(members, member{key: k})
		}
		return writeObject(w, members, func(m member) error { return writeValue(w, v[m.key]) })
	}
	return errFallback
}

// compareUTF16 orders two strings by their UTF-16 code units, as RFC 8785 sorts
// member names, without converting them: UTF-8 order is code point order, which
// differs from UTF-16 order only between a character beyond U+FFFF (a surrogate
// pair, D800-DFFF) and one in E000-FFFF.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
		return int(a[i]) - int(b[i])
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i-- // back to the start of the character that differs (the same in both)
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	ua, ub := firstUnit(ra), firstUnit(rb)
	if ua != ub {
		return int(ua) - int(ub)
	}
	return int(ra) - int(rb) // both beyond U+FFFF with one high surrogate
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// writeArray writes n items, each by item.
func writeArray(w *bufio.Writer, n int, item func(i int) error) error {
	if err := w.WriteByte('['); err != nil {
		return err
	}
	for i := range n {
		if i > 0 {
			if err := w.WriteByte(','); err != nil {
				return err
			}
		}
		if err := item(i); err != nil {
			return err
		}
	}
	return w.WriteByte(']')
}

// member is one member of an object being written: its name, and where its value is
// for whoever writes it.
type member struct {
	key string
	at  int
}

// writeObject writes members (sorted here, by their names' UTF-16 code units), each
// value by value.
func writeObject(w *bufio.Writer, members []member, value func(member) error) error {
	slices.SortFunc(members, func(a, b member) int { return compareUTF16(a.key, b.key) })
	if err := w.WriteByte('{'); err != nil {
		return err
	}
	for i, m := range members {
		if i > 0 {
			if err := w.WriteByte(','); err != nil {
				return err
			}
		}
		if err := writeString(w, m.key); err != nil {
			return err
		}
		if err := w.WriteByte(':'); err != nil {
			return err
		}
		if err := value(m); err != nil {
			return err
		}
	}
	return w.WriteByte('}')
}

func writeNumber(w *bufio.Writer, lit string) error {
	if shortInteger(lit) {
		_, err := w.WriteString(lit) // an integer of at most 15 digits prints as written
		return err
	}
	if !numberPattern.MatchString(lit) {
		return fmt.Errorf("invalid number literal %.32q", lit)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return fmt.Errorf("number out of range: %.32q", lit)
	}
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return err
	}
	_, err = w.WriteString(s)
	return err
}

// shortInteger reports whether lit is a JSON integer of at most 15 digits other
// than -0: its double is exact, and ECMAScript prints it as it is written.
func shortInteger(lit string) bool {
	digits := strings.TrimPrefix(lit, "-")
	if digits == "" || len(digits) > 15 || digits[0] == '0' && (len(digits) > 1 || lit[0] == '-') {
		return false
	}
	for i := range len(digits) {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// writeString escapes exactly what RFC 8785 §3.2.2.2 escapes: '"', '\', and the
// control characters, the five with short forms by them.
// plainOut holds the bytes a canonical string writes as they are.
var plainOut = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

func writeString(w *bufio.Writer, s string) error {
	if err := w.WriteByte('"'); err != nil {
		return err
	}
	start := 0
	for i := 0; i < len(s); i++ {
		for i < len(s) && plainOut[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		var esc string
		switch c {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\b':
			esc = `\b`
		case '\f':
			esc = `\f`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			if c >= 0x20 {
				continue
			}
			esc = fmt.Sprintf(`\u%04x`, c)
		}
		if _, err := w.WriteString(s[start:i]); err != nil {
			return err
		}
		if _, err := w.WriteString(esc); err != nil {
			return err
		}
		start = i + 1
	}
	if _, err := w.WriteString(s[start:]); err != nil {
		return err
	}
	return w.WriteByte('"')
}

// hashWriter is where Checksum writes the canonical bytes: straight into SHA-256.
// writers are reused: a fresh 32 KiB buffer for every file was a sixth of a run's
// allocated bytes.
var writers = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, 32<<10) }}

func checksumOf(doc any) (string, error) {
	h := sha256.New()
	w := writers.Get().(*bufio.Writer)
	w.Reset(h)
	defer func() {
		w.Reset(nil)
		writers.Put(w)
	}()
	if err := writeValue(w, doc); err != nil {
		return "", err
	}
	if err := w.Flush(); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// bytesOf returns the canonical bytes of doc.
func bytesOf(doc any) ([]byte, error) {
	var buf bytesBuffer
	w := bufio.NewWriterSize(&buf, 32<<10)
	if err := writeValue(w, doc); err != nil {
		return nil, err
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return buf.b, nil
}

type bytesBuffer struct{ b []byte }

func (b *bytesBuffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}

var _ io.Writer = (*bytesBuffer)(nil)

// Inexact reports whether a JSON number literal changes value on its way through an
// IEEE 754 double, the way every RFC 8785 consumer reads it: the shortest decimal that
// reads back as the same double is not the number written. 0.1 is exact in this
// sense (it reads back as 0.1); 9007199254740993 and 1.00000000000000001 are not.
func Inexact(literal string) bool {
	written, ok := new(big.Rat).SetString(literal)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(literal, 64)
	if err != nil {
		return true // beyond the double range
	}
	back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return !ok || written.Cmp(back) != 0
}
