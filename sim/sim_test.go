package sim

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// graphMachine is a definition written as "node outcome>next" lines; next "!ok" or
// "!fail" ends the run succeeded or failed, and an outcome written "~name" is dead.
type graphMachine struct {
	start string
	moves map[string][]Move[string]
}

func parseGraph(t *testing.T, text string) graphMachine {
	t.Helper()
	g := graphMachine{moves: map[string][]Move[string]{}}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		node := f[0]
		if g.start == "" {
			g.start = node
		}
		for _, o := range f[1:] {
			name, next, _ := strings.Cut(o, ">")
			mv := Move[string]{Edge: Edge{node, strings.TrimPrefix(name, "~")}, Next: next}
			if strings.HasPrefix(name, "~") {
				mv.Dead, mv.Why = true, "never"
			}
			switch next {
			case "!ok":
				mv.End, mv.Status = true, Succeeded
			case "!fail":
				mv.End, mv.Status = true, Failed
			}
			g.moves[node] = append(g.moves[node], mv)
		}
	}
	return g
}

func (g graphMachine) Start() string                 { return g.start }
func (g graphMachine) Moves(s string) []Move[string] { return g.moves[s] }

// The seed's expense workflow: 8 paths, 5 succeeded and 3 failed, and no fewer than 5
// paths take all 10 edges (three edges lead into mark-fail, two more end elsewhere).
const expense = `
fraud ok>branch fail>mark
branch true>auto false>manager
auto ok>!ok fail>mark
manager ok>!ok fail>mark
mark ok>!ok fail>!fail
`

func TestExpense(t *testing.T) {
	r, err := Explore[string](parseGraph(t, expense), Options{EdgeCounts: true}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(r); got != "8 5 3" {
		t.Errorf("counts total/succeeded/failed = %s, want 8 5 3", got)
	}
	if !r.Minimal || r.CoverSize != 5 || len(r.Cover) != 5 {
		t.Errorf("cover of %d (%d listed, minimal %v), want a minimal 5", r.CoverSize, len(r.Cover), r.Minimal)
	}
	taken := map[Edge]bool{}
	for _, p := range r.Cover {
		for _, e := range p.Steps {
			taken[e] = true
		}
	}
	if len(taken) != 10 || r.Coverable() != 10 {
		t.Errorf("the cover takes %d edges of %d coverable; want all 10", len(taken), r.Coverable())
	}
	for _, e := range r.Edges {
		if e.Edge == (Edge{"mark", "ok"}) && e.Paths.Int64() != 3 {
			t.Errorf("mark:ok is on %v paths, want 3", e.Paths)
		}
	}
}

func counts(r *Result) string {
	return fmt.Sprint(r.Counts.Total(), r.Counts.Of(Succeeded), r.Counts.Of(Failed))
}

// A hundred branches in a row are 2^100 paths, counted exactly, and two paths cover
// every edge.
func TestHundredBranches(t *testing.T) {
	var b strings.Builder
	for i := range 100 {
		next := fmt.Sprintf("b%d", i+1)
		if i == 99 {
			next = "!ok"
		}
		fmt.Fprintf(&b, "b%d true>%s false>%s\n", i, next, next)
	}
	r, err := Explore[string](parseGraph(t, b.String()), Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := new(big.Int).Lsh(big.NewInt(1), 100)
	if r.Counts.Total().Cmp(want) != 0 || r.Counts.Of(Succeeded).Cmp(want) != 0 {
		t.Errorf("total %v, want 2^100", r.Counts.Total())
	}
	if r.CoverSize != 2 {
		t.Errorf("cover size %d, want 2", r.CoverSize)
	}
	// The last path is all false.
	last, ok := r.Path(new(big.Int).Sub(want, big.NewInt(1)))
	if !ok || len(last.Steps) != 100 || last.Steps[42].Outcome != "false" {
		t.Errorf("path 2^100-1 = %v", last)
	}
	if _, ok := r.Path(want); ok {
		t.Error("there is no path 2^100")
	}
}

// Every path number names a different path, and together they are all of them.
func TestPathUnranking(t *testing.T) {
	r, err := Explore[string](parseGraph(t, expense), Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for n := range int64(8) {
		p, ok := r.Path(big.NewInt(n))
		if !ok {
			t.Fatalf("no path %d", n)
		}
		seen[fmt.Sprint(p)] = true
	}
	if len(seen) != 8 {
		t.Errorf("%d distinct paths among 8 numbers", len(seen))
	}
}

// A dead outcome is taken by no path, listed with its proof, and edges only it leads
// to are uncoverable too.
func TestDeadOutcome(t *testing.T) {
	r, err := Explore[string](parseGraph(t, `
check true>pay ~false>refund
pay ok>!ok fail>!fail
refund ok>!ok
`), Options{}, 100, []Edge{{"refund", "ok"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := counts(r); got != "2 1 1" {
		t.Errorf("counts %s, want 2 1 1", got)
	}
	var unc []string
	for _, e := range r.Edges {
		if !e.Coverable {
			unc = append(unc, e.String()+" ("+e.Why+")")
		}
	}
	if strings.Join(unc, ", ") != "check:false (never), refund:ok (no run reaches it)" {
		t.Errorf("uncoverable: %v", unc)
	}
}

// MaxSteps ends longer runs as cut, and counting still covers every path.
func TestMaxSteps(t *testing.T) {
	g := parseGraph(t, `
a ok>b fail>!fail
b ok>c fail>!fail
c ok>!ok fail>!fail
`)
	r, err := Explore[string](g, Options{MaxSteps: 2}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts.Total().Int64() != 3 || r.Counts.Of(Cut).Int64() != 1 || r.Counts.Of(Failed).Int64() != 2 {
		t.Errorf("counts %v", r.Counts)
	}
}

// loop is a bounded loop: body, then again (at most twice) or exit.
type loop struct{}

func (loop) Start() int { return 0 }
func (loop) Moves(turn int) []Move[int] {
	ms := []Move[int]{{Edge: Edge{"body", "exit"}, End: true, Status: Succeeded}}
	if turn < 2 {
		ms = append(ms, Move[int]{Edge: Edge{"body", "again"}, Next: turn + 1})
	} else {
		ms = append(ms, Move[int]{Edge: Edge{"body", "exhausted"}, End: true, Status: Escalated})
	}
	return ms
}

// Bounds unrolled into the state make one edge appear at several states: the cover is
// greedy then, and still takes every edge.
func TestLoopCover(t *testing.T) {
	r, err := Explore[int](loop{}, Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts.Total().Int64() != 4 || r.Counts.Of(Escalated).Int64() != 1 {
		t.Errorf("counts %v", r.Counts)
	}
	if r.Minimal || r.CoverSize != 2 {
		t.Errorf("cover %d (minimal %v), want 2, greedy", r.CoverSize, r.Minimal)
	}
}

type cyclic struct{}

func (cyclic) Start() int { return 0 }
func (cyclic) Moves(s int) []Move[int] {
	return []Move[int]{{Edge: Edge{"x", "again"}, Next: 1 - s}, {Edge: Edge{"x", "stop"}, End: true}}
}

func TestCycleIsAnError(t *testing.T) {
	if _, err := Explore[int](cyclic{}, Options{}, 10, nil); !errors.Is(err, ErrCycle) {
		t.Errorf("got %v, want ErrCycle", err)
	}
}

// On small random acyclic definitions the cover is as small as the smallest set of
// paths that takes every coverable edge, found by brute force over all sets of paths.
func TestCoverIsMinimum(t *testing.T) {
	checked := 0
	defer func() {
		if checked < 150 {
			t.Errorf("only %d definitions were small enough to check", checked)
		}
	}()
	for seed := range uint64(300) {
		d := smallDAG(seed)
		r, err := Explore[int](d, Options{}, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		total := int(r.Counts.Total().Int64())
		if total > 14 {
			continue
		}
		checked++
		var paths []map[Edge]bool
		for n := range total {
			p, _ := r.Path(big.NewInt(int64(n)))
			set := map[Edge]bool{}
			for _, e := range p.Steps {
				set[e] = true
			}
			paths = append(paths, set)
		}
		best := total
		for mask := 1; mask < 1<<total; mask++ {
			size := 0
			cov := map[Edge]bool{}
			for i := range total {
				if mask&(1<<i) != 0 {
					size++
					for e := range paths[i] {
						cov[e] = true
					}
				}
			}
			if len(cov) == r.Coverable() && size < best {
				best = size
			}
		}
		if !r.Minimal || r.CoverSize != best {
			t.Fatalf("seed %d: cover of %d (minimal %v), brute force %d", seed, r.CoverSize, r.Minimal, best)
		}
		taken := map[Edge]bool{}
		for _, p := range r.Cover {
			for _, e := range p.Steps {
				taken[e] = true
			}
		}
		if len(taken) != r.Coverable() {
			t.Fatalf("seed %d: the listed cover takes %d of %d edges", seed, len(taken), r.Coverable())
		}
	}
}

func smallDAG(seed uint64) dag {
	r := rand.New(rand.NewPCG(seed, 11))
	n := 2 + r.IntN(6)
	d := dag{next: make([][2]int, n)}
	for i := range d.next {
		for k := range 2 {
			j := i + 1 + r.IntN(3)
			if j >= n || r.IntN(4) == 0 {
				j = -1
			}
			d.next[i][k] = j
		}
	}
	return d
}

// Beyond the greedy cover's budget the quick cover is used: it still takes every
// coverable edge.
func TestQuickCover(t *testing.T) {
	defer func(w int) { greedyWork = w }(greedyWork)
	greedyWork = 0
	r, err := Explore[int](loop{}, Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[Edge]bool{}
	for _, p := range r.Cover {
		for _, e := range p.Steps {
			taken[e] = true
		}
	}
	if r.Minimal || len(taken) != r.Coverable() || r.CoverSize == 0 {
		t.Errorf("quick cover of %d paths takes %d of %d edges", r.CoverSize, len(taken), r.Coverable())
	}
}

// ring is a loop of n nodes whose runs may make limit visits: each node completes
// (the last one ends the run), or is blocked or fails into another node, so the number
// of paths grows as 3^visits and the exact counts grow with the unrolling.
type ring struct{ n, limit int }

type ringState struct{ node, visits int }

func (r ring) Start() ringState { return ringState{0, 1} }

func (r ring) Moves(s ringState) []Move[ringState] {
	out := make([]Move[ringState], 3)
	for k, outcome := range []string{"complete", "blocked", "failed"} {
		mv := Move[ringState]{Edge: Edge{fmt.Sprint("s", s.node), outcome}}
		switch {
		case k == 0 && s.node == r.n-1:
			mv.End = true
		case s.visits >= r.limit:
			mv.End, mv.Status = true, Failed
		default:
			mv.Next = ringState{[]int{s.node + 1, s.node + 2, s.node + r.n - 1}[k] % r.n, s.visits + 1}
		}
		out[k] = mv
	}
	return out
}

// SPEC §8.4, giving up is said: counts that outgrow Options.MaxCountBytes stop the
// exploration with the bound named, never a partial count; a larger bound counts it.
// Counting per end state keeps only the front of the exploration: the same definition
// is counted in 1 MiB when the paths through each edge are not asked for.
func TestCountSizeBound(t *testing.T) {
	m := ring{n: 4, limit: 3000}
	_, err := Explore[ringState](m, Options{MaxCountBytes: 1 << 20, EdgeCounts: true}, 10, nil)
	var be *BoundError
	if !errors.As(err, &be) || be.Bound != "count size" || !errors.Is(err, ErrCountsTooLarge) ||
		err.Error() != "stopped at the count size bound (1 MiB): its exact path counts need more memory than that" {
		t.Fatalf("got %v, want the count size bound", err)
	}
	r, err := Explore[ringState](m, Options{MaxCountBytes: 64 << 20, EdgeCounts: true}, 10, nil)
	if err != nil || r.Counts.Total().BitLen() < 3000 {
		t.Fatalf("with room for its counts: %v", err)
	}
	front, err := Explore[ringState](m, Options{MaxCountBytes: 1 << 20}, 10, nil)
	if err != nil || front.Counts.Total().Cmp(r.Counts.Total()) != 0 {
		t.Fatalf("counted per end state in 1 MiB: %v", err)
	}
	if l := newLimits(Options{}); l.countMax != DefaultMaxCountBytes || l.states != DefaultMaxStates {
		t.Errorf("the zero Options bound counts to %d bytes and %d states", l.countMax, l.states)
	}
}

// A context that is done stops the exploration with the time bound, named by the
// context's cause, and so does Options.MaxTime; a cancelled one says it was cancelled.
func TestTimeBound(t *testing.T) {
	m := ring{n: 4, limit: 3000}
	ctx, cancel := context.WithDeadlineCause(context.Background(), time.Unix(0, 0), errors.New("--max-time 1ns"))
	defer cancel()
	_, err := Explore[ringState](m, Options{Ctx: ctx}, 10, nil)
	var be *BoundError
	if !errors.As(err, &be) || be.Bound != "time" || !errors.Is(err, context.DeadlineExceeded) ||
		err.Error() != "stopped at the time bound (--max-time 1ns): the simulation took longer than that" {
		t.Fatalf("got %v, want the time bound", err)
	}
	_, err = Explore[ringState](m, Options{MaxTime: time.Nanosecond}, 10, nil)
	if !errors.Is(err, context.DeadlineExceeded) ||
		err.Error() != "stopped at the time bound (1ns): the simulation took longer than that" {
		t.Fatalf("got %v, want the time bound", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := Explore[ringState](m, Options{Ctx: ctx}, 10, nil); !errors.Is(err, context.Canceled) ||
		err.Error() != "stopped: the simulation was cancelled" {
		t.Fatalf("got %v, want a cancellation", err)
	}
}

// The states bound is a BoundError too, and still ErrTooLarge.
func TestStatesBound(t *testing.T) {
	_, err := Explore[ringState](ring{n: 4, limit: 3000}, Options{MaxStates: 1000}, 10, nil)
	var be *BoundError
	if !errors.As(err, &be) || be.Bound != "states" || !errors.Is(err, ErrTooLarge) ||
		err.Error() != "stopped at the states bound (1000 states): the definition has more states than that" {
		t.Fatalf("got %v, want the states bound", err)
	}
}

// enumerate walks every run of m one by one (no states merged, no counting), and
// returns the runs per end state and how often the runs take each edge (a run that
// takes an edge twice, around a loop, counts twice, as Result.Edges counts).
func enumerate[S comparable](m Machine[S], maxSteps int) (ends map[Status]int64, through map[Edge]int64) {
	ends, through = map[Status]int64{}, map[Edge]int64{}
	var taken []Edge
	var walk func(s S)
	walk = func(s S) {
		if maxSteps > 0 && len(taken) == maxSteps {
			ends[Cut]++
			for _, e := range taken {
				through[e]++
			}
			return
		}
		for _, mv := range m.Moves(s) {
			if mv.Dead {
				continue
			}
			taken = append(taken, mv.Edge)
			if mv.End {
				ends[mv.Status]++
				for _, e := range taken {
					through[e]++
				}
			} else {
				walk(mv.Next)
			}
			taken = taken[:len(taken)-1]
		}
	}
	walk(m.Start())
	return ends, through
}

// The counts, kept as a moving front or with every state's total (Options.EdgeCounts),
// are those of an enumeration of every run: on random small definitions, on the ring
// whose counts grow with the unrolling, and cut short by MaxSteps.
func TestCountsAgainstEnumeration(t *testing.T) {
	check := func(name string, got *Result, ends map[Status]int64, through map[Edge]int64, perEdge bool) {
		t.Helper()
		for _, s := range Statuses() {
			if got.Counts.Of(s).Int64() != ends[s] {
				t.Fatalf("%s: %s %v, enumeration %d", name, s, got.Counts.Of(s), ends[s])
			}
		}
		for _, e := range got.Edges {
			if e.Coverable != (through[e.Edge] > 0) {
				t.Fatalf("%s: edge %s coverable %v, enumeration %d runs", name, e.Edge, e.Coverable, through[e.Edge])
			}
			if perEdge && e.Paths == nil {
				t.Fatalf("%s: edge %s has no count", name, e.Edge)
			}
		}
	}
	type machine struct {
		name  string
		run   func(Options) (*Result, error)
		enum  func() (map[Status]int64, map[Edge]int64)
		steps int
	}
	var ms []machine
	for seed := range uint64(200) {
		d := smallDAG(seed)
		ms = append(ms, machine{fmt.Sprint("dag ", seed), func(o Options) (*Result, error) { return Explore[int](d, o, 10, nil) },
			func() (map[Status]int64, map[Edge]int64) { return enumerate[int](d, 0) }, 0})
	}
	for limit := 1; limit <= 7; limit++ {
		g := ring{n: 4, limit: limit}
		ms = append(ms, machine{fmt.Sprint("ring ", limit), func(o Options) (*Result, error) { return Explore[ringState](g, o, 10, nil) },
			func() (map[Status]int64, map[Edge]int64) { return enumerate[ringState](g, 0) }, 0})
		for steps := 1; steps <= 5; steps++ {
			ms = append(ms, machine{fmt.Sprint("ring ", limit, " cut at ", steps), func(o Options) (*Result, error) {
				o.MaxSteps = steps
				return Explore[ringState](g, o, 10, nil)
			}, func() (map[Status]int64, map[Edge]int64) { return enumerate[ringState](g, steps) }, steps})
		}
	}
	for _, m := range ms {
		ends, through := m.enum()
		for _, perEdge := range []bool{false, true} {
			r, err := m.run(Options{EdgeCounts: perEdge})
			if err != nil {
				t.Fatal(m.name, err)
			}
			check(m.name, r, ends, through, perEdge)
			if !perEdge {
				continue
			}
			for _, e := range r.Edges {
				if e.Paths.Int64() != through[e.Edge] {
					t.Fatalf("%s: edge %s on %v paths, enumeration %d", m.name, e.Edge, e.Paths, through[e.Edge])
				}
			}
		}
	}
}

// chain is n steps, each ok to the next (the last one ends the run) or fail, which
// ends it: n+1 paths of up to n steps, and every one is needed to cover the fails.
type chain int

func (c chain) Start() int { return 0 }
func (c chain) Moves(i int) []Move[int] {
	name := fmt.Sprint("s", i)
	ok := Move[int]{Edge: Edge{name, "ok"}, Next: i + 1}
	if i+1 == int(c) {
		ok.End, ok.Next = true, 0
	}
	return []Move[int]{ok, {Edge: Edge{name, "fail"}, End: true, Status: Failed}}
}

// The listed cover is bounded by its steps too: a 20,000-step chain lists paths of at
// most 100 × maxPaths steps in all (and always one), so that the report and the
// witness search of a long definition stay linear; CoverSize still counts every path.
func TestListedCoverBound(t *testing.T) {
	const n = 20000
	r, err := Explore[int](chain(n), Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, p := range r.Cover {
		steps += len(p.Steps)
	}
	if r.CoverSize != n+1 || len(r.Cover) == 0 || steps-len(r.Cover[len(r.Cover)-1].Steps) >= 100*StepsPerListedPath {
		t.Errorf("cover of %d, %d listed with %d steps; want %d, listed within %d steps", r.CoverSize, len(r.Cover), steps, n+1, 100*StepsPerListedPath)
	}
	// A path longer than the whole budget is still listed, alone.
	r, err = Explore[int](chain(n), Options{}, 1, nil)
	if err != nil || len(r.Cover) != 1 {
		t.Fatalf("%v: %d paths listed, want 1", err, len(r.Cover))
	}
	// A small definition lists up to maxPaths as before.
	r, err = Explore[int](chain(50), Options{}, 100, nil)
	if err != nil || len(r.Cover) != 51 {
		t.Fatalf("%v: %d paths listed, want 51", err, len(r.Cover))
	}
}
