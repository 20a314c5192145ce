package cortex

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// units describes the file as one unit, cortex:<name>@vMAJOR.MINOR: each step a node
// a run can be persisted at, onSuccess and onFailure its edges.
func units(p *lint.Pass) []*change.Unit {
	root := p.Doc.Root
	name, ok := root.Get("name").Str()
	steps := stepsOf(p)
	if !ok || len(steps) == 0 {
		return nil
	}
	u := &change.Unit{Kind: ID, Name: name, Scheme: change.Cortex, Span: root.Get("name").Span}
	if v := root.Get("version"); v != nil {
		u.Version, _ = v.Str()
		u.VersionSpan = v.Span
	}
	u.Fields = change.FieldsOf(root, change.Keys("name", "version", "steps", "signature"), unitField)
	if steps[0].hasID {
		u.Entry = steps[0].id
	}
	reg := settingsOf(p.Config).Registry
	for _, s := range steps {
		if !s.hasID {
			continue
		}
		n := change.Node{ID: s.id, Type: s.typ, Span: s.node.Get("id").Span, Persist: true,
			Exit:   s.onSuccess.ends || s.onFailure.ends,
			Fields: change.FieldsOf(s.node, change.Keys("id", "type", "onSuccess", "onFailure"), stepField)}
		if f, ok := outputSchema(s, reg); ok {
			n.Fields = append(n.Fields, f)
		}
		n.Reads, n.Produces = variables(s, settingsOf(p.Config))
		u.Nodes = append(u.Nodes, n)
		for _, e := range []struct {
			label string
			edge  edge
		}{{"onSuccess", s.onSuccess}, {"onFailure", s.onFailure}} {
			if e.edge.target == "" {
				continue
			}
			u.Edges = append(u.Edges, change.Edge{From: s.id, To: e.edge.target, Label: e.label, Span: spanOf(p.Doc, e.edge.ptr)})
		}
	}
	return []*change.Unit{u}
}

// outputSchema is what an ai step references: the output schema its params.schema names
// in the prompt-template registry (its properties as the registry reads them), a value
// of the step at /params/schema:registry. A changed schema changes the step (SPEC §17:
// a node's own hash covers the ai schema it references).
func outputSchema(s step, reg *Registry) (change.Field, bool) {
	if s.typ != "ai" || reg == nil {
		return change.Field{}, false
	}
	name, ok := s.params.Get("schema").Str()
	if !ok {
		return change.Field{}, false
	}
	props, known := reg.Properties[name]
	if !known {
		return change.Field{}, false
	}
	props = slices.Clone(props)
	slices.SortFunc(props, func(a, b Property) int { return strings.Compare(a.Name, b.Name) })
	b, err := json.Marshal(props)
	if err != nil {
		return change.Field{}, false
	}
	return change.Field{Path: "/params/schema:registry", Value: string(b), Span: s.params.Get("schema").Span}, true
}

func spanOf(doc *source.Document, ptr string) source.Span {
	sp, _ := doc.PointerSpan(ptr)
	return sp
}

// unitField classifies the document's own values: its description and $schema are
// cosmetic, the schema version a feature.
func unitField(path string) change.FieldClass {
	switch path {
	case "/description", "/$schema":
		return change.CosmeticField
	}
	return change.FeatureField
}

// stepField classifies a step's values: names and descriptions are cosmetic, the
// retry count a limit, everything else (SQL, URL, prompt, model, expression) a feature.
func stepField(path string) change.FieldClass {
	switch path {
	case "/name", "/description", "/title", "/tags":
		return change.CosmeticField
	case "/retry/count":
		return change.LimitField
	}
	return change.FeatureField
}

// variables are what step s reads and makes for dws diff: the {{name}} placeholders of
// its params that are not run-context variables (cortex.context), and, for an ai step,
// the top-level properties of its output schema in the registry. Without cortex.context
// a read cannot be told from a context variable, and without the registry an ai step's
// outputs are unknown: a name no step produces in either version is no change.
func variables(s step, set *Settings) (reads, produces []string) {
	if s.params != nil {
		eachString(s.params, s.ptr+"/params", func(n *source.Node, _ string) {
			for _, m := range placeholder().FindAllStringSubmatch(n.Text, -1) {
				if !slices.Contains(set.Context, m[1]) {
					reads = append(reads, m[1])
				}
			}
		})
	}
	if s.typ == "ai" && set.Registry != nil {
		name, _ := s.params.Get("schema").Str()
		produces = slices.Clone(set.Registry.Schemas[name])
	}
	slices.Sort(reads)
	slices.Sort(produces)
	return slices.Compact(reads), slices.Compact(produces)
}
