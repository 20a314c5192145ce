package change

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// NodeHash is a node's own hash and its key (SPEC §17).
type NodeHash struct {
	Node string
	// Own is the SHA-256 of the node's type and values (its canonical form without its
	// id and its routing fields, plus what it references: a DireClaw agent's provider
	// and model), "sha256:" and 64 hex digits.
	Own string
	// Key combines Own with the keys of the nodes it depends on (those with an edge to
	// it, and how they reach it) and the unit's own values: a node whose key is the same
	// in two versions ran on the same inputs and need not run again. Neither hash holds
	// the node's id, so a declared rename changes neither.
	Key string
	// Loop lists the nodes of the loop the node lies on, which are hashed as one unit and
	// share one key; nil when it lies on none.
	Loop []string
}

func sum(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// ownHash is the hash of a node's type and values, in path order.
func ownHash(n *Node) string {
	parts := []string{"node", n.Type}
	fs := slices.Clone(n.Fields)
	slices.SortFunc(fs, func(a, b Field) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range fs {
		parts = append(parts, f.Path, f.Value)
	}
	return sum(parts...)
}

// unitHash is the hash of the unit's own values but the cosmetic ones: every run
// depends on them, and a new description makes no node run again.
func unitHash(u *Unit) string {
	parts := []string{"unit", u.Kind}
	fs := slices.Clone(u.Fields)
	slices.SortFunc(fs, func(a, b Field) int { return strings.Compare(a.Path, b.Path) })
	for _, f := range fs {
		if f.Class != CosmeticField {
			parts = append(parts, f.Path, f.Value)
		}
	}
	return sum(parts...)
}

// Hashes computes every node's own hash and key, in the unit's node order. The nodes
// of a loop (a strongly connected set) are hashed as one unit: their key combines the
// own hashes of all of them, the routes between them and the keys of the nodes outside
// the loop that lead into it (loopKey), so that keys are defined even for graphs with
// cycles.
func Hashes(u *Unit) []NodeHash {
	g := graphOf(u)
	var ids []string
	for i := range u.Nodes {
		if g.node[u.Nodes[i].ID] == &u.Nodes[i] {
			ids = append(ids, u.Nodes[i].ID)
		}
	}
	comp, order := components(ids, g)
	// The incoming edges of each component, from outside it, with their labels.
	in := map[int][]Edge{}
	for _, e := range u.Edges {
		if g.node[e.From] == nil || g.node[e.To] == nil || comp[e.From] == comp[e.To] {
			continue
		}
		in[comp[e.To]] = append(in[comp[e.To]], e)
	}
	members := map[int][]string{}
	for _, id := range ids {
		members[comp[id]] = append(members[comp[id]], id)
	}
	own := map[string]string{}
	for _, id := range ids {
		own[id] = ownHash(g.node[id])
	}
	base := unitHash(u)
	// The routes between the members of each component, which a loop's key must hold.
	inner := map[int][]Edge{}
	for _, e := range u.Edges {
		if g.node[e.From] != nil && g.node[e.To] != nil && comp[e.From] == comp[e.To] {
			inner[comp[e.From]] = append(inner[comp[e.From]], e)
		}
	}
	keys := map[int]string{}
	for _, c := range order {
		if len(inner[c]) > 0 {
			keys[c] = loopKey(base, members[c], in[c], inner[c], own, func(from string) string { return keys[comp[from]] })
			continue
		}
		parts := []string{"key", base}
		// Ids are left out, so that a declared rename changes no key.
		var owns []string
		for _, m := range members[c] {
			owns = append(owns, own[m])
		}
		slices.Sort(owns)
		parts = append(parts, owns...)
		var deps []string
		for _, e := range in[c] {
			deps = append(deps, own[e.To]+"\x01"+e.Label+"\x01"+keys[comp[e.From]])
		}
		slices.Sort(deps)
		parts = append(parts, deps...)
		keys[c] = sum(parts...)
	}
	out := make([]NodeHash, 0, len(ids))
	for _, id := range ids {
		h := NodeHash{Node: id, Own: own[id], Key: keys[comp[id]]}
		if ms := members[comp[id]]; len(ms) > 1 || g.onCycle(id) {
			h.Loop = slices.Sorted(slices.Values(ms))
		}
		out = append(out, h)
	}
	return out
}

// loopKey is the key of a loop: the nodes members, with the routes inner between them
// and in into them from outside (whose sources' keys keyOf gives). It holds the loop's
// shape without its ids: each member is told apart by a class, first its own hash and
// the routes by which the run enters it from outside, then refined by the classes of
// the members it routes to and is routed from until the refinement splits no more
// members, or for maxRefine rounds (Weisfeiler-Lehman colour refinement; classes are
// numbered in the order of their sorted signatures, so no order of the file shows). The key is each member's
// first colour with its last class, and the routes between them as (class, label,
// class), all sorted. So a retargeted route inside the loop, a ring turned round or a
// retry added changes the key; a reordered file or a renamed member does not.
// maxRefine bounds the refinement: a ring of n like steps entered at one of them takes
// n/2 rounds of n members each to tell all apart. Past it, like members more than
// maxRefine routes from where the loop is told apart share a class, which can only
// make two such loops of different shape share a key.
const maxRefine = 64

func loopKey(base string, members []string, in, inner []Edge, own map[string]string, keyOf func(string) string) string {
	first := map[string]string{}
	for _, m := range members {
		parts := []string{"member", own[m]}
		var ins []string
		for _, e := range in {
			if e.To == m {
				ins = append(ins, e.Label+"\x01"+keyOf(e.From))
			}
		}
		slices.Sort(ins)
		first[m] = sum(append(parts, ins...)...)
	}
	// number gives each member the rank of its signature among the distinct ones.
	class := map[string]int{}
	number := func(sig map[string]string) int {
		distinct := slices.Compact(slices.Sorted(maps.Values(sig)))
		for _, m := range members {
			class[m], _ = slices.BinarySearch(distinct, sig[m])
		}
		return len(distinct)
	}
	classes := number(first)
	outOf, inTo := map[string][]Edge{}, map[string][]Edge{}
	for _, e := range inner {
		outOf[e.From] = append(outOf[e.From], e)
		inTo[e.To] = append(inTo[e.To], e)
	}
	for round := 0; classes < len(members) && round < maxRefine; round++ {
		sig := make(map[string]string, len(members))
		for _, m := range members {
			var outs, ins []string
			for _, e := range outOf[m] {
				outs = append(outs, e.Label+"\x01"+strconv.Itoa(class[e.To]))
			}
			for _, e := range inTo[m] {
				ins = append(ins, e.Label+"\x01"+strconv.Itoa(class[e.From]))
			}
			slices.Sort(outs)
			slices.Sort(ins)
			sig[m] = strconv.Itoa(class[m]) + "\x02" + strings.Join(outs, "\x03") + "\x02" + strings.Join(ins, "\x03")
		}
		n := number(sig)
		if n == classes {
			break
		}
		classes = n
	}
	var colours, routes []string
	for _, m := range members {
		colours = append(colours, first[m]+"\x01"+strconv.Itoa(class[m]))
	}
	for _, e := range inner {
		routes = append(routes, strconv.Itoa(class[e.From])+"\x01"+e.Label+"\x01"+strconv.Itoa(class[e.To]))
	}
	slices.Sort(colours)
	slices.Sort(routes)
	parts := append(append([]string{"loop", base}, colours...), "routes")
	return sum(append(parts, routes...)...)
}

// components finds the strongly connected components of the graph (Tarjan's
// algorithm, without recursion) and returns each node's component and the components
// in topological order (every edge between two components goes forward).
func components(ids []string, g *unitGraph) (map[string]int, []int) {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	comp := map[string]int{}
	var stack []string
	var done []int // components in the order Tarjan completes them: reverse topological
	next := 0
	type frame struct {
		id string
		i  int // next successor to look at
	}
	for _, root := range ids {
		if _, seen := index[root]; seen {
			continue
		}
		frames := []frame{{id: root}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			succ := g.succ[f.id]
			if f.i < len(succ) {
				s := succ[f.i]
				f.i++
				if _, seen := index[s]; !seen {
					index[s], low[s] = next, next
					next++
					stack = append(stack, s)
					onStack[s] = true
					frames = append(frames, frame{id: s})
				} else if onStack[s] {
					low[f.id] = min(low[f.id], index[s])
				}
				continue
			}
			id := f.id
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				parent := frames[len(frames)-1].id
				low[parent] = min(low[parent], low[id])
			}
			if low[id] == index[id] {
				c := len(done)
				for {
					top := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[top] = false
					comp[top] = c
					if top == id {
						break
					}
				}
				done = append(done, c)
			}
		}
	}
	slices.Reverse(done)
	return comp, done
}

// ReRun is a node of NEW that must run again on a run that reuses OLD's results: its
// key changed.
type ReRun struct {
	Node string
	// Why is "new", "changed" (its own hash changed), "upstream" (Chain leads from a
	// node that is new or changed to it), or "inputs" (what leads into it, or the unit's
	// own values, changed).
	Why   string
	Chain []string
	// Skipped is how many nodes of a long chain were left out of Chain, between its
	// first maxChain/2 nodes and its last ones: the whole chains of a long definition
	// grow with the square of its length (a change to the first of 3,000 steps made
	// a 50 MB line).
	Skipped int
}

// maxChain is the most nodes a re-run's chain shows.
const maxChain = 8

// reRuns lists the nodes of NEW whose key differs from OLD's, in NEW's order, each with
// why.
func (p *pairing) reRuns() []ReRun {
	oldH := map[string]NodeHash{}
	for _, h := range Hashes(p.o) {
		oldH[h.Node] = h
	}
	newH := map[string]NodeHash{}
	var order []string
	for _, h := range Hashes(p.n) {
		newH[h.Node] = h
		order = append(order, h.Node)
	}
	// cause is why a node's key changed by itself: new or changed; "" when it did not.
	cause := func(id string) string {
		old := p.oldID(id)
		oh, ok := oldH[old]
		switch {
		case old == "" || !ok:
			return "new"
		case oh.Own != newH[id].Own:
			return "changed"
		}
		return ""
	}
	keyChanged := func(id string) bool {
		oh, ok := oldH[p.oldID(id)]
		return !ok || oh.Key != newH[id].Key
	}
	g := graphOf(p.n)
	// dist is how far each node whose key changed lies from the nearest node upstream
	// that changed itself, through nodes whose keys changed (0: it changed itself): one
	// breadth-first pass from all of those at once, where a walk back from each node
	// made a long definition's re-runs cost the square of its length.
	dist := map[string]int{}
	var queue []string
	for _, id := range order {
		if keyChanged(id) && cause(id) != "" {
			dist[id] = 0
			queue = append(queue, id)
		}
	}
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		for _, s := range g.succ[x] {
			if _, seen := dist[s]; seen || !keyChanged(s) {
				continue
			}
			dist[s] = dist[x] + 1
			queue = append(queue, s)
		}
	}
	var out []ReRun
	for _, id := range order {
		if !keyChanged(id) {
			continue
		}
		if c := cause(id); c != "" {
			out = append(out, ReRun{Node: id, Why: c})
			continue
		}
		d, ok := dist[id]
		if !ok {
			out = append(out, ReRun{Node: id, Why: "inputs"})
			continue
		}
		// The chain back to the nearest node that changed itself: at each step the
		// first node leading in that is one nearer.
		r := ReRun{Node: id, Why: "upstream"}
		back := []string{id}
		for at := id; d > 0; d-- {
			for _, pr := range g.pred[at] {
				if dp, ok := dist[pr]; ok && dp == d-1 {
					at = pr
					break
				}
			}
			back = append(back, at)
		}
		slices.Reverse(back)
		r.Chain = back
		if n := len(r.Chain); n > maxChain {
			r.Skipped = n - maxChain
			r.Chain = append(r.Chain[:maxChain/2:maxChain/2], r.Chain[n-maxChain/2:]...)
		}
		out = append(out, r)
	}
	return out
}
