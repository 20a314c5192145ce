package ensemble

import (
	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// units describes the ensemble as the unit ensemble:<name>, which has no version (SPEC
// §17: checksum checks only). Its phases are nodes, each after an edge from the phase
// named to the phase that waits for it; a flat tasks list makes its tasks the nodes and
// their context the edges. AgentEnsemble keeps no run state between phases, so no node
// is a persisted position.
func units(p *lint.Pass) []*change.Unit {
	e := model(p)
	root := p.Doc.Root
	name, ok := root.Get("ensemble").Str()
	if !ok || name == "" {
		return nil
	}
	u := &change.Unit{Kind: ID, Name: name, Span: root.Get("ensemble").Span}
	u.Fields = change.FieldsOf(root, change.Keys("ensemble", "phases", "tasks"), ensembleField)
	for _, ph := range e.phases {
		if !ph.named || e.byName[ph.name] != ph {
			continue
		}
		n := lookup(p.Doc, ph.ptr)
		fields := change.FieldsOf(n, change.Keys("name", "after", "tasks", "review"), ensembleField)
		if r := n.Get("review"); r != nil {
			for _, f := range change.FieldsOf(r, change.Keys("task"), ensembleField) {
				f.Path = "/review" + f.Path
				fields = append(fields, f)
			}
		}
		// A phase's tasks by name, so that a changed task is told as itself.
		for _, t := range ph.tasks {
			if !t.named || e.byTask[t.name] != t {
				continue
			}
			prefix := "/tasks/" + source.EscapeToken(t.name)
			if t.review {
				prefix = "/review/task"
			}
			for _, f := range change.FieldsOf(lookup(p.Doc, t.ptr), change.Keys("name"), ensembleField) {
				f.Path = prefix + f.Path
				fields = append(fields, f)
			}
		}
		u.Nodes = append(u.Nodes, change.Node{ID: ph.name, Type: "phase", Span: n.Get("name").Span, Fields: fields})
		for _, a := range ph.after {
			sp, _ := p.Doc.PointerSpan(a.ptr)
			u.Edges = append(u.Edges, change.Edge{From: a.name, To: ph.name, Label: "after", Span: sp})
		}
	}
	if e.flat != nil {
		for _, t := range e.flat.tasks {
			if !t.named || e.byTask[t.name] != t {
				continue
			}
			n := lookup(p.Doc, t.ptr)
			u.Nodes = append(u.Nodes, change.Node{ID: t.name, Type: "task", Span: n.Get("name").Span,
				Fields: change.FieldsOf(n, change.Keys("name", "context"), ensembleField)})
			for _, c := range t.context {
				sp, _ := p.Doc.PointerSpan(c.ptr)
				u.Edges = append(u.Edges, change.Edge{From: c.name, To: t.name, Label: "context", Span: sp})
			}
		}
	}
	return []*change.Unit{u}
}

func lookup(doc *source.Document, ptr string) *source.Node { return doc.Lookup(ptr) }

// ensembleField classifies an ensemble's values: a title or tags are cosmetic; a
// description or expected output is what the agent is told, a feature.
func ensembleField(path string) change.FieldClass {
	switch change.Leaf(path) {
	case "description", "expectedOutput":
		return change.FeatureField
	case "title", "tags":
		return change.CosmeticField
	}
	return change.FeatureField
}
