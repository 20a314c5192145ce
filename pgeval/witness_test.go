package pgeval

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// Witness is a search that remembers nothing between calls (a nil Searcher's).
func Witness(conds []Condition, fixed map[string]any, domains map[string]Domain) (ctx map[string]any, found, proven bool) {
	return (*Searcher)(nil).Witness(conds, fixed, domains)
}

// ErrorWitness is a search that remembers nothing between calls (a nil Searcher's).
func ErrorWitness(e *Expr, domains map[string]Domain) (ctx map[string]any, err error, found bool) {
	return (*Searcher)(nil).ErrorWitness(e, domains)
}

func mustParse(t testing.TB, s string) *Expr {
	t.Helper()
	e, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func upTo(n int) string {
	l := make([]string, n)
	for i := range l {
		l[i] = fmt.Sprint(i)
	}
	return strings.Join(l, ", ")
}

// SPEC §8.4 promises a proof when every atom compares one variable with constants: the
// regions are the constants. x IN (0..2499) AND x NOT IN (0..2499) is one variable's
// few thousand regions, not 4,096 candidates given up on after 15-44 s.
func TestWitnessOneVariableManyConstants(t *testing.T) {
	list := upTo(2500)
	e := mustParse(t, "{{x}} IN ("+list+") AND {{x}} NOT IN ("+list+")")
	if ctx, found, proven := Witness([]Condition{{e, true}}, nil, nil); found || !proven {
		t.Errorf("found %v (%v), proven %v; want a proof that it is never true", found, ctx, proven)
	}
	// Its other side has witnesses, and so does a satisfiable one.
	if ctx, found, _ := Witness([]Condition{{e, false}}, nil, nil); !found || !(Condition{e, false}).Holds(ctx) {
		t.Errorf("never false? %v", ctx)
	}
	e = mustParse(t, "{{x}} IN ("+list+") AND {{x}} NOT IN ("+upTo(2499)+")")
	if ctx, found, _ := Witness([]Condition{{e, true}}, nil, nil); !found || ctx["x"] != json.Number("2499") {
		t.Errorf("x = 2499 is the witness; got %v %v", ctx, found)
	}
}

// The same one-variable problem written atom by atom (hundreds of <> or = comparisons,
// no list to look up) is still a proof: its candidates are the regions of its constants,
// however much each costs to evaluate.
func TestWitnessOneVariableManyAtoms(t *testing.T) {
	var ne, eq []string
	for i := range 600 {
		ne = append(ne, fmt.Sprintf("{{x}} <> %d", i))
		eq = append(eq, fmt.Sprintf("{{x}} = %d", i))
	}
	for _, text := range []string{
		strings.Join(ne, " AND ") + " AND {{x}} IN (" + upTo(600) + ")",
		"(" + strings.Join(eq, " OR ") + ") AND {{x}} NOT IN (" + upTo(600) + ")",
	} {
		e := mustParse(t, text)
		if ctx, found, proven := Witness([]Condition{{e, true}}, nil, nil); found || !proven {
			t.Errorf("%.40s…: found %v (%v), proven %v; want a proof that it is never true", text, found, ctx, proven)
		}
	}
}

// Variables that no atom relates are searched each on its own: a contradiction in one
// of them is a proof however many candidates the others have, and witnesses of the
// parts make one context.
func TestWitnessIndependentVariables(t *testing.T) {
	list := upTo(300)
	contradiction := []Condition{
		{mustParse(t, "{{x}} > 10 AND {{y}} IN ("+list+") AND {{z}} NOT IN ("+list+")"), true},
		{mustParse(t, "{{w}} BETWEEN 1 AND 200 AND {{x}} < 5"), true},
	}
	if ctx, found, proven := Witness(contradiction, nil, nil); found || !proven {
		t.Errorf("found %v (%v), proven %v; want a proof", found, ctx, proven)
	}
	conds := []Condition{
		{mustParse(t, "{{x}} > 10 AND {{y}} IN ("+list+") AND {{z}} NOT IN ("+list+")"), true},
		{mustParse(t, "{{w}} BETWEEN 1 AND 200 AND {{x}} < 50"), true},
	}
	ctx, found, _ := Witness(conds, nil, nil)
	if !found {
		t.Fatal("no witness")
	}
	for _, c := range conds {
		if !c.Holds(ctx) {
			t.Errorf("%s does not hold for %v", c.Expr.Source(), ctx)
		}
	}
	// A part that is not "one variable against constants" is searched, and no proof.
	if _, found, proven := Witness([]Condition{{mustParse(t, "{{x}} + 0 > 10 AND {{x}} + 0 < 5 AND {{y}} > 0"), true}}, nil, nil); found || proven {
		t.Errorf("x + 0 > 10 AND x + 0 < 5: found %v, proven %v; want no proof", found, proven)
	}
	// A wanted-false AND is not split: it is false when either side is.
	if ctx, found, _ := Witness([]Condition{{mustParse(t, "{{x}} > 0 AND {{y}} > 0"), false}}, nil, nil); !found ||
		!(Condition{mustParse(t, "{{x}} > 0 AND {{y}} > 0"), false}).Holds(ctx) {
		t.Errorf("no witness for false: %v", ctx)
	}
	// A part with no variable left is evaluated once, exactly.
	if _, found, proven := Witness([]Condition{{mustParse(t, "{{y}} > 0 AND 1 = 2"), true}}, nil, nil); found || !proven {
		t.Errorf("1 = 2 is never true: found %v, proven %v", found, proven)
	}
	if _, found, proven := Witness([]Condition{{mustParse(t, "{{y}} + 1 > 0 AND {{x}} = 1"), true}}, map[string]any{"x": json.Number("2")}, nil); found || !proven {
		t.Errorf("x is fixed to 2: found %v, proven %v", found, proven)
	}
}

// Every proof Witness makes on generated conditions over numbers holds on a dense grid
// of contexts (each variable a quarter step from -3 to 4, or absent), and every witness
// satisfies its conditions.
func TestWitnessProofsHoldOnAGrid(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 18))
	consts := []string{"-2", "-1", "0", "0.5", "1", "2", "3"}
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	atom := func() string {
		v := "{{" + pick("x", "y") + "}}"
		switch r.IntN(5) {
		case 0:
			return v + " IN (" + pick(consts...) + ", " + pick(consts...) + ")"
		case 1:
			return v + pick(" ", " NOT ") + "BETWEEN " + pick(consts...) + " AND " + pick(consts...)
		case 2:
			return v + " IS " + pick("", "NOT ") + "NULL"
		}
		return v + " " + pick("=", "<>", "<", "<=", ">", ">=") + " " + pick(consts...)
	}
	var expr func(depth int) string
	expr = func(depth int) string {
		if depth == 0 || r.IntN(3) == 0 {
			return atom()
		}
		if r.IntN(4) == 0 {
			return "NOT (" + expr(depth-1) + ")"
		}
		return "(" + expr(depth-1) + " " + pick("AND", "OR") + " " + expr(depth-1) + ")"
	}
	var grid []any
	for q := -12; q <= 16; q++ {
		grid = append(grid, json.Number(ratText(newRat(q, 4))))
	}
	grid = append(grid, nil)
	proofs := 0
	for range 400 {
		var conds []Condition
		for range 1 + r.IntN(3) {
			conds = append(conds, Condition{mustParse(t, expr(3)), r.IntN(2) == 0})
		}
		ctx, found, proven := Witness(conds, nil, nil)
		holds := func(ctx map[string]any) bool {
			for _, c := range conds {
				if !c.Holds(ctx) {
					return false
				}
			}
			return true
		}
		switch {
		case found && !holds(ctx):
			t.Fatalf("the witness %v does not satisfy %v", ctx, conds)
		case proven:
			proofs++
			for _, x := range grid {
				for _, y := range grid {
					ctx := map[string]any{}
					if x != nil {
						ctx["x"] = x
					}
					if y != nil {
						ctx["y"] = y
					}
					if holds(ctx) {
						var text []string
						for _, c := range conds {
							text = append(text, fmt.Sprintf("%s (%v)", c.Expr.Source(), c.Want))
						}
						t.Fatalf("proven impossible, but %v satisfies %s", ctx, strings.Join(text, "; "))
					}
				}
			}
		}
	}
	t.Logf("%d proofs", proofs)
	if proofs < 40 {
		t.Errorf("only %d proofs among the generated conditions", proofs)
	}
}

func newRat(a, b int) *big.Rat { return big.NewRat(int64(a), int64(b)) }

// proofOf runs Witness on one condition and says what it found or proved.
func proofOf(t *testing.T, expr string, want bool, domains map[string]Domain) (map[string]any, bool, bool) {
	t.Helper()
	e := mustParse(t, expr)
	ctx, found, proven := Witness([]Condition{{e, want}}, nil, domains)
	if found && !(Condition{e, want}).Holds(ctx) {
		t.Errorf("%s: the witness %v does not make it %v", expr, ctx, want)
	}
	if found && proven {
		t.Errorf("%s: found and proven", expr)
	}
	return ctx, found, proven
}

// Issue 28, item 1: a cast literal keeps its cast type. '100'::numeric is a number,
// so amount > '100'::numeric is true at 101; the search tried strings only (the literal
// read as text) and "proved" it never true.
func TestWitnessCastLiteral(t *testing.T) {
	for _, expr := range []string{"{{amount}} > '100'::numeric", "{{amount}} > '1'::int", "{{amount}} > '-0'::numeric",
		"{{amount}} > '7'::bigint", "{{amount}} > CAST('2.5' AS numeric)", "{{amount}} BETWEEN '1'::int AND '2'::int"} {
		ctx, found, proven := proofOf(t, expr, true, nil)
		if !found || proven {
			t.Errorf("%s: found %v, proven %v; want a witness", expr, found, proven)
			continue
		}
		if _, ok := ctx["amount"].(json.Number); !ok {
			t.Errorf("%s: witness %v; want a number", expr, ctx)
		}
	}
	// An untyped literal takes the other side's type: a number here, a string there.
	if ctx, found, _ := proofOf(t, "{{amount}} > '100' AND {{amount}} < '100.5'", true, map[string]Domain{"amount": {Type: "number"}}); !found {
		t.Errorf("100 < amount < 100.5 has witnesses; got %v", ctx)
	}
	if ctx, found, _ := proofOf(t, "{{name}} > '100' AND {{name}} < '2'", true, map[string]Domain{"name": {Type: "string"}}); !found {
		t.Errorf("'100' < name < '2' has witnesses ('100a'); got %v", ctx)
	}
	// A text cast is a string: a number compared with it is an error, never true.
	if _, found, proven := proofOf(t, "{{n}} > '5'::text", true, map[string]Domain{"n": {Type: "number", NotNull: true}}); found || !proven {
		t.Errorf("a number against '5'::text: found %v, proven %v; want a proof", found, proven)
	}
}

// Issue 28, item 2: the regions of a text domain are the constants, the gaps between
// them and beyond both ends, in the C collation's byte order.
func TestWitnessStringsBetweenAndBeyond(t *testing.T) {
	for expr, want := range map[string]string{
		"{{name}} > 'y'":                           "z",
		"{{name}} > 'b' AND {{name}} < 'c'":        "ba",
		"{{name}} > 'abc' AND {{name}} < 'abd'":    "abca",
		"{{name}} > 'a' AND {{name}} < 'a0'":       "a ",
		"{{name}} > '~' AND {{name}} NOT IN ('é')": "~a",
		"{{name}} < 'a' AND {{name}} <> ''":        "0",
	} {
		ctx, found, _ := proofOf(t, expr, true, nil)
		if !found || ctx["name"] != want {
			t.Errorf("%s: witness %v (found %v); want name %q", expr, ctx, found, want)
		}
	}
	// Between 'a' and 'a\x01' there is no string (text holds no NUL): a proof.
	if _, found, proven := proofOf(t, "{{name}} > 'a' AND {{name}} < E'a\\x01'", true, map[string]Domain{"name": {Type: "string"}}); found || !proven {
		t.Errorf("nothing lies between 'a' and 'a\\x01': found %v, proven %v", found, proven)
	}
}

// Issue 28, item 3: a variable that no schema fixes takes every JSON type. A string
// makes x > 5 raise an error, which takes the false edge; a path that needs y = 5 is
// not contradictory.
func TestWitnessEveryJSONType(t *testing.T) {
	ctx, found, proven := proofOf(t, "{{x}} > 5 OR {{x}} <= 5 OR {{x}} IS NULL", false, nil)
	if !found || proven {
		t.Fatalf("found %v, proven %v; want a witness (a string)", found, proven)
	}
	if _, ok := ctx["x"].(string); !ok {
		t.Errorf("witness %v; want x a string", ctx)
	}
	conds := []Condition{{mustParse(t, "{{y}} > 5 OR {{y}} < 5"), false}, {mustParse(t, "{{y}} IS NOT NULL AND {{y}} >= 0"), true}}
	if ctx, found, proven := Witness(conds, nil, nil); !found || proven || ctx["y"] != json.Number("5") {
		t.Errorf("y = 5 takes the path: got %v, found %v, proven %v", ctx, found, proven)
	}
	// Booleans, and strings where a number is compared with text.
	if ctx, found, _ := proofOf(t, "{{flag}} = true", true, nil); !found || ctx["flag"] != true {
		t.Errorf("flag = true: %v", ctx)
	}
	if ctx, found, _ := proofOf(t, "NOT ({{x}} IS NOT NULL AND {{x}} >= 'b') AND {{x}} IS NOT NULL", true, nil); !found || ctx["x"] != "" {
		t.Errorf("a string before 'b': %v", ctx)
	}
	// Within a schema's type the other types are not tried: a proof.
	if _, found, proven := proofOf(t, "{{x}} > 5 OR {{x}} <= 5", false, map[string]Domain{"x": {Type: "number", NotNull: true}}); found || !proven {
		t.Errorf("a number is > 5 or <= 5: found %v, proven %v", found, proven)
	}
}

// Issue 28, item 4: a domain of integers tries the integers between non-integer
// constants and bounds; a union of domains tries each.
func TestWitnessIntegerAndUnionDomains(t *testing.T) {
	integer := map[string]Domain{"count": {Type: "integer", NotNull: true}}
	if ctx, found, _ := proofOf(t, "{{count}} > 10.3 AND {{count}} < 11.9", true, integer); !found || ctx["count"] != json.Number("11") {
		t.Errorf("count = 11: got %v", ctx)
	}
	if _, found, proven := proofOf(t, "{{count}} > 10.3 AND {{count}} < 10.9", true, integer); found || !proven {
		t.Errorf("no integer between 10.3 and 10.9: found %v, proven %v", found, proven)
	}
	bounded := map[string]Domain{"count": {Type: "integer", Min: "0.5", Max: "2.5", NotNull: true}}
	for _, want := range []bool{true, false} {
		ctx, found, _ := proofOf(t, "{{count}} = 1 OR {{count}} = 2", want, bounded)
		if want != found || found && !bounded["count"].Admits(ctx["count"]) {
			t.Errorf("count in [0.5, 2.5] = 1 or 2 is %v: got %v (found %v)", want, ctx, found)
		}
	}
	union := map[string]Domain{"score": {Union: []Domain{
		{Type: "number", Min: "0", Max: "1", NotNull: true}, {Type: "number", Min: "10", Max: "20", NotNull: true}}}}
	if ctx, found, _ := proofOf(t, "{{score}} > 5", true, union); !found || !union["score"].Admits(ctx["score"]) {
		t.Errorf("the second schema gives scores above 5: %v", ctx)
	}
	if _, found, proven := proofOf(t, "{{score}} > 1 AND {{score}} < 10", true, union); found || !proven {
		t.Errorf("neither schema gives (1, 10): found %v, proven %v", found, proven)
	}
}

// Issue 28, item 5: a variable-free expression is evaluated once, exactly, and an
// expression that errors or is NULL for every context is never true.
func TestWitnessVariableFreeAndAlwaysFailing(t *testing.T) {
	// Each expression and the outcome it never gives.
	for expr, never := range map[string]bool{"1 = 1": false, "1 = 2": true, "NULL = 1": true, "1 / 0 = 1": true, "'a' < 'b'": false} {
		if _, found, proven := proofOf(t, expr, never, nil); found || !proven {
			t.Errorf("%s is never %v: found %v, proven %v", expr, never, found, proven)
		}
	}
	for _, expr := range []string{"{{x}} / 0 > 1", "{{x}} % 0 = 0", "({{x}} + 1) / 0 < 5 AND {{y}} > 2", "{{x}}::int / '0' = 3", "NOT ({{x}} / 0 > 1)", "{{s}} || NULL = 'a'"} {
		if _, found, proven := proofOf(t, expr, true, nil); found || !proven {
			t.Errorf("%s errors or is NULL for every context: found %v, proven %v", expr, found, proven)
		}
	}
	// Not every context: a NULL subject makes IS NULL true; a text cast to numeric may
	// read 'NaN', which PostgreSQL divides by zero without an error.
	for _, expr := range []string{"({{x}} / 0) IS NULL", "{{x}} / 0 > 1 OR {{x}} IS NULL", "{{s}}::numeric / 0 > 1"} {
		if _, _, proven := proofOf(t, expr, true, nil); proven {
			t.Errorf("%s can be true: proven never", expr)
		}
	}
}

// Issue 28, item 11: errors on well-typed contexts (ones the expression compiles with)
// are found, and a search that is no proof tries the negatives of its constants and the
// other variables' domains. A value of a type the expression cannot take at all (a
// string against a number) is no sim-branch-error of its own.
func TestErrorWitnessAndWiderSearch(t *testing.T) {
	for expr, dom := range map[string]map[string]Domain{
		"{{s}}::numeric < 5":                       nil,
		"{{s}}::int > 0 OR {{s}} IS NULL":          nil,
		"({{x}} >= {{y}}) AND ({{x}} / 0 > 1.5)":   {"y": {Type: "integer", Min: "10.3", Max: "11.9", NotNull: true}},
		"{{x}} / ({{y}} - 2) > 1":                  nil,
		"lower({{s}}) = 'a' OR {{s}}::numeric > 1": nil,
	} {
		if ctx, err, found := ErrorWitness(mustParse(t, expr), dom); !found {
			t.Errorf("%s: no error found", expr)
		} else if _, got := mustParse(t, expr).Eval(ctx); got == nil || got.Error() != err.Error() {
			t.Errorf("%s: %v does not raise %v", expr, ctx, err)
		}
	}
	for _, expr := range []string{"{{amount}} > 100", "{{name}} = 'bob' AND {{n}} > 2", "{{flag}} AND {{x}} IN (1, 2)"} {
		if ctx, err, found := ErrorWitness(mustParse(t, expr), nil); found {
			t.Errorf("%s: %v raises %v: a type the expression cannot take is no finding", expr, ctx, err)
		}
	}
	for _, expr := range []string{"({{x}} * -1) > 10.3", "NOT (({{y}} = 0) OR (({{y}} + 1.5) > 0))", "{{x}} < {{y}} AND {{y}} IS NOT NULL"} {
		dom := map[string]Domain{"x": {Type: "integer", Min: "10.3", Max: "11.9", NotNull: true}}
		if strings.Contains(expr, "*") {
			dom = nil
		}
		if _, found, _ := proofOf(t, expr, true, dom); !found {
			t.Errorf("%s: no witness found", expr)
		}
	}
}

// TestWitnessDomainWithNoValue: a variable whose domain admits no value (an output
// schema no output fits) gives no context and claims no proof, for either outcome and
// within a group of two variables; it crashed the search (index out of range).
func TestWitnessDomainWithNoValue(t *testing.T) {
	for _, d := range []Domain{
		{Type: "integer", Min: "0.2", Max: "0.8", NotNull: true},
		{Type: "integer", Enum: []any{"a"}, NotNull: true},
	} {
		doms := map[string]Domain{"score": d}
		for _, expr := range []string{"{{score}} > 0", "{{score}} > {{other}}", "{{score}} / 0 > 1"} {
			e := mustParse(t, expr)
			for _, want := range []bool{true, false} {
				if ctx, found, proven := Witness([]Condition{{e, want}}, nil, doms); found || proven {
					t.Errorf("%s = %v over %+v: found %v (%v), proven %v; want neither", expr, want, d, found, ctx, proven)
				}
			}
			if ctx, err, found := ErrorWitness(e, doms); found {
				t.Errorf("%s over %+v: error %v at %v; want none", expr, d, err, ctx)
			}
		}
	}
}
