package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var loopBound = lint.Rule{
	ID: "loop-bound", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "a loop's max_iterations exceeds global_constraints.max_iterations",
	Doc: `global_constraints.max_iterations caps every loop of the workflow, and the runtime checks
global constraints at every phase boundary. A loop that declares more iterations than the
cap can never use them: the run hits the global limit first and goes to its failure path
instead of the loop's on_exhaustion action. Lower the loop's max_iterations or raise the cap.`,
	Fail:  lint.Example{Name: "review-flow.json", Text: workflowExample(`"max_iterations": 3,`, `"max_iterations": 8,`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkLoopBound(p.File, workflowModel(p)) },
}

func checkLoopBound(f *lint.File, w *workflow) {
	limitNode := w.global.Get("max_iterations")
	limit, ok := number(limitNode)
	if !ok {
		return
	}
	for _, t := range w.transitions {
		if t.typ != "loop" {
			continue
		}
		n, ok := number(t.node.Get("max_iterations"))
		if !ok || n <= limit {
			continue
		}
		to, _ := t.node.Get("to").Str()
		f.Report("loop-bound", t.ptr+"/max_iterations", fmt.Sprintf(
			"the loop from %q to %q allows %s iterations, more than global_constraints.max_iterations (%s)",
			t.from, to, t.node.Get("max_iterations").Text, limitNode.Text),
			f.Related("/global_constraints/max_iterations", "the workflow's limit"))
	}
}
