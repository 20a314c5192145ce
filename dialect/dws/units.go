package dws

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// workflowUnits describes a Spec 6 workflow as the unit dws-workflow:<name>@x.y.z: its
// phases are nodes a run can be persisted at (a run resumes from its last completed
// phase; a phase that runs a sub_workflow is of type sub-workflow), every transition's
// routing fields edges from its from phase, labelled by their kind (a failure route by
// its field). A phase produces the artifact types of its artifact_production and reads
// those its entry_conditions name ($.artifacts['type']). A transition's other values (conditions,
// a loop's max_iterations, a join's strategy) are values of its from phase, under
// /transitions/<type> (#2, #3… for a second transition of one type from one phase).
func workflowUnits(p *lint.Pass) []*change.Unit {
	w := workflowModel(p)
	root := p.Doc.Root
	if w.name == "" || len(w.phases) == 0 {
		return nil
	}
	u := &change.Unit{Kind: WorkflowID, Name: w.name, Scheme: change.Semver, Span: root.Get("name").Span}
	if v := root.Get("version"); v != nil && (v.Kind == source.String || v.Kind == source.Number) {
		u.Version, u.VersionSpan = v.Text, v.Span
	}
	u.Entry, _ = root.Get("entry_phase").Str()
	u.Fields = change.FieldsOf(root, change.Keys("name", "version", "phases", "transitions", "entry_phase", "signature"), workflowField)
	// A transition's values, by its from phase.
	extra := map[string][]change.Field{}
	seen := map[string]int{}
	for _, t := range w.transitions {
		if t.from == "" {
			continue
		}
		key := t.from + "\x00" + t.typ
		seen[key]++
		prefix := "/transitions/" + source.EscapeToken(t.typ)
		if seen[key] > 1 {
			prefix += "#" + strconv.Itoa(seen[key])
		}
		routing := func(path string) bool {
			switch path {
			case "/from", "/type", "/to", "/default", "/join/to", "/on_verification_fail", "/on_timeout", "/on_escalation":
				return true
			}
			if t.typ == "parallel" && path == "/branches" {
				return true
			}
			return t.typ == "conditional" && strings.HasPrefix(path, "/branches/") && strings.HasSuffix(path, "/to") && strings.Count(path, "/") == 3
		}
		for _, f := range change.FieldsOf(t.node, routing, transitionField) {
			f.Path = prefix + f.Path
			extra[t.from] = append(extra[t.from], f)
		}
	}
	out := map[string]bool{}
	for _, e := range w.edges() {
		label := string(e.kind)
		if e.kind == graph.Failure {
			label = e.ptr[strings.LastIndexByte(e.ptr, '/')+1:]
		}
		if e.kind != graph.Loop {
			out[e.from] = true
		}
		sp, _ := p.Doc.PointerSpan(e.ptr)
		u.Edges = append(u.Edges, change.Edge{From: e.from, To: e.to, Label: label, Span: sp})
	}
	for _, ph := range w.phases {
		if ph.id == "" || w.byID[ph.id] != ph {
			continue
		}
		n := change.Node{ID: ph.id, Type: "phase", Span: ph.node.Get("id").Span, Persist: true, Exit: !out[ph.id],
			Fields: append(change.FieldsOf(ph.node, change.Keys("id"), phaseField), extra[ph.id]...)}
		if sw := ph.node.Get("sub_workflow"); sw != nil && sw.Kind == source.String {
			n.Type = "sub-workflow"
		}
		for _, a := range items(ph.node.Get("artifact_production")) {
			if t, ok := a.Get("type").Str(); ok {
				n.Produces = append(n.Produces, "artifacts."+t)
			}
		}
		for _, c := range items(ph.node.Get("entry_conditions")) {
			if f, ok := c.Get("field").Str(); ok {
				if m := artifactField().FindStringSubmatch(f); m != nil {
					n.Reads = append(n.Reads, "artifacts."+m[1]+m[2]+m[3])
				}
			}
		}
		u.Nodes = append(u.Nodes, n)
	}
	return []*change.Unit{u}
}

// artifactField matches a condition's field that names an artifact: $.artifacts.x,
// $.artifacts['x'] or $.artifacts["x"], and anything below it.
var artifactField = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\$\.artifacts(?:\['([^']+)'\]|\["([^"]+)"\]|\.([A-Za-z0-9_-]+))`)
})

func workflowField(path string) change.FieldClass {
	switch {
	case path == "/description" || path == "/tags" || strings.HasPrefix(path, "/metadata/"):
		return change.CosmeticField
	case path == "/global_constraints/max_iterations":
		return change.LimitField
	}
	return change.FeatureField
}

func phaseField(path string) change.FieldClass {
	switch path {
	case "/name", "/description", "/tags":
		return change.CosmeticField
	}
	return change.FeatureField
}

func transitionField(path string) change.FieldClass {
	switch path {
	case "/description":
		return change.CosmeticField
	case "/max_iterations":
		return change.LimitField
	case "/join/min_branches":
		return change.FloorField
	}
	return change.FeatureField
}

// contractUnits describes a Spec 7 contract as the unit dws-contract:<contract_id>@x.y.z:
// it has no nodes, only values. A quality minimum raised is breaking (the producer must
// do more), a duration is a feature.
func contractUnits(p *lint.Pass) []*change.Unit {
	root := p.Doc.Root
	id, ok := root.Get("contract_id").Str()
	if !ok || id == "" {
		return nil
	}
	u := &change.Unit{Kind: ContractID, Name: id, Scheme: change.Semver, Span: root.Get("contract_id").Span}
	if v := root.Get("version"); v != nil && (v.Kind == source.String || v.Kind == source.Number) {
		u.Version, u.VersionSpan = v.Text, v.Span
	}
	u.Fields = change.FieldsOf(root, change.Keys("contract_id", "version", "signature"), func(path string) change.FieldClass {
		switch {
		case path == "/name" || path == "/description":
			return change.CosmeticField
		case strings.HasPrefix(path, "/quality_baseline/min_scores/"):
			return change.FloorField
		}
		return change.FeatureField
	})
	return []*change.Unit{u}
}
