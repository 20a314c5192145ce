package graph

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// build makes a graph at "/steps" from a compact description. nodes is a
// space-separated list of ids in definition order, an id ending in "!" being an
// exit; a repeated id is a duplicate definition. Each edge is "from.field=to",
// or "from.field~to" for a bounded edge, written at "/steps/<from>/<field>".
func build(t testing.TB, nodes string, edges ...string) *Graph {
	t.Helper()
	g := New("/steps")
	for i, id := range strings.Fields(nodes) {
		exit := strings.HasSuffix(id, "!")
		id = strings.TrimSuffix(id, "!")
		p := fmt.Sprintf("/steps/%d", i)
		g.AddNode(Node{ID: id, Pointer: p, IDPointer: p + "/id", Exit: exit})
	}
	for _, e := range edges {
		from, rest, ok := strings.Cut(e, ".")
		if !ok {
			t.Fatalf("bad edge %q", e)
		}
		sep, bounded := "=", false
		if strings.Contains(rest, "~") {
			sep, bounded = "~", true
		}
		field, to, ok := strings.Cut(rest, sep)
		if !ok {
			t.Fatalf("bad edge %q", e)
		}
		i, ok := g.Lookup(from)
		if !ok {
			t.Fatalf("edge %q from unknown node", e)
		}
		g.AddEdge(i, to, Next, fmt.Sprintf("%s/%s", g.Nodes[i].Pointer, field), bounded)
	}
	return g
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		nodes string
		edges []string
		opts  Options
		want  []Finding
	}{
		{
			name:  "clean chain",
			nodes: "a b c!",
			edges: []string{"a.onSuccess=b", "b.onSuccess=c", "b.onFailure=c"},
		},
		{
			name:  "forward reference resolves",
			nodes: "a b!",
			edges: []string{"a.next=b"},
		},
		{
			name:  "empty graph",
			nodes: "",
		},
		{
			name:  "default noun",
			nodes: "a b! b",
			edges: []string{"a.next=b"},
			opts:  Options{Noun: "-"},
			want: []Finding{{
				Kind: DuplicateID, Pointer: "/steps/2/id", Message: `node "b" is defined twice`,
				Related: []Related{{Pointer: "/steps/1/id", Message: "first defined here"}},
			}},
		},
		{
			name:  "duplicate id, second and third definition",
			nodes: "a b! b b",
			edges: []string{"a.next=b"},
			want: []Finding{
				{
					Kind: DuplicateID, Pointer: "/steps/2/id", Message: `step "b" is defined twice`,
					Related: []Related{{Pointer: "/steps/1/id", Message: "first defined here"}},
				},
				{
					Kind: DuplicateID, Pointer: "/steps/3/id", Message: `step "b" is defined 3 times`,
					Related: []Related{{Pointer: "/steps/1/id", Message: "first defined here"}},
				},
			},
		},
		{
			name:  "dangling edge is reported once and dropped",
			nodes: "a b!",
			edges: []string{"a.onSuccess=nope", "a.onFailure=nope"},
			want: []Finding{
				{Kind: DanglingEdge, Pointer: "/steps/0/onSuccess", Message: `"onSuccess" names "nope", which is not a step (steps: "a", "b")`},
				{Kind: DanglingEdge, Pointer: "/steps/0/onFailure", Message: `"onFailure" names "nope", which is not a step (steps: "a", "b")`},
				{
					Kind: Entry, Pointer: "/steps/1", Message: `step "b" has no incoming edge: it is a second entry and never runs`,
					Related: []Related{{Pointer: "/steps/0", Message: `the entry is "a"`}},
				},
				// Where "nope" leads is unknown: a is not also a dead end.
			},
		},
		{
			name:  "dangling edge beside a good one",
			nodes: "a b!",
			edges: []string{"a.onSuccess=b", "a.onFailure=nope"},
			want: []Finding{
				{Kind: DanglingEdge, Pointer: "/steps/0/onFailure", Message: `"onFailure" names "nope", which is not a step (steps: "a", "b")`},
			},
		},
		{
			name:  "entry names no node",
			nodes: "a b c",
			edges: []string{"a.next=b", "b.next=c", "c.next=b"},
			opts:  Options{Entry: "zz", EntryPointer: "/entry_phase", Noun: "phase"},
			want: []Finding{
				{Kind: Entry, Pointer: "/entry_phase", Message: `"entry_phase" names "zz", which is not a phase (phases: "a", "b", "c")`},
				{
					Kind: Cycle, Pointer: "/steps/1", Message: `phases "b" and "c" form a cycle`,
					Related: []Related{{Pointer: "/steps/2", Message: `"c" is part of the cycle`}},
				},
			},
		},
		{
			name:  "entry names no node, implicit pointer",
			nodes: "a!",
			opts:  Options{Entry: "zz"},
			want: []Finding{
				{Kind: Entry, Pointer: "/steps", Message: `the entry names "zz", which is not a step (steps: "a")`},
			},
		},
		{
			name:  "implicit entry is the first node",
			nodes: "a b!",
			opts:  Options{Noun: "phase"},
			want: []Finding{
				{
					Kind: Entry, Pointer: "/steps/1", Message: `phase "b" has no incoming edge: it is a second entry and never runs`,
					Related: []Related{{Pointer: "/steps/0", Message: `the entry is "a"`}},
				},
				{Kind: DeadEnd, Pointer: "/steps/0", Message: `phase "a" cannot reach an exit: a run that gets here never finishes`},
			},
		},
		{
			name:  "named entry need not be first",
			nodes: "a! b",
			edges: []string{"b.next=a"},
			opts:  Options{Entry: "b", EntryPointer: "/entry_phase"},
		},
		{
			name:  "second entry",
			nodes: "a b c!",
			edges: []string{"a.next=c", "b.next=c"},
			want: []Finding{{
				Kind: Entry, Pointer: "/steps/1", Message: `step "b" has no incoming edge: it is a second entry and never runs`,
				Related: []Related{{Pointer: "/steps/0", Message: `the entry is "a"`}},
			}},
		},
		{
			name:  "island of two nodes feeding each other",
			nodes: "s! a b!",
			edges: []string{"a.next=b", "b.next=a"},
			want: []Finding{
				{Kind: Unreachable, Pointer: "/steps/1", Message: `step "a" cannot be reached from the entry "s"`},
				{Kind: Unreachable, Pointer: "/steps/2", Message: `step "b" cannot be reached from the entry "s"`},
				{
					Kind: Cycle, Pointer: "/steps/1", Message: `steps "a" and "b" form a cycle`,
					Related: []Related{{Pointer: "/steps/2", Message: `"b" is part of the cycle`}},
				},
			},
		},
		{
			name:  "node fed only by a second entry",
			nodes: "s! x y!",
			edges: []string{"x.next=y"},
			want: []Finding{
				{
					Kind: Entry, Pointer: "/steps/1", Message: `step "x" has no incoming edge: it is a second entry and never runs`,
					Related: []Related{{Pointer: "/steps/0", Message: `the entry is "s"`}},
				},
				{Kind: Unreachable, Pointer: "/steps/2", Message: `step "y" cannot be reached from the entry "s"`},
			},
		},
		{
			name:  "self-loop counts as an incoming edge",
			nodes: "s! z",
			edges: []string{"z.retry=z"},
			want: []Finding{
				{Kind: Unreachable, Pointer: "/steps/1", Message: `step "z" cannot be reached from the entry "s"`},
				{Kind: Cycle, Pointer: "/steps/1", Message: `step "z" leads back to itself, which is a cycle`},
			},
		},
		{
			name:  "self-loop on a reachable node",
			nodes: "a b!",
			edges: []string{"a.next=b", "b.retry=b"},
			want: []Finding{
				{Kind: Cycle, Pointer: "/steps/1", Message: `step "b" leads back to itself, which is a cycle`},
			},
		},
		{
			name:  "two separate cycles",
			nodes: "a b c d e!",
			edges: []string{"a.next=b", "b.next=a", "b.out=c", "c.next=d", "d.next=c", "d.out=e"},
			want: []Finding{
				{
					Kind: Cycle, Pointer: "/steps/0", Message: `steps "a" and "b" form a cycle`,
					Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
				},
				{
					Kind: Cycle, Pointer: "/steps/2", Message: `steps "c" and "d" form a cycle`,
					Related: []Related{{Pointer: "/steps/3", Message: `"d" is part of the cycle`}},
				},
			},
		},
		{
			name:  "cycle members in definition order",
			nodes: "x a c b d!",
			edges: []string{"x.next=a", "a.next=b", "b.next=c", "c.next=a", "c.out=d"},
			want: []Finding{{
				Kind: Cycle, Pointer: "/steps/1", Message: `steps "a", "c" and "b" form a cycle`,
				Related: []Related{
					{Pointer: "/steps/2", Message: `"c" is part of the cycle`},
					{Pointer: "/steps/3", Message: `"b" is part of the cycle`},
				},
			}},
		},
		{
			name:  "cycles only: an unreachable cycle without exits is one cycle finding",
			nodes: "a b",
			edges: []string{"a.context=b", "b.context=a", "a.context=missing"},
			opts:  Options{MultiRoot: true, CyclesOnly: true, Noun: "task"},
			want: []Finding{{
				Kind: Cycle, Pointer: "/steps/0", Message: `tasks "a" and "b" form a cycle`,
				Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
			}},
		},
		{
			name:  "bounded loop allowed",
			nodes: "a b c!",
			edges: []string{"a.next=b", "b.next=c", "b.loop~a"},
			opts:  Options{Cycles: AllowBounded},
		},
		{
			name:  "bounded self-loop allowed",
			nodes: "a b!",
			edges: []string{"a.next=b", "a.loop~a"},
			opts:  Options{Cycles: AllowBounded},
		},
		{
			name:  "failure edge back upstream is a cycle even with bounded loops allowed",
			nodes: "a b c!",
			edges: []string{"a.next=b", "b.next=c", "b.loop~a", "b.on_verification_fail=a"},
			opts:  Options{Cycles: AllowBounded, Noun: "phase"},
			want: []Finding{{
				Kind: Cycle, Pointer: "/steps/0", Message: `phases "a" and "b" form a cycle`,
				Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
			}},
		},
		{
			name:  "bounded edge still a cycle when all are forbidden",
			nodes: "a b c!",
			edges: []string{"a.next=b", "b.next=c", "b.loop~a"},
			want: []Finding{{
				Kind: Cycle, Pointer: "/steps/0", Message: `steps "a" and "b" form a cycle`,
				Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
			}},
		},
		{
			name:  "loop only through a bounded edge still needs a way out",
			nodes: "a b c!",
			edges: []string{"a.next=b", "b.loop~a"},
			opts:  Options{Cycles: AllowBounded},
			want: []Finding{
				{
					Kind: Entry, Pointer: "/steps/2", Message: `step "c" has no incoming edge: it is a second entry and never runs`,
					Related: []Related{{Pointer: "/steps/0", Message: `the entry is "a"`}},
				},
				{Kind: DeadEnd, Pointer: "/steps/0", Message: `step "a" cannot reach an exit: a run that gets here never finishes`},
				{Kind: DeadEnd, Pointer: "/steps/1", Message: `step "b" cannot reach an exit: a run that gets here never finishes`},
			},
		},
		{
			name:  "all cycles allowed",
			nodes: "a b c!",
			edges: []string{"a.next=b", "b.on_reject=a", "b.on_approve=c", "c.again=c"},
			opts:  Options{Cycles: AllowAll},
		},
		{
			name:  "all cycles allowed, dead end still applies",
			nodes: "a b",
			edges: []string{"a.next=b", "b.on_reject=a"},
			opts:  Options{Cycles: AllowAll},
			want: []Finding{
				{Kind: DeadEnd, Pointer: "/steps/0", Message: `step "a" cannot reach an exit: a run that gets here never finishes`},
				{Kind: DeadEnd, Pointer: "/steps/1", Message: `step "b" cannot reach an exit: a run that gets here never finishes`},
			},
		},
		{
			name:  "loop with no way out",
			nodes: "a b c d!",
			edges: []string{"a.onSuccess=d", "a.onFailure=b", "b.next=c", "c.next=b"},
			want: []Finding{
				{
					Kind: Cycle, Pointer: "/steps/1", Message: `steps "b" and "c" form a cycle`,
					Related: []Related{{Pointer: "/steps/2", Message: `"c" is part of the cycle`}},
				},
				// The cycle is why b and c never finish: no dead-end findings for them.
			},
		},
		{
			name:  "no exits needed",
			nodes: "a b c",
			edges: []string{"a.next=b", "b.next=c"},
			opts:  Options{NoExits: true},
		},
		{
			name:  "several roots",
			nodes: "r1 r2 x!",
			edges: []string{"r1.after=x", "r2.after=x"},
			opts:  Options{MultiRoot: true, Entry: "ignored", EntryPointer: "/entry", Noun: "phase"},
		},
		{
			name:  "several roots, cycle below none of them is the cycle finding alone",
			nodes: "r! x y! z!",
			edges: []string{"x.next=y", "y.next=x", "y.next=z"},
			opts:  Options{MultiRoot: true, Noun: "task", NoExits: true},
			want: []Finding{
				{
					Kind: Cycle, Pointer: "/steps/1", Message: `tasks "x" and "y" form a cycle`,
					Related: []Related{{Pointer: "/steps/2", Message: `"y" is part of the cycle`}},
				},
			},
		},
		{
			name:  "several roots, dead end below one",
			nodes: "r1 r2 x! y",
			edges: []string{"r1.after=x", "r2.after=y"},
			opts:  Options{MultiRoot: true},
			want: []Finding{
				{Kind: DeadEnd, Pointer: "/steps/1", Message: `step "r2" cannot reach an exit: a run that gets here never finishes`},
				{Kind: DeadEnd, Pointer: "/steps/3", Message: `step "y" cannot reach an exit: a run that gets here never finishes`},
			},
		},
		{
			name:  "dangling dependency with an index in its pointer",
			nodes: "t1 t2",
			edges: []string{"t1.dependencies/0=t9"},
			opts:  Options{MultiRoot: true, NoExits: true, Noun: "task"},
			want: []Finding{
				{Kind: DanglingEdge, Pointer: "/steps/0/dependencies/0", Message: `"dependencies" names "t9", which is not a task (tasks: "t1", "t2")`},
			},
		},
		{
			name:  "step limit counts first definitions only",
			nodes: "a b c! c",
			edges: []string{"a.next=b", "b.next=c"},
			opts:  Options{MaxNodes: 2},
			want: []Finding{
				{
					Kind: DuplicateID, Pointer: "/steps/3/id", Message: `step "c" is defined twice`,
					Related: []Related{{Pointer: "/steps/2/id", Message: "first defined here"}},
				},
				{Kind: StepLimit, Pointer: "/steps", Message: "3 steps, more than the limit of 2"},
			},
		},
		{
			name:  "step limit reached, not exceeded",
			nodes: "a b c! c",
			edges: []string{"a.next=b", "b.next=c"},
			opts:  Options{MaxNodes: 3},
			want: []Finding{{
				Kind: DuplicateID, Pointer: "/steps/3/id", Message: `step "c" is defined twice`,
				Related: []Related{{Pointer: "/steps/2/id", Message: "first defined here"}},
			}},
		},
		{
			name:  "every rule, in rule order",
			nodes: "a b c d e a f",
			edges: []string{"a.next=b", "a.fail=zz", "b.next=a", "d.next=e", "e.next=d", "c.next=b", "b.next=f"},
			opts:  Options{MaxNodes: 4},
			want: []Finding{
				{
					Kind: DuplicateID, Pointer: "/steps/5/id", Message: `step "a" is defined twice`,
					Related: []Related{{Pointer: "/steps/0/id", Message: "first defined here"}},
				},
				{Kind: DanglingEdge, Pointer: "/steps/0/fail", Message: `"fail" names "zz", which is not a step (steps: "a", "b", "c", "d", "e", "f")`},
				{
					Kind: Entry, Pointer: "/steps/2", Message: `step "c" has no incoming edge: it is a second entry and never runs`,
					Related: []Related{{Pointer: "/steps/0", Message: `the entry is "a"`}},
				},
				{Kind: Unreachable, Pointer: "/steps/3", Message: `step "d" cannot be reached from the entry "a"`},
				{Kind: Unreachable, Pointer: "/steps/4", Message: `step "e" cannot be reached from the entry "a"`},
				{
					Kind: Cycle, Pointer: "/steps/0", Message: `steps "a" and "b" form a cycle`,
					Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
				},
				{
					Kind: Cycle, Pointer: "/steps/3", Message: `steps "d" and "e" form a cycle`,
					Related: []Related{{Pointer: "/steps/4", Message: `"e" is part of the cycle`}},
				},
				{Kind: DeadEnd, Pointer: "/steps/6", Message: `step "f" cannot reach an exit: a run that gets here never finishes`},
				{Kind: StepLimit, Pointer: "/steps", Message: "6 steps, more than the limit of 4"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := build(t, tt.nodes, tt.edges...)
			opts := tt.opts
			switch opts.Noun {
			case "":
				opts.Noun = "step"
			case "-":
				opts.Noun = ""
			}
			got := Check(g, opts)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Check:\n%s\nwant:\n%s", dump(got), dump(tt.want))
			}
			// A second run over the same graph must say the same.
			if again := Check(g, opts); !reflect.DeepEqual(again, got) {
				t.Errorf("second Check differs:\n%s", dump(again))
			}
		})
	}
}

func dump(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "  %s %s %s\n", f.Kind, f.Pointer, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "    %s %s\n", r.Pointer, r.Message)
		}
	}
	return b.String()
}

func TestEntryMissing(t *testing.T) {
	// c is a second entry and a and b are dead ends, but with no entry
	// nothing is reachable, so only the cycle is left to report.
	g := build(t, "a b c", "a.next=b", "b.next=a")
	got := Check(g, Options{EntryPointer: "/", Noun: "phase"})
	want := []Finding{
		{Kind: Entry, Pointer: "/", Message: "no entry phase is named"},
		{
			Kind: Cycle, Pointer: "/steps/0", Message: `phases "a" and "b" form a cycle`,
			Related: []Related{{Pointer: "/steps/1", Message: `"b" is part of the cycle`}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Check:\n%s\nwant:\n%s", dump(got), dump(want))
	}
}

func TestDuplicateTakesNoPart(t *testing.T) {
	g := New("/steps")
	a, _ := g.AddNode(Node{ID: "a", Pointer: "/steps/0", IDPointer: "/steps/0/id"})
	b, _ := g.AddNode(Node{ID: "b", Pointer: "/steps/1", IDPointer: "/steps/1/id", Exit: true})
	g.AddEdge(a, "b", Success, "/steps/0/onSuccess", false)
	dup, ok := g.AddNode(Node{ID: "b", Pointer: "/steps/2", IDPointer: "/steps/2/id"})
	if ok || dup != -1 {
		t.Fatalf("AddNode of a duplicate = %d, %v; want -1, false", dup, ok)
	}
	// Edges from the duplicate would be a dangling edge and a cycle.
	g.AddEdge(dup, "nope", Success, "/steps/2/onSuccess", false)
	g.AddEdge(dup, "a", Failure, "/steps/2/onFailure", false)
	if i, _ := g.Lookup("b"); i != b {
		t.Errorf("Lookup(b) = %d, want the first definition %d", i, b)
	}
	want := []Finding{{
		Kind: DuplicateID, Pointer: "/steps/2/id", Message: `step "b" is defined twice`,
		Related: []Related{{Pointer: "/steps/1/id", Message: "first defined here"}},
	}}
	if got := Check(g, Options{Noun: "step"}); !reflect.DeepEqual(got, want) {
		t.Errorf("Check:\n%s\nwant:\n%s", dump(got), dump(want))
	}
	if len(g.Nodes) != 2 || len(g.Edges) != 1 {
		t.Errorf("graph has %d nodes and %d edges, want 2 and 1", len(g.Nodes), len(g.Edges))
	}
}

func TestResolve(t *testing.T) {
	g := build(t, "a b c!", "a.onSuccess=c", "a.onFailure=nope", "a.retry=b", "b.next=c")
	Check(g, Options{})
	if got := g.Succ(0); !reflect.DeepEqual(got, []int{2, 1}) {
		t.Errorf("Succ(a) = %v, want [2 1]", got)
	}
	if got := g.Out(0); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("Out(a) = %v, want [0 2]", got)
	}
	if g.Edges[1].To != -1 || g.Edges[0].To != 2 {
		t.Errorf("edge targets = %d, %d; want 2, -1", g.Edges[0].To, g.Edges[1].To)
	}
	// A node added later resolves an edge that was dangling.
	g.AddNode(Node{ID: "nope", Pointer: "/steps/3", Exit: true})
	if got := g.Succ(0); !reflect.DeepEqual(got, []int{2, 3, 1}) {
		t.Errorf("Succ(a) after adding nope = %v, want [2 3 1]", got)
	}
	if got := g.Succ(2); len(got) != 0 {
		t.Errorf("Succ(c) = %v, want none", got)
	}
}

func TestPlural(t *testing.T) {
	for noun, want := range map[string]string{
		"step": "steps", "phase": "phases", "task": "tasks", "node": "nodes",
		"hook": "hooks", "workflow": "workflows", "entry": "entries", "day": "days", "box": "boxes",
	} {
		if got := plural(noun); got != want {
			t.Errorf("plural(%q) = %q, want %q", noun, got, want)
		}
	}
}

// chain builds n nodes s0 → s1 → … → s(n-1), the last an exit.
func chain(n int) *Graph {
	g := New("/steps")
	for i := range n {
		p := fmt.Sprintf("/steps/%d", i)
		g.AddNode(Node{ID: fmt.Sprintf("s%d", i), Pointer: p, IDPointer: p + "/id", Exit: i == n-1})
	}
	for i := 0; i+1 < n; i++ {
		g.AddEdge(i, fmt.Sprintf("s%d", i+1), Next, fmt.Sprintf("/steps/%d/next", i), false)
	}
	return g
}

func TestLongChain(t *testing.T) {
	const n = 100_000
	g := chain(n)
	if got := Check(g, Options{}); len(got) != 0 {
		t.Fatalf("Check of a clean chain: %d findings, first %+v", len(got), got[0])
	}

	// Without an exit every node is a dead end.
	g.Nodes[n-1].Exit = false
	got := Check(g, Options{})
	if len(got) != n || got[0].Kind != DeadEnd || got[n-1].Pointer != fmt.Sprintf("/steps/%d", n-1) {
		t.Fatalf("Check of a chain without exit: %d findings, want %d dead-ends", len(got), n)
	}
}

func TestBigCycle(t *testing.T) {
	const n = 100_000
	g := chain(n)
	g.AddEdge(n-1, "s0", Failure, fmt.Sprintf("/steps/%d/onFailure", n-1), false)
	got := Check(g, Options{Noun: "step"})
	if len(got) != 1 {
		t.Fatalf("Check: %d findings, want one cycle", len(got))
	}
	f := got[0]
	wantMsg := `steps "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7" and 99992 more form a cycle`
	if f.Kind != Cycle || f.Pointer != "/steps/0" || f.Message != wantMsg {
		t.Errorf("finding = %s %s %s", f.Kind, f.Pointer, f.Message)
	}
	if len(f.Related) != n-1 || f.Related[0].Pointer != "/steps/1" || f.Related[n-2].Pointer != fmt.Sprintf("/steps/%d", n-1) {
		t.Errorf("related: %d entries, want %d in definition order", len(f.Related), n-1)
	}

	// The same cycle closed by a bounded edge is legal, and out of the
	// entry's reach it is all unreachable.
	g.Edges[len(g.Edges)-1].Bounded = true
	if got := Check(g, Options{Cycles: AllowBounded}); len(got) != 0 {
		t.Errorf("bounded: %d findings, first %+v", len(got), got[0])
	}
	g.AddNode(Node{ID: "start", Pointer: "/start", Exit: true})
	got = Check(g, Options{Entry: "start", EntryPointer: "/entry", Cycles: AllowAll})
	if len(got) != n || got[0].Kind != Unreachable {
		t.Errorf("island: %d findings, want %d unreachable", len(got), n)
	}
}

func TestCycleEdges(t *testing.T) {
	g := New("/tasks")
	for _, id := range []string{"a", "b", "c", "d"} {
		g.AddNode(Node{ID: id, Pointer: "/tasks/" + id})
	}
	a, _ := g.Lookup("a")
	b, _ := g.Lookup("b")
	c, _ := g.Lookup("c")
	d, _ := g.Lookup("d")
	g.AddEdge(a, "b", "context", "", false) // a⇄b is a cycle
	g.AddEdge(b, "a", "context", "", false)
	g.AddEdge(b, "c", "context", "", false) // leaves the cycle
	g.AddEdge(d, "d", "context", "", false) // self-loop
	g.AddEdge(c, "nowhere", "context", "", false)
	want := []bool{true, true, false, true, false}
	if got := g.CycleEdges(); !slices.Equal(got, want) {
		t.Errorf("CycleEdges() = %v, want %v", got, want)
	}
}

// A dangling edge names the id it is likely a slip of; with many nodes and no near one,
// nothing is added.
func TestDanglingHint(t *testing.T) {
	g := New("/steps")
	for i := range 10 {
		g.AddNode(Node{ID: fmt.Sprintf("step-%d", i), Exit: true})
	}
	g.AddNode(Node{ID: "manager-approve", Exit: true})
	g.AddEdge(0, "manager-aprove", Success, "/steps/0/onSuccess", false)
	g.AddEdge(1, "nowhere-at-all", Success, "/steps/1/onSuccess", false)
	got := Check(g, Options{MultiRoot: true})
	want := []string{
		`"onSuccess" names "manager-aprove", which is not a node; did you mean "manager-approve"?`,
		`"onSuccess" names "nowhere-at-all", which is not a node`,
	}
	if len(got) != 2 || got[0].Message != want[0] || got[1].Message != want[1] {
		t.Errorf("Check: %+v\nwant messages %q", got, want)
	}
}
