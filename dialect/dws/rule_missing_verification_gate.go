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
	// A phase that places its approval gate after_verification, or that a transition
	// leaves on_verification_fail, was written expecting a gate: gate-order and
	// failure-edge report the missing gate there, where it breaks something.
	owned := map[string]bool{}
	if f.On("failure-edge") {
		for _, t := range w.transitions {
			if t.node.Member("on_verification_fail") != nil {
				owned[t.from] = true
			}
		}
	}
	for _, p := range w.phases {
		if p.node.Kind != source.Object || p.hasVerificationGate() {
			continue
		}
		if pl, _ := p.node.Get("approval_gate").Get("placement").Str(); pl == "after_verification" && f.On("gate-order") {
			continue
		}
		if p.id != "" && owned[p.id] && w.byID[p.id] == p {
			continue
		}
		ptr := p.ptr + "/id"
		if p.id == "" {
			ptr = p.ptr
		}
		f.Report("missing-verification-gate", ptr, fmt.Sprintf("phase %s has no verification_gate: nothing checks its output", p.label()))
	}
}
