package scenario_test

import (
	"path/filepath"
	"testing"
	"time"
)

// loop reviews a draft until the review approves it, within five visits.
const loop = `id: desk
selector_agent: router
default_workflow: write
agents:
  router: { provider: anthropic, model: sonnet, can_orchestrate_workflows: true }
  editor: { provider: anthropic, model: opus }
workflows:
  - id: write
    version: 1
    description: Draft until approved, then publish
    inputs: [user_message]
    limits: { max_total_iterations: 5 }
    steps:
      - id: draft
        type: agent_task
        agent: editor
        prompt: "Draft {{inputs.user_message}}"
        next: review
      - id: review
        type: agent_review
        agent: editor
        prompt: "Review"
        outputs: [decision, summary]
        output_files:
          decision: review/decision.txt
          summary: review/summary.txt
        on_approve: publish
        on_reject: draft
      - id: publish
        type: agent_task
        agent: editor
        prompt: "Publish"
`

// times: beyond 2^30 is a finding at the value, not an answer that answers once: an
// "always reject" review rejects every time or the scenario does not run.
func TestTimesOutOfRange(t *testing.T) {
	scen := func(times string) string {
		return "definition: desk.yaml\nworkflow: write\nstubs:\n  review: [{ decision: reject, times: " + times + " }, { decision: approve }]\nexpect: { status: failed }\n"
	}
	dir := project(t, map[string]string{
		"desk.yaml":            loop,
		"max.scenario.yaml":    scen("1073741824"),
		"over.scenario.yaml":   scen("1073741825"),
		"int64.scenario.yaml":  scen("4611686018427387904"),
		"bigint.scenario.yaml": scen("99999999999999999999999"),
	})
	s := runSuite(t, dir, time.Second)
	for _, o := range s.Outcomes {
		switch o.Scenario.Name {
		case "max":
			if !o.Passed {
				t.Errorf("max: %v %v", o.Failures, o.Diagnostics)
			}
		default:
			if o.Passed || len(o.Diagnostics) != 1 {
				t.Errorf("%s: passed %v, diagnostics %+v", o.Scenario.Name, o.Passed, o.Diagnostics)
				continue
			}
			d := o.Diagnostics[0]
			if d.Rule != "schema" || d.Line != 4 || d.Column != 39 || d.Pointer != "/stubs/review/0/times" {
				t.Errorf("%s: %+v", o.Scenario.Name, d)
			}
		}
	}
}

// An absolute definition: is that file, wherever the scenario is.
func TestAbsoluteDefinition(t *testing.T) {
	defs := project(t, map[string]string{"hello.json": hello})
	abs := filepath.Join(defs, "hello.json")
	dir := project(t, map[string]string{
		"abs.scenario.yaml": "definition: " + filepath.ToSlash(abs) + "\nexpect: { status: succeeded, path: [greet=ok] }\n",
	})
	s := runSuite(t, dir, time.Second)
	o := s.Outcomes[0]
	if !o.Passed || o.Scenario.Definition != abs {
		t.Fatalf("definition %q, failures %v %+v", o.Scenario.Definition, o.Failures, o.Diagnostics)
	}
}
