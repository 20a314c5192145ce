// Package graph is the typed workflow graph that every dialect builds, and the
// checks that run over it: duplicate ids, dangling edges, entry and reachability,
// cycles, dead ends and the step limit.
//
// It knows no dialect and no file format. Nodes and edges carry RFC 6901 JSON
// Pointers as plain strings; the caller turns them into file positions, and the
// caller decides which fields are edges, which node is the entry, which nodes are
// exits and which loops are bounded.
//
// Every algorithm is iterative and linear in nodes plus edges, so a definition of
// 100,000 steps in one chain cannot exhaust the goroutine stack.
package graph

import "slices"

// EdgeKind says which routing field an edge comes from. The checks treat every
// kind alike; the kind is kept for the simulator and for messages.
type EdgeKind string

// The edge kinds of all dialects.
const (
	Success     EdgeKind = "success"
	Failure     EdgeKind = "failure"
	Sequential  EdgeKind = "sequential"
	Conditional EdgeKind = "conditional"
	Default     EdgeKind = "default"
	Parallel    EdgeKind = "parallel"
	Join        EdgeKind = "join"
	Loop        EdgeKind = "loop"
	Handoff     EdgeKind = "handoff"
	Delegation  EdgeKind = "delegation"
	Approve     EdgeKind = "approve"
	Reject      EdgeKind = "reject"
	After       EdgeKind = "after"
	Dependency  EdgeKind = "dependency"
	Blocked     EdgeKind = "blocked"
	Failed      EdgeKind = "failed"
	Next        EdgeKind = "next"
	Context     EdgeKind = "context"
)

// Node is one step, phase or task.
type Node struct {
	ID        string
	Pointer   string // where the node is defined, e.g. "/steps/3"
	IDPointer string // where its id is written, e.g. "/steps/3/id"
	Exit      bool   // the definition says a run may finish at this node
}

// Edge is one routing reference from a node to the node it names.
type Edge struct {
	From    int    // index of the node the edge leaves
	To      int    // index of the node named by Target once resolved; -1 while unresolved or dangling
	Target  string // the id the edge names
	Kind    EdgeKind
	Pointer string // where the edge is written, e.g. "/steps/3/next"
	Bounded bool   // a loop edge whose iterations the definition bounds
}

// Graph holds the nodes in definition order (first definitions only) and the
// edges in the order they were added.
type Graph struct {
	Nodes []Node
	Edges []Edge

	pointer string
	index   map[string]int
	dups    []duplicate
	defined map[int]int // node index → how many later definitions its id has had

	// Adjacency in compressed form: the resolved edges leaving node i are
	// out[off[i]:off[i+1]] (edge indices) and succ[off[i]:off[i+1]] (node
	// indices), in the order the edges were added.
	off      []int
	out      []int
	succ     []int
	resolved bool
}

// duplicate is a later definition of an id that is already taken; it is kept
// only to be reported.
type duplicate struct {
	node  Node
	first int
	nth   int // 2 for the second definition, 3 for the third, ...
}

// New returns an empty graph whose nodes are written at pointer (e.g. "/steps");
// a step-limit finding is reported there.
func New(pointer string) *Graph {
	return &Graph{pointer: pointer, index: make(map[string]int)}
}

// Grow makes room for nodes more nodes and edges more edges, for a caller that knows
// how many it will add.
func (g *Graph) Grow(nodes, edges int) {
	g.Nodes = slices.Grow(g.Nodes, nodes)
	g.Edges = slices.Grow(g.Edges, edges)
	if len(g.index) == 0 {
		g.index = make(map[string]int, nodes)
	}
}

// Pointer is where the graph's nodes are written ("/steps").
func (g *Graph) Pointer() string { return g.pointer }

// AddNode adds n and returns its index. When n.ID is already defined the first
// definition wins: AddNode records n for a duplicate-id finding and returns
// (-1, false), and the caller must not add edges from it.
func (g *Graph) AddNode(n Node) (index int, ok bool) {
	if first, taken := g.index[n.ID]; taken {
		if g.defined == nil {
			g.defined = make(map[int]int)
		}
		g.defined[first]++
		g.dups = append(g.dups, duplicate{node: n, first: first, nth: g.defined[first] + 1})
		return -1, false
	}
	g.index[n.ID] = len(g.Nodes)
	g.Nodes = append(g.Nodes, n)
	g.resolved = false
	return len(g.Nodes) - 1, true
}

// AddEdge adds an edge from the node at index from to the node whose id is
// target. The target is resolved later, so an edge may name a node that is
// added after it. An edge from an index AddNode did not return (such as the -1
// of a duplicate) is ignored.
func (g *Graph) AddEdge(from int, target string, kind EdgeKind, pointer string, bounded bool) {
	if from < 0 || from >= len(g.Nodes) {
		return
	}
	g.Edges = append(g.Edges, Edge{From: from, To: -1, Target: target, Kind: kind, Pointer: pointer, Bounded: bounded})
	g.resolved = false
}

// Lookup returns the index of the node defined (first) with id.
func (g *Graph) Lookup(id string) (int, bool) {
	i, ok := g.index[id]
	return i, ok
}

// Resolve sets every edge's To (or -1 when its target names no node) and builds
// the adjacency that Succ and Out read. Check calls it, and
// Succ and Out call it when the graph changed; call it yourself before reading
// one graph from several goroutines.
func (g *Graph) Resolve() {
	if g.resolved {
		return
	}
	n := len(g.Nodes)
	off := make([]int, n+1)
	for i := range g.Edges {
		e := &g.Edges[i]
		e.To = -1
		if e.From < 0 || e.From >= n {
			continue
		}
		if j, ok := g.index[e.Target]; ok {
			e.To = j
			off[e.From+1]++
		}
	}
	for i := 0; i < n; i++ {
		off[i+1] += off[i]
	}
	out := make([]int, off[n])
	succ := make([]int, off[n])
	next := make([]int, n)
	copy(next, off[:n])
	for i, e := range g.Edges {
		if e.To < 0 {
			continue
		}
		out[next[e.From]] = i
		succ[next[e.From]] = e.To
		next[e.From]++
	}
	g.off, g.out, g.succ = off, out, succ
	g.resolved = true
}

// Succ returns the nodes that the resolved edges leaving node i lead to, one
// entry per edge, in the order the edges were added (a node named by two edges
// appears twice). The slice is shared: do not modify it.
func (g *Graph) Succ(i int) []int {
	g.Resolve()
	return g.succ[g.off[i]:g.off[i+1]:g.off[i+1]]
}

// Out returns the indices into Edges of the resolved edges leaving node i, in
// the order they were added; dangling edges are left out. The slice is shared:
// do not modify it.
func (g *Graph) Out(i int) []int {
	g.Resolve()
	return g.out[g.off[i]:g.off[i+1]:g.off[i+1]]
}
