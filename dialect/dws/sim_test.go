package dws

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

func machineOf(t testing.TB, text string) *wmachine {
	t.Helper()
	doc, err := source.Parse("w.json", []byte(text), source.JSON)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := newWMachine(decodeWorkflow(doc.Root))
	if !ok {
		t.Fatal("no entry phase")
	}
	return m
}

// The loop decisions: a loop of max_iterations 2 turns at most twice; a third wanted
// turn is on_exhaustion's (escalate ends the run escalated).
func TestLoopCounts(t *testing.T) {
	m := machineOf(t, workflowExample(`"max_iterations": 3,`, `"max_iterations": 2,`))
	r, err := sim.Explore[wstate](m, sim.Options{}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Counted by hand: each of three rounds (0, 1 and 2 turns taken) ends in a draft
	// failure, a review failure or an exit (succeeded): 9 paths; then the run that wants
	// a third turn is escalated: 10 in all.
	want := map[sim.Status]int64{sim.Succeeded: 3, sim.Failed: 6, sim.Escalated: 1}
	for s, n := range want {
		if got := r.Counts.Of(s).Int64(); got != n {
			t.Errorf("%s: %d paths, want %d", s, got, n)
		}
	}
}

// A shadowed branch is dead, with the proof; the others stay.
func TestShadowedBranch(t *testing.T) {
	text := workflowExample(`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "conditional", "from": "draft", "branches": [
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 5 }, "to": "review" },
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 10 }, "to": "review" },
      { "condition": { "field": "$.output.score", "operator": "lt", "value": 0 }, "to": "review" } ], "default": "review" }`)
	doc, err := source.Parse("w.json", []byte(text), source.JSON)
	if err != nil {
		t.Fatal(err)
	}
	w := decodeWorkflow(doc.Root)
	var conds []cond
	for _, b := range items(w.transitions[0].node.Get("branches")) {
		c, _ := condOf(b.Get("condition"))
		conds = append(conds, c)
	}
	if len(conds) != 3 {
		t.Fatal("three branches")
	}
	// Run the same judgement the simulation runs, without a file to report on.
	_, dead, _ := branchOutputs(w.transitions[0], conds)
	if _, ok := dead[1]; !ok || len(dead) != 1 {
		t.Errorf("dead branches %v; want only branch 2 (gt 10 after gt 5)", dead)
	}
}

// BenchmarkSimulate counts and covers generated workflows: chains of 3,000, 30,000 and
// 100,000 phases, every tenth with a loop back over the ten before it and no global
// bound (SPEC §8.5: linear), and the 10,000-phase chain with a global bound of 3.
func BenchmarkSimulate(b *testing.B) {
	for _, tc := range []struct {
		n, global int
	}{{3000, 0}, {30000, 0}, {100000, 0}, {10000, 3}} {
		m := machineOf(b, chainWorkflow(tc.n, 2, tc.global, "proceed_with_warning"))
		b.Run(fmt.Sprintf("phases=%d/global=%d", tc.n, tc.global), func(b *testing.B) {
			for b.Loop() {
				if _, err := sim.Explore[wstate](m, sim.Options{}, 100, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Task dependencies: a hard or output dependency that failed skips the task; a soft one
// does not. a; b hard on a; c soft on a: 6 runs, 1 succeeded.
func TestTaskDependencies(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("jobspec.json", `{"name": "j", "version": "1.0.0"}`)
	write("tasks/a.json", `{"task_id": "a"}`)
	write("tasks/b.json", `{"task_id": "b", "dependencies": [{"task_id": "a", "type": "hard"}]}`)
	write("tasks/c.json", `{"task_id": "c", "dependencies": [{"task_id": "a", "type": "soft"}]}`)
	reg := lint.NewRegistry(Dialects()...)
	l := &lint.Linter{Registry: reg, Config: lint.DefaultConfig(dir), Simulation: &lint.SimulationOptions{MaxPaths: 100}}
	res := l.Run([]lint.Input{{Path: filepath.Join(dir, "jobspec.json")}})
	sm := res.Files[0].Simulation
	if sm == nil || len(sm.Definitions) != 1 {
		t.Fatalf("not simulated: %+v", sm)
	}
	r := sm.Definitions[0].Result
	if r.Counts.Total().Int64() != 6 || r.Counts.Of(sim.Succeeded).Int64() != 1 {
		t.Errorf("%v paths, %v succeeded; want 6 and 1", r.Counts.Total(), r.Counts.Of(sim.Succeeded))
	}
}
