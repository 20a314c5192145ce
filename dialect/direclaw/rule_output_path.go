package direclaw

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
)

var outputPath = lint.Rule{
	ID: "output-path", Severity: lint.Error, Dialect: ID,
	Summary: "an output_files path (as written, or once the step id fills it) or a step id that is absolute, has a . or .. segment, or escapes the step output root",
	Doc: `Output paths resolve under the step attempt's output root
(~/.direclaw/workflows/runs/<run_id>/steps/<step_id>/attempts/<attempt>/outputs/), and
DireClaw fails any attempt whose path leaves it. An absolute path, a home-relative path, a
drive letter, or a "." or ".." segment is rejected at run time; write a plain relative path
such as plan/summary__{{workflow.run_id}}.txt. A path is checked as written and again with
{{workflow.step_id}} replaced by the step's id, as DireClaw fills it. The step id itself
is a directory of that root: an id with a "." or ".." segment, or an absolute one, would
put the step's files elsewhere, so it is reported too (current DireClaw releases allow only
ASCII letters, digits, - and _ in ids).`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "summary: reply/summary", "summary: ../reply/summary")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkOutputPaths(p.File, model(p)) },
}

func checkOutputPaths(f *lint.File, o *orchestrator) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			if s.hasID {
				if why := badSegment(s.id); why != "" {
					f.Report("output-path", s.ptr+"/id", fmt.Sprintf(
						"step id %q %s: DireClaw keeps the step's files under runs/<run_id>/steps/<step_id>/, which this id would leave", s.id, why))
				}
			}
			for _, m := range s.files.Entries() {
				p, ok := m.Value.Str()
				if !ok {
					continue
				}
				at := s.ptr + "/output_files/" + escape(m.Key)
				if why := badPath(p); why != "" {
					f.Report("output-path", at, fmt.Sprintf(
						"output path %q %s: it must stay under the step's output root", p, why))
					continue
				}
				// The other placeholders DireClaw fills (a run id, an attempt number)
				// hold no separator or dot segment; the step id comes from the file.
				if !s.hasID {
					continue
				}
				filled := interpolatePath(p, runID, s.id, 1)
				if why := badPath(filled); why != "" {
					f.Report("output-path", at, fmt.Sprintf(
						"output path %q becomes %q with step id %q, which %s: it must stay under the step's output root",
						p, filled, s.id, why))
				}
			}
		}
	}
}

// badSegment says what keeps a step id from being one directory of a path, or "".
func badSegment(id string) string {
	switch {
	case strings.HasPrefix(id, "/") || strings.HasPrefix(id, `\`):
		return "is absolute"
	case len(id) >= 2 && id[1] == ':' && (id[0]|0x20 >= 'a' && id[0]|0x20 <= 'z'):
		return "starts with a drive letter"
	case strings.ContainsRune(id, 0):
		return "holds a NUL character"
	}
	for _, seg := range strings.FieldsFunc(id, func(r rune) bool { return r == '/' || r == '\\' }) {
		switch seg {
		case "..":
			return `has a ".." segment`
		case ".":
			return `has a "." segment`
		}
	}
	return ""
}

// badPath says what is wrong with an output path template, or "".
func badPath(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "is empty"
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`):
		return "is absolute"
	case strings.HasPrefix(p, "~"):
		return "is relative to a home directory"
	case len(p) >= 2 && p[1] == ':' && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z'):
		return "starts with a drive letter"
	}
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		switch seg {
		case "..":
			return `has a ".." segment`
		case ".":
			return `has a "." segment`
		}
	}
	if strings.HasSuffix(p, "/") || strings.HasSuffix(p, `\`) {
		return "names a directory, not a file"
	}
	return ""
}
