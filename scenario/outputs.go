package scenario

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"unicode/utf8"

	"github.com/dwsdev/dws/sim"
)

// The files a call had to write (sim.Call.Files) are read back once the stub and
// everything it started are gone, and handed to the dialect in the answer
// (sim.Answer.Files), which judges them as its runtime does:
//   - The root and each file are resolved to their real paths. A root that no longer
//     resolves to where dws made it (it, or a directory above it up to the stub's
//     directory itself, was replaced by a link), or a file that resolves outside the
//     root, fails the scenario: it is no failure a runtime would route.
//   - Otherwise each file is read: not written (nor its root), not a regular file, not
//     readable, not UTF-8 text (sim.File.Problem), or its text.
//   - dws reads at most sim.MaxFileRead (64 KiB) of each file: of a longer file only
//     those are handed on, and the answer says the text is not whole.

const notFile = "is not a regular file"

// readFiles reads the files paths (by name) that a call had to write under root, in
// the stub's directory.
func readFiles(w *worker, root string, paths map[string]string) (map[string]sim.File, error) {
	rel, err := filepath.Rel(w.dir, root)
	if err != nil {
		return nil, err
	}
	wantRoot := filepath.Join(w.real, rel)
	names := slices.Sorted(maps.Keys(paths))
	realRoot, err := filepath.EvalSymlinks(root)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		realRoot = "" // removed: no output was written
	case err != nil:
		return nil, fmt.Errorf("the step's output root: %w", err)
	case realRoot != wantRoot:
		return nil, fmt.Errorf("the step's output root was replaced by a link: it resolves to %s, not to itself", realRoot)
	}
	out := map[string]sim.File{}
	for _, name := range names {
		real := ""
		if realRoot != "" {
			real, err = filepath.EvalSymlinks(paths[name])
		}
		if real == "" || err != nil {
			out[name] = sim.File{Problem: "was not written"}
			continue
		}
		if !inside(wantRoot, real) {
			return nil, fmt.Errorf("output %s resolves outside the step's output root, to %s", name, real)
		}
		text, whole, why := readOutput(real)
		out[name] = sim.File{Problem: why, Text: text, Whole: whole}
	}
	return out, nil
}

// readOutput reads up to sim.MaxFileRead bytes of an output file; whole is set when that
// is all of it, why says what keeps it from being read.
func readOutput(p string) (text string, whole bool, why string) {
	// Not blocking, not following a link: a FIFO put in the file's place after it was
	// resolved opens and reads nothing rather than hanging.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	if err != nil {
		if info, serr := os.Lstat(p); serr == nil && !info.Mode().IsRegular() {
			return "", false, notFile
		}
		return "", false, "is not readable"
	}
	defer func() { _ = f.Close() }()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return "", false, notFile
	}
	b, err := io.ReadAll(io.LimitReader(f, sim.MaxFileRead+1))
	if err != nil {
		return "", false, "is not readable"
	}
	whole = len(b) <= sim.MaxFileRead
	if !whole {
		b = b[:sim.MaxFileRead]
		// A character cut at the end is no encoding error.
		for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
			if utf8.RuneStart(b[len(b)-k]) {
				if !utf8.FullRune(b[len(b)-k:]) {
					b = b[:len(b)-k]
				}
				break
			}
		}
	}
	if !utf8.Valid(b) {
		return "", false, "is not UTF-8 text"
	}
	return string(b), whole, ""
}
