package pgeval

import (
	"math/rand/v2"
	"slices"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// TestShapeAsReflection holds what an expression's shape says of each node (its
// children, read field by field for the common nodes; the variables below it; its size)
// to the parse tree as protobuf reflection reads it, on every node of generated
// expressions of every construct the evaluator knows.
func TestShapeAsReflection(t *testing.T) {
	var srcs []string
	g := &gen{r: rand.New(rand.NewPCG(2026, 12))}
	for range 2000 {
		srcs = append(srcs, g.expr("bool", 4))
	}
	pg2 := &proofGen{r: rand.New(rand.NewPCG(28, 9))}
	for range 500 {
		for _, e := range pg2.newCase().exprs {
			srcs = append(srcs, e.Source())
		}
	}
	srcs = append(srcs, "{{a}} IN (1, 2, {{b}})", "-{{a}} > 1", "{{a}}::numeric(6, 2) > 1", "NOT {{p}} AND {{q}} IS NOT TRUE")
	fast, nodes := 0, 0
	for _, src := range srcs {
		e, err := Parse(src)
		if err != nil {
			continue
		}
		var visit func(n *pg.Node) ([]int32, int)
		visit = func(n *pg.Node) ([]int32, int) {
			nodes++
			want := children(n)
			if kids, ok := directChildren(n); ok {
				fast++
				if !slices.Equal(kids, want) {
					t.Fatalf("%s: %s: children %v, reflection says %v", src, nodeName(n), kids, want)
				}
			}
			var params []int32
			if p := n.GetParamRef(); p != nil {
				params = append(params, p.Number)
			}
			size := 1
			for _, c := range want {
				ps, s := visit(c)
				params = append(params, ps...)
				size += s
			}
			slices.Sort(params)
			params = slices.Compact(params)
			if n.GetList() != nil && len(params) == 0 {
				size = 1
			}
			ns := e.shape.of(n)
			if !slices.Equal(ns.kids, want) || !slices.Equal(ns.params, params) || ns.size != size {
				t.Fatalf("%s: %s: shape %v %v %d, reflection says %v %v %d", src, nodeName(n), ns.kids, ns.params, ns.size, want, params, size)
			}
			return params, size
		}
		visit(e.root)
	}
	if fast < nodes/2 {
		t.Errorf("only %d of %d nodes read field by field", fast, nodes)
	}
	t.Logf("%d expressions, %d nodes, %d read field by field", len(srcs), nodes, fast)
}

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
