package ensemble_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// validate runs dws validate's pipeline on text as one ensemble file and returns its
// findings as "rule@line:col", in order.
func validate(t *testing.T, text string) []string {
	t.Helper()
	l, err := lint.New(dialect.Registry(), lint.DefaultConfig("."))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range l.Run([]lint.Input{{Path: "ensemble.yaml", Data: []byte(text), Stdin: true}}).Diagnostics() {
		out = append(out, fmt.Sprintf("%s@%d:%d", d.Rule, d.Line, d.Column))
	}
	return out
}

// Under a flat HIERARCHICAL task list, AgentEnsemble's validateHierarchicalRoles: the
// role Manager in any case is reserved, and two tasks' agents may not share a role,
// compared in lower case (Java's, Locale.ROOT) and never trimmed; tasks without an
// agent are not checked; other workflows, and phases, never.
func TestHierarchicalRole(t *testing.T) {
	list := func(workflow string, agents ...string) string {
		var b strings.Builder
		b.WriteString("ensemble: x\n")
		if workflow != "" {
			b.WriteString("workflow: " + workflow + "\n")
		}
		b.WriteString("tasks:\n")
		for i, a := range agents {
			fmt.Fprintf(&b, "  - { name: t%d, description: d", i)
			if a != "-" {
				fmt.Fprintf(&b, ", agent: %q", a)
			}
			b.WriteString(" }\n")
		}
		return b.String()
	}
	for _, tc := range []struct {
		doc  string
		want []string
	}{
		{list("HIERARCHICAL", "Researcher", "Writer"), nil},
		{list("HIERARCHICAL", "Manager", "Worker"), []string{"hierarchical-role@4:40"}},
		{list("HIERARCHICAL", "Worker", "MANAGER"), []string{"hierarchical-role@5:40"}},
		{list("HIERARCHICAL", "manager", "Manager"), []string{"hierarchical-role@4:40", "hierarchical-role@5:40"}},
		{list("HIERARCHICAL", "Manager ", " Manager", "Managers"), nil},
		{list("HIERARCHICAL", "Researcher", "Researcher"), []string{"hierarchical-role@5:40"}},
		{list("HIERARCHICAL", "Researcher", "researcher", "RESEARCHER"), []string{"hierarchical-role@5:40", "hierarchical-role@6:40"}},
		{list("HIERARCHICAL", "Researcher", " Researcher"), nil},
		{list("HIERARCHICAL", "-", "-", "Worker"), nil},
		{list("HIERARCHICAL", "ΟΔΟΣ", "οδο\u03c3"), nil}, // Java lowers ΟΔΟΣ to οδος, with a final ς
		{list("HIERARCHICAL", "ΟΔΟΣ", "οδο\u03c2"), []string{"hierarchical-role@5:40"}},
		{list("HIERARCHICAL", "ΣΟΦΟΣ ΟΔΟΣ", "σοφος οδος"), []string{"hierarchical-role@5:40"}},
		{list("HIERARCHICAL", "İ", "i"), nil}, // Java: "i̇" ≠ "i"
		{list("HIERARCHICAL", "I", "i"), []string{"hierarchical-role@5:40"}},
		{list("", "Manager", "Manager"), nil},
		{list("SEQUENTIAL", "Manager", "Manager"), nil},
		{"ensemble: x\nworkflow: PARALLEL\nphases:\n  - { name: p, tasks: [ { name: a, description: d, agent: Manager } ] }\n", nil},
	} {
		if got := validate(t, tc.doc); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.doc, got, tc.want)
		}
	}
}
