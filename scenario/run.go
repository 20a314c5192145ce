package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"time"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// Options are how scenarios run.
type Options struct {
	// StubTimeout bounds each stub worker process (default 10 s).
	StubTimeout time.Duration
	// MaxSteps ends a run cut after this many steps (default 10,000).
	MaxSteps int
}

// Outcome is how one scenario went.
type Outcome struct {
	Scenario *Scenario
	// Run is the run the scenario made; nil when it could not run.
	Run *sim.Run
	// Passed is set when the run did all the scenario expects.
	Passed bool
	// Failures say in words what did not match, or why the scenario could not run.
	Failures []string
	// Diagnostics are findings in the scenario file (a bad scenario, sim-stub-output).
	Diagnostics []lint.Diagnostic
	// Warnings are answers no invocation consumed.
	Warnings []string
	// Expected and Actual are the paths as visits; FirstDiff is the index of the first
	// visit where they differ, -1 when the path was not expected or matched.
	Expected, Actual []Visit
	FirstDiff        int
	Duration         time.Duration
}

// Fail records why the scenario failed.
func (o *Outcome) Fail(format string, args ...any) {
	o.Passed = false
	o.Failures = append(o.Failures, fmt.Sprintf(format, args...))
}

// Execute runs the scenario on def, a definition that validated, and compares the run
// with what the scenario expects.
func (sc *Scenario) Execute(def sim.Definition, opts Options) *Outcome {
	start := time.Now()
	o := &Outcome{Scenario: sc, Passed: true, FirstDiff: -1, Expected: sc.Expect.Path}
	defer func() { o.Duration = time.Since(start) }()
	if def.Play == nil {
		o.Fail("its definition's dialect does not run scenarios")
		return o
	}
	if ds := sc.Check(def.Nodes, def.Result); len(ds) > 0 {
		o.Diagnostics = ds
		o.Fail("the scenario does not fit its definition:")
		return o
	}
	if opts.StubTimeout <= 0 {
		opts.StubTimeout = 10 * time.Second
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = 10000
	}
	st := &stubs{sc: sc, nodes: def.Nodes, opts: opts, calls: map[string]int{}, used: map[*Stub]bool{}}
	run, err := def.Play(st, sc.Context, opts.MaxSteps)
	o.Run = run
	if err != nil {
		var re *sim.RuleError
		var se *sim.StubError
		switch {
		case errors.As(err, &re):
			d := sc.diag(re.Rule, source0(re.Node, st.last[re.Node]), re.Message)
			o.Diagnostics = append(o.Diagnostics, d)
			o.Fail("a stub's answer breaks %s:", re.Rule)
		case errors.As(err, &se):
			o.Fail("%v", se)
		default:
			o.Fail("the run stopped: %v", err)
		}
		return o
	}
	o.Actual = Visits(run.Steps)
	sc.compare(o, run)
	o.Warnings = st.unused()
	// What the run met on its way (a branch that raised an error, a value the evaluator
	// cannot evaluate) is a warning at the context that led to it; the scenario still
	// passes when its run did what it expects.
	for _, f := range run.Findings {
		ptr := ""
		if sc.Doc != nil && sc.Doc.Root.Get("context") != nil {
			ptr = "/context"
		}
		d := sc.diag(f.Rule, ptr, f.Message)
		d.Severity = lint.Warning
		o.Diagnostics = append(o.Diagnostics, d)
	}
	return o
}

// source0 is the pointer of the stub answer that broke a rule, else of the node's stubs.
func source0(node string, st *Stub) string {
	if st != nil {
		return st.Ptr + "/output"
	}
	return "/stubs/" + node
}

// Visits groups a run's steps into visits: consecutive steps at one node.
func Visits(steps []sim.Edge) []Visit {
	var out []Visit
	for _, e := range steps {
		if n := len(out); n > 0 && out[n-1].Node == e.Node {
			out[n-1].Outcomes = append(out[n-1].Outcomes, e.Outcome)
			continue
		}
		out = append(out, Visit{Node: e.Node, Outcomes: []string{e.Outcome}})
	}
	return out
}

func (sc *Scenario) compare(o *Outcome, run *sim.Run) {
	e := sc.Expect
	if e.Status != "" && run.Status.String() != e.Status {
		o.Fail("the run ended %s, expected %s", run.Status, e.Status)
	}
	if e.HasPath {
		n := max(len(e.Path), len(o.Actual))
		for i := range n {
			if i >= len(e.Path) || i >= len(o.Actual) || !matches(e.Path[i], o.Actual[i]) {
				o.FirstDiff = i
				break
			}
		}
		if o.FirstDiff >= 0 {
			o.Fail("the path differs from visit %d on", o.FirstDiff+1)
		}
	}
	for _, id := range slices.Sorted(maps.Keys(e.Visits)) {
		if got := run.Visits[id]; got != e.Visits[id] {
			o.Fail("%q was visited %d times, expected %d", id, got, e.Visits[id])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(e.Context)) {
		got, ok := run.Context[k]
		switch {
		case !ok:
			o.Fail("the final context has no %s, expected %s", k, jsonText(e.Context[k]))
		case !equal(got, e.Context[k]):
			o.Fail("the final context has %s = %s, expected %s", k, jsonText(got), jsonText(e.Context[k]))
		}
	}
}

func matches(want, got Visit) bool {
	if want.Node != got.Node {
		return false
	}
	return len(want.Outcomes) == 0 || slices.Contains(got.Outcomes, want.Outcomes[0])
}

// equal compares JSON values, numbers by value.
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x.Cmp(y) == 0
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, v := range av {
			if w, ok := bv[k]; !ok || !equal(v, w) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !equal(av[i], bv[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

func number(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(n))
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(n) == nil {
			return nil, false
		}
		return r, true
	case int:
		return new(big.Rat).SetInt64(int64(n)), true
	case int64:
		return new(big.Rat).SetInt64(n), true
	}
	return nil, false
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// stubs answers a run's calls from the scenario's stubs. One run uses it from one
// goroutine.
type stubs struct {
	sc    *Scenario
	nodes map[string]sim.Node
	opts  Options
	calls map[string]int
	used  map[*Stub]bool
	last  map[string]*Stub
}

func (s *stubs) Answer(c sim.Call) (sim.Answer, bool, error) {
	list := s.sc.Stubs[c.Node]
	if len(list) == 0 {
		return sim.Answer{}, false, nil
	}
	k := s.calls[c.Node]
	s.calls[c.Node]++
	st := list[len(list)-1]
	for _, cand := range list {
		span := max(cand.Times, 1)
		if k < span {
			st = cand
			break
		}
		k -= span
	}
	s.used[st] = true
	if s.last == nil {
		s.last = map[string]*Stub{}
	}
	s.last[c.Node] = st
	if st.Run != nil {
		a, err := s.process(st, c)
		if err != nil {
			return a, true, &sim.StubError{Node: c.Node, Err: err}
		}
		return a, true, nil
	}
	return st.Answer, true, nil
}

// unused lists the answers no invocation consumed.
func (s *stubs) unused() []string {
	var out []string
	for _, id := range slices.Sorted(maps.Keys(s.sc.Stubs)) {
		for i, st := range s.sc.Stubs[id] {
			if !s.used[st] {
				n := s.calls[id]
				times := "times"
				if n == 1 {
					times = "time"
				}
				out = append(out, fmt.Sprintf("answer %d of %q was never used (the run invoked %q %d %s)", i+1, id, id, n, times))
			}
		}
	}
	return out
}
