package direclaw

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// orch parses an orchestrator for the simulator alone: only workflows, their limits and
// workflow_orchestration matter to it, so the documents here are no more than that.
func orch(t testing.TB, text string) *orchestrator {
	t.Helper()
	doc, err := source.Parse("o.yaml", []byte(text), source.YAML)
	if err != nil {
		t.Fatal(err)
	}
	return decode(doc)
}

// explore simulates workflow i of o as simulate does, without a lint pass.
func explore(t testing.TB, o *orchestrator, i int) (*sim.Result, *machine) {
	t.Helper()
	limit, _ := maxIterations(o, o.workflows[i])
	m := newMachine(o.workflows[i], limit, Both)
	r, err := m.explore(sim.Options{}, 100)
	if err != nil {
		t.Fatal(err)
	}
	return r, m
}

func counts(r *sim.Result) string {
	return fmt.Sprintf("%v paths: %v succeeded, %v failed", r.Counts.Total(), r.Counts.Of(sim.Succeeded), r.Counts.Of(sim.Failed))
}

func findings(r *sim.Result) []string {
	var out []string
	for _, f := range r.Findings() {
		out = append(out, f.Rule+" "+f.Node)
	}
	return out
}

// The brief's acceptance case: three agent_task steps without failure routes are 7 paths,
// one of them succeeded; each step's blocked and failed end the run (sim-unhandled-failure
// once per step). No run can reach the limit, so visits are not counted and the cover is
// a proven minimum.
func TestThreeTasks(t *testing.T) {
	r, m := explore(t, orch(t, `workflows:
  - id: w
    steps:
      - { id: a, type: agent_task }
      - { id: b, type: agent_task }
      - { id: c, type: agent_task }
`), 0)
	if got := counts(r); got != "7 paths: 1 succeeded, 6 failed" {
		t.Errorf("got %s", got)
	}
	if got := findings(r); !slices.Equal(got, []string{"sim-unhandled-failure a", "sim-unhandled-failure b", "sim-unhandled-failure c"}) {
		t.Errorf("findings %v", got)
	}
	if m.track || !r.Minimal || r.CoverSize != 7 {
		t.Errorf("track %v, cover %d (minimal %v); want untracked and a minimal cover of 7", m.track, r.CoverSize, r.Minimal)
	}
}

// Each decision of the package doc, as the paths it gives.
func TestSemantics(t *testing.T) {
	for _, tc := range []struct {
		name, steps string
		want        []string // every path, "node=outcome … → status"
		uncoverable []string
		findings    []string
		edges       []string // every edge, when given
	}{{
		name: "complete follows next, else the next step in list order; the last step ends succeeded",
		steps: `
      - { id: a, type: agent_task, next: c, on_blocked: b }
      - { id: b, type: agent_task }
      - { id: c, type: agent_task }`,
		want: []string{"a=complete c=complete → succeeded", "a=blocked b=complete c=complete → succeeded"},
	}, {
		name: "blocked and failed without a route end the run failed, each step a sim-unhandled-failure",
		steps: `
      - { id: a, type: agent_task, on_failed: b }
      - { id: b, type: agent_task }`,
		want: []string{
			"a=complete b=complete → succeeded", "a=blocked → failed",
			"a=failed b=complete → succeeded", "a=failed b=failed → failed",
		},
		findings: []string{"sim-unhandled-failure a", "sim-unhandled-failure b"},
	}, {
		name: "a review: approve and reject follow their routes, invalid ends the run failed with no finding",
		steps: `
      - { id: r, type: agent_review, on_approve: done, on_reject: fix }
      - { id: fix, type: agent_task, next: done }
      - { id: done, type: agent_task }`,
		want:     []string{"r=approve done=complete → succeeded", "r=reject fix=complete done=complete → succeeded", "r=invalid → failed"},
		findings: []string{"sim-unhandled-failure fix", "sim-unhandled-failure done"},
	}, {
		name: "a review without on_approve ends the run succeeded on approve; without on_reject, failed on reject",
		steps: `
      - { id: r, type: agent_review }`,
		want:     []string{"r=approve → succeeded", "r=reject → failed", "r=invalid → failed"},
		findings: []string{"sim-unhandled-failure r"},
	}, {
		name: "a review's next is never followed: an edge no path takes",
		steps: `
      - { id: r, type: agent_review, next: x, on_approve: x }
      - { id: x, type: agent_task }`,
		want:        []string{"r=approve x=complete → succeeded", "r=reject → failed", "r=invalid → failed"},
		uncoverable: []string{"r:next (an agent_review routes by its decision (on_approve, on_reject); DireClaw never follows its next)"},
	}, {
		name: "a route naming no step is absent: next continues in list order, on_failed ends the run",
		steps: `
      - { id: a, type: agent_task, next: nowhere, on_failed: nowhere }
      - { id: b, type: agent_task }`,
		want: []string{"a=complete b=complete → succeeded", "a=failed → failed"},
	}, {
		name: "a later step with an earlier step's id takes no part, and list order leads to the first of that id",
		steps: `
      - { id: a, type: agent_task }
      - { id: a, type: agent_review }`,
		want:  []string{"a=complete a=complete a=complete a=complete → failed"},
		edges: []string{"a:complete", "a:blocked", "a:failed"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			o := orch(t, "workflow_orchestration: { max_total_iterations: 4 }\nworkflows:\n  - id: w\n    steps:"+tc.steps+"\n")
			r, _ := explore(t, o, 0)
			var paths []string
			for n := int64(0); ; n++ {
				p, ok := r.Path(bigInt(n))
				if !ok {
					break
				}
				var steps []string
				for _, s := range p.Steps {
					steps = append(steps, s.Node+"="+s.Outcome)
				}
				paths = append(paths, strings.Join(steps, " ")+" → "+p.Status.String())
			}
			for _, w := range tc.want {
				if !slices.Contains(paths, w) {
					t.Errorf("no path %q among\n%s", w, strings.Join(paths, "\n"))
				}
			}
			var unc []string
			for _, e := range r.Edges {
				if !e.Coverable {
					unc = append(unc, e.String()+" ("+e.Why+")")
				}
			}
			for _, w := range tc.uncoverable {
				if !slices.ContainsFunc(unc, func(u string) bool { return u == w || strings.HasPrefix(u, w+" (") }) {
					t.Errorf("edge %q is not uncoverable; uncoverable: %v", w, unc)
				}
			}
			var edges []string
			for _, e := range r.Edges {
				edges = append(edges, e.String())
			}
			if tc.edges != nil && !slices.Equal(edges, tc.edges) {
				t.Errorf("edges %v, want %v", edges, tc.edges)
			}
			if got := findings(r); tc.findings != nil && !slices.Equal(sorted(got), sorted(tc.findings)) {
				t.Errorf("findings %v, want %v", got, tc.findings)
			}
		})
	}
}

// The limit comes from the workflow's limits, else workflow_orchestration, else 12; the
// route that would make one visit more ends the run failed instead, with
// sim-max-iterations at the step it leaves. The limit-3 count is derived by hand below.
func TestIterationLimit(t *testing.T) {
	const loop = `
    steps:
      - { id: plan, type: agent_task, on_blocked: plan, on_failed: plan }
      - { id: review, type: agent_review, on_approve: build, on_reject: plan }
      - { id: build, type: agent_task, on_blocked: build, on_failed: build }
`
	for _, tc := range []struct {
		name, doc string
		limit     int
		want      string
	}{
		// Limit 3, X(v) the paths from step X at visit v. At visit 3 every route is
		// refused: P(3) = 3, R(3) = 3 (two refused, invalid), B(3) = 3 (complete ends the
		// run: build is last). P(2) = R(3)+P(3)+P(3) = 9, R(2) = B(3)+P(3)+1 = 7,
		// P(1) = R(2)+P(2)+P(2) = 25; the one success is plan, review=approve,
		// build=complete.
		{"default 12 beats nothing", "workflows:\n  - id: w" + loop, 12, ""},
		{"workflow_orchestration", "workflow_orchestration: { max_total_iterations: 5 }\nworkflows:\n  - id: w" + loop, 5, ""},
		{"the workflow's own limits win", "workflow_orchestration: { max_total_iterations: 5 }\nworkflows:\n  - id: w\n    limits: { max_total_iterations: 3 }" + loop, 3, "25 paths: 1 succeeded, 24 failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := orch(t, tc.doc)
			limit, _ := maxIterations(o, o.workflows[0])
			if limit != tc.limit {
				t.Fatalf("limit %d, want %d", limit, tc.limit)
			}
			r, m := explore(t, o, 0)
			if !m.track {
				t.Error("a loop must count visits")
			}
			if tc.want != "" && counts(r) != tc.want {
				t.Errorf("got %s, want %s", counts(r), tc.want)
			}
			if e := enumerate(o.workflows[0], limit); !sameCounts(r, e) {
				t.Errorf("sim %v, enumeration %v", r.Counts, e)
			}
			if got := findings(r); !slices.Contains(got, "sim-max-iterations plan") {
				t.Errorf("findings %v lack sim-max-iterations at plan", got)
			}
		})
	}
}

// A workflow no run can take past its limit counts no visits: the same counts as with
// visits counted, and no sim-max-iterations; one path longer than the limit is enough to
// count them again.
func TestVisitsCountedOnlyWhenTheyMatter(t *testing.T) {
	const steps = `
      - { id: a, type: agent_task, on_blocked: c }
      - { id: b, type: agent_task }
      - { id: c, type: agent_task }
`
	for limit, track := range map[int]bool{3: false, 2: true} {
		o := orch(t, fmt.Sprintf("workflows:\n  - id: w\n    limits: { max_total_iterations: %d }\n    steps:%s", limit, steps))
		r, m := explore(t, o, 0)
		if m.track != track {
			t.Errorf("limit %d: track %v, want %v", limit, m.track, track)
		}
		if e := enumerate(o.workflows[0], limit); !sameCounts(r, e) {
			t.Errorf("limit %d: sim %v, enumeration %v", limit, r.Counts, e)
		}
		if slices.Contains(findings(r), "sim-max-iterations b") == !track {
			t.Errorf("limit %d: findings %v", limit, findings(r))
		}
	}
}

// A limit that unrolls loops into more states than Options.MaxStates is an error that
// says so, never a count.
func TestTooManyStates(t *testing.T) {
	o := orch(t, `workflows:
  - id: w
    limits: { max_total_iterations: 99999999999 }
    steps:
      - { id: a, type: agent_task, on_failed: a }
`)
	limit, _ := maxIterations(o, o.workflows[0])
	_, err := newMachine(o.workflows[0], limit, Both).explore(sim.Options{MaxStates: 1000}, 10)
	if !errors.Is(err, sim.ErrTooLarge) || !strings.Contains(err.Error(), `workflow "w", with every loop unrolled up to max_total_iterations (2147483647 visits): stopped at the states bound (1000 states)`) {
		t.Errorf("got %v", err)
	}
}

// A ring of steps routing to each other by next, on_blocked and on_failed, with a high
// max_total_iterations, has few states but counts of thousands of digits at each of
// them: the count size bound stops it and the error names the bound and the unrolling
// (SPEC §8.4, giving up is said), where it once took minutes and gigabytes.
func TestRingCountSizeBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("workflows:\n  - id: ring\n    limits: { max_total_iterations: 3000 }\n    steps:\n")
	const n = 6
	for i := range n {
		next := fmt.Sprintf(", next: s%d", (i+1)%n)
		if i == n-1 {
			next = ""
		}
		fmt.Fprintf(&b, "      - { id: s%d, type: agent_task%s, on_blocked: s%d, on_failed: s%d }\n", i, next, (i+2)%n, (i+n-1)%n)
	}
	o := orch(t, b.String())
	limit, _ := maxIterations(o, o.workflows[0])
	_, err := newMachine(o.workflows[0], limit, Both).explore(sim.Options{MaxCountBytes: 1 << 20, EdgeCounts: true}, 10)
	if !errors.Is(err, sim.ErrCountsTooLarge) || err.Error() != `workflow "ring", with every loop unrolled up to max_total_iterations (3000 visits): `+
		`stopped at the count size bound (1 MiB): its exact path counts need more memory than that` {
		t.Errorf("got %v", err)
	}
}

// On random workflows with loops, reviews, dangling and absent routes, the counts are
// those of an enumeration of every run that follows the package doc step by step.
func TestAgainstEnumeration(t *testing.T) {
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 3))
		text, limit := randomWorkflow(rng)
		o := orch(t, text)
		r, _ := explore(t, o, 0)
		if e := enumerate(o.workflows[0], limit); !sameCounts(r, e) {
			t.Fatalf("seed %d: sim %v, enumeration %v\n%s", seed, r.Counts, e, text)
		}
	}
}

func randomWorkflow(rng *rand.Rand) (string, int) {
	n := 1 + rng.IntN(5)
	limit := 1 + rng.IntN(6)
	var b strings.Builder
	fmt.Fprintf(&b, "workflows:\n  - id: w\n    limits: { max_total_iterations: %d }\n    steps:\n", limit)
	target := func() string {
		switch k := rng.IntN(n + 2); {
		case k == n:
			return "nowhere"
		case k < n:
			return fmt.Sprint("s", k)
		}
		return ""
	}
	for i := range n {
		typ := "agent_task"
		fields := []string{"next", "on_blocked", "on_failed"}
		if rng.IntN(3) == 0 {
			typ, fields = "agent_review", []string{"on_approve", "on_reject", "next"}
		}
		fmt.Fprintf(&b, "      - id: s%d\n        type: %s\n", i, typ)
		for _, f := range fields {
			if t := target(); t != "" {
				fmt.Fprintf(&b, "        %s: %s\n", f, t)
			}
		}
	}
	return b.String(), limit
}

// enumerate counts every run by walking it, written from the package doc without the
// machine: visits counted always, each run followed to its end.
func enumerate(w *workflow, limit int) sim.Counts {
	var c [5]int64
	var run func(i, visits int)
	goTo := func(id string, ok bool, visits int, end sim.Status) {
		s, known := w.byID[id]
		switch {
		case !ok || !known:
			c[end]++
		case visits == limit:
			c[sim.Failed]++
		default:
			run(s.index, visits+1)
		}
	}
	run = func(i, visits int) {
		s := w.steps[i]
		r := func(f string) (string, bool) { x, ok := s.routes[f]; return x.target, ok }
		if s.review {
			id, ok := r("on_approve")
			goTo(id, ok, visits, sim.Succeeded)
			id, ok = r("on_reject")
			goTo(id, ok, visits, sim.Failed)
			c[sim.Failed]++ // invalid
			return
		}
		id, ok := r("next")
		if _, known := w.byID[id]; (!ok || !known) && i+1 < len(w.steps) {
			id, ok = w.steps[i+1].id, true
		}
		goTo(id, ok, visits, sim.Succeeded)
		id, ok = r("on_blocked")
		goTo(id, ok, visits, sim.Failed)
		id, ok = r("on_failed")
		goTo(id, ok, visits, sim.Failed)
	}
	run(0, 1)
	var out sim.Counts
	for s, n := range c {
		out[s] = bigInt(n)
	}
	return out
}

func sameCounts(r *sim.Result, c sim.Counts) bool {
	for _, s := range sim.Statuses() {
		if r.Counts.Of(s).Cmp(c.Of(s)) != 0 {
			return false
		}
	}
	return true
}

func bigInt(n int64) *big.Int { return big.NewInt(n) }

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// Under release: current a step has no blocked status and its on_blocked and on_failed
// are never followed: an agent_task completes or fails the run, and since no route could
// handle the failure it is no sim-unhandled-failure. The seed reading of the same file
// takes the failure route.
func TestCurrentReleaseRoutes(t *testing.T) {
	o := orch(t, `workflows:
  - id: w
    steps:
      - { id: a, type: agent_task, on_failed: b, on_blocked: b }
      - { id: b, type: agent_task }
`)
	for _, tc := range []struct {
		rel      Release
		paths    []string
		findings []string
	}{
		{Both, []string{"a=blocked b=blocked", "a=blocked b=complete", "a=blocked b=failed", "a=complete b=blocked",
			"a=complete b=complete", "a=complete b=failed", "a=failed b=blocked", "a=failed b=complete", "a=failed b=failed"},
			[]string{"sim-unhandled-failure b"}},
		{Current, []string{"a=complete b=complete", "a=complete b=failed", "a=failed"}, nil},
	} {
		m := newMachine(o.workflows[0], defaultMaxIterations, tc.rel)
		r, err := m.explore(sim.Options{}, 100)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for n := int64(0); ; n++ {
			p, ok := r.Path(bigInt(n))
			if !ok {
				break
			}
			var steps []string
			for _, s := range p.Steps {
				steps = append(steps, s.Node+"="+s.Outcome)
			}
			paths = append(paths, strings.Join(steps, " "))
		}
		slices.Sort(paths)
		if !slices.Equal(paths, tc.paths) || !slices.Equal(findings(r), tc.findings) {
			t.Errorf("%v: paths %q findings %q; want %q and %q", tc.rel, paths, findings(r), tc.paths, tc.findings)
		}
	}
}
