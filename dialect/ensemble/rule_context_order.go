package ensemble

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var contextOrder = lint.Rule{
	ID: "context-order", Severity: lint.Error, Dialect: ID,
	Summary: "under SEQUENTIAL, a task's context names a task that comes later in its phase",
	Doc: `A SEQUENTIAL phase (or flat task list) runs its tasks one after another in the order they
are written, so a task can only read the output of tasks above it. A context entry naming
a later task, or its phase's review task (which runs after the phase), reads an output
that does not exist yet. Reorder the tasks, or make the phase PARALLEL so that context
decides the order. A flat task list without a workflow is SEQUENTIAL only when no task's
context names a task of the list: otherwise AgentEnsemble infers PARALLEL and orders the
tasks by context, and so does dws. Tasks whose context lists name each other (or a task
naming itself) wait for each other under any workflow: that is one cycle finding, not
this rule's.`,
	Fail: lint.Example{Name: "kitchen.yaml", Text: kitchen(
		"      - { name: prep-steak, description: Season the steak }\n      - { name: cook-steak, description: Sear the steak, context: [prep-steak] }\n",
		"      - { name: cook-steak, description: Sear the steak, context: [prep-steak] }\n      - { name: prep-steak, description: Season the steak }\n")},
	Pass:  lint.Example{Name: "kitchen.yaml", Text: kitchen()},
	Check: func(p *lint.Pass) { checkContextOrder(p.File, model(p)) },
}

func checkContextOrder(f *lint.File, e *ensemble) {
	for _, p := range e.allPhases() {
		if e.effective(p) != "SEQUENTIAL" {
			continue
		}
		for _, t := range p.tasks {
			for _, c := range t.context {
				dep, ok := e.byTask[c.name]
				if !ok || dep.phase != p || c.onCycle {
					continue // a task naming itself, or on a cycle, is the cycle finding's
				}
				if dep.pos > t.pos {
					f.Report("context-order", c.ptr, fmt.Sprintf(
						"task %q reads task %q, which runs after it in %s: its output does not exist yet",
						t.name, dep.name, where(p)), f.Related(dep.ptr, "the later task is here"))
				}
			}
		}
	}
}

func where(p *phase) string {
	if p.implicit {
		return "the SEQUENTIAL task list"
	}
	return fmt.Sprintf("SEQUENTIAL phase %q", p.name)
}
