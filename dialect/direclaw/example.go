package direclaw

import "strings"

// example builds a rule-documentation file: a current-format orchestrator whose one
// workflow has the given steps (YAML list items indented six spaces). Replacements in
// edits ("old", "new", …) adjust the rest.
func example(steps string, edits ...string) string {
	doc := `id: demo
selector_agent: router
default_workflow: answer
selection_max_retries: 2
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: answer
    version: 1
    description: Answer a question
    tags: [default]
    inputs: [user_message]
    steps:
` + steps + `workflow_orchestration:
  max_total_iterations: 12
  default_step_timeout_seconds: 900
  max_step_timeout_seconds: 1800
`
	return strings.NewReplacer(edits...).Replace(doc)
}

// replyStep is a step that passes every rule.
const replyStep = `      - id: reply
        type: agent_task
        agent: worker
        prompt: "Answer: {{inputs.user_message}}"
        outputs: [summary]
        output_files:
          summary: reply/summary__{{workflow.run_id}}.txt
`
