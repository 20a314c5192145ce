package direclaw

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

// edgeKinds maps each routing field to its edge kind.
var edgeKinds = map[string]graph.EdgeKind{
	"next": graph.Next, "on_approve": graph.Approve, "on_reject": graph.Reject,
	"on_blocked": graph.Blocked, "on_failed": graph.Failed,
}

// graphs is the graph part of the dialect: one graph per workflow, entry its first
// step. Two workflows with one id are the graph stage's duplicate-id.
func graphs(p *lint.Pass) []lint.GraphCheck {
	o := model(p)
	checkDuplicateWorkflows(p.File, o)
	rel := releaseOf(p.File)
	var out []lint.GraphCheck
	for _, w := range o.workflows {
		if g, ok := build(w, rel); ok {
			out = append(out, lint.GraphCheck{Graph: g, Options: graph.Options{Cycles: graph.AllowAll, Noun: "step"}})
		}
	}
	return out
}

// build makes one workflow's step graph for a release (under current, on_blocked and
// on_failed are no edges). ok is false when there is no entry to judge from: no steps,
// or a first step without an id (the schema stage reports both).
func build(w *workflow, rel Release) (*graph.Graph, bool) {
	if len(w.steps) == 0 || !w.steps[0].hasID {
		return nil, false
	}
	g := graph.New(w.ptr + "/steps")
	// An edge naming no step is reported and then judged absent (SPEC §15).
	resolves := func(r route, ok bool) bool {
		_, known := w.byID[r.target]
		return ok && known
	}
	for i, s := range w.steps {
		if !s.hasID {
			continue
		}
		routes := s.routesFor(rel)
		var exit bool
		if s.review {
			_, ok1 := routes["on_approve"]
			_, ok2 := routes["on_reject"]
			a, r := routes["on_approve"], routes["on_reject"]
			// A decision with no route ends the run there; review-routing reports it.
			exit = !resolves(a, ok1) || !resolves(r, ok2)
		} else {
			next, ok := routes["next"]
			exit = !resolves(next, ok) && i == len(w.steps)-1
		}
		n, ok := g.AddNode(graph.Node{ID: s.id, Pointer: s.ptr + "/id", IDPointer: s.ptr + "/id", Exit: exit})
		if !ok {
			continue
		}
		for _, k := range routeFields {
			r, ok := routes[k]
			if !ok || (!s.review && (k == "on_approve" || k == "on_reject")) {
				continue
			}
			g.AddEdge(n, r.target, edgeKinds[k], r.ptr, false)
		}
		if next, ok := routes["next"]; !s.review && !resolves(next, ok) && i+1 < len(w.steps) && w.steps[i+1].hasID {
			g.AddEdge(n, w.steps[i+1].id, graph.Sequential, s.ptr, false)
		}
	}
	return g, true
}
