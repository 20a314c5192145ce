package ensemble

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// A scenario's run of an ensemble (SPEC §8.3), and the decisions where SPEC leaves a
// choice open:
//   - Each phase that starts answers ok (completed) or fail (failed); phases answer in
//     the fixed topological order the simulator lists them in, and a phase a failure
//     skips is never asked.
//   - A reviewed phase's review is a node of its own, "PHASE#review", that answers a
//     decision: approve, retry, reject, or retry_predecessor NAME for a direct
//     predecessor NAME of the phase (unpinned, it approves). A retry runs the phase
//     again (a new invocation of the phase's stubs, not a new visit); past maxRetries
//     the phase completes with its last output, as AgentEnsemble commits it. reject
//     fails the phase. retry_predecessor NAME re-runs NAME (the next invocation of
//     NAME's stubs, and a visit of NAME; its own review is not asked again): when it
//     fails, the reviewed phase fails; when it completes, the reviewed phase runs again
//     from scratch (a new visit, with maxRetries counted afresh). Past
//     maxPredecessorRetries for NAME, the phase completes with its current output.
//   - A stub worker process's decision is read as AgentEnsemble's
//     PhaseReviewDecision.parse reads a review's output: trimmed, its keyword in any
//     case, any feedback after a ':' ignored ("RETRY_PREDECESSOR research: more
//     sources"); text it does not know, or a retry_predecessor naming no direct
//     predecessor, is approve, and the run notes it. A declarative answer must be one
//     of the decisions above exactly.
//   - A phase's output is merged into the run's context, member by member.

// nodes are what a scenario may pin in the ensemble.
func (m *machine) nodes() map[string]sim.Node {
	out := map[string]sim.Node{}
	for k, p := range m.phases {
		out[p.name] = sim.Node{Kind: "phase", Answers: []string{"ok", "fail"}, Outcomes: []string{"completed", "failed"}}
		if p.reviewed {
			d := m.decisions(k)
			out[p.name+"#review"] = sim.Node{Kind: "review", Answers: []string{"decision"}, Decisions: d, Outcomes: d}
		}
	}
	return out
}

func (m *machine) play(stubs sim.Stubs, ctx map[string]any, maxSteps int) (*sim.Run, error) {
	return sim.Play[state](m, &player{m: m, stubs: stubs}, ctx, maxSteps)
}

type player struct {
	m     *machine
	stubs sim.Stubs
}

func (p *player) Decide(st state, moves []sim.Move[state], run *sim.Run) (int, error) {
	k := int(st.pos)
	ph := p.m.phases[k]
	switch {
	case st.stage == reviewing:
		return p.review(ph, st, moves, run)
	case st.stage >= rerun:
		i := int(st.stage - rerun)
		pred := p.m.phases[p.m.retry[k][i]]
		run.Visits[pred.name]++
		return p.phase(pred, predRetries(st.preds, i)+1, moves, run)
	}
	if st.attempt == 0 {
		run.Visits[ph.name]++
	}
	return p.phase(ph, int(st.attempt)+1, moves, run)
}

// phase asks ph's stubs for its attempt-th run (of this visit): completed or failed.
func (p *player) phase(ph *phase, attempt int, moves []sim.Move[state], run *sim.Run) (int, error) {
	a, pinned, err := p.stubs.Answer(sim.Call{Node: ph.name, Attempt: attempt, Context: run.Context})
	if err != nil {
		return 0, err
	}
	if !pinned {
		a = sim.Answer{Kind: "ok"}
	}
	switch a.Kind {
	case "ok":
		for k, v := range a.Output {
			run.Context[k] = v
		}
		return sim.Pick(moves, "completed"), nil
	case "fail":
		return sim.Pick(moves, "failed"), nil
	}
	return 0, &sim.StubError{Node: ph.name, Err: fmt.Errorf("a phase answers ok or fail, not %s", a.Kind)}
}

func (p *player) review(ph *phase, st state, moves []sim.Move[state], run *sim.Run) (int, error) {
	node := ph.name + "#review"
	a, pinned, err := p.stubs.Answer(sim.Call{Node: node, Attempt: int(st.attempt) + 1, Context: run.Context})
	if err != nil {
		return 0, err
	}
	if !pinned {
		return sim.Pick(moves, "approve"), nil
	}
	if a.Kind != "decision" {
		return 0, &sim.StubError{Node: node, Err: fmt.Errorf("a review answers a decision, not %s", a.Kind)}
	}
	outcome, known := parseDecision(a.Decision)
	i := sim.Pick(moves, outcome)
	switch {
	case !known:
		run.Notes = append(run.Notes, fmt.Sprintf("the review of phase %q decided %q, which AgentEnsemble takes as approve", ph.name, a.Decision))
	case i < 0:
		run.Notes = append(run.Notes, fmt.Sprintf("the review of phase %q decided %q, but %q is no direct predecessor it can re-run: AgentEnsemble takes it as approve",
			ph.name, a.Decision, strings.TrimPrefix(outcome, retryPredecessor)))
	default:
		return i, nil
	}
	return sim.Pick(moves, "approve"), nil
}

// parseDecision reads a review's decision as AgentEnsemble's PhaseReviewDecision.parse
// does: the outcome it stands for (approve, retry, reject or retry_predecessor NAME),
// and whether it is a decision at all (blank or unknown text is approve).
func parseDecision(text string) (outcome string, known bool) {
	trimmed := javaTrim(text)
	upper := strings.ToUpper(trimmed)
	const rp = "RETRY_PREDECESSOR "
	switch {
	case trimmed == "":
		return "approve", false
	case strings.HasPrefix(upper, rp):
		// The keyword is ASCII whatever case it was written in (ı and ſ aside, which
		// Java upper-cases to I and S as Go does): drop as many runes as it has.
		rest := javaTrim(string([]rune(trimmed)[len(rp):]))
		if i := strings.IndexByte(rest, ':'); i > 0 {
			rest = javaTrim(rest[:i])
		}
		return retryPredecessor + rest, true
	case strings.HasPrefix(upper, "RETRY"):
		return "retry", true
	case strings.HasPrefix(upper, "REJECT"):
		return "reject", true
	case upper == "APPROVE":
		return "approve", true
	}
	return "approve", false
}

// javaTrim is Java's String.trim: every character up to U+0020 off both ends.
func javaTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
}

// pinStep is the stub answer that makes a run take a step (sim.Definition.Pin): a
// review's decisions pin the phase's review node; completed is ok, failed fail.
func pinStep(nodes map[string]sim.Node) func(sim.Edge, map[string]any) (sim.Pin, bool) {
	return func(st sim.Edge, ctx map[string]any) (sim.Pin, bool) {
		node, o := st.Node, st.Outcome
		switch {
		case slices.Contains(nodes[node+"#review"].Decisions, o):
			return sim.Pin{Node: node + "#review", Answer: sim.Answer{Kind: "decision", Decision: o}}, true
		case (o == "approve" || o == "reject") && sim.Accepts(nodes, node, "decision"):
			return sim.Pin{Node: node, Answer: sim.Answer{Kind: "decision", Decision: o}}, true
		case o == "completed" && sim.Accepts(nodes, node, "ok"):
			return sim.OKPin(node, ctx), true
		case o == "failed" && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, "simulated failure"), true
		}
		return sim.Pin{}, false
	}
}
