package cortex

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

// graphs is the graph part of the dialect: steps are nodes, onSuccess/onFailure are edges (for a
// branch step, the true and the false edge), and a step whose onSuccess or onFailure is
// null or absent is an exit.
func graphs(p *lint.Pass) []lint.GraphCheck {
	g, ok := build(stepsOf(p))
	if !ok {
		return nil
	}
	return []lint.GraphCheck{{Graph: g, Options: graph.Options{Entry: g.Nodes[0].ID, Noun: "step"}}}
}

// build makes the step graph. ok is false when there is no entry to judge from: no
// steps, or a first step without an id (the schema stage reports both).
func build(steps []step) (*graph.Graph, bool) {
	if len(steps) == 0 || !steps[0].hasID {
		return nil, false
	}
	g := graph.New("/steps")
	g.Grow(len(steps), 2*len(steps))
	for _, s := range steps {
		if !s.hasID {
			continue
		}
		// Node findings point at the step's id: it names the step, and in a JSON file
		// the step object's own first line is often a lone "{".
		id := s.idPtr
		i, ok := g.AddNode(graph.Node{
			ID: s.id, Pointer: id, IDPointer: id,
			Exit: s.onSuccess.ends || s.onFailure.ends,
		})
		if !ok {
			continue
		}
		if s.onSuccess.target != "" {
			g.AddEdge(i, s.onSuccess.target, graph.Success, s.onSuccess.ptr, false)
		}
		if s.onFailure.target != "" {
			g.AddEdge(i, s.onFailure.target, graph.Failure, s.onFailure.ptr, false)
		}
	}
	return g, true
}
