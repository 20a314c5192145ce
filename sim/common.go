package sim

import (
	"math/big"
)

// Common counts, per end state, the paths that the explorations a and b share: a path
// of a and a path of b are one path when they take the same edges in the same order
// and end the same way (SPEC §8.1: a path is its sequence of (node, outcome) pairs).
// same maps an edge of a to the edge of b it stands for (a node renamed between the
// two); nil is the identity. The paths a has and b lacks are then a's counts minus the
// common ones, and the other way round.
//
// The count is dynamic programming over the product of the two state graphs, as exact
// as Explore's and bounded the same way: opts.MaxStates pairs of states (a
// *BoundError naming "states" beyond), opts.MaxCountBytes for the counts kept at once
// and opts.MaxTime and opts.Ctx for time.
func Common(a, b *Result, same func(Edge) Edge, opts Options) (Counts, error) {
	var c Counts
	for s := range c {
		c[s] = new(big.Int)
	}
	if a == nil || b == nil || a.sp == nil || b.sp == nil {
		return c, nil
	}
	opts, cancel := opts.timed()
	defer cancel()
	l := newLimits(opts)
	sa, sb := a.sp, b.sp
	// The edges of a, as the edges of b they stand for (-1: none of b's).
	mapped := make([]int, len(sa.edges))
	index := make(map[Edge]int, len(sb.edges))
	for i, e := range sb.edges {
		index[e] = i
	}
	for i, e := range sa.edges {
		if same != nil && e != (Edge{}) {
			e = same(e)
		}
		j, ok := index[e]
		if !ok {
			j = -1
		}
		mapped[i] = j
	}
	// rank orders a's states topologically: every move of the product leads to a pair
	// whose a-state ranks later, so the pairs are counted bucket by bucket of that rank.
	rank := make([]int, len(sa.moves))
	for r, i := range sa.order {
		rank[i] = r
	}
	type pair struct{ a, b int }
	start := big.NewInt(1)
	if err := l.keep(start); err != nil {
		return Counts{}, err
	}
	into := map[pair]*big.Int{{0, 0}: start}
	buckets := make([][]pair, len(sa.order))
	buckets[rank[0]] = append(buckets[rank[0]], pair{0, 0})
	pairs := 1
	for r := range buckets {
		for _, p := range buckets[r] {
			in := into[p]
			delete(into, p)
			l.release(in)
			if err := l.alive(); err != nil {
				return Counts{}, err
			}
			for _, ma := range sa.moves[p.a] {
				if ma.dead || mapped[ma.edge] < 0 {
					continue
				}
				for _, mb := range sb.moves[p.b] {
					if mb.dead || mb.edge != mapped[ma.edge] {
						continue
					}
					switch {
					case ma.next < 0 && mb.next < 0:
						if ma.status == mb.status {
							c[ma.status].Add(c[ma.status], in)
						}
					case ma.next >= 0 && mb.next >= 0:
						q := pair{ma.next, mb.next}
						n, ok := into[q]
						if !ok {
							if pairs++; pairs > l.states {
								return Counts{}, l.tooManyStates()
							}
							n = new(big.Int)
							into[q] = n
							buckets[rank[q.a]] = append(buckets[rank[q.a]], q)
						} else {
							l.release(n)
						}
						n.Add(n, in)
						if err := l.keep(n); err != nil {
							return Counts{}, err
						}
					}
				}
			}
		}
		buckets[r] = nil
	}
	return c, nil
}
