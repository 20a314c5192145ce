package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every fixture of every dialect that dws can draw renders with Graphviz's dot, and
// its Mermaid parses with the mermaid package's own parser: a drawing a viewer rejects
// fails the suite. A fixture that cannot be drawn (it does not parse, or is of no
// dialect) says so on stderr with exit 1.
func TestGraphFixturesRender(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Fatal("Graphviz's dot is not installed: scripts/test.sh installs it (apt-get install graphviz)")
	}
	modules := filepath.Join(repoRoot, ".cache/mermaid/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "mermaid")); err != nil {
		t.Fatalf("the mermaid package is not installed in %s: scripts/test.sh installs it", modules)
	}
	t.Chdir(repoRoot)
	var files []string
	err = filepath.WalkDir("fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := filepath.Ext(p)
		base := filepath.Base(p)
		if (ext == ".json" || ext == ".yaml" || ext == ".yml") && !strings.HasSuffix(base, ".scenario.yaml") &&
			!strings.HasSuffix(base, ".simulate.json") && base != ".dws.yaml" && base != "prompt_templates.yaml" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var mermaids []string
	drawn := map[string]bool{}
	for i, f := range files {
		var so, se bytes.Buffer
		code := run([]string{"dws", "graph", "--format", "dot", f}, nil, &so, &se)
		if code != 0 {
			if code != 1 || !strings.Contains(se.String(), f) {
				t.Errorf("%s: exit %d, stderr %q", f, code, se.String())
			}
			continue
		}
		drawn[filepath.Dir(f)] = true
		cmd := exec.Command(dot, "-Tsvg", "-o", os.DevNull)
		cmd.Stdin = &so
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: dot rejects the drawing: %v\n%s\n%s", f, err, msg, so.String())
		}
		so.Reset()
		if code := run([]string{"dws", "graph", f}, nil, &so, &se); code != 0 {
			t.Fatalf("%s: mermaid exit %d", f, code)
		}
		m := filepath.Join(out, fmt.Sprintf("%03d.mmd", i))
		if err := os.WriteFile(m, so.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		mermaids = append(mermaids, m)
	}
	if len(mermaids) < 60 {
		t.Fatalf("only %d of %d fixtures drawn", len(mermaids), len(files))
	}
	for _, d := range []string{"fixtures/cortex/ok", "fixtures/dws/ok", "fixtures/direclaw/ok", "fixtures/ensemble/ok", "fixtures/sim"} {
		if !drawn[d] {
			t.Errorf("nothing drawn in %s", d)
		}
	}
	cmd := exec.Command("node", append([]string{"report/testdata/mermaid-parse.mjs"}, mermaids...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	msg, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("mermaid rejects drawings: %v\n%s", err, msg)
	}
	t.Logf("%d fixtures drawn, rendered by dot and parsed by mermaid", len(mermaids))
}
