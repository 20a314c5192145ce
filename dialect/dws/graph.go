package dws

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// workflowGraphs is the graph part of dws-workflow: phases are nodes, transitions are
// edges (see the package doc for each type), entry_phase is the entry, and a phase with
// no outgoing edge but loops and failure edges is an exit. Cycles are legal only
// through loops. Hook ids and transitions from unknown phases are checked here too:
// they are the graph stage's duplicate-id and dangling-edge.
func workflowGraphs(p *lint.Pass) []lint.GraphCheck {
	f := p.File
	w := workflowModel(p)
	checkDuplicateHooks(f, w)
	checkDanglingFrom(f, w)
	entry, ok := f.Doc.Root.Get("entry_phase").Str()
	if !ok {
		return nil // the schema stage reports a missing or malformed entry_phase
	}
	g := graph.New("/phases")
	for _, p := range w.phases {
		if p.id == "" {
			continue
		}
		g.AddNode(graph.Node{ID: p.id, Pointer: p.ptr, IDPointer: p.ptr + "/id"})
	}
	for i := range g.Nodes {
		g.Nodes[i].Exit = true
	}
	for _, e := range w.edges() {
		from, ok := g.Lookup(e.from)
		if !ok {
			continue // checkDanglingFrom reports an unknown from; a branch that is not a phase is dangling at the fork
		}
		g.AddEdge(from, e.to, e.kind, e.ptr, e.kind == graph.Loop)
		if _, known := g.Lookup(e.to); known && e.kind != graph.Loop && e.kind != graph.Failure {
			g.Nodes[from].Exit = false
		}
	}
	return []lint.GraphCheck{{Graph: g, Options: graph.Options{
		Entry: entry, EntryPointer: "/entry_phase", Cycles: graph.AllowBounded, Noun: "phase",
	}}}
}

// checkDanglingFrom reports transitions leaving a phase that does not exist: the graph
// cannot hold an edge without its start, so the finding is made here.
func checkDanglingFrom(f *lint.File, w *workflow) {
	var ids []string
	for _, t := range w.transitions {
		if t.from != "" && w.byID[t.from] == nil {
			if ids == nil {
				for _, p := range w.phases {
					ids = append(ids, p.id)
				}
			}
			f.Report("dangling-edge", t.ptr+"/from", `"from" names `+quote(t.from)+", which is not a phase"+suggest.Hint(t.from, ids, "phases"))
		}
	}
}

// checkDuplicateHooks reports a hook_id defined twice, at the later definition.
func checkDuplicateHooks(f *lint.File, w *workflow) {
	first := map[string]string{}
	count := map[string]int{}
	for i, h := range items(w.root.Get("hooks")) {
		id, ok := h.Get("hook_id").Str()
		if !ok {
			continue
		}
		ptr := source.AppendPointer("/hooks", itoa(i)) + "/hook_id"
		if p, dup := first[id]; dup {
			count[id]++
			times := "twice"
			if count[id] > 1 {
				times = itoa(count[id]+1) + " times"
			}
			f.Report("duplicate-id", ptr, "hook "+quote(id)+" is defined "+times, f.Related(p, "first defined here"))
			continue
		}
		first[id] = ptr
	}
}
