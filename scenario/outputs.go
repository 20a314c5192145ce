package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/dwsdev/dws/sim"
)

// The files a DireClaw step had to write are checked as DireClaw's runtime checks a
// worker's outputs (its load_outputs_from_files, validate_outputs_contract and
// parse_review_decision), once the stub and everything it started are gone:
//   - The output root and each file are resolved to their real paths. A root that no
//     longer resolves to where dws made it (it, or a directory above it up to the stub's
//     directory itself, was replaced by a link), or a file that resolves outside the
//     root, fails the scenario: it is no failure DireClaw would route.
//   - Otherwise each output must be a regular file, readable UTF-8 text, and not empty
//     (white space only, or the JSON string "", is empty, as DireClaw finds when it trims
//     the value): else the invocation fails, as the step's attempt does in DireClaw. An
//     optional output ("name?" in outputs) may be absent or empty.
//   - dws reads at most 64 KiB of each file (DireClaw reads them whole): of a longer file
//     only those are checked, and it is empty only when they are all white space. A review
//     decision longer than that is no decision.
//   - A review's decision is its decision file as DireClaw reads it: the text, or the
//     JSON string it holds; trimmed, stripped of quotes, compared without ASCII case with
//     approve and reject, also as "decision: approve" or "decision=approve".

// maxOutputRead is how much of an output file dws reads.
const maxOutputRead = 64 << 10

const notFile = "is not a regular file"

// checkOutputs checks the files paths (by output name) that a step had to write under
// root, in the stub's directory, and returns a's answer as they make it.
func checkOutputs(w *worker, root string, paths map[string]string, optional map[string]bool, a sim.Answer) (sim.Answer, error) {
	rel, err := filepath.Rel(w.dir, root)
	if err != nil {
		return a, err
	}
	wantRoot := filepath.Join(w.real, rel)
	names := slices.Sorted(maps.Keys(paths))
	realRoot, err := filepath.EvalSymlinks(root)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
		realRoot = "" // removed: no output was written
	case err != nil:
		return a, fmt.Errorf("the step's output root: %w", err)
	case realRoot != wantRoot:
		return a, fmt.Errorf("the step's output root was replaced by a link: it resolves to %s, not to itself", realRoot)
	}
	for _, name := range names {
		fail := func(why string) (sim.Answer, error) {
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s %s", name, why)}, nil
		}
		real := ""
		if realRoot != "" {
			real, err = filepath.EvalSymlinks(paths[name])
		}
		if real == "" || err != nil {
			if optional[name] {
				continue
			}
			return fail("was not written")
		}
		if !inside(wantRoot, real) {
			return a, fmt.Errorf("output %s resolves outside the step's output root, to %s", name, real)
		}
		text, whole, why := readOutput(real)
		switch {
		case why == notFile && optional[name]:
			continue // DireClaw takes an optional output that is not a file as absent
		case why != "":
			return fail(why)
		case empty(text, whole) && !optional[name]:
			return fail("is empty")
		}
		if name == "decision" {
			a.Kind, a.Decision = "decision", decision(text, whole)
		}
	}
	return a, nil
}

// readOutput reads up to maxOutputRead bytes of an output file; whole is set when that
// is all of it, why says what keeps DireClaw from reading it.
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
	b, err := io.ReadAll(io.LimitReader(f, maxOutputRead+1))
	if err != nil {
		return "", false, "is not readable"
	}
	whole = len(b) <= maxOutputRead
	if !whole {
		b = b[:maxOutputRead]
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

// value is an output as DireClaw reads it: the JSON value the trimmed text holds, else the
// text.
func value(text string) any {
	var v any
	if err := json.Unmarshal([]byte(strings.TrimSpace(text)), &v); err == nil {
		return v
	}
	return text
}

// empty reports whether DireClaw finds a required output empty: its value is a string
// that is white space only.
func empty(text string, whole bool) bool {
	if !whole {
		return strings.TrimSpace(text) == ""
	}
	s, ok := value(text).(string)
	return ok && strings.TrimSpace(s) == ""
}

// decision is a review's decision file as DireClaw reads it: approve, reject, or what it
// says instead (shortened) when it is neither.
func decision(text string, whole bool) string {
	if !whole {
		return "(a decision file longer than " + size(maxOutputRead) + ")"
	}
	s, _ := value(text).(string)
	s = strings.TrimSpace(s)
	if d := normalDecision(s); d != "" {
		return d
	}
	if s == "" {
		s = strings.TrimSpace(text)
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return s
}

// normalDecision is DireClaw's normalize_review_decision: approve, reject or "".
func normalDecision(raw string) string {
	t := strings.Trim(strings.Trim(strings.TrimSpace(raw), `"`), "'")
	switch l := asciiLower(t); l {
	case "approve", "reject":
		return l
	}
	for _, sep := range []string{":", "="} {
		if k, v, ok := strings.Cut(t, sep); ok && asciiLower(strings.TrimSpace(k)) == "decision" {
			return normalDecision(v)
		}
	}
	return ""
}

// asciiLower lower-cases ASCII letters only, as Rust's to_ascii_lowercase.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
