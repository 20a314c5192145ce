package sim

// The cover. Where the definition's edges map one to one onto the state graph's moves
// (an acyclic definition), the smallest set of paths taking every coverable edge is a
// minimum flow from the start to the ends in which every takeable move carries at least
// one unit: found exactly by taking a feasible flow and pushing as much of it as
// possible back from the ends to the start (push-relabel). Elsewhere (loops unrolled into many states that take the same
// edge) the cover is greedy: each path is one that takes the most edges not yet taken.

const inf = int64(1) << 60

type arc struct {
	to   int
	rev  int // index of the reverse arc in adj[to]
	cap  int64
	flow int64
}

type network struct {
	adj [][]arc
}

func newNetwork(n int) *network { return &network{adj: make([][]arc, n)} }

// add adds an arc and returns where it is.
func (g *network) add(from, to int, c int64) (int, int) {
	g.adj[from] = append(g.adj[from], arc{to: to, rev: len(g.adj[to]), cap: c})
	g.adj[to] = append(g.adj[to], arc{to: from, rev: len(g.adj[from]) - 1})
	return from, len(g.adj[from]) - 1
}

// StepsPerListedPath bounds the covering paths listed: at most maxPaths of them, and at
// most this many steps per path on average (maxPaths × 100 in all), but always one. A
// definition of 100 steps (Cortex's limit) lists its 100 paths; a 100,000-step one lists
// what a report can show, and the report, the witnesses found for the listed paths and
// their memory stay linear in the definition.
const StepsPerListedPath = 100

// list adds p to the listed cover while the bounds allow.
func (r *Result) list(p Path, maxPaths int) {
	if r.listing(maxPaths) {
		r.Cover = append(r.Cover, p)
		r.listed += len(p.Steps)
	}
}

// listing says whether another path may be listed.
func (r *Result) listing(maxPaths int) bool {
	return len(r.Cover) < maxPaths && (len(r.Cover) == 0 || r.listed < maxPaths*StepsPerListedPath)
}

func (r *Result) cover(maxPaths int, l *limits) error {
	if r.Counts.Total().Sign() == 0 {
		return nil
	}
	if r.oneToOne() {
		r.Minimal = true
		return r.minFlowCover(maxPaths, l)
	}
	if coverable := r.Coverable(); len(r.sp.moves)*coverable > greedyWork {
		return r.quickCover(maxPaths, l)
	}
	return r.greedyCover(maxPaths, l)
}

// greedyWork bounds the greedy cover, which costs a pass over every state for each path
// it takes: beyond it (tens of thousands of states and edges), the quick cover is used.
var greedyWork = 20_000_000

// quickCover takes, for each edge no path of the cover takes yet, a path through it:
// the shortest way from the start to one of its moves, the move, and the shortest way
// on to an end. Linear in the edges times the paths' length; more paths than greedy.
func (r *Result) quickCover(maxPaths int, l *limits) error {
	sp := r.sp
	n := len(sp.moves)
	// Shortest ways in (from the start) and out (to an end), over takeable moves.
	via := make([][2]int, n) // state -> (previous state, move index) on a shortest way in
	seen := make([]bool, n)
	seen[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for k, mv := range sp.moves[i] {
			if sp.takeable(r.live, i, mv) && mv.next >= 0 && !seen[mv.next] {
				seen[mv.next] = true
				via[mv.next] = [2]int{i, k}
				queue = append(queue, mv.next)
			}
		}
	}
	out := make([]int, n) // state -> the move to take towards the nearest end
	dist := make([]int, n)
	for _, i := range backward(sp.order) {
		dist[i], out[i] = -1, -1
		for k, mv := range sp.moves[i] {
			if !sp.takeable(r.live, i, mv) {
				continue
			}
			d := 1
			if mv.next >= 0 {
				if dist[mv.next] < 0 {
					continue
				}
				d += dist[mv.next]
			}
			if dist[i] < 0 || d < dist[i] {
				dist[i], out[i] = d, k
			}
		}
	}
	covered := make([]bool, len(sp.edges))
	// A state's way in and way out are the same for every path through it: once marked
	// covered, they need no second walk, so marking costs each state once.
	inDone := make([]bool, n)
	outDone := make([]bool, n)
	for i, ms := range sp.moves {
		if !seen[i] {
			continue
		}
		if err := l.alive(); err != nil {
			return err
		}
		for k, mv := range ms {
			if !sp.takeable(r.live, i, mv) || covered[mv.edge] || sp.edges[mv.edge] == (Edge{}) {
				continue
			}
			if r.listing(maxPaths) {
				r.list(r.quickPath(i, k, via, out), maxPaths)
			}
			r.CoverSize++
			for j := i; j != 0 && !inDone[j]; j = via[j][0] {
				inDone[j] = true
				covered[sp.moves[via[j][0]][via[j][1]].edge] = true
			}
			covered[mv.edge] = true
			for state := mv.next; state >= 0 && !outDone[state]; {
				outDone[state] = true
				m := sp.moves[state][out[state]]
				covered[m.edge] = true
				state = m.next
			}
		}
	}
	return nil
}

// quickPath is the path through move k of state i: the way in, the move, the way out.
func (r *Result) quickPath(i, k int, via [][2]int, out []int) Path {
	sp := r.sp
	var in []int
	for j := i; j != 0; j = via[j][0] {
		in = append(in, j)
	}
	p := Path{}
	add := func(m move) {
		if e := sp.edges[m.edge]; e != (Edge{}) {
			p.Steps = append(p.Steps, e)
		}
	}
	for x := len(in) - 1; x >= 0; x-- {
		add(sp.moves[via[in[x]][0]][via[in[x]][1]])
	}
	m := sp.moves[i][k]
	for {
		add(m)
		if m.next < 0 {
			p.Status = m.status
			return p
		}
		m = sp.moves[m.next][out[m.next]]
	}
}

// minFlowCover finds a minimum cover of the takeable moves. A feasible flow comes from
// two linear passes: backwards, each move asks for at least one unit and for its share
// of what its target must send on; forwards, whatever a state receives beyond what its
// moves ask for goes on along its first move. Then as much flow as possible is pushed
// back from the ends to the start through the residual network (Dinic), leaving the
// minimum.
func (r *Result) minFlowCover(maxPaths int, l *limits) error {
	sp := r.sp
	n := len(sp.moves)
	end := n
	take := make([][]bool, n)
	indeg := make([]int64, n+1)
	for i, ms := range sp.moves {
		take[i] = make([]bool, len(ms))
		for k, mv := range ms {
			if sp.takeable(r.live, i, mv) {
				take[i][k] = true
				indeg[target(mv, end)]++
			}
		}
	}
	// Backwards: what each state must send on, and what each move asks for.
	base := make([][]int64, n)
	send := make([]int64, n+1)
	for _, i := range backward(sp.order) {
		base[i] = make([]int64, len(sp.moves[i]))
		for k, mv := range sp.moves[i] {
			if !take[i][k] {
				continue
			}
			to := target(mv, end)
			share := int64(1)
			if to != end {
				share = max(1, (send[to]+indeg[to]-1)/indeg[to])
			}
			base[i][k] = share
			send[i] += share
		}
	}
	// Forwards: surplus goes on along the first takeable move.
	in := make([]int64, n+1)
	in[0] = send[0]
	for _, i := range sp.order {
		if !r.live[i] {
			continue
		}
		surplus := in[i] - send[i]
		for k, mv := range sp.moves[i] {
			if !take[i][k] {
				continue
			}
			base[i][k] += surplus
			surplus = 0
			in[target(mv, end)] += base[i][k]
		}
	}
	// Push back from the ends: a move can give back all but its one unit.
	g := newNetwork(n + 1)
	type at struct{ u, i int }
	arcOf := make([][]at, n)
	for i, ms := range sp.moves {
		arcOf[i] = make([]at, len(ms))
		for k, mv := range ms {
			arcOf[i][k] = at{-1, -1}
			if take[i][k] {
				u, idx := g.add(i, target(mv, end), inf)
				g.adj[u][idx].flow = base[i][k] - 1 // the flow above the lower bound
				a := &g.adj[u][idx]
				g.adj[a.to][a.rev].flow = -(base[i][k] - 1)
				arcOf[i][k] = at{u, idx}
			}
		}
	}
	pushed, err := g.preflow(end, 0, l)
	if err != nil {
		return err
	}
	r.CoverSize = int(send[0] - pushed)
	left := make([][]int64, n)
	for i := range sp.moves {
		left[i] = make([]int64, len(sp.moves[i]))
		for k, a := range arcOf[i] {
			if a.u >= 0 {
				left[i][k] = 1 + g.adj[a.u][a.i].flow
			}
		}
	}
	for range r.CoverSize {
		if !r.listing(maxPaths) {
			break
		}
		r.list(r.walk(func(i int, ms []move) int {
			for k := range ms {
				if left[i][k] > 0 {
					left[i][k]--
					return k
				}
			}
			return 0 // unreachable: flow is conserved
		}), maxPaths)
	}
	return nil
}

func target(mv move, end int) int {
	if mv.next < 0 {
		return end
	}
	return mv.next
}

// greedyCover repeatedly takes a path with the most edges not yet taken.
func (r *Result) greedyCover(maxPaths int, l *limits) error {
	sp := r.sp
	covered := make([]bool, len(sp.edges))
	remaining := 0
	for _, e := range r.Edges {
		if e.Coverable {
			remaining++
		}
	}
	index := map[Edge]int{}
	for i, e := range sp.edges {
		index[e] = i
	}
	gain := make([]int, len(sp.moves))
	best := make([]int, len(sp.moves))
	for remaining > 0 {
		if err := l.alive(); err != nil {
			return err
		}
		for _, i := range backward(sp.order) {
			gain[i], best[i] = -1, -1
			if !r.live[i] {
				continue
			}
			for k, mv := range sp.moves[i] {
				if !sp.takeable(r.live, i, mv) {
					continue
				}
				g := 0
				if mv.edge >= 0 && !covered[mv.edge] && sp.edges[mv.edge] != (Edge{}) {
					g = 1
				}
				if mv.next >= 0 {
					g += gain[mv.next]
				}
				if g > gain[i] {
					gain[i], best[i] = g, k
				}
			}
		}
		if gain[0] <= 0 {
			break
		}
		p := r.walk(func(i int, _ []move) int { return best[i] })
		for _, e := range p.Steps {
			if i := index[e]; !covered[i] {
				covered[i] = true
				remaining--
			}
		}
		r.CoverSize++
		r.list(p, maxPaths)
	}
	return nil
}

func backward(order []int) []int {
	out := make([]int, len(order))
	for i, v := range order {
		out[len(order)-1-i] = v
	}
	return out
}

// preflow computes a maximum flow from s to t by push-relabel, highest label first,
// with the gap heuristic and global relabelling (backward breadth-first searches from t,
// and from s for the nodes that cannot reach t, rerun after every n relabels), and
// returns its value. What it leaves is a flow: every node's excess has gone on to t or
// back to s. Dinic's phases grow with the length of augmenting paths, which in a long
// definition are thousands of steps; FIFO push-relabel sloshed excess back and forth
// (400 pushes a node on a generated 30,000-step definition); with the highest label
// first and gaps, excess that cannot reach t is sent back at once.
func (g *network) preflow(s, t int, l *limits) (int64, error) {
	n := len(g.adj)
	top := 2 * n // the height of a node that can reach neither t nor s
	height := make([]int, n)
	excess := make([]int64, n)
	current := make([]int, n)
	// Active nodes in buckets by height (a node is in at most one; a bucket may hold a
	// node whose height has changed since, moved when it is taken), and every node
	// below n in a doubly linked list by height, for the gap.
	bucket := make([][]int, top+1)
	queued := make([]bool, n)
	highest := 0
	activate := func(v int) {
		if v != s && v != t && !queued[v] && excess[v] > 0 && height[v] < top {
			queued[v] = true
			bucket[height[v]] = append(bucket[height[v]], v)
			highest = max(highest, height[v])
		}
	}
	head := make([]int, n)
	next := make([]int, n)
	prev := make([]int, n)
	count := make([]int, n)
	link := func(v int) {
		if h := height[v]; h < n {
			next[v], prev[v] = head[h], -1
			if head[h] >= 0 {
				prev[head[h]] = v
			}
			head[h] = v
			count[h]++
		}
	}
	unlink := func(v int) {
		if h := height[v]; h < n {
			if prev[v] >= 0 {
				next[prev[v]] = next[v]
			} else {
				head[h] = next[v]
			}
			if next[v] >= 0 {
				prev[next[v]] = prev[v]
			}
			count[h]--
		}
	}
	// search sets the height of every node that can push to from (through arcs with
	// room) and has none yet, to its distance plus base.
	search := func(from, base int) {
		height[from] = base
		bfs := []int{from}
		for len(bfs) > 0 {
			v := bfs[0]
			bfs = bfs[1:]
			for _, a := range g.adj[v] {
				// a.to can push to v when the arc to v has room.
				back := &g.adj[a.to][a.rev]
				if back.cap-back.flow > 0 && height[a.to] == top && a.to != s && a.to != t {
					height[a.to] = height[v] + 1
					bfs = append(bfs, a.to)
				}
			}
		}
	}
	relabel := func() {
		for i := range height {
			height[i], current[i] = top, 0
		}
		for h := range head {
			head[h], count[h] = -1, 0
		}
		search(t, 0)
		search(s, n)
		for h := range bucket {
			bucket[h] = bucket[h][:0]
		}
		highest = 0
		for v := range n {
			queued[v] = false
			link(v)
			activate(v)
		}
	}
	relabel()
	for i := range g.adj[s] {
		a := &g.adj[s][i]
		if d := a.cap - a.flow; d > 0 {
			a.flow += d
			g.adj[a.to][a.rev].flow -= d
			excess[a.to] += d
			excess[s] -= d
			activate(a.to)
		}
	}
	relabels := 0
	for {
		for highest > 0 && len(bucket[highest]) == 0 {
			highest--
		}
		if len(bucket[highest]) == 0 {
			break
		}
		if err := l.alive(); err != nil {
			return 0, err
		}
		b := bucket[highest]
		v := b[len(b)-1]
		bucket[highest] = b[:len(b)-1]
		queued[v] = false
		if height[v] != highest {
			activate(v) // moved by a gap since it was queued
			continue
		}
		for excess[v] > 0 && height[v] < top {
			if current[v] == len(g.adj[v]) {
				// Relabel: the lowest neighbour with room, plus one.
				old := height[v]
				h := top
				for _, a := range g.adj[v] {
					if a.cap-a.flow > 0 {
						h = min(h, height[a.to]+1)
					}
				}
				unlink(v)
				height[v], current[v] = h, 0
				if old < n && count[old] == 0 {
					// A gap: no node is left at old, so none above it (below n) can
					// reach t; they go back towards s.
					for k := old + 1; k < n; k++ {
						for u := head[k]; u >= 0; u = next[u] {
							height[u], current[u] = n+1, 0
						}
						head[k], count[k] = -1, 0
					}
					if height[v] < n+1 {
						height[v] = n + 1
					}
				} else {
					link(v)
				}
				if relabels++; relabels == n {
					relabels = 0
					relabel()
				}
				if queued[v] {
					break // the global relabel queued it again
				}
				continue
			}
			a := &g.adj[v][current[v]]
			if a.cap-a.flow > 0 && height[v] == height[a.to]+1 {
				d := min(excess[v], a.cap-a.flow)
				a.flow += d
				g.adj[a.to][a.rev].flow -= d
				excess[v] -= d
				excess[a.to] += d
				activate(a.to)
				continue
			}
			current[v]++
		}
	}
	return excess[t], nil
}
