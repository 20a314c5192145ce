package sim

import (
	"context"
	"fmt"
	"math/big"
	"math/bits"
	"slices"
)

// space is the explored state graph: states in topological order (every move leads to
// a later state), each with its moves.
type space struct {
	moves [][]move // by state index; state 0 is the start
	edges []Edge   // every edge seen, in first-seen order
	to    []string // by edge: the node it leads to, "" for an end
	dead  map[int]string
	order []int // states in topological order, start first
}

type move struct {
	edge    int // index into space.edges
	next    int // state index, or -1 when the move ends the run
	status  Status
	dead    bool
	finding string
}

// limits are the bounds of one exploration, checked as it goes: the states, the memory
// the exact counts take, and the context's time.
type limits struct {
	states    int
	countMax  int64 // bytes
	countUsed int64 // bytes of the counts kept now
	ctx       context.Context
	tick      uint
}

func newLimits(opts Options) *limits {
	l := &limits{states: opts.MaxStates, countMax: opts.MaxCountBytes, ctx: opts.Ctx}
	if l.states <= 0 {
		l.states = DefaultMaxStates
	}
	if l.countMax <= 0 {
		l.countMax = DefaultMaxCountBytes
	}
	return l
}

// alive is the time bound: checked on every call, the context is asked every 1024th.
func (l *limits) alive() error {
	if l.tick++; l.tick%1024 != 0 || l.ctx == nil {
		return nil
	}
	return Stopped(l.ctx)
}

// keep counts the memory of a count that is kept, and stops at the count size bound.
func (l *limits) keep(n *big.Int) error {
	l.countUsed += countBytes(n)
	if l.countUsed > l.countMax {
		return &BoundError{Bound: "count size", Limit: bytesText(l.countMax), Err: ErrCountsTooLarge}
	}
	return nil
}

// release gives back the memory of a count kept before and no longer needed.
func (l *limits) release(n *big.Int) { l.countUsed -= countBytes(n) }

func countBytes(n *big.Int) int64 { return int64(len(n.Bits())) * (bits.UintSize / 8) }

func (l *limits) tooManyStates() error {
	return &BoundError{Bound: "states", Limit: fmt.Sprintf("%d states", l.states), Err: ErrTooLarge}
}

// bytesText writes a size in MiB when it is whole ones, else in bytes.
func bytesText(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// explore builds the state graph of m reachable from its start, with the steps taken
// made part of the state when MaxSteps can cut a run short.
func explore[S comparable](m Machine[S], opts Options, l *limits) (*space, error) {
	sp, err := build(m, l)
	if err != nil {
		return nil, err
	}
	if opts.MaxSteps > 0 && longest(sp) > opts.MaxSteps {
		return build[deep[S]](depthMachine[S]{m: m, max: opts.MaxSteps}, l)
	}
	return sp, nil
}

func build[S comparable](m Machine[S], l *limits) (*space, error) {
	sp := &space{dead: map[int]string{}}
	edgeIndex := map[Edge]int{}
	index := map[S]int{}
	var states []S
	add := func(s S) int {
		if i, ok := index[s]; ok {
			return i
		}
		index[s] = len(states)
		states = append(states, s)
		sp.moves = append(sp.moves, nil)
		return len(states) - 1
	}
	add(m.Start())
	for i := 0; i < len(states); i++ {
		if len(states) > l.states {
			return nil, l.tooManyStates()
		}
		if err := l.alive(); err != nil {
			return nil, err
		}
		for _, mv := range m.Moves(states[i]) {
			e, ok := edgeIndex[mv.Edge]
			if !ok {
				e = len(sp.edges)
				edgeIndex[mv.Edge] = e
				sp.edges = append(sp.edges, mv.Edge)
				sp.to = append(sp.to, mv.To)
			}
			out := move{edge: e, next: -1, status: mv.Status, dead: mv.Dead, finding: mv.Finding}
			if mv.Dead {
				sp.dead[e] = mv.Why
			}
			if !mv.End && !mv.Dead {
				out.next = add(mv.Next)
			}
			sp.moves[i] = append(sp.moves[i], out)
		}
	}
	order, ok := topoOrder(sp.moves)
	if !ok {
		return nil, ErrCycle
	}
	sp.order = order
	return sp, nil
}

// topoOrder orders the states so that every move leads forward; ok is false when the
// moves form a cycle.
func topoOrder(moves [][]move) (order []int, ok bool) {
	indeg := make([]int, len(moves))
	for _, ms := range moves {
		for _, mv := range ms {
			if mv.next >= 0 {
				indeg[mv.next]++
			}
		}
	}
	queue := []int{}
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		order = append(order, i)
		for _, mv := range moves[i] {
			if mv.next >= 0 {
				if indeg[mv.next]--; indeg[mv.next] == 0 {
					queue = append(queue, mv.next)
				}
			}
		}
	}
	return order, len(order) == len(moves)
}

// longest is the most moves a run takes.
func longest(sp *space) int {
	depth := make([]int, len(sp.moves))
	best := 0
	for _, i := range slices.Backward(sp.order) {
		d := 0
		for _, mv := range sp.moves[i] {
			if mv.dead {
				continue
			}
			n := 1
			if mv.next >= 0 {
				n += depth[mv.next]
			}
			d = max(d, n)
		}
		depth[i] = d
		best = max(best, d)
	}
	return best
}

// deep is a state with the number of moves taken to reach it.
type deep[S comparable] struct {
	s S
	d int
}

// depthMachine ends every run that has taken max moves (status Cut).
type depthMachine[S comparable] struct {
	m   Machine[S]
	max int
}

func (dm depthMachine[S]) Start() deep[S] { return deep[S]{dm.m.Start(), 0} }

func (dm depthMachine[S]) Moves(x deep[S]) []Move[deep[S]] {
	if x.d >= dm.max {
		return []Move[deep[S]]{{End: true, Status: Cut}}
	}
	ms := dm.m.Moves(x.s)
	out := make([]Move[deep[S]], len(ms))
	for i, mv := range ms {
		out[i] = Move[deep[S]]{Edge: mv.Edge, To: mv.To, Next: deep[S]{mv.Next, x.d + 1}, End: mv.End, Status: mv.Status, Dead: mv.Dead, Why: mv.Why, Finding: mv.Finding}
	}
	return out
}

// totals are the exact numbers of paths from each state to an end, every one kept (the
// paths through each edge and path unranking need them all at once).
func (sp *space) totals(l *limits) ([]*big.Int, error) {
	t := make([]*big.Int, len(sp.moves))
	for _, i := range slices.Backward(sp.order) {
		n := new(big.Int)
		for _, mv := range sp.moves[i] {
			switch {
			case mv.dead:
			case mv.next < 0:
				n.Add(n, one)
			default:
				n.Add(n, t[mv.next])
			}
		}
		t[i] = n
		if err := l.keep(n); err != nil {
			return nil, err
		}
		if err := l.alive(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

var one = big.NewInt(1)

// live reports, for each state, whether some run reaches it from the start and goes on
// to an end; a move is takeable when its state is live and it ends or leads to a live
// state. Whether a state's runs can end needs no count: a move that is not dead ends,
// or leads to a state whose runs can.
func (sp *space) live() []bool {
	ends := make([]bool, len(sp.moves))
	for _, i := range slices.Backward(sp.order) {
		for _, mv := range sp.moves[i] {
			if !mv.dead && (mv.next < 0 || ends[mv.next]) {
				ends[i] = true
				break
			}
		}
	}
	reach := make([]bool, len(sp.moves))
	reach[0] = true
	for _, i := range sp.order {
		if !reach[i] || !ends[i] {
			continue
		}
		for _, mv := range sp.moves[i] {
			if !mv.dead && mv.next >= 0 && ends[mv.next] {
				reach[mv.next] = true
			}
		}
	}
	for i := range reach {
		reach[i] = reach[i] && ends[i]
	}
	return reach
}

func (sp *space) takeable(live []bool, i int, mv move) bool {
	return live[i] && !mv.dead && (mv.next < 0 || live[mv.next])
}
