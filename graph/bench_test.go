package graph

import (
	"fmt"
	"math/big"
	"testing"
)

var sizes = []int{100, 1_000, 10_000, 100_000}

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

// BenchmarkCountPaths counts the 2^(n/3) paths of a diamond ladder exactly,
// and again with a limit, the way the simulator asks "more than --max-paths?".
func BenchmarkCountPaths(b *testing.B) {
	for _, n := range sizes {
		g := diamonds((n - 1) / 3)
		g.Resolve()
		b.Run(fmt.Sprintf("exact/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := CountPaths(g, 0, nil); !ok {
					b.Fatal("not ok")
				}
			}
		})
		limit := big.NewInt(1_000_000)
		b.Run(fmt.Sprintf("limit/n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := CountPaths(g, 0, limit); !ok {
					b.Fatal("not ok")
				}
			}
		})
	}
}
