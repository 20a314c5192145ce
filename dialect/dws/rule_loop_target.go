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

// checkLoopTarget asks, for each loop, whether its to reaches its from through the other
// transitions. A breadth-first search from to per loop is phases × loops; this one
// never enters a phase whose strongly connected component comes after from's in the
// graph's topological order (it cannot lead back), and stops at from: a long chain
// of local loops searches each loop's body only.
func checkLoopTarget(f *lint.File, w *workflow) {
	es := w.edges()
	index := map[string]int32{}
	var ids []string
	id := func(s string) int32 {
		i, ok := index[s]
		if !ok {
			i = int32(len(ids))
			index[s] = i
			ids = append(ids, s)
		}
		return i
	}
	var adj [][]int32
	for _, e := range es {
		if e.kind == graph.Loop || w.byID[e.from] == nil || w.byID[e.to] == nil {
			continue
		}
		from, to := id(e.from), id(e.to)
		for int(max(from, to)) >= len(adj) {
			adj = append(adj, nil)
		}
		adj[from] = append(adj[from], to)
	}
	comp := components(adj)
	seen := make([]int, len(adj)) // the loop (1-based) whose search saw the phase
	leadsBack := func(k int, to, from string) bool {
		if to == from {
			return true
		}
		s, ok1 := index[to]
		t, ok2 := index[from]
		if !ok1 || !ok2 {
			return false
		}
		queue := []int32{s}
		seen[s] = k
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			for _, x := range adj[v] {
				if x == t {
					return true
				}
				// A phase whose component comes after from's (a smaller number, in
				// Tarjan's order) cannot lead back to it.
				if seen[x] != k && comp[x] >= comp[t] {
					seen[x] = k
					queue = append(queue, x)
				}
			}
		}
		return false
	}
	for k, e := range es {
		if e.kind != graph.Loop || w.byID[e.from] == nil || w.byID[e.to] == nil {
			continue
		}
		if !leadsBack(k+1, e.to, e.from) {
			f.Report("loop-target", e.ptr, fmt.Sprintf(
				"the loop from %q goes to %q, which does not lead back to %q: it is not a loop back", e.from, e.to, e.from))
		}
	}
}
