package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// The composite action's validate step, run by bash as a runner would run it (inputs as
// the environment the action sets, dws on the PATH): annotations on the log, a SARIF
// file when asked, and dws's exit status as the step's.
func TestActionValidateStep(t *testing.T) {
	action := readAction(t)
	for _, in := range []string{"paths", "format", "config", "fail-on", "sarif-file"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %q", in)
		}
	}
	if action.Runs.Using != "composite" || action.Inputs["format"].Default != "github" {
		t.Fatalf("runs.using %q, format default %q", action.Runs.Using, action.Inputs["format"].Default)
	}
	var script string
	for _, st := range action.Runs.Steps {
		if strings.Contains(st.Run, "${{") {
			t.Errorf("a step splices inputs into its script: %q", st.Run)
		}
		if st.ID == "validate" {
			script = st.Run
		}
	}
	bin := buildDws(t)
	dir := t.TempDir()
	hello, _ := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/hello.json"))
	bad := strings.Replace(string(hello), `"onSuccess": null`, `"onSuccess": "nowhere"`, 1)
	for name, text := range map[string]string{"flows/good.json": string(hello), "flows/bad.json": bad} {
		_ = os.MkdirAll(filepath.Join(dir, "flows"), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	step := func(paths, sarif string) (string, string, error) {
		outFile := filepath.Join(t.TempDir(), "github_output")
		cmd := exec.Command("bash", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "GITHUB_OUTPUT="+outFile,
			"DWS_PATHS="+paths, "DWS_FORMAT=github", "DWS_CONFIG=", "DWS_FAIL_ON=error", "DWS_SARIF="+sarif)
		out, err := cmd.CombinedOutput()
		o, _ := os.ReadFile(outFile)
		return string(out), string(o), err
	}
	out, outputs, err := step("flows/good.json", "")
	if err != nil || outputs != "exit-code=0\n" {
		t.Errorf("good: %v %q\n%s", err, outputs, out)
	}
	out, outputs, err = step("flows", "dws.sarif")
	if err == nil || outputs != "exit-code=1\n" {
		t.Errorf("bad: %v %q\n%s", err, outputs, out)
	}
	if !strings.Contains(out, "::error file=flows/bad.json,line=12,col=20") {
		t.Errorf("no annotation:\n%s", out)
	}
	if s, err := os.ReadFile(filepath.Join(dir, "dws.sarif")); err != nil || !strings.Contains(string(s), `"ruleId": "dangling-edge"`) {
		t.Errorf("SARIF file: %v\n%s", err, s)
	}
}

// actionFile is what the tests read of action.yml.
type actionFile struct {
	Inputs map[string]struct{ Default string } `yaml:"inputs"`
	Runs   struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID  string            `yaml:"id"`
			If  string            `yaml:"if"`
			Env map[string]string `yaml:"env"`
			Run string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func readAction(t *testing.T) actionFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// buildDws builds dws into a new directory, for scripts that find it on the PATH.
func buildDws(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "dws"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}
