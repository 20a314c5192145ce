package lint

import (
	"strings"

	"github.com/dwsdev/dws/source"
)

// File is one file going through the pipeline; stages report findings on it.
type File struct {
	// Path is the path as shown to the user.
	Path    string
	Doc     *source.Document
	Dialect Dialect
	Config  *Config

	reg   *Registry
	diags []Diagnostic
	stdin bool
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
	sev := f.severity(rule)
	if sev == Off {
		return
	}
	if related == nil {
		related = []Related{}
	}
	f.diags = append(f.diags, Diagnostic{
		Rule: rule, Severity: sev, Message: message, File: f.Path, Pointer: pointer,
		Line: span.Start.Line, Column: span.Start.Col, EndLine: span.End.Line, EndColumn: span.End.Col,
		Related: related,
	})
}

// Related builds a related location in this file.
func (f *File) Related(pointer, message string) Related {
	sp := f.spanOf(pointer, false)
	return Related{File: f.Path, Pointer: pointer, Line: sp.Start.Line, Column: sp.Start.Col, Message: message}
}

// Span is the span of the value pointer names (or of its nearest existing ancestor).
func (f *File) Span(pointer string) source.Span { return f.spanOf(pointer, false) }

func (f *File) severity(rule string) Severity {
	if f.Config != nil {
		if s, ok := f.Config.Rules[rule]; ok {
			return s
		}
	}
	if r, ok := f.reg.Lookup(rule); ok {
		return r.Severity
	}
	// An unregistered rule is a bug in dws, but losing the finding would be worse.
	return Error
}

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
