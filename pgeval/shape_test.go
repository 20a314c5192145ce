package pgeval

import (
	"slices"
	"testing"
)

// TestChildrenInDeclaredOrder: a node's children come in the order its type declares
// its fields, whatever the build. (protoreflect's Range visits them in an order each
// build perturbs; the search reads the kind a variable is used as first, and so the
// witness it reports, off this order: it changed with unrelated edits to the binary.)
func TestChildrenInDeclaredOrder(t *testing.T) {
	for _, c := range []struct {
		expr string
		path []int // child indexes from the root to the node
		want []string
	}{
		{"CASE WHEN {{a}} > 1 THEN {{b}} ELSE {{c}} END", nil, []string{"CaseWhen", "ParamRef"}},
		{"CASE WHEN {{a}} > 1 THEN {{b}} ELSE {{c}} END", []int{0}, []string{"AExpr", "ParamRef"}},
		{"CASE {{a}} WHEN 1 THEN {{b}} END", nil, []string{"ParamRef", "CaseWhen"}},
		{"{{a}}::numeric(6, 2)", nil, []string{"ParamRef", "String_", "String_", "AConst", "AConst"}},
		{"lower({{a}}) = {{b}}", nil, []string{"String_", "FuncCall", "ParamRef"}},
		{"lower({{a}}) = {{b}}", []int{1}, []string{"String_", "ParamRef"}},
		{"{{a}} BETWEEN 1 AND {{b}}", nil, []string{"String_", "ParamRef", "List"}},
		{"COALESCE({{a}}, 1)", nil, []string{"ParamRef", "AConst"}},
		{"{{a}} IS NOT NULL AND NOT {{b}}", nil, []string{"NullTest", "BoolExpr"}},
	} {
		e := mustParse(t, c.expr)
		n := e.root
		for _, i := range c.path {
			n = children(n)[i]
		}
		var got []string
		for _, k := range children(n) {
			got = append(got, nodeName(k))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s at %v: children %v, want %v", c.expr, c.path, got, c.want)
		}
	}
}
