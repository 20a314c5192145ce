package cortex

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// The parts of the dialect that the language server and the drawings use.

// edgeFields are the fields whose values name a step.
var edgeFields = []string{"onSuccess", "onFailure"}

// describeStep is a step's type and its description or name.
var describeStep = lint.DescribeBy("type", "description", "name")

// endLabels are the outcomes with which step n ends the run: its onSuccess and
// onFailure that are null or absent (ok and fail, a branch's true and false; a sleep
// has no failure).
func endLabels(doc *source.Document, n graph.Node) []string {
	step := doc.Lookup(lint.NodeObject(n))
	if doc.Root.Get("schemaVersion") == nil || step == nil || step.Kind != source.Object {
		return []string{"end"}
	}
	typ, _ := step.Get("type").Str()
	fields := [][2]string{{"onSuccess", "ok"}, {"onFailure", "fail"}}
	switch typ {
	case "branch":
		fields = [][2]string{{"onSuccess", "true"}, {"onFailure", "false"}}
	case "sleep":
		fields = fields[:1]
	}
	var out []string
	for _, f := range fields {
		if v := step.Get(f[0]); v == nil || v.Kind == source.Null {
			out = append(out, f[1])
		}
	}
	if len(out) == 0 {
		out = []string{"end"}
	}
	return out
}

// edgeLabel names a branch's edges true and false; the others by their kind.
func edgeLabel(doc *source.Document, from graph.Node, e graph.Edge) string {
	if t, _ := doc.Lookup(lint.NodeObject(from) + "/type").Str(); t != "branch" {
		return ""
	}
	switch e.Kind {
	case graph.Success:
		return "true"
	case graph.Failure:
		return "false"
	}
	return ""
}

// fix adds the idempotencyKey header an http step lacks, built from the run and the
// step (http-idempotency-key).
func fix(doc *source.Document, f lint.Diagnostic) (lint.QuickFix, bool) {
	if f.Rule != httpIdempotencyKey.ID || !strings.HasSuffix(f.Pointer, "/headers") {
		return lint.QuickFix{}, false
	}
	step := strings.TrimSuffix(strings.TrimSuffix(f.Pointer, "/headers"), "/params")
	id, _ := doc.Lookup(step + "/id").Str()
	value := "{{runId}}-" + id
	return lint.QuickFix{Title: fmt.Sprintf("Add the idempotencyKey header %q", value), Object: f.Pointer,
		Key: "idempotencyKey", Value: strconv.Quote(value)}, true
}
