package ensemble

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
)

// listStubs answers each node's invocations from its list, the last answer repeating,
// and counts the invocations.
type listStubs struct {
	answers map[string][]sim.Answer
	calls   map[string]int
}

func (s *listStubs) Answer(c sim.Call) (sim.Answer, bool, error) {
	list := s.answers[c.Node]
	s.calls[c.Node]++
	if len(list) == 0 {
		return sim.Answer{}, false, nil
	}
	return list[min(s.calls[c.Node], len(list))-1], true, nil
}

// playText runs text with the answers, each written "ok", "fail" or a decision.
func playText(t *testing.T, text string, answers map[string][]string) (*sim.Run, map[string]int, error) {
	t.Helper()
	m, err := newMachine(phasesOf(decode(parse(t, text))))
	if err != nil {
		t.Fatal(err)
	}
	stubs := &listStubs{answers: map[string][]sim.Answer{}, calls: map[string]int{}}
	for node, list := range answers {
		for _, a := range list {
			switch a {
			case "ok", "fail":
				stubs.answers[node] = append(stubs.answers[node], sim.Answer{Kind: a})
			default:
				stubs.answers[node] = append(stubs.answers[node], sim.Answer{Kind: "decision", Decision: a})
			}
		}
	}
	run, err := m.play(stubs, nil, 1000)
	return run, stubs.calls, err
}

func steps(run *sim.Run) string {
	var out []string
	for _, e := range run.Steps {
		out = append(out, e.Node+"="+e.Outcome)
	}
	return strings.Join(out, " ")
}

const writing = `ensemble: demo
phases:
  - { name: research, tasks: [ { name: gather, description: d } ] }
  - { name: facts, tasks: [ { name: check, description: d } ] }
  - name: writing
    after: [research, facts]
    tasks: [ { name: draft, description: d } ]
    review: { task: { name: edit, description: d }, maxRetries: 1, maxPredecessorRetries: 1 }
`

// A review's decisions, as a scenario pins them: retry_predecessor re-runs the named
// predecessor (a visit of it) and then the phase afresh (a visit too); past
// maxPredecessorRetries for that predecessor the phase completes; reject fails it.
func TestPlayReviewDecisions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answers map[string][]string
		steps   string
		status  sim.Status
		visits  map[string]int
		calls   map[string]int
	}{{
		name:    "retry_predecessor, then approve",
		answers: map[string][]string{"writing#review": {"retry_predecessor research", "approve"}},
		steps:   "research=completed facts=completed writing=completed writing=retry_predecessor research research=completed writing=completed writing=approve",
		status:  sim.Succeeded,
		visits:  map[string]int{"research": 2, "facts": 1, "writing": 2},
		calls:   map[string]int{"research": 2, "facts": 1, "writing": 2, "writing#review": 2},
	}, {
		name:    "the predecessor's re-run fails: the phase fails with it",
		answers: map[string][]string{"writing#review": {"retry_predecessor facts"}, "facts": {"ok", "fail"}},
		steps:   "research=completed facts=completed writing=completed writing=retry_predecessor facts facts=failed",
		status:  sim.Failed,
		visits:  map[string]int{"research": 1, "facts": 2, "writing": 1},
	}, {
		name:    "self-retries are counted afresh after the re-run; past maxPredecessorRetries the output stands",
		answers: map[string][]string{"writing#review": {"retry", "retry_predecessor research", "retry", "retry_predecessor research"}},
		steps: "research=completed facts=completed writing=completed writing=retry writing=completed writing=retry_predecessor research " +
			"research=completed writing=completed writing=retry writing=completed writing=retry_predecessor research",
		status: sim.Succeeded,
		calls:  map[string]int{"research": 2, "writing": 4, "writing#review": 4},
	}, {
		name:    "reject fails the phase",
		answers: map[string][]string{"writing#review": {"reject"}},
		steps:   "research=completed facts=completed writing=completed writing=reject",
		status:  sim.Failed,
	}, {
		name:    "unpinned, a review approves",
		answers: nil,
		steps:   "research=completed facts=completed writing=completed writing=approve",
		status:  sim.Succeeded,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			run, calls, err := playText(t, writing, tc.answers)
			if err != nil {
				t.Fatal(err)
			}
			if got := steps(run); got != tc.steps || run.Status != tc.status {
				t.Errorf("got %s → %v\nwant %s → %v", got, run.Status, tc.steps, tc.status)
			}
			if tc.visits != nil && !maps.Equal(run.Visits, tc.visits) {
				t.Errorf("visits %v, want %v", run.Visits, tc.visits)
			}
			for node, n := range tc.calls {
				if calls[node] != n {
					t.Errorf("%s was invoked %d times, want %d", node, calls[node], n)
				}
			}
		})
	}
}

// A stub worker process's decision is read as AgentEnsemble reads a review's output:
// its own text format, any case, feedback ignored; what it does not know, and a
// retry_predecessor naming no direct predecessor, is approve, and the run says so.
func TestPlayDecisionText(t *testing.T) {
	for text, want := range map[string]string{
		"RETRY_PREDECESSOR research: too thin": "writing=retry_predecessor research",
		"  Reject: off topic ":                 "writing=reject",
		"retry: more depth":                    "writing=retry",
		"looks good to me":                     "writing=approve",
		"RETRY_PREDECESSOR writing: loop":      "writing=approve",
		"RETRY_PREDECESSOR Research":           "writing=approve",
	} {
		run, _, err := playText(t, writing, map[string][]string{"writing#review": {text, "approve"}, "research": {"ok"}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(steps(run), "research=completed facts=completed writing=completed "+want) {
			t.Errorf("%q: got %s, want %s", text, steps(run), want)
		}
		noted := len(run.Notes) > 0
		if wantNote := strings.HasSuffix(want, "approve"); noted != wantNote {
			t.Errorf("%q: notes %q", text, run.Notes)
		}
	}
}

// A review answers a decision; anything else is the stub's error, never approve.
func TestPlayReviewAnswersADecision(t *testing.T) {
	m, _ := newMachine(phasesOf(decode(parse(t, writing))))
	stubs := &listStubs{answers: map[string][]sim.Answer{"writing#review": {{Kind: "fail", Reason: "x"}}}, calls: map[string]int{}}
	_, err := m.play(stubs, nil, 100)
	var se *sim.StubError
	if !errors.As(err, &se) || se.Node != "writing#review" {
		t.Errorf("got %v, want the review's stub error", err)
	}
}

// The review node accepts exactly the decisions that are outcomes of the review.
func TestReviewNode(t *testing.T) {
	m, _ := newMachine(phasesOf(decode(parse(t, writing))))
	n := m.nodes()["writing#review"]
	want := []string{"approve", "retry", "reject", "retry_predecessor research", "retry_predecessor facts"}
	if !slices.Equal(n.Decisions, want) || !slices.Equal(n.Outcomes, want) {
		t.Errorf("decisions %v, outcomes %v; want %v", n.Decisions, n.Outcomes, want)
	}
}
