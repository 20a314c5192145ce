package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestNeovim drives dws lsp with a second real client beside the VS Code one: headless
// Neovim (Debian 12's 0.7.2, which scripts/test.sh installs), configured by exactly the
// Neovim snippet of docs/editors.md. Opening a definition starts the server and shows its
// finding; the quick fix to the nearest id, applied by Neovim, clears it; go to definition
// answers; a second file of the project is served by the same server. e2e/nvim.lua is
// what Neovim runs; it writes what it saw to out.txt.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("nvim is not installed: scripts/test.sh installs it (apt-get install neovim)")
	}
	if v, err := exec.Command(nvim, "--version").Output(); err == nil {
		t.Logf("%s", strings.SplitN(string(v), "\n", 2)[0])
	}
	page, err := os.ReadFile("../docs/editors.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)<!-- neovim snippet[^\n]*\n```lua\n(.*?)```").FindSubmatch(page)
	if m == nil {
		t.Fatal("docs/editors.md has no Neovim snippet")
	}
	drive, err := os.ReadFile("e2e/nvim.lua")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"init.lua":  string(m[1]),
		"nvim.lua":  string(drive),
		".dws.yaml": "version: 1\n",
		"flow.json": `{"schemaVersion": "1.0", "name": "napper", "version": "v1.0",
 "steps": [{ "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": "nxet", "onFailure": null },
           { "id": "next", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null, "onFailure": null }]}
`,
		"flow.yaml": `schemaVersion: "1.0"
name: napper
version: v1.0
steps:
  - { id: nap, type: sleep, params: { seconds: 1 }, onSuccess: null, onFailure: null }
  - { id: nap, type: sleep, params: { seconds: 1 }, onSuccess: null, onFailure: null }
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A deadline for a Neovim that hangs; nvim.lua's own steps wait 30 s at most each.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "-n", "-i", "NONE", "-u", "init.lua", "-c", "luafile nvim.lua", "flow.json")
	cmd.Dir = dir
	// Neovim's own files (state, logs, caches) go to the test's directory, and dws is
	// the one just built.
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatalf("nvim wrote no out.txt: %v\n%s", err, out)
	}
	want := `diagnostic 2:85 dangling-edge "onSuccess" names "nxet", which is not a step; did you mean "next"?
code action Change "nxet" to "next"
code action Ignore dangling-edge here in .dws.yaml, with a reason
after the quick fix: no diagnostics
definition 3:21
diagnostic 6:11 duplicate-id step "nap" is defined twice
dws servers 1
`
	if string(got) != want {
		t.Errorf("what Neovim saw:\n%s\nwant:\n%s\n(nvim's output: %s)", got, want, out)
	}
}
