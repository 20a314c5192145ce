package dws

import "github.com/dwsdev/dws/lint"

// The simulation rules of dws-workflow. Their examples turn sim-unhandled-failure off:
// every phase of a workflow can fail, and most have no failure route.
const quietFailures = "rules: { sim-unhandled-failure: off }\n"

const noLoop = `,
    { "type": "loop", "from": "review", "to": "draft", "max_iterations": 3, "on_exhaustion": "escalate" }`

var infeasibleBranch = lint.Rule{
	ID: "sim-infeasible-branch", Severity: lint.Warning, Sim: true,
	Summary: "a conditional branch (or its default) that no phase output selects",
	Doc: `A conditional tries its branches in order over the phase's output. A branch whose condition
only holds for outputs an earlier branch already takes (gt 5 before gt 10) is never taken, and
neither is a default when the branches together take every output. dws simulate builds, for
each branch and the default, an output that selects it; when the conditions compare fields with
constants, "none exists" is a proof. Reorder the branches or fix the condition.`,
	Fail: lint.Example{Name: "review-flow.json", Config: quietFailures, Text: workflowExample(
		`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "conditional", "from": "draft", "branches": [
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 5 }, "to": "review" },
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 10 }, "to": "review" } ], "default": "review" }`,
		noLoop, "")},
	Pass: lint.Example{Name: "review-flow.json", Config: quietFailures, Text: workflowExample(
		`{ "type": "sequential", "from": "draft", "to": "review" }`,
		`{ "type": "conditional", "from": "draft", "branches": [
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 10 }, "to": "review" },
      { "condition": { "field": "$.output.score", "operator": "gt", "value": 5 }, "to": "review" } ], "default": "review" }`,
		noLoop, "")},
}

var joinUnsatisfiable = lint.Rule{
	ID: "sim-join-unsatisfiable", Severity: lint.Error, Sim: true,
	Summary: "a parallel join that can never proceed",
	Doc: `A join proceeds when its strategy is met: all branches passed, any one, or min_branches of
them (n_of_m). When more branches must pass than there are phases to run (a phase listed twice
runs once), no run ever gets past the join: every run fails through the transition's failure
route or ends failed.`,
	Fail: lint.Example{Name: "fan-out.json", Config: quietFailures, Text: parallelExample(
		`"branches": ["security", "style"]`, `"branches": ["security", "security", "style"]`,
		`"strategy": "all"`, `"strategy": "n_of_m", "min_branches": 3`)},
	Pass: lint.Example{Name: "fan-out.json", Config: quietFailures, Text: parallelExample(
		`"strategy": "all"`, `"strategy": "n_of_m", "min_branches": 2`)},
}

var loopExhausted = lint.Rule{
	ID: "sim-loop-exhausted", Severity: lint.Info, Sim: true,
	Summary: "a loop can run out of iterations",
	Doc: `A loop turns at most max_iterations times (and all loops together at most
global_constraints.max_iterations). dws simulate follows every number of turns and reports a
loop that some run can exhaust, naming what on_exhaustion then does: escalate, abort, or
proceed_with_warning. That is often intended; the finding is there so that it is a decision.`,
	Fail: lint.Example{Name: "review-flow.json", Config: quietFailures, Text: workflowExample()},
	Pass: lint.Example{Name: "review-flow.json", Config: quietFailures, Text: workflowExample(noLoop, "")},
}
