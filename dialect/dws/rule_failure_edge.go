package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var failureEdge = lint.Rule{
	ID: "failure-edge", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "on_verification_fail from a phase with no verification gate",
	Doc: `on_verification_fail routes a run when the phase's verification gate fails. A phase
without a verification gate never fails verification, so the route is never taken: either
the gate was forgotten or the route is dead. Add a verification_gate to the transition's
from phase, or remove on_verification_fail.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"verification_gate": { "gate_id": "draft-check", "blocking": true },`, ``,
		`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "sequential", "from": "draft", "to": "review", "on_verification_fail": "review" }`)},
	Pass: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "sequential", "from": "draft", "to": "review", "on_verification_fail": "review" }`)},
	Check: func(p *lint.Pass) { checkFailureEdge(p.File, workflowModel(p)) },
}

func checkFailureEdge(f *lint.File, w *workflow) {
	for _, t := range w.transitions {
		p := w.byID[t.from]
		if p == nil || t.node.Member("on_verification_fail") == nil || p.hasVerificationGate() {
			continue
		}
		f.Report("failure-edge", t.ptr+"/on_verification_fail", fmt.Sprintf(
			"on_verification_fail is never taken: phase %q has no verification_gate", t.from))
	}
}
