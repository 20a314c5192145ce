package direclaw

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

const reviewStep = `      - id: check
        type: agent_review
        agent: worker
        prompt: "Approve or reject: {{steps.reply.outputs.summary}}"
        outputs: [decision, summary]
        output_files:
          decision: check/decision__{{workflow.run_id}}.txt
          summary: check/summary__{{workflow.run_id}}.txt
        on_approve: publish
        on_reject: reply
`

const publishStep = `      - id: publish
        type: agent_task
        agent: worker
        prompt: "Publish {{steps.reply.outputs.summary}}"
        outputs: [summary]
        output_files:
          summary: publish/summary__{{workflow.run_id}}.txt
`

var reviewRouting = lint.Rule{
	ID: "review-routing", Severity: lint.Error, Dialect: ID,
	Summary: "an agent_review without on_approve or on_reject, or either on an agent_task",
	Doc: `An agent_review step routes on its decision: approve follows on_approve, reject follows
on_reject. A review missing one of them has nowhere to go on that decision, which DireClaw
only finds out when a reviewer makes it. An agent_task never makes a decision, so
on_approve or on_reject there is never followed (DireClaw ignores it silently); use next.`,
	Fail:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep+reviewStep+publishStep, "        on_reject: reply\n", "")},
	Pass:  lint.Example{Name: "orchestrator.yaml", Text: example(replyStep + reviewStep + publishStep)},
	Check: func(p *lint.Pass) { checkReviewRouting(p.File, model(p)) },
}

func checkReviewRouting(f *lint.File, o *orchestrator) {
	for _, w := range o.workflows {
		for _, s := range w.steps {
			for _, k := range []string{"on_approve", "on_reject"} {
				has := present(s.node, k) // null is absent, as DireClaw reads it
				switch {
				case s.review && !has:
					decision := "an approved"
					if k == "on_reject" {
						decision = "a rejected"
					}
					f.Report("review-routing", s.ptr, fmt.Sprintf(
						"agent_review step %s has no %s: %s review has nowhere to go", s.label(), k, decision))
				case s.typ == "agent_task" && has:
					f.ReportKey("review-routing", s.ptr+"/"+k, fmt.Sprintf(
						"%s on agent_task step %s is never followed: only an agent_review decides; use next", k, s.label()))
				}
			}
		}
	}
}
