package lint_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// toy is a dialect of files with a top-level "toy" key, made only of the parts a test
// hands it. It has no embedded schema, so runToy leaves out the schema stage's finding
// that says so.
func toy(rules []*lint.Rule, checks ...lint.Check) *lint.Dialect {
	return &lint.Dialect{
		ID:     "toy",
		Detect: func(doc *source.Document) bool { return doc.Root.Has("toy") },
		Decode: func(doc *source.Document) any { return doc.Root.Get("toy").Text },
		Rules:  rules,
		Checks: checks,
	}
}

func toyRule(id string, check func(p *lint.Pass)) *lint.Rule {
	return &lint.Rule{ID: id, Severity: lint.Error, Summary: id, Check: check}
}

func writeToy(t *testing.T, dir, config string) string {
	t.Helper()
	path := filepath.Join(dir, "a.json")
	if err := os.WriteFile(path, []byte(`{"toy": "x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, lint.ConfigName), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

func runToy(t *testing.T, reg *lint.Registry, dir, config string) *lint.Result {
	t.Helper()
	path := writeToy(t, dir, config)
	cfg := lint.DefaultConfig(dir)
	if config != "" {
		var err error
		if cfg, err = lint.LoadConfig(filepath.Join(dir, lint.ConfigName), reg); err != nil {
			t.Fatal(err)
		}
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res := l.Run([]lint.Input{{Path: path}})
	for i := range res.Files {
		ds := res.Files[i].Diagnostics[:0]
		for _, d := range res.Files[i].Diagnostics {
			if d.Rule != "schema" {
				ds = append(ds, d)
			}
		}
		res.Files[i].Diagnostics = ds
	}
	return res
}

// A rule's check runs, with the model Decode made, unless the rule is turned off; then
// it does not run at all.
func TestRuleOffDoesNotRun(t *testing.T) {
	var calls atomic.Int32
	var model any
	rule := toyRule("toy-rule", func(p *lint.Pass) {
		calls.Add(1)
		model = p.Model
		p.Report("toy-rule", "/toy", "found")
	})
	reg := lint.NewRegistry(toy([]*lint.Rule{rule}))

	res := runToy(t, reg, t.TempDir(), "")
	if calls.Load() != 1 || model != "x" {
		t.Fatalf("check ran %d times with model %v; want once with the decoded model", calls.Load(), model)
	}
	if d := res.Diagnostics(); len(d) != 1 || d[0].Rule != "toy-rule" || d[0].Line != 1 || d[0].Column != 9 {
		t.Fatalf("got %v; want one toy-rule finding at 1:9", d)
	}

	calls.Store(0)
	res = runToy(t, reg, t.TempDir(), "rules: { toy-rule: off }\n")
	if calls.Load() != 0 || len(res.Diagnostics()) != 0 {
		t.Fatalf("an off rule ran %d times and reported %v", calls.Load(), res.Diagnostics())
	}
}

// A check of several rules runs while any of them is on.
func TestFamilyCheckRunsWhileOneRuleIsOn(t *testing.T) {
	var calls atomic.Int32
	check := lint.Check{Rules: []string{"toy-a", "toy-b"}, Run: func(p *lint.Pass) {
		calls.Add(1)
		p.Report("toy-a", "", "a")
		p.Report("toy-b", "", "b")
	}}
	reg := lint.NewRegistry(toy([]*lint.Rule{toyRule("toy-a", nil), toyRule("toy-b", nil)}, check))
	res := runToy(t, reg, t.TempDir(), "rules: { toy-a: off }\n")
	if d := res.Diagnostics(); calls.Load() != 1 || len(d) != 1 || d[0].Rule != "toy-b" {
		t.Fatalf("ran %d times, got %v; want one run and only toy-b", calls.Load(), d)
	}
	calls.Store(0)
	runToy(t, reg, t.TempDir(), "rules: { toy-a: off, toy-b: off }\n")
	if calls.Load() != 0 {
		t.Fatal("a check whose rules are all off ran")
	}
}

// Reporting a rule that is not registered, or one the running check does not declare,
// is a bug in dws: the run stops with a *PanicError naming the file (exit 3), never a
// finding under an id nobody can configure.
func TestUndeclaredRulePanics(t *testing.T) {
	for name, report := range map[string]string{"unregistered": "no-such-rule", "undeclared": "dangling-edge"} {
		t.Run(name, func(t *testing.T) {
			reg := lint.NewRegistry(toy([]*lint.Rule{toyRule("toy-rule", func(p *lint.Pass) {
				p.Report(report, "", "oops")
			})}))
			defer func() {
				var pe *lint.PanicError
				if err, ok := recover().(error); !ok || !errors.As(err, &pe) {
					t.Fatalf("recovered %v; want a *lint.PanicError", err)
				}
				if !strings.HasSuffix(pe.File, "a.json") || !strings.Contains(pe.Error(), report) {
					t.Fatalf("panic %q does not name the file and the rule", pe.Error())
				}
				if want := `rule toy-rule reported rule "dangling-edge", which it does not declare`; name == "undeclared" && !strings.Contains(pe.Error(), want) {
					t.Fatalf("panic %q does not say %s", pe.Error(), want)
				}
			}()
			runToy(t, reg, t.TempDir(), "")
			t.Fatal("Run returned")
		})
	}
}

// A panic in one of many files, on any goroutine, reaches the caller.
func TestPanicInParallelRunReachesCaller(t *testing.T) {
	reg := lint.NewRegistry(toy([]*lint.Rule{toyRule("toy-rule", func(p *lint.Pass) {
		if strings.HasSuffix(p.Path, "f07.json") {
			panic("boom")
		}
	})}))
	dir := t.TempDir()
	var inputs []lint.Input
	for i := range 16 {
		p := filepath.Join(dir, fmt.Sprintf("f%02d.json", i))
		if err := os.WriteFile(p, []byte(`{"toy": 1}`), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, lint.Input{Path: p})
	}
	l := &lint.Linter{Registry: reg, Config: lint.DefaultConfig(dir), Jobs: 4}
	defer func() {
		pe, ok := recover().(*lint.PanicError)
		if !ok || pe.Value != "boom" || !strings.HasSuffix(pe.File, "f07.json") {
			t.Fatalf("recovered %#v; want the panic of f07.json", pe)
		}
	}()
	l.Run(inputs)
	t.Fatal("Run returned")
}

// No two dialects may own one config section, and none may own a core key.
func TestConfigSectionOwnedOnce(t *testing.T) {
	section := map[string]lint.SectionParser{"shared": func(*source.Node, string) (any, error) { return nil, nil }}
	a, b := toy(nil), toy(nil)
	a.ID, b.ID, a.Config, b.Config = "one", "two", section, section
	mustPanic(t, "two owners", func() { lint.NewRegistry(a, b) })
	c := toy(nil)
	c.Config = map[string]lint.SectionParser{"rules": section["shared"]}
	mustPanic(t, "a core key", func() { lint.NewRegistry(c) })
	d := toy(nil, lint.Check{Rules: []string{"never-registered"}, Run: func(*lint.Pass) {}})
	mustPanic(t, "a check of an unknown rule", func() { lint.NewRegistry(d) })
}

func mustPanic(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	fn()
}

// A config section gets the section's node with positions; a problem it reports at a
// value is placed there, with the config's path.
func TestConfigSectionPositions(t *testing.T) {
	d := toy(nil)
	d.Config = map[string]lint.SectionParser{"toy": func(n *source.Node, _ string) (any, error) {
		return nil, lint.ConfigErrorAt(n.Get("level"), "toy.level: too high")
	}}
	reg := lint.NewRegistry(d)
	_, err := lint.ParseConfig("/p/.dws.yaml", []byte("version: 1\ntoy:\n  level: 11\n"), reg)
	var ce *lint.ConfigError
	if !errors.As(err, &ce) || ce.Path != "/p/.dws.yaml" || ce.Line != 3 || ce.Column != 10 {
		t.Fatalf("got %v; want /p/.dws.yaml:3:10", err)
	}
}

// Duplicate keys are a config error at every level, at the second key.
func TestConfigDuplicateKeysAtEveryLevel(t *testing.T) {
	reg := lint.NewRegistry(toy([]*lint.Rule{toyRule("toy-rule", nil)}))
	for text, line := range map[string]int{
		"rules: { toy-rule: error }\nrules: {}\n":                           2,
		"rules:\n  toy-rule: error\n  toy-rule: off\n":                      3,
		"limits: { max_steps: 5, max_steps: 6 }\n":                          1,
		"ignore:\n  - { path: a, path: b, rules: [toy-rule], reason: r }\n": 2,
	} {
		_, err := lint.ParseConfig("c.yaml", []byte(text), reg)
		var ce *lint.ConfigError
		if !errors.As(err, &ce) || ce.Line != line || !strings.Contains(ce.Msg, "duplicate") {
			t.Errorf("%q: got %v; want a duplicate-key error on line %d", text, err, line)
		}
	}
}

// What a run learns about bundles lives only as long as the run: a long-lived linter
// (the language server) sees a job spec appear and go.
func TestBundleStateIsPerRun(t *testing.T) {
	dir := t.TempDir()
	var seen atomic.Int32
	d := toy(nil)
	d.Bundle = &lint.Bundle{
		Root: func(p string) (string, bool) {
			_, err := os.Stat(filepath.Join(dir, "bundle.marker"))
			return dir, err == nil && strings.HasPrefix(p, dir)
		},
		Files: func(root string) ([]string, []string, error) {
			return []string{filepath.Join(root, "a.json")}, nil, nil
		},
		Check: func(string, []*lint.File) { seen.Add(1) },
	}
	reg := lint.NewRegistry(d)
	path := writeToy(t, dir, "")
	l := &lint.Linter{Registry: reg, Config: lint.DefaultConfig(dir)}
	l.Run([]lint.Input{{Path: path}})
	if seen.Load() != 0 {
		t.Fatal("a bundle was checked before it existed")
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.marker"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l.Run([]lint.Input{{Path: path}})
	if seen.Load() != 1 {
		t.Fatal("the second run did not see the bundle that appeared")
	}
	if err := os.Remove(filepath.Join(dir, "bundle.marker")); err != nil {
		t.Fatal(err)
	}
	l.Run([]lint.Input{{Path: path}})
	if seen.Load() != 1 {
		t.Fatal("the third run still saw the bundle that went")
	}
}

// number-precision points at each number beyond ±2^53, wherever it is.
func TestNumberPrecisionPointers(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "n.json")
	text := `[9007199254740993, {"a/b": [1, -90071992547409930, 9007199254740992]}, 123456789012345678.5]`
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &lint.Linter{Registry: lint.NewRegistry(), Config: lint.DefaultConfig(dir)}
	var got []string
	for _, d := range l.Run([]lint.Input{{Path: p}}).Diagnostics() {
		if d.Rule == "number-precision" {
			got = append(got, d.Pointer)
		}
	}
	if strings.Join(got, " ") != "/0 /1/a~1b/1" {
		t.Errorf("pointers %q; want /0 and /1/a~1b/1", got)
	}
}

// A malformed inline ignore is reported where its comment is, even when a string on the
// same line holds the same words (the comment's place was once searched for).
func TestInlineIgnoreReportedAtComment(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "flow.yaml")
	text := `schemaVersion: "1.0"
name: inline
version: v1.0
steps:
  - { id: first, type: script, params: { code: "x # dws:ignore nope" } } # dws:ignore nope
`
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	reg := lint.NewRegistry(toy(nil))
	l := &lint.Linter{Registry: reg, Config: lint.DefaultConfig(dir)}
	for _, d := range l.Run([]lint.Input{{Path: p}}).Diagnostics() {
		if d.Rule == "unused-suppression" {
			if d.Line != 5 || d.Column != 74 {
				t.Errorf("reported at %d:%d, want 5:74 (the comment, not the string)", d.Line, d.Column)
			}
			return
		}
	}
	t.Fatal("the malformed ignore was not reported")
}
