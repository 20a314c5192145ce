package direclaw

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var compat = lint.Rule{
	ID: "direclaw-compat", Severity: lint.Warning, Dialect: ID,
	Summary: "valid in the seed format but rejected or ignored by current DireClaw releases",
	Doc: `Current DireClaw releases are stricter than the format the seed document describes: every
step needs a summary output; every workflow a non-empty description and non-empty,
duplicate-free tags; ids, agent keys, input keys and tags only ASCII letters, digits, -
and _; final_output_priority only declared outputs,
each once; inputs a list (or one string), not a mapping; output_files may not name the
attempt's own prompt.md, context.md or provider_invocation.json; the placeholders
{{inputs.memory_bulletin}} and {{inputs.memory_bulletin_citations}} are gone (use
workflow.memory_context_*); workspace_mode: agent_workspace and the agent keys
private_workspace and shared_access are gone; and the selector agent must set
can_orchestrate_workflows: true. They also ignore keys the seed format defines: on_blocked,
on_failed, needs, write_state and a step's limits.timeout_seconds. Each offending key
occurrence is one finding, so a file with none runs the same on both releases. The
severity follows .dws.yaml direclaw.release: a warning under both (the default), an error
under current (where the ignored keys are no routes either), off under seed.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep, "    description: Answer a question\n", "")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep)},
	Check: func(p *lint.Pass) { checkCompat(p.File, model(p)) },
}

// reservedFiles are the file names of an attempt's root that DireClaw writes itself
// (RESERVED_ATTEMPT_ROOT_OUTPUT_TARGETS): an output may not be one of them.
var reservedFiles = []string{"prompt.md", "context.md", "provider_invocation.json"}

// ignoredKeys are the step keys of the seed format that current releases read past.
var ignoredKeys = []struct{ key, why string }{
	{"on_blocked", "there is no blocked status, so the route is never taken"},
	{"on_failed", "a failed step fails the run, so the route is never taken"},
	{"needs", "steps run in the order their routes give, whatever they need"},
	{"write_state", "the state is never written"},
}

func checkCompat(f *lint.File, o *orchestrator) {
	root := o.root
	if id, ok := root.Get("id").Str(); ok {
		identifier(f, "/id", "orchestrator id", id)
	}
	// The selector agent must be allowed to orchestrate (an unknown one is selector-agent's).
	if name, ok := root.Get("selector_agent").Str(); ok && name != "" {
		if a := o.agent(name); a != nil {
			if v := a.Get("can_orchestrate_workflows"); v == nil || !v.Bool {
				f.Report("direclaw-compat", "/selector_agent", fmt.Sprintf(
					"selector agent %q does not set can_orchestrate_workflows: true, which current DireClaw releases require", name),
					f.Related("/agents/"+escape(name), "the agent is defined here"))
			}
		}
	}
	for _, m := range o.agents.Entries() {
		if !isIdentifier(m.Key) {
			f.ReportKey("direclaw-compat", "/agents/"+escape(m.Key), fmt.Sprintf(
				"agent key %q has characters other than ASCII letters, digits, - and _, which current DireClaw releases refuse", m.Key))
		}
		for _, k := range []string{"private_workspace", "shared_access"} {
			if m.Value.Member(k) != nil {
				f.ReportKey("direclaw-compat", "/agents/"+escape(m.Key)+"/"+k,
					fmt.Sprintf("agent %q sets %s, which current DireClaw releases no longer have", m.Key, k))
			}
		}
	}
	for _, w := range o.workflows {
		checkWorkflowCompat(f, o, w)
	}
}

func checkWorkflowCompat(f *lint.File, o *orchestrator, w *workflow) {
	name := fmt.Sprintf("workflow #%d", indexOf(o, w))
	if w.hasID {
		name = fmt.Sprintf("workflow %q", w.id)
		identifier(f, w.ptr+"/id", "workflow id", w.id)
	}
	for _, k := range []string{"description", "tags"} {
		if w.node.Member(k) == nil {
			f.Report("direclaw-compat", w.ptr, fmt.Sprintf("%s has no %s, which current DireClaw releases require", name, k))
		}
	}
	if d, ok := w.node.Get("description").Str(); ok && strings.TrimSpace(d) == "" {
		f.Report("direclaw-compat", w.ptr+"/description", fmt.Sprintf("%s has an empty description, which current DireClaw releases refuse", name))
	}
	if tags := w.node.Get("tags"); tags != nil && tags.Kind == source.Array {
		if len(tags.Items) == 0 {
			f.Report("direclaw-compat", w.ptr+"/tags", fmt.Sprintf("%s has no tags, which current DireClaw releases require", name))
		}
		seen := map[string]int{}
		for i, it := range tags.Items {
			t, ok := it.Str()
			if !ok {
				continue
			}
			at := w.ptr + "/tags/" + strconv.Itoa(i)
			// DireClaw compares tags trimmed and lower-cased (normalize_workflow_tag).
			norm := strings.ToLower(strings.TrimSpace(t))
			if !isIdentifier(norm) {
				f.Report("direclaw-compat", at, fmt.Sprintf(
					"tag %q has characters other than ASCII letters, digits, - and _, which current DireClaw releases refuse", t))
				continue
			}
			if j, dup := seen[norm]; dup {
				f.Report("direclaw-compat", at, fmt.Sprintf("%s repeats the tag %q, which current DireClaw releases refuse", name, norm),
					f.Related(w.ptr+"/tags/"+strconv.Itoa(j), "first given here"))
				continue
			}
			seen[norm] = i
		}
	}
	switch in := w.node.Get("inputs"); {
	case in == nil:
	case in.Kind == source.Object:
		f.Report("direclaw-compat", w.ptr+"/inputs", name+" declares inputs as a mapping; current DireClaw releases want a list of names")
	case in.Kind == source.Array:
		for i, it := range in.Items {
			if k, ok := it.Str(); ok {
				identifier(f, w.ptr+"/inputs/"+strconv.Itoa(i), "input key", strings.TrimSpace(k))
			}
		}
	case in.Kind == source.String:
		identifier(f, w.ptr+"/inputs", "input key", strings.TrimSpace(in.Text))
	}
	for _, s := range w.steps {
		checkStepCompat(f, s)
	}
}

func checkStepCompat(f *lint.File, s *step) {
	// An id with a "." or ".." segment is output-path's, which says where it leads.
	if s.hasID && (badSegment(s.id) == "" || !f.On("output-path")) {
		identifier(f, s.ptr+"/id", "step id", s.id)
	}
	if !s.hasOutput("summary") {
		ptr := s.ptr
		if s.hasOutputs {
			ptr += "/outputs"
		}
		f.Report("direclaw-compat", ptr, fmt.Sprintf(
			"step %s has no summary output, which current DireClaw releases require of every step", s.label()))
	}
	if v, _ := s.node.Get("workspace_mode").Str(); v == "agent_workspace" {
		f.Report("direclaw-compat", s.ptr+"/workspace_mode", fmt.Sprintf(
			"step %s uses workspace_mode: agent_workspace, which current DireClaw releases no longer have", s.label()))
	}
	for _, k := range ignoredKeys {
		if present(s.node, k.key) {
			f.ReportKey("direclaw-compat", s.ptr+"/"+k.key, fmt.Sprintf(
				"step %s sets %s, which current DireClaw releases ignore: %s", s.label(), k.key, k.why))
		}
	}
	if present(s.node.Get("limits"), "timeout_seconds") {
		f.ReportKey("direclaw-compat", s.ptr+"/limits/timeout_seconds", fmt.Sprintf(
			"step %s sets limits.timeout_seconds, which current DireClaw releases ignore: every step runs under workflow_orchestration.default_step_timeout_seconds", s.label()))
	}
	if fop := s.node.Get("final_output_priority"); fop != nil && fop.Kind == source.Array {
		checkPriority(f, s, fop)
	}
	for _, m := range s.files.Entries() {
		p, ok := m.Value.Str()
		if !ok || !s.hasID {
			continue
		}
		if name, ok := reservedTarget(interpolatePath(strings.TrimSpace(p), runID, s.id, 1)); ok {
			f.Report("direclaw-compat", s.ptr+"/output_files/"+escape(m.Key), fmt.Sprintf(
				"output path %q is the attempt's own %s, which current DireClaw releases reserve", p, name))
		}
	}
	if p := s.node.Get("prompt"); p != nil && p.Kind == source.String {
		legacyPlaceholders(f, p, s.ptr+"/prompt")
	}
}

// checkPriority checks final_output_priority as current releases do: at least one key,
// each a declared output, none twice, none with the optional marker.
func checkPriority(f *lint.File, s *step, fop *source.Node) {
	if len(fop.Items) == 0 {
		f.Report("direclaw-compat", s.ptr+"/final_output_priority", fmt.Sprintf(
			"step %s has an empty final_output_priority, which current DireClaw releases refuse (leave it out for their default)", s.label()))
		return
	}
	seen := map[string]int{}
	for i, it := range fop.Items {
		k, ok := it.Str()
		if !ok {
			continue
		}
		at := s.ptr + "/final_output_priority/" + strconv.Itoa(i)
		k = strings.TrimSpace(k)
		switch j, dup := seen[k]; {
		case strings.HasSuffix(k, "?"):
			f.Report("direclaw-compat", at, fmt.Sprintf(
				"final_output_priority key %q carries the optional marker, which current DireClaw releases refuse: write %q", k, strings.TrimSuffix(k, "?")))
		case !s.hasOutput(k):
			f.Report("direclaw-compat", at, fmt.Sprintf(
				"final_output_priority names %q, which is not an output of step %s: current DireClaw releases refuse it", k, s.label()))
		case dup:
			f.Report("direclaw-compat", at, fmt.Sprintf(
				"final_output_priority names %q twice, which current DireClaw releases refuse", k),
				f.Related(s.ptr+"/final_output_priority/"+strconv.Itoa(j), "first named here"))
		default:
			seen[k] = i
		}
	}
}

// reservedTarget reports whether an output path, its placeholders filled, is one of the
// attempt root's reserved files, as DireClaw's path components see it (a "." inside the
// path and empty segments are no components).
func reservedTarget(p string) (string, bool) {
	var segs []string
	for _, seg := range strings.Split(p, "/") {
		if seg != "" && seg != "." {
			segs = append(segs, seg)
		}
	}
	if len(segs) == 1 && slices.Contains(reservedFiles, segs[0]) {
		return segs[0], true
	}
	return "", false
}

// legacyPlaceholders reports {{inputs.memory_bulletin}} and
// {{inputs.memory_bulletin_citations}} in a prompt, where they are written.
func legacyPlaceholders(f *lint.File, n *source.Node, ptr string) {
	text := n.Text
	for i := 0; ; {
		k := strings.Index(text[i:], "{{")
		if k < 0 {
			return
		}
		open := i + k
		end := strings.Index(text[open+2:], "}}")
		if end < 0 {
			return
		}
		closeAt := open + 2 + end + 2
		expr := strings.TrimSpace(text[open+2 : open+2+end])
		if name, ok := strings.CutPrefix(expr, "inputs."); ok && slices.Contains(legacyInputs, name) {
			span := source.Span{Start: f.Doc.StringPos(n, open), End: f.Doc.StringPos(n, closeAt)}
			f.ReportAt("direclaw-compat", ptr, span, fmt.Sprintf(
				"{{%s}} is a placeholder current DireClaw releases refuse: read the memory bulletin from {{workflow.memory_context_bulletin}} (or memory_context_citations, memory_context_json)", expr))
		}
		i = closeAt
	}
}

// identifier reports an id current releases refuse: one that is empty or has a
// character other than an ASCII letter, digit, - or _ (validate_identifier_value).
func identifier(f *lint.File, ptr, what, v string) {
	switch {
	case isIdentifier(v):
	case strings.TrimSpace(v) == "":
		f.Report("direclaw-compat", ptr, fmt.Sprintf("%s %q is empty, which current DireClaw releases refuse", what, v))
	default:
		f.Report("direclaw-compat", ptr, fmt.Sprintf(
			"%s %q has characters other than ASCII letters, digits, - and _, which current DireClaw releases refuse", what, v))
	}
}

func isIdentifier(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

func indexOf(o *orchestrator, w *workflow) int {
	for i, x := range o.workflows {
		if x == w {
			return i
		}
	}
	return -1
}
