// Package ensemble is the ensemble dialect: dws's declarative file for an AgentEnsemble
// phase DAG (SPEC §2.3, §4.7). AgentEnsemble builds these in Java only; the file names
// the ensemble, its default workflow, and either phases (joined by after) or a flat task
// list.
//
// Graph: phases are nodes and each after entry is an edge from the predecessor to the
// phase that waits for it, so the roots (phases with no after) start a run and a phase
// that nothing comes after is an exit. Several roots are legal (no entry rule); cycles
// are forbidden. A flat tasks list is one implicit phase and has no phase graph.
//
// Decisions where SPEC is silent:
//   - An after entry naming no phase is dangling-edge (reported here, since the edge has
//     no node to leave from) and is then ignored.
//   - A review task shares the ensemble-wide task namespace and counts as the last task of
//     its phase (it runs after the phase), for context-order and cross-phase-context.
//   - A phase that shares its name with an earlier one takes no part in the graph, but
//     its tasks are still checked; their phase is the earlier one of that name.
//   - With both phases and tasks (ensemble-mix), the flat tasks are checked as one more
//     implicit phase for names and context order, never for cross-phase-context.
//   - Workflows (SPEC §15): a phase without its own workflow has the ensemble's, else
//     SEQUENTIAL (AgentEnsemble's executePhases). A flat task list has the ensemble's,
//     else the one AgentEnsemble infers (EnsembleValidator.resolveWorkflow): PARALLEL
//     when some task's context names a task of the list (itself too, and "$name" too),
//     else SEQUENTIAL; a context naming no task of the list (dangling, or a phase's task
//     beside ensemble-mix) infers nothing. So a flat list without workflow never gets
//     context-order: what it could say, AgentEnsemble orders by context instead.
//   - hierarchical-role (AgentEnsemble's validateHierarchicalRoles) judges the flat task
//     list whenever its workflow is HIERARCHICAL, beside ensemble-mix too (as
//     context-order does), and reports every offending task, where AgentEnsemble throws
//     at the first. An agent that is blank is no role it judges: AgentEnsemble's Agent
//     builder refuses a blank role, and the schema leaves agent free.
//   - context entries may be written "$name"; the "$" is dropped before resolving.
//   - Tasks whose context entries name each other, within a phase or across phases, in
//     any workflow, are one cycle finding naming every member (a task naming itself is a
//     cycle of one). The cycle owns those entries: context-order and cross-phase-context
//     judge only the entries on no cycle, so each fact is reported once.
//
// Simulation (SPEC §8.1; dws simulate): each phase that starts is completed or failed
// (its tasks, run by its workflow, either all finished or one failed past its retries).
// Root phases start at once, a phase starts when every phase it comes after completed,
// and a phase that failed or was skipped skips every phase that waits for it, while
// phases independent of it run on. The run succeeded when no phase failed. Decisions
// where SPEC is silent:
//   - A path lists the phases that started, each with its outcomes, in one fixed
//     topological order: declaration order wherever after allows, else the earliest
//     declared phase that is ready. Concurrent phases never make two paths of one run.
//   - A review runs after each attempt of its phase that completed (never after one
//     that failed) and decides as AgentEnsemble's PhaseDagExecutor takes its decision:
//     approve (the phase completed); retry (the phase runs again, and completes or fails
//     again) while the attempts since the phase last started afresh are within
//     maxRetries (default 2); reject (the phase failed, and what waits for it is
//     skipped); or retry_predecessor NAME, one outcome for each direct predecessor
//     (each after entry, once), which re-runs NAME, without NAME's own review, while
//     NAME was re-run fewer than maxPredecessorRetries times (default 2, counted per
//     predecessor for the phase's whole run): NAME's re-run is a step of NAME, completed
//     or failed; failed fails the reviewed phase; completed runs the phase again from
//     scratch, its self-retries counted afresh. A retry or retry_predecessor asked for
//     past its limit is not run: as AgentEnsemble does, the current output is
//     committed and the phase completes; the edge is still the decision's. The
//     predecessor's re-run does not change what was decided downstream of it: phases
//     that already started after it keep their runs.
//   - A predecessor whose name a decision cannot carry is no outcome: AgentEnsemble
//     reads RETRY_PREDECESSOR's phase name up to the first ':' and trims it, so a name
//     with a ':' or with a character up to U+0020 at either end is never matched (the
//     decision is taken as approve).
//   - A review task that itself fails makes its phase fail in AgentEnsemble; it is not
//     an outcome of its own here (reject and failed already end the phase failed).
//   - A flat task list is one phase, named after the ensemble. With both phases and
//     tasks (only with ensemble-mix turned off) the phases run. A phase with a repeated
//     or blank name takes no part, and an after naming no phase is ignored, as in the
//     graph. Phases whose after lists form a cycle are not simulated (an error).
//   - An ensemble has no sim-* findings: every phase can fail, and there is no failure
//     route to ask for.
//   - Counting: phases are taken in the fixed order, and a state is a position in it, the
//     stage of the phase there (running, its review deciding, or a predecessor of it
//     re-running), its self-retries since it last started afresh and its review's
//     re-run count of each direct predecessor, whether some phase failed, and the
//     frontier: for each phase already passed that a phase still ahead waits for, whether
//     it completed. The state graph is then acyclic and counting is dynamic programming
//     over at most n·2^(w+1)·(2(r+1)+d)·(p+1)^d states for n phases, a widest frontier
//     of w, a largest maxRetries of r, and reviews with at most d direct predecessors
//     and a largest maxPredecessorRetries of p: exponential in w and d only.
//     sim.Options.MaxStates (default 1,000,000) makes a wider ensemble an error that
//     names its width, never a wrong count.
package ensemble

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// ID is the dialect id.
const ID = "ensemble"

// Dialect returns the ensemble dialect.
func Dialect() *lint.Dialect {
	return &lint.Dialect{
		ID: ID,
		// A document with a top-level ensemble key; it never guesses from phases or
		// tasks alone, which other formats use too.
		Detect:   func(doc *source.Document) bool { return doc.Root.Has("ensemble") },
		Decode:   func(doc *source.Document) any { return decode(doc) },
		Graphs:   graphs,
		Rules:    []*lint.Rule{&ensembleMix, &phaseWorkflow, &crossPhaseContext, &contextOrder, &hierarchicalRole},
		Simulate: simulate,
		Units:    units,

		EdgeFields: edgeFields,
		Describe:   describe,
		EndLabels:  endLabels,
	}
}

// model is the ensemble Decode made of the file.
func model(p *lint.Pass) *ensemble {
	if e, ok := p.Model.(*ensemble); ok {
		return e
	}
	return &ensemble{byName: map[string]*phase{}, byTask: map[string]*task{}}
}

// ensemble is the file, read tolerantly: the schema stage has already reported what is
// malformed, so a field of the wrong type is simply absent here.
type ensemble struct {
	root     *source.Node
	workflow string // the ensemble's, "" when absent
	phases   []*phase
	flat     *phase // the implicit phase of a flat tasks list; nil without one
	// byName holds the first phase of each name, byTask the first task of each name.
	byName map[string]*phase
	byTask map[string]*task
	// tasks is the graph of the tasks' context lists (taskGraph); nil without tasks.
	tasks *graph.Graph
}

type phase struct {
	ptr      string
	name     string
	named    bool // a non-blank name
	implicit bool
	// workflow is the phase's own, "" when it inherits the ensemble's; the implicit
	// phase of a flat task list has the ensemble's, else the inferred one.
	workflow string
	after    []ref
	tasks    []*task // in order, the review task last
	// reviewed is set when the phase has a review task; maxRetries is how many times
	// the review may have the phase redone (AgentEnsemble's default, 2, when unset).
	reviewed   bool
	maxRetries int
	// maxPredRetries is how many times the review may have each direct predecessor
	// re-run (AgentEnsemble's default, 2, when unset).
	maxPredRetries int
}

type task struct {
	ptr     string
	name    string
	named   bool
	phase   *phase
	pos     int
	review  bool
	context []ref
	// agent is the role of the task's agent, when hasAgent (agent is a string).
	agent    string
	hasAgent bool
}

// ref is one name written in after or context.
type ref struct {
	name string
	ptr  string
	// onCycle marks a context entry on a cycle of the task graph: the cycle finding
	// owns it, and no rule judges it again.
	onCycle bool
}

func decode(doc *source.Document) *ensemble {
	e := &ensemble{root: doc.Root, byName: map[string]*phase{}, byTask: map[string]*task{}}
	e.workflow, _ = doc.Root.Get("workflow").Str()
	if arr := doc.Root.Get("phases"); arr != nil && arr.Kind == source.Array {
		for i, n := range arr.Items {
			p := &phase{ptr: "/phases/" + strconv.Itoa(i)}
			p.name, p.named = nonBlank(n.Get("name"))
			p.workflow, _ = n.Get("workflow").Str()
			if after := n.Get("after"); after != nil && after.Kind == source.Array {
				for k, it := range after.Items {
					if s, ok := it.Str(); ok {
						p.after = append(p.after, ref{name: s, ptr: p.ptr + "/after/" + strconv.Itoa(k)})
					}
				}
			}
			decodeTasks(p, n.Get("tasks"), p.ptr+"/tasks")
			if rt := n.Get("review").Get("task"); rt != nil && rt.Kind == source.Object {
				addTask(p, rt, p.ptr+"/review/task", true)
				p.reviewed, p.maxRetries = true, count(n.Get("review").Get("maxRetries"), defaultMaxRetries)
				p.maxPredRetries = count(n.Get("review").Get("maxPredecessorRetries"), defaultMaxRetries)
			}
			e.phases = append(e.phases, p)
			if _, dup := e.byName[p.name]; p.named && !dup {
				e.byName[p.name] = p
			}
		}
	}
	if arr := doc.Root.Get("tasks"); arr != nil && arr.Kind == source.Array {
		e.flat = &phase{ptr: "/tasks", implicit: true}
		decodeTasks(e.flat, arr, "/tasks")
	}
	// Task names are one namespace across the ensemble; the first definition wins.
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			if _, dup := e.byTask[t.name]; t.named && !dup {
				e.byTask[t.name] = t
			}
		}
	}
	if len(e.byTask) > 0 {
		e.tasks = taskGraph(e)
	}
	if e.flat != nil {
		e.flat.workflow = e.flatWorkflow()
	}
	return e
}

// flatWorkflow is the workflow of a flat task list: the ensemble's, else the one
// AgentEnsemble infers (EnsembleValidator.resolveWorkflow): PARALLEL when a task's
// context names a task of the list (itself included), else SEQUENTIAL.
func (e *ensemble) flatWorkflow() string {
	if e.workflow != "" {
		return e.workflow
	}
	for _, t := range e.flat.tasks {
		for _, c := range t.context {
			if dep, ok := e.byTask[c.name]; ok && dep.phase == e.flat {
				return "PARALLEL"
			}
		}
	}
	return "SEQUENTIAL"
}

func decodeTasks(p *phase, arr *source.Node, ptr string) {
	if arr == nil || arr.Kind != source.Array {
		return
	}
	for i, n := range arr.Items {
		if n.Kind == source.Object {
			addTask(p, n, ptr+"/"+strconv.Itoa(i), false)
		}
	}
}

func addTask(p *phase, n *source.Node, ptr string, review bool) {
	t := &task{ptr: ptr, phase: p, pos: len(p.tasks), review: review}
	t.name, t.named = nonBlank(n.Get("name"))
	t.agent, t.hasAgent = n.Get("agent").Str()
	if ctx := n.Get("context"); ctx != nil && ctx.Kind == source.Array {
		for k, it := range ctx.Items {
			if s, ok := it.Str(); ok {
				t.context = append(t.context, ref{name: strings.TrimPrefix(s, "$"), ptr: ptr + "/context/" + strconv.Itoa(k)})
			}
		}
	}
	p.tasks = append(p.tasks, t)
}

// allPhases is the phases followed by the implicit one of a flat task list.
func (e *ensemble) allPhases() []*phase {
	if e.flat == nil {
		return e.phases
	}
	return append(append([]*phase(nil), e.phases...), e.flat)
}

// effective is a phase's workflow: its own, else the ensemble's, else SEQUENTIAL (as
// AgentEnsemble runs a phase of an ensemble without a workflow). A flat task list's is
// the ensemble's or the inferred one (flatWorkflow).
func (e *ensemble) effective(p *phase) string {
	switch {
	case p.workflow != "":
		return p.workflow
	case e.workflow != "":
		return e.workflow
	}
	return "SEQUENTIAL"
}

// home is the phase a task is judged in: for a task of a phase that repeats an earlier
// phase's name, that earlier phase.
func (e *ensemble) home(t *task) *phase {
	if first, ok := e.byName[t.phase.name]; ok && t.phase.named {
		return first
	}
	return t.phase
}

// defaultMaxRetries is AgentEnsemble's PhaseReview maxRetries, and its
// maxPredecessorRetries, when a review sets none.
const defaultMaxRetries = 2

// count is the value of a non-negative integer node (at most math.MaxInt32, more than
// any run can count states for), else def.
func count(n *source.Node, def int) int {
	if n == nil || n.Kind != source.Number {
		return def
	}
	v, err := strconv.ParseFloat(n.Text, 64)
	if (err != nil && !errors.Is(err, strconv.ErrRange)) || v < 0 || v != math.Trunc(v) {
		return def
	}
	return int(min(v, math.MaxInt32))
}

func nonBlank(n *source.Node) (string, bool) {
	s, ok := n.Str()
	return s, ok && strings.TrimSpace(s) != ""
}
