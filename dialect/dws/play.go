package dws

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// A scenario's run of a dws-workflow (SPEC §8.3), and the decisions where SPEC leaves a
// choice open:
//   - A phase answers ok (pass) or fail: REASON. A reason naming one of the phase's
//     failure routes (on_verification_fail, on_timeout, on_escalation, or just
//     verification_fail, timeout, escalation) takes that route; any other reason is a
//     plain fail. A branch phase of a parallel transition answers the same way.
//   - A phase's output is its result document, the $ its conditionals' JSONPath fields
//     read ({"output": {"severity": "critical"}} for $.output.severity); it is also
//     merged into the run's context, member by member. An unpinned phase passes with
//     no output.
//   - A conditional is evaluated over the output of the phase it leaves: the first
//     branch whose condition holds, else the default. When none holds and there is no
//     default, the run cannot go on and the scenario fails saying so.
//   - The delegated work of a phase is a node of its own, "PHASE#delegation" (with its
//     number, "PHASE#delegation 2", when the phase has several): ok or fail. Unpinned,
//     it is ok.
//   - A loop's decision after its from phase passes is a node of its own, "PHASE#loop"
//     (with its number, "PHASE#loop 2", when the phase has several): decision again or
//     exit. Unpinned, the loop exits. Again when the loop is out of turns is the
//     exhausted move: on_exhaustion decides.
//   - Several sequential or handoff transitions from one phase: the first is taken.

// nodes are what a scenario may pin in the workflow.
func (m *wmachine) nodes() map[string]sim.Node {
	out := map[string]sim.Node{}
	for i, p := range m.w.phases {
		if p.id == "" {
			continue
		}
		n := sim.Node{Kind: "phase", Answers: []string{"ok", "fail"}, Outcomes: []string{"pass", "fail"}}
		for _, r := range m.failureRoutes(i) {
			n.Outcomes = append(n.Outcomes, r.Edge.Outcome)
		}
		out[p.id] = n
		ds := m.of(i, "delegation")
		for k := range ds {
			name := delegationName(len(ds), k)
			out[p.id+"#"+name] = sim.Node{Kind: "delegation", Answers: []string{"ok", "fail"}, Outcomes: []string{"ok", "fail"}}
		}
		ls := m.of(i, "loop")
		for k := range ls {
			name := loopName(len(ls), k)
			out[p.id+"#"+loopNode(name)] = sim.Node{Kind: "loop", Answers: []string{"decision"}, Decisions: []string{"again", "exit"},
				Outcomes: []string{name + "exit", name + "again", name + "exhausted"}}
		}
	}
	return out
}

// loopNode names the node of a loop's decision after its phase: "loop", or "loop 2"
// for the outcomes' prefix "loop 2 ".
func loopNode(prefix string) string {
	if prefix == "" {
		return "loop"
	}
	return strings.TrimSpace(prefix)
}

func delegationName(n, k int) string {
	if n > 1 {
		return "delegation " + strconv.Itoa(k+1)
	}
	return "delegation"
}

func (m *wmachine) play(stubs sim.Stubs, ctx map[string]any, maxSteps int) (*sim.Run, error) {
	return sim.Play[wstate](m, &wplayer{m: m, stubs: stubs, outputs: map[int]map[string]any{}}, ctx, maxSteps)
}

type wplayer struct {
	m       *wmachine
	stubs   sim.Stubs
	outputs map[int]map[string]any // each phase's latest output
}

func (p *wplayer) ask(node string, run *sim.Run) (sim.Answer, error) {
	a, pinned, err := p.stubs.Answer(sim.Call{Node: node, Attempt: 1, Context: run.Context})
	if err != nil {
		return a, err
	}
	if !pinned {
		return sim.Answer{Kind: "ok"}, nil
	}
	return a, nil
}

// phase runs one phase (i) whose moves are pass, fail and its failure routes.
func (p *wplayer) phase(i int, moves []sim.Move[wstate], run *sim.Run) (int, error) {
	id := p.m.id(i)
	run.Visits[id]++
	a, err := p.ask(id, run)
	if err != nil {
		return 0, err
	}
	switch a.Kind {
	case "ok":
		p.outputs[i] = a.Output
		for k, v := range a.Output {
			run.Context[k] = v
		}
		return sim.Pick(moves, "pass"), nil
	case "fail":
		r := a.Reason
		if !strings.HasPrefix(r, "on_") {
			r = "on_" + r
		}
		if k := sim.Pick(moves, r); k >= 0 {
			return k, nil
		}
		return sim.Pick(moves, "fail"), nil
	}
	return 0, &sim.StubError{Node: id, Err: fmt.Errorf("a phase answers ok or fail, not %s", a.Kind)}
}

func (p *wplayer) Decide(s wstate, moves []sim.Move[wstate], run *sim.Run) (int, error) {
	id := p.m.id(s.at)
	switch s.stage {
	case stageRun:
		return p.phase(s.at, moves, run)
	case stageFork:
		if moves[0].Edge.Outcome == "pass" {
			b, ok := p.m.index[moves[0].Edge.Node]
			if !ok {
				return 0, nil
			}
			return p.phase(b, moves, run)
		}
		return 0, nil // the join
	}
	switch o := moves[0].Edge.Outcome; {
	case strings.HasPrefix(o, "delegation"):
		name := strings.TrimSuffix(o, " ok")
		a, err := p.ask(id+"#"+name, run)
		if err != nil {
			return 0, err
		}
		if a.Kind == "fail" {
			return sim.Pick(moves, name+" fail"), nil
		}
		return sim.Pick(moves, name+" ok"), nil
	case o == "exit" || strings.HasPrefix(o, "loop ") && strings.HasSuffix(o, " exit"):
		// The loop decides: exit, or another turn, which past its bounds is the
		// exhausted move (on_exhaustion decides what happens then).
		name := strings.TrimSuffix(o, "exit")
		a, err := p.ask(id+"#"+loopNode(name), run)
		if err != nil {
			return 0, err
		}
		if a.Kind == "decision" && a.Decision == "again" {
			if k := sim.Pick(moves, name+"again"); k >= 0 {
				return k, nil
			}
			if k := sim.Pick(moves, name+"exhausted"); k >= 0 {
				return k, nil
			}
		}
		return 0, nil
	}
	return p.route(s, moves)
}

// route picks the phase's routing: a conditional evaluated over the phase's output, or
// the first transition.
func (p *wplayer) route(s wstate, moves []sim.Move[wstate]) (int, error) {
	for _, t := range p.m.of(s.at, "conditional") {
		out := p.outputs[s.at]
		for j, b := range items(t.node.Get("branches")) {
			c, ok := condOf(b.Get("condition"))
			if !ok {
				continue
			}
			v, present := lookup(out, c.field)
			if c.holds(v, present) {
				if k := sim.Pick(moves, "branch "+strconv.Itoa(j+1)); k >= 0 {
					return k, nil
				}
			}
		}
		if k := sim.Pick(moves, "default"); k >= 0 {
			return k, nil
		}
		return 0, &sim.StubError{Node: p.m.id(s.at), Err: fmt.Errorf(
			"no branch of the conditional from %q holds for its output %s, and it has no default", p.m.id(s.at), jsonText(out))}
	}
	return 0, nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// lookup reads a JSONPath such as $.output.severity in a phase's output.
func lookup(out map[string]any, field string) (any, bool) {
	path := strings.Split(strings.TrimPrefix(strings.TrimPrefix(field, "$"), "."), ".")
	var at any = out
	for _, key := range path {
		m, ok := at.(map[string]any)
		if !ok {
			return nil, false
		}
		if at, ok = m[key]; !ok {
			return nil, false
		}
	}
	return at, true
}

// pinStep is the stub answer that makes a run take a step (sim.Definition.Pin): a
// loop's again and exit pin its loop node ("PHASE#loop", or "PHASE#loop N" of several),
// a delegation's ok and fail its delegation node; a phase's pass is ok (carrying the
// output a conditional reads), fail its fail, and a named failure route a fail with
// that route as the reason.
func pinStep(nodes map[string]sim.Node) func(sim.Edge, map[string]any) (sim.Pin, bool) {
	return func(st sim.Edge, ctx map[string]any) (sim.Pin, bool) {
		node, o := st.Node, st.Outcome
		decide := func(n, d string) (sim.Pin, bool) {
			_, ok := nodes[n]
			return sim.Pin{Node: n, Answer: sim.Answer{Kind: "decision", Decision: d}}, ok
		}
		switch {
		case o == "again" || o == "exit":
			return decide(node+"#loop", o)
		case strings.HasPrefix(o, "loop ") && (strings.HasSuffix(o, " again") || strings.HasSuffix(o, " exit")):
			i := strings.LastIndexByte(o, ' ')
			return decide(node+"#"+o[:i], o[i+1:])
		case strings.HasPrefix(o, "delegation") && (strings.HasSuffix(o, " ok") || strings.HasSuffix(o, " fail")):
			i := strings.LastIndexByte(o, ' ')
			name, verdict := o[:i], o[i+1:]
			if verdict == "ok" {
				return sim.Pin{Node: node + "#" + name, Answer: sim.Answer{Kind: "ok"}}, true
			}
			return sim.FailPin(node+"#"+name, "delegated work failed"), true
		case o == "pass" && sim.Accepts(nodes, node, "ok"):
			return sim.OKPin(node, ctx), true
		case (o == "fail" || o == "failed") && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, "simulated failure"), true
		case strings.HasPrefix(o, "on_") && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, o), true
		}
		return sim.Pin{}, false
	}
}
