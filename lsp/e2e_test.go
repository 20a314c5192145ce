package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// clientModules is where scripts/test.sh installs the editor client's npm packages.
const clientModules = "../.cache/lsp-client/node_modules"

// binary is the dws binary the end-to-end tests run, built once.
var binary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "dws-lsp-e2e-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "dws")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/dws").CombinedOutput(); err != nil {
		return "", &buildError{err, out}
	}
	return bin, nil
})

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + string(e.out) }

func TestMain(m *testing.M) {
	code := m.Run()
	if bin, err := binary(); err == nil {
		_ = os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// runClient runs e2e/client.cjs in mode on dir with the real dws binary and fails the
// test unless every check passed (at least want of them).
func runClient(t *testing.T, mode, dir string, want int, extra ...string) {
	t.Helper()
	modules, err := filepath.Abs(clientModules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "vscode-languageserver-protocol")); err != nil {
		t.Fatalf("the editor client is not installed in %s: scripts/test.sh installs it "+
			"(npm install --prefix .cache/lsp-client vscode-languageserver-protocol@3.17.5 vscode-jsonrpc@8.2.0)", modules)
	}
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", append([]string{"e2e/client.cjs", mode, bin, dir}, extra...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the client's run failed: %v", err)
	}
	if n := strings.Count("\n"+string(out), "\nok "); n < want || strings.Contains(string(out), "FAIL") {
		t.Errorf("%d checks passed, want every one (at least %d)", n, want)
	}
}

// TestEndToEnd drives the real dws binary with the client VS Code uses
// (vscode-languageserver-protocol over vscode-jsonrpc): open, change, diagnostics, a
// quick fix applied and re-checked, definition, references, rename, completion, hover,
// outline, code lens, UTF-16 columns, config changes, an unknown document, close, exit.
func TestEndToEnd(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	runClient(t, "test", dir, 20)
}

// TestEndToEndMessagesItCannotHandle: after an unknown notification ("$/…" or any
// other), a notification or request whose params do not decode, or an unknown request,
// the server still answers every request, shutdown included; an unknown request is
// MethodNotFound and bad params InvalidParams.
func TestEndToEndMessagesItCannotHandle(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	runClient(t, "messages", dir, 18)
}
