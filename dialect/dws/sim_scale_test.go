package dws

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// chainWorkflow is n phases in a chain, every tenth with a loop back over the ten
// phases before it (max_iterations turns, then on_exhaustion). global is
// global_constraints.max_iterations, 0 for none.
func chainWorkflow(n, turns, global int, exhaustion string) string {
	var phases, transitions []string
	for i := range n {
		phases = append(phases, fmt.Sprintf(`{"id": "p%d"}`, i))
		if i+1 < n {
			transitions = append(transitions, fmt.Sprintf(`{"type": "sequential", "from": "p%d", "to": "p%d"}`, i, i+1))
		}
		if i%10 == 9 {
			transitions = append(transitions, fmt.Sprintf(
				`{"type": "loop", "from": "p%d", "to": "p%d", "max_iterations": %d, "on_exhaustion": %q}`, i, i-9, turns, exhaustion))
		}
	}
	g := ""
	if global > 0 {
		g = fmt.Sprintf(`"global_constraints": {"max_iterations": %d}, `, global)
	}
	return `{"entry_phase": "p0", ` + g + `"phases": [` + strings.Join(phases, ",") +
		`], "transitions": [` + strings.Join(transitions, ",") + `]}`
}

func explore(t testing.TB, text string) *sim.Result {
	t.Helper()
	r, err := sim.Explore[wstate](machineOf(t, text), sim.Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func wantCounts(t *testing.T, r *sim.Result, want map[sim.Status]*big.Int) {
	t.Helper()
	for _, s := range sim.Statuses() {
		w := want[s]
		if w == nil {
			w = new(big.Int)
		}
		if got := r.Counts.Of(s); got.Cmp(w) != 0 {
			t.Errorf("%s: %s paths, want %s", s, got, w)
		}
	}
}

// A chain of 3,000 phases with a loop every ten and no global bound: nothing bounds the
// turns of all loops together, so the state keeps no such number, and the counts are the
// closed form. A ten-phase segment is left by exit after t = 0…L turns or by the turn
// past L, exhausted and proceeding (W = L+2 ways), and a run fails at any of its ten
// phases on any of its L+1 rounds: succeeded W^S, failed 10(L+1)(W^S - 1)/(W - 1) =
// 10(W^S - 1) for S segments.
func TestLongChainOfLoops(t *testing.T) {
	const n, L = 3000, 2
	r := explore(t, chainWorkflow(n, L, 0, "proceed_with_warning"))
	ways := new(big.Int).Exp(big.NewInt(L+2), big.NewInt(n/10), nil)
	failed := new(big.Int).Sub(ways, big.NewInt(1))
	failed.Mul(failed, big.NewInt(10))
	wantCounts(t, r, map[sim.Status]*big.Int{sim.Succeeded: ways, sim.Failed: failed})
	if c := r.Coverable(); c != len(r.Edges) {
		t.Errorf("%d of %d edges coverable; want all", c, len(r.Edges))
	}
}

// A loop may turn 300 times (more than a byte counts): one phase looping on itself, each
// of the 301 rounds failing or exiting, and the run that wants a 301st turn escalated.
func TestManyTurns(t *testing.T) {
	const turns = 300
	text := fmt.Sprintf(`{"entry_phase": "a", "phases": [{"id": "a"}], "transitions": [
	  {"type": "loop", "from": "a", "to": "a", "max_iterations": %d, "on_exhaustion": "escalate"}]}`, turns)
	r := explore(t, text)
	wantCounts(t, r, map[sim.Status]*big.Int{
		sim.Succeeded: big.NewInt(turns + 1), sim.Failed: big.NewInt(turns + 1), sim.Escalated: big.NewInt(1)})
}

// With a global bound, it is what ends the long chain: the loops may turn 3 times in all.
// Counted by a dynamic programme of its own over (segment, turns left in all).
func TestChainGlobalBound(t *testing.T) {
	const n, L, G = 200, 2, 3
	r := explore(t, chainWorkflow(n, L, G, "proceed_with_warning"))
	segs := n / 10
	// ok[s][g]: runs from the start of segment s with g global turns used that pass
	// the rest; fail[s][g]: those that fail.
	type pair struct{ ok, fail *big.Int }
	memo := map[[2]int]pair{}
	var from func(s, g int) pair
	from = func(s, g int) pair {
		if s == segs {
			return pair{big.NewInt(1), new(big.Int)}
		}
		if v, ok := memo[[2]int{s, g}]; ok {
			return v
		}
		ok, fail := new(big.Int), new(big.Int)
		// t turns taken in this segment: each round may fail at any of its 10 phases;
		// after round t the run exits (t < L, g+t < G), or wants another turn that
		// either bound refuses (proceed), or turns.
		for t := 0; ; t++ {
			fail.Add(fail, big.NewInt(10))
			rest := from(s+1, g+t)
			ok.Add(ok, rest.ok)
			fail.Add(fail, rest.fail)
			if t == L || g+t == G {
				// the wanted turn is refused and the run proceeds: a path of its own
				ok.Add(ok, rest.ok)
				fail.Add(fail, rest.fail)
				break
			}
		}
		v := pair{ok, fail}
		memo[[2]int{s, g}] = v
		return v
	}
	want := from(0, 0)
	wantCounts(t, r, map[sim.Status]*big.Int{sim.Succeeded: want.ok, sim.Failed: want.fail})
}

// Two loops from one phase are both simulated, each with its own turns: after b passes,
// loop 1 decides (again to a, or exit), then loop 2 (again to b, or exit). Two
// on_timeout routes to different phases are two outcomes.
func TestTwoLoopsFromOnePhase(t *testing.T) {
	text := `{"entry_phase": "a", "phases": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "transitions": [
	  {"type": "sequential", "from": "a", "to": "b"},
	  {"type": "loop", "from": "b", "to": "a", "max_iterations": 1, "on_exhaustion": "abort"},
	  {"type": "loop", "from": "b", "to": "b", "max_iterations": 1, "on_exhaustion": "escalate"},
	  {"type": "sequential", "from": "c", "to": "a", "on_timeout": "a"},
	  {"type": "handoff", "from": "c", "to": "b", "on_timeout": "b"}]}`
	r := explore(t, text)
	// By hand. From a with loop 1 having t1 turns and loop 2 t2 turns: a fails (1), or
	// passes and b fails (1), or b passes and then: loop 1 again (t1 < 1) back to a;
	// loop 1 wants again past its bound (t1 = 1): aborted; loop 1 exits and loop 2 again
	// (t2 < 1) back to b; exhausted (t2 = 1): escalated; exits: the run succeeded (b has
	// no routing).
	type key struct {
		atB    bool
		t1, t2 int
	}
	var count func(k key) map[sim.Status]int64
	count = func(k key) map[sim.Status]int64 {
		out := map[sim.Status]int64{}
		add := func(m map[sim.Status]int64) {
			for s, n := range m {
				out[s] += n
			}
		}
		if !k.atB {
			out[sim.Failed]++ // a fails
		}
		out[sim.Failed]++ // b fails
		// loop 1
		if k.t1 < 1 {
			add(count(key{false, k.t1 + 1, k.t2}))
		} else {
			out[sim.Aborted]++
		}
		// loop 1 exits; loop 2
		if k.t2 < 1 {
			add(count(key{true, k.t1, k.t2 + 1}))
		} else {
			out[sim.Escalated]++
		}
		out[sim.Succeeded]++
		return out
	}
	want := map[sim.Status]*big.Int{}
	for s, n := range count(key{}) {
		want[s] = big.NewInt(n)
	}
	wantCounts(t, r, want)
	edges := map[string]bool{}
	for _, e := range r.Edges {
		edges[e.String()] = e.Coverable
	}
	for _, e := range []string{"b:loop 1 again", "b:loop 1 exit", "b:loop 1 exhausted", "b:loop 2 again", "b:loop 2 exit", "b:loop 2 exhausted"} {
		if !edges[e] {
			t.Errorf("edge %s: not a coverable edge of the simulation (edges: %v)", e, edges)
		}
	}
	// c is unreachable from the entry, so its routes are not explored; simulate from it.
	text2 := strings.Replace(text, `"entry_phase": "a"`, `"entry_phase": "c"`, 1)
	r2 := explore(t, text2)
	seen := map[string]bool{}
	for _, e := range r2.Edges {
		seen[e.String()] = e.Coverable
	}
	for _, e := range []string{"c:on_timeout", "c:on_timeout 2"} {
		if !seen[e] {
			t.Errorf("edge %s: not a coverable edge of the simulation (edges: %v)", e, seen)
		}
	}
}

// A conditional whose fields take more combinations of values than the search tries
// says so on the covering paths through it, naming the bound, instead of showing no
// stub output without a word.
func TestConditionalSearchBound(t *testing.T) {
	var branches []string
	for j := range 7 {
		branches = append(branches, fmt.Sprintf(`{ "condition": { "field": "$.output.f%d", "operator": "gt", "value": %d }, "to": "review" }`, j, j))
	}
	text := workflowExample(`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "conditional", "from": "draft", "branches": [`+strings.Join(branches, ",")+`], "default": "review" }`)
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &lint.Linter{Registry: lint.NewRegistry(Dialects()...), Config: lint.DefaultConfig(dir), Simulation: &lint.SimulationOptions{MaxPaths: 100}}
	res := l.Run([]lint.Input{{Path: path}})
	sm := res.Files[0].Simulation
	if sm == nil || len(sm.Definitions) != 1 {
		t.Fatalf("not simulated: %+v %v", sm, res.Files[0].Diagnostics)
	}
	through := 0
	for _, p := range sm.Definitions[0].Result.Cover {
		for _, st := range p.Steps {
			if st.Node == "draft" && (strings.HasPrefix(st.Outcome, "branch ") || st.Outcome == "default") {
				through++
				if !strings.Contains(p.Note, "more than 4096 combinations") {
					t.Errorf("path through draft:%s: note %q, context %v; want the search's bound named", st.Outcome, p.Note, p.Context)
				}
				break
			}
		}
	}
	if through == 0 {
		t.Error("no covering path takes the conditional")
	}
}

// A phase looping on itself is one shown outcome per run of it: its own outcome starts
// a new one even at the same phase.
func TestFoldSelfLoop(t *testing.T) {
	m := machineOf(t, `{"entry_phase": "a", "phases": [{"id": "a"}], "transitions": [
	  {"type": "loop", "from": "a", "to": "a", "max_iterations": 2, "on_exhaustion": "escalate"}]}`)
	steps := []sim.Edge{{Node: "a", Outcome: "pass"}, {Node: "a", Outcome: "again"}, {Node: "a", Outcome: "pass"},
		{Node: "a", Outcome: "exit"}, {Node: "a", Outcome: "done"}}
	var got []string
	for _, o := range m.fold(steps) {
		got = append(got, fmt.Sprintf("%s=%s/%d", o.Node, o.Label, len(o.Steps)))
	}
	if strings.Join(got, ", ") != "a=pass+again/2, a=pass+exit/3" {
		t.Errorf("folded %v", got)
	}
}

// loop-target searches each loop's body only, and still finds the way back wherever it
// goes: through a fork of the graph, a cycle of other transitions, or not at all.
func TestLoopTargetSearch(t *testing.T) {
	for _, tc := range []struct {
		name, transitions string
		findings          int
	}{
		{"chain", `{"type": "sequential", "from": "a", "to": "b"}, {"type": "sequential", "from": "b", "to": "c"},
			{"type": "loop", "from": "c", "to": "a", "max_iterations": 2}`, 0},
		{"forward", `{"type": "sequential", "from": "a", "to": "b"}, {"type": "sequential", "from": "b", "to": "c"},
			{"type": "loop", "from": "a", "to": "c", "max_iterations": 2}`, 1},
		{"detour", `{"type": "sequential", "from": "a", "to": "d"}, {"type": "sequential", "from": "d", "to": "c"},
			{"type": "sequential", "from": "c", "to": "b"}, {"type": "sequential", "from": "a", "to": "b"},
			{"type": "loop", "from": "b", "to": "a", "max_iterations": 2}`, 0},
		{"cycle", `{"type": "sequential", "from": "a", "to": "b"}, {"type": "sequential", "from": "b", "to": "a"},
			{"type": "sequential", "from": "b", "to": "c"}, {"type": "loop", "from": "b", "to": "a", "max_iterations": 2},
			{"type": "loop", "from": "a", "to": "c", "max_iterations": 2}`, 1},
		{"self", `{"type": "loop", "from": "a", "to": "a", "max_iterations": 2}`, 0},
	} {
		var phases []string
		for _, id := range []string{"a", "b", "c", "d"} {
			phases = append(phases, fmt.Sprintf(`{"id": %q, "name": %q, "purpose": "p", "worker_assignment": {"role": "r"}, "exit_conditions": []}`, id, id))
		}
		text := `{"name": "w", "version": "1.0.0", "description": "d", "entry_phase": "a", "phases": [` + strings.Join(phases, ",") +
			`], "transitions": [` + tc.transitions + `], "exit_conditions": {}}`
		n := 0
		for _, d := range lintText(t, text) {
			if d.Rule == "loop-target" {
				n++
			}
		}
		if n != tc.findings {
			t.Errorf("%s: %d loop-target findings, want %d", tc.name, n, tc.findings)
		}
	}
}

// lintText validates text as a workflow file and returns its findings.
func lintText(t *testing.T, text string) []lint.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &lint.Linter{Registry: lint.NewRegistry(Dialects()...), Config: lint.DefaultConfig(dir)}
	return l.Run([]lint.Input{{Path: path}}).Files[0].Diagnostics
}
