package ensemble

import (
	"fmt"

	"github.com/dwsdev/dws/sim"
)

// A scenario's run of an ensemble (SPEC §8.3), and the decisions where SPEC leaves a
// choice open:
//   - Each phase that starts answers ok (completed) or fail (failed); phases answer in
//     the fixed topological order the simulator lists them in, and a phase a failure
//     skips is never asked.
//   - A reviewed phase's review is a node of its own, "PHASE#review": decision approve
//     or retry. Unpinned, it approves. A retry runs the phase again (a new invocation
//     of the phase's stubs, not a new visit); past maxRetries the phase completes with
//     its last output, as AgentEnsemble commits it.
//   - A phase's output is merged into the run's context, member by member.

// nodes are what a scenario may pin in the ensemble.
func (m *machine) nodes() map[string]sim.Node {
	out := map[string]sim.Node{}
	for _, p := range m.phases {
		out[p.name] = sim.Node{Kind: "phase", Answers: []string{"ok", "fail"}, Outcomes: []string{"completed", "failed"}}
		if p.reviewed {
			out[p.name+"#review"] = sim.Node{Kind: "review", Answers: []string{"decision"}, Decisions: []string{"approve", "retry"},
				Outcomes: []string{"approve", "retry"}}
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
	ph := p.m.phases[st.pos]
	if st.review {
		a, pinned, err := p.stubs.Answer(sim.Call{Node: ph.name + "#review", Attempt: int(st.attempt) + 1, Context: run.Context})
		if err != nil {
			return 0, err
		}
		if pinned && a.Kind == "decision" && a.Decision == "retry" {
			return sim.Pick(moves, "retry"), nil
		}
		return sim.Pick(moves, "approve"), nil
	}
	if st.attempt == 0 {
		run.Visits[ph.name]++
	}
	a, pinned, err := p.stubs.Answer(sim.Call{Node: ph.name, Attempt: int(st.attempt) + 1, Context: run.Context})
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
