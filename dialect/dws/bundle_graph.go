package dws

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

// A graph spanning a job spec's files writes each pointer as "<doc index>#<pointer>", so
// that a finding can be put back into the file it is about.

func (b *bundle) enc(d *doc, ptr string) string { return strconv.Itoa(d.idx) + "#" + ptr }

func (b *bundle) dec(p string) (*doc, string) {
	i, ptr, _ := strings.Cut(p, "#")
	n, err := strconv.Atoi(i)
	if err != nil || n < 0 || n >= len(b.docs) {
		return nil, ""
	}
	return b.docs[n], ptr
}

// report puts a graph finding into its file, as rule with message.
func (b *bundle) report(fd graph.Finding, rule, message string) {
	d, ptr := b.dec(fd.Pointer)
	if d == nil {
		return
	}
	var rel []lint.Related
	for _, r := range fd.Related {
		if od, optr := b.dec(r.Pointer); od != nil {
			rel = append(rel, od.f.Related(optr, r.Message))
		}
	}
	d.f.Report(rule, ptr, message, rel...)
}

// checkTaskGraph runs the core graph rules that apply to task dependencies over the job
// spec's tasks: duplicate-id, dangling-edge and cycle.
func (b *bundle) checkTaskGraph() {
	tasks := b.byFolder["tasks"]
	if len(tasks) == 0 {
		return
	}
	g := graph.New("")
	for _, d := range tasks {
		id, ok := d.root.Get("task_id").Str()
		if !ok {
			continue
		}
		i, ok := g.AddNode(graph.Node{ID: id, Pointer: b.enc(d, "/task_id"), IDPointer: b.enc(d, "/task_id")})
		if !ok {
			continue
		}
		for j, dep := range items(d.root.Get("dependencies")) {
			if target, ok := dep.Get("task_id").Str(); ok {
				g.AddEdge(i, target, graph.Dependency, b.enc(d, "/dependencies/"+itoa(j)+"/task_id"), false)
			}
		}
	}
	for _, fd := range graph.Check(g, graph.Options{MultiRoot: true, NoExits: true, Cycles: graph.ForbidAll, Noun: "task"}) {
		switch fd.Kind {
		case graph.DuplicateID, graph.DanglingEdge, graph.Cycle:
			b.report(fd, lint.GraphRule(fd.Kind), fd.Message)
		}
	}
}

// workflowGraph is the graph of workflows (by name) and the sub-workflows their phases
// run.
func (b *bundle) workflowGraph() *graph.Graph {
	g := graph.New("")
	for _, d := range b.byFolder["workflows"] {
		name, ok := d.root.Get("name").Str()
		if !ok || name == "" {
			continue
		}
		i, ok := g.AddNode(graph.Node{ID: name, Pointer: b.enc(d, "/name"), IDPointer: b.enc(d, "/name")})
		if !ok {
			continue
		}
		b.workflows[name] = d
		for _, p := range d.workflow().phases {
			if s, ok := p.node.Get("sub_workflow").Str(); ok && s != name {
				g.AddEdge(i, s, graph.Delegation, b.enc(d, p.ptr+"/sub_workflow"), false)
			}
		}
	}
	return g
}

// checkWorkflows reports two workflows with one name, and sub-workflows that include each
// other.
func (b *bundle) checkWorkflows() {
	g := b.workflowGraph()
	for _, fd := range graph.Check(g, graph.Options{MultiRoot: true, NoExits: true, Cycles: graph.ForbidAll, Noun: "workflow"}) {
		switch fd.Kind {
		case graph.DuplicateID:
			b.report(fd, lint.GraphRule(fd.Kind), fd.Message)
		case graph.Cycle:
			// Put the finding on the first member's phase that leads into the cycle.
			members := map[string]bool{}
			first, _ := b.dec(fd.Pointer)
			for _, p := range append([]string{fd.Pointer}, relatedPointers(fd)...) {
				if d, _ := b.dec(p); d != nil {
					n, _ := d.root.Get("name").Str()
					members[n] = true
				}
			}
			for _, e := range g.Edges {
				if d, ptr := b.dec(e.Pointer); d == first && members[e.Target] {
					fd.Pointer = b.enc(d, ptr)
					break
				}
			}
			b.report(fd, "sub-workflow", strings.Replace(fd.Message, " form a cycle", " include each other as sub-workflows: a run of them never finishes", 1))
		}
	}
}

func relatedPointers(fd graph.Finding) []string {
	out := make([]string, len(fd.Related))
	for i, r := range fd.Related {
		out[i] = r.Pointer
	}
	return out
}

// checkSubWorkflows reports a sub_workflow that names no workflow of the job spec.
func (b *bundle) checkSubWorkflows() {
	if !b.has["workflows"] {
		return
	}
	for _, d := range b.byFolder["workflows"] {
		for _, p := range d.workflow().phases {
			s, ok := p.node.Get("sub_workflow").Str()
			if ok && s != "" && b.workflows[s] == nil {
				d.f.Report("sub-workflow", p.ptr+"/sub_workflow", fmt.Sprintf(
					"phase %s runs sub-workflow %q, which is not a workflow of the job spec", p.label(), s)+
					suggest.Hint(s, names(b.workflows), "workflows"))
			}
		}
	}
}
