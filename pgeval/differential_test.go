package pgeval

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The differential test: generated expressions over generated contexts, evaluated by
// pgeval and by a real PostgreSQL server (SELECT (<expression with the values inlined>)),
// must agree on the value (as text, so numeric scales count), on NULL and on whether an
// error is raised. It never skips: a missing server fails it. The generator writes only
// constructs of SPEC §8.4 and contexts of scalar values, so pgeval must evaluate every
// expression it writes: an Unsupported is a failure too, as a difference is.

type gen struct {
	r *rand.Rand
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

var numLits = []string{"0", "1", "-1", "2", "3", "7", "10", "0.5", "0.70", "1.5", "2.5", "-2.5", "1000", "0.001",
	"123.456", "2147483647", "-2147483648", "9223372036854775807", "1e3", "3.14159", "100.00"}

var textLits = []string{"''", "'a'", "'A'", "'abc'", "'ABC'", "' x '", "'10'", "'1.5'", "'true'", "'yes'", "'off'",
	"'a%'", "'%b%'", "'_b_'", "'abc%'", "'ab\\%'", "'é'"}

// likePatterns are LIKE patterns, many ending in the escape \, which raises an error
// only when matching reaches it.
var likePatterns = append([]string{`'a\'`, `'%\'`, `'\'`, `'ab\'`, `'_\'`, `'%a\'`, `'a%\'`, `'A\\'`, `'\%'`, `'%\_'`}, textLits...)

// expr generates an expression of the given kind: "bool", "num" or "text".
func (g *gen) expr(kind string, depth int) string {
	if depth <= 0 || g.r.IntN(4) == 0 {
		return g.leaf(kind)
	}
	d := depth - 1
	switch kind {
	case "bool":
		switch g.r.IntN(16) {
		case 0, 1:
			return "(" + g.expr("num", d) + " " + g.pick("=", "<>", "<", "<=", ">", ">=", "!=") + " " + g.expr("num", d) + ")"
		case 2:
			return "(" + g.expr("text", d) + " " + g.pick("=", "<>", "<", ">=") + " " + g.expr("text", d) + ")"
		case 3:
			return "(" + g.expr("bool", d) + " " + g.pick("AND", "OR") + " " + g.expr("bool", d) + ")"
		case 4:
			return "(NOT " + g.expr("bool", d) + ")"
		case 5:
			return "(" + g.expr(g.pick("num", "text", "bool"), d) + " IS " + g.pick("", "NOT ") + "NULL)"
		case 6:
			return "(" + g.expr("bool", d) + " IS " + g.pick("", "NOT ") + g.pick("TRUE", "FALSE", "UNKNOWN") + ")"
		case 7:
			k := g.pick("num", "text")
			return "(" + g.expr(k, d) + " IS " + g.pick("", "NOT ") + "DISTINCT FROM " + g.expr(k, d) + ")"
		case 8:
			return "(" + g.expr("num", d) + g.pick(" ", " NOT ") + "BETWEEN " + g.pick("", "SYMMETRIC ") + g.expr("num", d) + " AND " + g.expr("num", d) + ")"
		case 9:
			k := g.pick("num", "text")
			items := []string{g.expr(k, d), g.leaf(k)}
			if g.r.IntN(2) == 0 {
				// Items that share no type: compared one by one, left to right.
				items = []string{g.leaf(g.pick("num", "text", "bool")), g.leaf(g.pick("num", "text", "bool"))}
				if g.r.IntN(2) == 0 {
					items = append(items, g.leaf(g.pick("num", "text", "bool")))
				}
			}
			if g.r.IntN(3) == 0 {
				items = append(items, "NULL")
			}
			return "(" + g.expr(k, d) + g.pick(" IN ", " NOT IN ") + "(" + strings.Join(items, ", ") + "))"
		case 10:
			pattern := g.pick(likePatterns...)
			if g.r.IntN(4) == 0 {
				pattern = g.leaf("text")
			}
			return "(" + g.expr("text", d) + " " + g.pick("LIKE", "NOT LIKE", "ILIKE", "NOT ILIKE") + " " + pattern + ")"
		case 11:
			return "CASE WHEN " + g.expr("bool", d) + " THEN " + g.expr("bool", d) + " ELSE " + g.expr("bool", d) + " END"
		case 12:
			return "COALESCE(" + g.expr("bool", d) + ", " + g.expr("bool", d) + ")"
		case 13:
			return "(" + g.expr(g.pick("text", "num"), d) + ")::boolean"
		case 14:
			return "(" + g.expr("num", d) + " > " + g.leaf("num") + ")"
		default:
			return g.leaf("bool")
		}
	case "num":
		switch g.r.IntN(13) {
		case 0, 1, 2:
			return "(" + g.expr("num", d) + " " + g.pick("+", "-", "*", "/", "%") + " " + g.expr("num", d) + ")"
		case 3:
			return "(-" + g.expr("num", d) + ")"
		case 4:
			return "(" + g.expr(g.pick("num", "text", "bool"), d) + ")::" + g.pick("int", "bigint", "numeric", "numeric(6,2)", "numeric(3)", "integer")
		case 5:
			// abs and round of a variable, whatever it holds (absent: double precision).
			if g.r.IntN(2) == 0 {
				return g.pick("abs", "round") + "(" + g.leaf(g.pick("num", "num", "num", "text", "bool")) + ")"
			}
			return "abs(" + g.expr("num", d) + ")"
		case 6:
			if g.r.IntN(2) == 0 {
				return "round(" + g.expr("num", d) + g.pick("", ", 0", ", 1", ", 2", ", -1", ", {{n}}") + ")"
			}
			return "round((" + g.expr("num", d) + ")::numeric" + g.pick("", ", 0", ", 1", ", 2", ", -1") + ")"
		case 7:
			return "length(" + g.expr("text", d) + ")"
		case 8:
			return "COALESCE(" + g.expr("num", d) + ", " + g.expr("num", d) + ")"
		case 9:
			return "NULLIF(" + g.expr("num", d) + ", " + g.expr("num", d) + ")"
		case 10:
			return g.pick("GREATEST", "LEAST") + "(" + g.expr("num", d) + ", " + g.expr("num", d) + ", " + g.leaf("num") + ")"
		case 11:
			return "CASE " + g.expr("num", d) + " WHEN " + g.leaf("num") + " THEN " + g.expr("num", d) + " ELSE " + g.expr("num", d) + " END"
		default:
			return g.leaf("num")
		}
	default:
		switch g.r.IntN(8) {
		case 0, 1:
			return "(" + g.expr(g.pick("text", "num", "bool"), d) + " || " + g.expr("text", d) + ")"
		case 2:
			return g.pick("lower", "upper", "trim", "btrim", "ltrim", "rtrim") + "(" + g.expr("text", d) + ")"
		case 3:
			return "(" + g.expr(g.pick("num", "bool"), d) + ")::text"
		case 4:
			return "COALESCE(" + g.expr("text", d) + ", " + g.leaf("text") + ")"
		case 5:
			return "CASE WHEN " + g.expr("bool", d) + " THEN " + g.expr("text", d) + " ELSE " + g.leaf("text") + " END"
		default:
			return g.leaf("text")
		}
	}
}

func (g *gen) leaf(kind string) string {
	if g.r.IntN(12) == 0 {
		return "NULL"
	}
	switch kind {
	case "bool":
		return g.pick("{{p}}", "{{q}}", "true", "false", "'t'", "'no'", "({{a}} > 0.7)")
	case "num":
		if g.r.IntN(2) == 0 {
			return g.pick("{{a}}", "{{b}}", "{{n}}")
		}
		return g.pick(numLits...)
	}
	if g.r.IntN(2) == 0 {
		return g.pick("{{s}}", "{{t}}")
	}
	return g.pick(textLits...)
}

// context generates values for the variables: a, b, n numeric; s, t text; p, q bool;
// any of them may be null or absent.
func (g *gen) context() map[string]any {
	nums := []string{"0", "1", "-1", "0.7", "0.70", "0.69", "1000", "1000.5", "2147483647", "-2147483648",
		"9223372036854775807", "1.5", "2.5", "-2.5", "0.001", "123456.789", "3", "10"}
	texts := []string{"", "a", "A", "abc", "ABC", " x ", "10", "true", "yes", "1.5", "a%b", "é", "Abc", "b", `a\`, `\`, `%\`, "a_"}
	ctx := map[string]any{}
	for _, v := range []string{"a", "b", "n"} {
		if g.r.IntN(8) > 0 {
			ctx[v] = json.Number(g.pick(nums...))
		}
	}
	for _, v := range []string{"s", "t"} {
		if g.r.IntN(8) > 0 {
			ctx[v] = g.pick(texts...)
		}
	}
	for _, v := range []string{"p", "q"} {
		if g.r.IntN(6) > 0 {
			ctx[v] = g.r.IntN(2) == 0
		}
	}
	return ctx
}

// inline writes the expression the server evaluates: each {{name}} replaced by its
// value as a typed literal (an untyped NULL when absent), as pgeval reads the context.
func inline(expr string, ctx map[string]any) string {
	var b strings.Builder
	for {
		i := strings.Index(expr, "{{")
		if i < 0 {
			b.WriteString(expr)
			return b.String()
		}
		j := strings.Index(expr[i:], "}}") + i
		b.WriteString(expr[:i])
		switch v := ctx[expr[i+2:j]].(type) {
		case nil:
			b.WriteString("(NULL)")
		case bool:
			b.WriteString("(" + strconv.FormatBool(v) + ")")
		case json.Number:
			b.WriteString("('" + string(v) + "'::numeric)")
		case string:
			b.WriteString("('" + strings.ReplaceAll(v, "'", "''") + "'::text)")
		}
		expr = expr[j+2:]
	}
}

// ours is pgeval's answer in the form ev() gives the server's: "V:value", "N" or "E:".
// e is the parsed expression (nil when it does not parse), reused across contexts as the
// simulator reuses it, so that its compiled programs are exercised with new values.
func ours(e *Expr, ctx map[string]any) (string, bool) {
	if e == nil {
		return "E:", true
	}
	v, err := e.Eval(ctx)
	var u *Unsupported
	switch {
	case errors.As(err, &u):
		return "", false
	case err != nil:
		return "E:", true
	case v.Null:
		return "N", true
	}
	return "V:" + textOf(v), true
}

func TestDifferential(t *testing.T) {
	c := server.Get(t)
	g := &gen{r: rand.New(rand.NewPCG(2026, 11))}
	type tc struct {
		expr, server string
		ctx          map[string]any
		want         string
	}
	var cases []tc
	unsupported := 0
	// 15,000 expressions, each over two contexts evaluated with one parsed Expr.
	const exprs = 15000
	for range exprs {
		expr := g.expr("bool", 4)
		if g.r.IntN(3) == 0 {
			expr = g.expr(g.pick("num", "text"), 3)
		}
		e, err := Parse(expr)
		if err != nil {
			e = nil
		} else if u := e.Unsupported(); u != nil {
			unsupported++
			t.Errorf("%s: %v", expr, u)
		}
		for range 2 {
			ctx := g.context()
			want, ok := ours(e, ctx)
			if !ok {
				want = "unsupported"
			}
			cases = append(cases, tc{expr: expr, server: inline(expr, ctx), ctx: ctx, want: want})
		}
	}
	var q strings.Builder
	q.WriteString("SELECT i || '|' || ev(e) FROM (VALUES ")
	for i, k := range cases {
		if i > 0 {
			q.WriteString(",\n")
		}
		fmt.Fprintf(&q, "(%d, '%s')", i, strings.ReplaceAll(k.server, "'", "''"))
	}
	q.WriteString(") v(i, e) ORDER BY i;\n")
	out, stderr, err := c.Psql("dws", q.String())
	if err != nil || len(stderr) > 0 {
		t.Fatalf("psql: %v %s", err, stderr)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(cases) {
		t.Fatalf("%d answers for %d expressions", len(lines), len(cases))
	}
	differ := 0
	kinds := map[string]int{}
	for i, line := range lines {
		_, got, _ := strings.Cut(line, "|")
		if strings.HasPrefix(got, "E:") {
			got = "E:"
		}
		switch {
		case got == "V:true" || got == "V:false":
			kinds["boolean"]++
		case strings.HasPrefix(got, "V:"):
			kinds["other values"]++
		case got == "N":
			kinds["NULL"]++
		default:
			kinds["errors"]++
		}
		if got != cases[i].want {
			differ++
			if differ <= 20 {
				ctx, _ := json.Marshal(cases[i].ctx)
				t.Errorf("%s\n  context %s\n  server  %s\n  pgeval  %s\n  sent    %s", cases[i].expr, ctx, line, cases[i].want, cases[i].server)
			}
		}
	}
	t.Logf("%d evaluations of %d expressions compared with PostgreSQL (%v), %d differ; %d expressions called unsupported", len(cases), exprs, kinds, differ, unsupported)
	for kind, n := range kinds {
		if n < len(cases)/20 {
			t.Errorf("only %d of %d results are %s: the generator must exercise every outcome", n, len(cases), kind)
		}
	}
	if len(cases) < 10000 {
		t.Fatalf("only %d expressions compared", len(cases))
	}
}
