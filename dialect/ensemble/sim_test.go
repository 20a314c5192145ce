package ensemble

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
)

// explore simulates an ensemble as simulate does, without a lint pass.
func explore(t *testing.T, text string, opts sim.Options) (*sim.Result, *machine, error) {
	t.Helper()
	m, err := newMachine(phasesOf(decode(parse(t, text))))
	if err != nil {
		return nil, nil, err
	}
	r, err := sim.Explore[state](m, opts, 100, m.edges())
	return r, m, err
}

func mustExplore(t *testing.T, text string) (*sim.Result, *machine) {
	t.Helper()
	r, m, err := explore(t, text, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, m
}

func counts(r *sim.Result) string {
	return fmt.Sprintf("%v paths: %v succeeded, %v failed", r.Counts.Total(), r.Counts.Of(sim.Succeeded), r.Counts.Of(sim.Failed))
}

// paths lists every path as "phase=outcome … → status".
func paths(r *sim.Result) []string {
	var out []string
	for n := int64(0); ; n++ {
		p, ok := r.Path(big.NewInt(n))
		if !ok {
			return out
		}
		var steps []string
		for _, s := range p.Steps {
			steps = append(steps, s.Node+"="+s.Outcome)
		}
		out = append(out, strings.Join(steps, " ")+" → "+p.Status.String())
	}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "sim", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The seed's kitchen: steak, salmon and pasta each complete or fail (8 runs), and serve
// starts only when all three completed, then completes or fails: 7 + 2 = 9 runs, one of
// them succeeded. The research pipeline, by hand: research failed gives 2 runs
// (data-gathering either way, everything else skipped); research completed and
// data-gathering failed, 2 (analysis either way); both completed, analysis failed 1,
// report failed 1, report completed 2 (review either way): 8 runs, 1 succeeded.
// The kitchen with a review on serve (maxRetries 1, maxPredecessorRetries 1, three
// courses before it): 7 runs where a course failed, and serve's, by the recurrence
// N(t, counts) = 1 failed + approve + retry (N(t+1, counts) while t < 1, else
// succeeded) + reject + for each course, succeeded once it was re-run, else its re-run
// failed or N(0, counts with it re-run): 633 succeeded and 394 failed.
func TestSeedEnsembles(t *testing.T) {
	for name, want := range map[string]string{
		"kitchen.yaml":           "9 paths: 1 succeeded, 8 failed",
		"research-pipeline.yaml": "8 paths: 1 succeeded, 7 failed",
		"kitchen-review.yaml":    "1034 paths: 633 succeeded, 401 failed",
	} {
		r, _ := mustExplore(t, fixture(t, name))
		if got := counts(r); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
		if len(r.Findings()) != 0 {
			t.Errorf("%s: findings %v; an ensemble has none", name, r.Findings())
		}
	}
}

// Each decision of the package doc, as the paths it gives.
func TestSemantics(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      []string // every path, in order
		count     string   // the counts, when want is too long to list
	}{{
		name: "a failed phase skips what waits for it, transitively; an independent phase still runs",
		doc: `phases:
  - { name: a, tasks: [ { name: t1, description: d } ] }
  - { name: b, after: [a], tasks: [ { name: t2, description: d } ] }
  - { name: c, after: [b], tasks: [ { name: t3, description: d } ] }
  - { name: x, tasks: [ { name: t4, description: d } ] }`,
		want: []string{
			"a=completed b=completed c=completed x=completed → succeeded",
			"a=completed b=completed c=completed x=failed → failed",
			"a=completed b=completed c=failed x=completed → failed",
			"a=completed b=completed c=failed x=failed → failed",
			"a=completed b=failed x=completed → failed",
			"a=completed b=failed x=failed → failed",
			"a=failed x=completed → failed",
			"a=failed x=failed → failed",
		},
	}, {
		name: "paths list phases in one fixed order: declaration order wherever after allows",
		doc: `phases:
  - { name: serve, after: [steak, pasta], tasks: [ { name: t1, description: d } ] }
  - { name: steak, tasks: [ { name: t2, description: d } ] }
  - { name: pasta, tasks: [ { name: t3, description: d } ] }`,
		want: []string{
			"steak=completed pasta=completed serve=completed → succeeded",
			"steak=completed pasta=completed serve=failed → failed",
			"steak=completed pasta=failed → failed",
			"steak=failed pasta=completed → failed",
			"steak=failed pasta=failed → failed",
		},
	}, {
		name: "a review approves or retries a completed phase; a retry past maxRetries is not run and the phase completes",
		doc: `phases:
  - name: p
    tasks: [ { name: t, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 1 }`,
		want: []string{
			"p=completed p=approve → succeeded",
			"p=completed p=retry p=completed p=approve → succeeded",
			"p=completed p=retry p=completed p=retry → succeeded",
			"p=completed p=retry p=completed p=reject → failed",
			"p=completed p=retry p=failed → failed",
			"p=completed p=reject → failed",
			"p=failed → failed",
		},
	}, {
		name: "maxRetries 0: every retry is past it",
		doc: `phases:
  - name: p
    tasks: [ { name: t, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 0 }`,
		want: []string{"p=completed p=approve → succeeded", "p=completed p=retry → succeeded", "p=completed p=reject → failed", "p=failed → failed"},
	}, {
		name: "reject fails the phase and skips what waits for it; an independent phase still runs",
		doc: `phases:
  - name: a
    tasks: [ { name: t1, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 0 }
  - { name: b, after: [a], tasks: [ { name: t2, description: d } ] }
  - { name: x, tasks: [ { name: t3, description: d } ] }`,
		want: []string{
			"a=completed a=approve b=completed x=completed → succeeded",
			"a=completed a=approve b=completed x=failed → failed",
			"a=completed a=approve b=failed x=completed → failed",
			"a=completed a=approve b=failed x=failed → failed",
			"a=completed a=retry b=completed x=completed → succeeded",
			"a=completed a=retry b=completed x=failed → failed",
			"a=completed a=retry b=failed x=completed → failed",
			"a=completed a=retry b=failed x=failed → failed",
			"a=completed a=reject x=completed → failed",
			"a=completed a=reject x=failed → failed",
			"a=failed x=completed → failed",
			"a=failed x=failed → failed",
		},
	}, {
		name: "retry_predecessor re-runs the predecessor, then the phase from scratch; past maxPredecessorRetries the phase completes",
		doc: `phases:
  - { name: a, tasks: [ { name: t1, description: d } ] }
  - name: b
    after: [a]
    tasks: [ { name: t2, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 0, maxPredecessorRetries: 1 }`,
		want: []string{
			"a=completed b=completed b=approve → succeeded",
			"a=completed b=completed b=retry → succeeded",
			"a=completed b=completed b=reject → failed",
			"a=completed b=completed b=retry_predecessor a a=completed b=completed b=approve → succeeded",
			"a=completed b=completed b=retry_predecessor a a=completed b=completed b=retry → succeeded",
			"a=completed b=completed b=retry_predecessor a a=completed b=completed b=reject → failed",
			"a=completed b=completed b=retry_predecessor a a=completed b=completed b=retry_predecessor a → succeeded",
			"a=completed b=completed b=retry_predecessor a a=completed b=failed → failed",
			"a=completed b=completed b=retry_predecessor a a=failed → failed",
			"a=completed b=failed → failed",
			"a=failed → failed",
		},
	}, {
		name: "self-retries are counted afresh after a predecessor's re-run; each predecessor has its own count",
		doc: `phases:
  - { name: a, tasks: [ { name: t1, description: d } ] }
  - { name: c, tasks: [ { name: t3, description: d } ] }
  - name: b
    after: [a, c, a]
    tasks: [ { name: t2, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 1, maxPredecessorRetries: 1 }`,
		// Too many to list; counted with the recurrence N(t, ca, cc) for b's run at
		// self-retry t with a and c re-run ca and cc times: 1 failed, approve, retry
		// (N(t+1, …) while t < 1, else succeeded), reject, and for each of a and c:
		// succeeded past its count, else its re-run failed or N(0, …+1). b has
		// 79 succeeded and 64 failed runs; with a or c failed before it, 3 more.
		count: "146 paths: 79 succeeded, 67 failed",
	}, {
		name: "a predecessor whose name a decision cannot carry (a ':', or space at an end) is no outcome of the review",
		doc: `phases:
  - { name: "a:1", tasks: [ { name: t1, description: d } ] }
  - { name: " c", tasks: [ { name: t3, description: d } ] }
  - name: b
    after: ["a:1", " c"]
    tasks: [ { name: t2, description: d } ]
    review: { task: { name: r, description: d }, maxRetries: 0 }`,
		want: []string{
			"a:1=completed  c=completed b=completed b=approve → succeeded",
			"a:1=completed  c=completed b=completed b=retry → succeeded",
			"a:1=completed  c=completed b=completed b=reject → failed",
			"a:1=completed  c=completed b=failed → failed",
			"a:1=completed  c=failed → failed",
			"a:1=failed  c=completed → failed",
			"a:1=failed  c=failed → failed",
		},
	}, {
		name: "a flat task list is one phase, named after the ensemble",
		doc: `tasks:
  - { name: research, description: d }
  - { name: write, description: d, context: [research] }`,
		want: []string{"demo=completed → succeeded", "demo=failed → failed"},
	}, {
		name: "a repeated or blank phase name takes no part; an after naming no phase is ignored",
		doc: `phases:
  - { name: a, after: [ghost], tasks: [ { name: t1, description: d } ] }
  - { name: a, tasks: [ { name: t2, description: d } ] }
  - { name: " ", tasks: [ { name: t3, description: d } ] }`,
		want: []string{"a=completed → succeeded", "a=failed → failed"},
	}, {
		name: "with both phases and tasks (ensemble-mix turned off), the phases run",
		doc: `phases:
  - { name: a, tasks: [ { name: t1, description: d } ] }
tasks:
  - { name: t2, description: d }`,
		want: []string{"a=completed → succeeded", "a=failed → failed"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := mustExplore(t, "ensemble: demo\n"+tc.doc+"\n")
			if tc.count != "" {
				if got := counts(r); got != tc.count {
					t.Errorf("got %s, want %s", got, tc.count)
				}
				return
			}
			if got := paths(r); !slices.Equal(got, tc.want) {
				t.Errorf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// maxRetries and maxPredecessorRetries default to AgentEnsemble's 2. A root phase: three
// attempts, each failed, approved or rejected, and the last one's retry accepted: 10
// paths, 4 succeeded. After one predecessor (a, completed): b's run by the recurrence
// N(t, c) = 1 failed + approve + reject + retry (N(t+1, c) while t < 2, else
// succeeded) + retry_predecessor (succeeded once c = 2, else a's re-run failed or
// N(0, c+1)) has 79 succeeded and 90 failed runs; with a failed, 1 more.
func TestDefaultMaxRetries(t *testing.T) {
	r, _ := mustExplore(t, `ensemble: demo
phases:
  - { name: p, tasks: [ { name: t, description: d } ], review: { task: { name: r, description: d } } }
`)
	if got := counts(r); got != "10 paths: 4 succeeded, 6 failed" {
		t.Errorf("root phase: got %s", got)
	}
	r, _ = mustExplore(t, `ensemble: demo
phases:
  - { name: a, tasks: [ { name: t1, description: d } ] }
  - { name: b, after: [a], tasks: [ { name: t, description: d } ], review: { task: { name: r, description: d } } }
`)
	if got := counts(r); got != "170 paths: 79 succeeded, 91 failed" {
		t.Errorf("after a predecessor: got %s", got)
	}
}

// On random phase DAGs (declared in any order, with reviews that retry themselves and
// their predecessors), the counts are those of an enumeration of every run that keeps
// every phase's status, not just the frontier, and the states stay within the package
// doc's bound. A DAG with too many runs to enumerate quickly is left out; most are not.
func TestAgainstEnumeration(t *testing.T) {
	checked := 0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 5))
		text := randomEnsemble(rng, 1+rng.IntN(7))
		r, m := mustExplore(t, text)
		if n, bound := states(m), stateBound(m); n > bound {
			t.Errorf("seed %d: %d states, above the bound %d", seed, n, bound)
		}
		if r.Counts.Total().Cmp(big.NewInt(200_000)) > 0 {
			continue
		}
		checked++
		e := enumerate(phasesOf(decode(parse(t, text))))
		for _, s := range sim.Statuses() {
			if r.Counts.Of(s).Cmp(big.NewInt(e[s])) != 0 {
				t.Fatalf("seed %d: sim %v, enumeration %v\n%s", seed, r.Counts, e, text)
			}
		}
	}
	if checked < 250 {
		t.Errorf("only %d of 300 random ensembles were enumerated", checked)
	}
}

// stateBound is the package doc's bound on the states, position by position: the
// frontier's completed bits and whether a phase failed, times the phase's stages (run
// and review on each of 1+r attempts, and a re-run of each of its d retryable
// predecessors), times its review's (m+1)^d predecessor retry counts.
func stateBound(m *machine) int {
	bound := 0
	for k, p := range m.phases {
		r, d, mp := 0, len(m.retry[k]), 0
		if p.reviewed {
			r, mp = p.maxRetries, p.maxPredRetries
		}
		n := 1 << (m.sizes[k] + 1) * (2*(r+1) + d)
		for range d {
			n *= mp + 1
		}
		bound += n
	}
	return bound
}

// states counts the states a run can be in.
func states(m *machine) int {
	seen := map[state]bool{m.Start(): true}
	for q := []state{m.Start()}; len(q) > 0; q = q[1:] {
		for _, mv := range m.Moves(q[0]) {
			if !mv.End && !seen[mv.Next] {
				seen[mv.Next] = true
				q = append(q, mv.Next)
			}
		}
	}
	return len(seen)
}

// randomEnsemble declares n phases p0…p(n-1) in a shuffled order; each waits for some
// phases of lower number, so the after lists are acyclic but often name phases declared
// later.
func randomEnsemble(rng *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteString("ensemble: demo\nphases:\n")
	for _, i := range rng.Perm(n) {
		var after []string
		for j := range i {
			if rng.IntN(3) == 0 {
				after = append(after, fmt.Sprint("p", j))
			}
		}
		fmt.Fprintf(&b, "  - name: p%d\n    after: [%s]\n    tasks: [ { name: t%d, description: d } ]\n", i, strings.Join(after, ", "), i)
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "    review: { task: { name: r%d, description: d }, maxRetries: %d, maxPredecessorRetries: %d }\n", i, rng.IntN(3), rng.IntN(2))
		}
	}
	return b.String()
}

// enumerate counts every run of the phases by walking it with every phase's status, in
// the first-declared-ready order, written from AgentEnsemble's PhaseDagExecutor
// (runPhaseWithRetry) without the machine: each attempt of a phase completes or fails;
// its review approves, retries (the last output stands past maxRetries), rejects, or
// names a direct predecessor, which (within maxPredecessorRetries for it, else the
// output stands) re-runs, failing the phase or running it again from attempt 0.
func enumerate(phases []*phase) [5]int64 {
	const (
		pending = iota
		completed
		notCompleted
	)
	status := make(map[string]int, len(phases))
	byName := make(map[string]*phase, len(phases))
	for _, p := range phases {
		byName[p.name] = p
	}
	var c [5]int64
	var next func(failed bool)
	var attempt func(p *phase, try int, predRetries map[string]int, failed bool)
	next = func(failed bool) {
		for _, p := range phases {
			if status[p.name] != pending {
				continue
			}
			ready, starts := true, true
			for _, a := range p.after {
				if _, known := status[a.name]; known {
					ready = ready && status[a.name] != pending
					starts = starts && status[a.name] == completed
				}
			}
			if !ready {
				continue
			}
			if !starts {
				status[p.name] = notCompleted // skipped
				next(failed)
				status[p.name] = pending
				return
			}
			attempt(p, 0, map[string]int{}, failed)
			return
		}
		if failed {
			c[sim.Failed]++
		} else {
			c[sim.Succeeded]++
		}
	}
	finish := func(p *phase, s int, failed bool) {
		status[p.name] = s
		next(failed)
		status[p.name] = pending
	}
	attempt = func(p *phase, try int, predRetries map[string]int, failed bool) {
		finish(p, notCompleted, true) // the attempt failed
		if !p.reviewed {
			finish(p, completed, failed)
			return
		}
		finish(p, completed, failed) // approve
		if try < p.maxRetries {      // retry
			attempt(p, try+1, predRetries, failed)
		} else {
			finish(p, completed, failed)
		}
		finish(p, notCompleted, true) // reject
		seen := map[string]bool{}
		for _, a := range p.after { // retry_predecessor, for each direct predecessor
			if byName[a.name] == nil || seen[a.name] || !retryable(a.name) {
				continue
			}
			seen[a.name] = true
			if predRetries[a.name] >= p.maxPredRetries {
				finish(p, completed, failed) // the current output stands
				continue
			}
			predRetries[a.name]++
			finish(p, notCompleted, true) // the predecessor's re-run failed
			attempt(p, 0, predRetries, failed)
			predRetries[a.name]--
		}
	}
	for _, p := range phases {
		status[p.name] = pending
	}
	next(false)
	return c
}

// The frontier is what a state remembers: the kitchen's widest is its three courses
// before serve, the research pipeline's two phases at a time, a chain's one.
func TestFrontierWidth(t *testing.T) {
	for text, want := range map[string]int{
		fixture(t, "kitchen.yaml"):           3,
		fixture(t, "research-pipeline.yaml"): 2,
		chain(1000):                          1,
	} {
		r, m := mustExplore(t, text)
		if m.width != want {
			t.Errorf("%s: frontier width %d, want %d", m.names[0], m.width, want)
		}
		if m.names[0] == "p0" && (r.Counts.Total().Int64() != 1001 || r.Counts.Of(sim.Succeeded).Int64() != 1) {
			t.Errorf("the chain of 1000 has %v paths, want 1001 (one succeeded)", r.Counts.Total())
		}
	}
}

// An ensemble too wide for Options.MaxStates is an error that says why, never a count.
func TestTooWide(t *testing.T) {
	var b strings.Builder
	b.WriteString("ensemble: wide\nphases:\n")
	var roots []string
	for i := range 12 {
		fmt.Fprintf(&b, "  - { name: r%d, tasks: [ { name: t%d, description: d } ] }\n", i, i)
		roots = append(roots, fmt.Sprint("r", i))
	}
	fmt.Fprintf(&b, "  - { name: join, after: [%s], tasks: [ { name: tj, description: d } ] }\n", strings.Join(roots, ", "))
	text := b.String()
	// 2^12 - 1 runs where some root failed, and join's two when none did.
	r, _ := mustExplore(t, text)
	if got := counts(r); got != "4097 paths: 1 succeeded, 4096 failed" {
		t.Errorf("got %s", got)
	}
	_, _, err := explore(t, text, sim.Options{MaxStates: 1000})
	if !errors.Is(err, sim.ErrTooLarge) {
		t.Fatalf("got %v, want ErrTooLarge", err)
	}
	m, _ := newMachine(phasesOf(decode(parse(t, text))))
	if _, err := m.explore(sim.Options{MaxStates: 1000}, 10); !errors.Is(err, sim.ErrTooLarge) ||
		!strings.Contains(err.Error(), "up to 12 phases are waited for at once (before phase \"join\")") {
		t.Errorf("error %q does not say why", err)
	}
}

// Phases whose after lists form a cycle (only with the cycle rule off) are not simulated.
func TestCycleIsAnError(t *testing.T) {
	_, _, err := explore(t, `ensemble: demo
phases:
  - { name: a, after: [b], tasks: [ { name: t1, description: d } ] }
  - { name: b, after: [a], tasks: [ { name: t2, description: d } ] }
`, sim.Options{})
	if !errors.Is(err, errCycle) {
		t.Errorf("got %v, want errCycle", err)
	}
}
