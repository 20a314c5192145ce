package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/source"
)

// File is one file going through the pipeline; stages report findings on it.
type File struct {
	// Path is the path as shown to the user.
	Path    string
	Doc     *source.Document
	Dialect *Dialect
	// Model is what the dialect's Decode made of Doc, once per run; nil without one.
	Model  any
	Config *Config
	// Limiter bounds the goroutines a check may use (the statements of a file).
	Limiter *Limiter

	reg   *Registry
	diags []Diagnostic
	stdin bool
	// own is set when the file turns out to be one dws wrote (a baseline).
	own bool
	// heavy is set while the file holds the run's lock for large files.
	heavy bool
	// check is the check running on the file, which may report only its rules.
	check checkRun
}

// checkRun is a check running on a file: the rules it declares, and its name in words
// made only for the message of a check that reports another (for every rule of every
// file, the words were a tenth of a file's allocations).
type checkRun struct {
	on    bool
	rules []string // the rules it may report, beside one
	one   string
	what  string // "rule ", "the graph of ", "the SQL stage on ", " check of "
	name  string // the rule's id, or the dialect's
}

// allows says whether the running check (if any) declares rule.
func (c *checkRun) allows(rule string) bool {
	return !c.on || rule == c.one || slices.Contains(c.rules, rule)
}

func (c *checkRun) String() string {
	if c.what == " check of " {
		return c.name + c.what + strings.Join(c.rules, ", ")
	}
	return c.what + c.name
}

// Report records a finding of rule at the value pointer names. When the pointer names
// a missing member, the finding lands on the nearest enclosing value that exists.
func (f *File) Report(rule, pointer, message string, related ...Related) {
	f.ReportAt(rule, pointer, f.spanOf(pointer, false), message, related...)
}

// ReportKey records a finding underlining the key of the member pointer names.
func (f *File) ReportKey(rule, pointer, message string, related ...Related) {
	f.ReportAt(rule, pointer, f.spanOf(pointer, true), message, related...)
}

// ReportAt records a finding at an explicit span, such as a character inside a string.
func (f *File) ReportAt(rule, pointer string, span source.Span, message string, related ...Related) {
	if !f.check.allows(rule) {
		panic(fmt.Sprintf("lint: %s reported rule %q, which it does not declare", f.check.String(), rule))
	}
	sev := f.severity(rule)
	if sev == Off {
		return
	}
	if related == nil {
		related = []Related{}
	}
	f.diags = append(f.diags, Diagnostic{
		Rule: rule, Severity: sev, Message: message, File: f.Path, Pointer: pointer,
		Line: int(span.Start.Line), Column: int(span.Start.Col), EndLine: int(span.End.Line), EndColumn: int(span.End.Col),
		Related: related,
	})
}

// Related builds a related location in this file.
func (f *File) Related(pointer, message string) Related {
	sp := f.spanOf(pointer, false)
	return Related{File: f.Path, Pointer: pointer, Line: int(sp.Start.Line), Column: int(sp.Start.Col), Message: message}
}

// Span is the span of the value pointer names (or of its nearest existing ancestor).
func (f *File) Span(pointer string) source.Span { return f.spanOf(pointer, false) }

func (f *File) severity(rule string) Severity {
	if f.Config != nil {
		if s, ok := f.Config.Rules[rule]; ok {
			return s
		}
		if s, ok := f.Config.defaults[rule]; ok {
			return s
		}
	}
	r, ok := f.reg.Lookup(rule)
	if !ok {
		// A bug in dws: the run stops with exit 3 rather than report an id no
		// configuration, suppression or documentation knows.
		panic(fmt.Sprintf("lint: rule %q is reported but not registered", rule))
	}
	return r.Severity
}

// On reports whether rule is on for this file. A rule that leaves a fact to a more
// specific rule asks it, so that the fact is still reported once when that rule is off.
func (f *File) On(rule string) bool { return f.on(rule) }

// on reports whether any of rules is not turned off for this file.
func (f *File) on(rules ...string) bool {
	for _, id := range rules {
		if f.severity(id) != Off {
			return true
		}
	}
	return false
}

// running limits what f accepts to the rules the check c declares until done is called.
func (f *File) running(c checkRun) {
	c.on = c.rules != nil || c.one != ""
	f.check = c
}

// done ends what running began.
func (f *File) done() { f.check = checkRun{} }

func (f *File) spanOf(pointer string, key bool) source.Span {
	if f.Doc == nil {
		return fileStart
	}
	for p := pointer; ; {
		if key {
			if sp, ok := f.Doc.KeySpan(p); ok {
				return sp
			}
		}
		if sp, ok := f.Doc.PointerSpan(p); ok {
			return sp
		}
		if p == "" {
			return fileStart
		}
		p = p[:strings.LastIndexByte(p, '/')]
		key = false
	}
}

var fileStart = source.Span{
	Start: source.Pos{Line: 1, Col: 1},
	End:   source.Pos{Line: 1, Col: 1},
}
