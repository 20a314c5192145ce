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

// fix adds the max_iterations a loop transition lacks (the schema requires it): the
// workflow's global_constraints.max_iterations when it has one (a loop may not exceed
// it), else 3.
func fix(doc *source.Document, f lint.Diagnostic) (lint.QuickFix, bool) {
	if f.Rule != "schema" || !strings.Contains(f.Message, `missing required property "max_iterations"`) {
		return lint.QuickFix{}, false
	}
	if t, _ := doc.Lookup(f.Pointer).Get("type").Str(); t != "loop" {
		return lint.QuickFix{}, false
	}
	n := "3"
	if g := doc.Lookup("/global_constraints/max_iterations"); g != nil && g.Kind == source.Number {
		n = g.Text
	}
	return lint.QuickFix{Title: "Add max_iterations: " + n, Object: f.Pointer, Key: "max_iterations", Value: n}, true
}
