package dws

import (
	"fmt"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

var loopTarget = lint.Rule{
	ID: "loop-target", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "a loop's to is not upstream of its from",
	Doc: `A loop transition cycles back to a previous phase. When its to cannot reach its from
through the workflow's other transitions, the "loop" jumps forward or sideways: nothing
repeats, yet the edge is exempt from the cycle check and counted against the iteration
limit. Use a sequential, conditional or handoff transition for a forward jump, or point
the loop at a phase that leads back to its from.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(
		`{ "type": "loop", "from": "review", "to": "draft",`,
		`{ "type": "loop", "from": "draft", "to": "review",`)},
	Pass:  lint.Example{Name: "review-flow.json", Text: baseWorkflow},
	Check: func(p *lint.Pass) { checkLoopTarget(p.File, workflowModel(p)) },
}

func checkLoopTarget(f *lint.File, w *workflow) {
	es := w.edges()
	adj := w.adjacency(es, func(x edge) bool { return x.kind != graph.Loop })
	for _, e := range es {
		if e.kind != graph.Loop || w.byID[e.from] == nil || w.byID[e.to] == nil {
			continue
		}
		if !reach(adj, e.to)[e.from] {
			f.Report("loop-target", e.ptr, fmt.Sprintf(
				"the loop from %q goes to %q, which does not lead back to %q: it is not a loop back", e.from, e.to, e.from))
		}
	}
}
