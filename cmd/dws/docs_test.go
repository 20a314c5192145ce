package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
)

// docs/rules.md is dws rules --format markdown, byte for byte: the rule docs registered in
// code are the one source, and the page cannot fall behind them.
func TestRulesDoc(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"dws", "rules", "--format", "markdown"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("rules --format markdown: exit %d: %s", code, errOut.String())
	}
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != out.String() {
		t.Errorf("docs/rules.md is stale: run\n\tgo run ./cmd/dws rules --format markdown > docs/rules.md")
	}
	for _, r := range dialect.Registry().Rules() {
		if !strings.Contains(out.String(), "\n## "+r.ID+"\n") {
			t.Errorf("docs/rules.md has no section for %s", r.ID)
		}
	}
}
