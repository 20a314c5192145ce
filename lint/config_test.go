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

// LoadConfigDeferring checks the config as LoadConfig does, and knows the files its
// sections name, but reads and parses them only when LoadSections (or a section's
// use) asks: the DDL is broken after the config was read, and only LoadSections says
// so, in LoadConfig's words. A key's error after a section that does not load is still
// the section's, as LoadConfig reports it.
func TestConfigSectionsLoadWhenAsked(t *testing.T) {
	reg := dialect.Registry()
	dir := t.TempDir()
	config := filepath.Join(dir, lint.ConfigName)
	ddl := filepath.Join(dir, "schema.sql")
	write(t, config, "version: 1\nsql: { from_ddl: schema.sql }\ncortex: { prompt_templates: prompts.yaml }\n")
	write(t, ddl, "CREATE TABLE expense (id bigint);\n")
	write(t, filepath.Join(dir, "prompts.yaml"), "templates: {}\nschemas: {}\n")

	cfg, err := lint.LoadConfigDeferring(config, reg)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Files(); len(got) != 3 || got[2] != ddl {
		t.Fatalf("files before the loads: %q", got)
	}
	write(t, ddl, "CREATE TABLE expense (id bigint\n")
	_, eager := lint.LoadConfig(config, reg)
	if eager == nil {
		t.Fatal("LoadConfig took the broken DDL")
	}
	if err := cfg.LoadSections(); err == nil || err.Error() != eager.Error() {
		t.Fatalf("LoadSections: %v; LoadConfig: %v", err, eager)
	}
	if err := cfg.LoadSections(); err == nil || err.Error() != eager.Error() {
		t.Fatalf("LoadSections again: %v", err)
	}

	// Loaded when a section is used.
	write(t, ddl, "CREATE TABLE expense (id bigint);\n")
	cfg, err = lint.LoadConfigDeferring(config, reg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Section("sql") == nil || cfg.Section("cortex") == nil {
		t.Fatal("no sections")
	}
	write(t, ddl, "CREATE TABLE expense (id bigint\n")
	if err := cfg.LoadSections(); err != nil {
		t.Fatalf("loaded once already, and again: %v", err)
	}

	// A later key's error waits for the sections before it.
	write(t, config, "version: 1\nsql: { from_ddl: schema.sql }\nrules: { no-such-rule: error }\n")
	_, eager = lint.LoadConfig(config, reg)
	_, deferred := lint.LoadConfigDeferring(config, reg)
	if eager == nil || deferred == nil || deferred.Error() != eager.Error() || !strings.Contains(eager.Error(), "from_ddl") {
		t.Fatalf("LoadConfigDeferring: %v; LoadConfig: %v", deferred, eager)
	}
	// And so does a later key of the section itself, as when the DDL was read in order.
	for _, text := range []string{
		"version: 1\nsql: { from_ddl: schema.sql, statements: [bogus] }\n",
		"version: 1\ncortex: { prompt_templates: missing.yaml, context: [\"1x\"] }\n",
	} {
		write(t, config, text)
		_, eager = lint.LoadConfig(config, reg)
		_, deferred = lint.LoadConfigDeferring(config, reg)
		if eager == nil || deferred == nil || deferred.Error() != eager.Error() ||
			!strings.Contains(eager.Error(), "from_ddl") && !strings.Contains(eager.Error(), "prompt_templates") {
			t.Fatalf("%s: LoadConfigDeferring: %v; LoadConfig: %v", text, deferred, eager)
		}
	}
}
