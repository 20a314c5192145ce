package scenario_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/scenario"
)

// project writes files (path → content) into a fresh directory and returns it.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(p, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runSuite(t *testing.T, dir string, timeout time.Duration) *scenario.Suite {
	t.Helper()
	reg := dialect.Registry()
	cfg := lint.DefaultConfig(dir)
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	files, err := scenario.Find([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	return scenario.Run(l, files, nil, scenario.Options{StubTimeout: timeout}, 2)
}

const hello = `{"schemaVersion": "1.0", "name": "hello", "version": "v1.0", "steps": [
  {"id": "greet", "type": "script", "params": {"code": "console.log('hi');"}, "onSuccess": null, "onFailure": null}
], "signature": ""}`

func TestHostileStubProcesses(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the stubs' working directories go
	pidDir := t.TempDir()
	dir := project(t, map[string]string{
		"hello.json": hello,
		// A stub that starts a child and hangs: both must be gone after the timeout.
		"hang.sh":               "#!/bin/sh\nsleep 300 &\necho $! > \"$1/child\"\necho $$ > \"$1/self\"\nsleep 300\n",
		"crash.sh":              "#!/bin/sh\necho 'segfault in the model' >&2\nexit 3\n",
		"garbage.sh":            "#!/bin/sh\ncat >/dev/null\necho 'hello there'\n",
		"two.sh":                "#!/bin/sh\necho '{\"ok\": true} {\"ok\": true}'\n",
		"good.sh":               "#!/bin/sh\ncat >/dev/null\necho '{\"fail\": \"timeout\"}'\n",
		"hang.scenario.yaml":    "definition: hello.json\nstubs: { greet: [{ run: [./hang.sh, " + strconv.Quote(pidDir) + "] }] }\n",
		"crash.scenario.yaml":   "definition: hello.json\nstubs: { greet: [{ run: ./crash.sh }] }\n",
		"garbage.scenario.yaml": "definition: hello.json\nstubs: { greet: [{ run: ./garbage.sh }] }\n",
		"two.scenario.yaml":     "definition: hello.json\nstubs: { greet: [{ run: ./two.sh }] }\n",
		"missing.scenario.yaml": "definition: hello.json\nstubs: { greet: [{ run: ./no-such-stub.sh }] }\n",
		"good.scenario.yaml":    "definition: hello.json\nstubs: { greet: [{ run: ./good.sh }] }\nexpect: { status: failed, path: [greet=fail] }\n",
	})
	start := time.Now()
	s := runSuite(t, dir, 500*time.Millisecond)
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the suite took %s: the hanging stub was not killed at its timeout", took)
	}
	want := map[string]string{
		"hang":    "did not answer within 500ms and was killed",
		"crash":   `exited with exit status 3: "segfault in the model"`,
		"garbage": `printed "hello there": want one JSON object`,
		"two":     "want one JSON object and nothing after it",
		"missing": "could not start",
		"good":    "",
	}
	for _, o := range s.Outcomes {
		w, ok := want[o.Scenario.Name]
		if !ok {
			t.Fatalf("unexpected scenario %s", o.Scenario.Name)
		}
		got := strings.Join(o.Failures, "; ")
		switch {
		case w == "" && !o.Passed:
			t.Errorf("%s failed: %s", o.Scenario.Name, got)
		case w != "" && (o.Passed || !strings.Contains(got, w)):
			t.Errorf("%s: failures %q, want one containing %q (%v)", o.Scenario.Name, got, w, o.Diagnostics)
		}
	}
	for _, f := range []string{"self", "child"} {
		b, err := os.ReadFile(filepath.Join(pidDir, f))
		if err != nil {
			t.Fatalf("the hanging stub did not start: %v", err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
		if pid <= 0 {
			t.Fatalf("bad pid %q", b)
		}
		if alive(pid) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("the hanging stub's %s process %d is still running", f, pid)
		}
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("stub working directories left behind: %v", left)
	}
}

const newsroom = `id: newsroom
selector_agent: router
default_workflow: publish
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  editor: { provider: anthropic, model: opus }
workflows:
  - id: publish
    version: 1
    description: Review, then publish
    tags: [default]
    inputs: [user_message]
    steps:
      - id: review
        type: agent_review
        agent: editor
        prompt: "Review {{inputs.user_message}}"
        outputs: [decision, summary]
        output_files:
          decision: review/decision__{{workflow.attempt}}.txt
          summary: review/summary.txt
        on_approve: publish
        on_reject: publish
      - id: publish
        type: agent_task
        agent: editor
        prompt: "Publish"
`

// The files a DireClaw stub writes are checked as DireClaw's runtime checks them.
func TestDireClawOutputFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("approve\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := project(t, map[string]string{
		"orchestrator.yaml":     newsroom,
		"approve.sh":            "#!/bin/sh\ncall=$(cat)\np() { printf '%s' \"$call\" | sed -n \"s/.*\\\"$1\\\":\\\"\\([^\\\"]*\\)\\\".*/\\1/p\"; }\nprintf '  APPROVE \\n' > \"$(p decision)\"\necho done > \"$(p summary)\"\necho '{\"ok\": true}'\n",
		"empty.sh":              "#!/bin/sh\ncall=$(cat)\np() { printf '%s' \"$call\" | sed -n \"s/.*\\\"$1\\\":\\\"\\([^\\\"]*\\)\\\".*/\\1/p\"; }\n: > \"$(p decision)\"\necho done > \"$(p summary)\"\necho '{\"ok\": true}'\n",
		"nothing.sh":            "#!/bin/sh\ncat >/dev/null\necho '{\"ok\": true}'\n",
		"escape.sh":             "#!/bin/sh\ncall=$(cat)\np() { printf '%s' \"$call\" | sed -n \"s/.*\\\"$1\\\":\\\"\\([^\\\"]*\\)\\\".*/\\1/p\"; }\nln -s " + outside + " \"$(p decision)\"\necho done > \"$(p summary)\"\necho '{\"ok\": true}'\n",
		"approve.scenario.yaml": "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./approve.sh }] }\nexpect: { status: succeeded, path: [review=approve, publish] }\n",
		"empty.scenario.yaml":   "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./empty.sh }] }\nexpect: { status: failed, path: [review=invalid] }\n",
		"nothing.scenario.yaml": "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./nothing.sh }] }\nexpect: { status: failed, path: [review=invalid] }\n",
		"escape.scenario.yaml":  "definition: orchestrator.yaml\nworkflow: publish\nstubs: { review: [{ run: ./escape.sh }] }\n",
	})
	s := runSuite(t, dir, 5*time.Second)
	for _, o := range s.Outcomes {
		got := strings.Join(o.Failures, "; ")
		switch o.Scenario.Name {
		case "escape":
			if o.Passed || !strings.Contains(got, "output decision resolves outside the step's output root") {
				t.Errorf("escape: failures %q, want the output root refused", got)
			}
		default:
			if !o.Passed {
				t.Errorf("%s failed: %s %v", o.Scenario.Name, got, o.Diagnostics)
			}
		}
	}
	if len(s.Definitions) != 1 || s.Definitions[0].Workflow != "publish" {
		t.Fatalf("definitions %+v", s.Definitions)
	}
}

// Answers pick invocations in order, times spans several, and the last repeats.
func TestAnswersInOrder(t *testing.T) {
	dir := project(t, map[string]string{
		"orchestrator.yaml": newsroom,
		"loop.scenario.yaml": `definition: orchestrator.yaml
workflow: publish
stubs:
  review: [{ decision: reject }]
  publish: [{ fail: down, times: 2 }, { ok: true }, { ok: true }]
expect: { status: failed, path: [review=reject, publish=failed] }
`,
	})
	s := runSuite(t, dir, time.Second)
	o := s.Outcomes[0]
	if !o.Passed {
		t.Fatalf("failed: %v %v", o.Failures, o.Diagnostics)
	}
	// publish has no retries: its one invocation takes the first answer; the two ok
	// answers are never used.
	if len(o.Warnings) != 2 || !strings.Contains(o.Warnings[0], `answer 2 of "publish" was never used`) {
		t.Errorf("warnings %q", o.Warnings)
	}
}

// alive reports whether a process runs: it exists and is not a zombie waiting for a
// parent that no longer exists to reap it.
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the command name, which is in parentheses.
	i := strings.LastIndexByte(string(stat), ')')
	return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
}

// A scenario that names a workflow its definition lacks is a finding at the name.
func TestUnknownWorkflow(t *testing.T) {
	dir := project(t, map[string]string{
		"orchestrator.yaml":  newsroom,
		"bad.scenario.yaml":  "definition: orchestrator.yaml\nworkflow: pubish\n",
		"none.scenario.yaml": "definition: nowhere.yaml\n",
	})
	s := runSuite(t, dir, time.Second)
	for _, o := range s.Outcomes {
		if o.Passed || len(o.Diagnostics) != 1 {
			t.Fatalf("%s: %+v", o.Scenario.Name, o)
		}
		d := o.Diagnostics[0]
		switch o.Scenario.Name {
		case "bad":
			if d.Line != 2 || d.Column != 11 || !strings.Contains(d.Message, `no workflow "pubish" (publish)`) {
				t.Errorf("bad: %+v", d)
			}
		case "none":
			if d.Line != 1 || d.Rule != "ref" || !strings.Contains(d.Message, "cannot be read") {
				t.Errorf("none: %+v", d)
			}
		}
	}
}
