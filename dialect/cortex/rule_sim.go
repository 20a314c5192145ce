package cortex

import (
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sqlcheck"
)

// branchSimExample is a Cortex definition whose one branch step has the given
// expression, for the simulation rules' examples.
func branchSimExample(expression string) lint.Example {
	return lint.Example{Name: "branch.json", Config: sqlcheck.ExampleConfig, Text: `{
  "schemaVersion": "1.0", "name": "branch-sim", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": "` + expression + `" }, "onSuccess": "go-on", "onFailure": "stop-here" },
    { "id": "go-on", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "stop-here", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`}
}

var simRules = []lint.Rule{
	{
		ID: "sim-constant-branch", Severity: lint.Warning, Dialect: ID, Sim: true,
		Summary: "a branch expression is true for every context, or for none",
		Doc: `dws simulate evaluates each branch expression with PostgreSQL's semantics. When no context
can make it true (or none can make it false or NULL), one of the branch's edges is dead and
the steps behind it never run. NULL counts: {{x}} > 5 OR {{x}} <= 5 is not constant, since a
missing x makes it NULL, which a branch treats as false. The finding is certain only when
every comparison is between one variable and constants, so that trying one value in every
region those constants make is a proof; a variable an ai step outputs is bounded by its
output schema. Reported once per branch step.`,
		Fail: branchSimExample(`{{x}} IS NULL OR {{x}} IS NOT NULL`),
		Pass: branchSimExample(`{{x}} > 5 OR {{x}} <= 5`),
	},
	{
		ID: "sim-branch-error", Severity: lint.Warning, Dialect: ID, Sim: true,
		Summary: "some context makes a branch expression raise an error",
		Doc: `A branch expression that raises an error (division by zero, a text value that is not a
number) sends the run along onFailure as if it were false, and the error is easy to miss.
dws simulate searches the values around the expression's constants for one that raises an
error, and names it. Guard the expression (NULLIF(x, 0), a CASE) or make sure the value
cannot occur.`,
		Fail: branchSimExample(`100 / {{count}} > 1`),
		Pass: branchSimExample(`100 / NULLIF({{count}}, 0) > 1`),
	},
	{
		ID: "sim-unsupported", Severity: lint.Info, Dialect: ID, Sim: true,
		Summary: "a branch expression uses something the simulator cannot evaluate",
		Doc: `The simulator evaluates the operators and functions that
docs/simulation.md#branch-expressions lists exactly as PostgreSQL does; anything else (other
functions, regular expressions, arrays, dates) it cannot, so it treats the branch as a free
choice: both edges are counted and covered, and no witness context or constant-branch
finding is given for it. Rewrite the expression with the supported
operators if you want it checked.`,
		Fail: branchSimExample(`position('a' in {{name}}) > 0`),
		Pass: branchSimExample(`{{name}} LIKE '%a%'`),
	},
}
