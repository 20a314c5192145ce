package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run the real dws command (built into the test binary) as
// `dws`, with real files, exit codes and standard streams.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"dws": func() { os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

var (
	repoRoot string
	goEnv    map[string]string
)

func init() {
	wd, err := os.Getwd()
	if err != nil {
		panic(err)
	}
	repoRoot = filepath.Dir(filepath.Dir(wd))
}

// TestScripts runs the stories in testdata/script/*.txtar.
func TestScripts(t *testing.T) {
	out, err := exec.Command("go", "env", "-json").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	if err := json.Unmarshal(out, &goEnv); err != nil {
		t.Fatalf("go env: %v", err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			// Stories that build dws run the real go command, in the repository, with
			// the caller's caches (testscript's HOME is a dead end).
			env.Setenv("REPO", repoRoot)
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN"} {
				env.Setenv(k, goEnv[k])
			}
			return nil
		},
	})
}
