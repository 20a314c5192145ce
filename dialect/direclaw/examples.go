package direclaw

import (
	"strings"

	"github.com/dwsdev/dws/lint"
)

// coreExamples are the DireClaw examples of the core rules' documentation (dws
// explain): the rules Cortex, which is registered first, shows none for.
var coreExamples = map[string]lint.Examples{
	"dead-end": {
		Fail: lint.Example{Name: "orchestrator.yaml", Text: strings.NewReplacer(
			"on_blocked: give-up", "next: check", "on_approve: publish", "on_approve: draft").Replace(iterationExample("draft"))},
		Pass: lint.Example{Name: "orchestrator.yaml", Text: iterationExample("give-up"), Config: seedRelease},
	},
	"ref": {
		Fail: lint.Example{Name: "orchestrator.yaml", Text: refExample("wroker")},
		Pass: lint.Example{Name: "orchestrator.yaml", Text: refExample("worker")},
	},
	"sim-max-iterations": {
		Fail: lint.Example{Name: "orchestrator.yaml", Text: iterationExample("draft"), Config: seedRelease},
		Pass: lint.Example{Name: "orchestrator.yaml", Text: iterationExample("give-up"),
			Config: "rules: { sim-unhandled-failure: off }\n" + seedRelease},
	},
}

// seedRelease checks a DireClaw example as the seed format, whose on_blocked route
// iterationExample takes (current releases ignore it, and direclaw-compat says so).
const seedRelease = "direclaw: { release: seed }\n"

// iterationExample is a DireClaw orchestrator whose review sends a rejection to the
// given step: back to the draft (a loop that max_total_iterations ends) or onward.
func iterationExample(onReject string) string {
	return `id: demo
selector_agent: router
default_workflow: write
selection_max_retries: 2
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  worker: { provider: openai, model: gpt-5 }
workflows:
  - id: write
    version: 1
    description: Draft, review, publish
    tags: [default]
    inputs: [user_message]
    limits: { max_total_iterations: 4 }
    steps:
      - id: draft
        type: agent_task
        agent: worker
        prompt: "Draft: {{inputs.user_message}}"
        outputs: [summary]
        output_files: { summary: draft/summary.txt }
        on_blocked: give-up
      - id: check
        type: agent_review
        agent: worker
        prompt: "Approve or reject {{steps.draft.outputs.summary}}"
        outputs: [decision, summary]
        output_files: { decision: check/decision.txt, summary: check/summary.txt }
        on_approve: publish
        on_reject: ` + onReject + `
      - id: give-up
        type: agent_task
        agent: worker
        prompt: "Tell the user why there is no draft to publish"
        outputs: [summary]
        output_files: { summary: give-up/summary.txt }
        next: done
      - id: publish
        type: agent_task
        agent: worker
        prompt: "Publish {{steps.draft.outputs.summary}}"
        outputs: [summary]
        output_files: { summary: publish/summary.txt }
        next: done
      - id: done
        type: agent_task
        agent: router
        prompt: "Report the outcome"
        outputs: [summary]
        output_files: { summary: done/summary.txt }
workflow_orchestration:
  max_total_iterations: 12
`
}

// refExample is a DireClaw orchestrator whose one step names the given agent.
func refExample(agent string) string {
	return example(strings.Replace(replyStep, "agent: worker", "agent: "+agent, 1))
}
