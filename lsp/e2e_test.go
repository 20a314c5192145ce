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
// test unless the client passed exactly the checks named, in this order: a check the
// client drops, skips or adds fails the test as a failed check does.
func runClient(t *testing.T, mode, dir string, checks []string, extra ...string) {
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
	var passed []string
	for _, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "ok "); ok {
			passed = append(passed, name)
		}
	}
	for i := range max(len(passed), len(checks)) {
		switch {
		case i >= len(passed):
			t.Fatalf("%s: check %d, %q, never ran (%d of %d ran)", mode, i+1, checks[i], len(passed), len(checks))
		case i >= len(checks):
			t.Fatalf("%s: check %d, %q, is not one the test names", mode, i+1, passed[i])
		case passed[i] != checks[i]:
			t.Fatalf("%s: check %d is %q, want %q", mode, i+1, passed[i], checks[i])
		}
	}
}

// shutdownCheck ends every mode but exit-without-shutdown. Names that quote a value quote
// it as the client's JSON.stringify does: as jsonString.
const shutdownCheck = "shutdown and exit: the server ends"

// TestEndToEnd drives the real dws binary with the client VS Code uses
// (vscode-languageserver-protocol over vscode-jsonrpc): open, change, diagnostics, a
// quick fix applied and re-checked, definition, references, rename, completion, hover,
// outline, code lens, UTF-16 columns, config changes, an unknown document, close, exit.
func TestEndToEnd(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	runClient(t, "test", dir, []string{
		"initialize",
		"open: the seed example is clean",
		"the server registers its file watchers",
		"change: dangling-edge at the new target",
		"code action: change to the nearest id",
		"quick fix applied: clean again",
		"definition: the step the edge names",
		"references: every edge that names the step",
		"rename: the id and its three edges",
		"rename applied: clean",
		"half-typed JSON: a parse finding, no crash",
		"completion: node ids in an edge field",
		"hover: the target step",
		"document symbols: the five steps",
		"code lens: path counts",
		"code lens command: the covering paths",
		"UTF-16 columns with emoji and CJK",
		"code action: ignore with a reason",
		"placeholder reason: the finding stays, and the comment warns",
		"reason written: waived, no warning",
		"completion elsewhere answers",
		"config change: open documents re-checked",
		"broken config: a diagnostic on .dws.yaml",
		"unknown document: an error response",
		"close: diagnostics cleared",
		shutdownCheck,
	})
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
	// Each notification, then each request, as the client sends them (params as JSON;
	// "undefined" for a request sent without params), and the answer wanted.
	notifications := []string{
		`$/dws.unknown {"x":1}`,
		`$/cancelRequest {"id":{"not":"an id"}}`,
		`$/cancelRequest {"id":987654}`,
		`$/progress "not an object"`,
		`custom/notification {}`,
		`textDocument/didSave {"textDocument":5}`,
		`textDocument/didChange {"textDocument":{"uri":"URI"},"contentChanges":"x"}`,
		`textDocument/didOpen []`,
		`workspace/didChangeConfiguration 7`,
		`workspace/didChangeWatchedFiles {"changes":[{"uri":5,"type":"x"}]}`,
		`initialized [1,2]`,
	}
	requests := []struct {
		sent string
		code int
	}{
		{`custom/request {}`, -32601},
		{`$/dws.unknown {}`, -32601},
		{`custom/request undefined`, -32601},
		{`$/dws.unknown undefined`, -32601},
		{`textDocument/hover undefined`, -32602},
		{`textDocument/formatting {"textDocument":{"uri":"URI"},"options":{"tabSize":2,"insertSpaces":true}}`, -32601},
		{`textDocument/hover {"textDocument":7,"position":"x"}`, -32602},
		{`textDocument/codeLens []`, -32602},
		{`textDocument/rename {"textDocument":{"uri":"URI"},"position":{"line":"a"}}`, -32602},
	}
	uri := jsonString("file://" + realpath(t, dir) + "/expense.json")
	var checks []string
	for _, n := range notifications {
		checks = append(checks, "still serving after the notification "+strings.ReplaceAll(n, `"URI"`, uri))
	}
	for _, r := range requests {
		sent := strings.ReplaceAll(r.sent, `"URI"`, uri)
		checks = append(checks, fmt.Sprintf("%s: error %d", sent, r.code), "still serving after the request "+sent)
	}
	runClient(t, "messages", dir, append(checks, shutdownCheck))
}

// realpath is dir with its symbolic links resolved, as the client names its files.
func realpath(t *testing.T, dir string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
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
	runClient(t, "lifecycle", dir, []string{
		"a request before initialize: ServerNotInitialized",
		"shutdown before initialize: ServerNotInitialized",
		"a notification before initialize is dropped",
		"initialize again: InvalidRequest",
		"serving once initialized",
		"a request after shutdown: InvalidRequest",
		"exit after shutdown: exit code 0",
	})
	runClient(t, "exit-without-shutdown", dir, []string{"exit without shutdown: exit code 1"})
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
	runClient(t, "lens-cancel", dir, []string{
		"the slow definition validates (so its lens simulates)",
		"code lens request 1, cancelled: RequestCancelled",
		"code lens request 2, cancelled: RequestCancelled",
		"code lens request 3, cancelled: RequestCancelled",
		"code lens request 4, cancelled: RequestCancelled",
		"still serving after the cancellations",
		shutdownCheck,
	})
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
	runClient(t, "huge-files", dir, []string{
		"the lockfile is read: checksum-mismatch",
		"a 3 GiB lockfile: code actions answered, without the lockfile fix",
		"a 3 GiB .dws.yaml: one diagnostic on it, saying why",
		"its documents are checked with the default config meanwhile",
		"a 3 GiB .dws.yaml: code actions answered, without an ignore entry in it",
		"still serving",
		shutdownCheck,
	})
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
	var checks []string
	renamed := func(file, at, name string) {
		what := file + ": rename " + at + " to " + jsonString(name)
		checks = append(checks, what+": the file still parses", what+": no error it had not", what+": the outline shows the new name")
	}
	refused := func(file, at, name string) {
		checks = append(checks, file+": rename "+at+" to "+jsonString(name)+": refused, saying why")
	}
	renamed("flow.yaml", "'ask_user'", "it's")
	renamed("flow.yaml", "'ask_user'", "a\x01b")
	renamed("flow.yaml", "'ask_user'", `say "hi"\`)
	renamed("flow.yaml", "'ask_user'", "true")
	renamed("flow.yaml", "summarize", "42")
	renamed("flow.yaml", "summarize", "key: b #c")
	renamed("flow.yaml", "summarize", "it's \x01")
	renamed("flow.yaml", `"review"`, "line\nbreak")
	renamed("flow.json", `"answer"`, "a\x01\"b\\")
	renamed("flow.json", `"answer"`, "tab\there")
	renamed("flow.yaml", "'draft'", "draft_2-b")
	refused("flow.yaml", "'draft'", "it's")
	refused("flow.yaml", "'draft'", "a.b")
	refused("flow.yaml", "'draft'", "x}}{{y")
	refused("flow.yaml", "gather", "a b")
	refused("flow.yaml", "gather", "a\x01b")
	refused("flow.yaml", "summarize", "a: b #c")
	refused("flow.yaml", "summarize", "..")
	runClient(t, "rename-quoting", dir, append(checks, shutdownCheck))
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
	runClient(t, "lens-bound", dir, []string{
		"the ring validates (so its lens simulates)",
		"the code lens says which bound stopped the simulation, as dws simulate does",
		"its command: the report, saying the same",
		shutdownCheck,
	}, strings.TrimPrefix(line, prefix))
}
