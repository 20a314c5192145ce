package ensemble

import (
	"fmt"

	"github.com/dwsdev/dws/lint"
)

var crossPhaseContext = lint.Rule{
	ID: "cross-phase-context", Severity: lint.Error, Dialect: ID,
	Summary: "a task's context names a task of a phase that does not come before its own",
	Doc: `Phases that do not depend on each other run at the same time, so a task can read the
output of a task in another phase only when that phase is a (transitive) predecessor of
its own: listed in after, or in the after of one of those, and so on. The design
document makes this a build-time error, but AgentEnsemble does not enforce it, and the
context is then empty or missing on some runs. Add the phase to after, or move the task.`,
	Fail:  lint.Example{Name: "kitchen.yaml", Text: kitchen("context: [prep-steak] }", "context: [prep-steak, boil-pasta] }")},
	Pass:  lint.Example{Name: "kitchen.yaml", Text: kitchen()},
	Check: func(p *lint.Pass) { checkCrossPhaseContext(p.File, model(p)) },
}

func checkCrossPhaseContext(f *lint.File, e *ensemble) {
	ancestors := map[*phase]map[string]bool{}
	for _, p := range e.phases {
		for _, t := range p.tasks {
			home := e.home(t)
			for _, c := range t.context {
				dep, ok := e.byTask[c.name]
				if !ok || dep.phase.implicit || c.onCycle {
					continue // dangling-edge, ensemble-mix or cycle says what is wrong
				}
				other := e.home(dep)
				if other == home {
					continue
				}
				if ancestors[home] == nil {
					ancestors[home] = e.ancestors(home)
				}
				if other.named && ancestors[home][other.name] {
					continue
				}
				f.Report("cross-phase-context", c.ptr, fmt.Sprintf(
					"task %q in phase %q reads task %q of phase %q, which phase %q does not come after: its output may not exist yet",
					t.name, home.name, dep.name, other.name, home.name),
					f.Related(dep.ptr, "the task read is here"))
			}
		}
	}
}

// ancestors is the names of the phases p waits for, directly or through others.
func (e *ensemble) ancestors(p *phase) map[string]bool {
	seen := map[string]bool{}
	queue := []*phase{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, a := range q.after {
			pred, ok := e.byName[a.name]
			if !ok || seen[a.name] {
				continue
			}
			seen[a.name] = true
			queue = append(queue, pred)
		}
	}
	return seen
}
