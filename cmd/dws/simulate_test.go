package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
