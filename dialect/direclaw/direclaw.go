// Package direclaw is the DireClaw dialect: an orchestrator.yaml with inline workflows, in
// both the seed format and the current release (SPEC §2.2, §4.6, §15).
//
// Releases (.dws.yaml direclaw.release, Settings): both (the default) checks the seed
// format's rules as errors and the current release's further rules as direclaw-compat
// warnings; current makes direclaw-compat an error, drops what only the seed format asks
// for and reads the file as current DireClaw does; seed turns direclaw-compat off. The
// current release is DireClaw v0.1.10 (github.com/dmuso/direclaw, its config structs and
// validate). Decisions where its behaviour is not a rule of the format:
//   - null is absent for every key DireClaw reads as a serde Option (what direclaw setup
//     writes as null: next, on_approve, on_reject, limits and their fields,
//     workflow_orchestration and its fields, outputs, output_files,
//     final_output_priority), for inputs (current releases read null as no inputs) and
//     for the seed-only keys (on_blocked, on_failed, needs, write_state, a step's
//     timeout_seconds; private_workspace and shared_access too, though current releases
//     refuse those keys whatever their value, so direclaw-compat still reports them
//     when null). Elsewhere null stays a schema
//     error: current releases fail to load selector_timeout_seconds, selection_max_retries,
//     can_orchestrate_workflows, prompt_type, workspace_mode, tags or description given as
//     null (the last they would even read as the text "null").
//   - Timeouts may be 0 (run, step, default and maximum); selector_timeout_seconds and
//     max_total_iterations stay at least 1 (current releases refuse a selector timeout of
//     0; 0 iterations fails every run).
//   - The embedded schema accepts both releases' shapes (inputs optional, a list, a
//     mapping, one string or null); that the seed format requires inputs as a list or a
//     mapping is reported by this dialect as schema, under seed and both.
//   - Under current, on_blocked and on_failed are no edges and no simulated outcomes (there
//     is no blocked status, and a failed step fails the run), needs is not checked by ref,
//     a step's timeout_seconds is not checked by timeout-clamp and write_state is not
//     template-checked: current releases read past all of them, and direclaw-compat
//     reports each key instead. Under both they are followed and also reported as
//     direclaw-compat warnings, so a file with none runs the same on either release.
//   - The inputs the current selector puts into every run it starts (user_message,
//     channel_profile_id, selector_id, message_id, conversation_id) count as declared only
//     under current; an absent or null inputs is then no declared input. Under seed and
//     both an undeclared one stays a template finding, with a hint at the release setting.
//     The same holds for workflow.runtime_context_json and workflow.memory_context_*.
//   - A step id with a "." or ".." segment is output-path's, not also direclaw-compat's.
//     Tags are compared as current releases compare them: trimmed and lower-cased.
//   - {{inputs.memory_bulletin}} and {{inputs.memory_bulletin_citations}} are checked in
//     prompts and reported by direclaw-compat; under current, template leaves them to it.
//   - selection_max_retries, which current releases require, is not checked (not a rule
//     this dialect was asked to know; current DireClaw fails to load a file without it).
//
// Graph: one graph per workflow (at /workflows/N/steps). The first step is the entry.
// Edges are next, on_approve, on_reject, on_blocked and on_failed (the last two not under
// release: current); an agent_task without a usable next continues with the next step in
// list order (a sequential edge), and the last step without one is an exit. DireClaw
// bounds every run by max_total_iterations, so loops are legal and only dead-end applies.
//
// Decisions where SPEC is silent:
//   - A review that lacks on_approve or on_reject ends the run on that decision: it is an
//     exit, so the missing route is reported once, by review-routing, not again as dead-end.
//   - on_approve/on_reject on an agent_task are not edges: DireClaw never follows them;
//     review-routing reports them. next on a review is an edge.
//   - An edge naming no step is dropped after its dangling-edge finding, so an agent_task
//     whose next dangles is judged as if it had none (continues in list order or exits).
//   - ref also covers a `needs` entry naming no step of the workflow.
//   - template also checks inputs.<name> against the workflow's declared inputs, and
//     workflow.output_paths.<key> against the step's own outputs.
//   - timeout-clamp also covers default_step_timeout_seconds above the maximum.
//   - output-path checks each output_files path as written and again with
//     {{workflow.step_id}} filled in as DireClaw fills it (exact placeholders only), and
//     reports a step id that is absolute or has a "." or ".." segment (DireClaw joins it
//     into every path of the step's files; the seed format does not restrict ids, current
//     releases allow only ASCII letters, digits, - and _).
//   - direclaw-compat accepts an optional "summary?" output as the summary current releases
//     require (DireClaw compares the name without its marker).
//   - Two workflows with one id are duplicate-id, reported at the second.
//
// Simulation (SPEC §8.1; dws simulate): each workflow of the file is one definition,
// simulated on its own from its first step (the selector and default_workflow are not
// simulated; later definitions of a workflow id are not either). An agent_task answers
// complete (along next, else to the next step in list order; the last step ends the run
// succeeded), blocked (along on_blocked) or failed (along on_failed); an agent_review
// answers approve (on_approve), reject (on_reject) or invalid (a decision file that is
// neither word, which ends the run failed). failed means the step's retries are used up:
// retries never make paths. Decisions where SPEC is silent:
//   - blocked with no on_blocked ends the run failed, as failed with no on_failed does,
//     and both are sim-unhandled-failure (one finding per step, naming the missing
//     routes). invalid is not: no route can handle it.
//   - Under release: current an agent_task answers complete or failed, and failed ends
//     the run with no sim-unhandled-failure: no route could handle it.
//   - A review missing on_approve ends the run succeeded on approve; one missing on_reject
//     ends it failed on reject (sim-unhandled-failure). This is the exit the graph sees
//     there; such a file only gets simulated with review-routing turned off. (DireClaw's
//     runtime itself fails the run on either decision.)
//   - A review's next is never followed: it is listed as the edge "step:next" that no path
//     takes. A route naming no step is absent, as in the graph: next continues in list
//     order, on_blocked and the others end the run.
//   - max_total_iterations (the workflow's limits, else workflow_orchestration, else 12)
//     counts visits: the first step is visit 1, and a retried attempt is no new visit.
//     A route taken at the last allowed visit is not followed: the run ends failed there,
//     and the step it leaves gets sim-max-iterations (once per step), with the limit's
//     place as related information. The outcome still counts as taken (edge step:reject).
//   - A run's state is (step, visits so far), so every loop unrolls up to the limit and
//     the count is exact. When no run can reach the limit (no loop is reachable and no
//     path is longer than it), visits are left out of the state: the counts are the same
//     and sim can prove its cover minimum.
//   - Findings of one workflow are reported at its steps; the report lists under each
//     workflow the findings within it (sim.Definition.Pointer).
package direclaw

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// ID is the dialect id.
const ID = "direclaw"

// Dialect returns the DireClaw dialect.
func Dialect() *lint.Dialect {
	return &lint.Dialect{
		ID: ID,
		// A document with top-level selector_agent and workflows.
		Detect: func(doc *source.Document) bool { return doc.Root.Has("selector_agent", "workflows") },
		Decode: func(doc *source.Document) any { return decode(doc) },
		Graphs: graphs,
		Rules: []*lint.Rule{&defaultWorkflow, &selectorAgent, &outputFiles, &outputPath, &template,
			&reviewRouting, &timeoutClamp, &compat},
		Checks: []lint.Check{
			{Rules: []string{"ref"}, Run: func(p *lint.Pass) { checkRefs(p.File, model(p), releaseOf(p.File)) }},
			{Rules: []string{"schema"}, Run: func(p *lint.Pass) { checkSeedSchema(p.File, model(p), releaseOf(p.File)) }},
		},
		Config:    map[string]lint.SectionParser{ID: parseSettings},
		ConfigDoc: configDoc,
		Simulate:  simulate,
		Units:     units,

		EdgeFields: edgeFields,
		Describe:   describe,
		References: references,
		EndLabels:  endLabels,
		Examples:   coreExamples,
		Fix:        fix,
	}
}

// model is the orchestrator Decode made of the file.
func model(p *lint.Pass) *orchestrator {
	if o, ok := p.Model.(*orchestrator); ok {
		return o
	}
	return &orchestrator{}
}

// orchestrator is the file, read tolerantly: the schema stage has already reported what
// is malformed, so a field of the wrong type is simply absent here.
type orchestrator struct {
	root      *source.Node
	agents    *source.Node // the agents object; nil when absent or not an object
	workflows []*workflow
}

type workflow struct {
	ptr   string
	node  *source.Node
	id    string
	hasID bool
	// inputs are the declared input names (a list's items, a mapping's keys or the one
	// string, trimmed as current releases trim them); nil when inputs is absent, null or
	// malformed.
	inputs map[string]bool
	steps  []*step
	byID   map[string]*step // first definitions
}

// injected are the inputs current releases put into every run the selector starts
// (selector_start_inputs), declared or not.
var injected = []string{"user_message", "channel_profile_id", "selector_id", "message_id", "conversation_id"}

// declared returns the input names a template may read under rel, or nil when they are
// unknown (inputs malformed, or absent where the seed format requires them: the schema
// stage reports that). Current releases read an absent or null inputs as none, and add
// the injected ones.
func (w *workflow) declared(rel Release) map[string]bool {
	if !rel.current() {
		return w.inputs
	}
	in := w.node.Get("inputs")
	if w.inputs == nil && !isNull(in) {
		return nil
	}
	out := map[string]bool{}
	for k := range w.inputs {
		out[k] = true
	}
	for _, k := range injected {
		out[k] = true
	}
	return out
}

// isNull reports whether n is absent or null: DireClaw reads a null optional key as
// absent (serde Option), in both revisions.
func isNull(n *source.Node) bool { return n == nil || n.Kind == source.Null }

// present reports whether n has key with a value other than null.
func present(n *source.Node, key string) bool { return !isNull(n.Get(key)) }

type step struct {
	index  int
	ptr    string
	node   *source.Node
	id     string
	hasID  bool
	review bool // type agent_review
	typ    string
	// outputs are the output keys without their optional marker, in order; outputsPtr is
	// set when the step has an outputs list.
	outputs    []output
	hasOutputs bool
	files      *source.Node // output_files object, nil when absent or malformed
	routes     map[string]route
}

type output struct {
	name     string
	optional bool
	ptr      string
}

// route is a routing field (next, on_approve, …) holding a step id.
type route struct {
	target string
	ptr    string
}

var routeFields = []string{"next", "on_approve", "on_reject", "on_blocked", "on_failed"}

// seedRoutes are the routing fields only the seed format follows: current releases have
// no blocked or failed status and ignore both keys (direclaw-compat reports them).
var seedRoutes = []string{"on_blocked", "on_failed"}

// routesFor returns the step's routes that rel follows.
func (s *step) routesFor(rel Release) map[string]route {
	if !rel.current() {
		return s.routes
	}
	out := make(map[string]route, len(s.routes))
	for k, r := range s.routes {
		if !slices.Contains(seedRoutes, k) {
			out[k] = r
		}
	}
	return out
}

func decode(doc *source.Document) *orchestrator {
	o := &orchestrator{root: doc.Root}
	if a := doc.Root.Get("agents"); a != nil && a.Kind == source.Object {
		o.agents = a
	}
	arr := doc.Root.Get("workflows")
	if arr == nil || arr.Kind != source.Array {
		return o
	}
	for i, n := range arr.Items {
		w := &workflow{ptr: "/workflows/" + strconv.Itoa(i), node: n, byID: map[string]*step{}}
		w.id, w.hasID = n.Get("id").Str()
		switch in := n.Get("inputs"); {
		case in == nil:
		case in.Kind == source.Array:
			w.inputs = map[string]bool{}
			for _, it := range in.Items {
				if s, ok := it.Str(); ok {
					w.inputs[strings.TrimSpace(s)] = true
				}
			}
		case in.Kind == source.Object:
			w.inputs = map[string]bool{}
			for _, m := range in.Members {
				w.inputs[m.Key] = true
			}
		case in.Kind == source.String:
			w.inputs = map[string]bool{strings.TrimSpace(in.Text): true}
		}
		if steps := n.Get("steps"); steps != nil && steps.Kind == source.Array {
			for j, sn := range steps.Items {
				s := decodeStep(sn, w.ptr+"/steps/"+strconv.Itoa(j), j)
				w.steps = append(w.steps, s)
				if _, dup := w.byID[s.id]; s.hasID && !dup {
					w.byID[s.id] = s
				}
			}
		}
		o.workflows = append(o.workflows, w)
	}
	return o
}

func decodeStep(n *source.Node, ptr string, index int) *step {
	s := &step{index: index, ptr: ptr, node: n, routes: map[string]route{}}
	s.id, s.hasID = n.Get("id").Str()
	s.typ, _ = n.Get("type").Str()
	s.review = s.typ == "agent_review"
	if outs := n.Get("outputs"); outs != nil && outs.Kind == source.Array {
		s.hasOutputs = true
		for k, it := range outs.Items {
			if v, ok := it.Str(); ok {
				name, opt := strings.CutSuffix(v, "?")
				s.outputs = append(s.outputs, output{name: name, optional: opt, ptr: ptr + "/outputs/" + strconv.Itoa(k)})
			}
		}
	}
	if fl := n.Get("output_files"); fl != nil && fl.Kind == source.Object {
		s.files = fl
	}
	for _, k := range routeFields {
		if v, ok := n.Get(k).Str(); ok && v != "" {
			s.routes[k] = route{target: v, ptr: ptr + "/" + k}
		}
	}
	return s
}

// hasOutput reports whether the step declares output key name.
func (s *step) hasOutput(name string) bool {
	for _, o := range s.outputs {
		if o.name == name {
			return true
		}
	}
	return false
}

// agent returns the agent named id, or nil.
func (o *orchestrator) agent(id string) *source.Node {
	return o.agents.Get(id)
}

// agentNames are the agents' names, in file order, for a "did you mean".
func (o *orchestrator) agentNames() []string {
	var names []string
	for _, m := range o.agents.Entries() {
		names = append(names, m.Key)
	}
	return names
}

// stepIDs are the workflow's step ids, in order, for a "did you mean".
func (w *workflow) stepIDs() []string {
	ids := make([]string, 0, len(w.steps))
	for _, s := range w.steps {
		ids = append(ids, s.id)
	}
	return ids
}

// outputNames are the step's output keys, in order, for a "did you mean".
func (s *step) outputNames() []string {
	names := make([]string, 0, len(s.outputs))
	for _, o := range s.outputs {
		names = append(names, o.name)
	}
	return names
}

// label names a step in messages.
func (s *step) label() string {
	if s.hasID {
		return strconv.Quote(s.id)
	}
	return "#" + strconv.Itoa(s.index)
}
