package ensemble

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var phaseWorkflow = lint.Rule{
	ID: "phase-workflow", Severity: lint.Error, Dialect: ID,
	Summary: "a phase whose effective workflow is HIERARCHICAL",
	Doc: `A phase runs its tasks SEQUENTIAL or PARALLEL. HIERARCHICAL needs a Manager agent that
cannot be scoped to one phase, so AgentEnsemble rejects it for a phase, whether the phase
sets it or inherits it from the ensemble's workflow. Give the phase its own workflow, or
use HIERARCHICAL only with a flat task list.`,
	Fail:  lint.Example{Name: "kitchen.yaml", Text: kitchen("workflow: PARALLEL", "workflow: HIERARCHICAL")},
	Pass:  lint.Example{Name: "kitchen.yaml", Text: kitchen()},
	Check: func(p *lint.Pass) { checkPhaseWorkflow(p.File, model(p)) },
}

func checkPhaseWorkflow(f *lint.File, e *ensemble) {
	for _, p := range e.phases {
		if e.effective(p) != "HIERARCHICAL" {
			continue
		}
		name := "#" + p.ptr[len("/phases/"):]
		if p.named {
			name = fmt.Sprintf("%q", p.name)
		}
		if p.workflow != "" {
			f.Report("phase-workflow", p.ptr+"/workflow", fmt.Sprintf(
				"phase %s uses workflow HIERARCHICAL, which AgentEnsemble rejects for a phase: use SEQUENTIAL or PARALLEL", name))
			continue
		}
		f.Report("phase-workflow", p.ptr, fmt.Sprintf(
			"phase %s inherits workflow HIERARCHICAL from the ensemble, which AgentEnsemble rejects for a phase: give it SEQUENTIAL or PARALLEL", name),
			f.Related("/workflow", "the ensemble's workflow"))
	}
}
