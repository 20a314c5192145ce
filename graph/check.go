package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/source"
)

// CyclePolicy says which cycles a dialect allows.
type CyclePolicy int

const (
	// ForbidAll makes every cycle a finding (Cortex, ensembles, task dependencies).
	ForbidAll CyclePolicy = iota
	// AllowBounded allows cycles that are closed only by Bounded edges: those
	// edges are left out when looking for cycles (DWS workflow loops).
	AllowBounded
	// AllowAll reports no cycle, for dialects whose runtime bounds every run
	// (DireClaw).
	AllowAll
)

// Options describe what the dialect's graph must satisfy.
type Options struct {
	// Entry is the id of the entry node. When both Entry and EntryPointer are
	// empty the entry is implicit: the first node in definition order.
	Entry string
	// EntryPointer is where the entry is named; "" when it is implicit (Cortex
	// steps[0]). Entry "" with EntryPointer set means the entry is missing.
	EntryPointer string
	// MultiRoot makes every node without an incoming edge a legal start
	// (ensembles, task decompositions): Entry is ignored and no entry finding
	// is reported.
	MultiRoot bool
	Cycles    CyclePolicy
	// NoExits skips dead-end, for graphs in which every node is an end.
	NoExits bool
	// MaxNodes > 0 reports a step-limit finding when the graph has more nodes.
	MaxNodes int
	// Noun names a node in messages: "step", "phase", "task". Default "node".
	Noun string
	// CyclesOnly reports nothing but cycles: for a second graph over nodes whose
	// names, edges and reachability another check already judges (an ensemble's
	// tasks, ordered by their context lists).
	CyclesOnly bool
}

// Kind is what a finding is about. The caller decides which rule reports each
// kind; this package knows no rule ids.
type Kind uint8

// The kinds of graph findings, in the order Check returns them.
const (
	// DuplicateID: a second node with an id already taken.
	DuplicateID Kind = iota + 1
	// DanglingEdge: an edge naming no node.
	DanglingEdge
	// Entry: the entry is missing or unknown, or a second node has no incoming edge.
	Entry
	// Unreachable: a node with incoming edges that the entry never reaches.
	Unreachable
	// Cycle: a cycle the options do not allow.
	Cycle
	// DeadEnd: a reachable node from which no exit can be reached.
	DeadEnd
	// StepLimit: more nodes than Options.MaxNodes.
	StepLimit
)

var kindNames = [...]string{"", "duplicate id", "dangling edge", "entry", "unreachable", "cycle", "dead end", "step limit"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Finding is one problem in the graph.
type Finding struct {
	Kind    Kind
	Pointer string
	Message string
	Related []Related
}

// Related is another place involved in a finding: the first definition of a
// duplicate id, the other members of a cycle.
type Related struct {
	Pointer string
	Message string
}

// namesInMessage caps how many cycle members a message lists; Related still
// holds every member, so a cycle of 100,000 steps does not make a line of
// megabytes.
const namesInMessage = 8

// Check resolves the edges of g and returns its findings, ordered by rule
// (duplicate-id, dangling-edge, entry, unreachable, cycle, dead-end,
// step-limit) and within a rule by definition order. Each fact is one finding:
// a node that can reach a forbidden cycle or a dangling edge is no dead end, and
// with MultiRoot a node a forbidden cycle reaches is not unreachable; the cycle
// finding says why. Likewise a dangling edge whose target is a slip for a node's id
// (the node its "did you mean" names) owns that node and what follows from it: they
// are neither second entries nor unreachable. With one entry, a cycle the entry never reaches is still
// unreachable too: breaking the cycle would not make it run.
func Check(g *Graph, opts Options) []Finding {
	g.Resolve()
	noun := opts.Noun
	if noun == "" {
		noun = "node"
	}
	if opts.CyclesOnly {
		if opts.Cycles == AllowAll {
			return nil
		}
		out, _ := g.cycles(opts.Cycles == AllowBounded, noun)
		return out
	}
	n := len(g.Nodes)
	var out []Finding

	for _, d := range g.dups {
		times := "twice"
		if d.nth > 2 {
			times = strconv.Itoa(d.nth) + " times"
		}
		out = append(out, Finding{
			Kind:    DuplicateID,
			Pointer: d.node.IDPointer,
			Message: fmt.Sprintf("%s %q is defined %s", noun, d.node.ID, times),
			Related: []Related{{Pointer: g.Nodes[d.first].IDPointer, Message: "first defined here"}},
		})
	}

	var ids []string
	hints := 0
	// meant are the nodes the dangling edges most likely name (the "did you mean"):
	// a slip of the pen that leaves a node without its incoming edge is one finding,
	// the dangling edge, which owns what follows from it (below).
	var meant []int
	for _, e := range g.Edges {
		if e.To >= 0 || e.From < 0 || e.From >= n {
			continue
		}
		msg := fmt.Sprintf("%s names %q, which is not a %s", field(e.Pointer, "an edge"), e.Target, noun)
		if ids == nil {
			ids = make([]string, n)
			for i, node := range g.Nodes {
				ids[i] = node.ID
			}
		}
		if hints < maxHints {
			hints++
			if near, ok := suggest.Nearest(e.Target, ids); ok {
				msg += fmt.Sprintf("; did you mean %q?", near)
				meant = append(meant, g.index[near])
			} else {
				msg += suggest.Few(ids, plural(noun))
			}
		}
		out = append(out, Finding{Kind: DanglingEdge, Pointer: e.Pointer, Message: msg})
	}

	indeg := make([]int, n)
	for _, e := range g.Edges {
		if e.To >= 0 {
			indeg[e.To]++
		}
	}

	// Reachability is known only when the entry is; an unknown entry is one
	// finding and nothing is judged reachable or unreachable after it.
	entry := -1
	known := true
	var roots []int
	switch {
	case opts.MultiRoot:
		for i := range n {
			if indeg[i] == 0 {
				roots = append(roots, i)
			}
		}
	case opts.Entry == "" && opts.EntryPointer == "":
		if n > 0 {
			entry = 0
			roots = []int{0}
		}
	case opts.Entry == "":
		known = false
		out = append(out, Finding{
			Kind:    Entry,
			Pointer: opts.EntryPointer,
			Message: fmt.Sprintf("no entry %s is named", noun),
		})
	default:
		if i, ok := g.index[opts.Entry]; ok {
			entry = i
			roots = []int{i}
		} else {
			known = false
			p := opts.EntryPointer
			if p == "" {
				p = g.pointer
			}
			ids := make([]string, n)
			for i, node := range g.Nodes {
				ids[i] = node.ID
			}
			out = append(out, Finding{
				Kind:    Entry,
				Pointer: p,
				Message: fmt.Sprintf("%s names %q, which is not a %s", field(opts.EntryPointer, "the entry"), opts.Entry, noun) +
					suggest.Hint(opts.Entry, ids, plural(noun)),
			})
		}
	}

	// A cycle the options forbid is one finding, and it owns what follows from it:
	// a node that can reach a reported cycle is not a dead end (the cycle is why the
	// run never finishes), and with several roots a node that a cycle reaches is not
	// unreachable (its members wait for each other, which is why nothing starts).
	var cycles []Finding
	onCycle := make([]bool, n)
	if opts.Cycles != AllowAll {
		cycles, onCycle = g.cycles(opts.Cycles == AllowBounded, noun)
	}

	var reached []bool
	if known {
		if opts.MultiRoot {
			for i := range n {
				if onCycle[i] {
					roots = append(roots, i)
				}
			}
		}
		reached = g.forward(roots)
		// A node that a dangling edge would reach, had it named the node it most
		// likely means, is that edge's: neither a second entry nor unreachable.
		var owned []bool
		if len(meant) > 0 {
			owned = g.forward(meant)
		}
		var unreachable []Finding
		for i, node := range g.Nodes {
			if reached[i] || (owned != nil && owned[i]) {
				continue
			}
			switch {
			case indeg[i] == 0:
				f := Finding{
					Kind:    Entry,
					Pointer: nodePointer(node),
					Message: fmt.Sprintf("%s %q has no incoming edge: it is a second entry and never runs", noun, node.ID),
				}
				if entry >= 0 {
					f.Related = []Related{{Pointer: nodePointer(g.Nodes[entry]), Message: fmt.Sprintf("the entry is %q", g.Nodes[entry].ID)}}
				}
				out = append(out, f)
			case opts.MultiRoot:
				unreachable = append(unreachable, Finding{
					Kind:    Unreachable,
					Pointer: nodePointer(node),
					Message: fmt.Sprintf("%s %q cannot be reached from any %s without incoming edges", noun, node.ID, noun),
				})
			default:
				unreachable = append(unreachable, Finding{
					Kind:    Unreachable,
					Pointer: nodePointer(node),
					Message: fmt.Sprintf("%s %q cannot be reached from the entry %q", noun, node.ID, g.Nodes[entry].ID),
				})
			}
		}
		out = append(out, unreachable...)
	}

	out = append(out, cycles...)

	if known && !opts.NoExits {
		// Where a dangling edge leads is unknown: dangling-edge is that node's
		// finding, not dead-end.
		owned := onCycle
		for _, e := range g.Edges {
			if e.To < 0 && e.From >= 0 && e.From < n {
				owned[e.From] = true // onCycle is not read again
			}
		}
		live := g.backward(indeg, owned)
		for i, node := range g.Nodes {
			if reached[i] && !live[i] {
				out = append(out, Finding{
					Kind:    DeadEnd,
					Pointer: nodePointer(node),
					Message: fmt.Sprintf("%s %q cannot reach an exit: a run that gets here never finishes", noun, node.ID),
				})
			}
		}
	}

	if opts.MaxNodes > 0 && n > opts.MaxNodes {
		out = append(out, Finding{
			Kind:    StepLimit,
			Pointer: g.pointer,
			Message: fmt.Sprintf("%d %s, more than the limit of %d", n, plural(noun), opts.MaxNodes),
		})
	}
	return out
}

// forward marks the nodes reachable from roots over every resolved edge.
func (g *Graph) forward(roots []int) []bool {
	seen := make([]bool, len(g.Nodes))
	queue := make([]int, 0, len(g.Nodes))
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for k := 0; k < len(queue); k++ {
		v := queue[k]
		for _, w := range g.succ[g.off[v]:g.off[v+1]] {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		}
	}
	return seen
}

// backward marks the nodes from which an exit or a node of from can be reached,
// bounded edges included: leaving a bounded loop is how a run gets out of it.
func (g *Graph) backward(indeg []int, from []bool) []bool {
	n := len(g.Nodes)
	off := make([]int, n+1)
	for i := range n {
		off[i+1] = off[i] + indeg[i]
	}
	pred := make([]int, off[n])
	next := make([]int, n)
	copy(next, off[:n])
	for v := range n {
		for _, w := range g.succ[g.off[v]:g.off[v+1]] {
			pred[next[w]] = v
			next[w]++
		}
	}
	live := make([]bool, n)
	queue := make([]int, 0, n)
	for i, node := range g.Nodes {
		if node.Exit || from[i] {
			live[i] = true
			queue = append(queue, i)
		}
	}
	for k := 0; k < len(queue); k++ {
		w := queue[k]
		for _, v := range pred[off[w]:off[w+1]] {
			if !live[v] {
				live[v] = true
				queue = append(queue, v)
			}
		}
	}
	return live
}

// nodePointer is where a node-level finding goes; a node added without a
// Pointer still has a place if its id has one.
func nodePointer(n Node) string {
	if n.Pointer != "" {
		return n.Pointer
	}
	return n.IDPointer
}

// field names the routing field written at pointer, in quotes, for messages:
// "/steps/3/next" → `"next"`, "/tasks/1/dependencies/0" →
// `"dependencies"` (array indices are skipped). With no such field it returns
// fallback.
func field(pointer, fallback string) string {
	segs := strings.Split(pointer, "/")
	for i := len(segs) - 1; i > 0; i-- {
		s := segs[i]
		if s == "" || isIndex(s) {
			continue
		}
		if t, ok := source.UnescapeToken(s); ok {
			s = t
		}
		return strconv.Quote(s)
	}
	return fallback
}

func isIndex(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// plural is enough English for the nouns dialects use (step, phase, task,
// node, hook, workflow).
func plural(noun string) string {
	switch {
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// maxHints bounds the dangling edges that get a "did you mean": finding the nearest of
// n ids costs O(n) distances, and a generated file may have thousands of bad edges.
const maxHints = 64
