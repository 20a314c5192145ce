package direclaw

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var selectorAgent = lint.Rule{
	ID: "selector-agent", Severity: lint.Error, Dialect: ID,
	Summary: "selector_agent is not a configured agent",
	Doc: `Every message that does not continue a run goes first to the selector agent, which picks a
workflow. If selector_agent names no key of agents, no message is ever routed. Name one of
the agents; current DireClaw releases also want it to set can_orchestrate_workflows: true,
which direclaw-compat reports as a warning.`,
	Fail: lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "selector_agent: router", "selector_agent: routr")},
	Pass: lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
}

func checkSelectorAgent(f *lint.File, o *orchestrator) {
	name, ok := o.root.Get("selector_agent").Str()
	if !ok || name == "" {
		return
	}
	a := o.agent(name)
	if a == nil {
		f.Report(selectorAgent.ID, "/selector_agent", fmt.Sprintf(
			"selector_agent names %q, which is not an agent of this file", name))
		return
	}
	if v := a.Get("can_orchestrate_workflows"); v == nil || !v.Bool {
		f.Report(compat.ID, "/selector_agent", fmt.Sprintf(
			"selector agent %q does not set can_orchestrate_workflows: true, which current DireClaw releases require", name),
			f.Related("/agents/"+escape(name), "the agent is defined here"))
	}
}
