package lint_test

import (
	"errors"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// FuzzParseConfig: no .dws.yaml, however broken, makes the loader panic or hang; it
// either loads or says what is wrong with a *ConfigError (exit 2). Seeds are in
// testdata/fuzz/FuzzParseConfig.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		"version: 1\n",
		"include: [\"**/*.json\"]\nexclude: []\nlimits: { max_bytes: 65536, max_steps: 100 }\n",
		"rules: { cycle: warning, schema: off }\n",
		"ignore:\n  - { path: \"*.json\", rules: [cycle], pointer: /steps/0, reason: r }\n",
		"dialects: { \"legacy/**\": cortex }\n",
		"cortex: { prompt_templates: missing.yaml, context: [a, b] }\n",
		"sql: { allow: { expense: [id], \"billing.invoice\": \"*\" }, search_path: [public], statements: [select] }\n",
		"a: &a [*a]\n",
		"version: 1\nversion: 2\n",
		"[1, 2]",
		"\t- x",
	} {
		f.Add([]byte(seed))
	}
	reg := dialect.Registry()
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := lint.ParseConfig(t.TempDir()+"/.dws.yaml", data, reg)
		if err != nil {
			var ce *lint.ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is %T, not *ConfigError", err, err)
			}
			return
		}
		if cfg.Limits.MaxBytes <= 0 || cfg.Limits.MaxSteps <= 0 {
			t.Fatalf("loaded a config with limits %+v", cfg.Limits)
		}
	})
}
