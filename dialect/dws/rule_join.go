package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var join = lint.Rule{
	ID: "join", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "min_branches exceeds the branches, or the join target is also a branch",
	Doc: `A parallel transition forks into its branches and meets again at join.to. An n_of_m join
that waits for more branches than there are can never proceed; a join target that is
itself one of the branches runs once as a branch and again after the join, and waits for
itself. Lower min_branches, or move the join target out of the branch list.`,
	Fail:  lint.Example{Name: "fan-out.json", Text: parallelExample(`"strategy": "all"`, `"strategy": "n_of_m", "min_branches": 3`)},
	Pass:  lint.Example{Name: "fan-out.json", Text: parallelExample(`"strategy": "all"`, `"strategy": "n_of_m", "min_branches": 1`)},
	Check: func(p *lint.Pass) { checkJoin(p.File, workflowModel(p)) },
}

// parallelExample is a workflow with one parallel transition, all of whose phases pass
// every rule.
func parallelExample(replacements ...string) string {
	return example(`{
  "name": "fan-out", "version": "1.0.0", "description": "Review in parallel, then merge.",
  "entry_phase": "analysis",
  "phases": [
    { "id": "analysis", "name": "Analysis", "purpose": "Split the work.", "worker_assignment": { "role": "coordinator" },
      "verification_gate": { "gate_id": "g1" }, "exit_conditions": [] },
    { "id": "security", "name": "Security", "purpose": "Security review.", "worker_assignment": { "role": "verifier" },
      "verification_gate": { "gate_id": "g2" }, "exit_conditions": [] },
    { "id": "style", "name": "Style", "purpose": "Style review.", "worker_assignment": { "role": "verifier" },
      "verification_gate": { "gate_id": "g3" }, "exit_conditions": [] },
    { "id": "merge", "name": "Merge", "purpose": "Merge the reviews.", "worker_assignment": { "role": "coordinator" },
      "verification_gate": { "gate_id": "g4" }, "exit_conditions": [] }
  ],
  "transitions": [
    { "type": "parallel", "from": "analysis", "branches": ["security", "style"],
      "join": { "strategy": "all", "to": "merge", "timeout": "PT1H" } }
  ],
  "exit_conditions": {}
}
`, replacements...)
}

func checkJoin(f *lint.File, w *workflow) {
	for _, t := range w.transitions {
		if t.typ != "parallel" {
			continue
		}
		branches := items(t.node.Get("branches"))
		j := t.node.Get("join")
		if mb, ok := number(j.Get("min_branches")); ok && mb > float64(len(branches)) {
			f.Report("join", t.ptr+"/join/min_branches", fmt.Sprintf(
				"the join waits for %s branches, but the parallel transition from %q has only %d",
				j.Get("min_branches").Text, t.from, len(branches)))
		}
		to, ok := j.Get("to").Str()
		if !ok {
			continue
		}
		for i, b := range branches {
			if s, _ := b.Str(); s == to {
				f.Report("join", t.ptr+"/join/to", fmt.Sprintf("the join target %q is also a branch of the parallel transition from %q", to, t.from),
					f.Related(t.ptr+"/branches/"+itoa(i), "the branch"))
				break
			}
		}
	}
}
