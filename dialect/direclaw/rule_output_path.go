package direclaw

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
)

var outputPath = lint.Rule{
	ID: "output-path", Severity: lint.Error, Dialect: ID,
	Summary: "an output_files path that is absolute, has a . or .. segment, or escapes the step output root",
	Doc: `Output paths resolve under the step attempt's output root
(~/.direclaw/workflows/runs/<run_id>/steps/<step_id>/attempts/<attempt>/outputs/), and
DireClaw fails any attempt whose path leaves it. An absolute path, a home-relative path, a
drive letter, or a "." or ".." segment is rejected at run time; write a plain relative path
such as plan/summary__{{workflow.run_id}}.txt.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "summary: reply/summary", "summary: ../reply/summary")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkOutputPaths(p.File, model(p)) },
}

func checkOutputPaths(f *lint.File, o *orchestrator) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			for _, m := range s.files.Entries() {
				p, ok := m.Value.Str()
				if !ok {
					continue
				}
				if why := badPath(p); why != "" {
					f.Report("output-path", s.ptr+"/output_files/"+escape(m.Key), fmt.Sprintf(
						"output path %q %s: it must stay under the step's output root", p, why))
				}
			}
		}
	}
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
