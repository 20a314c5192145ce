package dialect_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// TestSimulateBranchAfterSchemaNoOutputFits: a branch that reads what an ai step wrote,
// when no output fits the step's schema (an integer between 0.2 and 0.8), is simulated:
// the search over that empty domain finds no context and proves nothing, so no edge is
// called dead, and the schema is reported (sim-stub-output). It crashed dws simulate
// (exit 3, index out of range in the witness search).
func TestSimulateBranchAfterSchemaNoOutputFits(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"prompt_templates.yaml": "templates:\n  impossible_score: { purpose: Score, schema: impossibleScore }\n" +
			"schemas:\n  impossibleScore:\n    type: object\n    required: [score]\n    properties:\n      score: { type: integer, minimum: 0.2, maximum: 0.8 }\n",
		lint.ConfigName: "version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\n",
		"flow.json": `{"schemaVersion": "1.0", "name": "no-fit", "version": "v1.0", "steps": [
  {"id": "score", "type": "ai", "params": {"promptTemplate": "impossible_score", "model": "gpt-4o", "schema": "impossibleScore"}, "onSuccess": "check", "onFailure": null},
  {"id": "check", "type": "branch", "params": {"expression": "{{score}} > 0"}, "onSuccess": null, "onFailure": null}]}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reg := dialect.Registry()
	cfg, err := lint.LoadConfig(filepath.Join(dir, lint.ConfigName), reg)
	if err != nil {
		t.Fatal(err)
	}
	l := &lint.Linter{Registry: reg, Config: cfg, Simulation: &lint.SimulationOptions{Options: sim.Options{}, MaxPaths: 100}}
	res := l.Run([]lint.Input{{Path: filepath.Join(dir, "flow.json")}})
	f := res.Files[0]
	if f.Simulation == nil || f.Simulation.Err != nil || len(f.Simulation.Definitions) == 0 {
		t.Fatalf("not simulated: %+v", f.Simulation)
	}
	var rules []string
	for _, d := range f.Diagnostics {
		rules = append(rules, d.Rule)
	}
	if slices.Contains(rules, "sim-constant-branch") || !slices.Contains(rules, "sim-stub-output") {
		t.Errorf("findings %v: want sim-stub-output and no sim-constant-branch", rules)
	}
}
