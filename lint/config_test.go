package lint_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
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
