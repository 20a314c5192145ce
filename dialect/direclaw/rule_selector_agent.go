package direclaw

import (
	"fmt"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

var selectorAgent = lint.Rule{
	ID: "selector-agent", Severity: lint.Error, Dialect: ID,
	Summary: "selector_agent is not a configured agent",
	Doc: `Every message that does not continue a run goes first to the selector agent, which picks a
workflow. If selector_agent names no key of agents, no message is ever routed. Name one of
the agents; current DireClaw releases also want it to set can_orchestrate_workflows: true,
which direclaw-compat reports as a warning.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "selector_agent: router", "selector_agent: routr")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkSelectorAgent(p.File, model(p)) },
}

func checkSelectorAgent(f *lint.File, o *orchestrator) {
	name, ok := o.root.Get("selector_agent").Str()
	if !ok || name == "" {
		return
	}
	if o.agent(name) == nil {
		f.Report("selector-agent", "/selector_agent", fmt.Sprintf(
			"selector_agent names %q, which is not an agent of this file", name)+suggest.Hint(name, o.agentNames(), "agents"))
	}
}
