package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The composite action's diff step, run by bash as a runner would run it in a checkout
// whose definition changed since the base revision without a version bump: the version
// finding as an annotation, the markdown report in the job summary, dws diff's exit
// status as the step's; with the bump, the step passes.
func TestActionDiffStep(t *testing.T) {
	action := readAction(t)
	for _, in := range []string{"diff-against", "diff-fail-on", "diff-ack"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	var script, cond string
	for _, st := range action.Runs.Steps {
		if st.ID == "diff" {
			script, cond = st.Run, st.If
		}
	}
	if script == "" || strings.Contains(script, "${{") || !strings.Contains(cond, "inputs.diff-against != ''") || !strings.Contains(cond, "!cancelled()") {
		t.Fatalf("the diff step: if %q, run %q", cond, script)
	}
	bin := buildDws(t)
	dir := t.TempDir()
	env := append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"),
		"GIT_AUTHOR_NAME=dws", "GIT_AUTHOR_EMAIL=dws@example.com", "GIT_COMMITTER_NAME=dws", "GIT_COMMITTER_EMAIL=dws@example.com")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	hello, _ := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/hello.json"))
	write := func(text string) {
		_ = os.MkdirAll(filepath.Join(dir, "flows"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, "flows/hello.json"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(string(hello))
	git("init", "-q", "-b", "main", ".")
	git("add", ".")
	git("commit", "-q", "-m", "base")
	changed := strings.Replace(string(hello), `"type": "script"`, `"type": "sleep"`, 1)
	write(changed)
	step := func() (out, outputs, summary string, err error) {
		outFile := filepath.Join(t.TempDir(), "github_output")
		sumFile := filepath.Join(t.TempDir(), "step_summary")
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		cmd.Env = slices.Concat(env, []string{"GITHUB_OUTPUT=" + outFile, "GITHUB_STEP_SUMMARY=" + sumFile,
			"DWS_AGAINST=main", "DWS_PATHS=", "DWS_CONFIG=", "DWS_DIFF_FAIL_ON=", "DWS_ACK="})
		b, err := cmd.CombinedOutput()
		o, _ := os.ReadFile(outFile)
		s, _ := os.ReadFile(sumFile)
		return string(b), string(o), string(s), err
	}
	out, outputs, summary, err := step()
	if err == nil || outputs != "diff-exit-code=1\n" {
		t.Errorf("unbumped: %v %q\n%s", err, outputs, out)
	}
	if !strings.Contains(out, "::error file=flows/hello.json,line=4,col=14,title=version-not-bumped::breaking changes need a major bump") {
		t.Errorf("no annotation:\n%s", out)
	}
	if !strings.HasPrefix(summary, "### dws diff: 1 definition changed; 2 breaking") || !strings.Contains(summary, "`version-not-bumped`") {
		t.Errorf("job summary:\n%s", summary)
	}
	write(strings.Replace(changed, `"version": "v1.0"`, `"version": "v2.0"`, 1))
	if out, outputs, _, err := step(); err != nil || outputs != "diff-exit-code=0\n" {
		t.Errorf("bumped: %v %q\n%s", err, outputs, out)
	}
}
