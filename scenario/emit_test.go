package scenario_test

import (
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/scenario"
)

// An emitted scenario's file names stay plain and apart: nothing climbs out of the
// directory or hides in it, and no two definitions share a stem, even without case.
func TestStems(t *testing.T) {
	var s scenario.Stems
	got := []string{
		s.Stem("flows/expense.json", ""),
		s.Stem("flows/studio.yaml", "/../../escaped/x"),
		s.Stem("flows/studio.yaml", "a/b"),
		s.Stem("flows/studio.yaml", "a_b"),
		s.Stem("a/orchestrator.yaml", "main"),
		s.Stem("b/orchestrator.yaml", "main"),
		s.Stem("B/Orchestrator.yaml", "main"),
		s.Stem("flows/.hidden.yaml", ""),
		s.Stem("flows/-rf.yaml", ""),
		s.Stem("flows/nl\nexpect: x.yaml", ""),
		s.Stem("flows/expense.json", ""), // the same definition again: the same stem
		s.Stem("flows/long.yaml", strings.Repeat("x", 300)),
	}
	want := []string{"expense", "studio-_.._.._escaped_x", "studio-a_b", "flows_studio-a_b", "orchestrator-main", "b_orchestrator-main"}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("stem %d = %q, want %q", i, got[i], w)
		}
	}
	seen := map[string]bool{}
	for i, g := range got[:len(got)-2] {
		if seen[strings.ToLower(g)] {
			t.Errorf("stem %d %q is another's", i, g)
		}
		seen[strings.ToLower(g)] = true
		if g == "" || g[0] == '.' || g[0] == '-' || strings.ContainsAny(g, "/\\\n: ") {
			t.Errorf("stem %d %q is not plain", i, g)
		}
	}
	if got[10] != got[0] {
		t.Errorf("the same definition got %q, then %q", got[0], got[10])
	}
	if long := got[len(got)-1]; len(long) > 160 {
		t.Errorf("a stem of %d bytes", len(long))
	}
}

// A node id may hold '=': expect.path reads the entry as that node, or splits it after
// the longest node id it starts with, so a scenario dws simulate emits for such a
// definition names its nodes.
func TestPathEntryWithEquals(t *testing.T) {
	dir := project(t, map[string]string{
		"ens.yaml": "ensemble: e\nphases:\n  - { name: \"k=v\", tasks: [{ name: t, description: d }] }\n" +
			"  - { name: k, after: [\"k=v\"], tasks: [{ name: u, description: d }] }\n",
		"a.scenario.yaml": "definition: ens.yaml\nexpect: { status: succeeded, path: [\"k=v=completed\", k=completed] }\n",
		"b.scenario.yaml": "definition: ens.yaml\nexpect: { status: succeeded, path: [\"k=v\", k] }\n",
		"c.scenario.yaml": "definition: ens.yaml\nexpect: { path: [\"k=v=failed\"] }\n",
	})
	s := runSuite(t, dir, time.Second)
	for _, o := range s.Outcomes {
		if o.Passed != (o.Scenario.Name != "c") {
			t.Errorf("%s: passed %v: %v %+v", o.Scenario.Name, o.Passed, o.Failures, o.Diagnostics)
		}
	}
	if c := s.Outcomes[2]; len(c.Diagnostics) > 0 || c.FirstDiff != 0 {
		t.Errorf("c: the path should differ at its first visit, and name known nodes: %+v", c)
	}
}
