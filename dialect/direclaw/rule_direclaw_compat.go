package direclaw

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var compat = lint.Rule{
	ID: "direclaw-compat", Severity: lint.Warning, Dialect: ID,
	Summary: "valid in the seed format but rejected by current DireClaw releases",
	Doc: `Current DireClaw releases are stricter than the format the seed document describes: every
step needs a summary output, every workflow a description and tags, inputs must be a list,
workspace_mode: agent_workspace and the agent keys private_workspace and shared_access are
gone, write_state is ignored, and the selector agent must set can_orchestrate_workflows:
true. Each such key occurrence is one warning, so a file with none is safe on both
releases.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "    description: Answer a question\n", "")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkCompat(p.File, model(p)) },
}

func checkCompat(f *lint.File, o *orchestrator) {
	// The selector agent must be allowed to orchestrate (an unknown one is selector-agent's).
	if name, ok := o.root.Get("selector_agent").Str(); ok && name != "" {
		if a := o.agent(name); a != nil {
			if v := a.Get("can_orchestrate_workflows"); v == nil || !v.Bool {
				f.Report("direclaw-compat", "/selector_agent", fmt.Sprintf(
					"selector agent %q does not set can_orchestrate_workflows: true, which current DireClaw releases require", name),
					f.Related("/agents/"+escape(name), "the agent is defined here"))
			}
		}
	}
	for _, m := range o.agents.Entries() {
		for _, k := range []string{"private_workspace", "shared_access"} {
			if m.Value.Member(k) != nil {
				f.ReportKey("direclaw-compat", "/agents/"+escape(m.Key)+"/"+k,
					fmt.Sprintf("agent %q sets %s, which current DireClaw releases no longer have", m.Key, k))
			}
		}
	}
	for _, w := range o.workflows {
		name := fmt.Sprintf("workflow #%d", indexOf(o, w))
		if w.hasID {
			name = fmt.Sprintf("workflow %q", w.id)
		}
		for _, k := range []string{"description", "tags"} {
			if w.node.Member(k) == nil {
				f.Report("direclaw-compat", w.ptr, fmt.Sprintf("%s has no %s, which current DireClaw releases require", name, k))
			}
		}
		if in := w.node.Get("inputs"); in != nil && in.Kind == source.Object {
			f.Report("direclaw-compat", w.ptr+"/inputs", name+" declares inputs as a mapping; current DireClaw releases want a list of names")
		}
		for _, s := range w.steps {
			if !s.hasOutput("summary") {
				ptr := s.ptr
				if s.hasOutputs {
					ptr += "/outputs"
				}
				f.Report("direclaw-compat", ptr, fmt.Sprintf(
					"step %s has no summary output, which current DireClaw releases require of every step", s.label()))
			}
			if v, _ := s.node.Get("workspace_mode").Str(); v == "agent_workspace" {
				f.Report("direclaw-compat", s.ptr+"/workspace_mode", fmt.Sprintf(
					"step %s uses workspace_mode: agent_workspace, which current DireClaw releases no longer have", s.label()))
			}
			if present(s.node, "write_state") {
				f.ReportKey("direclaw-compat", s.ptr+"/write_state", fmt.Sprintf(
					"step %s sets write_state, which current DireClaw releases ignore: the state is never written", s.label()))
			}
		}
	}
}

func indexOf(o *orchestrator, w *workflow) int {
	for i, x := range o.workflows {
		if x == w {
			return i
		}
	}
	return -1
}
