package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var gateOrder = lint.Rule{
	ID: "gate-order", Severity: lint.Error, Dialect: WorkflowID,
	Summary: "an approval gate placed after_verification on a phase with no verification gate",
	Doc: `A phase's gates run in a fixed order: verification first, then an approval gate placed
after_verification. On a phase without a verification gate that placement names a step
that never happens, so it is unclear when the human is asked. Add the verification gate,
or change the approval gate's placement.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"verification_gate": { "gate_id": "draft-check", "blocking": true },`,
		`"approval_gate": { "placement": "after_verification" },`)},
	Pass: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`"verification_gate": { "gate_id": "draft-check", "blocking": true },`,
		`"verification_gate": { "gate_id": "draft-check", "blocking": true },
      "approval_gate": { "placement": "after_verification" },`)},
	Check: func(p *lint.Pass) { checkGateOrder(p.File, workflowModel(p)) },
}

func checkGateOrder(f *lint.File, w *workflow) {
	for _, p := range w.phases {
		if pl, _ := p.node.Get("approval_gate").Get("placement").Str(); pl == "after_verification" && !p.hasVerificationGate() {
			f.Report("gate-order", p.ptr+"/approval_gate/placement", fmt.Sprintf(
				"phase %s places its approval gate after_verification, but has no verification_gate", p.label()))
		}
	}
}
