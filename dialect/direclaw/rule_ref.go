package direclaw

import (
	"fmt"
	"strconv"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// checkRefs reports ref, the core rule, for DireClaw's references: a step's agent
// and (in the seed format; current releases ignore needs) the steps it needs.
func checkRefs(f *lint.File, o *orchestrator, rel Release) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			if name, ok := s.node.Get("agent").Str(); ok && name != "" && o.agent(name) == nil {
				f.Report("ref", s.ptr+"/agent", fmt.Sprintf("step %s names agent %q, which is not in agents", s.label(), name)+
					suggest.Hint(name, o.agentNames(), "agents"))
			}
			needs := s.node.Get("needs")
			if needs == nil || needs.Kind != source.Array || rel.current() {
				continue
			}
			for i, it := range needs.Items {
				if id, ok := it.Str(); ok && id != "" && w.byID[id] == nil {
					f.Report("ref", s.ptr+"/needs/"+strconv.Itoa(i), fmt.Sprintf(
						"step %s needs %q, which is not a step of workflow %q", s.label(), id, w.id)+
						suggest.Hint(id, w.stepIDs(), "steps"))
				}
			}
		}
	}
}

func escape(key string) string { return source.Pointer(key)[1:] }
