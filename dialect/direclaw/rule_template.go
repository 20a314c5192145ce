package direclaw

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var template = lint.Rule{
	ID: "template", Severity: lint.Error, Dialect: ID,
	Summary: "a {{…}} that is malformed, outside the allowed roots, or names an unknown step, input or output",
	Doc: `DireClaw fills {{…}} in prompts from inputs.<name>, steps.<step_id>.outputs.<key>, the run
state (state.<key>) and the runtime context: workflow.run_id, step_id, attempt,
run_workspace, output_schema_json, output_paths_json, output_paths.<key>, channel,
channel_profile_id, conversation_id, sender_id and selector_id; current releases add
workflow.runtime_context_json, memory_context_bulletin, memory_context_citations and
memory_context_json, and put the inputs user_message, channel_profile_id, selector_id,
message_id and conversation_id into every run the selector starts, declared or not. A
write_state value may also read the step's own outputs.<key>. output_files paths may use
only workflow.run_id, workflow.step_id and workflow.attempt. dws checks every
placeholder: an unclosed or empty one, another root, an input the workflow does not
declare, a step that is not in the workflow, or an output that step (or, for
output_paths, this step) does not declare is reported where it is written. What only
current releases provide is accepted under direclaw.release: current; under both or seed
it is reported, since the seed format does not provide it.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "{{inputs.user_message}}", "{{input.user_message}}")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkTemplates(p.File, model(p), releaseOf(p.File)) },
}

// where a template is written decides what it may name.
type where int

const (
	inPrompt where = iota
	inWriteState
	inOutputPath
)

// seedWorkflowKeys are the workflow.* values of the seed format; current releases add
// currentWorkflowKeys (prompt_render.rs).
var (
	seedWorkflowKeys = []string{"run_id", "step_id", "attempt", "run_workspace", "output_schema_json",
		"output_paths_json", "channel", "channel_profile_id", "conversation_id", "sender_id", "selector_id"}
	currentWorkflowKeys = []string{"runtime_context_json", "memory_context_bulletin", "memory_context_citations",
		"memory_context_json"}
)

// legacyInputs are the memory placeholders current releases refuse (direclaw-compat):
// the bulletin moved to workflow.memory_context_*.
var legacyInputs = []string{"memory_bulletin", "memory_bulletin_citations"}

// onlyCurrent is the hint for a value only current releases provide (what they do with
// it), for a file checked for rel.
func onlyCurrent(rel Release, what string) string {
	hint := " (only current DireClaw releases " + what
	if rel != Seed {
		hint += ": set direclaw: { release: current } in .dws.yaml if the files run only there"
	}
	return hint + ")"
}

var pathKeys = []string{"run_id", "step_id", "attempt"}

var dotted = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`) })

func checkTemplates(f *lint.File, o *orchestrator, rel Release) {
	for _, w := range o.workflows {
		c := &templates{f: f, w: w, rel: rel, inputs: w.declared(rel)}
		for _, s := range w.steps {
			if p := s.node.Get("prompt"); p != nil && p.Kind == source.String {
				c.check(s, p, s.ptr+"/prompt", inPrompt)
			}
			for _, m := range s.files.Entries() {
				if m.Value.Kind == source.String {
					c.check(s, m.Value, s.ptr+"/output_files/"+escape(m.Key), inOutputPath)
				}
			}
			if rel.current() {
				continue // current releases ignore write_state (direclaw-compat says so)
			}
			for _, m := range s.node.Get("write_state").Entries() {
				if m.Value.Kind == source.String {
					c.check(s, m.Value, s.ptr+"/write_state/"+escape(m.Key), inWriteState)
				}
			}
		}
	}
}

// templates checks the templates of one workflow for one release.
type templates struct {
	f      *lint.File
	w      *workflow
	rel    Release
	inputs map[string]bool // w.declared(rel)
}

func (c *templates) check(s *step, n *source.Node, ptr string, at where) {
	f := c.f
	text := n.Text
	report := func(from, to int, msg string) {
		span := source.Span{Start: f.Doc.StringPos(n, from), End: f.Doc.StringPos(n, to)}
		f.ReportAt("template", ptr, span, msg)
	}
	for i := 0; ; {
		k := strings.Index(text[i:], "{{")
		if k < 0 {
			return
		}
		open := i + k
		rest := text[open+2:]
		end := strings.Index(rest, "}}")
		if again := strings.Index(rest, "{{"); end < 0 || (again >= 0 && again < end) {
			report(open, open+2, `"{{" is never closed with "}}"`)
			if end < 0 {
				return
			}
			i = open + 2 + again
			continue
		}
		closeAt := open + 2 + end + 2
		if msg := c.judge(s, strings.TrimSpace(rest[:end]), at); msg != "" {
			report(open, closeAt, msg)
		}
		i = closeAt
	}
}

// judge returns what is wrong with the expression inside one {{…}}, or "".
func (c *templates) judge(s *step, expr string, at where) string {
	w := c.w
	shown := "{{" + expr + "}}"
	if expr == "" {
		return "{{}} is empty: name a value such as inputs.<name>"
	}
	if !dotted().MatchString(expr) {
		return shown + " is not a dotted name such as inputs.user_message"
	}
	seg := strings.Split(expr, ".")
	if at == inOutputPath {
		if len(seg) == 2 && seg[0] == "workflow" && slices.Contains(pathKeys, seg[1]) {
			return ""
		}
		return shown + " is not allowed in an output path: only workflow.run_id, workflow.step_id and workflow.attempt are"
	}
	switch seg[0] {
	case "inputs":
		if len(seg) != 2 {
			return shown + " is not inputs.<name>"
		}
		if c.rel.current() && slices.Contains(legacyInputs, seg[1]) {
			return "" // direclaw-compat reports the legacy placeholder
		}
		if c.inputs != nil && !c.inputs[seg[1]] {
			msg := fmt.Sprintf("%s names input %q, which workflow %q does not declare", shown, seg[1], w.id) +
				suggest.DidYouMean(seg[1], slices.Sorted(maps.Keys(c.inputs)))
			if slices.Contains(injected, seg[1]) {
				msg += onlyCurrent(c.rel, "fill it in every run the selector starts")
			}
			return msg
		}
	case "steps":
		if len(seg) != 4 || seg[2] != "outputs" {
			return shown + " is not steps.<step_id>.outputs.<key>"
		}
		t := w.byID[seg[1]]
		if t == nil {
			return fmt.Sprintf("%s names step %q, which is not a step of workflow %q", shown, seg[1], w.id) +
				suggest.Hint(seg[1], w.stepIDs(), "steps")
		}
		if !t.hasOutput(seg[3]) {
			return fmt.Sprintf("%s names output %q, which step %q does not declare", shown, seg[3], seg[1]) +
				suggest.Hint(seg[3], t.outputNames(), "outputs")
		}
	case "state":
		// Run state is free-form: any key may have been written by an earlier step.
	case "workflow":
		switch {
		case len(seg) == 2 && slices.Contains(seedWorkflowKeys, seg[1]):
		case len(seg) == 2 && slices.Contains(currentWorkflowKeys, seg[1]):
			if !c.rel.current() {
				return shown + " is not a workflow.* value of the seed format" + onlyCurrent(c.rel, "provide it")
			}
		case len(seg) == 3 && seg[1] == "output_paths":
			if !s.hasOutput(seg[2]) {
				return fmt.Sprintf("%s names output %q, which step %s does not declare", shown, seg[2], s.label()) +
					suggest.Hint(seg[2], s.outputNames(), "outputs")
			}
		default:
			keys := slices.Concat(seedWorkflowKeys[:6], []string{"output_paths.<key>"}, seedWorkflowKeys[6:])
			if c.rel.current() {
				keys = append(keys, currentWorkflowKeys...)
			}
			return shown + " is not a workflow.* value DireClaw provides (" + strings.Join(keys, ", ") + ")"
		}
	case "outputs":
		if at != inWriteState {
			return shown + " reads the step's own outputs, which only a write_state value may do"
		}
		if len(seg) != 2 {
			return shown + " is not outputs.<key>"
		}
		if !s.hasOutput(seg[1]) {
			return fmt.Sprintf("%s names output %q, which step %s does not declare", shown, seg[1], s.label()) +
				suggest.Hint(seg[1], s.outputNames(), "outputs")
		}
	default:
		return fmt.Sprintf("%s: %q is not a template root (inputs, steps, state, workflow)", shown, seg[0])
	}
	return ""
}
