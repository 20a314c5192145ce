package ensemble_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// TestAgentEnsemble holds dws to AgentEnsemble's own tests, translated into ensemble files
// under testdata/agentensemble (MIT, with AgentEnsemble's license beside them): the
// validator and phase builder tests (validator.txtar: AgentEnsemble accepts the file or
// rejects it, and dws reports exactly the error rules named), the phase runs
// (runs.txtar: the file validates and a scenario run with the test's stubs ends, calls
// each node and visits the phases as the test asserts) and the review decision parser
// (decisions.tsv: a review's output text is the decision AgentEnsemble makes of it).
// It logs how many agree; every one must.
func TestAgentEnsemble(t *testing.T) {
	l, err := lint.New(dialect.Registry(), lint.DefaultConfig("."))
	if err != nil {
		t.Fatal(err)
	}
	v := validatorCases(t, l)
	r := runCases(t, l)
	d := decisionCases(t, l)
	t.Logf("AgentEnsemble's tests: %d of %d validator verdicts agree (%d with dws's exact rules), %d of %d runs, %d of %d decision methods",
		v.agree, v.total, v.exact, r.agree, r.total, d.agree, d.total)
}

type tally struct{ agree, exact, total int }

func archive(t *testing.T, name string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile("testdata/agentensemble/" + name)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Files) == 0 {
		t.Fatalf("%s holds no cases", name)
	}
	return a
}

// header is the value of each "# key: value" comment line of a case, by key.
func header(data []byte) map[string][]string {
	out := map[string][]string{}
	for _, line := range strings.Split(string(data), "\n") {
		rest, comment := strings.CutPrefix(line, "# ")
		k, v, ok := strings.Cut(rest, ": ")
		if comment && ok && (!strings.Contains(k, " ") || strings.HasPrefix(k, "stub ")) {
			out[k] = append(out[k], v)
		}
	}
	return out
}

// errorRules are the distinct rules of the error findings dws validate gives the file.
func errorRules(l *lint.Linter, name string, data []byte) []string {
	var out []string
	for _, d := range l.Run([]lint.Input{{Path: name, Data: data, Stdin: true}}).Diagnostics() {
		if d.Severity == lint.Error && !slices.Contains(out, d.Rule) {
			out = append(out, d.Rule)
		}
	}
	slices.Sort(out)
	return out
}

func validatorCases(t *testing.T, l *lint.Linter) tally {
	var n tally
	for _, f := range archive(t, "validator.txtar").Files {
		h := header(f.Data)
		verdict := strings.Fields(strings.Join(h["agentensemble"], ""))
		if len(verdict) == 0 || verdict[0] != "accepts" && verdict[0] != "rejects" {
			t.Fatalf("%s: no agentensemble: accepts|rejects line", f.Name)
		}
		want := strings.Fields(strings.Join(h["dws"], " "))
		slices.Sort(want)
		got := errorRules(l, f.Name, f.Data)
		n.total++
		if (len(got) > 0) != (verdict[0] == "rejects") {
			t.Errorf("%s: AgentEnsemble %s it; dws reports %v", f.Name, verdict[0], got)
			continue
		}
		n.agree++
		if !slices.Equal(got, want) {
			t.Errorf("%s: dws reports %v, want %v", f.Name, got, want)
			continue
		}
		n.exact++
	}
	return n
}

// stubs answer each node from its list, the last answer repeating, and count calls.
type stubs struct {
	answers map[string][]sim.Answer
	calls   map[string]int
}

func (s *stubs) Answer(c sim.Call) (sim.Answer, bool, error) {
	s.calls[c.Node]++
	list := s.answers[c.Node]
	if len(list) == 0 {
		return sim.Answer{}, false, nil
	}
	return list[min(s.calls[c.Node], len(list))-1], true, nil
}

// play validates the file, then runs it with the answers, each "ok", "fail" or a
// review's output text.
func play(l *lint.Linter, name string, data []byte, answers map[string][]string) (*sim.Run, map[string]int, error) {
	if errs := errorRules(l, name, data); len(errs) > 0 {
		return nil, nil, fmt.Errorf("dws validate reports %v", errs)
	}
	defs, err := l.Inspect(name, data).Simulate(sim.Options{})
	if err != nil || len(defs) != 1 {
		return nil, nil, fmt.Errorf("simulate: %d definitions, %w", len(defs), err)
	}
	s := &stubs{answers: map[string][]sim.Answer{}, calls: map[string]int{}}
	for node, list := range answers {
		for _, a := range list {
			switch a {
			case "ok", "fail":
				s.answers[node] = append(s.answers[node], sim.Answer{Kind: a, Reason: "stub"})
			default:
				s.answers[node] = append(s.answers[node], sim.Answer{Kind: "decision", Decision: a})
			}
		}
	}
	run, err := defs[0].Play(s, nil, 10_000)
	return run, s.calls, err
}

func runCases(t *testing.T, l *lint.Linter) tally {
	var n tally
	for _, f := range archive(t, "runs.txtar").Files {
		h := header(f.Data)
		answers := map[string][]string{}
		for k, vs := range h {
			if node, ok := strings.CutPrefix(k, "stub "); ok {
				for _, v := range vs {
					answers[node] = append(answers[node], strings.Split(v, " | ")...)
				}
			}
		}
		n.total++
		run, calls, err := play(l, f.Name, f.Data, answers)
		if err != nil {
			t.Errorf("%s: %v", f.Name, err)
			continue
		}
		var problems []string
		if want := strings.Join(h["agentensemble"], ""); run.Status.String() != want {
			problems = append(problems, fmt.Sprintf("the run %s, AgentEnsemble's %s", run.Status, want))
		}
		for _, c := range strings.Fields(strings.Join(h["calls"], " ")) {
			node, count, _ := strings.Cut(c, "=")
			if want, _ := strconv.Atoi(count); calls[node] != want {
				problems = append(problems, fmt.Sprintf("%s was called %d times, AgentEnsemble's %d", node, calls[node], want))
			}
		}
		if want := strings.Fields(strings.Join(h["path"], " ")); len(want) > 0 {
			var got []string
			for _, e := range run.Steps {
				if len(got) == 0 || got[len(got)-1] != e.Node {
					got = append(got, e.Node)
				}
			}
			if !slices.Equal(got, want) {
				problems = append(problems, fmt.Sprintf("the run visits %v, AgentEnsemble's %v", got, want))
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s: %s", f.Name, strings.Join(problems, "; "))
			continue
		}
		n.agree++
	}
	return n
}

const reviewed = `ensemble: decisions
phases:
  - { name: research, tasks: [ { name: gather, description: Gather } ] }
  - name: writing
    after: [research]
    tasks: [ { name: draft, description: Draft } ]
    review: { task: { name: edit, description: Edit }, maxRetries: 0, maxPredecessorRetries: 0 }
`

func decisionCases(t *testing.T, l *lint.Linter) tally {
	data, err := os.ReadFile("testdata/agentensemble/decisions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	agree := map[string]bool{}
	var methods []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		text, err := strconv.Unquote(cols[1])
		if len(cols) != 3 || err != nil {
			t.Fatalf("decisions.tsv: a bad line %q", line)
		}
		if _, seen := agree[cols[0]]; !seen {
			methods = append(methods, cols[0])
			agree[cols[0]] = true
		}
		run, _, err := play(l, "decisions.yaml", []byte(reviewed), map[string][]string{"writing#review": {text}})
		if err != nil {
			t.Fatalf("%s: %v", cols[0], err)
		}
		got := ""
		for _, e := range run.Steps {
			if e.Node == "writing" && e.Outcome != "completed" && e.Outcome != "failed" {
				got = e.Outcome
			}
		}
		if got != cols[2] {
			t.Errorf("%s: the review's output %q is decision %q in dws, %q in AgentEnsemble", cols[0], text, got, cols[2])
			agree[cols[0]] = false
		}
	}
	var n tally
	for _, m := range methods {
		n.total++
		if agree[m] {
			n.agree++
		}
	}
	return n
}
