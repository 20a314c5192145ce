package graph

import (
	"fmt"
	"strconv"
	"strings"
)

// components labels every node with its strongly connected component
// (Tarjan's algorithm with an explicit stack, so a long chain cannot overflow
// the goroutine stack). Edges for which skip returns true are left out.
// selfLoop[i] reports an edge that is not skipped from node i to itself.
func (g *Graph) components(skip func(e int) bool) (comp []int, count int, selfLoop []bool) {
	n := len(g.Nodes)
	const unvisited = -1
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp = make([]int, n)
	selfLoop = make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct{ v, pos int }
	var calls []frame
	var stack []int
	counter := 0
	visit := func(v int) {
		index[v], low[v] = counter, counter
		counter++
		stack = append(stack, v)
		onStack[v] = true
		calls = append(calls, frame{v, g.off[v]})
	}
	for s := range n {
		if index[s] != unvisited {
			continue
		}
		visit(s)
		for len(calls) > 0 {
			top := len(calls) - 1
			v, pos := calls[top].v, calls[top].pos
			if pos < g.off[v+1] {
				calls[top].pos++
				if skip(g.out[pos]) {
					continue
				}
				w := g.succ[pos]
				switch {
				case w == v:
					selfLoop[v] = true
				case index[w] == unvisited:
					visit(w)
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:top]
			if top > 0 {
				p := calls[top-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = count
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	return comp, count, selfLoop
}

// CycleEdges reports, for each edge of g, whether it lies on a cycle: its two ends
// are one node or in one strongly connected component. A rule that judges single
// edges uses it to leave the edges of a cycle to the cycle finding.
func (g *Graph) CycleEdges() []bool {
	g.Resolve()
	comp, _, _ := g.components(func(int) bool { return false })
	on := make([]bool, len(g.Edges))
	for i, e := range g.Edges {
		on[i] = e.To >= 0 && comp[e.From] == comp[e.To]
	}
	return on
}

// cycles reports each strongly connected component that holds a cycle once, at
// its member defined first, naming the members in definition order; onCycle
// marks the members of every cycle reported.
func (g *Graph) cycles(allowBounded bool, noun string) (out []Finding, onCycle []bool) {
	skip := func(int) bool { return false }
	if allowBounded {
		skip = func(e int) bool { return g.Edges[e].Bounded }
	}
	comp, count, selfLoop := g.components(skip)

	// Group members by component with a stable counting sort, so each group is
	// already in definition order without sorting.
	size := make([]int, count+1)
	for _, c := range comp {
		size[c+1]++
	}
	for c := range count {
		size[c+1] += size[c]
	}
	start := size // start[c] is where component c begins in members
	members := make([]int, len(comp))
	next := make([]int, count)
	copy(next, start[:count])
	for i, c := range comp {
		members[next[c]] = i
		next[c]++
	}

	onCycle = make([]bool, len(comp))
	done := make([]bool, count)
	for i, c := range comp {
		if done[c] {
			continue
		}
		done[c] = true
		m := members[start[c]:start[c+1]]
		if len(m) == 1 && !selfLoop[i] {
			continue
		}
		out = append(out, g.cycleFinding(m, noun))
		for _, v := range m {
			onCycle[v] = true
		}
	}
	return out, onCycle
}

func (g *Graph) cycleFinding(members []int, noun string) Finding {
	first := g.Nodes[members[0]]
	f := Finding{Kind: Cycle, Pointer: nodePointer(first)}
	if len(members) == 1 {
		f.Message = fmt.Sprintf("%s %q leads back to itself, which is a cycle", noun, first.ID)
		return f
	}
	var b strings.Builder
	b.WriteString(plural(noun))
	shown := min(len(members), namesInMessage)
	for k, i := range members[:shown] {
		switch {
		case k == 0:
			b.WriteString(" ")
		case k == len(members)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(g.Nodes[i].ID))
	}
	if rest := len(members) - shown; rest > 0 {
		fmt.Fprintf(&b, " and %d more", rest)
	}
	b.WriteString(" form a cycle")
	f.Message = b.String()
	f.Related = make([]Related, 0, len(members)-1)
	for _, i := range members[1:] {
		f.Related = append(f.Related, Related{
			Pointer: nodePointer(g.Nodes[i]),
			Message: fmt.Sprintf("%q is part of the cycle", g.Nodes[i].ID),
		})
	}
	return f
}
