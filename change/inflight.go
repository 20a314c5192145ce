package change

import (
	"fmt"
	"maps"
	"slices"
)

// unitGraph is a unit's nodes and edges as adjacency by id, and, built when first
// asked, the same by index for the reachability questions of the in-flight verdicts:
// those are asked for every position and every reader, so each answer must cost a bit
// lookup, not a walk (a walk per question made a 400-step definition take seconds and
// a 3,000-step one hours).
type unitGraph struct {
	node       map[string]*Node
	succ, pred map[string][]string

	ids          []string
	idx          map[string]int
	succI, predI [][]int
	cyc          []bool           // the node lies on a cycle: a run can come back to it
	producers    map[string][]int // who produces each output
	backOf       map[int]bitset   // the nodes that reach a node (itself included), once asked
	entry        string
	made         []bitset       // per node, the outputs every run reaching it has made (by outIdx), once asked
	outIdx       map[string]int // each output's index in made
}

func graphOf(u *Unit) *unitGraph {
	g := &unitGraph{node: map[string]*Node{}, succ: map[string][]string{}, pred: map[string][]string{}, entry: u.Entry}
	for i := range u.Nodes {
		if _, dup := g.node[u.Nodes[i].ID]; !dup {
			g.node[u.Nodes[i].ID] = &u.Nodes[i]
			g.ids = append(g.ids, u.Nodes[i].ID)
		}
	}
	for _, e := range u.Edges {
		if g.node[e.From] == nil || g.node[e.To] == nil {
			continue
		}
		g.succ[e.From] = append(g.succ[e.From], e.To)
		g.pred[e.To] = append(g.pred[e.To], e.From)
	}
	return g
}

// bitset is a set of node indexes.
type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bitset) add(i int)      { b[i/64] |= 1 << (i % 64) }

// index builds the graph by index, the cycle marks and the producers, once.
func (g *unitGraph) index() {
	if g.idx != nil {
		return
	}
	n := len(g.ids)
	g.idx = make(map[string]int, n)
	for i, id := range g.ids {
		g.idx[id] = i
	}
	g.succI, g.predI = make([][]int, n), make([][]int, n)
	g.producers = map[string][]int{}
	for i, id := range g.ids {
		for _, s := range g.succ[id] {
			g.succI[i] = append(g.succI[i], g.idx[s])
		}
		for _, p := range g.pred[id] {
			g.predI[i] = append(g.predI[i], g.idx[p])
		}
		for _, pr := range g.node[id].Produces {
			g.producers[pr] = append(g.producers[pr], i)
		}
	}
	comp, _ := components(g.ids, g)
	size := map[int]int{}
	for _, c := range comp {
		size[c]++
	}
	g.cyc = make([]bool, n)
	for i, id := range g.ids {
		g.cyc[i] = size[comp[id]] > 1 || slices.Contains(g.succ[id], id)
	}
	g.backOf = map[int]bitset{}
}

// bfs lists the nodes reachable from start through adj, in breadth-first order, start
// first, and gives them as a set.
func (g *unitGraph) bfs(start int, adj [][]int) ([]int, bitset) {
	seen := newBitset(len(g.ids))
	seen.add(start)
	out := []int{start}
	for i := 0; i < len(out); i++ {
		for _, s := range adj[out[i]] {
			if !seen.has(s) {
				seen.add(s)
				out = append(out, s)
			}
		}
	}
	return out, seen
}

// back is the set of nodes that reach node i (i itself included).
func (g *unitGraph) back(i int) bitset {
	if b, ok := g.backOf[i]; ok {
		return b
	}
	_, b := g.bfs(i, g.predI)
	g.backOf[i] = b
	return b
}

// onCycle reports whether a run can come back to id after leaving it.
func (g *unitGraph) onCycle(id string) bool {
	g.index()
	return g.cyc[g.idx[id]]
}

// producedBefore reports whether a node a run passes before reaching id produces out:
// a producer that can reach id, or id itself when it lies on a cycle (a run may pass it
// before coming back).
func (g *unitGraph) producedBefore(id, out string) bool {
	g.index()
	i := g.idx[id]
	for _, x := range g.producers[out] {
		if g.back(i).has(x) && (x != i || g.cyc[i]) {
			return true
		}
	}
	return false
}

// madeBefore reports whether every run that reaches id has made out before it: the
// outputs available at a node, a run's worth (the intersection over the ways in, where
// producedBefore is their union). A run paused at the entry has made nothing, even
// when a loop leads back to it; so has one paused at a node nothing leads into.
func (g *unitGraph) madeBefore(id, out string) bool {
	g.index()
	if g.made == nil {
		g.available()
	}
	k, ok := g.outIdx[out]
	return ok && g.made[g.idx[id]].has(k)
}

// available computes made: made(n) = ∩ over the nodes p leading into n of (made(p) ∪
// what p produces), nothing at the starts, to a fixed point from "everything".
func (g *unitGraph) available() {
	n := len(g.ids)
	g.outIdx = map[string]int{}
	for _, out := range slices.Sorted(maps.Keys(g.producers)) {
		g.outIdx[out] = len(g.outIdx)
	}
	k := len(g.outIdx)
	prod := make([]bitset, n)
	for i, id := range g.ids {
		prod[i] = newBitset(k)
		for _, out := range g.node[id].Produces {
			prod[i].add(g.outIdx[out])
		}
	}
	start := make([]bool, n)
	if i, ok := g.idx[g.entry]; ok && g.entry != "" {
		start[i] = true
	}
	for i := range n {
		if len(g.predI[i]) == 0 {
			start[i] = true
		}
	}
	g.made = make([]bitset, n)
	for i := range n {
		g.made[i] = newBitset(k)
		if !start[i] {
			for w := range g.made[i] {
				g.made[i][w] = ^uint64(0)
			}
		}
	}
	// Work through the nodes until nothing shrinks; each set only shrinks, so this ends.
	queue := make([]int, 0, n)
	queued := make([]bool, n)
	for i := range n {
		queue = append(queue, i)
		queued[i] = true
	}
	next := newBitset(k)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		queued[i] = false
		if start[i] {
			continue
		}
		for w := range next {
			next[w] = ^uint64(0)
		}
		for _, p := range g.predI[i] {
			for w := range next {
				next[w] &= g.made[p][w] | prod[p][w]
			}
		}
		if slices.Equal(next, g.made[i]) {
			continue
		}
		copy(g.made[i], next)
		for _, s := range g.succI[i] {
			if !queued[s] {
				queued[s] = true
				queue = append(queue, s)
			}
		}
	}
}

// producedOnWay reports whether a node a run passes from start (ahead: the nodes start
// reaches) before reaching node r produces out: a producer start reaches that reaches
// r (start included; r only when it lies on a cycle).
func (g *unitGraph) producedOnWay(ahead bitset, r int, out string) bool {
	for _, x := range g.producers[out] {
		if ahead.has(x) && g.back(r).has(x) && (x != r || g.cyc[r]) {
			return true
		}
	}
	return false
}

// inFlight judges, for each node of OLD a run can be persisted at, whether a run paused
// there (about to run it) can go on under NEW.
func (p *pairing) inFlight(d *UnitDiff) {
	og, ng := graphOf(p.o), graphOf(p.n)
	for i := range p.o.Nodes {
		on := &p.o.Nodes[i]
		if !on.Persist || og.node[on.ID] != on {
			continue
		}
		pos := Position{Node: on.ID}
		id := p.newID(on.ID)
		nn := ng.node[id]
		switch {
		case nn == nil:
			pos.Verdict = NeedsMapping
			pos.Why = fmt.Sprintf("%s is not in NEW; a run paused there needs a mapping to a node of NEW (or a declared rename)", on.ID)
		case nn.Type != on.Type:
			pos.NewNode = id
			pos.Verdict = Incompatible
			pos.Why = fmt.Sprintf("%s was %s and is now %s", on.ID, on.Type, nn.Type)
		default:
			pos.NewNode = id
			if why := p.missingRead(og, ng, on.ID, id); why != "" {
				pos.Verdict, pos.Why = Incompatible, why
				break
			}
			pos.Verdict = Continues
			if p.unitChanged != "" {
				pos.Verdict, pos.Why = ContinuesChanged, "the unit's "+p.unitChanged
				break
			}
			ng.index()
			ahead, _ := ng.bfs(ng.idx[id], ng.succI)
			for _, xi := range ahead {
				x := ng.ids[xi]
				if why := p.touched[x]; why != "" {
					pos.Verdict = ContinuesChanged
					if x == id {
						pos.Why = fmt.Sprintf("%s: %s", x, why)
					} else {
						pos.Why = fmt.Sprintf("%s, reached from here: %s", x, why)
					}
					break
				}
			}
		}
		d.InFlight = append(d.InFlight, pos)
	}
}

// missingRead finds a node a run paused at old (id in NEW) would run under NEW that
// reads an output no node of that run produced: neither a node OLD ran before old (on
// every way there: a run at the start of a loop may be on its first pass) nor a node
// NEW runs between id and the reader. A read that was missing under OLD as well
// is not counted: it is no change.
func (p *pairing) missingRead(og, ng *unitGraph, old, id string) string {
	og.index()
	ng.index()
	order, ahead := ng.bfs(ng.idx[id], ng.succI)
	var oldAhead bitset // what OLD runs from old on, once a read needs it
	for _, ri := range order {
		rn := ng.node[ng.ids[ri]]
		for _, read := range rn.Reads {
			if og.madeBefore(old, read) || ng.producedOnWay(ahead, ri, read) {
				continue
			}
			// Under OLD, did the same node read it with nothing producing it for a run
			// paused at old? Then NEW's missing read is no change. A node OLD did not
			// have, or that did not read it, is never excused.
			if on := og.node[p.oldID(rn.ID)]; on != nil && slices.Contains(on.Reads, read) {
				if oldAhead == nil {
					_, oldAhead = og.bfs(og.idx[old], og.succI)
				}
				if !og.producedOnWay(oldAhead, og.idx[on.ID], read) {
					continue
				}
			}
			return fmt.Sprintf("%s would read %s, which no step of a run paused at %s produced", rn.ID, read, old)
		}
	}
	return ""
}
