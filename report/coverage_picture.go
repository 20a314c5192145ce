package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
)

// The picture of a definition on the coverage page: its simulated edges (the ones
// coverage counts) drawn between places, laid out by Graphviz's dot in the page.
//
// A place is a node's box, a junction, or the end. An edge that names a node (To) leads
// to its box. An edge that names none either ends the run, and leads to the end, or
// leads on to more outcomes (a DWS phase's pass before its transition, its loop's exit
// before done, a fork's branches, an ensemble phase's completed before the next phase):
// sim.Result.Follows tells which, and the edges that follow it. Those edges leave from a
// junction, a small dot, and the edge leads there; when every edge that leaves a
// junction is of one node that nothing else leads to (a fork's branch), the junction is
// that node's box. An edge that can both end the run and lead on is drawn to both, as
// two curves of one style.

// edgeState is how the scenarios treated an edge.
type edgeState string

const (
	covered   edgeState = "covered"
	uncovered edgeState = "uncovered"
	dead      edgeState = "dead"
)

type placeKind uint8

const (
	boxPlace placeKind = iota
	junctionPlace
	endPlace
)

type place struct {
	kind  placeKind
	node  string // a box's node; a junction's when all edges into it are of one node
	start bool   // the box where the run starts
}

// drawnEdge is one curve: edge Edges[Index] of the result from place From to To.
type drawnEdge struct {
	Index    int
	Part     int // 0, or 1 for an edge's second curve
	From, To int
	Label    string
}

type picture struct {
	places []place
	edges  []drawnEdge
}

// layout works out the places and the curves of d's picture.
func layout(r *sim.Result) picture {
	var p picture
	before, ends := r.Follows()
	boxes := map[string]int{}
	box := func(n string) int {
		if i, ok := boxes[n]; ok {
			return i
		}
		boxes[n] = len(p.places)
		p.places = append(p.places, place{kind: boxPlace, node: n})
		return boxes[n]
	}
	index := map[sim.Edge]int{}
	for i, e := range r.Edges {
		index[e.Edge] = i
	}
	to := func(e sim.Edge) string {
		if i, ok := index[e]; ok {
			return r.Edges[i].To
		}
		return ""
	}
	// An edge leaves from its node's box when a run can take it as the run reaches the
	// node: first, or after an edge that names a node.
	arrives := func(f sim.Edge) bool {
		if len(before[f]) == 0 {
			return true
		}
		for _, e := range before[f] {
			if e == (sim.Edge{}) || to(e) != "" {
				return true
			}
		}
		return false
	}
	// Junctions: the edges leading on that some edge follows together are one place.
	parent := make([]int, len(r.Edges))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	owned := map[string]bool{} // nodes that have a box of their own
	for _, e := range r.Edges {
		if e.To != "" {
			owned[e.To] = true
		}
		if arrives(e.Edge) {
			owned[e.Node] = true
			continue
		}
		first := -1
		for _, b := range before[e.Edge] {
			if i, ok := index[b]; ok {
				if first < 0 {
					first = i
				} else {
					parent[find(i)] = find(first)
				}
			}
		}
	}
	// What leaves each junction, to decide which junctions are a node's box.
	leaving := map[int]map[string]bool{}
	for _, e := range r.Edges {
		if arrives(e.Edge) {
			continue
		}
		if i, ok := index[before[e.Edge][0]]; ok {
			j := find(i)
			if leaving[j] == nil {
				leaving[j] = map[string]bool{}
			}
			leaving[j][e.Node] = true
		}
	}
	// Boxes first, in the order the edges name them, so the layout reads top down.
	for _, e := range r.Edges {
		if owned[e.Node] {
			box(e.Node)
		}
	}
	junctions := map[int]int{}
	junction := func(j int) int {
		if k, ok := junctions[j]; ok {
			return k
		}
		if len(leaving[j]) == 1 {
			for n := range leaving[j] {
				if !owned[n] {
					junctions[j] = box(n)
					return junctions[j]
				}
			}
		}
		node := r.Edges[j].Node
		for i := range r.Edges {
			if find(i) == j && to(r.Edges[i].Edge) == "" && r.Edges[i].Node != node {
				node = ""
			}
		}
		junctions[j] = len(p.places)
		p.places = append(p.places, place{kind: junctionPlace, node: node})
		return junctions[j]
	}
	from := func(e sim.EdgeInfo) int {
		if arrives(e.Edge) {
			return box(e.Node)
		}
		return junction(find(index[before[e.Edge][0]]))
	}
	end := -1
	toEnd := func() int {
		if end < 0 {
			end = len(p.places)
			p.places = append(p.places, place{kind: endPlace})
		}
		return end
	}
	// followers[e]: the edges that follow edge e when e names no node.
	followers := map[int][]int{}
	for i, e := range r.Edges {
		for _, b := range before[e.Edge] {
			if k, ok := index[b]; ok && r.Edges[k].To == "" {
				followers[k] = append(followers[k], i)
			}
		}
	}
	for i, e := range r.Edges {
		src := from(e)
		if slices.Contains(before[e.Edge], sim.Edge{}) && p.places[src].kind == boxPlace {
			p.places[src].start = true
		}
		label := e.Outcome
		if n := p.places[src].node; n != e.Node {
			label = e.Node + ": " + e.Outcome
		}
		var targets []int
		if e.To != "" {
			targets = append(targets, box(e.To))
		} else {
			seen := map[int]bool{}
			for _, f := range followers[i] {
				t := from(r.Edges[f])
				if !seen[t] {
					seen[t] = true
					targets = append(targets, t)
				}
			}
			if ends[e.Edge] || len(targets) == 0 {
				targets = append(targets, toEnd())
			}
		}
		for part, t := range targets {
			p.edges = append(p.edges, drawnEdge{Index: i, Part: part, From: src, To: t, Label: label})
		}
	}
	return p
}

// edgeStates is how the scenarios treated each of d's edges, by index.
func edgeStates(d *scenario.Covered) []edgeState {
	missing := map[sim.Edge]bool{}
	for _, e := range d.Coverage.Uncovered {
		missing[e] = true
	}
	out := make([]edgeState, len(d.Result.Edges))
	for i, e := range d.Result.Edges {
		switch {
		case !e.Coverable:
			out[i] = dead
		case missing[e.Edge]:
			out[i] = uncovered
		default:
			out[i] = covered
		}
	}
	return out
}

// The three edge styles, the same in the picture and in the page's legend.
var edgeStyles = map[edgeState]struct{ color, font, style, width, dash string }{
	covered:   {"#2e7d32", "#1b5e20", "solid", "2", ""},
	uncovered: {"#c62828", "#b71c1c", "dashed", "2", "5,2"},
	dead:      {"#8d8d8d", "#616161", "dotted", "2", "1,5"},
}

// writeDOT writes the picture as a Graphviz graph; ids are prefixed by prefix.
func (p picture) writeDOT(b *strings.Builder, prefix string, r *sim.Result, states []edgeState, takers []int) {
	b.WriteString("digraph {\n")
	b.WriteString("  graph [rankdir=TB, nodesep=0.35, ranksep=0.45, pad=0.15, bgcolor=\"transparent\", fontname=\"Helvetica,Arial,sans-serif\"];\n")
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f5f7fa\", color=\"#445566\", fontname=\"Helvetica,Arial,sans-serif\", fontsize=12, height=0.36];\n")
	b.WriteString("  edge [fontname=\"Helvetica,Arial,sans-serif\", fontsize=11, arrowsize=0.8];\n")
	for i, pl := range p.places {
		id := fmt.Sprintf("%s-p%d", prefix, i)
		switch pl.kind {
		case boxPlace:
			extra := ""
			if pl.start {
				extra = `, fillcolor="#e3f2fd", color="#1565c0", penwidth=2.5`
			}
			fmt.Fprintf(b, "  p%d [id=\"%s\", label=\"%s\", tooltip=\"%s\"%s];\n", i, id, dotText(clipLabel(pl.node)), dotText(pl.node), extra)
		case junctionPlace:
			tip := "between two outcomes"
			if pl.node != "" {
				tip = "between two outcomes of " + pl.node
			}
			fmt.Fprintf(b, "  p%d [id=\"%s\", shape=point, width=0.11, style=filled, fillcolor=\"#445566\", color=\"#445566\", tooltip=\"%s\"];\n", i, id, dotText(tip))
		case endPlace:
			fmt.Fprintf(b, "  p%d [id=\"%s\", label=\"end\", shape=circle, fixedsize=true, width=0.42, fontsize=10, style=filled, fillcolor=\"#424242\", color=\"#424242\", fontcolor=\"#ffffff\", tooltip=\"the run ends\"];\n", i, id)
		}
	}
	for _, e := range p.edges {
		ei := r.Edges[e.Index]
		st := states[e.Index]
		s := edgeStyles[st]
		tip := fmt.Sprintf("%s: %s", ei.String(), stateWords(st, takers[e.Index]))
		if st == dead {
			tip += " (" + ei.Why + ")"
		}
		// A space each side: dot sets the labels of parallel edges side by side, touching.
		fmt.Fprintf(b, "  p%d -> p%d [id=\"%s-e%d-%d\", class=\"%s\", label=\" %s \", tooltip=\"%s\", color=\"%s\", fontcolor=\"%s\", style=%s, penwidth=%s];\n",
			e.From, e.To, prefix, e.Index, e.Part, st, dotText(clipLabel(e.Label)), dotText(tip), s.color, s.font, s.style, s.width)
	}
	b.WriteString("}\n")
}

// stateWords says how the scenarios treated an edge.
func stateWords(st edgeState, takers int) string {
	switch st {
	case covered:
		return "covered, taken by " + plural(takers, "scenario")
	case uncovered:
		return "not covered: no scenario takes it"
	}
	return "dead: no path can take it"
}

// clipLabel shortens a long name for the picture; the tooltip has it whole.
func clipLabel(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:39]) + "…"
	}
	return s
}
