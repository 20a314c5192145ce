package lint_test

import (
	"strings"
	"testing"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
)

func TestConfigRenames(t *testing.T) {
	reg := lint.NewRegistry()
	cfg, err := lint.ParseConfig("c.yaml", []byte(`renames:
  - { from: "cortex:expense", to: "cortex:expense-claims" }
  - { unit: "cortex:expense-claims", from: fraud-score, to: risk-score }
`), reg)
	if err != nil {
		t.Fatal(err)
	}
	want := []change.Rename{{From: "cortex:expense", To: "cortex:expense-claims"}, {Unit: "cortex:expense-claims", From: "fraud-score", To: "risk-score"}}
	if len(cfg.Renames) != 2 || cfg.Renames[0] != want[0] || cfg.Renames[1] != want[1] {
		t.Fatalf("renames %+v", cfg.Renames)
	}
	for _, tc := range []struct{ text, msg string }{
		{"renames: { a: b }", "want a list"},
		{"renames: [ { from: a } ]", "needs from and to"},
		{"renames: [ { from: expense, to: other } ]", "is not a unit id"},
		{"renames: [ { from: \"cortex:a@v1.0\", to: \"cortex:b\" } ]", "is not a unit id"},
		{"renames: [ { from: \"cortex:a\", to: \"cortex:b\", why: x } ]", `unknown key "why"`},
		{"renames: [ { from: \"cortex:a\", to: \"cortex:b\" }, { from: \"cortex:a\", to: \"cortex:c\" } ]", "renamed twice"},
		{"renames: [ { unit: \"cortex:u\", from: a, to: c }, { unit: \"cortex:u\", from: b, to: c } ]", "two names are renamed to c"},
	} {
		_, err := lint.ParseConfig("c.yaml", []byte(tc.text+"\n"), reg)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %q", tc.text, err, tc.msg)
		}
	}
}
