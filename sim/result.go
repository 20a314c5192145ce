package sim

import (
	"context"
	"errors"
	"math"
	"math/big"
	"slices"
)

// Result is what exploring a definition found.
type Result struct {
	// Counts are the exact numbers of distinct paths, per end state.
	Counts Counts
	// Edges are every edge of the definition, coverable or not, in first-seen order
	// (then the ones no run reaches, in the order the caller listed them).
	Edges []EdgeInfo
	// Cover lists paths that together take every coverable edge, at most maxPaths of
	// them and StepsPerListedPath steps a path on average (see Explore); CoverSize is
	// how many the whole cover has.
	Cover     []Path
	CoverSize int
	listed    int // steps of the paths in Cover
	// Minimal is set when the cover is proven to be of minimum size (the definition's
	// edges map one to one onto the state graph's, as in an acyclic definition);
	// otherwise it was found greedily.
	Minimal bool

	sp *space
	// total holds, by state, the number of paths from it to an end: kept with
	// Options.EdgeCounts, else made by the first Path.
	total []*big.Int
	live  []bool
}

// EdgeInfo is one edge and what runs do with it.
type EdgeInfo struct {
	Edge
	// To is the node the edge leads to; "" when it ends the run.
	To string
	// Coverable is set when some path takes the edge; Paths is how many do, counted
	// only with Options.EdgeCounts (nil otherwise). A path that takes the edge several
	// times (around a loop) counts that many times.
	Coverable bool
	Paths     *big.Int
	// Why explains an edge no path takes.
	Why string
}

// Path is one run: its steps in order and how it ended.
type Path struct {
	Steps  []Edge
	Status Status
	// Context, filled by the dialect, is a starting context that makes the run take
	// this path (a witness); Note says why there is none, or that it is not proven.
	Context map[string]any
	Note    string
}

// Definition is one simulated definition of a file (a DireClaw file has one per
// workflow, named by Workflow).
type Definition struct {
	Workflow string
	// Pointer is where the definition lies in its file (a JSON pointer); "" when it is
	// the whole file. A report lists under a definition the findings within it.
	Pointer string
	Result  *Result
	// Nodes are the nodes a scenario may name, by id.
	Nodes map[string]Node
	// Play runs one scenario: the stubs answer, the run starts with context and ends
	// cut after maxSteps steps. It is safe to call from several goroutines. Nil when
	// the dialect does not run scenarios.
	Play func(stubs Stubs, context map[string]any, maxSteps int) (*Run, error)
	// Fold, when set, groups a path's steps into the outcomes a report shows, one per
	// choice a node makes: a DWS phase's pass, the loop decision after it and the
	// transition it takes are one outcome. Each Outcome holds the steps it stands for,
	// in order. Nil shows every step as an outcome of its own.
	Fold func(steps []Edge) []Outcome
	// Pin, when set, is the stub answer that makes a run take step (see Pin), given
	// the path's witness context; false for a step the definition decides itself (a
	// branch, a join). Nil: no step is pinned.
	Pin func(step Edge, context map[string]any) (Pin, bool)
}

// Outcome is one shown outcome of a node: Label as a report writes it after "node=",
// and the steps it stands for.
type Outcome struct {
	Node, Label string
	Steps       []Edge
}

// Explore explores every run of m within opts and returns the counts, the edges and a
// cover listing at most maxPaths paths of at most maxPaths × StepsPerListedPath steps
// in all (always one, when there is one). edges, when given, are every edge the
// definition has, so that those no run reaches are reported too. A bound that stops it
// is a *BoundError.
func Explore[S comparable](m Machine[S], opts Options, maxPaths int, edges []Edge) (*Result, error) {
	opts, cancel := opts.timed()
	defer cancel()
	l := newLimits(opts)
	sp, err := explore(m, opts, l)
	if err != nil {
		return nil, err
	}
	r := &Result{sp: sp}
	r.live = sp.live()
	if opts.EdgeCounts {
		if r.total, err = sp.totals(l); err != nil {
			return nil, err
		}
	}
	if err := r.count(edges, l); err != nil {
		return nil, err
	}
	if err := r.cover(maxPaths, l); err != nil {
		return nil, err
	}
	return r, nil
}

// count fills Result.Counts and Result.Edges. Going forward from the start, the paths
// that reach each state are summed into its successors, and a state's sum is dropped once
// it is passed on: only the states between those done and those not yet reached hold a
// count, so that a long definition whose counts have thousands of digits keeps few of
// them. With every state's total kept (Options.EdgeCounts), the paths through each move
// are those reaching its state times those going on from where it leads.
func (r *Result) count(all []Edge, l *limits) error {
	sp := r.sp
	for s := range r.Counts {
		r.Counts[s] = new(big.Int)
	}
	coverable := make([]bool, len(sp.edges))
	var paths []*big.Int
	if r.total != nil {
		paths = make([]*big.Int, len(sp.edges))
		for i := range paths {
			paths[i] = new(big.Int)
		}
	}
	into := make([]*big.Int, len(sp.moves))
	into[0] = big.NewInt(1)
	through := new(big.Int)
	for _, i := range sp.order {
		in := into[i]
		if in == nil {
			continue
		}
		into[i] = nil
		if err := l.alive(); err != nil {
			return err
		}
		// The last move that leads to a state no path has reached yet takes the
		// count itself, uncopied (a chain's states hand theirs on).
		handOn, handed := -1, false
		for k, mv := range sp.moves[i] {
			if sp.takeable(r.live, i, mv) && mv.next >= 0 {
				handOn = k
			}
		}
		for k, mv := range sp.moves[i] {
			if !sp.takeable(r.live, i, mv) {
				continue
			}
			coverable[mv.edge] = true
			if paths != nil {
				through.Set(in)
				if mv.next >= 0 {
					through.Mul(through, r.total[mv.next])
				}
				paths[mv.edge].Add(paths[mv.edge], through)
			}
			if mv.next < 0 {
				r.Counts[mv.status].Add(r.Counts[mv.status], in)
				continue
			}
			if k == handOn && into[mv.next] == nil {
				into[mv.next], handed = in, true // kept already
				continue
			}
			next := into[mv.next]
			if next == nil {
				next = new(big.Int)
				into[mv.next] = next
			} else {
				l.release(next)
			}
			next.Add(next, in)
			if err := l.keep(next); err != nil {
				return err
			}
		}
		if !handed {
			l.release(in)
		}
	}
	for _, n := range paths {
		if err := l.keep(n); err != nil {
			return err
		}
	}
	seen := map[Edge]bool{}
	for i, e := range sp.edges {
		if e == (Edge{}) {
			continue // the cut at MaxSteps is no edge of the definition
		}
		seen[e] = true
		info := EdgeInfo{Edge: e, To: sp.to[i], Coverable: coverable[i]}
		if paths != nil {
			info.Paths = paths[i]
		}
		if !info.Coverable {
			info.Why = sp.dead[i]
			if info.Why == "" {
				info.Why = "no run that takes it reaches an end"
			}
		}
		r.Edges = append(r.Edges, info)
	}
	for _, e := range all {
		if !seen[e] {
			seen[e] = true
			info := EdgeInfo{Edge: e, Why: "no run reaches it"}
			if paths != nil {
				info.Paths = new(big.Int)
			}
			r.Edges = append(r.Edges, info)
		}
	}
	return nil
}

// Finding is a rule a Machine asked to report at a node that some path reaches.
type Finding struct {
	Rule, Node string
}

// Findings lists the findings of the moves some path takes, each (rule, node) once, in
// first-seen order.
func (r *Result) Findings() []Finding {
	var out []Finding
	seen := map[Finding]bool{}
	for i, ms := range r.sp.moves {
		for _, mv := range ms {
			if mv.finding == "" || !r.sp.takeable(r.live, i, mv) {
				continue
			}
			f := Finding{Rule: mv.finding, Node: r.sp.edges[mv.edge].Node}
			if !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	return out
}

// Coverable is the number of edges some path takes.
func (r *Result) Coverable() int {
	n := 0
	for _, e := range r.Edges {
		if e.Coverable {
			n++
		}
	}
	return n
}

// Path returns path number n (0-based) in the order of the moves the Machine lists, or
// false when there are not that many paths. It unranks through the counts, so any path
// of 2^100 is found in time linear in its length.
func (r *Result) Path(n *big.Int) (Path, bool) {
	if n.Sign() < 0 || n.Cmp(r.Counts.Total()) >= 0 {
		return Path{}, false
	}
	if r.total == nil {
		// Not kept by the exploration (Options.EdgeCounts): made now, unbounded.
		r.total, _ = r.sp.totals(newLimits(Options{MaxCountBytes: math.MaxInt64}))
	}
	rest := new(big.Int).Set(n)
	var p Path
	for i := 0; ; {
		stepped := false
		for _, mv := range r.sp.moves[i] {
			if !r.sp.takeable(r.live, i, mv) {
				continue
			}
			k := big.NewInt(1)
			if mv.next >= 0 {
				k = r.total[mv.next]
			}
			if rest.Cmp(k) >= 0 {
				rest.Sub(rest, k)
				continue
			}
			if mv.edge >= 0 && r.sp.edges[mv.edge] != (Edge{}) {
				p.Steps = append(p.Steps, r.sp.edges[mv.edge])
			}
			if mv.next < 0 {
				p.Status = mv.status
				return p, true
			}
			i, stepped = mv.next, true
			break
		}
		if !stepped {
			return Path{}, false // unreachable: the counts say a path is here
		}
	}
}

// walk follows one path given the move to take at each state.
func (r *Result) walk(choose func(state int, moves []move) int) Path {
	var p Path
	for i := 0; ; {
		ms := r.sp.moves[i]
		mv := ms[choose(i, ms)]
		if mv.edge >= 0 && r.sp.edges[mv.edge] != (Edge{}) {
			p.Steps = append(p.Steps, r.sp.edges[mv.edge])
		}
		if mv.next < 0 {
			p.Status = mv.status
			return p
		}
		i = mv.next
	}
}

// oneToOne reports whether every coverable edge of the definition is taken by exactly
// one move of the state graph, so that covering moves is covering edges.
func (r *Result) oneToOne() bool {
	uses := make([]int, len(r.sp.edges))
	for i, ms := range r.sp.moves {
		for _, mv := range ms {
			if mv.edge >= 0 && r.sp.takeable(r.live, i, mv) {
				uses[mv.edge]++
			}
		}
	}
	return !slices.ContainsFunc(uses, func(n int) bool { return n > 1 })
}

// timed is opts with MaxTime turned into a deadline on its context (the cause names
// the bound), and the function that releases it.
func (opts Options) timed() (Options, context.CancelFunc) {
	if opts.MaxTime <= 0 {
		return opts, func() {}
	}
	parent := opts.Ctx
	if parent == nil {
		parent = context.Background()
	}
	var cancel context.CancelFunc
	opts.Ctx, cancel = context.WithTimeoutCause(parent, opts.MaxTime, errors.New(opts.MaxTime.String()))
	return opts, cancel
}
