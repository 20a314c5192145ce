package dws

// reachability answers, in constant time and linear memory, the question the state asks
// at every move: can phase i still reach phase f (a loop's from)? The phases' strongly
// connected components are numbered in the post-order of one depth-first search of the
// graph they condense into. When i reaches f, i's component is f's or finishes after it:
// post[i] > post[f]. The converse does not hold in general, but the turns of f's loop are
// in a run's state only after f's loop turned, that is at phases f reaches; and when f
// reaches i without i reaching f, post[f] > post[i]. So over the states that occur the
// answer is exact, and no bit set per loop (phases × loops) is needed.
type reachability struct {
	comp []int32 // phase -> component
	post []int32 // component -> post-order number
	// loop[c] says that component c reaches some loop's from phase.
	loop []bool
}

// canReach reports whether phase i can reach phase f, for an i that f reaches (see
// reachability); for any other i it may say true when the answer is false.
func (r *reachability) canReach(i, f int) bool {
	ci, cf := r.comp[i], r.comp[f]
	return ci == cf || r.post[ci] > r.post[cf]
}

// reachesLoop reports whether phase i can reach the from phase of some loop.
func (r *reachability) reachesLoop(i int) bool { return r.loop[r.comp[i]] }

func newReachability(n int, edges [][2]int, loopFrom []int) *reachability {
	adj := make([][]int32, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], int32(e[1]))
	}
	comp := components(adj)
	nc := int32(0)
	for _, c := range comp {
		nc = max(nc, c+1)
	}
	cadj := make([][]int32, nc)
	for v, ws := range adj {
		for _, w := range ws {
			if comp[v] != comp[w] {
				cadj[comp[v]] = append(cadj[comp[v]], comp[w])
			}
		}
	}
	r := &reachability{comp: comp, post: make([]int32, nc), loop: make([]bool, nc)}
	for _, f := range loopFrom {
		r.loop[comp[f]] = true
	}
	// Post-order of the condensation, iteratively (a chain of 100,000 phases is as
	// deep); a component's loop flag is its successors' once they are done.
	seen := make([]bool, nc)
	type frame struct{ c, next int32 }
	var stack []frame
	counter := int32(0)
	for root := range nc {
		if seen[root] {
			continue
		}
		seen[root] = true
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if int(top.next) < len(cadj[top.c]) {
				w := cadj[top.c][top.next]
				top.next++
				if !seen[w] {
					seen[w] = true
					stack = append(stack, frame{w, 0})
				}
				continue
			}
			c := top.c
			for _, w := range cadj[c] {
				r.loop[c] = r.loop[c] || r.loop[w]
			}
			r.post[c] = counter
			counter++
			stack = stack[:len(stack)-1]
		}
	}
	return r
}

// components numbers the strongly connected components of a graph (Tarjan's algorithm,
// iteratively), in reverse topological order: a component's successors have smaller
// numbers.
func components(adj [][]int32) []int32 {
	n := len(adj)
	index := make([]int32, n)
	low := make([]int32, n)
	comp := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int32
	type frame struct{ v, next int32 }
	var calls []frame
	counter, nc := int32(0), int32(0)
	for root := range int32(n) {
		if index[root] >= 0 {
			continue
		}
		calls = append(calls[:0], frame{root, 0})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			top := &calls[len(calls)-1]
			v := top.v
			if int(top.next) < len(adj[v]) {
				w := adj[v][top.next]
				top.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{w, 0})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = nc
					if w == v {
						break
					}
				}
				nc++
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				u := calls[len(calls)-1].v
				low[u] = min(low[u], low[v])
			}
		}
	}
	return comp
}
