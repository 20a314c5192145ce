package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDiffFixtures runs dws diff old.* new.* in each fixtures/diff/<dialect>/<case>
// directory (with the case's own .dws.yaml) and compares the text and JSON reports, and
// the exit code, byte for byte with diff.txt and diff.json there: the changes, their
// classes and positions in both files, the path counts, the in-flight verdicts and the
// version findings. -update-golden rewrites them.
func TestDiffFixtures(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cases, err := filepath.Glob(filepath.Join(wd, "..", "..", "fixtures", "diff", "*", "*"))
	if err != nil || len(cases) < 15 {
		t.Fatalf("only %d diff fixtures: %v", len(cases), err)
	}
	checked := 0
	// The in-flight verdicts the fixtures show, by dialect: each dialect with persisted
	// positions has a case for every verdict.
	verdicts := map[string]map[string]bool{}
	defer func() {
		if t.Failed() {
			return
		}
		if checked < 12 {
			t.Errorf("only %d diffs' path counts were held to dws simulate", checked)
		}
		for _, d := range []string{"cortex", "dws-workflow", "direclaw"} {
			for _, v := range []string{"continues", "continues-changed", "needs-mapping", "incompatible"} {
				if !verdicts[d][v] {
					t.Errorf("no %s fixture shows the in-flight verdict %s", d, v)
				}
			}
		}
	}()
	for _, dir := range cases {
		name := filepath.Base(filepath.Dir(dir)) + "/" + filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			t.Chdir(dir)
			old, _ := filepath.Glob("old.*")
			nw, _ := filepath.Glob("new.*")
			if len(old) != 1 || len(nw) != 1 {
				t.Fatalf("want one old.* and one new.*, got %v %v", old, nw)
			}
			for _, format := range []string{"text", "json", "markdown"} {
				var stdout, stderr bytes.Buffer
				code := run([]string{"dws", "diff", "--format", format, old[0], nw[0]}, nil, &stdout, &stderr)
				if stderr.Len() > 0 || code > exitFindings {
					t.Fatalf("%s: exit %d, stderr %q", format, code, stderr.String())
				}
				got := fmt.Sprintf("exit %d\n%s", code, stdout.Bytes())
				golden := map[string]string{"text": "diff.txt", "json": "diff.json", "markdown": "diff.md"}[format]
				if format == "json" {
					var rep struct {
						Units []struct {
							InFlight []struct{ Verdict string } `json:"in_flight"`
						}
					}
					if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
						t.Fatal(err)
					}
					dialect := filepath.Base(filepath.Dir(dir))
					if verdicts[dialect] == nil {
						verdicts[dialect] = map[string]bool{}
					}
					for _, u := range rep.Units {
						for _, p := range u.InFlight {
							verdicts[dialect][p.Verdict] = true
						}
					}
					if checkPathsAgainstSimulate(t, stdout.Bytes(), old[0], nw[0]) {
						checked++
					}
				}
				if *updateGolden {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (go test ./cmd/dws -run TestDiffFixtures -update-golden creates it)", err)
				}
				if string(want) != got {
					t.Errorf("%s/%s differs:\n%s\nwant:\n%s", name, golden, got, want)
				}
			}
		})
	}
}

// checkPathsAgainstSimulate holds the path counts of a diff to dws simulate run on each
// file alone: per end state, kept plus lost are OLD's paths and kept plus gained NEW's.
// It reports whether it compared any: dws simulate does not simulate a file with
// validation errors (a NEW that reads an output nothing makes), which dws diff still
// counts.
func checkPathsAgainstSimulate(t *testing.T, report []byte, old, nw string) bool {
	t.Helper()
	var rep struct {
		Units []struct {
			ID    string
			Paths map[string]struct{ Old, New, Kept, Lost, Gained string }
		}
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatal(err)
	}
	counts := func(file string) map[string]string {
		var out bytes.Buffer
		if code := run([]string{"dws", "simulate", "--format", "json", file}, nil, &out, &bytes.Buffer{}); code > exitFindings {
			t.Fatalf("simulate %s: exit %d", file, code)
		}
		var sim struct {
			Definitions []struct{ Paths map[string]string }
		}
		if err := json.Unmarshal(out.Bytes(), &sim); err != nil || len(sim.Definitions) != 1 {
			t.Fatalf("simulate %s: %v, %d definitions", file, err, len(sim.Definitions))
		}
		return sim.Definitions[0].Paths
	}
	compared := false
	for _, u := range rep.Units {
		if u.Paths == nil {
			continue
		}
		var errb bytes.Buffer
		if run([]string{"dws", "validate", old, nw}, nil, &bytes.Buffer{}, &errb) != exitOK {
			continue
		}
		compared = true
		o, n := counts(old), counts(nw)
		num := func(s string) *big.Int {
			v, ok := new(big.Int).SetString(s, 10)
			if !ok {
				t.Fatalf("%s: %q is no count", u.ID, s)
			}
			return v
		}
		for status, p := range u.Paths {
			if sum := new(big.Int).Add(num(p.Kept), num(p.Lost)); sum.Cmp(num(o[status])) != 0 || p.Old != o[status] {
				t.Errorf("%s %s: kept %s + lost %s, old %s; dws simulate %s says %s", u.ID, status, p.Kept, p.Lost, p.Old, old, o[status])
			}
			if sum := new(big.Int).Add(num(p.Kept), num(p.Gained)); sum.Cmp(num(n[status])) != 0 || p.New != n[status] {
				t.Errorf("%s %s: kept %s + gained %s, new %s; dws simulate %s says %s", u.ID, status, p.Kept, p.Gained, p.New, nw, n[status])
			}
		}
	}
	return compared
}

// Every diff fixture's drawing renders with Graphviz's dot, and its Mermaid parses with
// the mermaid package's own parser (as dws graph's drawings are held, TestGraphFixturesRender).
func TestDiffDrawingsRender(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Fatal("Graphviz's dot is not installed: scripts/test.sh installs it (apt-get install graphviz)")
	}
	modules := filepath.Join(repoRoot, ".cache/mermaid/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "mermaid")); err != nil {
		t.Fatalf("the mermaid package is not installed in %s: scripts/test.sh installs it", modules)
	}
	cases, _ := filepath.Glob(filepath.Join(repoRoot, "fixtures", "diff", "*", "*"))
	out := t.TempDir()
	var mermaids []string
	for i, dir := range cases {
		old, _ := filepath.Glob(filepath.Join(dir, "old.*"))
		nw, _ := filepath.Glob(filepath.Join(dir, "new.*"))
		var so, se bytes.Buffer
		if code := run([]string{"dws", "diff", "--config", filepath.Join(dir, ".dws.yaml"), "--format", "dot", old[0], nw[0]}, nil, &so, &se); code > exitFindings {
			t.Fatalf("%s: exit %d: %s", dir, code, se.String())
		}
		cmd := exec.Command(dot, "-Tsvg", "-o", os.DevNull)
		cmd.Stdin = &so
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: dot rejects the drawing: %v\n%s\n%s", dir, err, msg, so.String())
		}
		so.Reset()
		if code := run([]string{"dws", "diff", "--config", filepath.Join(dir, ".dws.yaml"), "--format", "mermaid", old[0], nw[0]}, nil, &so, &se); code > exitFindings {
			t.Fatalf("%s: exit %d: %s", dir, code, se.String())
		}
		m := filepath.Join(out, fmt.Sprintf("%03d.mmd", i))
		if err := os.WriteFile(m, so.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		mermaids = append(mermaids, m)
	}
	if len(mermaids) < 15 {
		t.Fatalf("only %d drawings", len(mermaids))
	}
	cmd := exec.Command("node", append([]string{filepath.Join(repoRoot, "report/testdata/mermaid-parse.mjs")}, mermaids...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("mermaid rejects drawings: %v\n%s", err, msg)
	}
}

// TestDiffAgainstWithoutGit: with no git on PATH, dws diff --against says that git is
// missing, exit 2; before, it said "not inside a git work tree", sending the user to
// look for a repository that was there.
func TestDiffAgainstWithoutGit(t *testing.T) {
	t.Chdir(t.TempDir())
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	code := run([]string{"dws", "diff", "--against", "HEAD"}, nil, &stdout, &stderr)
	want := "dws: diff --against: git is not installed (no git on PATH); --against reads the old files with it\n"
	if code != exitUsage || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want exit %d, %q", code, stderr.String(), exitUsage, want)
	}
}
