package dialect_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// formatWords are field names of the dialects' documents: knowing any of them is format
// knowledge, which belongs behind lint.Dialect in the dialect's own package.
var formatWords = regexp.MustCompile(`\b(onSuccess|onFailure|on_approve|on_reject|on_blocked|on_failed|on_timeout|on_escalation|on_verification_fail|schemaVersion|workflow_id|jobspec|output_files|entry_phase|transitions|selector_agent|task_id|depends_on|max_iterations|agent_review|agent_task|promptTemplate|default_workflow|global_constraints|idempotencyKey|max_total_iterations|workflow_orchestration)\b`)

// No core package names a dialect's fields, in code or comments: a sixth dialect needs
// its package, one line in dialect.go and its schema, and no core file learns of it.
// The core is every package but dialect/..., the commands (which wire the registry), the
// benchmark generators (which write each dialect's documents) and the test-only toy.
func TestCoreKnowsNoFormat(t *testing.T) {
	root := ".."
	var hits []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "dialect", "cmd", "bench", "internal/simgen", "internal/toydialect", "fixtures", "testdata", "docs", ".cache", ".git":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := formatWords.FindString(line); m != "" {
				hits = append(hits, rel+":"+strconv.Itoa(i+1)+": "+m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		t.Errorf("a core package names a dialect's field: %s", h)
	}
}
