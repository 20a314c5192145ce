package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The dws-versions hook of .pre-commit-hooks.yaml, run by the real pre-commit from this
// clone at its HEAD (the revision TestPreCommitHook installs too, so the hooks are built
// once): a staged definition changed without a version bump blocks the commit with dws
// diff's finding; bumped, it passes; the first commit of a repository, which has no HEAD
// to compare with, passes too.
func TestPreCommitVersionsHook(t *testing.T) {
	pc, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("pre-commit is not installed: scripts/test.sh installs it (apt-get install pre-commit)")
	}
	dir := t.TempDir()
	env := append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(repoRoot, ".cache/pre-commit"),
		"GOMODCACHE="+goEnv["GOMODCACHE"], "GOFLAGS=-mod=mod", "CGO_ENABLED=1",
		"GIT_AUTHOR_NAME=dws", "GIT_AUTHOR_EMAIL=dws@example.com", "GIT_COMMITTER_NAME=dws", "GIT_COMMITTER_EMAIL=dws@example.com")
	sh := func(name string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(name string, args ...string) string {
		t.Helper()
		out, err := sh(name, args...)
		if err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
		return out
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hello, err := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/hello.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(hello), `"version": "v1.0"`) {
		t.Fatalf("fixtures/sim/hello.json is not at v1.0:\n%s", hello)
	}
	rev, err := exec.Command("git", "-C", repoRoot, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	hook := func() (string, error) { return sh(pc, "run", "dws-versions") }

	must("git", "init", "-q", "-b", "main", ".")
	write(".pre-commit-config.yaml", "repos:\n  - repo: "+repoRoot+"\n    rev: "+strings.TrimSpace(string(rev))+"\n    hooks:\n      - id: dws-versions\n")
	must("git", "add", ".pre-commit-config.yaml")
	write("hello.json", string(hello))
	must("git", "add", "hello.json")
	if out, err := hook(); err != nil || !strings.Contains(out, "Passed") {
		t.Fatalf("the first commit: %v\n%s", err, out)
	}
	must("git", "commit", "-q", "-m", "v1.0")

	changed := strings.Replace(string(hello), `"type": "script"`, `"type": "sleep"`, 1)
	if changed == string(hello) {
		t.Fatal("no script step in fixtures/sim/hello.json to change")
	}
	write("hello.json", changed)
	must("git", "add", "hello.json")
	out, err := hook()
	if err == nil || !strings.Contains(out, "[version-not-bumped]") || !strings.Contains(out, "Failed") {
		t.Fatalf("an unbumped change passed: %v\n%s", err, out)
	}
	write("hello.json", strings.Replace(changed, `"version": "v1.0"`, `"version": "v2.0"`, 1))
	must("git", "add", "hello.json")
	if out, err := hook(); err != nil || !strings.Contains(out, "Passed") {
		t.Fatalf("a bumped change: %v\n%s", err, out)
	}
}
