package graph

import (
	"fmt"
	"math/big"
	"reflect"
	"testing"
)

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

func TestCountPathsDiamonds(t *testing.T) {
	for _, k := range []int{0, 1, 2, 10, 64, 1000, 33_333} {
		c, ok := CountPaths(diamonds(k), 0, nil)
		want := new(big.Int).Lsh(big.NewInt(1), uint(k))
		if !ok || c.Cmp(want) != 0 {
			t.Errorf("CountPaths(%d diamonds) = %v, %v; want 2^%d", k, c, ok, k)
		}
	}
}

func TestCountPathsLimit(t *testing.T) {
	g := diamonds(100)
	limit := big.NewInt(1000)
	c, ok := CountPaths(g, 0, limit)
	if !ok || c.Int64() != 1001 {
		t.Errorf("CountPaths over the limit = %v, %v; want 1001 (more than 1000)", c, ok)
	}
	c, ok = CountPaths(diamonds(9), 0, limit)
	if !ok || c.Int64() != 512 {
		t.Errorf("CountPaths under the limit = %v, %v; want 512 exactly", c, ok)
	}
}

func TestCountPaths(t *testing.T) {
	tests := []struct {
		name  string
		nodes string
		edges []string
		entry int
		want  int64
		ok    bool
	}{
		{name: "single exit", nodes: "a!", want: 1, ok: true},
		{name: "no exit", nodes: "a b", edges: []string{"a.next=b"}, want: 0, ok: true},
		{name: "exit that continues", nodes: "a! b!", edges: []string{"a.next=b"}, want: 2, ok: true},
		{name: "two edges to one node", nodes: "a b!", edges: []string{"a.onSuccess=b", "a.onFailure=b"}, want: 2, ok: true},
		{name: "dangling edge counts nothing", nodes: "a b!", edges: []string{"a.onSuccess=b", "a.onFailure=zz"}, want: 1, ok: true},
		{name: "bounded loop ignored", nodes: "a b c!", edges: []string{"a.next=b", "b.next=c", "b.loop~a"}, want: 1, ok: true},
		{name: "unbounded loop is infinite", nodes: "a b c!", edges: []string{"a.next=b", "b.next=c", "b.fail=a"}, ok: false},
		{name: "self-loop is infinite", nodes: "a b!", edges: []string{"a.next=b", "b.retry=b"}, ok: false},
		{name: "cycle out of reach", nodes: "a! x y", edges: []string{"x.next=y", "y.next=x"}, want: 1, ok: true},
		{name: "from a later entry", nodes: "a b c!", edges: []string{"a.next=b", "b.next=c", "b.alt=c"}, entry: 1, want: 2, ok: true},
		{name: "entry out of range", nodes: "a!", entry: 5, want: 0, ok: true},
		{
			name:  "shared suffix",
			nodes: "a b c d e!",
			edges: []string{"a.x=b", "a.y=c", "b.x=d", "c.x=d", "c.y=e", "d.x=e", "d.y=e"},
			// a-b-d-e twice, a-c-d-e twice, a-c-e once
			want: 5, ok: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := CountPaths(build(t, tt.nodes, tt.edges...), tt.entry, nil)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if ok && c.Cmp(big.NewInt(tt.want)) != 0 {
				t.Errorf("CountPaths = %v, want %d", c, tt.want)
			}
		})
	}
}

func TestTopo(t *testing.T) {
	g := build(t, "a b c d!", "c.next=d", "a.next=c", "b.next=d", "d.loop~a")
	order, ok := Topo(g)
	if !ok || !reflect.DeepEqual(order, []int{0, 1, 2, 3}) {
		t.Errorf("Topo = %v, %v; want [0 1 2 3], true", order, ok)
	}
	g = build(t, "d a b c", "b.next=a", "c.next=b", "a.next=d")
	order, ok = Topo(g)
	if !ok || !reflect.DeepEqual(order, []int{3, 2, 1, 0}) {
		t.Errorf("Topo = %v, %v; want [3 2 1 0], true", order, ok)
	}
	g = build(t, "a b c x", "a.next=b", "b.next=c", "c.next=b", "a.next=x")
	order, ok = Topo(g)
	if ok || !reflect.DeepEqual(order, []int{0, 3}) {
		t.Errorf("Topo with a cycle = %v, %v; want [0 3], false", order, ok)
	}
}
