package pgeval

import (
	"encoding/json"
	"errors"
	"testing"
)

func eval(t *testing.T, expr string, ctx map[string]any) (Value, error) {
	t.Helper()
	e, err := Parse(expr)
	if err != nil {
		t.Fatalf("Parse(%q): %v", expr, err)
	}
	return e.Eval(ctx)
}

// Results PostgreSQL gives, as its text output (the differential test checks thousands
// more against the server itself).
func TestEval(t *testing.T) {
	n := func(s string) json.Number { return json.Number(s) }
	for _, tt := range []struct {
		expr string
		ctx  map[string]any
		want string // text output, "NULL", or "error: message"
	}{
		{"{{fraudScore}} < 0.7 AND {{amount}} <= 1000", map[string]any{"fraudScore": n("0.91"), "amount": n("420")}, "f"},
		{"{{fraudScore}} < 0.7 AND {{amount}} <= 1000", map[string]any{"fraudScore": n("0.2"), "amount": n("420")}, "t"},
		{"{{x}} > 5", nil, "NULL"},
		{"{{x}} IS NULL OR {{x}} IS NOT NULL", nil, "t"},
		{"NULL AND false", nil, "f"},
		{"1::numeric / 3", nil, "0.33333333333333333333"},
		{"10::numeric / 3", nil, "3.3333333333333333"},
		{"1.50 + 1", nil, "2.50"},
		{"1.5 * 1.25", nil, "1.875"},
		{"round(2.5)", nil, "3"},
		{"round(-2.45, 1)", nil, "-2.5"},
		{"round(1234.5, -2)", nil, "1200"},
		{"7 / 2", nil, "3"},
		{"-7 % 3", nil, "-1"},
		{"1 / 0", nil, "error: division by zero"},
		{"2147483647 + 1", nil, "error: integer out of range"},
		{"'abc'::int", nil, `error: invalid input syntax for type integer: "abc"`},
		{"' 42 '::int + 1", nil, "43"},
		{"'yes'::boolean AND 'of'::boolean IS NOT TRUE", nil, "t"},
		{"'o'::boolean", nil, "error: invalid input syntax for type boolean: \"o\""},
		{"'Off'::boolean", nil, "f"},
		{"2.5::int", nil, "3"},
		{"(-2.5)::int", nil, "-3"},
		{"123.456::numeric(5,2)", nil, "123.46"},
		{"1234.5::numeric(5,2)", nil, "error: numeric field overflow"},
		{"'a' || 1 || true", nil, "a1true"},
		{"lower('ÉA')", nil, "Éa"},
		{"'abc' LIKE 'a%'", nil, "t"},
		{"'ABC' ILIKE 'a_c'", nil, "t"},
		{`'a' NOT LIKE 'a\'`, nil, "t"},
		{`'ab' LIKE 'a\'`, nil, "error: LIKE pattern must not end with escape character"},
		{"5 BETWEEN 10 AND 1", nil, "f"},
		{"5 BETWEEN SYMMETRIC 10 AND 1", nil, "t"},
		{"3 IN (1, NULL)", nil, "NULL"},
		{"3 NOT IN (1, 2)", nil, "t"},
		{"NULL IS DISTINCT FROM 1", nil, "t"},
		{"NULLIF(1, 1)", nil, "NULL"},
		{"COALESCE(NULL, 2, 1/0)", nil, "2"},
		{"GREATEST(1, NULL, 3.5)", nil, "3.5"},
		{"CASE WHEN false THEN 1/0 ELSE 2 END", nil, "2"},
		{"false AND 1/0 > 0", nil, "f"},
		{"1/0 > 0 AND false", nil, "error: division by zero"},
		{"1 < 'abc'", nil, `error: invalid input syntax for type integer: "abc"`},
		{"'a' < 1", nil, `error: invalid input syntax for type integer: "a"`},
		{"{{s}} = 1", map[string]any{"s": "1"}, "error: operator does not exist: text and integer"},
		{"length({{s}}) = 2", map[string]any{"s": "日本"}, "t"},
	} {
		v, err := eval(t, tt.expr, tt.ctx)
		got := v.String()
		switch {
		case err != nil:
			got = "error: " + err.Error()
		case v.Null:
			got = "NULL"
		}
		if got != tt.want {
			t.Errorf("%s = %s, want %s", tt.expr, got, tt.want)
		}
	}
}

func TestUnsupported(t *testing.T) {
	for expr, construct := range map[string]string{
		"now() > {{t}}":              "function now",
		"{{x}} > (SELECT 1)":         "SubLink",
		"{{x}}::date > '2020-01-01'": "a cast to date",
		"abs({{x}}) + random() > 1":  "function random",
		"{{x}} = ANY(ARRAY[1,2])":    "operator =",
		"{{x}} ~ 'a.*'":              "operator ~",
	} {
		_, err := eval(t, expr, map[string]any{"x": json.Number("1"), "t": "x"})
		var u *Unsupported
		if !errors.As(err, &u) || u.Construct != construct {
			t.Errorf("%s: got %v, want unsupported %s", expr, err, construct)
		}
	}
}

// Witnesses: a context for each wanted outcome, or a proof that none exists.
func TestWitness(t *testing.T) {
	parse := func(s string) *Expr {
		e, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	// Not constant under NULL semantics: a NULL x makes it false.
	if _, found, _ := Witness([]Condition{{parse("{{x}} > 5 OR {{x}} <= 5"), false}}, nil, nil); !found {
		t.Error("{{x}} > 5 OR {{x}} <= 5 can be false (x NULL)")
	}
	// Constant: true for every context, and proven.
	if _, found, proven := Witness([]Condition{{parse("{{x}} IS NULL OR {{x}} IS NOT NULL"), false}}, nil, nil); found || !proven {
		t.Errorf("x IS NULL OR x IS NOT NULL: found %v, proven %v; want a proof that it is never false", found, proven)
	}
	// Both branches of the expense example, with the ai step's output bounded by its schema.
	e := parse("{{fraudScore}} < 0.7 AND {{amount}} <= 1000")
	dom := map[string]Domain{"fraudScore": {Type: "number", Min: "0", Max: "1", NotNull: true}}
	for _, want := range []bool{true, false} {
		ctx, found, _ := Witness([]Condition{{e, want}}, nil, dom)
		if !found || !(Condition{e, want}).Holds(ctx) {
			t.Errorf("no witness for %v: %v", want, ctx)
		}
	}
	// A bound from the schema makes a branch impossible, provably.
	if _, found, proven := Witness([]Condition{{parse("{{score}} > 5"), true}}, nil, map[string]Domain{"score": {Type: "number", Max: "1"}}); found || !proven {
		t.Errorf("score > 5 with maximum 1: found %v, proven %v", found, proven)
	}
	// Two conditions on one path that contradict each other.
	if _, found, proven := Witness([]Condition{{parse("{{x}} > 10"), true}, {parse("{{x}} < 5"), true}}, nil, nil); found || !proven {
		t.Errorf("x > 10 and x < 5: found %v, proven %v", found, proven)
	}
	// A LIKE is searched, not proven.
	if _, _, proven := Witness([]Condition{{parse("{{s}} LIKE 'a%' AND {{s}} NOT LIKE '%a'"), false}}, nil, nil); proven {
		t.Error("a LIKE search is no proof")
	}
	// An error witness: division by a variable that can be zero.
	if ctx, err, found := ErrorWitness(parse("100 / {{x}} > 1"), nil); !found || err == nil || ctx["x"] != json.Number("0") {
		t.Errorf("100 / x: %v %v %v", ctx, err, found)
	}
}

func FuzzEval(f *testing.F) {
	for _, s := range []string{"{{a}} > 1", "1/0", "CASE WHEN {{p}} THEN 'a' END || 'b'", "'x'::int", "round({{a}}::numeric, 2)"} {
		f.Add(s, "1.5", "text", true)
	}
	f.Fuzz(func(t *testing.T, expr, num, text string, b bool) {
		e, err := Parse(expr)
		if err != nil {
			return
		}
		ctx := map[string]any{"a": json.Number(num), "s": text, "p": b}
		_, _ = e.Eval(ctx)
		_, _, _ = Witness([]Condition{{e, true}}, nil, nil)
	})
}

func BenchmarkEval(b *testing.B) {
	e, err := Parse("{{fraudScore}} < 0.7 AND {{amount}} <= 1000")
	if err != nil {
		b.Fatal(err)
	}
	ctx := map[string]any{"fraudScore": json.Number("0.42"), "amount": json.Number("420")}
	for b.Loop() {
		if _, err := e.Eval(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		if _, err := Parse("{{fraudScore}} < 0.7 AND {{amount}} <= 1000"); err != nil {
			b.Fatal(err)
		}
	}
}
