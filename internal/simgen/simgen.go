// Package simgen writes generated definitions of every simulated dialect, n steps
// (phases, tasks) long, for the simulation's benchmarks (bench/gen -dialect, go test
// -bench Simulate ./dialect): each validates without an error, and its shape makes the
// simulation do what long real definitions make it do (branches, failure routes,
// loops, fan-in), reproducibly (a fixed seed per size).
package simgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Dialects are the dialects Of writes, in the order benchmarks list them.
var Dialects = []string{"cortex", "dws-workflow", "direclaw", "ensemble"}

// Of writes a definition of the dialect, n steps long, and the file name extension
// it is read with (".json"); ok is false for a dialect it does not know.
func Of(dialect string, n int) (text []byte, ext string, ok bool) {
	switch dialect {
	case "cortex":
		return Cortex(n), ".json", true
	case "dws-workflow":
		return DWS(n), ".json", true
	case "direclaw":
		return DireClaw(n), ".json", true
	case "ensemble":
		return Ensemble(n), ".json", true
	}
	return nil, "", false
}

// Cortex is a Cortex workflow of n steps, as bench/gen writes them: every step routes
// on to the next one, a branch every six steps skips one or two ahead on false, sql
// steps with retries, http, ai and script steps; a failure ends the run.
func Cortex(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 1))
	id := func(k int) string { return fmt.Sprintf("step-%05d", k) }
	next := func(k int) string {
		if k+1 >= n {
			return "null"
		}
		return `"` + id(k+1) + `"`
	}
	var b strings.Builder
	b.WriteString(`{"schemaVersion": "1.0", "name": "generated", "version": "v1.0", "description": "Generated for the simulation benchmark.", "signature": "", "steps": [` + "\n")
	for k := range n {
		if k > 0 {
			b.WriteString(",\n")
		}
		onFailure := "null"
		var typ, params string
		switch k % 6 {
		case 0:
			typ = "sql"
			params = fmt.Sprintf(`{"statement": "UPDATE expense SET status = $1, amount = amount + %d WHERE id = {{expenseId}} AND status <> 'closed'", "args": ["approved"]}, "retry": {"count": 2, "delaySeconds": 5}`, r.IntN(1000))
		case 1:
			typ = "branch"
			params = fmt.Sprintf(`{"expression": "{{amount}} <= %d AND {{fraudScore}} < 0.%d"}`, 100*r.IntN(50), 1+r.IntN(9))
			if k+2 < n {
				onFailure = `"` + id(k+2+r.IntN(min(2, n-k-2))) + `"`
			}
		case 2:
			typ = "http"
			params = `{"method": "POST", "url": "https://hooks.example/api/notify", "headers": {"Authorization": "Bearer token", "idempotencyKey": "flow-{{expenseId}}"}, "bodyTemplate": "slack_approval"}`
		case 3:
			typ = "ai"
			params = `{"promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "fraudScore"}`
		case 4:
			typ = "script"
			params = `{"code": "const total = items.reduce((a, b) => a + b.amount, 0); return { total };"}`
		case 5:
			typ = "sql"
			params = `{"statement": "SELECT e.id, e.amount FROM expense e WHERE e.id = {{expenseId}}", "args": []}`
		}
		fmt.Fprintf(&b, `{"id": %q, "type": %q, "params": %s, "onSuccess": %s, "onFailure": %s}`, id(k), typ, params, next(k), onFailure)
	}
	b.WriteString("\n]}\n")
	return []byte(b.String())
}

// DWS is a dws-workflow of n phases in a chain, every tenth with a loop back over the
// ten before it (two turns, then proceeding with a warning), every seventh with a
// timeout route to the phase after next, and no global bound.
func DWS(n int) []byte {
	var phases, transitions []string
	for i := range n {
		phases = append(phases, fmt.Sprintf(`{"id": "p%d", "name": "Phase %d", "purpose": "Step %d.", "worker_assignment": {"role": "implementor"}, "verification_gate": {"gate_id": "g%d"}, "exit_conditions": []}`, i, i, i, i))
		if i+1 < n {
			extra := ""
			if i%7 == 3 && i+2 < n {
				extra = fmt.Sprintf(`, "on_timeout": "p%d"`, i+2)
			}
			transitions = append(transitions, fmt.Sprintf(`{"type": "sequential", "from": "p%d", "to": "p%d"%s}`, i, i+1, extra))
		}
		if i%10 == 9 {
			transitions = append(transitions, fmt.Sprintf(
				`{"type": "loop", "from": "p%d", "to": "p%d", "max_iterations": 2, "on_exhaustion": "proceed_with_warning"}`, i, i-9))
		}
	}
	return []byte(`{"name": "generated", "version": "1.0.0", "description": "Generated for the simulation benchmark.", "entry_phase": "p0", "phases": [` + "\n" +
		strings.Join(phases, ",\n") + "\n], \"transitions\": [\n" + strings.Join(transitions, ",\n") + "\n], \"exit_conditions\": {}}\n")
}

// DireClaw is an orchestrator of one workflow of n steps: each agent_task continues in
// list order and is blocked a step or three ahead half the time, and every fifth step is
// a review that approves to the next step and rejects to it or the one after. The limit
// is n+1, so that no run reaches it. Written as JSON, which DireClaw reads too: a YAML
// document holds at most a million values, fewer than 100,000 steps have.
func DireClaw(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 13))
	var b strings.Builder
	fmt.Fprintf(&b, `{"id": "generated", "selector_agent": "router", "default_workflow": "w", "selection_max_retries": 2,
"agents": {"router": {"provider": "anthropic", "model": "sonnet", "can_orchestrate_workflows": true}, "worker": {"provider": "openai", "model": "gpt-5"}},
"workflows": [{"id": "w", "version": 1, "description": "Generated for the simulation benchmark.", "tags": ["default"], "inputs": ["user_message"],
"limits": {"max_total_iterations": %d}, "steps": [
`, n+1)
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		out := fmt.Sprintf(`"outputs": ["summary"], "output_files": {"summary": "s%d/summary__{{workflow.run_id}}.txt"}`, i)
		if i%5 == 4 && i+2 < n {
			fmt.Fprintf(&b, `{"id": "s%d", "type": "agent_review", "agent": "worker", "prompt": "Review %d", %s, "on_approve": "s%d", "on_reject": "s%d"}`,
				i, i, out, i+1, i+1+r.IntN(2))
			continue
		}
		fmt.Fprintf(&b, `{"id": "s%d", "type": "agent_task", "agent": "worker", "prompt": "Step %d", %s`, i, i, out)
		if r.IntN(2) == 0 && i+1 < n {
			fmt.Fprintf(&b, `, "on_blocked": "s%d"`, min(i+1+r.IntN(3), n-1))
		}
		b.WriteString("}")
	}
	b.WriteString("\n]}]}\n")
	return []byte(b.String())
}

// Ensemble is an ensemble of n phases, each waiting for one or two of the four phases
// before it, every tenth reviewed with one retry and one re-run of a predecessor.
// Written as JSON (see DireClaw).
func Ensemble(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 9))
	var b strings.Builder
	b.WriteString(`{"ensemble": "generated", "phases": [` + "\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		var after []string
		for k := range 1 + r.IntN(2) {
			if j := i - 1 - r.IntN(4) - k; j >= 0 {
				after = append(after, fmt.Sprintf(`"p%d"`, j))
			}
		}
		fmt.Fprintf(&b, `{"name": "p%d", "after": [%s], "tasks": [{"name": "t%d", "description": "d"}]`, i, strings.Join(after, ", "), i)
		if i%10 == 9 {
			fmt.Fprintf(&b, `, "review": {"task": {"name": "r%d", "description": "d"}, "maxRetries": 1, "maxPredecessorRetries": 1}`, i)
		}
		b.WriteString("}")
	}
	b.WriteString("\n]}\n")
	return []byte(b.String())
}
