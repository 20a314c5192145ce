package ensemble

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
)

// graphs is the graph part of the dialect: phases are nodes, after entries edges from the
// predecessor to the waiting phase; every phase without after is a root and every phase
// nothing comes after is an exit. A flat task list has no phase graph. A second graph,
// of the tasks and their context lists, is checked for cycles only: tasks that read each
// other's output wait for each other and never start.
func graphs(p *lint.Pass) []lint.GraphCheck {
	e := model(p)
	checkNames(p.File, e)
	var checks []lint.GraphCheck
	if g := phaseGraph(e); g != nil {
		checks = append(checks, lint.GraphCheck{Graph: g, Options: graphOptions})
	}
	if e.tasks != nil {
		checks = append(checks, lint.GraphCheck{Graph: e.tasks, Options: taskGraphOptions})
	}
	return checks
}

var (
	graphOptions     = graph.Options{MultiRoot: true, Cycles: graph.ForbidAll, Noun: "phase"}
	taskGraphOptions = graph.Options{CyclesOnly: true, Cycles: graph.ForbidAll, Noun: "task"}
)

// taskGraph is the graph of the tasks (the first of each name) with an edge from each
// task read to the task whose context reads it; context entries naming no task are left
// out (dangling-edge reports them). It marks every context entry that lies on a cycle,
// so that context-order and cross-phase-context leave it to the cycle finding.
func taskGraph(e *ensemble) *graph.Graph {
	g := graph.New("/tasks")
	var refs []*ref
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			if t.named && e.byTask[t.name] == t {
				g.AddNode(graph.Node{ID: t.name, Pointer: t.ptr + "/name", IDPointer: t.ptr + "/name", Exit: true})
			}
		}
	}
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			if !t.named || e.byTask[t.name] != t {
				continue
			}
			for k := range t.context {
				c := &t.context[k]
				if from, ok := g.Lookup(c.name); ok {
					g.AddEdge(from, t.name, graph.Context, c.ptr, false)
					refs = append(refs, c)
				}
			}
		}
	}
	for i, on := range g.CycleEdges() {
		refs[i].onCycle = on
	}
	return g
}

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
