package ensemble

import (
	"container/heap"
	"errors"
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// machine is an ensemble as sim sees it. Phases run concurrently, but a path lists them
// in one fixed topological order (the declaration order wherever after allows it), so
// that how concurrent phases interleave never makes two paths of one run. A state is a
// position in that order, the attempt and review stage there, whether a phase failed,
// and the frontier: whether each phase already passed that some phase still ahead waits
// for completed (failed and skipped are alike to a waiting phase). Counting is then
// dynamic programming over at most n · 2^(w+1) · 2(r+1) states, where w is the widest
// frontier and r the largest maxRetries: exponential in the frontier's width only, never
// in the number of phases.
type machine struct {
	phases []*phase // in the fixed order
	names  []string
	// preds are, by position, the frontier slots of the phase's predecessors.
	preds [][]int
	// carry maps, by position i, each frontier slot after i to the slot before it that
	// it keeps, or -1 for phase i itself.
	carry [][]int
	// sizes are, by position, the frontier's size before it; roots are, by position,
	// the first position at or after it of a phase that waits for nothing (n for none).
	sizes []int
	roots []int
	width int // the widest frontier
	wide  int // the position where it is widest
}

// state is a run between two choices: at phase pos (attempt retries into it, its tasks
// completed and its review deciding when review is set), with the frontier's
// completed bits (one byte each) and whether a phase has failed.
type state struct {
	pos     int32
	attempt int32
	review  bool
	failed  bool
	bits    string
}

// phasesOf is what an ensemble runs: its named phases (the first of each name), or one
// implicit phase named after the ensemble for a flat task list.
func phasesOf(e *ensemble) []*phase {
	var out []*phase
	for _, p := range e.phases {
		if p.named && e.byName[p.name] == p {
			out = append(out, p)
		}
	}
	if len(out) == 0 && e.flat != nil && len(e.flat.tasks) > 0 {
		name, ok := nonBlank(e.root.Get("ensemble"))
		if !ok {
			name = "tasks"
		}
		out = append(out, &phase{ptr: e.flat.ptr, name: name, named: true, implicit: true})
	}
	return out
}

// errCycle is returned for phases whose after lists form a cycle (only with the cycle
// rule turned off: such a file does not validate otherwise).
var errCycle = errors.New("the phases' after lists form a cycle, so there is no order to run them in")

func newMachine(phases []*phase) (*machine, error) {
	n := len(phases)
	index := map[string]int{}
	for i, p := range phases {
		index[p.name] = i
	}
	// after entries naming no phase were reported (dangling-edge) and are ignored.
	predsOf := make([][]int, n)
	succs := make([][]int, n)
	for i, p := range phases {
		seen := map[int]bool{}
		for _, a := range p.after {
			if j, ok := index[a.name]; ok && !seen[j] {
				seen[j] = true
				predsOf[i] = append(predsOf[i], j)
				succs[j] = append(succs[j], i)
			}
		}
	}
	order, ok := topoOrder(predsOf, succs)
	if !ok {
		return nil, errCycle
	}
	pos := make([]int, n)
	for k, i := range order {
		pos[i] = k
	}
	m := &machine{preds: make([][]int, n), carry: make([][]int, n), sizes: make([]int, n+1), roots: make([]int, n+1)}
	last := make([]int, n) // by position: the position of its last successor, -1 for none
	for k, i := range order {
		m.phases = append(m.phases, phases[i])
		m.names = append(m.names, phases[i].name)
		last[k] = -1
		for _, s := range succs[i] {
			last[k] = max(last[k], pos[s])
		}
	}
	// The frontier before position k: the positions before k that a phase at k or
	// later waits for, in increasing order.
	var frontier []int
	for k, i := range order {
		slot := map[int]int{}
		for s, at := range frontier {
			slot[at] = s
		}
		for _, j := range predsOf[i] {
			m.preds[k] = append(m.preds[k], slot[pos[j]])
		}
		var next, carry []int
		for s, at := range frontier {
			if last[at] > k {
				next, carry = append(next, at), append(carry, s)
			}
		}
		if last[k] > k {
			next, carry = append(next, k), append(carry, -1)
		}
		m.carry[k] = carry
		frontier = next
		m.sizes[k+1] = len(frontier)
		if len(frontier) > m.width {
			m.width, m.wide = len(frontier), k
		}
	}
	m.roots[n] = n
	for k := n - 1; k >= 0; k-- {
		m.roots[k] = m.roots[k+1]
		if len(m.preds[k]) == 0 {
			m.roots[k] = k
		}
	}
	return m, nil
}

// topoOrder orders the phases so that every phase comes after its predecessors, taking
// the earliest declared phase whenever several are ready; ok is false on a cycle.
func topoOrder(preds, succs [][]int) (order []int, ok bool) {
	indeg := make([]int, len(preds))
	ready := &minHeap{}
	for i, ps := range preds {
		if indeg[i] = len(ps); indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	for ready.Len() > 0 {
		i := heap.Pop(ready).(int)
		order = append(order, i)
		for _, s := range succs[i] {
			if indeg[s]--; indeg[s] == 0 {
				heap.Push(ready, s)
			}
		}
	}
	return order, len(order) == len(preds)
}

type minHeap []int

func (h minHeap) Len() int           { return len(h) }
func (h minHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h minHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (m *machine) Start() state { return state{} }

func (m *machine) Moves(st state) []sim.Move[state] {
	k := int(st.pos)
	p := m.phases[k]
	edge := func(outcome string) sim.Edge { return sim.Edge{Node: p.name, Outcome: outcome} }
	again := func(s state) sim.Move[state] { return sim.Move[state]{Next: s, To: p.name} }
	if st.review {
		approve := m.advance(st, true)
		approve.Edge = edge("approve")
		// A retry past maxRetries is not run: AgentEnsemble commits the phase's last
		// output, so the phase completes as if approved.
		retry := m.advance(st, true)
		if int(st.attempt) < p.maxRetries {
			retry = again(state{pos: st.pos, attempt: st.attempt + 1, failed: st.failed, bits: st.bits})
		}
		retry.Edge = edge("retry")
		return []sim.Move[state]{approve, retry}
	}
	completed := m.advance(st, true)
	if p.reviewed {
		completed = again(state{pos: st.pos, attempt: st.attempt, review: true, failed: st.failed, bits: st.bits})
	}
	completed.Edge = edge("completed")
	st.failed = true
	failed := m.advance(st, false)
	failed.Edge = edge("failed")
	return []sim.Move[state]{completed, failed}
}

// advance moves past the phase at st.pos, which completed or not, and past every later
// phase that cannot start because a phase it waits for did not complete: to the next
// phase that starts, or to the end of the run.
func (m *machine) advance(st state, completed bool) sim.Move[state] {
	bits := st.bits
	for k := int(st.pos); ; {
		bits = m.shift(k, bits, completed)
		if k++; !strings.ContainsRune(bits, 1) && k < len(m.phases) && m.roots[k] > k {
			// Nothing that completed is waited for: every phase up to the next one that
			// waits for nothing is skipped, and the frontier there holds only phases
			// that did not complete.
			k = m.roots[k]
			bits = strings.Repeat("\x00", m.sizes[k])
		}
		if k == len(m.phases) {
			status := sim.Succeeded
			if st.failed {
				status = sim.Failed
			}
			return sim.Move[state]{End: true, Status: status}
		}
		completed = true
		for _, s := range m.preds[k] {
			completed = completed && bits[s] == 1
		}
		if completed {
			return sim.Move[state]{Next: state{pos: int32(k), failed: st.failed, bits: bits}, To: m.names[k]}
		}
		// Phase k is skipped: a phase it waits for failed or was skipped.
	}
}

// shift is the frontier after position k from the frontier before it and whether the
// phase at k completed.
func (m *machine) shift(k int, bits string, completed bool) string {
	carry := m.carry[k]
	out := make([]byte, len(carry))
	for s, from := range carry {
		switch {
		case from >= 0:
			out[s] = bits[from]
		case completed:
			out[s] = 1
		}
	}
	return string(out)
}

// edges are every edge of the ensemble: each phase's completed and failed, and its
// review's approve and retry.
func (m *machine) edges() []sim.Edge {
	var out []sim.Edge
	for _, p := range m.phases {
		out = append(out, sim.Edge{Node: p.name, Outcome: "completed"}, sim.Edge{Node: p.name, Outcome: "failed"})
		if p.reviewed {
			out = append(out, sim.Edge{Node: p.name, Outcome: "approve"}, sim.Edge{Node: p.name, Outcome: "retry"})
		}
	}
	return out
}

// simulate is the dialect's simulation part.
func simulate(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	phases := phasesOf(model(p))
	if len(phases) == 0 {
		return nil, nil
	}
	m, err := newMachine(phases)
	if err != nil {
		return nil, err
	}
	r, err := m.explore(opts, maxPaths)
	if err != nil {
		return nil, err
	}
	return []sim.Definition{{Result: r, Nodes: m.nodes(), Play: m.play}}, nil
}

// explore counts and covers the ensemble's runs, saying why when there are too many
// states to count.
func (m *machine) explore(opts sim.Options, maxPaths int) (*sim.Result, error) {
	r, err := sim.Explore[state](m, opts, maxPaths, m.edges())
	if errors.Is(err, sim.ErrTooLarge) {
		why := ""
		for _, p := range m.phases {
			if p.reviewed && p.maxRetries > 0 {
				why = ", and reviews that retry multiply them"
			}
		}
		return nil, fmt.Errorf("too many states to count exactly: up to %d phases are waited for at once (before phase %q), "+
			"each completed or not: 2^%d combinations%s; %w",
			m.width, m.names[min(m.wide+1, len(m.names)-1)], m.width, why, err)
	}
	return r, err
}
