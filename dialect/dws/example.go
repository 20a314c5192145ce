package dws

import (
	"fmt"
	"strings"
)

// baseWorkflow is a small workflow that passes every rule; rule examples are made from it
// by replacing parts of its text.
const baseWorkflow = `{
  "name": "review-flow",
  "version": "1.0.0",
  "description": "Draft a change, then review it.",
  "global_constraints": { "max_duration": "PT4H", "max_iterations": 5 },
  "entry_phase": "draft",
  "phases": [
    {
      "id": "draft", "name": "Draft", "purpose": "Write the change.",
      "worker_assignment": { "role": "implementor", "count": 1, "selection_strategy": "any" },
      "verification_gate": { "gate_id": "draft-check", "blocking": true },
      "exit_conditions": [ { "field": "$.artifacts.code-change", "operator": "exists", "value": true } ],
      "timeout": "PT1H"
    },
    {
      "id": "review", "name": "Review", "purpose": "Review the change.",
      "worker_assignment": { "role": "verifier", "count": 1, "selection_strategy": "any" },
      "verification_gate": { "gate_id": "review-check", "blocking": true },
      "exit_conditions": [ { "field": "$.verification.verdict", "operator": "eq", "value": "pass" } ]
    }
  ],
  "transitions": [
    { "type": "sequential", "from": "draft", "to": "review" },
    { "type": "loop", "from": "review", "to": "draft", "max_iterations": 3, "on_exhaustion": "escalate" }
  ],
  "exit_conditions": {
    "completion_criteria": [ { "field": "$.verification.verdict", "operator": "eq", "value": "pass" } ]
  }
}
`

// example returns text with each (old, new) pair of replacements applied once; an old
// text that is not there is a mistake in the example and panics at start-up.
func example(text string, replacements ...string) string {
	for i := 0; i+1 < len(replacements); i += 2 {
		old, repl := replacements[i], replacements[i+1]
		if !strings.Contains(text, old) {
			panic(fmt.Sprintf("dws: example text lacks %q", old))
		}
		text = strings.Replace(text, old, repl, 1)
	}
	return text
}

// workflowExample is baseWorkflow with replacements, named review-flow.json.
func workflowExample(replacements ...string) string {
	return example(baseWorkflow, replacements...)
}

// exampleJobSpec is the rest of a small job spec that cross-file rule examples sit in: a
// manifest and two workers.
func exampleJobSpec() map[string]string {
	return map[string]string{
		"jobspec.json": `{ "name": "contract-review", "version": "1.0.0" }` + "\n",
		"workers/contract-analyst.json": `{
  "identity": { "name": "contract-analyst" },
  "role": "implementor",
  "artifact_types": ["analysis-report", { "type": "risk-summary" }]
}
`,
		"workers/review-verifier.json": `{ "identity": { "name": "review-verifier" }, "roles": ["verifier"] }` + "\n",
	}
}

// exampleContract is a contract between the example job spec's workers.
const exampleContract = `{
  "contract_id": "analyst-to-verifier",
  "name": "Analysis Output Contract",
  "version": "1.0.0",
  "parties": [
    { "role": "implementor", "obligation": "producer" },
    { "role": "verifier", "obligation": "consumer" }
  ],
  "artifact_guarantees": { "artifact_type": "analysis-report", "required_fields": ["$.findings"] },
  "delivery_sla": { "max_duration": "PT2H", "on_breach": "escalate" },
  "quality_baseline": {
    "min_scores": { "completeness": 0.8, "accuracy": 0.9 },
    "required_dimensions": ["completeness", "accuracy"]
  }
}
`
