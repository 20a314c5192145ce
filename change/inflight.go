package change

import (
	"fmt"
	"slices"
)

// unitGraph is a unit's nodes and edges as adjacency by id.
type unitGraph struct {
	node       map[string]*Node
	succ, pred map[string][]string
}

func graphOf(u *Unit) *unitGraph {
	g := &unitGraph{node: map[string]*Node{}, succ: map[string][]string{}, pred: map[string][]string{}}
	for i := range u.Nodes {
		if _, dup := g.node[u.Nodes[i].ID]; !dup {
			g.node[u.Nodes[i].ID] = &u.Nodes[i]
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

// walk lists the nodes reachable from start through adj, in breadth-first order,
// start first.
func walk(adj map[string][]string, start string) []string {
	seen := map[string]bool{start: true}
	out := []string{start}
	for i := 0; i < len(out); i++ {
		for _, s := range adj[out[i]] {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// before lists the nodes some run passes before reaching id: those that can reach it,
// and id itself only when it lies on a cycle (a run may pass it before coming back).
func (g *unitGraph) before(id string) []string {
	out := walk(g.pred, id)[1:]
	if g.onCycle(id) {
		out = append(out, id)
	}
	return out
}

// onCycle reports whether a run can come back to id after leaving it.
func (g *unitGraph) onCycle(id string) bool {
	for _, s := range g.succ[id] {
		if slices.Contains(walk(g.succ, s), id) {
			return true
		}
	}
	return false
}

// producedOnWay is what the nodes of g a run passes from start before reaching r
// produce: the nodes reachable from start that reach r (start included; r only when
// it lies on a cycle).
func (g *unitGraph) producedOnWay(start, r string, into map[string]bool) {
	back := walk(g.pred, r)
	for _, x := range walk(g.succ, start) {
		if x == r && !g.onCycle(r) {
			continue
		}
		if slices.Contains(back, x) {
			for _, pr := range g.node[x].Produces {
				into[pr] = true
			}
		}
	}
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
			for _, x := range walk(ng.succ, id) {
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
// reads an output no node of that run produced: neither a node OLD ran before old nor
// a node NEW runs between id and the reader. A read that was missing under OLD as well
// is not counted: it is no change.
func (p *pairing) missingRead(og, ng *unitGraph, old, id string) string {
	had := map[string]bool{}
	for _, b := range og.before(old) {
		for _, pr := range og.node[b].Produces {
			had[pr] = true
		}
	}
	ahead := walk(ng.succ, id)
	for _, r := range ahead {
		rn := ng.node[r]
		if len(rn.Reads) == 0 {
			continue
		}
		have := map[string]bool{}
		ng.producedOnWay(id, r, have)
		for _, read := range rn.Reads {
			if had[read] || have[read] {
				continue
			}
			if p.readMissingInOld(og, old, p.oldID(r), read) {
				continue
			}
			return fmt.Sprintf("%s would read %s, which no step of a run paused at %s produced", r, read, old)
		}
	}
	return ""
}

// readMissingInOld says whether, under OLD, the node r (OLD's id) read read with
// nothing producing it for a run paused at old: NEW's missing read is then no change.
// A node OLD did not have, or that did not read it, is never excused.
func (p *pairing) readMissingInOld(og *unitGraph, old, r, read string) bool {
	rn := og.node[r]
	if rn == nil || !slices.Contains(rn.Reads, read) {
		return false
	}
	have := map[string]bool{}
	for _, b := range og.before(old) {
		for _, pr := range og.node[b].Produces {
			have[pr] = true
		}
	}
	og.producedOnWay(old, r, have)
	return !have[read]
}
