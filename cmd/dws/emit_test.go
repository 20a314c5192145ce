package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// direclawWith is a DireClaw file whose workflows have these ids, each one step.
func direclawWith(ids ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: studio\nselector_agent: router\ndefault_workflow: %s\n", strconv.Quote(ids[0]))
	b.WriteString("agents:\n  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }\n  worker: { provider: openai, model: gpt-5 }\nworkflows:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "  - id: %s\n    version: 1\n    description: One step\n    inputs: [user_message]\n    steps:\n", strconv.Quote(id))
		b.WriteString("      - id: answer\n        type: agent_task\n        agent: worker\n        prompt: \"Answer {{inputs.user_message}}\"\n")
		b.WriteString("        outputs: [summary]\n        output_files:\n          summary: answer/summary.txt\n")
	}
	return b.String()
}

// Scenario files dws simulate --emit-scenarios writes stay in the directory, one file
// per covering path of every definition: workflow ids and file names that climb out
// (/../), differ only in case, in a character a file name cannot hold, or name the same
// base name in two directories, each get files of their own; the count said is the
// count on disk; and a newline in a name adds no line of YAML: dws test runs every one
// of them, and they pass.
func TestEmitScenariosStayInTheirDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ids := []string{"/../../escaped/x", "../escaped/y", "nl\nexpect: {status: failed}\n#", "Review", "review",
		"a/b", "a_b", "-rf", ".hidden", "\x1b[2J\u2028x", "\u0085nel\x7f\u009f\ufeff\u202e:"}
	files := map[string]string{
		"defs/studio.yaml":                          direclawWith(ids...),
		"defs/a/orchestrator.yaml":                  direclawWith("main"),
		"defs/b/orchestrator.yaml":                  direclawWith("main"),
		"defs/B/Orchestrator.yaml":                  direclawWith("main"),
		"defs/nl\nexpect: {status: failed}\n#.yaml": direclawWith("main"),
	}
	// Where /../../escaped/x led: the directory exists, so a name that climbs out lands.
	if err := os.Mkdir("escaped", 0o755); err != nil {
		t.Fatal(err)
	}
	var args []string
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
	}
	// How many covering paths there are, as dws simulate reports them.
	var out, errb bytes.Buffer
	if code := run(append([]string{"dws", "simulate", "--format", "json"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("simulate: exit %d: %s%s", code, out.String(), errb.String())
	}
	var report struct {
		Definitions []struct {
			Workflow string
			Cover    []json.RawMessage
		}
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatal(err)
	}
	paths := 0
	for _, d := range report.Definitions {
		paths += len(d.Cover)
	}
	if len(report.Definitions) != len(ids)+4 || paths < len(ids)+4 {
		t.Fatalf("%d definitions, %d covering paths", len(report.Definitions), paths)
	}

	out.Reset()
	errb.Reset()
	if code := run(append([]string{"dws", "simulate", "--emit-scenarios", "out"}, args...), nil, &out, &errb); code != 0 {
		t.Fatalf("emit: exit %d: %s", code, errb.String())
	}
	m := regexp.MustCompile(`dws: wrote (\d+) scenario files to out\n`).FindStringSubmatch(errb.String())
	if m == nil {
		t.Fatalf("stderr: %q", errb.String())
	}
	said, _ := strconv.Atoi(m[1])
	plain := regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*\.scenario\.yaml$`)
	var onDisk []string
	err := filepath.WalkDir(filepath.Dir(dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".scenario.yaml") {
			return err
		}
		if filepath.Dir(p) != filepath.Join(dir, "out") {
			t.Errorf("a scenario file outside the directory: %q", p)
		}
		if !plain.MatchString(filepath.Base(p)) {
			t.Errorf("a file name that is not plain: %q", filepath.Base(p))
		}
		onDisk = append(onDisk, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if said != len(onDisk) || said != paths {
		t.Errorf("dws says it wrote %d files; %d are on disk; there are %d covering paths", said, len(onDisk), paths)
	}

	// Every file is what it was written to be: it runs, and passes.
	out.Reset()
	errb.Reset()
	code := run([]string{"dws", "test", "--min-coverage", "100", "out"}, nil, &out, &errb)
	want := fmt.Sprintf("%d scenarios: %d passed; coverage 100.0%%", paths, paths)
	if code != 0 || !strings.Contains(out.String(), want) {
		t.Errorf("dws test out: exit %d, want %q in\n%s%s", code, want, out.String(), errb.String())
	}
}

// --emit-scenarios naming a file, or a path under one, is a usage error (exit 2) said
// before anything is simulated, and the file is left as it was.
func TestEmitScenariosIntoAFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("def.yaml", []byte(direclawWith("main")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("notes.txt", []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"notes.txt", "notes.txt/sub"} {
		var out, errb bytes.Buffer
		code := run([]string{"dws", "simulate", "--emit-scenarios", target, "def.yaml"}, nil, &out, &errb)
		if code != exitUsage || !strings.Contains(errb.String(), "--emit-scenarios: "+target) || out.Len() > 0 {
			t.Errorf("--emit-scenarios %s: exit %d, stdout %q, stderr %q; want exit 2 and a message", target, code, out.String(), errb.String())
		}
	}
	if data, err := os.ReadFile("notes.txt"); err != nil || string(data) != "mine\n" {
		t.Errorf("notes.txt is now %q (%v)", data, err)
	}
}
