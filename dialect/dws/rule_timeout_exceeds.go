package dws

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var timeoutExceeds = lint.Rule{
	ID: "timeout-exceeds", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "a phase timeout is longer than global_constraints.max_duration",
	Doc: `The whole workflow may take at most global_constraints.max_duration. A phase whose own
timeout is longer can never use it: the global limit ends the run first, and the phase's
on_timeout route is never taken. Shorten the phase timeout or lengthen the global limit.
For the comparison a year counts 365 days and a month 30.`,
	Fail:  lint.Example{Name: "review-flow.json", Text: workflowExample(`"timeout": "PT1H"`, `"timeout": "PT6H"`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkTimeoutExceeds(p.File, workflowModel(p)) },
}

func checkTimeoutExceeds(f *lint.File, w *workflow) {
	max, ok := w.global.Get("max_duration").Str()
	if !ok {
		return
	}
	limit, ok := parseDuration(max)
	if !ok {
		return
	}
	for _, p := range w.phases {
		t, ok := p.node.Get("timeout").Str()
		if !ok {
			continue
		}
		if d, ok := parseDuration(t); ok && d > limit {
			f.Report("timeout-exceeds", p.ptr+"/timeout", fmt.Sprintf(
				"phase %s may run for %s, longer than the workflow's max_duration %s", p.label(), t, max),
				f.Related("/global_constraints/max_duration", "the workflow's limit"))
		}
	}
}
