package direclaw

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// units describes each workflow of the file as a unit, direclaw:<orchestrator>/<workflow>@N:
// its steps are nodes a run can be persisted at (DireClaw keeps a run's state after every
// step), its routing fields (and the implicit next step in list order) edges labelled by
// the field. A step's agent's provider and model are values of the step: a run of the
// step changes when they do. The orchestrator's own values (workflow_orchestration,
// agents' other settings aside) are values of every workflow.
func units(p *lint.Pass) []*change.Unit {
	o := model(p)
	rel := releaseOf(p.File)
	root := p.Doc.Root
	orch, ok := root.Get("id").Str()
	if !ok || orch == "" {
		orch = orchestratorName(p.Path)
	}
	shared := change.FieldsOf(root.Get("workflow_orchestration"), nil, limitOrFeature)
	for i := range shared {
		shared[i].Path = "/workflow_orchestration" + shared[i].Path
	}
	var out []*change.Unit
	for _, w := range o.workflows {
		if !w.hasID || len(w.steps) == 0 {
			continue
		}
		u := &change.Unit{Kind: ID, Name: orch + "/" + w.id, Scheme: change.Integer, Pointer: w.ptr, Span: w.node.Get("id").Span}
		if v := w.node.Get("version"); v != nil && (v.Kind == source.Number || v.Kind == source.String) {
			u.Version = v.Text
			u.VersionSpan = v.Span
		}
		u.Fields = append(change.FieldsOf(w.node, change.Keys("id", "version", "steps"), workflowField), shared...)
		if w.steps[0].hasID {
			u.Entry = w.steps[0].id
		}
		for i, s := range w.steps {
			if !s.hasID || w.byID[s.id] != s {
				continue
			}
			n := change.Node{ID: s.id, Type: s.typ, Span: s.node.Get("id").Span, Persist: true,
				Fields: change.FieldsOf(s.node, change.Keys(append([]string{"id", "type"}, routeFields...)...), stepField)}
			n.Fields = append(n.Fields, agentFields(o, s)...)
			for _, out := range s.outputs {
				n.Produces = append(n.Produces, "steps."+s.id+".outputs."+out.name)
			}
			if pr := s.node.Get("prompt"); pr != nil && pr.Kind == source.String {
				for _, m := range stepRead().FindAllStringSubmatch(pr.Text, -1) {
					n.Reads = append(n.Reads, m[1])
				}
			}
			routes := s.routesFor(rel)
			for _, k := range routeFields {
				r, ok := routes[k]
				if !ok || (!s.review && (k == "on_approve" || k == "on_reject")) {
					continue
				}
				sp, _ := p.Doc.PointerSpan(r.ptr)
				u.Edges = append(u.Edges, change.Edge{From: s.id, To: r.target, Label: k, Span: sp})
			}
			if _, ok := routes["next"]; !s.review && !ok {
				if i+1 < len(w.steps) && w.steps[i+1].hasID {
					u.Edges = append(u.Edges, change.Edge{From: s.id, To: w.steps[i+1].id, Label: "next", Span: s.node.Get("id").Span})
				} else {
					n.Exit = true
				}
			}
			u.Nodes = append(u.Nodes, n)
		}
		out = append(out, u)
	}
	return out
}

// orchestratorName is the orchestrator's id when the file has none: its file name
// without .orchestrator.yaml (or its extension), as DireClaw names orchestrator files.
func orchestratorName(path string) string {
	if _, p, ok := strings.Cut(path, ":"); ok && !filepath.IsAbs(path) {
		path = p // a file read from git, named REF:path
	}
	base := filepath.Base(path)
	for _, suf := range []string{".orchestrator.yaml", ".orchestrator.yml", ".yaml", ".yml", ".json"} {
		if b, ok := strings.CutSuffix(base, suf); ok {
			return b
		}
	}
	return base
}

var stepRead = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*(steps\.[A-Za-z0-9_-]+\.outputs\.[A-Za-z0-9_-]+)\s*\}\}`)
})

// agentFields are the provider and model of the step's agent, as values of the step.
func agentFields(o *orchestrator, s *step) []change.Field {
	name, ok := s.node.Get("agent").Str()
	if !ok {
		return nil
	}
	a := o.agent(name)
	var out []change.Field
	for _, k := range []string{"provider", "model"} {
		if v := a.Get(k); v != nil {
			for _, f := range change.FieldsOf(&source.Node{Kind: source.Object, Members: []source.Member{{Key: k, Value: v}}}, nil, nil) {
				f.Path = "/agent:" + strings.TrimPrefix(f.Path, "/")
				out = append(out, f)
			}
		}
	}
	return out
}

func limitOrFeature(path string) change.FieldClass {
	if strings.Contains(path, "max_") || strings.HasSuffix(path, "timeout_seconds") {
		return change.LimitField
	}
	return change.FeatureField
}

func workflowField(path string) change.FieldClass {
	switch {
	case path == "/description" || path == "/tags":
		return change.CosmeticField
	case strings.HasPrefix(path, "/limits/"):
		return change.LimitField
	}
	return change.FeatureField
}

func stepField(path string) change.FieldClass {
	switch {
	case path == "/description" || path == "/summary" || path == "/tags":
		return change.CosmeticField
	case strings.HasPrefix(path, "/limits/"):
		return change.LimitField
	}
	return change.FeatureField
}
