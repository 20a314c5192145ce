package ensemble

import (
	"fmt"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
)

// checkNames reports, for the graph stage, the core rules the phase graph cannot: task names repeated anywhere
// in the ensemble (duplicate-id), and after or context entries naming nothing
// (dangling-edge). Phase names are the graph stage's.
func checkNames(f *lint.File, e *ensemble) {
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			if !t.named {
				continue
			}
			if first := e.byTask[t.name]; first != t {
				f.Report("duplicate-id", t.ptr+"/name", fmt.Sprintf("task %q is defined twice; task names are unique across the ensemble", t.name),
					f.Related(first.ptr+"/name", "first defined here"))
			}
		}
	}
	var phaseNames, taskNames []string
	for _, p := range e.phases {
		if p.named && e.byName[p.name] == p {
			phaseNames = append(phaseNames, p.name)
		}
	}
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			if t.named && e.byTask[t.name] == t {
				taskNames = append(taskNames, t.name)
			}
		}
	}
	// A hint costs a distance per name: a generated file with thousands of bad entries
	// gets hints on the first 64.
	hints := 0
	hint := func(word string, known []string, plural string) string {
		if hints++; hints > 64 {
			return ""
		}
		return suggest.Hint(word, known, plural)
	}
	for _, p := range e.phases {
		if !p.named || e.byName[p.name] != p {
			continue // a later phase of a taken name takes no part in the graph
		}
		for _, a := range p.after {
			if _, ok := e.byName[a.name]; !ok {
				f.Report("dangling-edge", a.ptr, fmt.Sprintf(`"after" names %q, which is not a phase%s`, a.name, hint(a.name, phaseNames, "phases")))
			}
		}
	}
	for _, p := range e.allPhases() {
		for _, t := range p.tasks {
			for _, c := range t.context {
				if _, ok := e.byTask[c.name]; !ok {
					f.Report("dangling-edge", c.ptr, fmt.Sprintf(`"context" names %q, which is not a task%s`, c.name, hint(c.name, taskNames, "tasks")))
				}
			}
		}
	}
}
