package graph

import (
	"fmt"
	"testing"
)

var sizes = []int{100, 1_000, 10_000, 100_000}

// diamonds builds k diamonds in a row: j0 → {l0, r0} → j1 → … → jk, with jk
// the only exit, so there are exactly 2^k paths in 3k+1 nodes.
func diamonds(k int) *Graph {
	g := New("/steps")
	add := func(id string, exit bool) int {
		p := fmt.Sprintf("/steps/%d", len(g.Nodes))
		i, _ := g.AddNode(Node{ID: id, Pointer: p, IDPointer: p + "/id", Exit: exit})
		return i
	}
	j := add("j0", k == 0)
	for d := range k {
		l := add(fmt.Sprintf("l%d", d), false)
		r := add(fmt.Sprintf("r%d", d), false)
		next := fmt.Sprintf("j%d", d+1)
		g.AddEdge(j, g.Nodes[l].ID, Success, g.Nodes[j].Pointer+"/onSuccess", false)
		g.AddEdge(j, g.Nodes[r].ID, Failure, g.Nodes[j].Pointer+"/onFailure", false)
		g.AddEdge(l, next, Success, g.Nodes[l].Pointer+"/onSuccess", false)
		g.AddEdge(r, next, Success, g.Nodes[r].Pointer+"/onSuccess", false)
		j = add(next, d == k-1)
	}
	return g
}

// workflow builds a graph of about n nodes shaped like a real definition: a
// ladder of diamonds whose every step also has a failure edge to one shared
// exit, and a bounded loop back over each diamond.
func workflow(n int) *Graph {
	g := diamonds((n - 2) / 3)
	fail, _ := g.AddNode(Node{ID: "fail", Pointer: "/steps/fail", IDPointer: "/steps/fail/id", Exit: true})
	for i := range fail {
		g.AddEdge(i, "fail", Failure, g.Nodes[i].Pointer+"/onError", false)
		if i%3 == 0 && i > 0 {
			g.AddEdge(i, g.Nodes[i-3].ID, Loop, g.Nodes[i].Pointer+"/loop", true)
		}
	}
	return g
}

// BenchmarkCheck builds the graph once and times Check alone; Check
// re-resolves because the graph is marked changed before each run.
func BenchmarkCheck(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			g := workflow(n)
			opts := Options{Cycles: AllowBounded, Noun: "step", MaxNodes: 2 * n}
			if f := Check(g, opts); len(f) != 0 {
				b.Fatalf("benchmark graph has findings: %+v", f[0])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				g.resolved = false
				Check(g, opts)
			}
		})
	}
}
