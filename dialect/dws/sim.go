package dws

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// Run-time semantics of a dws-workflow (SPEC §8.1), and the decisions where SPEC leaves
// a choice open:
//   - A phase is a choice point: pass, fail, and one outcome per failure route the
//     transitions leaving it declare (on_verification_fail only when the phase has a
//     verification gate, on_timeout, on_escalation). fail with no route ends the run
//     failed (sim-unhandled-failure).
//   - After a phase passes: first each delegation from it is one choice point (ok or
//     fail; fail ends the run failed); then a loop from it decides again (back to its
//     to) or exit; then the phase's routing: a conditional picks one branch or the
//     default, a parallel transition forks, a sequential or handoff transition goes on,
//     and a phase with none of these ends the run succeeded. A loop's condition is not
//     evaluated: again and exit are both free, so every number of turns is a path.
//   - A loop can turn max_iterations times; global_constraints.max_iterations bounds the
//     turns of all loops together. When a run wants another turn past a bound, the
//     loop's on_exhaustion decides: escalate ends the run escalated, abort aborted,
//     proceed_with_warning exits the loop (sim-loop-exhausted); past the global bound
//     the run also gets sim-max-iterations.
//   - A parallel transition runs its branch phases one after another in branch order,
//     each passing or failing (their own transitions are not followed inside the fork):
//     the branches' outcomes are consecutive choice points of one path. Then the join
//     proceeds to join.to when its strategy is met (all: every branch passed; any: one
//     did; n_of_m: min_branches did), else the run takes the parallel transition's first
//     failure route, or ends failed. A join that can never proceed (n_of_m asking for
//     more branches than there are) is sim-join-unsatisfiable.
//   - A conditional's branches are tried in order over the phase's stub output: for each
//     branch and the default dws looks for an output that selects it; one that no
//     output selects (an earlier branch shadows it) is dead: sim-infeasible-branch.
//   - Several sequential or handoff transitions from one phase are a choice among them.

// wstate is where a run is: the phase and what happens next there, the loop turns
// taken (see turnsOf) and in all, and the fork being run. It keeps only what a bound
// needs: the turns of a loop only while its from phase can still be reached, the turns
// in all only when global_constraints.max_iterations bounds them and some loop can still
// be reached, so that a long workflow of many loops has few states.
type wstate struct {
	at     int // phase index
	stage  uint8
	turns  string
	global int
	// fork, branch, passed: the parallel transition being run, the next branch (or
	// delegation, or loop, in those stages) and how many branches passed so far.
	fork, branch, passed int
}

const (
	stageRun      uint8 = iota // the phase runs: pass, fail, failure routes
	stageDelegate              // the next delegation from the phase (branch holds which)
	stageLoop                  // a loop from the phase: again or exit
	stageRoute                 // the phase's routing
	stageFork                  // a branch of a parallel transition runs
)

type wmachine struct {
	w      *workflow
	index  map[string]int
	from   map[int][]*transition // transitions leaving each phase, in order
	loops  map[*transition]int   // loop transition -> its counter
	global int                   // global_constraints.max_iterations, 0 when none
	dead   map[*transition]map[int]string
	// outputs holds, per conditional, a stub output of its phase selecting each branch;
	// unsearched the conditionals with too many outputs to try (maxOutputs).
	outputs    map[*transition]map[int]map[string]candidate
	unsearched map[*transition]bool
	forks      []*transition
	start      int
	// loopFrom is each loop's from phase; reach answers whether a phase can still reach
	// one (see reachability): elsewhere the loop's turns no longer matter and are
	// forgotten.
	loopFrom []int
	reach    *reachability
}

func newWMachine(w *workflow) (*wmachine, bool) {
	m := &wmachine{w: w, index: map[string]int{}, from: map[int][]*transition{}, loops: map[*transition]int{},
		dead: map[*transition]map[int]string{}, outputs: map[*transition]map[int]map[string]candidate{},
		unsearched: map[*transition]bool{}}
	for i, p := range w.phases {
		if p.id != "" {
			if _, dup := m.index[p.id]; !dup {
				m.index[p.id] = i
			}
		}
	}
	entry, _ := w.root.Get("entry_phase").Str()
	start, ok := m.index[entry]
	if !ok {
		return nil, false
	}
	m.start = start
	for _, t := range w.transitions {
		i, ok := m.index[t.from]
		if !ok {
			continue
		}
		m.from[i] = append(m.from[i], t)
		switch t.typ {
		case "loop":
			m.loops[t] = len(m.loops)
		case "parallel":
			m.forks = append(m.forks, t)
		}
	}
	if g, ok := number(w.global.Get("max_iterations")); ok {
		m.global = clampTurns(g)
	}
	m.loopFrom = make([]int, len(m.loops))
	for t, k := range m.loops {
		m.loopFrom[k] = m.index[t.from]
	}
	m.reach = newReachability(len(w.phases), m.phaseEdges(), m.loopFrom)
	return m, true
}

// phaseEdges are the moves a run makes between phases, by index: the workflow's edges,
// and from a parallel transition's from phase to its join's (the branches run within
// the fork, so a fork without a known branch goes there directly).
func (m *wmachine) phaseEdges() [][2]int {
	var out [][2]int
	add := func(from, to string) {
		i, ok1 := m.index[from]
		j, ok2 := m.index[to]
		if ok1 && ok2 {
			out = append(out, [2]int{i, j})
		}
	}
	for _, e := range m.w.edges() {
		add(e.from, e.to)
	}
	for _, t := range m.forks {
		if to, ok := t.node.Get("join").Get("to").Str(); ok {
			add(t.from, to)
		}
	}
	return out
}

// maxTurns bounds a max_iterations the state counts: beyond it, the states bound stops
// the simulation long before the count would matter.
const maxTurns = 1 << 30

func clampTurns(f float64) int {
	switch {
	case f <= 0:
		return 0
	case f >= maxTurns:
		return maxTurns
	}
	return int(f)
}

func (m *wmachine) Start() wstate {
	return wstate{at: m.start, fork: -1}
}

// The turns of the loops a run has taken are kept as eight bytes per loop with turns:
// the loop's number and its turns, four bytes each, in loop order. Loops without turns
// take no room, so a workflow of a thousand loops has small states.

const turnsEntry = 8

func entryAt(turns string, j int) (k, n int) {
	b := turns[j : j+turnsEntry]
	return int(b[0])<<24 | int(b[1])<<16 | int(b[2])<<8 | int(b[3]),
		int(b[4])<<24 | int(b[5])<<16 | int(b[6])<<8 | int(b[7])
}

func turnsOf(turns string, k int) int {
	for j := 0; j+turnsEntry <= len(turns); j += turnsEntry {
		if at, n := entryAt(turns, j); at == k {
			return n
		}
	}
	return 0
}

func withTurns(turns string, k, n int) string {
	entry := string([]byte{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k),
		byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	for j := 0; j+turnsEntry <= len(turns); j += turnsEntry {
		switch at, _ := entryAt(turns, j); {
		case at == k:
			return turns[:j] + entry + turns[j+turnsEntry:]
		case at > k:
			return turns[:j] + entry + turns[j:]
		}
	}
	return turns + entry
}

func (m *wmachine) id(i int) string { return m.w.phases[i].id }

// go moves to a phase, to run it.
func (m *wmachine) goTo(s wstate, target string) (wstate, bool) {
	i, ok := m.index[target]
	if !ok {
		return s, false
	}
	s.at, s.stage, s.fork, s.branch, s.passed = i, stageRun, -1, 0, 0
	// Forget the turns of loops this phase can no longer reach, and the turns in all
	// once it can reach no loop.
	for j := 0; j+turnsEntry <= len(s.turns); {
		if k, _ := entryAt(s.turns, j); !m.reach.canReach(i, m.loopFrom[k]) {
			s.turns = s.turns[:j] + s.turns[j+turnsEntry:]
			continue
		}
		j += turnsEntry
	}
	if s.global > 0 && !m.reach.reachesLoop(i) {
		s.global = 0
	}
	return s, true
}

func (m *wmachine) of(i int, typ string) []*transition {
	var out []*transition
	for _, t := range m.from[i] {
		if t.typ == typ {
			out = append(out, t)
		}
	}
	return out
}

func (m *wmachine) Moves(s wstate) []sim.Move[wstate] {
	switch s.stage {
	case stageRun:
		return m.run(s)
	case stageDelegate:
		return m.delegate(s)
	case stageLoop:
		return m.loop(s)
	case stageRoute:
		return m.route(s)
	}
	return m.forkBranch(s)
}

// failureRoutes are the failure outcomes transitions from phase i declare, each route
// (field and target) once: a field that several transitions send to different phases
// is one outcome per target, the second and later named with their number
// ("on_timeout 2").
func (m *wmachine) failureRoutes(i int) []sim.Move[wstate] {
	var out []sim.Move[wstate]
	type route struct{ key, to string }
	seen := map[route]bool{}
	targets := map[string]int{}
	for _, t := range m.from[i] {
		for _, key := range failureFields {
			if key == "on_verification_fail" && !m.w.phases[i].hasVerificationGate() {
				continue
			}
			to, ok := t.node.Get(key).Str()
			if !ok || seen[route{key, to}] {
				continue
			}
			if _, known := m.index[to]; !known {
				continue
			}
			seen[route{key, to}] = true
			targets[key]++
			name := key
			if n := targets[key]; n > 1 {
				name += " " + strconv.Itoa(n)
			}
			out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: m.id(i), Outcome: name}, To: to})
		}
	}
	return out
}

func (m *wmachine) run(s wstate) []sim.Move[wstate] {
	id := m.id(s.at)
	pass := s
	pass.stage, pass.branch = stageDelegate, 0
	out := []sim.Move[wstate]{{Edge: sim.Edge{Node: id, Outcome: "pass"}, Next: pass}}
	routes := m.failureRoutes(s.at)
	if len(routes) == 0 {
		out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: "fail"}, End: true,
			Status: sim.Failed, Finding: "sim-unhandled-failure"})
		return out
	}
	out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: "fail"}, End: true, Status: sim.Failed})
	for _, r := range routes {
		r.Next, _ = m.goTo(s, r.To)
		out = append(out, r)
	}
	return out
}

func (m *wmachine) delegate(s wstate) []sim.Move[wstate] {
	ds := m.of(s.at, "delegation")
	if s.branch >= len(ds) {
		s.stage, s.branch = stageLoop, 0
		return m.loop(s)
	}
	ok := s
	ok.branch++
	name := "delegation"
	if len(ds) > 1 {
		name += " " + strconv.Itoa(s.branch+1)
	}
	return []sim.Move[wstate]{
		{Edge: sim.Edge{Node: m.id(s.at), Outcome: name + " ok"}, Next: ok},
		{Edge: sim.Edge{Node: m.id(s.at), Outcome: name + " fail"}, End: true, Status: sim.Failed, Finding: "sim-unhandled-failure"},
	}
}

// loop is the decision of the next loop from the phase (s.branch holds which): again,
// exit, or, when a bound refuses the turn, exhausted. Several loops from one phase
// decide in order, each again or exit, and their outcomes carry their number.
func (m *wmachine) loop(s wstate) []sim.Move[wstate] {
	ls := m.of(s.at, "loop")
	if s.branch >= len(ls) {
		s.stage, s.branch = stageRoute, 0
		return m.route(s)
	}
	t := ls[s.branch]
	exit := s
	exit.branch++
	id := m.id(s.at)
	name := loopName(len(ls), s.branch)
	out := []sim.Move[wstate]{{Edge: sim.Edge{Node: id, Outcome: name + "exit"}, Next: exit}}
	k := m.loops[t]
	limit := 0
	if n, ok := number(t.node.Get("max_iterations")); ok {
		limit = clampTurns(n)
	}
	to, _ := t.node.Get("to").Str()
	turns := turnsOf(s.turns, k)
	switch {
	case turns < limit && (m.global == 0 || s.global < m.global):
		again, ok := m.goTo(s, to)
		if !ok {
			return out
		}
		again.turns = withTurns(again.turns, k, turns+1)
		if m.global > 0 {
			again.global = s.global + 1
		}
		out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: name + "again"}, To: to, Next: again})
	default:
		// Another turn is wanted but not allowed: on_exhaustion decides.
		finding := "sim-loop-exhausted"
		if turns < limit {
			finding = "sim-max-iterations"
		}
		mv := sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: name + "exhausted"}, Finding: finding}
		switch action, _ := t.node.Get("on_exhaustion").Str(); action {
		case "escalate":
			mv.End, mv.Status = true, sim.Escalated
		case "abort":
			mv.End, mv.Status = true, sim.Aborted
		default: // proceed_with_warning
			mv.Next = exit
		}
		out = append(out, mv)
	}
	return out
}

// loopName prefixes the outcomes of loop k of a phase's n loops: "" for a phase's only
// loop (again, exit, exhausted), "loop 2 " when it has several.
func loopName(n, k int) string {
	if n > 1 {
		return "loop " + strconv.Itoa(k+1) + " "
	}
	return ""
}

func (m *wmachine) route(s wstate) []sim.Move[wstate] {
	id := m.id(s.at)
	var out []sim.Move[wstate]
	for _, t := range m.from[s.at] {
		switch t.typ {
		case "conditional":
			dead := m.dead[t]
			for j, b := range items(t.node.Get("branches")) {
				to, _ := b.Get("to").Str()
				mv := sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: "branch " + strconv.Itoa(j+1)}, To: to}
				if why, ok := dead[j]; ok {
					mv.Dead, mv.Why = true, why
				}
				var ok bool
				if mv.Next, ok = m.goTo(s, to); ok || mv.Dead {
					out = append(out, mv)
				}
			}
			if to, ok := t.node.Get("default").Str(); ok {
				mv := sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: "default"}, To: to}
				if why, ok := dead[-1]; ok {
					mv.Dead, mv.Why = true, why
				}
				if mv.Next, ok = m.goTo(s, to); ok || mv.Dead {
					out = append(out, mv)
				}
			}
		case "sequential", "handoff":
			to, _ := t.node.Get("to").Str()
			if next, ok := m.goTo(s, to); ok {
				out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: t.typ + " " + to}, To: to, Next: next})
			}
		case "parallel":
			for f, ft := range m.forks {
				if ft == t {
					next := s
					next.stage, next.fork, next.branch, next.passed = stageFork, f, 0, 0
					out = append(out, sim.Move[wstate]{Edge: sim.Edge{Node: id, Outcome: "fork"}, Next: next})
				}
			}
		}
	}
	if len(out) == 0 {
		return []sim.Move[wstate]{{Edge: sim.Edge{Node: id, Outcome: "done"}, End: true, Status: sim.Succeeded}}
	}
	return out
}

// forkBranch runs the next branch of the fork, or the join once every branch ran.
func (m *wmachine) forkBranch(s wstate) []sim.Move[wstate] {
	t := m.forks[s.fork]
	var branches []string
	for _, b := range items(t.node.Get("branches")) {
		if id, ok := b.Str(); ok && !slices.Contains(branches, id) {
			if _, known := m.index[id]; known {
				branches = append(branches, id)
			}
		}
	}
	if s.branch < len(branches) {
		b := branches[s.branch]
		pass, fail := s, s
		pass.branch, pass.passed = s.branch+1, s.passed+1
		fail.branch = s.branch + 1
		return []sim.Move[wstate]{
			{Edge: sim.Edge{Node: b, Outcome: "pass"}, Next: pass},
			{Edge: sim.Edge{Node: b, Outcome: "fail"}, Next: fail},
		}
	}
	join := t.node.Get("join")
	need := len(items(t.node.Get("branches")))
	switch strategy, _ := join.Get("strategy").Str(); strategy {
	case "any":
		need = 1
	case "n_of_m":
		if n, ok := number(join.Get("min_branches")); ok {
			need = int(n)
		}
	}
	to, _ := join.Get("to").Str()
	if s.passed >= need {
		if next, ok := m.goTo(s, to); ok {
			return []sim.Move[wstate]{{Edge: sim.Edge{Node: m.id(s.at), Outcome: "join"}, To: to, Next: next}}
		}
		return []sim.Move[wstate]{{Edge: sim.Edge{Node: m.id(s.at), Outcome: "join"}, End: true, Status: sim.Succeeded}}
	}
	for _, key := range failureFields {
		if target, ok := t.node.Get(key).Str(); ok {
			if next, ok := m.goTo(s, target); ok {
				return []sim.Move[wstate]{{Edge: sim.Edge{Node: m.id(s.at), Outcome: "join " + key}, To: target, Next: next}}
			}
		}
	}
	return []sim.Move[wstate]{{Edge: sim.Edge{Node: m.id(s.at), Outcome: "join failed"}, End: true, Status: sim.Failed,
		Finding: "sim-unhandled-failure"}}
}

// simulateWorkflow is dws-workflow's simulation part.
func simulateWorkflow(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	w := workflowModel(p)
	m, ok := newWMachine(w)
	if !ok {
		return nil, nil
	}
	judgeConditionals(p, m)
	judgeJoins(p, m)
	r, err := sim.Explore[wstate](m, opts, maxPaths, nil)
	if err != nil {
		return nil, err
	}
	m.stubOutputs(r)
	for _, f := range r.Findings() {
		i := m.index[f.Node]
		ptr := w.phases[i].ptr + "/id"
		var msg string
		switch f.Rule {
		case "sim-unhandled-failure":
			msg = fmt.Sprintf("phase %s can fail with nothing to handle it: the run ends failed", quote(f.Node))
		case "sim-loop-exhausted":
			msg = fmt.Sprintf("the loop from phase %s can run out of iterations; on_exhaustion decides what happens", quote(f.Node))
		case "sim-max-iterations":
			msg = fmt.Sprintf("a run can reach global_constraints.max_iterations in the loop from phase %s", quote(f.Node))
		}
		p.Report(f.Rule, ptr, msg)
	}
	ns := m.nodes()
	return []sim.Definition{{Result: r, Nodes: ns, Play: m.play, Fold: m.fold, Pin: pinStep(ns)}}, nil
}

// fold groups a path's steps into one outcome per phase run (SPEC §8.2's tree): the
// phase's outcome (pass, fail, a failure route), then what follows it at that phase
// (its delegations, its loops' decisions, a conditional's branch, a fork), joined by
// "+": "verify=pass+again". A sequential or handoff transition and the run's end after
// the phase ("done") are left out: the next outcome names the phase the transition
// leads to, the end state follows the last. A fork's branches and its join (at the
// fork's phase) are outcomes of their own.
func (m *wmachine) fold(steps []sim.Edge) []sim.Outcome {
	var out []sim.Outcome
	for _, st := range steps {
		o := st.Outcome
		shown := !strings.HasPrefix(o, "sequential ") && !strings.HasPrefix(o, "handoff ") && o != "done"
		if k := len(out) - 1; k >= 0 && out[k].Node == st.Node && !startsOutcome(o) {
			out[k].Steps = append(out[k].Steps, st)
			if shown {
				if out[k].Label != "" {
					out[k].Label += "+"
				}
				out[k].Label += o
			}
			continue
		}
		label := o
		if !shown {
			label = ""
		}
		out = append(out, sim.Outcome{Node: st.Node, Label: label, Steps: []sim.Edge{st}})
	}
	for k := range out {
		if out[k].Label == "" {
			// Only a transition was taken (cannot happen after a phase's own outcome,
			// which is always shown): show it rather than nothing.
			out[k].Label = out[k].Steps[0].Outcome
		}
	}
	return out
}

// startsOutcome says whether step outcome o begins a shown outcome even at the node of
// the one before: a phase's own outcome (a run of it, or of a fork's branch: pass,
// fail, a failure route) and a join do.
func startsOutcome(o string) bool {
	switch {
	case o == "pass" || o == "fail" || strings.HasPrefix(o, "on_"):
		return true
	case o == "join" || strings.HasPrefix(o, "join "):
		return true
	}
	return false
}

// stubOutputs gives each covering path through a conditional the stub output of the
// phase that selects the branch the path takes: {"triage": {"output": {"severity": …}}}.
func (m *wmachine) stubOutputs(r *sim.Result) {
	for k := range r.Cover {
		p := &r.Cover[k]
		for _, st := range p.Steps {
			i, ok := m.index[st.Node]
			if !ok {
				continue
			}
			branch := -2
			switch {
			case st.Outcome == "default":
				branch = -1
			case strings.HasPrefix(st.Outcome, "branch "):
				n, err := strconv.Atoi(strings.TrimPrefix(st.Outcome, "branch "))
				if err == nil {
					branch = n - 1
				}
			}
			if branch == -2 {
				continue
			}
			for _, t := range m.of(i, "conditional") {
				if out, ok := m.outputs[t][branch]; ok {
					if p.Context == nil {
						p.Context = map[string]any{}
					}
					p.Context[st.Node] = stubOutput(out)
				}
				if m.unsearched[t] && p.Note == "" {
					p.Note = fmt.Sprintf("no stub output of phase %s was searched for: its conditional's fields take more than %d combinations of values (the search's bound)",
						quote(st.Node), maxOutputs)
				}
			}
		}
	}
}

// judgeJoins reports joins that can never proceed: more branches must pass than there
// are distinct branch phases (a phase named twice runs once). A min_branches above the
// number of branches written is the join rule's finding, not this one.
func judgeJoins(p *lint.Pass, m *wmachine) {
	for _, t := range m.forks {
		join := t.node.Get("join")
		strategy, _ := join.Get("strategy").Str()
		written := items(t.node.Get("branches"))
		distinct := map[string]bool{}
		for _, b := range written {
			if id, ok := b.Str(); ok {
				if _, known := m.index[id]; known {
					distinct[id] = true
				}
			}
		}
		need := len(written)
		switch strategy {
		case "any":
			need = 1
		case "n_of_m":
			n, ok := number(join.Get("min_branches"))
			if !ok || int(n) > len(written) {
				continue
			}
			need = int(n)
		}
		if need > len(distinct) {
			p.Report("sim-join-unsatisfiable", t.ptr+"/join", fmt.Sprintf(
				"the join needs %d branches to pass, and only %d distinct phases run: it can never proceed", need, len(distinct)))
		}
	}
}
