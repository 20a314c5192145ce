package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dwsdev/dws/internal/printable"
)

// hostileEnsemble's phase names hold an escape sequence that clears the screen, a CR
// and LF followed by a forged GitHub Actions command, quotes, angle brackets, Mermaid's
// own syntax (|, #quot;, backticks) and a colon.
const hostileEnsemble = `ensemble: "news\e]0;pwned\a"
phases:
  - name: "research\e[2J\r\n::error file=x.yaml,line=1::forged \"q\" <i>|#quot;` + "`x`" + `"
    tasks:
      - { name: dig, description: Dig }
  - name: "write: it <b>"
    after: ["research\e[2J\r\n::error file=x.yaml,line=1::forged \"q\" <i>|#quot;` + "`x`" + `"]
    tasks:
      - { name: draft, description: Draft }
`

// hostileDireClaw's one workflow has an id with a colon (which a YAML title must quote),
// angle brackets and an escape sequence that retitles the terminal.
const hostileDireClaw = `id: studio
selector_agent: router
default_workflow: "review: strict <b>\e]0;pwned\a"
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: "review: strict <b>\e]0;pwned\a"
    version: 1
    description: Gather, then answer
    inputs: [user_message]
    steps:
      - id: gather
        type: agent_task
        agent: worker
        prompt: "Collect {{inputs.user_message}}"
        outputs: [summary]
        output_files:
          summary: gather/summary.txt
      - id: reply
        type: agent_task
        agent: worker
        prompt: "Answer"
        outputs: [summary]
        output_files:
          summary: reply/summary.txt
`

// hostileSteps is a DireClaw file whose workflow id holds a C1 CSI (U+009B) and a
// right-to-left override (U+202E), and whose first step's id holds an escape sequence,
// a CR and LF before a forged GitHub Actions command, a line separator (U+2028), the
// override and the CSI.
const hostileSteps = `id: steps
selector_agent: router
default_workflow: "wf\u009b\u202e"
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: "wf\u009b\u202e"
    version: 1
    description: Gather, then answer
    inputs: [user_message]
    steps:
      - id: "g\e[2J\r\n::error file=x.yaml,line=1::pwned\u2028\u202e\u009b"
        type: agent_task
        agent: worker
        prompt: "Collect {{inputs.user_message}}"
        outputs: [summary]
        output_files:
          summary: gather/summary.txt
      - id: reply
        type: agent_task
        agent: worker
        prompt: "Answer"
        outputs: [summary]
        output_files:
          summary: reply/summary.txt
`

// hostileStep and hostileWorkflow are hostileSteps's ids as they are read.
const (
	hostileStep     = "g\x1b[2J\r\n::error file=x.yaml,line=1::pwned\u2028\u202e\u009b"
	hostileWorkflow = "wf\u009b\u202e"
)

// rawControl matches what must never reach an output: C0 controls but the newline
// that ends a line, DEL, C1 controls, the line and paragraph separators, the
// bidirectional controls, and U+FEFF, U+FFFE, U+FFFF (printable's list).
var rawControl = regexp.MustCompile(`[\x00-\x09\x0b-\x1f\x7f\x{80}-\x{9f}\x{2028}\x{2029}\x{202a}-\x{202e}\x{2066}-\x{2069}\x{feff}\x{fffe}\x{ffff}]`)

// Ids and names from a definition reach the terminal, a CI log, a Mermaid viewer and
// an XHTML page escaped, in every output of every command, as dws validate's text
// report escapes them: no control character gets through, no line is forged, the
// Mermaid parses (a workflow id "review: strict" in the title included), the DOT renders
// and the coverage page is well-formed XML.
func TestHostileIDsInEveryOutput(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	hostileFile := "bad\x1b[2J\n::error file=x.yaml,line=1::forged.yaml"
	broken := "broken\x1b]0;pwned\a.json"
	for name, text := range map[string]string{
		"ens.yaml":  hostileEnsemble,
		"dc.yaml":   hostileDireClaw,
		"dcx.yaml":  hostileSteps,
		broken:      "{\"steps\": [\n",
		hostileFile: "ensemble: n\nphases:\n  - { name: a, after: [nowhere], tasks: [{ name: t, description: d }] }\n",
		// dws diff: the hostile step's prompt changed, reply gone, the version the same.
		"dcx2.yaml": strings.Replace(strings.Replace(hostileSteps, `prompt: "Collect {{inputs.user_message}}"`, `prompt: "Gather {{inputs.user_message}}"`, 1),
			"      - id: reply\n        type: agent_task\n        agent: worker\n        prompt: \"Answer\"\n        outputs: [summary]\n        output_files:\n          summary: reply/summary.txt\n", "", 1),
		hostileFile + "2": "ensemble: n\nphases:\n  - { name: a, tasks: [{ name: t, description: d }] }\n  - { name: b, after: [a], tasks: [{ name: t, description: d }] }\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"ens.yaml", "dc.yaml", "dcx.yaml"} {
		var out, errb bytes.Buffer
		if code := run([]string{"dws", "validate", f}, nil, &out, &errb); code != 0 {
			t.Fatalf("%s does not validate (exit %d): %s%s", f, code, out.String(), errb.String())
		}
	}
	if code := run([]string{"dws", "simulate", "--emit-scenarios", "scenarios", "ens.yaml", "dc.yaml", "dcx.yaml"}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("emitting scenarios: exit %d", code)
	}
	// A scenario that expects another path: the side-by-side report shows both.
	wrong := "definition: ../ens.yaml\nexpect:\n  path: [\"write: it <b>\"]\n"
	if err := os.WriteFile("scenarios/wrong.scenario.yaml", []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	wrongSteps := "definition: ../dcx.yaml\nworkflow: \"wf\\u009b\\u202e\"\nexpect:\n  path: [reply=complete]\n"
	if err := os.WriteFile("scenarios/wrongsteps.scenario.yaml", []byte(wrongSteps), 0o644); err != nil {
		t.Fatal(err)
	}
	type output struct {
		args    []string
		mermaid bool
		dot     bool
		junit   bool
		json    bool
	}
	command := regexp.MustCompile(`^::(error|warning|notice) file=[^,:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^,:]*::`)
	outputs := []output{
		{args: []string{"graph", "ens.yaml"}, mermaid: true},
		{args: []string{"graph", "dc.yaml"}, mermaid: true},
		{args: []string{"graph", "--format", "dot", "ens.yaml"}, dot: true},
		{args: []string{"graph", "--format", "dot", "dc.yaml"}, dot: true},
		{args: []string{"simulate", "--format", "mermaid", "ens.yaml"}, mermaid: true},
		{args: []string{"simulate", "--format", "mermaid", "dc.yaml"}, mermaid: true},
		{args: []string{"graph", "dcx.yaml"}, mermaid: true},
		{args: []string{"graph", "--format", "dot", "dcx.yaml"}, dot: true},
		{args: []string{"simulate", "--format", "mermaid", "dcx.yaml"}, mermaid: true},
		{args: []string{"simulate", "--path", "2", "ens.yaml", "dc.yaml", "dcx.yaml"}},
		{args: []string{"simulate", "ens.yaml", "dc.yaml", "dcx.yaml"}},
		{args: []string{"simulate", "--format", "json", "ens.yaml", "dc.yaml", "dcx.yaml"}, json: true},
		{args: []string{"validate", "--format", "json", hostileFile, "dcx.yaml"}, json: true},
		{args: []string{"validate", "--format", "sarif", hostileFile, "dcx.yaml"}, json: true},
		{args: []string{"validate", "--format", "codeclimate", hostileFile, "dcx.yaml"}, json: true},
		{args: []string{"validate", "--format", "junit", hostileFile, "dcx.yaml"}, junit: true},
		{args: []string{"test", "--run", "-1$|wrong", "--format", "junit", "scenarios"}, junit: true},
		{args: []string{"test", "--run", "-1$|wrong", "--format", "json", "scenarios"}, json: true},
		// Only the scenarios of one path of each: edges stay uncovered.
		{args: []string{"test", "--run", "-1$|wrong", "--coverage-report", "coverage.html", "scenarios"}},
		{args: []string{"validate", "--format", "github", hostileFile, "ens.yaml"}},
		{args: []string{"validate", hostileFile}},
		{args: []string{"graph", hostileFile + ".missing"}},
		{args: []string{"checksum", hostileFile, broken}},
		{args: []string{"checksum", "--write", hostileFile, broken}},
		{args: []string{"diff", "dcx.yaml", "dcx2.yaml"}},
		{args: []string{"diff", "--format", "markdown", "dcx.yaml", "dcx2.yaml"}},
		{args: []string{"diff", "--format", "json", "dcx.yaml", "dcx2.yaml"}, json: true},
		{args: []string{"diff", "--format", "github", "dcx.yaml", "dcx2.yaml"}},
		{args: []string{"diff", "--format", "sarif", "dcx.yaml", "dcx2.yaml"}, json: true},
		{args: []string{"diff", "--format", "codeclimate", "dcx.yaml", "dcx2.yaml"}, json: true},
		{args: []string{"diff", "--format", "junit", "dcx.yaml", "dcx2.yaml"}, junit: true},
		{args: []string{"diff", "--format", "mermaid", "dcx.yaml", "dcx2.yaml"}, mermaid: true},
		{args: []string{"diff", "--format", "dot", "dcx.yaml", "dcx2.yaml"}, dot: true},
		{args: []string{"diff", hostileFile, hostileFile + "2"}},
		{args: []string{"diff", "--format", "markdown", hostileFile, hostileFile + "2"}},
		{args: []string{"diff", "--format", "github", hostileFile, hostileFile + "2"}},
		{args: []string{"diff", "ens.yaml", broken}},
		{args: []string{"checksum", "--nodes", "dcx.yaml", broken}},
	}
	var mermaids []string
	for i, o := range outputs {
		var out, errb bytes.Buffer
		code := run(append([]string{"dws"}, o.args...), nil, &out, &errb)
		if code > 1 {
			t.Errorf("dws %q: exit %d: %q", o.args, code, errb.String())
		}
		for stream, text := range map[string]string{"stdout": out.String(), "stderr": errb.String()} {
			if loc := rawControl.FindStringIndex(text); loc != nil {
				t.Errorf("dws %q: a raw %q reaches %s: %q", o.args, text[loc[0]:loc[1]], stream, text)
			}
			for _, line := range strings.Split(text, "\n") {
				if strings.HasPrefix(line, "::error file=x.yaml") {
					t.Errorf("dws %q: a forged workflow command in %s: %q", o.args, stream, line)
				}
			}
		}
		if o.args[0] == "validate" && o.args[1] == "--format" && o.args[2] == "github" {
			for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				if !command.MatchString(line) {
					t.Errorf("not a workflow command: %q", line)
				}
			}
		}
		if o.junit {
			checkJUnit(t, o.args, out.Bytes(), o.args[0] == "test")
		}
		if o.json {
			checkJSON(t, o.args, out.Bytes(), o.args[0] != "validate")
		}
		if o.mermaid {
			m := filepath.Join(dir, fmt.Sprintf("%02d.mmd", i))
			if err := os.WriteFile(m, out.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			mermaids = append(mermaids, m)
		}
		if o.dot {
			dot, err := exec.LookPath("dot")
			if err != nil {
				t.Fatal("Graphviz's dot is not installed: scripts/test.sh installs it (apt-get install graphviz)")
			}
			cmd := exec.Command(dot, "-Tsvg", "-o", os.DevNull)
			cmd.Stdin = &out
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("dot rejects dws %q: %v\n%s", o.args, err, msg)
			}
		}
	}
	parseMermaid(t, mermaids)
	page, err := os.ReadFile("coverage.html")
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = true
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the coverage page is not well-formed: %v", err)
		}
	}
	if !strings.Contains(string(page), `research\x1b[2J\r\n::error`) {
		t.Errorf("the coverage page does not show the phase's name escaped")
	}
}

// checkJUnit checks what a JUnit reader gets from the report: no attribute or text
// holds a character printable does not pass, or a line that is a workflow command, and
// the hostile step id shows escaped as printable escapes it (when ids is set).
func checkJUnit(t *testing.T, args []string, report []byte, ids bool) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(report))
	dec.Strict = true
	var values []string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("dws %q: the JUnit report is not well-formed: %v", args, err)
			return
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			for _, a := range tok.Attr {
				values = append(values, a.Value)
			}
		case xml.CharData:
			values = append(values, string(tok))
		}
	}
	for _, v := range values {
		if loc := rawControl.FindStringIndex(v); loc != nil {
			t.Errorf("dws %q: the JUnit report holds a raw %q: %q", args, v[loc[0]:loc[1]], v)
		}
		if strings.ContainsRune(v, '\ufffd') {
			t.Errorf("dws %q: the JUnit report replaced a character by U+FFFD instead of escaping it: %q", args, v)
		}
		for _, line := range strings.Split(v, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "::error") {
				t.Errorf("dws %q: a forged workflow command in the JUnit report: %q", args, line)
			}
		}
	}
	if want := printable.String(hostileStep); ids && !strings.Contains(strings.Join(values, "\n"), want) {
		t.Errorf("dws %q: the JUnit report does not show the step id as %q", args, want)
	}
}

// checkJSON checks a JSON report: it parses, it holds the hostile ids exactly (JSON
// escapes them: a reader gets the id the definition has; when ids is set), and its
// bytes hold no character printable does not pass (rawControl checks that of every
// output).
func checkJSON(t *testing.T, args []string, report []byte, ids bool) {
	t.Helper()
	var v any
	if err := json.Unmarshal(report, &v); err != nil {
		t.Errorf("dws %q: the JSON report does not parse: %v", args, err)
		return
	}
	if !ids {
		return
	}
	var strs []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case string:
			strs = append(strs, v)
		}
	}
	walk(v)
	all := strings.Join(strs, "\n")
	if !strings.Contains(all, hostileWorkflow) || !strings.Contains(all, hostileStep) {
		t.Errorf("dws %q: the JSON report does not hold the workflow id %q and the step id %q as they are", args, hostileWorkflow, hostileStep)
	}
}

// parseMermaid parses each file with the mermaid package's own parser.
func parseMermaid(t *testing.T, files []string) {
	t.Helper()
	modules := filepath.Join(repoRoot, ".cache/mermaid/node_modules")
	if _, err := os.Stat(filepath.Join(modules, "mermaid")); err != nil {
		t.Fatalf("the mermaid package is not installed in %s: scripts/test.sh installs it", modules)
	}
	cmd := exec.Command("node", append([]string{filepath.Join(repoRoot, "report/testdata/mermaid-parse.mjs")}, files...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	if msg, err := cmd.CombinedOutput(); err != nil {
		var shown strings.Builder
		for _, f := range files {
			data, _ := os.ReadFile(f)
			fmt.Fprintf(&shown, "--- %s\n%s", filepath.Base(f), data)
		}
		t.Errorf("mermaid rejects drawings: %v\n%s\n%s", err, msg, shown.String())
	}
}
