package direclaw

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// The parts of the dialect that the language server and the drawings use.

// edgeFields are the fields whose values name a step (or, default_workflow, a
// workflow).
var edgeFields = []string{"next", "on_approve", "on_reject", "on_blocked", "on_failed", "default_workflow"}

// describe is a step's type and its description or prompt.
var describe = lint.DescribeBy("type", "description", "prompt")

// templateStep is a step id a template reference can hold: one segment of the dotted
// names the template rule reads (rule_template.go).
var templateStep = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+$`) })

// references are the template references ({{steps.ID.outputs.…}}) to step id within
// the workflow whose graph g is: they name the step as surely as an edge does.
func references(doc *source.Document, g *graph.Graph, id string) []lint.Reference {
	owner := g.Pointer()
	if k := strings.LastIndexByte(owner, '/'); k > 0 {
		owner = owner[:k]
	}
	root := doc.Lookup(owner)
	if root == nil || owner == "" {
		return nil
	}
	why := fmt.Sprintf(`a template names it ({{steps.%s.outputs.…}}), and a DireClaw template reference names a step with letters, digits, "_" and "-" only`, id)
	holds := func(name string) bool { return templateStep().MatchString(name) }
	needle := "steps." + id + "."
	var out []lint.Reference
	var walk func(n *source.Node, ptr string)
	walk = func(n *source.Node, ptr string) {
		switch n.Kind {
		case source.Object:
			for _, m := range n.Members {
				walk(m.Value, source.AppendPointer(ptr, m.Key))
			}
		case source.Array:
			for i, it := range n.Items {
				walk(it, fmt.Sprintf("%s/%d", ptr, i))
			}
		case source.String:
			for from := 0; ; {
				k := strings.Index(n.Text[from:], needle)
				if k < 0 {
					break
				}
				at := from + k
				open := strings.LastIndex(n.Text[:at], "{{")
				if open >= 0 && !strings.Contains(n.Text[open:at], "}}") {
					i := at + len("steps.")
					out = append(out, lint.Reference{Pointer: ptr, From: i, To: i + len(id), Holds: holds, Why: why})
				}
				from = at + len(needle)
			}
		}
	}
	walk(root, owner)
	return out
}

// endLabels are the outcomes with which step n ends the run: a review with no route
// for a decision ends on that decision (approve, reject), a last step on complete.
func endLabels(doc *source.Document, n graph.Node) []string {
	obj := lint.NodeObject(n)
	if typ, _ := doc.Lookup(obj + "/type").Str(); typ == "agent_review" {
		return routelessDecisions(doc, obj)
	}
	return []string{"complete"}
}

// routelessDecisions are the decisions of the review at obj whose route is absent,
// null, or names no step of its workflow: the run ends on them.
func routelessDecisions(doc *source.Document, obj string) []string {
	ids := map[string]bool{}
	if steps := doc.Lookup(obj[:max(strings.LastIndexByte(obj, '/'), 0)]); steps != nil {
		for _, st := range steps.Items {
			if id, ok := st.Get("id").Str(); ok {
				ids[id] = true
			}
		}
	}
	var out []string
	for _, f := range [][2]string{{"on_approve", "approve"}, {"on_reject", "reject"}} {
		if to, ok := doc.Lookup(obj + "/" + f[0]).Str(); !ok || !ids[to] {
			out = append(out, f[1])
		}
	}
	if len(out) == 0 {
		out = []string{"end"}
	}
	return out
}

// fix adds the output_files entry a declared output lacks (output-files), at
// STEP/OUTPUT.md under the step's output root.
func fix(doc *source.Document, f lint.Diagnostic) (lint.QuickFix, bool) {
	k := strings.LastIndex(f.Pointer, "/outputs/")
	if f.Rule != outputFiles.ID || k < 0 {
		return lint.QuickFix{}, false
	}
	step := f.Pointer[:k]
	name, ok := doc.Lookup(f.Pointer).Str()
	id, _ := doc.Lookup(step + "/id").Str()
	if !ok || doc.Lookup(step+"/output_files") == nil || id == "" {
		return lint.QuickFix{}, false
	}
	name = strings.TrimSuffix(name, "?")
	path := id + "/" + name + ".md"
	return lint.QuickFix{Title: fmt.Sprintf("Add output_files entry %s: %s", name, path), Object: step + "/output_files",
		Key: name, Value: strconv.Quote(path)}, true
}
