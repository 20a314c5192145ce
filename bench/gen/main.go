// Command gen writes a corpus of generated workflow definitions for the benchmark
// script: Cortex files of about 4 KB (JSON and YAML, with SQL steps, branches, http and
// ai steps) whose shape varies with a seed, so runs are reproducible. With -dialect it
// writes -n copies of one long definition of that dialect, -steps long, as the
// simulation's benchmarks use them (internal/simgen).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/dwsdev/dws/internal/simgen"
)

func main() {
	out := flag.String("out", "corpus", "directory to write into")
	n := flag.Int("n", 10000, "number of files")
	steps := flag.Int("steps", 12, "steps per file")
	seed := flag.Uint64("seed", 1, "random seed")
	scenarios := flag.Int("scenarios", 0, "scenario files to write into OUT/scenarios, spread over the definitions")
	realistic := flag.Bool("realistic", false, "varied SQL over a 24-table schema (written to OUT/schema.sql); prints the share of repeated statements")
	dialect := flag.String("dialect", "", "write a simulation benchmark definition of this dialect instead: "+strings.Join(simgen.Dialects, ", "))
	flag.Parse()
	if *dialect != "" {
		if err := writeDialect(*out, *dialect, *n, *steps); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := rand.New(rand.NewPCG(*seed, 0))
	var g *sqlGen
	if *realistic {
		g = &sqlGen{r: r, ts: schemaOf(r)}
		if err := os.WriteFile(filepath.Join(*out, "schema.sql"), []byte(schemaSQL(g.ts)), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	seen := map[string]bool{}
	total, repeated := 0, 0
	for i := range *n {
		var doc map[string]any
		if g != nil {
			doc = realisticWorkflow(g, i, *steps)
			for _, st := range doc["steps"].([]any) {
				p, _ := st.(map[string]any)["params"].(map[string]any)
				text, _ := p["statement"].(string)
				if e, ok := p["expression"].(string); ok {
					text = e
				}
				if text != "" {
					total++
					if seen[text] {
						repeated++
					}
					seen[text] = true
				}
			}
		} else {
			doc = workflow(r, i, *steps)
		}
		data, _ := json.MarshalIndent(doc, "", "  ")
		name := filepath.Join(*out, fmt.Sprintf("flow-%05d.json", i))
		if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	if g != nil {
		fmt.Printf("%d statements and expressions, %d (%.1f%%) repeated\n", total, repeated, 100*float64(repeated)/float64(max(total, 1)))
	}
	if *scenarios > 0 && *n > 0 {
		dir := filepath.Join(*out, "scenarios")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for k := range *scenarios {
			name := filepath.Join(dir, fmt.Sprintf("s%05d.scenario.yaml", k))
			if err := os.WriteFile(name, []byte(scenario(r, k%*n, *steps)), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
}

// scenario pins one run of flow i: a starting context and stub answers for some of its
// steps (ai outputs, failures and retries), different for every scenario.
func scenario(r *rand.Rand, i, n int) string {
	s := fmt.Sprintf("definition: ../flow-%05d.json\ncontext: { amount: %d, expenseId: %d }\nstubs:\n", i, r.IntN(5000), r.IntN(100000))
	for k := range n {
		id := fmt.Sprintf("step-%02d", k)
		switch {
		case k%6 == 3:
			s += fmt.Sprintf("  %s: [{ output: { fraudScore: 0.%02d } }]\n", id, r.IntN(100))
		case k%6 == 1 || r.IntN(4) != 0:
			// branches are decided by the context; most steps stay unpinned (ok)
		case k%6 == 0:
			s += fmt.Sprintf("  %s: [{ fail: deadlock %d, times: %d }, { ok: true }]\n", id, r.IntN(100), 1+r.IntN(3))
		default:
			s += fmt.Sprintf("  %s: [{ fail: \"error %d\" }]\n", id, r.IntN(1000))
		}
	}
	return s
}

// workflow builds a valid, acyclic Cortex workflow of n steps: each step routes
// forward, so the graph is a DAG with fan-in.
func workflow(r *rand.Rand, i, n int) map[string]any {
	steps := make([]any, 0, n)
	id := func(k int) string { return fmt.Sprintf("step-%02d", k) }
	// Every step routes to the next one, so each is reachable; branches skip ahead on
	// their false edge, giving fan-in.
	next := func(k int) any {
		if k+1 >= n {
			return nil
		}
		return id(k + 1)
	}
	skip := func(k int) any {
		if k+2 >= n {
			return nil
		}
		return id(k + 2 + r.IntN(min(2, n-k-2)))
	}
	for k := range n {
		s := map[string]any{"id": id(k), "onSuccess": next(k), "onFailure": nil}
		switch k % 6 {
		case 0:
			s["type"] = "sql"
			s["params"] = map[string]any{
				"statement": fmt.Sprintf("UPDATE expense SET status = $1, amount = amount + %d WHERE id = {{expenseId}} AND status <> 'closed'", r.IntN(1000)),
				"args":      []any{"approved"},
			}
			s["retry"] = map[string]any{"count": 2, "delaySeconds": 5}
		case 1:
			s["type"] = "branch"
			s["params"] = map[string]any{"expression": fmt.Sprintf("{{amount}} <= %d AND {{fraudScore}} < 0.%d", 100*r.IntN(50), 1+r.IntN(9))}
			s["onFailure"] = skip(k)
		case 2:
			s["type"] = "http"
			s["params"] = map[string]any{
				"method": "POST", "url": "https://hooks.example/api/notify",
				"headers":      map[string]any{"Authorization": "Bearer token", "idempotencyKey": fmt.Sprintf("flow-%d-{{expenseId}}", i)},
				"bodyTemplate": "slack_approval",
			}
		case 3:
			s["type"] = "ai"
			s["params"] = map[string]any{"promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "fraudScore"}
		case 4:
			s["type"] = "script"
			s["params"] = map[string]any{"code": "const total = items.reduce((a, b) => a + b.amount, 0); return { total };"}
		case 5:
			s["type"] = "sql"
			s["params"] = map[string]any{
				"statement": "SELECT e.id, e.amount, a.note FROM expense e JOIN expense_audit a ON a.expense_id = e.id WHERE e.id = {{expenseId}}",
				"args":      []any{},
			}
		}
		steps = append(steps, s)
	}
	return map[string]any{
		"schemaVersion": "1.0",
		"name":          fmt.Sprintf("generated-%05d", i),
		"version":       fmt.Sprintf("v1.%d", i%10),
		"description":   "Generated for the dws benchmark: approval routing with SQL, branches, http and ai steps.",
		"steps":         steps,
		"signature":     "",
	}
}

// writeDialect writes n copies of simgen's definition of the dialect, steps long, as
// OUT/flow-00000.json and on.
func writeDialect(out, dialect string, n, steps int) error {
	text, ext, ok := simgen.Of(dialect, steps)
	if !ok {
		return fmt.Errorf("gen: -dialect %q: want one of %s", dialect, strings.Join(simgen.Dialects, ", "))
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for i := range n {
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("flow-%05d%s", i, ext)), text, 0o644); err != nil {
			return err
		}
	}
	return nil
}
