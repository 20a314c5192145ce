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
