package report

import (
	"slices"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
)

// DiffResult is a dws diff report as validate's findings, for the CI formats of §9
// (SARIF, JUnit, codeclimate): each version finding at the new version, and each
// breaking change no acknowledgement approved as a breaking-change finding at its place
// in the new file (the unit's when it has none there; the old file's for a removed
// unit), and each problem (a file that does not parse, a unit defined twice) as an
// error. sev gives a rule's severity as configured; Off leaves its findings out.
func DiffResult(rep *change.Report, sev func(rule string) lint.Severity) *lint.Result {
	byFile := map[string][]lint.Diagnostic{}
	var order []string
	add := func(d lint.Diagnostic) {
		if d.Severity == lint.Off {
			return
		}
		if _, ok := byFile[d.File]; !ok {
			order = append(order, d.File)
		}
		byFile[d.File] = append(byFile[d.File], d)
	}
	// What kept a file or a unit from being compared is an error, whatever rules: says:
	// the run cannot vouch for it.
	for _, p := range rep.Problems {
		line, col := p.Line, p.Col
		if line == 0 {
			line, col = 1, 1
		}
		add(lint.Diagnostic{Rule: p.Rule, Severity: lint.Error, Message: p.Message, File: p.Path,
			Line: line, Column: col, EndLine: line, EndColumn: col, Related: []lint.Related{}})
	}
	for i := range rep.Units {
		d := &rep.Units[i]
		if v := d.Verdict; v != nil && v.Rule != "" && d.New != nil {
			add(lint.Diagnostic{Rule: v.Rule, Severity: sev(v.Rule), Message: d.ID + ": " + v.Message, File: d.New.Path,
				Line: int(d.New.VersionSpan.Start.Line), Column: int(d.New.VersionSpan.Start.Col),
				EndLine: int(d.New.VersionSpan.End.Line), EndColumn: int(d.New.VersionSpan.End.Col), Related: []lint.Related{}})
		}
		for _, c := range d.Changes {
			if c.Class != change.Breaking || c.Acknowledged != "" {
				continue
			}
			u, side := d.New, c.New
			if u == nil {
				u, side = d.Old, c.Old
			}
			line, col := int(u.Span.Start.Line), int(u.Span.Start.Col)
			if side != nil && side.Line > 0 {
				line, col = side.Line, side.Col
			}
			msg := d.ID + ": " + changeText(c)
			if c.Why != "" {
				msg += " (" + c.Why + ")"
			}
			msg += " [fingerprint " + c.Fingerprint + "]"
			add(lint.Diagnostic{Rule: "breaking-change", Severity: sev("breaking-change"), Message: msg, File: u.Path,
				Line: line, Column: col, EndLine: line, EndColumn: col, Related: []lint.Related{}})
		}
	}
	slices.Sort(order)
	res := &lint.Result{}
	for _, f := range order {
		res.Files = append(res.Files, lint.FileResult{Path: f, Diagnostics: lint.Sort(byFile[f])})
	}
	return res
}
