package direclaw

import (
	"fmt"
	"strconv"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// Ref is the shared ref rule (SPEC §4.5): registered here, reported also by the DWS
// job-spec dialects.
var Ref = lint.Rule{
	ID: "ref", Severity: lint.Error,
	Summary: "a by-name reference that is not routing resolves to nothing",
	Doc: `Some fields name something defined elsewhere without being a route of the graph: in a DWS
job spec a skill_ref, workflow_ref, intent_ref or delegation role; in DireClaw a step's
agent (a key of agents) and the step ids a step needs. A name that resolves to nothing
fails only when a run reaches that step, so dws checks them all up front. Routing fields
(edges) are checked by dangling-edge instead.`,
	Fail: lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "agent: worker", "agent: wroker")},
	Pass: lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
}

func checkRefs(f *lint.File, o *orchestrator) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			if name, ok := s.node.Get("agent").Str(); ok && name != "" && o.agent(name) == nil {
				f.Report(Ref.ID, s.ptr+"/agent", fmt.Sprintf("step %s names agent %q, which is not in agents", s.label(), name))
			}
			needs := s.node.Get("needs")
			if needs == nil || needs.Kind != source.Array {
				continue
			}
			for i, it := range needs.Items {
				if id, ok := it.Str(); ok && id != "" && w.byID[id] == nil {
					f.Report(Ref.ID, s.ptr+"/needs/"+strconv.Itoa(i), fmt.Sprintf(
						"step %s needs %q, which is not a step of workflow %q", s.label(), id, w.id))
				}
			}
		}
	}
}

func escape(key string) string { return source.Pointer(key)[1:] }
