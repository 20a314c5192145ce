package direclaw

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// A scenario's run of one workflow (SPEC §8.3), and the decisions where SPEC leaves a
// choice open:
//   - An agent_task answers ok (complete, along next or the next step in list order),
//     fail: blocked (blocked, along on_blocked) or fail with any other reason (failed,
//     along on_failed). Under release: current, which has no blocked status, fail:
//     blocked is a failed attempt like any other.
//   - An agent_review answers a decision: approve or reject. A fail answer is a review
//     that produced no valid decision.
//   - Attempts: a failed attempt (fail other than blocked, a review without a valid
//     decision) is retried while the step's limits.max_retries allow, each attempt
//     taking the next stub answer; the retries of one visit are not new visits (they
//     do not count toward max_total_iterations). blocked is the worker's own verdict
//     and is not retried. When the retries are used up the task is failed and the
//     review invalid (the run fails).
//   - A stub worker process gets the step's output_files as output paths, resolved as
//     DireClaw precomputes them: {{workflow.run_id}} is "run", {{workflow.step_id}} the
//     step id and {{workflow.attempt}} the attempt, under
//     runs/run/steps/<step>/attempts/<attempt>/outputs. A review's decision is read
//     from its decision file as DireClaw reads it (the text or the JSON string it holds,
//     trimmed and unquoted, approve or reject in any ASCII case, also written
//     "decision: approve"); anything else is an invalid decision. An optional output ("name?") may be
//     left unwritten, as in DireClaw.
//   - An output is merged into the run's context, member by member.

// runID is the workflow.run_id of every scenario run.
const runID = "run"

// nodes are what a scenario may pin at each step of a workflow.
func (m *machine) nodes() map[string]sim.Node {
	out := map[string]sim.Node{}
	for i, s := range m.w.steps {
		if m.outcomes[i] == nil {
			continue
		}
		n := sim.Node{Kind: s.typ + " step"}
		for _, o := range m.outcomes[i] {
			n.Outcomes = append(n.Outcomes, o.name)
		}
		if s.review {
			n.Answers, n.Decisions = []string{"decision", "fail"}, []string{"approve", "reject"}
		} else {
			n.Answers = []string{"ok", "fail"}
		}
		out[s.id] = n
	}
	return out
}

func (m *machine) play(stubs sim.Stubs, ctx map[string]any, maxSteps int) (*sim.Run, error) {
	return sim.Play[visit](m, &player{m: m, stubs: stubs}, ctx, maxSteps)
}

type player struct {
	m     *machine
	stubs sim.Stubs
}

func (p *player) Decide(v visit, moves []sim.Move[visit], run *sim.Run) (int, error) {
	s := p.m.w.steps[v.step]
	run.Visits[s.id]++
	attempts := 1
	if n := integer(s.node.Get("limits").Get("max_retries")); n != nil && n.IsInt64() && n.Int64() > 0 && n.Int64() < 1000 {
		attempts += int(n.Int64())
	}
	var input any
	if s.node != nil {
		input = s.node.Value()
	}
	for a := 1; a <= attempts; a++ {
		c := sim.Call{Node: s.id, Attempt: a, Input: input, Context: run.Context}
		p.outputPaths(s, &c)
		ans, pinned, err := p.stubs.Answer(c)
		if err != nil {
			return 0, err
		}
		if ans.Files != nil {
			ans = judgeOutputs(s, ans)
		}
		if !pinned {
			ans = sim.Answer{Kind: "ok"}
			if s.review {
				ans = sim.Answer{Kind: "decision", Decision: "approve"}
			}
		}
		for k, val := range ans.Output {
			run.Context[k] = val
		}
		switch {
		case s.review && ans.Kind == "decision" && (ans.Decision == "approve" || ans.Decision == "reject"):
			return sim.Pick(moves, ans.Decision), nil
		case s.review && (ans.Kind == "decision" || ans.Kind == "fail"):
			if ans.Kind == "decision" {
				run.Notes = append(run.Notes, fmt.Sprintf("review %q decided %q, which is neither approve nor reject", s.id, ans.Decision))
			}
			continue
		case s.review:
			return 0, &sim.StubError{Node: s.id, Err: fmt.Errorf("an agent_review answers a decision, not %s", ans.Kind)}
		case ans.Kind == "ok":
			return sim.Pick(moves, "complete"), nil
		case ans.Kind == "fail" && ans.Reason == "blocked" && sim.Pick(moves, "blocked") >= 0:
			return sim.Pick(moves, "blocked"), nil
		case ans.Kind == "fail":
			continue
		default:
			return 0, &sim.StubError{Node: s.id, Err: fmt.Errorf("an agent_task answers ok or fail, not %s", ans.Kind)}
		}
	}
	if s.review {
		return sim.Pick(moves, "invalid"), nil
	}
	return sim.Pick(moves, "failed"), nil
}

// outputPaths fills the call's files from the step's output_files: the paths under
// the attempt's output root.
func (p *player) outputPaths(s *step, c *sim.Call) {
	if s.files == nil || len(s.files.Entries()) == 0 {
		return
	}
	c.FilesRoot = fmt.Sprintf("runs/%s/steps/%s/attempts/%d/outputs", runID, s.id, c.Attempt)
	c.Files = map[string]string{}
	for _, m := range s.files.Entries() {
		if t, ok := m.Value.Str(); ok {
			c.Files[m.Key] = interpolatePath(t, runID, s.id, c.Attempt)
		}
	}
}

// interpolatePath fills an output_files template as DireClaw does
// (interpolate_output_template): each placeholder written exactly so is replaced, in
// turn, and nothing else is.
func interpolatePath(t, runID, stepID string, attempt int) string {
	t = strings.ReplaceAll(t, "{{workflow.run_id}}", runID)
	t = strings.ReplaceAll(t, "{{workflow.step_id}}", stepID)
	return strings.ReplaceAll(t, "{{workflow.attempt}}", strconv.Itoa(attempt))
}

// pinStep is the stub answer that makes a run take a step (sim.Definition.Pin): a
// review's approve or reject is its decision, invalid a failed attempt; a task's
// complete is ok, failed and blocked its fail.
func pinStep(nodes map[string]sim.Node) func(sim.Edge, map[string]any) (sim.Pin, bool) {
	return func(st sim.Edge, ctx map[string]any) (sim.Pin, bool) {
		node, o := st.Node, st.Outcome
		switch {
		case (o == "approve" || o == "reject") && sim.Accepts(nodes, node, "decision"):
			return sim.Pin{Node: node, Answer: sim.Answer{Kind: "decision", Decision: o}}, true
		case o == "invalid" && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, "no valid decision"), true
		case o == "complete" && sim.Accepts(nodes, node, "ok"):
			return sim.OKPin(node, ctx), true
		case o == "failed" && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, "simulated failure"), true
		case o == "blocked" && sim.Accepts(nodes, node, "fail"):
			return sim.FailPin(node, "blocked"), true
		}
		return sim.Pin{}, false
	}
}
