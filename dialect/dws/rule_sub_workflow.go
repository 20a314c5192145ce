package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var subWorkflow = lint.Rule{
	ID: "sub-workflow", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "a sub_workflow names no workflow of the job spec, or sub-workflows include each other",
	Doc: `A phase may run another workflow of its job spec, named by its name, as one atomic unit.
A name that matches no workflow in the job spec's workflows/ folder fails when the phase
starts; workflows that include each other (or themselves) as sub-workflows never finish,
and no loop bound applies to them. Names and cycles across files are checked when dws
validates the job spec; a workflow that includes itself is found in any file.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"worker_assignment": { "role": "verifier", "count": 1, "selection_strategy": "any" },`,
		`"sub_workflow": "review-flow",`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkSelfSubWorkflow(p.File, workflowModel(p)) },
}

// checkSelfSubWorkflow reports a phase that runs its own workflow.
func checkSelfSubWorkflow(f *lint.File, w *workflow) {
	if w.name == "" {
		return
	}
	for _, p := range w.phases {
		if s, _ := p.node.Get("sub_workflow").Str(); s == w.name {
			f.Report("sub-workflow", p.ptr+"/sub_workflow", fmt.Sprintf(
				"phase %s runs its own workflow %q as a sub-workflow, which never finishes", p.label(), s))
		}
	}
}
