package ensemble

import (
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// The parts of the dialect that the language server and the drawings use.

// edgeFields are the fields whose values name a phase (after) or a task (context).
var edgeFields = []string{"after", "context"}

// describe is a phase's or task's type and its description or name.
var describe = lint.DescribeBy("type", "description", "name")

// endLabels: an ensemble phase or task ends the run completed.
func endLabels(*source.Document, graph.Node) []string { return []string{"completed"} }
