package graph

import "math/big"

// Topo returns the nodes in a topological order of the resolved edges that are
// not Bounded (Kahn's algorithm; ties go to definition order, so the order is
// deterministic). ok is false when those edges form a cycle; order then holds
// only the nodes outside and not downstream of every cycle.
func Topo(g *Graph) (order []int, ok bool) {
	g.Resolve()
	n := len(g.Nodes)
	indeg := make([]int, n)
	for _, e := range g.Edges {
		if e.To >= 0 && !e.Bounded {
			indeg[e.To]++
		}
	}
	order = make([]int, 0, n)
	for i := range n {
		if indeg[i] == 0 {
			order = append(order, i)
		}
	}
	for k := 0; k < len(order); k++ {
		v := order[k]
		for p := g.off[v]; p < g.off[v+1]; p++ {
			if g.Edges[g.out[p]].Bounded {
				continue
			}
			w := g.succ[p]
			indeg[w]--
			if indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	return order, len(order) == n
}

// CountPaths returns the number of distinct paths a run can take from the node
// at index entry to an exit, over the resolved edges that are not Bounded (a
// bounded loop repeats part of a path; it does not make a new one).
//
// A path is a sequence of edges, so two edges from one node to the same
// successor (a success and a failure route to one step) are two paths. A path
// may end at any Exit node; an Exit node with outgoing edges also lets paths
// continue, so its count is one (ending there) plus the counts through each of
// its edges. Dangling edges lead nowhere and count nothing.
//
// The count is exact however large. When limit is not nil the counting
// saturates: a result greater than limit (it is then limit+1) means "more than
// limit", which keeps the arithmetic small for a caller that only needs to
// know whether a bound is exceeded.
//
// ok is false when a cycle of edges that are not Bounded can be reached from
// entry, since the number of paths is then infinite. The work is linear in
// nodes and edges, counting each big-number addition as one step.
func CountPaths(g *Graph, entry int, limit *big.Int) (count *big.Int, ok bool) {
	g.Resolve()
	n := len(g.Nodes)
	if entry < 0 || entry >= n {
		return new(big.Int), true
	}
	counted := func(p int) bool { return !g.Edges[g.out[p]].Bounded }

	// Only the part reachable from entry matters: a cycle elsewhere does not
	// make this count infinite.
	reached := make([]bool, n)
	reached[entry] = true
	queue := []int{entry}
	for k := 0; k < len(queue); k++ {
		v := queue[k]
		for p := g.off[v]; p < g.off[v+1]; p++ {
			if w := g.succ[p]; counted(p) && !reached[w] {
				reached[w] = true
				queue = append(queue, w)
			}
		}
	}
	indeg := make([]int, n)
	for _, v := range queue {
		for p := g.off[v]; p < g.off[v+1]; p++ {
			if counted(p) {
				indeg[g.succ[p]]++
			}
		}
	}
	// Kahn over the reached part; pending keeps each node's in-degree so its
	// count can be released once every predecessor has read it.
	pending := make([]int, n)
	copy(pending, indeg)
	order := make([]int, 0, len(queue))
	if indeg[entry] == 0 {
		order = append(order, entry)
	}
	for k := 0; k < len(order); k++ {
		v := order[k]
		for p := g.off[v]; p < g.off[v+1]; p++ {
			if !counted(p) {
				continue
			}
			w := g.succ[p]
			indeg[w]--
			if indeg[w] == 0 {
				order = append(order, w)
			}
		}
	}
	if len(order) != len(queue) {
		return nil, false
	}

	var ceiling *big.Int
	if limit != nil {
		ceiling = new(big.Int).Add(limit, big.NewInt(1))
	}
	// Counts of exponential size would make keeping one per node quadratic in
	// memory; only the frontier is alive, and released numbers are reused.
	paths := make([]*big.Int, n)
	var free []*big.Int
	for k := len(order) - 1; k >= 0; k-- {
		v := order[k]
		var c *big.Int
		if len(free) > 0 {
			c = free[len(free)-1]
			free = free[:len(free)-1]
			c.SetInt64(0)
		} else {
			c = new(big.Int)
		}
		if g.Nodes[v].Exit {
			c.SetInt64(1)
		}
		for p := g.off[v]; p < g.off[v+1]; p++ {
			if !counted(p) {
				continue
			}
			w := g.succ[p]
			c.Add(c, paths[w])
			pending[w]--
			if pending[w] == 0 {
				free = append(free, paths[w])
				paths[w] = nil
			}
		}
		if ceiling != nil && c.Cmp(ceiling) > 0 {
			c.Set(ceiling)
		}
		paths[v] = c
	}
	return paths[entry], true
}
