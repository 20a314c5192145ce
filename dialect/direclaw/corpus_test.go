package direclaw_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// corpus is DireClaw's own example files (../shared/corpus/direclaw, MIT licensed), read in
// place and never copied into the project.
const corpus = "../../../shared/corpus/direclaw"

// TestCorpus runs the whole pipeline over DireClaw's example files and asserts exactly the
// findings the corpus README lists: rule ids, severities and counts, and the position of
// the dangling next: done. The direclaw-compat counts are one per offending key
// occurrence (SPEC §15): per workflow a missing description and a missing tags, per step
// a missing summary output, an agent_workspace, a write_state, and an inputs mapping.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the DireClaw corpus is absent (%s): %v", corpus, err)
	}
	want := map[string][]string{
		"current/minimal.orchestrator.yaml":     nil,
		"current/product.orchestrator.yaml":     nil,
		"current/engineering.orchestrator.yaml": {"257:15 error dangling-edge"},
		"initial/minimal.orchestrator.yaml": {
			"18:5 warning direclaw-compat", "18:5 warning direclaw-compat", // description, tags
			"25:25 warning direclaw-compat", // workspace_mode: agent_workspace
			"34:18 warning direclaw-compat", // no summary output
		},
		"initial/product.orchestrator.yaml": {
			"18:5 warning direclaw-compat", "18:5 warning direclaw-compat", // description, tags
			"21:7 warning direclaw-compat", // inputs is a mapping
			"23:9 warning direclaw-compat", // a step with no summary output
		},
		"initial/engineering.orchestrator.yaml": append(
			repeat("warning direclaw-compat", 4+7+2), // 2 workflows × (description, tags), 7 steps without summary, 2 write_state
			"205:15 error dangling-edge"),
	}
	l := &lint.Linter{Registry: dialect.Registry(), Config: lint.DefaultConfig("."), Jobs: 1}
	var inputs []lint.Input
	for name := range want {
		inputs = append(inputs, lint.Input{Path: filepath.Join(corpus, name)})
	}
	res := l.Run(inputs)
	if len(res.Files) != len(want) {
		t.Fatalf("got results for %d files, want %d", len(res.Files), len(want))
	}
	for _, fr := range res.Files {
		name, _ := filepath.Rel(corpus, fr.Path)
		name = filepath.ToSlash(name)
		if fr.Dialect != "direclaw" {
			t.Errorf("%s: detected as %q, want direclaw", name, fr.Dialect)
		}
		exp, ok := want[name]
		if !ok {
			t.Errorf("unexpected file %s", fr.Path)
			continue
		}
		var got []string
		for _, d := range fr.Diagnostics {
			got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Rule))
		}
		if !match(got, exp) {
			var all []string
			for _, d := range fr.Diagnostics {
				all = append(all, d.String())
			}
			t.Errorf("%s: findings differ\nwant %q\ngot:\n%s", name, exp, strings.Join(all, "\n"))
		}
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// match compares findings as multisets; an expectation without a position ("warning
// direclaw-compat") matches a finding of that severity and rule anywhere.
func match(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	got = slices.Clone(got)
	// Positioned expectations first, so a positionless one cannot take their finding.
	want = slices.Clone(want)
	slices.SortStableFunc(want, func(a, b string) int {
		return strings.Compare(fmt.Sprint(!strings.Contains(a, ":")), fmt.Sprint(!strings.Contains(b, ":")))
	})
	for _, w := range want {
		i := slices.IndexFunc(got, func(g string) bool { return g == w || strings.HasSuffix(g, " "+w) && !strings.Contains(w, ":") })
		if i < 0 {
			return false
		}
		got = slices.Delete(got, i, i+1)
	}
	return true
}

// TestCorpusSimulation simulates DireClaw's example files. Those that validate have one
// workflow of one agent_task with no routes, so, by hand: complete ends the run succeeded
// (it is the last step), blocked and failed end it failed (no on_blocked, no on_failed):
// 3 paths, 1 succeeded, 2 failed, each path its own edge, and one sim-unhandled-failure at
// the step. engineering does not validate (its next: done) and is not simulated; with
// dangling-edge turned off the dangling next is dropped, as the graph drops it, and its
// code_with_reviews workflow (limit 12) is counted by hand in the comment below.
func TestCorpusSimulation(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the DireClaw corpus is absent (%s): %v", corpus, err)
	}
	type def struct {
		workflow, counts string
		minimal          bool
	}
	one := func(w string) []def { return []def{{w, "3 1 2", true}} }
	for _, tc := range []struct {
		file     string
		off      string // a rule turned off
		skipped  string
		defs     []def
		findings []string
	}{
		{file: "current/minimal.orchestrator.yaml", defs: one("minimal_single_agent"), findings: []string{"24:13 info sim-unhandled-failure"}},
		{file: "current/product.orchestrator.yaml", defs: one("product_default"), findings: []string{"24:13 info sim-unhandled-failure"}},
		{file: "initial/minimal.orchestrator.yaml", defs: one("minimal_single_agent"), findings: []string{"22:13 info sim-unhandled-failure"}},
		{file: "initial/product.orchestrator.yaml", defs: one("product_default"), findings: []string{"23:13 info sim-unhandled-failure"}},
		{file: "current/engineering.orchestrator.yaml", skipped: "it does not validate"},
		{file: "initial/engineering.orchestrator.yaml", skipped: "it does not validate"},
		// code_with_reviews: clone (visit 1), then a plan rounds of plan_create and
		// plan_review ending in an approve, b rounds of build_create and build_review
		// ending in an approve, and create_pull_request: 2+2a+2b visits ≤ 12, so the
		// runs that succeed are the 10 pairs a, b ≥ 1 with a+b ≤ 5. The failed ones end
		// at clone (2: blocked, failed), plan_create at visits 2, 4, …, 12 (2 each, and
		// at 12 its complete is refused: 13), plan_review at 3, …, 11 (invalid: 5),
		// build_create at visit v reached by (v-2)/2 runs for v = 4, …, 12 (2 each:
		// 30, and the 5 runs at 12 cannot go on: 35), build_review at 5, …, 11 (1+2+3+4
		// runs, invalid: 10), create_pull_request (10 runs, blocked or failed: 20):
		// 85 failed, 95 paths.
		{file: "current/engineering.orchestrator.yaml", off: "dangling-edge",
			defs: []def{{"engineering_default", "3 1 2", true}, {"code_with_reviews", "95 10 85", false}},
			findings: []string{
				"44:13 info sim-unhandled-failure", "71:13 info sim-unhandled-failure",
				"95:13 warning sim-max-iterations", "95:13 info sim-unhandled-failure",
				"163:13 warning sim-max-iterations", "163:13 info sim-unhandled-failure",
				"234:13 info sim-unhandled-failure",
			}},
	} {
		t.Run(tc.file+" "+tc.off, func(t *testing.T) {
			cfg := lint.DefaultConfig(".")
			if tc.off != "" {
				cfg.Rules[tc.off] = lint.Off
			}
			l := &lint.Linter{Registry: dialect.Registry(), Config: cfg, Jobs: 1, Simulation: &lint.SimulationOptions{MaxPaths: 100}}
			res := l.Run([]lint.Input{{Path: filepath.Join(corpus, tc.file)}})
			sm := res.Files[0].Simulation
			if sm == nil || sm.Err != nil || sm.Skipped != tc.skipped {
				t.Fatalf("simulation %+v, want skipped %q", sm, tc.skipped)
			}
			if len(sm.Definitions) != len(tc.defs) {
				t.Fatalf("%d definitions, want %d", len(sm.Definitions), len(tc.defs))
			}
			for i, d := range sm.Definitions {
				r := d.Result
				got := def{d.Workflow, fmt.Sprint(r.Counts.Total(), r.Counts.Of(sim.Succeeded), r.Counts.Of(sim.Failed)), r.Minimal}
				if got != tc.defs[i] || d.Pointer != fmt.Sprintf("/workflows/%d", i) {
					t.Errorf("definition %d: %+v at %s, want %+v", i, got, d.Pointer, tc.defs[i])
				}
			}
			var got []string
			for _, d := range res.Files[0].Diagnostics {
				if strings.HasPrefix(d.Rule, "sim-") {
					got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Severity, d.Rule))
				}
			}
			if !slices.Equal(got, tc.findings) {
				t.Errorf("findings %q, want %q", got, tc.findings)
			}
		})
	}
}
