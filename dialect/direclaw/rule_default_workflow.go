package direclaw

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

var defaultWorkflow = lint.Rule{
	ID: "default-workflow", Severity: lint.Error, Dialect: ID,
	Summary: "default_workflow is not one of the workflows",
	Doc: `When the selector fails or answers nonsense, DireClaw starts default_workflow. If that id
names no workflow of the file, the fallback itself fails and the message is dropped. Name
the id of one of the workflows listed under workflows.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "default_workflow: answer", "default_workflow: anwser")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkDefaultWorkflow(p.File, model(p)) },
}

func checkDefaultWorkflow(f *lint.File, o *orchestrator) {
	name, ok := o.root.Get("default_workflow").Str()
	if !ok || name == "" {
		return // absent or malformed: the schema stage reports it
	}
	var ids, quoted []string
	for _, w := range o.workflows {
		if w.hasID {
			if w.id == name {
				return
			}
			ids = append(ids, w.id)
			quoted = append(quoted, strconv.Quote(w.id))
		}
	}
	hint := " (there are none)"
	if len(ids) > 0 {
		hint = " (known: " + strings.Join(quoted, ", ") + ")"
	}
	if near := suggest.DidYouMean(name, ids); near != "" {
		hint = near
	}
	f.Report("default-workflow", "/default_workflow", fmt.Sprintf(
		"default_workflow names %q, which is not a workflow of this file%s", name, hint))
}

// checkDuplicateWorkflows reports a workflow id used twice (duplicate-id, a core rule):
// the first definition wins.
func checkDuplicateWorkflows(f *lint.File, o *orchestrator) {
	first := map[string]*workflow{}
	for _, w := range o.workflows {
		if !w.hasID {
			continue
		}
		if p, dup := first[w.id]; dup {
			f.Report("duplicate-id", w.ptr+"/id", fmt.Sprintf("workflow %q is defined twice", w.id),
				f.Related(p.ptr+"/id", "first defined here"))
			continue
		}
		first[w.id] = w
	}
}
