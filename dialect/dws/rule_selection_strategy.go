package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var selectionStrategy = lint.Rule{
	ID: "selection-strategy", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "selection_strategy: specific names no worker",
	Doc: `A phase's worker_assignment picks workers by role: any worker with it, a round robin, or a
specific worker named by worker_assignment.worker_ref (a worker's identity.name). A specific
selection without a worker_ref leaves the runtime nobody to pick; in a job spec, a
worker_ref that names no worker of the job spec fails the same way.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"role": "implementor", "count": 1, "selection_strategy": "any"`,
		`"role": "implementor", "count": 1, "selection_strategy": "specific"`)},
	Pass: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"role": "implementor", "count": 1, "selection_strategy": "any"`,
		`"role": "implementor", "count": 1, "selection_strategy": "specific", "worker_ref": "code-writer"`)},
	Check: func(p *lint.Pass) { checkSelectionStrategy(p.File, workflowModel(p)) },
}

func checkSelectionStrategy(f *lint.File, w *workflow) {
	for _, p := range w.phases {
		wa := p.node.Get("worker_assignment")
		if s, _ := wa.Get("selection_strategy").Str(); s != "specific" {
			continue
		}
		if ref, _ := wa.Get("worker_ref").Str(); ref == "" {
			f.Report("selection-strategy", p.ptr+"/worker_assignment/selection_strategy", fmt.Sprintf(
				"phase %s selects a specific worker but names none in worker_assignment.worker_ref", p.label()))
		}
	}
}
