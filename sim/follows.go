package sim

// Follows says how the edges of the explored runs follow one another: before holds, for
// each edge, the edges a run can take just before it, in first-seen order, the zero
// Edge standing for the run's start; ends holds the edges with which a run can end.
// A picture places by it the edges that lead to no node (To ""): one that never ends a
// run leads on to the edges that follow it, as a DWS phase's pass leads on to its
// transition, and an ensemble phase's completed to the phase the run takes up next.
// It is worked out when asked, from the state graph the exploration kept.
func (r *Result) Follows() (before map[Edge][]Edge, ends map[Edge]bool) {
	sp := r.sp
	before, ends = map[Edge][]Edge{}, map[Edge]bool{}
	if sp == nil || len(sp.moves) == 0 {
		return before, ends
	}
	// into[i]: the edges of the moves that lead to state i, each once; -1 is the start.
	into := make([][]int, len(sp.moves))
	into[0] = []int{-1}
	seen := map[[2]int]bool{}
	for _, ms := range sp.moves {
		for _, mv := range ms {
			if mv.next >= 0 && !seen[[2]int{mv.next, mv.edge}] {
				seen[[2]int{mv.next, mv.edge}] = true
				into[mv.next] = append(into[mv.next], mv.edge)
			}
		}
	}
	pairs := map[[2]int]bool{}
	for i, ms := range sp.moves {
		for _, mv := range ms {
			e := sp.edges[mv.edge]
			if e == (Edge{}) {
				continue // the cut at MaxSteps is no edge of the definition
			}
			if mv.next < 0 && !mv.dead {
				ends[e] = true
			}
			for _, p := range into[i] {
				if pairs[[2]int{mv.edge, p}] {
					continue
				}
				pairs[[2]int{mv.edge, p}] = true
				var pe Edge
				if p >= 0 {
					pe = sp.edges[p]
				}
				before[e] = append(before[e], pe)
			}
		}
	}
	return before, ends
}
