package pgeval

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestSearcherAnswersAsWitness: a Searcher's answers are the ones Witness and
// ErrorWitness give without one (the memo only skips work), on generated conditions of
// the proof differential and expressions of the evaluator's differential, each searched
// over and over, under domains and fixed values, as written and renamed (a path's
// witness search renames the variables an ai step writes, and its parts are the
// branches' parts over again).
func TestSearcherAnswersAsWitness(t *testing.T) {
	s := new(Searcher)
	checks := 0
	same := func(what string, got, want []any) {
		t.Helper()
		checks++
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: Searcher %v, Witness %v", what, got, want)
		}
	}
	witness := func(conds []Condition, fixed map[string]any, doms map[string]Domain) {
		t.Helper()
		var what []string
		for _, c := range conds {
			what = append(what, fmt.Sprintf("%q=%v", c.Expr.Source(), c.Want))
		}
		ctx, f, p := Witness(conds, fixed, doms)
		for range 2 {
			ctx2, f2, p2 := s.Witness(conds, fixed, doms)
			same(strings.Join(what, " ")+fmt.Sprintf(" %v %v", fixed, doms), []any{ctx2, f2, p2}, []any{ctx, f, p})
		}
	}
	errorWitness := func(e *Expr, doms map[string]Domain) {
		t.Helper()
		ctx, err, f := ErrorWitness(e, doms)
		for range 2 {
			ctx2, err2, f2 := s.ErrorWitness(e, doms)
			same(fmt.Sprintf("ErrorWitness %q %v", e.Source(), doms), []any{ctx2, err2, f2}, []any{ctx, err, f})
		}
	}
	// renamed is e over x#1 for each variable x, and the domains and fixed values to match.
	renamed := func(e *Expr, doms map[string]Domain, fixed map[string]any) (*Expr, map[string]Domain, map[string]any) {
		r := e.Renamed(func(v string) string { return v + "#1" })
		d2, f2 := map[string]Domain{}, map[string]any{}
		for k, d := range doms {
			d2[k+"#1"] = d
		}
		for k, x := range fixed {
			f2[k+"#1"] = x
		}
		return r, d2, f2
	}
	pg := &proofGen{r: rand.New(rand.NewPCG(28, 17))}
	for range 300 {
		c := pg.newCase()
		fixed := map[string]any{}
		if len(c.vars) == 2 && pg.r.IntN(3) == 0 {
			fixed[c.vars[1]] = pg.pick(`"a"`, "1.5", "true", "null")
			var x any
			_ = json.Unmarshal([]byte(fixed[c.vars[1]].(string)), &x)
			if n, ok := x.(float64); ok {
				x = json.Number(fmt.Sprint(n))
			}
			fixed[c.vars[1]] = x
		}
		for _, e := range c.exprs {
			errorWitness(e, c.domains)
			for _, want := range []bool{true, false} {
				witness([]Condition{{e, want}}, nil, c.domains)
				witness([]Condition{{e, want}}, fixed, c.domains)
				r, d2, f2 := renamed(e, c.domains, fixed)
				witness([]Condition{{r, want}}, f2, d2)
				witness([]Condition{{e, want}, {r, !want}}, fixed, mergeDomains(c.domains, d2))
			}
		}
		if len(c.exprs) == 2 {
			witness([]Condition{{c.exprs[0], true}, {c.exprs[1], false}}, nil, c.domains)
		}
		if len(c.vars) == 2 {
			// The same parts with the variables' names swapped: searched in the other
			// order; and with each of several fixed values.
			swap := map[string]string{c.vars[0]: c.vars[1], c.vars[1]: c.vars[0]}
			d2 := map[string]Domain{}
			for k, d := range c.domains {
				d2[swap[k]] = d
			}
			for _, e := range c.exprs {
				r := e.Renamed(func(v string) string { return swap[v] })
				errorWitness(r, d2)
				for _, want := range []bool{true, false} {
					witness([]Condition{{r, want}}, nil, d2)
					for _, x := range []any{json.Number("1"), json.Number("2.25"), "b", "ba", false, nil} {
						witness([]Condition{{e, want}}, map[string]any{c.vars[0]: x}, c.domains)
					}
				}
			}
		}
	}
	g := &gen{r: rand.New(rand.NewPCG(2026, 17))}
	for range 600 {
		e, err := Parse(g.expr("bool", 3))
		if err != nil || e.Unsupported() != nil {
			continue
		}
		doms := map[string]Domain{}
		for _, v := range e.Variables() {
			if pg.r.IntN(3) == 0 {
				doms[v] = pg.domain()
			}
		}
		errorWitness(e, nil)
		errorWitness(e, doms)
		witness([]Condition{{e, true}}, nil, doms)
		witness([]Condition{{e, false}}, nil, nil)
		r, d2, _ := renamed(e, doms, nil)
		errorWitness(r, d2)
		witness([]Condition{{r, true}}, nil, d2)
	}
	t.Logf("%d answers compared; %d searches remembered", checks, len(s.m))
}

func mergeDomains(a, b map[string]Domain) map[string]Domain {
	out := map[string]Domain{}
	for k, d := range a {
		out[k] = d
	}
	for k, d := range b {
		out[k] = d
	}
	return out
}
