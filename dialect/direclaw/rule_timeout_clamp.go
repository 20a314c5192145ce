package direclaw

import (
	"fmt"
	"math/big"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var timeoutClamp = lint.Rule{
	ID: "timeout-clamp", Severity: lint.Warning, Dialect: ID,
	Summary: "a step timeout above max_step_timeout_seconds (DireClaw clamps it)",
	Doc: `A step's effective timeout is its limits.timeout_seconds (in the seed format; current
releases ignore it), else workflow_orchestration.default_step_timeout_seconds, and DireClaw
clamps it to workflow_orchestration.max_step_timeout_seconds, logging the clamp only in the
run's diagnostics. A configured timeout above the maximum is therefore never what runs:
lower it, or raise the maximum. A timeout of 0 is valid (DireClaw's own tests use it); a
maximum of 0 clamps every other timeout to 0.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "default_step_timeout_seconds: 900", "default_step_timeout_seconds: 3600")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkTimeoutClamp(p.File, model(p), releaseOf(p.File)) },
}

func checkTimeoutClamp(f *lint.File, o *orchestrator, rel Release) {
	orch := o.root.Get("workflow_orchestration")
	max := integer(orch.Get("max_step_timeout_seconds"))
	if max == nil {
		return
	}
	check := func(ptr string, n *source.Node, what string) {
		if v := integer(n); v != nil && v.Cmp(max) > 0 {
			f.Report("timeout-clamp", ptr, fmt.Sprintf(
				"%s (%s) is above workflow_orchestration.max_step_timeout_seconds (%s): DireClaw clamps it to %s",
				what, v, max, max), f.Related("/workflow_orchestration/max_step_timeout_seconds", "the maximum"))
		}
	}
	check("/workflow_orchestration/default_step_timeout_seconds", orch.Get("default_step_timeout_seconds"), "default_step_timeout_seconds")
	if rel.current() {
		return // current releases ignore a step's timeout (direclaw-compat says so)
	}
	for _, w := range o.workflows {
		for _, s := range w.steps {
			check(s.ptr+"/limits/timeout_seconds", s.node.Get("limits").Get("timeout_seconds"),
				"timeout_seconds of step "+s.label())
		}
	}
}

// integer is the value of an integer number node, or nil.
func integer(n *source.Node) *big.Int {
	if n == nil || n.Kind != source.Number {
		return nil
	}
	v, ok := new(big.Int).SetString(n.Text, 10)
	if !ok {
		return nil
	}
	return v
}
