package dws

import (
	"fmt"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

var parallelStructure = lint.Rule{
	ID: "parallel-structure", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "a parallel branch's own transitions never reach the join target",
	Doc: `Each branch of a parallel transition is expected to end at the join. A branch phase with
transitions of its own that lead elsewhere and never come back to join.to runs those phases
outside the fork/join: the join may wait for work that has moved on, or proceed while it
is still running. Route the branch's transitions to the join target, or remove them.`,
	Fail: lint.Example{Name: "fan-out.json", Text: parallelExample(
		`"verification_gate": { "gate_id": "g4" }, "exit_conditions": [] }`,
		`"verification_gate": { "gate_id": "g4" }, "exit_conditions": [] },
    { "id": "archive", "name": "Archive", "purpose": "File the style notes.", "worker_assignment": { "role": "coordinator" },
      "verification_gate": { "gate_id": "g5" }, "exit_conditions": [] }`,
		`"join": { "strategy": "all", "to": "merge", "timeout": "PT1H" } }`,
		`"join": { "strategy": "all", "to": "merge", "timeout": "PT1H" } },
    { "type": "handoff", "from": "style", "to": "archive" }`)},
	Pass:  lint.Example{Name: "fan-out.json", Text: parallelExample()},
	Check: func(p *lint.Pass) { checkParallelStructure(p.File, workflowModel(p)) },
}

func checkParallelStructure(f *lint.File, w *workflow) {
	es := w.edges()
	own := func(e edge) bool { return e.kind != graph.Loop && !e.implicit }
	adj := w.adjacency(es, own)
	hasOwn := map[string]bool{}
	for _, e := range es {
		if own(e) {
			hasOwn[e.from] = true
		}
	}
	for _, t := range w.transitions {
		if t.typ != "parallel" {
			continue
		}
		to, ok := t.node.Get("join").Get("to").Str()
		if !ok || w.byID[to] == nil {
			continue
		}
		for i, b := range items(t.node.Get("branches")) {
			br, ok := b.Str()
			if !ok || w.byID[br] == nil || br == to {
				continue
			}
			if hasOwn[br] && !reach(adj, br)[to] {
				f.Report("parallel-structure", t.ptr+"/branches/"+itoa(i), fmt.Sprintf(
					"branch %q of the parallel transition from %q has transitions of its own that never reach the join target %q",
					br, t.from, to))
			}
		}
	}
}
