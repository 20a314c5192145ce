package dws

import (
	"fmt"
	"math/big"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var budget = lint.Rule{
	ID: "budget", Severity: lint.Warning, Dialect: WorkflowID,
	Summary: "worker budgets exceed the cost ceiling, alert thresholds are out of order, or currencies differ",
	Doc: `Cost tracking splits global_constraints.cost_ceiling into worker budgets and raises alerts
at shares of it. Budgets that add up to more than the ceiling promise money the workflow
may not spend; alert thresholds must be shares in (0, 1] in ascending order, or a later
alert (pause) fires before an earlier one (notify); and amounts in different currencies
cannot be added or compared. Each problem is one finding.`,
	Fail: lint.Example{Name: "review-flow.json", Text: workflowExample(`"max_iterations": 5 },`, `"max_iterations": 5,
    "cost_ceiling": { "amount": 20.00, "currency": "USD" },
    "cost_tracking": {
      "worker_budgets": [
        { "role": "implementor", "budget": { "amount": 15.00, "currency": "USD" } },
        { "role": "verifier", "budget": { "amount": 10.00, "currency": "USD" } }
      ],
      "alerts": [ { "threshold": 0.8, "action": "escalate" }, { "threshold": 0.5, "action": "notify" } ]
    } },`)},
	Pass: lint.Example{Name: "review-flow.json", Text: workflowExample(`"max_iterations": 5 },`, `"max_iterations": 5,
    "cost_ceiling": { "amount": 30.00, "currency": "USD" },
    "cost_tracking": {
      "worker_budgets": [
        { "role": "implementor", "budget": { "amount": 15.00, "currency": "USD" }, "alert_threshold": 0.8 },
        { "role": "verifier", "budget": { "amount": 10.00, "currency": "USD" } }
      ],
      "alerts": [ { "threshold": 0.5, "action": "notify" }, { "threshold": 1.0, "action": "pause" } ]
    } },`)},
	Check: func(p *lint.Pass) { checkBudget(p.File, workflowModel(p)) },
}

func checkBudget(f *lint.File, w *workflow) {
	const base = "/global_constraints/cost_tracking"
	ceiling := w.global.Get("cost_ceiling")
	ceilAmount, hasCeil := rat(ceiling.Get("amount"))
	ceilCur, _ := ceiling.Get("currency").Str()
	tracking := w.global.Get("cost_tracking")

	sum := new(big.Rat)
	firstCur := ceilCur
	var counted []lint.Related
	for i, b := range items(tracking.Get("worker_budgets")) {
		ptr := base + "/worker_budgets/" + itoa(i)
		role, _ := b.Get("role").Str()
		amount, ok := rat(b.Get("budget").Get("amount"))
		cur, _ := b.Get("budget").Get("currency").Str()
		if firstCur == "" {
			firstCur = cur
		}
		switch {
		case cur != "" && firstCur != "" && cur != firstCur:
			what := "the cost ceiling is in " + firstCur
			if ceilCur == "" {
				what = "the first worker budget is in " + firstCur
			}
			f.Report("budget", ptr+"/budget/currency", fmt.Sprintf("the budget of role %q is in %s, but %s: they cannot be added", role, cur, what))
		case ok:
			sum.Add(sum, amount)
			counted = append(counted, f.Related(ptr+"/budget/amount", fmt.Sprintf("budget of role %q", role)))
		}
		checkShare(f, b.Get("alert_threshold"), ptr+"/alert_threshold", "alert_threshold of the budget of role "+quote(role))
	}
	if hasCeil && len(counted) > 0 && sum.Cmp(ceilAmount) > 0 {
		f.Report("budget", base+"/worker_budgets", fmt.Sprintf("worker budgets add up to %s %s, more than the cost ceiling of %s %s",
			sum.FloatString(2), ceilCur, ceilAmount.FloatString(2), ceilCur),
			append([]lint.Related{f.Related("/global_constraints/cost_ceiling/amount", "the cost ceiling")}, counted...)...)
	}

	var prev *source.Node
	for i, a := range items(tracking.Get("alerts")) {
		ptr := base + "/alerts/" + itoa(i) + "/threshold"
		t := a.Get("threshold")
		if !checkShare(f, t, ptr, "alert threshold") {
			continue
		}
		if prev != nil {
			p, _ := number(prev)
			v, _ := number(t)
			if v <= p {
				f.Report("budget", ptr, fmt.Sprintf("alert thresholds must ascend: %s comes after %s", t.Text, prev.Text))
			}
		}
		prev = t
	}
}

// checkShare reports a number outside (0, 1]; it returns whether n is a usable share.
func checkShare(f *lint.File, n *source.Node, ptr, what string) bool {
	v, ok := number(n)
	if !ok {
		return false
	}
	if v <= 0 || v > 1 {
		f.Report("budget", ptr, fmt.Sprintf("%s %s is not a share in (0, 1]", what, n.Text))
		return false
	}
	return true
}

// rat reads a number node exactly.
func rat(n *source.Node) (*big.Rat, bool) {
	if n == nil || n.Kind != source.Number {
		return nil, false
	}
	return new(big.Rat).SetString(n.Text)
}
