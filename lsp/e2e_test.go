package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clientModules is where scripts/test.sh installs the editor client's npm packages.
const clientModules = "../.cache/lsp-client/node_modules"

// TestEndToEnd drives the real dws binary with the client VS Code uses
// (vscode-languageserver-protocol over vscode-jsonrpc): open, change, diagnostics, a
// quick fix applied and re-checked, definition, references, rename, completion, hover,
// outline, code lens, UTF-16 columns, config changes, an unknown document, close, exit.
func TestEndToEnd(t *testing.T) {
	modules, err := filepath.Abs(clientModules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "vscode-languageserver-protocol")); err != nil {
		t.Fatalf("the editor client is not installed in %s: scripts/test.sh installs it "+
			"(npm install --prefix .cache/lsp-client vscode-languageserver-protocol@3.17.5 vscode-jsonrpc@8.2.0)", modules)
	}
	bin := filepath.Join(t.TempDir(), "dws")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/dws").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "e2e/client.cjs", "test", bin, dir)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the client's run failed: %v", err)
	}
	if n := strings.Count(string(out), "\nok ") + 1; n < 20 || strings.Contains(string(out), "FAIL") {
		t.Errorf("%d checks passed, want every one", n)
	}
}
