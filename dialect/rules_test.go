package dialect_test

import (
	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/sim"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// TestRuleDocs runs every rule's documented examples, so that what dws explain shows is
// true: the failing example produces the rule, the passing one produces nothing at all.
func TestRuleDocs(t *testing.T) {
	reg := dialect.Registry()
	for _, r := range reg.Rules() {
		t.Run(r.ID, func(t *testing.T) {
			if r.Summary == "" || len(r.Doc) < 80 {
				t.Errorf("rule %s needs a summary and a real explanation", r.ID)
			}
			if r.Fail.Name == "" || r.Pass.Name == "" {
				t.Fatalf("rule %s needs a failing and a passing example", r.ID)
			}
			if r.Diff {
				if got := diffExample(t, reg, r.Fail); !slices.Contains(got, r.ID) {
					t.Errorf("the failing example of %s gives %q", r.ID, got)
				}
				if got := diffExample(t, reg, r.Pass); len(got) != 0 {
					t.Errorf("the passing example of %s gives %q", r.ID, got)
				}
				return
			}
			// The sim-* rules are reported by dws simulate: their examples are simulated.
			fail := runExample(t, reg, r.Fail, r.Sim)
			if !slices.ContainsFunc(fail, func(d lint.Diagnostic) bool { return d.Rule == r.ID }) {
				t.Errorf("the failing example of %s does not produce it; got %v", r.ID, fail)
			}
			if pass := runExample(t, reg, r.Pass, r.Sim); len(pass) != 0 {
				t.Errorf("the passing example of %s produces findings: %v", r.ID, pass)
			}
		})
	}
}

func runExample(t *testing.T, reg *lint.Registry, ex lint.Example, simulate bool) []lint.Diagnostic {
	t.Helper()
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range ex.Files {
		write(name, text)
	}
	if !ex.Missing {
		write(ex.Name, ex.Text)
	}
	cfg := lint.DefaultConfig(dir)
	if ex.Config != "" {
		write(lint.ConfigName, "version: 1\n"+ex.Config)
		var err error
		if cfg, err = lint.LoadConfig(filepath.Join(dir, lint.ConfigName), reg); err != nil {
			t.Fatalf("example config: %v", err)
		}
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatalf("example setup: %v", err)
	}
	if simulate {
		l.Simulation = &lint.SimulationOptions{MaxPaths: 100}
	}
	res := l.Run([]lint.Input{{Path: filepath.Join(dir, filepath.FromSlash(ex.Name))}})
	for _, f := range res.Files {
		if sm := f.Simulation; simulate && (sm == nil || sm.Skipped != "" || sm.Err != nil) {
			t.Fatalf("example %s was not simulated: %+v", ex.Name, sm)
		}
	}
	return res.Diagnostics()
}

// diffExample compares a diff rule's example with the OLD file it holds, as dws diff
// does, and returns the rules that fire: the version rule, and breaking-change for a
// breaking change.
func diffExample(t *testing.T, reg *lint.Registry, ex lint.Example) []string {
	t.Helper()
	l, err := lint.New(reg, lint.DefaultConfig(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	oldText, ok := ex.Files["old/"+ex.Name]
	if !ok {
		t.Fatalf("example %s has no old/%s", ex.Name, ex.Name)
	}
	old := l.Inspect("old/"+ex.Name, []byte(oldText)).Units()
	nw := l.Inspect(ex.Name, []byte(ex.Text)).Units()
	rep := change.Diff(old, nw, nil, sim.Options{})
	if len(rep.Units) != 1 || rep.Units[0].Verdict == nil {
		t.Fatalf("example %s: %+v", ex.Name, rep.Units)
	}
	var out []string
	if r := rep.Units[0].Verdict.Rule; r != "" {
		out = append(out, r)
	}
	if rep.Units[0].Class == change.Breaking {
		out = append(out, "breaking-change")
	}
	return out
}
