package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden")

// TestGoldenReports runs dws validate over every dialect's err fixtures and compares the
// whole report, text and JSON, byte for byte with testdata/golden: the output users diff
// in CI must not move unless a change means it to. Each fixture is validated on its own,
// with its own config exactly as the fixture test uses it (NAME.dws.yaml beside it, else
// fixtures/<dialect>/.dws.yaml), so the golden report holds every finding of its .out
// file. It runs with one job and with eight, since output must not depend on scheduling.
func TestGoldenReports(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(wd, "..", "..")
	t.Chdir(root)
	fixtures := errFixtures(t)
	if len(fixtures) < 40 {
		t.Fatalf("only %d err fixtures found", len(fixtures))
	}
	for _, format := range []string{"text", "json"} {
		var first []byte
		for _, jobs := range []string{"1", "8"} {
			var all bytes.Buffer
			for _, fx := range fixtures {
				args := []string{"dws", "validate", "--no-color", "--format", format, "--jobs", jobs}
				header := "=== " + fx.path
				if fx.config != "" {
					args = append(args, "--config", fx.config)
					header += " (--config " + fx.config + ")"
				}
				var stdout, stderr bytes.Buffer
				code := run(append(args, fx.path), nil, &stdout, &stderr)
				// Fixtures of warnings only pass (exit 0); the header records the exit code.
				if (code != exitFindings && code != exitOK) || stderr.Len() > 0 {
					t.Fatalf("%s %s --jobs %s: exit %d, stderr %q", fx.path, format, jobs, code, stderr.String())
				}
				if format == "text" {
					checkAgainstOut(t, fx, stdout.String())
				}
				fmt.Fprintf(&all, "%s exit %d\n%s", header, code, stdout.Bytes())
			}
			if first == nil {
				first = all.Bytes()
			} else if !bytes.Equal(first, all.Bytes()) {
				t.Fatalf("%s output differs between --jobs 1 and --jobs %s", format, jobs)
			}
		}
		golden := filepath.Join("testdata", "golden", "err-fixtures."+format)
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

type fixture struct{ path, config string }

// errFixtures lists fixtures/<dialect>/err/*, files and job-spec directories, sorted,
// with the config each is validated with.
func errFixtures(t *testing.T) []fixture {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join("fixtures", "*", "err"))
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			path := filepath.ToSlash(filepath.Join(dir, e.Name()))
			ext := filepath.Ext(e.Name())
			bundle := e.IsDir() && exists(filepath.Join(path, "jobspec.json"))
			fixtureFile := !e.IsDir() && !strings.HasSuffix(e.Name(), ".dws.yaml") &&
				(ext == ".json" || ext == ".yaml" || ext == ".yml")
			if !bundle && !fixtureFile {
				continue
			}
			fx := fixture{path: path}
			if own := strings.TrimSuffix(path, ext) + ".dws.yaml"; fixtureFile && exists(own) {
				fx.config = own
			} else if shared := filepath.ToSlash(filepath.Join(filepath.Dir(dir), ".dws.yaml")); exists(shared) {
				fx.config = shared
			}
			out = append(out, fx)
		}
	}
	slices.SortFunc(out, func(a, b fixture) int { return strings.Compare(a.path, b.path) })
	return out
}

// checkAgainstOut checks that the report holds exactly the findings of the fixture's
// .out file, which the fixture test compares line by line.
func checkAgainstOut(t *testing.T, fx fixture, report string) {
	t.Helper()
	outPath := strings.TrimSuffix(fx.path, filepath.Ext(fx.path)) + ".out"
	if filepath.Ext(fx.path) == "" {
		outPath = fx.path + ".out"
	}
	want, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	// The .out files show paths relative to the dialect's directory.
	report = strings.ReplaceAll(report, filepath.ToSlash(filepath.Dir(filepath.Dir(fx.path)))+"/", "")
	for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		if !strings.Contains(report, line+"\n") {
			t.Errorf("%s: the report lacks %q of %s", fx.path, line, outPath)
		}
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
