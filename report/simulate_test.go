package report

import (
	"slices"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// A definition that is part of a file lists the findings within it and the file's own
// (within no definition), never another definition's; a definition that is the whole
// file lists them all.
func TestDefinitionFindings(t *testing.T) {
	diag := func(ptr string) lint.Diagnostic { return lint.Diagnostic{Rule: "r", Pointer: ptr} }
	file := lint.FileResult{
		Diagnostics: []lint.Diagnostic{diag("/workflows/0/steps/1/id"), diag("/workflows/1/id"), diag("/workflow_orchestration"), diag("/workflows/10")},
		Simulation: &lint.Simulation{Definitions: []sim.Definition{
			{Workflow: "a", Pointer: "/workflows/0"}, {Workflow: "b", Pointer: "/workflows/1"},
		}},
	}
	pointers := func(e simEntry) []string {
		var out []string
		for _, d := range e.findings() {
			out = append(out, d.Pointer)
		}
		return out
	}
	defs := file.Simulation.Definitions
	if got := pointers(simEntry{file: file, def: &defs[0]}); !slices.Equal(got, []string{"/workflows/0/steps/1/id", "/workflow_orchestration", "/workflows/10"}) {
		t.Errorf("workflow a: %v", got)
	}
	if got := pointers(simEntry{file: file, def: &defs[1]}); !slices.Equal(got, []string{"/workflows/1/id", "/workflow_orchestration", "/workflows/10"}) {
		t.Errorf("workflow b: %v", got)
	}
	whole := sim.Definition{}
	if got := pointers(simEntry{file: file, def: &whole}); len(got) != 4 {
		t.Errorf("the whole file: %v", got)
	}
}
