package ensemble

import (
	"slices"
	"testing"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/source"
)

func parse(t *testing.T, text string) *source.Document {
	t.Helper()
	doc, err := source.Parse("e.yaml", []byte(text), source.YAML)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

const twoPhases = `ensemble: demo
workflow: PARALLEL
phases:
  - name: research
    tasks:
      - { name: gather, description: d }
      - { name: sift, description: d, context: ["$gather"] }
  - name: write
    workflow: SEQUENTIAL
    after: [research]
    tasks:
      - { name: draft, description: d, context: [sift] }
      - { name: gather, description: a second task of this name }
    review: { task: { name: check, description: d } }
  - name: research
    tasks: [ { name: late, description: d } ]
`

// Decode indexes phases and tasks by their first definition, resolves "$name" context
// entries and each phase's effective workflow; a review task is its phase's last task.
func TestDecode(t *testing.T) {
	e := decode(parse(t, twoPhases))
	if len(e.phases) != 3 || e.flat != nil {
		t.Fatalf("got %d phases, flat %v", len(e.phases), e.flat)
	}
	if e.byName["research"] != e.phases[0] {
		t.Error("a repeated phase name must keep its first definition")
	}
	if g := e.byTask["gather"]; g == nil || g.phase != e.phases[0] {
		t.Error("a repeated task name must keep its first definition, across phases")
	}
	if e.byTask["late"] == nil || e.home(e.byTask["late"]) != e.phases[0] {
		t.Error("a task of a repeated phase is judged in the first phase of that name")
	}
	sift := e.byTask["sift"]
	if len(sift.context) != 1 || sift.context[0].name != "gather" || sift.context[0].ptr != "/phases/0/tasks/1/context/0" {
		t.Errorf("sift's context = %+v; want gather at its pointer", sift.context)
	}
	write := e.phases[1]
	if e.effective(write) != "SEQUENTIAL" || e.effective(e.phases[0]) != "PARALLEL" {
		t.Error("effective workflows: a phase's own, else the ensemble's")
	}
	if last := write.tasks[len(write.tasks)-1]; !last.review || last.name != "check" {
		t.Error("the review task must be the phase's last task")
	}
}

// A flat task list is one implicit phase that inherits the ensemble's workflow.
func TestDecodeFlat(t *testing.T) {
	e := decode(parse(t, "ensemble: x\nworkflow: PARALLEL\ntasks:\n  - { name: a, description: d }\n"))
	if e.flat == nil || !e.flat.implicit || len(e.allPhases()) != 1 || e.effective(e.flat) != "PARALLEL" {
		t.Fatalf("flat = %+v", e.flat)
	}
}

// A flat task list without a workflow has the one AgentEnsemble infers: PARALLEL when
// some task's context names a task of the list, else SEQUENTIAL; the ensemble's
// workflow, when given, is the list's. A phase without a workflow is SEQUENTIAL.
func TestFlatWorkflowInferred(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"tasks:\n  - { name: a, description: d }\n  - { name: b, description: d }\n", "SEQUENTIAL"},
		{"tasks:\n  - { name: a, description: d, context: [b] }\n  - { name: b, description: d }\n", "PARALLEL"},
		{"tasks:\n  - { name: a, description: d, context: [$b] }\n  - { name: b, description: d }\n", "PARALLEL"},
		{"tasks:\n  - { name: a, description: d, context: [a] }\n", "PARALLEL"},
		{"tasks:\n  - { name: a, description: d, context: [ghost] }\n", "SEQUENTIAL"},
		{"workflow: SEQUENTIAL\ntasks:\n  - { name: a, description: d, context: [b] }\n  - { name: b, description: d }\n", "SEQUENTIAL"},
		{"workflow: HIERARCHICAL\ntasks:\n  - { name: a, description: d, context: [b] }\n  - { name: b, description: d }\n", "HIERARCHICAL"},
		{"phases:\n  - { name: p, tasks: [ { name: x, description: d } ] }\ntasks:\n  - { name: a, description: d, context: [x] }\n", "SEQUENTIAL"},
	} {
		e := decode(parse(t, "ensemble: x\n"+tc.doc))
		if got := e.effective(e.flat); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.doc, got, tc.want)
		}
	}
	e := decode(parse(t, "ensemble: x\nphases:\n  - { name: p, tasks: [ { name: a, description: d, context: [b] }, { name: b, description: d } ] }\n"))
	if got := e.effective(e.phases[0]); got != "SEQUENTIAL" {
		t.Errorf("a phase without workflow: %s, want SEQUENTIAL", got)
	}
}

// The phase graph: after entries are edges from the awaited phase, every phase without
// after is a root, a phase nothing waits for is an exit, and a repeated phase name is
// the graph's duplicate-id.
func TestGraph(t *testing.T) {
	g := phaseGraph(decode(parse(t, twoPhases)))
	var ids []string
	var exits []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
		if n.Exit {
			exits = append(exits, n.ID)
		}
	}
	if !slices.Equal(ids, []string{"research", "write"}) || !slices.Equal(exits, []string{"write"}) {
		t.Errorf("nodes %v, exits %v; want [research write], [write]", ids, exits)
	}
	if len(g.Edges) != 1 || g.Edges[0].Kind != graph.After || g.Edges[0].Target != "write" {
		t.Errorf("edges = %+v; want research -after-> write", g.Edges)
	}
	if fds := graph.Check(g, graphOptions); len(fds) != 1 || fds[0].Kind != graph.DuplicateID {
		t.Errorf("graph findings = %+v; want the repeated phase name only", fds)
	}
}
