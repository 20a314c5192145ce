package direclaw

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// The files a stub worker process wrote for a step (its output_files, read back by
// dws test into the answer) are judged as DireClaw's runtime judges a worker's outputs
// (its load_outputs_from_files, validate_outputs_contract and parse_review_decision):
//   - Each output must be a regular file, readable UTF-8 text, and not empty (white
//     space only, or the JSON string "", is empty, as DireClaw finds when it trims the
//     value): else the invocation fails, as the step's attempt does in DireClaw. An
//     optional output ("name?" in outputs) may be absent or empty.
//   - dws reads at most 64 KiB of each file (DireClaw reads them whole): of a longer
//     file only those are checked, and it is empty only when they are all white space.
//     A review decision longer than that is no decision.
//   - A review's decision is its decision file as DireClaw reads it: the text, or the
//     JSON string it holds; trimmed, stripped of quotes, compared without ASCII case
//     with approve and reject, also as "decision: approve" or "decision=approve".

// judgeOutputs is the answer a's output files make of it, for step s.
func judgeOutputs(s *step, a sim.Answer) sim.Answer {
	optional := map[string]bool{}
	for _, o := range s.outputs {
		if o.optional {
			optional[o.name] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.Files)) {
		f := a.Files[name]
		fail := func(why string) sim.Answer {
			return sim.Answer{Kind: "fail", Reason: fmt.Sprintf("output %s %s", name, why)}
		}
		switch {
		case optional[name] && (f.Problem == "was not written" || f.Problem == "is not a regular file"):
			continue // DireClaw takes an optional output that is not a file as absent
		case f.Problem != "":
			return fail(f.Problem)
		case empty(f.Text, f.Whole) && !optional[name]:
			return fail("is empty")
		}
		if name == "decision" {
			a.Kind, a.Decision = "decision", decision(f.Text, f.Whole)
		}
	}
	return a
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
		return fmt.Sprintf("(a decision file longer than %d KiB)", sim.MaxFileRead>>10)
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
