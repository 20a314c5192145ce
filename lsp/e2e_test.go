package lsp

import (
	"encoding/json"
	"fmt"
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
// MethodNotFound (with params or without) and bad params InvalidParams.
func TestEndToEndMessagesItCannotHandle(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	runClient(t, "messages", dir, 24)
}

// TestEndToEndLifecycle: LSP 3.17's lifecycle. A request before initialize is
// ServerNotInitialized and a notification before it dropped, a second initialize is
// InvalidRequest, a request after shutdown InvalidRequest; exit after shutdown ends the
// server with exit code 0, and without shutdown with 1.
func TestEndToEndLifecycle(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	runClient(t, "lifecycle", dir, 7)
	runClient(t, "exit-without-shutdown", dir, 1)
}

// slowDefinition is a Cortex definition whose simulation takes seconds: the witness
// search for its branch's true edge tries every candidate it may (two variables, each
// over 2,500 constants, and an atom over both, which no one-variable proof settles).
func slowDefinition(t *testing.T) string {
	t.Helper()
	var list strings.Builder
	for i := range 2500 {
		if i > 0 {
			list.WriteString(", ")
		}
		fmt.Fprint(&list, i)
	}
	expr := fmt.Sprintf("{{x}} IN (%s) AND {{y}} IN (%s) AND {{x}} + {{y}} < 0", list.String(), list.String())
	doc := map[string]any{"schemaVersion": "1.0", "name": "slow", "version": "v1.0", "steps": []any{
		map[string]any{"id": "branch", "type": "branch", "params": map[string]any{"expression": expr}, "onSuccess": "yes-path", "onFailure": "no-path"},
		map[string]any{"id": "yes-path", "type": "sleep", "params": map[string]any{"seconds": 1}, "onSuccess": nil},
		map[string]any{"id": "no-path", "type": "sleep", "params": map[string]any{"seconds": 1}, "onSuccess": nil},
	}}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEndToEndCodeLensCancelled: four code lens requests on a definition that takes
// seconds to simulate, cancelled by the client, are each answered RequestCancelled (not
// after the simulation, with its result), and the server answers on, shutdown included.
func TestEndToEndCodeLensCancelled(t *testing.T) {
	dir := write(t, map[string]string{"slow.json": slowDefinition(t)})
	runClient(t, "lens-cancel", dir, 7)
}

// TestEndToEndHugeFiles: a lockfile and a .dws.yaml that grow to 3 GiB under a running
// server are refused through the bounded reader (a diagnostic on .dws.yaml, quick fixes
// that would read them not offered), never read whole: the server, given 2 GB of
// address space, lives on and exits cleanly.
func TestEndToEndHugeFiles(t *testing.T) {
	wrongSum := "sha256:" + strings.Repeat("0", 64)
	dir := write(t, map[string]string{
		".dws.yaml":    "version: 1\nlock: dws.lock\n",
		"dws.lock":     "{\n  \"version\": 1,\n  \"files\": {\n    \"expense.json\": \"" + wrongSum + "\"\n  }\n}\n",
		"expense.json": expense,
	})
	runClient(t, "huge-files", dir, 7)
}

// TestEndToEndRenameQuoting: renaming a node to a name the file's syntax must quote or
// escape (a quote in a single-quoted YAML id, U+0001, a name YAML reads as a boolean or
// a number, ": " and " #", a line break, a tab) leaves a document that parses, has no
// error it had not, and whose outline shows the new name exactly. Renaming a step that
// a DireClaw template names ({{steps.draft.outputs.plan}}) to a name a template
// reference cannot hold ("it's", "a b", "a.b") is refused, saying why.
func TestEndToEndRenameQuoting(t *testing.T) {
	flow, err := os.ReadFile("../fixtures/sim/direclaw-review.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yaml := strings.NewReplacer("      - id: plan\n", "      - id: 'draft'\n", "on_reject: plan", "on_reject: 'draft'",
		"steps.plan.outputs", "steps.draft.outputs", "      - id: review\n", "      - id: \"review\"\n",
		"      - id: ask_user\n", "      - id: 'ask_user'\n", "on_blocked: ask_user", "on_blocked: 'ask_user'").Replace(string(flow))
	for _, want := range []string{"id: 'draft'", `id: "review"`, "id: 'ask_user'", "on_blocked: 'ask_user'", "steps.draft.outputs",
		"steps.gather.outputs", "id: summarize"} {
		if !strings.Contains(yaml, want) {
			t.Fatalf("the fixture changed: no %s", want)
		}
	}
	json, err := os.ReadFile("../fixtures/direclaw/ok/minimal.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := write(t, map[string]string{"flow.yaml": yaml, "flow.json": string(json)})
	runClient(t, "rename-quoting", dir, 41)
}

// boundedRing is a DireClaw workflow of steps routing to each other by next, on_blocked
// and on_failed, with a max_total_iterations so high that its simulation stops at the
// states bound (within seconds).
func boundedRing() string {
	var b strings.Builder
	b.WriteString("id: demo\nselector_agent: router\ndefault_workflow: ring\nselection_max_retries: 2\nagents:\n" +
		"  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }\n" +
		"  worker: { provider: openai, model: gpt-5 }\nworkflows:\n  - id: ring\n    version: 1\n" +
		"    description: A ring\n    tags: [default]\n    inputs: [user_message]\n" +
		"    limits: { max_total_iterations: 100000 }\n    steps:\n")
	const n = 12
	for i := range n {
		fmt.Fprintf(&b, "      - id: s%d\n        type: agent_task\n        agent: worker\n"+
			"        prompt: \"Step %d: {{inputs.user_message}}\"\n        outputs: [summary]\n"+
			"        output_files:\n          summary: s%d/summary.txt\n", i, i, i)
		if i < n-1 {
			fmt.Fprintf(&b, "        next: s%d\n", i+1)
		}
		fmt.Fprintf(&b, "        on_blocked: s%d\n        on_failed: s%d\n", (i+2)%n, (i+n-1)%n)
	}
	return b.String()
}

// TestEndToEndCodeLensBound: a definition whose simulation a bound stops gets a code
// lens saying so, in the words of dws simulate's text report (SPEC §8.4, giving up is
// said), where it once got no lens at all; its command gives that report.
func TestEndToEndCodeLensBound(t *testing.T) {
	dir := write(t, map[string]string{"ring.yaml": boundedRing()})
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "simulate", "ring.yaml")
	cmd.Dir = dir
	out, err := cmd.Output()
	const prefix = "ring.yaml: not simulated: "
	line, _, _ := strings.Cut(string(out), "\n")
	if err == nil || !strings.HasPrefix(line, prefix) || !strings.Contains(line, "stopped at the states bound") {
		t.Fatalf("dws simulate ring.yaml: %v\n%s", err, out)
	}
	runClient(t, "lens-bound", dir, 4, strings.TrimPrefix(line, prefix))
}
