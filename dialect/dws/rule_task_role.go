package dws

import (
	"fmt"
	"slices"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

var taskRole = lint.Rule{
	ID: "task-role", Severity: lint.Error, Dialect: TaskID,
	Summary: "a task's assigned_worker.role is held by no worker of the job spec",
	Doc: `Spec 7 requires every task to have an assigned worker role that exists in the job spec. A
task whose role no worker holds can never be assigned: the decomposition stalls at it, and
every task that depends on it waits forever. Checked when dws validates the job spec.`,
	Fail: lint.Example{Name: "tasks/analyse.json", Files: exampleJobSpec(), Text: exampleTask("implementor", "tester")},
	Pass: lint.Example{Name: "tasks/analyse.json", Files: exampleJobSpec(), Text: exampleTask()},
}

func exampleTask(replacements ...string) string {
	return example(`{
  "task_id": "0b6f7c1e-8a4d-4a43-9a57-1f2d3c4b5a69",
  "intent_ref": "review-supplier-contract",
  "assigned_worker": { "role": "implementor" },
  "expected_output": { "artifact_type": "analysis-report" },
  "status": "pending",
  "priority": "high"
}
`, replacements...)
}

// workerRoles are the roles workers hold, sorted: a task is assigned a worker's role.
func workerRoles(b *bundle) []string {
	var roles []string
	for r, ws := range b.roleOf {
		if len(ws) > 0 {
			roles = append(roles, r)
		}
	}
	slices.Sort(roles)
	return roles
}

func (b *bundle) checkTasks() {
	if !b.has["workers"] {
		return
	}
	for _, d := range b.byFolder["tasks"] {
		role, ok := d.root.Get("assigned_worker").Get("role").Str()
		if ok && role != "" && len(b.roleOf[role]) == 0 {
			d.f.Report("task-role", "/assigned_worker/role", fmt.Sprintf("no worker of the job spec holds the role %q", role)+
				suggest.Hint(role, workerRoles(b), "roles"))
		}
	}
}
