// Package report writes what dws found in the formats users ask for: a validate run as
// text for people, JSON for programs, and SARIF, GitHub workflow commands, JUnit and
// Code Climate for CI; dws graph's Mermaid and DOT drawings; dws simulate's text, JSON,
// Mermaid and paths; dws test's results and its coverage page; and dws diff's reports in
// the same formats. It knows diagnostics and results, never how they were found.
package report

import (
	"fmt"
	"io"
	"time"

	"github.com/dwsdev/dws/lint"
)

// Writer writes one run's result.
type Writer interface {
	Write(w io.Writer, res *lint.Result) error
}

// Options tune the writers.
type Options struct {
	// Color turns on terminal styling (text only).
	Color bool
	// Version is dws's version, for the formats that name the tool.
	Version string
	// Registry describes the rules, for the formats that carry rule metadata.
	Registry *lint.Registry
	// Invocation is how the run went, for the formats that record it (SARIF); nil
	// leaves it out, so that the output stays byte-stable.
	Invocation *Invocation
}

// Invocation is one run of dws: its exit code and when it started and ended.
type Invocation struct {
	ExitCode   int
	Start, End time.Time
}

// Formats lists the format names New accepts.
var Formats = []string{"text", "json", "sarif", "github", "junit", "codeclimate"}

// New returns the writer for a format name.
func New(format string, opts Options) (Writer, error) {
	switch format {
	case "text", "":
		return &text{opts: opts}, nil
	case "json":
		return &jsonWriter{opts: opts}, nil
	case "sarif":
		return &sarifWriter{opts: opts}, nil
	case "github":
		return github{}, nil
	case "junit":
		return junit{}, nil
	case "codeclimate":
		return codeclimate{}, nil
	}
	return nil, fmt.Errorf("unknown format %q", format)
}

// Summary counts a result's findings by severity.
type Summary struct {
	Files      int `json:"files"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Suppressed int `json:"suppressed"`
	// Failed is the number of files with at least one finding.
	Failed int `json:"-"`
}

// Summarize counts res.
func Summarize(res *lint.Result) Summary {
	s := Summary{Suppressed: res.Suppressed}
	for _, f := range res.Files {
		if !f.Extra {
			s.Files++
		}
		if len(f.Diagnostics) > 0 {
			s.Failed++
		}
		for _, d := range f.Diagnostics {
			switch d.Severity {
			case lint.Error:
				s.Errors++
			case lint.Warning:
				s.Warnings++
			case lint.Info:
				s.Infos++
			}
		}
	}
	return s
}
