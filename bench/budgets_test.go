// Package bench tests scripts/bench.sh's budgets (scripts/budgets.sh): a full run says
// met or MISSED for each, a smoke run (scripts/test.sh's, beside other work) judges none.
package bench

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// loaded is a run's budgets as bench.sh records them, with figures a loaded machine
// gives: two over, one under a ratio budget, one met.
const loaded = `
v=$(verdict 185 100); note "$v" "3,000-step validate: 185 ms (budget 100 ms)"; echo "validate: $v"
v=$(verdict 3.2 3); note "$v" "cold start: 3.2x the cgo hello world's (budget 3x)"; echo "cold start: $v"
v=$(at_least 0.98 1); note "$v" "realistic throughput: 0.98x ajv-cli's (budget: 1x)"; echo "throughput: $v"
v=$(at_least 7955 5000); note "$v" "dws test: 7955 scenarios/s (budget 5,000)"; echo "dws test: $v"
summary "every budget"
`

// budgets runs script after sourcing scripts/budgets.sh, as bench.sh does.
func budgets(t *testing.T, smoke bool, script string) string {
	t.Helper()
	cmd := exec.Command("bash", "-c", "set -euo pipefail\n. scripts/budgets.sh\n"+script)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "BENCH_SMOKE=")
	if smoke {
		cmd.Env = append(cmd.Env, "BENCH_SMOKE=1")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return string(out)
}

func TestFullRunJudges(t *testing.T) {
	out := budgets(t, false, loaded)
	for _, want := range []string{"validate: MISSED\n", "cold start: MISSED\n", "throughput: MISSED\n", "dws test: met\n",
		"== budgets\n", "MISSED 3,000-step validate: 185 ms (budget 100 ms)\n", "MISSED cold start: 3.2x",
		"MISSED realistic throughput: 0.98x"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "dws test: 7955") || strings.Contains(out, "all met") {
		t.Errorf("a met budget listed as missed, or all met with three missed:\n%s", out)
	}
	if out := budgets(t, false, `v=$(at_least 12.5 10); note "$v" "warm"; summary "every budget"`); out != "== budgets\nall met: every budget\n" {
		t.Errorf("every budget met:\n%s", out)
	}
}

// The smoke run under load says what was over budget, for information: never MISSED,
// never met.
func TestSmokeRunJudgesNothing(t *testing.T) {
	out := budgets(t, true, loaded)
	if strings.Contains(out, "MISSED") || strings.Contains(out, "met") {
		t.Errorf("a smoke run judged:\n%s", out)
	}
	for _, want := range []string{"validate: over\n", "dws test: within\n", "== budgets: not judged",
		"over in this run, for information: 3,000-step validate: 185 ms (budget 100 ms)\n",
		"over in this run, for information: cold start: 3.2x", "over in this run, for information: realistic throughput: 0.98x"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "information: dws test") {
		t.Errorf("a figure within budget listed as over:\n%s", out)
	}
}
