package lint_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// Globs whose matching would backtrack exponentially are refused at load, naming the key;
// ordinary ones load.
func TestConfigBoundsGlobComplexity(t *testing.T) {
	reg := dialect.Registry()
	bomb := strings.Repeat("{a,b}", 24) + "*.json"
	for _, text := range []string{
		"include: [\"" + bomb + "\"]\n",
		"exclude: [\"**/a/**/b/**/c/**/d/**/e.json\"]\n",
		"dialects: { \"" + bomb + "\": cortex }\n",
		"ignore:\n  - { path: \"" + bomb + "\", rules: [cycle], reason: r }\n",
	} {
		start := time.Now()
		_, err := lint.ParseConfig("c.yaml", []byte(text), reg)
		var ce *lint.ConfigError
		if !errors.As(err, &ce) || ce.Line == 0 {
			t.Errorf("%q: got %v; want a positioned config error", text, err)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%q: refusing took %v", text, d)
		}
	}
	for _, text := range []string{
		"include: [\"**/*.{json,yaml,yml}\", \"{a,b}/{c,d}/{e,f}/**/*.json\", \"x/{a,{b,c}}/*.json\"]\n",
		"exclude: [\"**/vendor/**\", \"\\\\{literal\\\\}.json\"]\n",
	} {
		if _, err := lint.ParseConfig("c.yaml", []byte(text), reg); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}

// An ignore pointer must be a valid JSON Pointer: ~ escapes only ~0 and ~1.
func TestConfigIgnorePointerEscapes(t *testing.T) {
	reg := dialect.Registry()
	bad := "ignore:\n  - { path: a.json, rules: [cycle], pointer: /steps/~2, reason: r }\n"
	_, err := lint.ParseConfig("c.yaml", []byte(bad), reg)
	var ce *lint.ConfigError
	if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(ce.Msg, "~2") {
		t.Errorf("got %v; want a config error at the pointer", err)
	}
	good := "ignore:\n  - { path: a.json, rules: [cycle], pointer: /a~1b/~0c, reason: r }\n"
	if _, err := lint.ParseConfig("c.yaml", []byte(good), reg); err != nil {
		t.Error(err)
	}
}

// TestConfigFirstErrorWins: the dialects' sections are parsed side by side, and the
// error a config gets is still that of its first bad key, on every run.
func TestConfigFirstErrorWins(t *testing.T) {
	reg := dialect.Registry()
	for _, tc := range []struct{ text, want string }{
		{"sql: { from_ddl: missing.sql }\ncortex: { prompt_templates: missing.yaml }\nbogus: 1\n", "sql.from_ddl"},
		{"cortex: { prompt_templates: missing.yaml }\nsql: { from_ddl: missing.sql }\n", "cortex"},
		{"include: 5\nsql: { from_ddl: missing.sql }\n", "include"},
		{"sql: { from_ddl: missing.sql }\ninclude: 5\n", "sql.from_ddl"},
	} {
		for range 20 {
			_, err := lint.ParseConfig(filepath.Join(t.TempDir(), "c.yaml"), []byte(tc.text), reg)
			var ce *lint.ConfigError
			if !errors.As(err, &ce) || ce.Line != 1 || !strings.Contains(ce.Msg, tc.want) {
				t.Fatalf("%q: got %v; want the line 1 error about %s", tc.text, err, tc.want)
			}
		}
	}
}

// TestConfigSectionPanic: a dialect section's parser that panics (a bug in dws) is
// re-raised where ParseConfig was called, not on a goroutine of its own, so the command
// still reports an internal error instead of crashing.
func TestConfigSectionPanic(t *testing.T) {
	reg := lint.NewRegistry(&lint.Dialect{
		ID:     "toy",
		Detect: func(*source.Document) bool { return false },
		Config: map[string]lint.SectionParser{"toy": func(*source.Node, string) (any, error) { panic("toy section") }},
	})
	defer func() {
		r := recover()
		pe, ok := r.(*lint.PanicError)
		if !ok || pe.Value != "toy section" {
			t.Fatalf("recovered %v, want the section parser's panic", r)
		}
	}()
	_, _ = lint.ParseConfig(filepath.Join(t.TempDir(), "c.yaml"), []byte("toy: {}\n"), reg)
	t.Fatal("ParseConfig returned")
}

// toyLevel is a parsed toy section: it sets the default severity of toy-rule.
type toyLevel struct{ sev lint.Severity }

func (l toyLevel) RuleDefaults() map[string]lint.Severity {
	return map[string]lint.Severity{"toy-rule": l.sev}
}

// TestConfigSectionRuleDefaults: a dialect section may change the default severity of
// its rules (DireClaw's release makes direclaw-compat an error or turns it off); a
// severity under rules: still wins, and without the section the registered one holds.
func TestConfigSectionRuleDefaults(t *testing.T) {
	rule := &lint.Rule{ID: "toy-rule", Severity: lint.Warning, Dialect: "toy", Summary: "a toy",
		Check: func(p *lint.Pass) { p.Report("toy-rule", "", "toy finding") }}
	reg := lint.NewRegistry(&lint.Dialect{
		ID:     "toy",
		Detect: func(doc *source.Document) bool { return doc.Root.Has("toy") },
		Rules:  []*lint.Rule{rule},
		Config: map[string]lint.SectionParser{"toy": func(n *source.Node, _ string) (any, error) {
			sev, err := lint.ParseSeverity(n.Get("level").Text)
			return toyLevel{sev}, err
		}},
	})
	for _, tc := range []struct{ config, want string }{
		{"", "warning"},
		{"toy: { level: error }\n", "error"},
		{"toy: { level: off }\n", ""},
		{"toy: { level: error }\nrules: { toy-rule: info }\n", "info"},
		{"rules: { toy-rule: error }\ntoy: { level: off }\n", "error"},
	} {
		cfg, err := lint.ParseConfig(filepath.Join(t.TempDir(), ".dws.yaml"), []byte("version: 1\n"+tc.config), reg)
		if err != nil {
			t.Fatalf("%q: %v", tc.config, err)
		}
		l := &lint.Linter{Registry: reg, Config: cfg, Jobs: 1}
		res := l.Run([]lint.Input{{Path: "toy.json", Data: []byte(`{"toy": 1}`), Stdin: true}})
		got := ""
		for _, d := range res.Diagnostics() {
			if d.Rule == "toy-rule" {
				got = d.Severity.String()
			}
		}
		if got != tc.want {
			t.Errorf("%q: toy-rule reported as %q, want %q", tc.config, got, tc.want)
		}
	}
}
