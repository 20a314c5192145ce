package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/internal/simgen"
)

var updateSim = flag.Bool("update-sim", false, "rewrite the expected dws simulate output of fixtures/sim")

// TestSimulateFixtures runs dws simulate on every definition in fixtures/sim, in text
// and JSON, and compares the output with NAME.simulate.txt and NAME.simulate.json
// beside it (go test ./cmd/dws -run TestSimulateFixtures -update-sim rewrites them).
func TestSimulateFixtures(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(wd, "..", "..", "fixtures", "sim"))
	names, err := filepath.Glob("*")
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, name := range names {
		ext := filepath.Ext(name)
		if (ext != ".json" && ext != ".yaml") || strings.Contains(name, ".simulate.") || strings.HasPrefix(name, ".") {
			continue
		}
		count++
		for format, suffix := range map[string]string{"text": ".simulate.txt", "json": ".simulate.json"} {
			var stdout, stderr bytes.Buffer
			code := run([]string{"dws", "simulate", "--no-color", "--format", format, name}, nil, &stdout, &stderr)
			if code > exitFindings || stderr.Len() > 0 {
				t.Fatalf("%s: exit %d, stderr %q", name, code, stderr.String())
			}
			want := strings.TrimSuffix(name, ext) + suffix
			if *updateSim {
				if err := os.WriteFile(want, stdout.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			expected, err := os.ReadFile(want)
			if err != nil {
				t.Fatalf("%v (run with -update-sim to create it)", err)
			}
			if !bytes.Equal(expected, stdout.Bytes()) {
				t.Errorf("%s --format %s differs from %s:\n%s", name, format, want, stdout.String())
			}
		}
	}
	if count < 3 {
		t.Fatalf("only %d simulation fixtures", count)
	}
}

// Every dialect's bundled ok fixtures simulate: each definition gets a count, a cover
// and no failure of the simulator (a job spec is simulated on its manifest). A fixture
// is simulated with NAME.dws.yaml beside it when there is one, as the fixture test
// validates it.
func TestSimulateOkFixtures(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(wd, "..", ".."))
	var files []string
	for _, pattern := range []string{"fixtures/*/ok/*.json", "fixtures/*/ok/*.yaml", "fixtures/*/ok/*/jobspec.json"} {
		m, _ := filepath.Glob(pattern)
		files = append(files, m...)
	}
	dialects := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, ".dws.yaml") {
			continue // a fixture's config
		}
		var stdout, stderr bytes.Buffer
		args := []string{"dws", "simulate", "--format", "json"}
		if cfg := strings.TrimSuffix(f, filepath.Ext(f)) + ".dws.yaml"; exists(cfg) {
			args = append(args, "--config", cfg)
		}
		code := run(append(args, f), nil, &stdout, &stderr)
		var rep struct {
			Definitions []struct {
				Dialect   string            `json:"dialect"`
				Simulated bool              `json:"simulated"`
				Skipped   string            `json:"skipped"`
				Paths     map[string]string `json:"paths"`
				CoverSize int               `json:"cover_size"`
			} `json:"definitions"`
		}
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil || code > exitFindings {
			t.Fatalf("%s: exit %d, %v, stderr %s", f, code, err, stderr.String())
		}
		for _, d := range rep.Definitions {
			if d.Skipped == "dialect dws-contract is not simulated" || d.Skipped == "dialect dws-worker is not simulated" ||
				d.Skipped == "dialect dws-team is not simulated" || d.Skipped == "dialect dws-task is not simulated" {
				continue // not definitions of a run: the job spec's tasks are simulated on its manifest
			}
			if !d.Simulated || d.Paths["total"] == "0" || d.CoverSize == 0 {
				t.Errorf("%s: %+v", f, d)
			}
			dialects[d.Dialect] = true
		}
	}
	for _, want := range []string{"cortex", "direclaw", "ensemble", "dws-workflow", "dws-jobspec"} {
		if !dialects[want] {
			t.Errorf("no %s fixture was simulated", want)
		}
	}
}

// A DWS chain of 3,000 phases with a loop every ten is simulated with the default flags
// (issue 28, item 12): its state keeps no count of the turns in all without a global
// bound, and no run is cut unless --max-steps asks (a run of it takes some 18,000 steps,
// and cutting at a depth makes the depth part of the state).
func TestSimulateLongDWSChain(t *testing.T) {
	dir := t.TempDir()
	def := filepath.Join(dir, "chain.json")
	if err := os.WriteFile(def, simgen.DWS(3000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".dws.yaml"), []byte("version: 1\nlimits: { max_steps: 10000, max_bytes: 4194304 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"dws", "simulate", "--no-color", "--config", filepath.Join(dir, ".dws.yaml"), def}, nil, &stdout, &stderr)
	first, _, _ := strings.Cut(stdout.String(), "\n")
	if code != exitOK || !strings.Contains(first, " paths: ") || strings.Contains(first, "not simulated") {
		t.Fatalf("exit %d: %.300s\n%s", code, first, stderr.String())
	}
}

// A job-spec directory's parts whose dialects have no runs (contracts, tasks, teams,
// workers) are said once, by dialect, not a line each; its manifest and workflow are
// simulated as ever (issue: ten "not simulated" lines for one directory).
func TestSimulateJobSpecDirectoryOnce(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"dws", "simulate", "../../fixtures/dws/ok/contract-review"}, nil, &out, &errb)
	text := out.String()
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, text, errb.String())
	}
	const once = "not simulated: 10 files whose dialects have no runs (dws-contract: 2, dws-task: 3, dws-team: 1, dws-worker: 4)\n"
	if strings.Count(text, "not simulated") != 1 || !strings.Contains(text, once) {
		t.Errorf("want one line %q; got:\n%s", once, text)
	}
	for _, want := range []string{"contract-review/jobspec.json (workflow tasks): 4 paths", "contract-review-workflow.json: 85 paths"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}
