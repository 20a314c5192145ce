package dws

import (
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// The parts of the dialects that the language server and the drawings use.

// workflowEdgeFields are the fields of a workflow whose values name a phase.
var workflowEdgeFields = []string{"to", "from", "default", "entry_phase", "branches",
	"on_verification_fail", "on_timeout", "on_escalation"}

// taskEdgeFields are the fields of a task whose values name a task.
var taskEdgeFields = []string{"depends_on", "task_id"}

// describePhase is a phase's type and its purpose, description or name.
var describePhase = lint.DescribeBy("type", "purpose", "description", "name")

// phaseEnds: a phase with no transition on is done.
func phaseEnds(*source.Document, graph.Node) []string { return []string{"done"} }

// transitionLabel names a loop transition with its bound: loop ≤N.
func transitionLabel(doc *source.Document, _ graph.Node, e graph.Edge) string {
	if e.Kind != graph.Loop {
		return ""
	}
	parent := e.Pointer[:max(strings.LastIndexByte(e.Pointer, '/'), 0)]
	if n := doc.Lookup(parent + "/max_iterations"); n != nil && n.Kind == source.Number {
		return "loop ≤" + n.Text
	}
	return ""
}
