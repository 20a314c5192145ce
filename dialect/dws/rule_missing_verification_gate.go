package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var missingVerificationGate = lint.Rule{
	ID: "missing-verification-gate", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "a phase has no verification_gate",
	Doc: `Spec 6 makes verification gates optional but recommended, and says the validate tool warns
when a phase has none: without a gate nothing independent checks the phase's output before
the next phase builds on it. Add a verification_gate, or turn the rule off in .dws.yaml
(rules: { missing-verification-gate: off }) for workflows where that is a deliberate choice.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"verification_gate": { "gate_id": "draft-check", "blocking": true },`, ``)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkMissingVerificationGate(p.File, workflowModel(p)) },
}

func checkMissingVerificationGate(f *lint.File, w *workflow) {
	for _, p := range w.phases {
		if p.node.Kind != source.Object || p.hasVerificationGate() {
			continue
		}
		ptr := p.ptr + "/id"
		if p.id == "" {
			ptr = p.ptr
		}
		f.Report("missing-verification-gate", ptr, fmt.Sprintf("phase %s has no verification_gate: nothing checks its output", p.label()))
	}
}
