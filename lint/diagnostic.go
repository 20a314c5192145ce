// Package lint runs the validate pipeline: it reads files, picks a dialect, runs the
// stages of SPEC §3 and collects diagnostics, applying configuration and suppressions.
// It knows the core rules (SPEC §4.1) and the Dialect type, never a dialect itself:
// dialects are handed to it by the caller, as lint.Dialect values (dialect.go says
// which parts a dialect has and which are optional). Neither it nor any other core
// package imports a dialect (.golangci.yml's depguard rule says so), so everything a
// format means reaches the core through those parts.
package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Severity orders findings; Off disables a rule.
type Severity int8

// Severities, lowest first.
const (
	Off Severity = iota
	Info
	Warning
	Error
)

var severityNames = [...]string{"off", "info", "warning", "error"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// ParseSeverity reads a severity name as written in .dws.yaml or on the command line.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if s == n {
			return Severity(i), nil
		}
	}
	return Off, fmt.Errorf("%q is not a severity (want error, warning, info or off)", s)
}

// MarshalJSON writes the severity's name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a severity's name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	v, err := ParseSeverity(n)
	*s = v
	return err
}

// Diagnostic is one finding, placed in a file (SPEC §5).
type Diagnostic struct {
	Rule      string    `json:"rule"`
	Severity  Severity  `json:"severity"`
	Message   string    `json:"message"`
	File      string    `json:"file"`
	Pointer   string    `json:"pointer"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"end_line"`
	EndColumn int       `json:"end_column"`
	Related   []Related `json:"related"`
}

// Related is another place involved in a finding: the other members of a cycle,
// the first of two duplicate ids.
type Related struct {
	File    string `json:"file"`
	Pointer string `json:"pointer"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// String is the one-line compiler form: path:line:col: severity: message [rule].
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.File, d.Line, d.Column, d.Severity, d.Message, d.Rule)
}

// Compare orders diagnostics by file, line, column, rule, then message, so that output
// never depends on the order in which stages or goroutines produced them.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		strings.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Message, b.Message),
		strings.Compare(a.Pointer, b.Pointer),
	)
}

// Sort sorts diagnostics in place and drops exact repeats.
func Sort(ds []Diagnostic) []Diagnostic {
	slices.SortStableFunc(ds, Compare)
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool {
		return Compare(a, b) == 0 && a.Severity == b.Severity
	})
}
