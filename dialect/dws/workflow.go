package dws

import (
	"strconv"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/source"
)

// workflow is a dws-workflow document, read tolerantly: the schema stage has already
// reported what is malformed, so a field of the wrong type is simply absent here.
type workflow struct {
	root        *source.Node
	name        string
	phases      []*phase
	byID        map[string]*phase // first definitions only
	transitions []*transition
	global      *source.Node // global_constraints, when an object
}

type phase struct {
	ptr  string
	node *source.Node
	id   string // "" when absent or not a string
}

type transition struct {
	ptr  string
	node *source.Node
	typ  string
	from string
}

// edge is one routing reference of the phase graph.
type edge struct {
	from, to string
	kind     graph.EdgeKind
	ptr      string // where to is written
	t        *transition
	implicit bool // a parallel branch's edge to its join target
}

func decodeWorkflow(root *source.Node) *workflow {
	w := &workflow{root: root, byID: map[string]*phase{}}
	w.name, _ = root.Get("name").Str()
	if g := root.Get("global_constraints"); g != nil && g.Kind == source.Object {
		w.global = g
	}
	for i, n := range items(root.Get("phases")) {
		p := &phase{ptr: "/phases/" + strconv.Itoa(i), node: n}
		p.id, _ = n.Get("id").Str()
		if p.id != "" && w.byID[p.id] == nil {
			w.byID[p.id] = p
		}
		w.phases = append(w.phases, p)
	}
	for i, n := range items(root.Get("transitions")) {
		t := &transition{ptr: "/transitions/" + strconv.Itoa(i), node: n}
		t.typ, _ = n.Get("type").Str()
		t.from, _ = n.Get("from").Str()
		w.transitions = append(w.transitions, t)
	}
	return w
}

// edges lists the routing references of every transition, in transition order.
func (w *workflow) edges() []edge {
	var out []edge
	for _, t := range w.transitions {
		if t.from == "" {
			continue
		}
		add := func(from, key string, kind graph.EdgeKind, ptr string) {
			if to, ok := t.node.Get(key).Str(); ok {
				out = append(out, edge{from: from, to: to, kind: kind, ptr: ptr, t: t})
			}
		}
		n := t.node
		switch t.typ {
		case "sequential":
			add(t.from, "to", graph.Sequential, t.ptr+"/to")
		case "handoff":
			add(t.from, "to", graph.Handoff, t.ptr+"/to")
		case "loop":
			add(t.from, "to", graph.Loop, t.ptr+"/to")
		case "conditional":
			for j, b := range items(n.Get("branches")) {
				if to, ok := b.Get("to").Str(); ok {
					out = append(out, edge{from: t.from, to: to, kind: graph.Conditional,
						ptr: t.ptr + "/branches/" + strconv.Itoa(j) + "/to", t: t})
				}
			}
			add(t.from, "default", graph.Default, t.ptr+"/default")
		case "parallel":
			joinTo, hasJoin := n.Get("join").Get("to").Str()
			for j, b := range items(n.Get("branches")) {
				br, ok := b.Str()
				if !ok {
					continue
				}
				out = append(out, edge{from: t.from, to: br, kind: graph.Parallel,
					ptr: t.ptr + "/branches/" + strconv.Itoa(j), t: t})
				// A branch that is its own join target is the join rule's finding; as an
				// edge it would also be a cycle of one.
				if hasJoin && br != joinTo {
					out = append(out, edge{from: br, to: joinTo, kind: graph.Join,
						ptr: t.ptr + "/join/to", t: t, implicit: true})
				}
			}
		}
		for _, key := range failureFields {
			add(t.from, key, graph.Failure, t.ptr+"/"+key)
		}
	}
	return out
}

var failureFields = []string{"on_verification_fail", "on_timeout", "on_escalation"}

// adjacency maps each phase to the phases the edges keep accepts lead to; edges to
// unknown phases lead nowhere.
func (w *workflow) adjacency(es []edge, keep func(edge) bool) map[string][]string {
	adj := map[string][]string{}
	for _, e := range es {
		if keep(e) && w.byID[e.to] != nil {
			adj[e.from] = append(adj[e.from], e.to)
		}
	}
	return adj
}

// reach returns the phases reachable from start over adj, start included.
func reach(adj map[string][]string, start string) map[string]bool {
	seen := map[string]bool{start: true}
	queue := []string{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, x := range adj[v] {
			if !seen[x] {
				seen[x] = true
				queue = append(queue, x)
			}
		}
	}
	return seen
}

// hasVerificationGate reports a phase with a verification_gate object.
func (p *phase) hasVerificationGate() bool {
	g := p.node.Get("verification_gate")
	return g != nil && g.Kind == source.Object
}

// label names a phase in messages: its id, else its position.
func (p *phase) label() string {
	if p.id != "" {
		return strconv.Quote(p.id)
	}
	return "at " + p.ptr
}

func items(n *source.Node) []*source.Node {
	if n == nil || n.Kind != source.Array {
		return nil
	}
	return n.Items
}

// located is a value and where it is written.
type located struct {
	node *source.Node
	ptr  string
}

// number reads a number node as a float64.
func number(n *source.Node) (float64, bool) {
	if n == nil || n.Kind != source.Number {
		return 0, false
	}
	v, err := strconv.ParseFloat(n.Text, 64)
	return v, err == nil
}

func quote(s string) string { return strconv.Quote(s) }

func itoa(i int) string { return strconv.Itoa(i) }
