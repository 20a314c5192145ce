package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden")

// TestGoldenReports runs dws validate over every dialect's err fixtures and compares the
// whole report, text and JSON, byte for byte with testdata/golden: the output users diff
// in CI must not move unless a change means it to. It runs with one job and with eight,
// since output must not depend on scheduling.
func TestGoldenReports(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(wd, "..", "..")
	args := []string{"fixtures/cortex/err", "fixtures/dws/err", "fixtures/direclaw/err", "fixtures/ensemble/err"}
	for _, format := range []string{"text", "json"} {
		var first []byte
		for _, jobs := range []string{"1", "8"} {
			var stdout, stderr bytes.Buffer
			t.Chdir(root)
			code := run(append([]string{"dws", "validate", "--no-color", "--format", format, "--jobs", jobs}, args...), nil, &stdout, &stderr)
			if code != exitFindings || stderr.Len() > 0 {
				t.Fatalf("%s --jobs %s: exit %d, stderr %q", format, jobs, code, stderr.String())
			}
			if first == nil {
				first = stdout.Bytes()
			} else if !bytes.Equal(first, stdout.Bytes()) {
				t.Fatalf("%s output differs between --jobs 1 and --jobs %s", format, jobs)
			}
		}
		golden := filepath.Join(root, "testdata", "golden", "err-fixtures."+format)
		if *updateGolden {
			if err := os.WriteFile(golden, first, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./cmd/dws -run TestGoldenReports -update-golden creates it)", err)
		}
		if !bytes.Equal(want, first) {
			t.Errorf("the %s report differs from %s; review and rerun with -update-golden", format, golden)
		}
	}
}
