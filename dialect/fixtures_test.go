package dialect_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

var update = flag.Bool("update", false, "rewrite the .out files of the fixtures")

// TestFixtures runs the pipeline on every fixture under fixtures/<dialect>/{ok,err}/:
// ok files must produce nothing; err files must produce exactly the lines of NAME.out.
// A fixture is validated with NAME.dws.yaml beside it when there is one, else with
// fixtures/<dialect>/.dws.yaml.
func TestFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../fixtures/*/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixtures found: %v", err)
	}
	count := 0
	for _, dir := range dirs {
		kind := filepath.Base(dir)
		if kind != "ok" && kind != "err" {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := e.Name()
			path := filepath.Join(dir, name)
			bundle := e.IsDir() && isBundle(path)
			if !bundle && !isFixture(name) {
				continue
			}
			count++
			t.Run(strings.TrimPrefix(path, "../fixtures/"), func(t *testing.T) {
				got := lintFixture(t, path)
				if kind == "ok" {
					if got != "" {
						t.Errorf("%s must validate clean, got:\n%s", path, got)
					}
					return
				}
				outPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".out"
				if bundle {
					outPath = path + ".out"
				}
				if *update {
					if err := os.WriteFile(outPath, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(outPath)
				if err != nil {
					t.Fatalf("%v (run go test ./dialect -run TestFixtures -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("%s: diagnostics differ\n--- want\n%s--- got\n%s", path, want, got)
				}
				if got == "" {
					t.Errorf("%s is an err fixture but produces no finding", path)
				}
			})
		}
	}
	if count < 10 {
		t.Fatalf("only %d fixtures found", count)
	}
}

// isBundle reports a fixture directory that is a whole DWS job spec: it is validated as
// one, with NAME.out beside it holding the findings of all its files.
// isBundle reports whether dir is the root of some dialect's bundle.
func isBundle(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	for _, d := range dialect.All() {
		if d.Bundle == nil {
			continue
		}
		if root, ok := d.Bundle.Root(abs); ok && root == abs {
			return true
		}
	}
	return false
}

func isFixture(name string) bool {
	if strings.HasSuffix(name, ".dws.yaml") {
		return false
	}
	switch filepath.Ext(name) {
	case ".json", ".yaml", ".yml":
		return true
	}
	return false
}

// lintFixture validates one fixture and returns its diagnostics, one line each, with
// paths relative to the fixture's dialect directory.
func lintFixture(t *testing.T, path string) string {
	t.Helper()
	reg := dialect.Registry()
	cfgPath := strings.TrimSuffix(path, filepath.Ext(path)) + ".dws.yaml"
	if _, err := os.Stat(cfgPath); err != nil {
		cfgPath = filepath.Join(filepath.Dir(filepath.Dir(path)), lint.ConfigName)
	}
	cfg := lint.DefaultConfig(".")
	if _, err := os.Stat(cfgPath); err == nil {
		if cfg, err = lint.LoadConfig(cfgPath, reg); err != nil {
			t.Fatal(err)
		}
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	inputs := []lint.Input{{Path: filepath.ToSlash(path)}}
	var problems []lint.Diagnostic
	if isBundle(path) {
		var err error
		if inputs, problems, err = l.Expand([]string{path}); err != nil {
			t.Fatal(err)
		}
	}
	res := l.Run(inputs, problems...)
	prefix := filepath.ToSlash(filepath.Dir(filepath.Dir(path))) + "/"
	var b strings.Builder
	for _, d := range res.Diagnostics() {
		line := strings.ReplaceAll(d.String(), prefix, "")
		b.WriteString(line + "\n")
	}
	return b.String()
}
