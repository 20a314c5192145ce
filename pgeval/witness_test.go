package pgeval

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

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
