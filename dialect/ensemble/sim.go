package ensemble

import (
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// machine is an ensemble as sim sees it. Phases run concurrently, but a path lists them
// in one fixed topological order (the declaration order wherever after allows it), so
// that how concurrent phases interleave never makes two paths of one run. A state is a
// position in that order, the stage, attempt and predecessor re-run counts there,
// whether a phase failed, and the frontier: whether each phase already passed that some
// phase still ahead waits for completed (failed and skipped are alike to a waiting
// phase). Counting is then dynamic programming over at most
// n · 2^(w+1) · (2(r+1)+d) · (p+1)^d states, where w is the widest frontier, r the
// largest maxRetries, d the most direct predecessors a review can have re-run and p
// the largest maxPredecessorRetries: exponential in the frontier's width and in d,
// never in the number of phases.
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
	// retry are, by position, the positions of the direct predecessors a reviewed
	// phase's review can have re-run (RETRY_PREDECESSOR), in after order.
	retry [][]int
}

// state is a run between two choices: at phase pos, in stage (running, its review
// deciding, or one of its direct predecessors re-running for that review), after
// attempt self-retries since the phase last started from scratch, with the frontier's
// completed bits (one byte each), whether a phase has failed, and, for a reviewed
// phase, how many times its review has had each of its direct predecessors re-run
// (four bytes each, in the order of retry).
type state struct {
	pos     int32
	attempt int32
	stage   int32
	failed  bool
	bits    string
	preds   string
}

// The stages of a phase: running, its review deciding, and from rerun on, the re-run
// of its direct predecessor stage-rerun (an index into machine.retry).
const (
	running = iota
	reviewing
	rerun
)

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
	m := &machine{preds: make([][]int, n), carry: make([][]int, n), sizes: make([]int, n+1), roots: make([]int, n+1), retry: make([][]int, n)}
	last := make([]int, n) // by position: the position of its last successor, -1 for none
	for k, i := range order {
		m.phases = append(m.phases, phases[i])
		m.names = append(m.names, phases[i].name)
		last[k] = -1
		for _, s := range succs[i] {
			last[k] = max(last[k], pos[s])
		}
		if phases[i].reviewed {
			for _, j := range predsOf[i] {
				if retryable(phases[j].name) {
					m.retry[k] = append(m.retry[k], pos[j])
				}
			}
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
	edge := func(node, outcome string) sim.Edge { return sim.Edge{Node: node, Outcome: outcome} }
	// again is a move that stays at this phase: st with the changes made.
	again := func(s state) sim.Move[state] { return sim.Move[state]{Next: s, To: p.name} }
	fail := func() sim.Move[state] {
		s := st
		s.failed = true
		return m.advance(s, false)
	}
	switch {
	case st.stage == reviewing:
		return m.review(st)
	case st.stage >= rerun:
		// A direct predecessor re-runs (without its own review): completed, the phase
		// runs again from scratch with its outputs; failed, the phase fails with it.
		j := m.retry[k][st.stage-rerun]
		fresh := st
		fresh.stage, fresh.attempt = running, 0
		completed := again(fresh)
		completed.Edge = edge(m.names[j], "completed")
		failed := fail()
		failed.Edge = edge(m.names[j], "failed")
		return []sim.Move[state]{completed, failed}
	}
	completed := m.advance(st, true)
	if p.reviewed {
		next := st
		next.stage = reviewing
		completed = again(next)
	}
	completed.Edge = edge(p.name, "completed")
	failed := fail()
	failed.Edge = edge(p.name, "failed")
	return []sim.Move[state]{completed, failed}
}

// review is the decisions of the review of the phase at st.pos, as AgentEnsemble's
// PhaseDagExecutor takes them: approve completes the phase; retry runs it again while
// maxRetries allows, else completes it with its last output; reject fails it; and
// retry_predecessor NAME re-runs that direct predecessor while maxPredecessorRetries
// allows for it, else completes the phase with its current output.
func (m *machine) review(st state) []sim.Move[state] {
	k := int(st.pos)
	p := m.phases[k]
	edge := func(outcome string) sim.Edge { return sim.Edge{Node: p.name, Outcome: outcome} }
	again := func(s state) sim.Move[state] { return sim.Move[state]{Next: s, To: p.name} }
	approve := m.advance(st, true)
	approve.Edge = edge("approve")
	retry := m.advance(st, true)
	if int(st.attempt) < p.maxRetries {
		next := st
		next.stage, next.attempt = running, st.attempt+1
		retry = again(next)
	}
	retry.Edge = edge("retry")
	failed := st
	failed.failed = true
	reject := m.advance(failed, false)
	reject.Edge = edge("reject")
	moves := []sim.Move[state]{approve, retry, reject}
	for i, j := range m.retry[k] {
		mv := m.advance(st, true)
		if n := predRetries(st.preds, i); n < p.maxPredRetries {
			next := st
			next.stage, next.preds = rerun+int32(i), withPredRetries(st.preds, len(m.retry[k]), i, n+1)
			mv = sim.Move[state]{Next: next, To: m.names[j]}
		}
		mv.Edge = edge(retryPredecessor + m.names[j])
		moves = append(moves, mv)
	}
	return moves
}

// retryPredecessor begins the outcome, and the review decision, that re-runs a direct
// predecessor: "retry_predecessor research", as AgentEnsemble writes the decision
// (RETRY_PREDECESSOR research: feedback) without its feedback.
const retryPredecessor = "retry_predecessor "

// predRetries is how many times the i-th retryable predecessor was re-run, by preds.
func predRetries(preds string, i int) int {
	if len(preds) < 4*(i+1) {
		return 0
	}
	return int(binary.LittleEndian.Uint32([]byte(preds[4*i : 4*i+4])))
}

// withPredRetries is preds (for n predecessors) with the i-th count set to v.
func withPredRetries(preds string, n, i, v int) string {
	b := make([]byte, 4*n)
	copy(b, preds)
	binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	return string(b)
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
// review's decisions: approve, retry, reject and retry_predecessor for each direct
// predecessor it can name.
func (m *machine) edges() []sim.Edge {
	var out []sim.Edge
	for k, p := range m.phases {
		out = append(out, sim.Edge{Node: p.name, Outcome: "completed"}, sim.Edge{Node: p.name, Outcome: "failed"})
		if p.reviewed {
			for _, d := range m.decisions(k) {
				out = append(out, sim.Edge{Node: p.name, Outcome: d})
			}
		}
	}
	return out
}

// decisions are the decisions of the review of the phase at position k, in the order
// of its moves.
func (m *machine) decisions(k int) []string {
	out := []string{"approve", "retry", "reject"}
	for _, j := range m.retry[k] {
		out = append(out, retryPredecessor+m.names[j])
	}
	return out
}

// retryable says whether a review can name the phase in a RETRY_PREDECESSOR decision.
// AgentEnsemble's parser reads the name up to the first ':' and trims it as Java's
// String.trim does (every character up to U+0020), so it never matches a phase whose
// name holds a ':' or begins or ends with such a character: that decision is taken as
// approve, and is no outcome of its own.
func retryable(name string) bool {
	return name != "" && !strings.Contains(name, ":") && javaTrim(name) == name
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
	ns := m.nodes()
	return []sim.Definition{{Result: r, Nodes: ns, Play: m.play, Pin: pinStep(ns)}}, nil
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
		for k, p := range m.phases {
			if d := len(m.retry[k]); d > 1 && p.maxPredRetries > 0 {
				why += fmt.Sprintf(", and phase %q's review, which can re-run each of %d predecessors up to %d times, by (%d+1)^%d",
					p.name, d, p.maxPredRetries, p.maxPredRetries, d)
				break
			}
		}
		return nil, fmt.Errorf("too many states to count exactly: up to %d phases are waited for at once (before phase %q), "+
			"each completed or not: 2^%d combinations%s; %w",
			m.width, m.names[min(m.wide+1, len(m.names)-1)], m.width, why, err)
	}
	return r, err
}
