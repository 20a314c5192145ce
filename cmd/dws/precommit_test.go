package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// The pre-commit snippet of docs/ci.md, pasted into a fresh repository (with the repository
// and revision pointing at this clone), makes the real pre-commit block a commit of a bad
// definition with dws's message and let a good one through. The snippet pins a release
// tag, not a branch (which pre-commit warns is mutable), and installing the hooks builds
// dws alone, none of the repository's developer tools.
func TestPreCommitHook(t *testing.T) {
	pc, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("pre-commit is not installed: scripts/test.sh installs it (apt-get install pre-commit)")
	}
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- pre-commit snippet[^\n]*\n```yaml\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatal("docs/ci.md has no pre-commit snippet")
	}
	if !regexp.MustCompile(`(?m)^\s+rev: v\d+\.\d+\.\d+$`).Match(m[1]) {
		t.Errorf("docs/ci.md's pre-commit snippet pins no release tag (rev: vX.Y.Z):\n%s", m[1])
	}
	rev, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	config := strings.Replace(string(m[1]), "https://github.com/dwsdev/dws", repoRoot, 1)
	config = regexp.MustCompile(`rev: \S+`).ReplaceAllString(config, "rev: "+strings.TrimSpace(string(rev)))

	dir := t.TempDir()
	env := append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(repoRoot, ".cache/pre-commit"),
		"GOMODCACHE="+goEnv["GOMODCACHE"], "GOFLAGS=-mod=mod", "CGO_ENABLED=1")
	sh := func(allowFail bool, name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil && !allowFail {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return string(out), err
	}
	hello, err := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/hello.json"))
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(hello), `"onSuccess": null`, `"onSuccess": "nowhere"`, 1)
	files := map[string]string{".pre-commit-config.yaml": config, "good.json": string(hello)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sh(false, "git", "init", "-q", ".")
	sh(false, "git", "config", "user.email", "dws@example.com")
	sh(false, "git", "config", "user.name", "dws test")
	var so, se strings.Builder
	if code := run([]string{"dws", "checksum", "--write", filepath.Join(dir, "dws.lock"), filepath.Join(dir, "good.json")}, nil, &so, &se); code != 0 {
		t.Fatalf("checksum --write: %s", se.String())
	}
	sh(false, pc, "install")
	sh(false, "git", "add", ".pre-commit-config.yaml", "good.json", "dws.lock")
	out, _ := sh(false, "git", "commit", "-q", "-m", "a good definition")
	if !strings.Contains(out, "dws validate") || !strings.Contains(out, "Passed") {
		t.Errorf("the good commit's hooks:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	sh(false, "git", "add", "bad.json")
	out, err = sh(true, "git", "commit", "-q", "-m", "a bad definition")
	if err == nil {
		t.Fatalf("the bad commit went through:\n%s", out)
	}
	if !strings.Contains(out, `bad.json:12:20: error: "onSuccess" names "nowhere", which is not a step`) || !strings.Contains(out, "[dangling-edge]") {
		t.Errorf("the bad commit's hooks:\n%s", out)
	}
	if log, _ := sh(true, "git", "log", "--oneline"); strings.Count(log, "\n") != 1 {
		t.Errorf("history after the blocked commit:\n%s", log)
	}
	// What pre-commit's go install put in the hooks' environment: dws, nothing else.
	// pre-commit's own database says where it installed this revision.
	query := `import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select path from repos where repo = ? and ref = ?", (sys.argv[2], sys.argv[3])).fetchone()[0])`
	envRepo, err := exec.Command("python3", "-c", query, filepath.Join(repoRoot, ".cache/pre-commit/db.db"), repoRoot, strings.TrimSpace(string(rev))).Output()
	if err != nil {
		t.Fatalf("finding the hooks' environment in pre-commit's database: %v", err)
	}
	bins, err := filepath.Glob(filepath.Join(strings.TrimSpace(string(envRepo)), "golangenv-*", "bin", "*"))
	if err != nil || len(bins) == 0 {
		t.Fatalf("no binaries in the hooks' environment under %s (%v)", envRepo, err)
	}
	for i := range bins {
		bins[i] = filepath.Base(bins[i])
	}
	if strings.Join(bins, " ") != "dws" {
		t.Errorf("pre-commit's go install built %v; want dws alone", bins)
	}
}

// Eight hook processes writing one lockfile, and eight one baseline, at once: each
// file ends whole, with every entry.
func TestConcurrentHookWriters(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "dws")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := t.TempDir()
	hello, err := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/hello.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".dws.yaml"), []byte("version: 1\nbaseline: baseline.json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		text := strings.Replace(string(hello), `"hello"`, fmt.Sprintf(`"hello-%d"`, i), 1)
		text = strings.Replace(text, `"onSuccess": null`, fmt.Sprintf(`"onSuccess": "nowhere-%d"`, i), 1)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.json", i)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "baseline.json"), []byte(`{"version": 1, "findings": []}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		for _, args := range [][]string{
			{"checksum", "--write", "dws.lock", fmt.Sprintf("f%d.json", i)},
			{"validate", "--write-baseline", "baseline.json", fmt.Sprintf("f%d.json", i)},
		} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "wrote") {
					t.Errorf("dws %v: %v\n%s", args, err, out)
				}
			}()
		}
	}
	wg.Wait()
	var lock struct{ Files map[string]string }
	b, _ := os.ReadFile(filepath.Join(dir, "dws.lock"))
	if err := json.Unmarshal(b, &lock); err != nil || len(lock.Files) != 8 {
		t.Errorf("lockfile after 8 writers (%v):\n%s", err, b)
	}
	var base struct{ Findings []any }
	b, _ = os.ReadFile(filepath.Join(dir, "baseline.json"))
	if err := json.Unmarshal(b, &base); err != nil || len(base.Findings) != 8 {
		t.Errorf("baseline after 8 writers (%v, %d findings):\n%s", err, len(base.Findings), b)
	}
}
