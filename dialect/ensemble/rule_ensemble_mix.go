package ensemble

import (
	"github.com/dwsdev/dws/lint"
)

var ensembleMix = lint.Rule{
	ID: "ensemble-mix", Severity: lint.Error, Dialect: ID,
	Summary: "an ensemble with both tasks and phases",
	Doc: `An ensemble is either a flat task list or a DAG of phases; AgentEnsemble's validator
rejects a builder given both, because flat tasks would belong to no phase and have no
place in the phase order. Move the tasks into a phase (a phase without after runs at the
start), or drop phases.`,
	Fail:  lint.Example{Name: "kitchen.yaml", Text: kitchen() + "tasks:\n  - { name: wash-up, description: Wash the dishes }\n"},
	Pass:  lint.Example{Name: "kitchen.yaml", Text: kitchen()},
	Check: func(p *lint.Pass) { checkEnsembleMix(p.File, model(p)) },
}

func checkEnsembleMix(f *lint.File, e *ensemble) {
	if e.root.Member("phases") != nil && e.root.Member("tasks") != nil {
		f.ReportKey("ensemble-mix", "/tasks",
			"the ensemble has both tasks and phases: put these tasks into a phase, or drop phases",
			f.Related("/phases", "the phases are here"))
	}
}
