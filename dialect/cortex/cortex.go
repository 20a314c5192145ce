// Package cortex is the PRIA Cortex Workflow DSL dialect: detection, the step graph
// (entry steps[0], onSuccess/onFailure edges, null or absent ends the run), the Cortex
// rules and the prompt-template registry they read, and the SQL sites (sql steps'
// statements, branch steps' expressions) that the core SQL stage checks.
package cortex

import (
	"strconv"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// ID is the dialect id.
const ID = "cortex"

// Dialect returns the Cortex dialect.
func Dialect() *lint.Dialect {
	rules := []*lint.Rule{&httpIdempotencyKey, &aiSchema, &retryNotApplicable, &versionFormat, &templateVariable}
	for i := range simRules {
		rules = append(rules, &simRules[i])
	}
	return &lint.Dialect{
		ID: ID,

		EdgeFields: edgeFields,
		Describe:   describeStep,
		EndLabels:  endLabels,
		EdgeLabel:  edgeLabel,
		Fix:        fix,
		Examples:   coreExamples,

		// A document with top-level schemaVersion and steps.
		Detect:     func(doc *source.Document) bool { return doc.Root.Has("schemaVersion", "steps") },
		Decode:     func(doc *source.Document) any { return decode(doc) },
		Graphs:     graphs,
		Simulate:   simulate,
		Units:      units,
		Rules:      rules,
		SQLSites:   sqlSites,
		SQLExample: sqlExample,
		Config:     map[string]lint.SectionParser{"cortex": parseSettings},
		ConfigDoc: `# Cortex: the prompt-template registry ai steps are checked against, and the
# variables a run starts with (turns on template-variable).
# cortex: { prompt_templates: prompt_templates.yaml, context: [expenseId, amount] }
`,
	}
}

// stepsOf is the model Decode made of the file.
func stepsOf(p *lint.Pass) []step {
	steps, _ := p.Model.([]step)
	return steps
}

// step is one entry of steps, read tolerantly: the schema stage has already reported
// what is malformed, so a field of the wrong type is simply absent here.
type step struct {
	index int
	ptr   string
	// idPtr is the pointer of the step's id; sitePtr that of its SQL text, the
	// statement of a sql step or the expression of a branch step (ptr otherwise).
	idPtr, sitePtr string
	node           *source.Node
	id             string
	hasID          bool
	typ            string
	params         *source.Node
	onSuccess      edge
	onFailure      edge
}

// edge is an onSuccess or onFailure field.
type edge struct {
	// target is the step id named; empty when the field is null, absent or malformed.
	target string
	// ends is true when the field is null or absent: the run ends there.
	ends bool
	ptr  string
}

func decode(doc *source.Document) []step {
	arr := doc.Root.Get("steps")
	if arr == nil || arr.Kind != source.Array {
		return nil
	}
	steps := make([]step, 0, len(arr.Items))
	for i, n := range arr.Items {
		s := step{index: i, node: n}
		s.id, s.hasID = n.Get("id").Str()
		s.typ, _ = n.Get("type").Str()
		if p := n.Get("params"); p != nil && p.Kind == source.Object {
			s.params = p
		}
		var success, failure string
		s.ptr, s.idPtr, s.sitePtr, success, failure = stepPointers(i, s.typ)
		s.onSuccess = edgeOf(n, success, "onSuccess")
		s.onFailure = edgeOf(n, failure, "onFailure")
		steps = append(steps, s)
	}
	return steps
}

// stepPointers returns the JSON Pointers the checks of the i-th step name (the step, its
// id, its SQL text, its onSuccess and onFailure), as substrings of one string: made one
// at a time they were a fifth of a file's allocations.
func stepPointers(i int, typ string) (ptr, id, site, success, failure string) {
	var num [20]byte
	n := strconv.AppendInt(num[:0], int64(i), 10)
	siteKey := ""
	switch typ {
	case "sql":
		siteKey = "/params/statement"
	case "branch":
		siteKey = "/params/expression"
	}
	keys := [...]string{siteKey, "/id", "/onSuccess", "/onFailure"}
	const prefix = "/steps/"
	var b strings.Builder
	b.Grow(len(keys)*(len(prefix)+len(n)) + len(siteKey) + len("/id/onSuccess/onFailure"))
	var ends [len(keys)]int
	for k, key := range keys {
		b.WriteString(prefix)
		b.Write(n)
		b.WriteString(key)
		ends[k] = b.Len()
	}
	all := b.String()
	return all[:len(prefix)+len(n)], all[ends[0]:ends[1]], all[:ends[0]], all[ends[1]:ends[2]], all[ends[2]:ends[3]]
}

// edgeOf is the edge the field key of the step n holds, at ptr.
func edgeOf(n *source.Node, ptr, key string) edge {
	e := edge{ptr: ptr}
	v := n.Get(key)
	switch {
	case v == nil || v.Kind == source.Null:
		e.ends = true
	case v.Kind == source.String:
		e.target = v.Text
	}
	return e
}
