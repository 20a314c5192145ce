package ensemble

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

// graphs is the graph part of the dialect: phases are nodes, after entries edges from the
// predecessor to the waiting phase; every phase without after is a root and every phase
// nothing comes after is an exit. A flat task list has no phase graph.
func graphs(p *lint.Pass) []lint.GraphCheck {
	e := model(p)
	checkNames(p.File, e)
	g := phaseGraph(e)
	if g == nil {
		return nil
	}
	return []lint.GraphCheck{{Graph: g, Options: graphOptions}}
}

var graphOptions = graph.Options{MultiRoot: true, Cycles: graph.ForbidAll, Noun: "phase"}

// phaseGraph is the graph of the phases; nil for a flat task list.
func phaseGraph(e *ensemble) *graph.Graph {
	if len(e.phases) == 0 {
		return nil
	}
	g := graph.New("/phases")
	waitedFor := map[string]bool{}
	for _, p := range e.phases {
		if p.named && e.byName[p.name] == p {
			for _, a := range p.after {
				if _, ok := e.byName[a.name]; ok {
					waitedFor[a.name] = true
				}
			}
		}
	}
	for _, p := range e.phases {
		if p.named {
			g.AddNode(graph.Node{ID: p.name, Pointer: p.ptr + "/name", IDPointer: p.ptr + "/name", Exit: !waitedFor[p.name]})
		}
	}
	for _, p := range e.phases {
		if !p.named || e.byName[p.name] != p {
			continue
		}
		for _, a := range p.after {
			if from, ok := g.Lookup(a.name); ok {
				g.AddEdge(from, p.name, graph.After, a.ptr, false)
			}
		}
	}
	return g
}
