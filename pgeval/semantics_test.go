package pgeval

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// Tests of single constructs against the server, over every value of a small alphabet
// or a list of edge cases (the differential test mixes constructs at random).

// serverEval evaluates each expression with ev() in one query and returns its answers,
// an error's SQLSTATE left out ("E:").
func serverEval(t *testing.T, exprs []string) []string {
	t.Helper()
	c := server.Get(t)
	var q strings.Builder
	q.WriteString("SELECT ev(e) FROM (VALUES ")
	for i, e := range exprs {
		if i > 0 {
			q.WriteString(",\n")
		}
		fmt.Fprintf(&q, "(%d, '%s')", i, strings.ReplaceAll(e, "'", "''"))
	}
	q.WriteString(") v(i, e) ORDER BY i;\n")
	out, stderr, err := c.Psql("dws", q.String())
	if err != nil || len(stderr) > 0 {
		t.Fatalf("psql: %v %s", err, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(exprs) {
		t.Fatalf("%d answers for %d expressions", len(lines), len(exprs))
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "E:") {
			lines[i] = "E:"
		}
	}
	return lines
}

// words are every string of at most n characters from alphabet.
func words(alphabet []string, n int) []string {
	out := []string{""}
	last := []string{""}
	for range n {
		var next []string
		for _, w := range last {
			for _, a := range alphabet {
				next = append(next, w+a)
			}
		}
		out = append(out, next...)
		last = next
	}
	return out
}

// compareWithServer evaluates expr over each context in pgeval and on the server and
// reports every difference (the first 20 in full).
func compareWithServer(t *testing.T, expr string, ctxs []map[string]any) {
	t.Helper()
	e, err := Parse(expr)
	if err != nil {
		t.Fatal(err)
	}
	sent := make([]string, len(ctxs))
	for i, ctx := range ctxs {
		sent[i] = inline(expr, ctx)
	}
	got := serverEval(t, sent)
	differ := 0
	for i, ctx := range ctxs {
		want, ok := ours(e, ctx)
		if !ok {
			want = "unsupported"
		}
		if want != got[i] {
			differ++
			if differ <= 20 {
				js, _ := json.Marshal(ctx)
				t.Errorf("%s with %s: server %s, pgeval %s", expr, js, got[i], want)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d evaluations of %s differ", differ, len(ctxs), expr)
	}
}

// LIKE and ILIKE agree with the server on every text and pattern of a small alphabet
// that holds each wildcard, the escape and a two-byte character: matches, non-matches
// and the error of a pattern ending in \, which PostgreSQL raises only when matching
// reaches the \ ('a' NOT LIKE 'a\' is true).
func TestLikeAgainstServer(t *testing.T) {
	texts := words([]string{"a", "b", "é"}, 3)
	patterns := words([]string{"a", "é", "%", "_", `\`}, 4)
	var ctxs []map[string]any
	for _, p := range patterns {
		for _, s := range texts {
			ctxs = append(ctxs, map[string]any{"s": s, "p": p})
		}
	}
	compareWithServer(t, "{{s}} LIKE {{p}}", ctxs)
	ctxs = ctxs[:0]
	for _, p := range words([]string{"A", "b", "%", `\`}, 3) {
		for _, s := range words([]string{"a", "B", "b"}, 2) {
			ctxs = append(ctxs, map[string]any{"s": s, "p": p})
		}
	}
	compareWithServer(t, "{{s}} NOT ILIKE {{p}}", ctxs)
	t.Logf("%d texts × %d patterns compared", len(texts), len(patterns))
}

// values are context values of every JSON type, for the variables of a test.
var values = []any{nil, json.Number("1"), json.Number("2"), json.Number("1.0"), json.Number("-1.5"), "1", "a", "", true, false}

// contexts are every assignment of values to the variables.
func contexts(vars ...string) []map[string]any {
	out := []map[string]any{{}}
	for _, v := range vars {
		var next []map[string]any
		for _, ctx := range out {
			for _, x := range values {
				c := map[string]any{}
				for k, y := range ctx {
					c[k] = y
				}
				if x != nil {
					c[v] = x
				}
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

// An IN list is PostgreSQL's: one array comparison when x and the items share a type,
// else item by item, left to right (COALESCE({{x}} IN (1, {{z}}), true) is true when x
// is absent and z a string).
func TestInAgainstServer(t *testing.T) {
	for _, expr := range []string{
		"COALESCE({{x}} IN (1, {{z}}), true)",
		"{{x}} IN ({{z}}, 1, 'a')",
		"{{x}} NOT IN ({{z}}, 2.5)",
		"{{x}} NOT IN ({{z}}, NULL, true)",
		"{{x}} IN ({{z}})",
		"{{x}} IN ('1', {{z}}, '2')",
		"1 IN ({{x}}, 1 / 0)",
		"2 IN ({{x}}, 1 / 0, {{z}})",
	} {
		compareWithServer(t, expr, contexts("x", "z"))
	}
	v, err := eval(t, "COALESCE({{x}} IN (1, {{z}}), true)", map[string]any{"z": "a"})
	if err != nil || v.Null || !v.B {
		t.Errorf("COALESCE({{x}} IN (1, {{z}}), true) with z \"a\" = %v, %v; want true", v, err)
	}
}

// abs and round of a variable are evaluated for every type the variable takes, as
// PostgreSQL resolves them: abs and round of an absent variable (an unknown NULL) are
// their double precision forms, round of an integer too; abs and round of text or a
// boolean raise an error.
func TestAbsRoundAgainstServer(t *testing.T) {
	for _, expr := range []string{
		"abs({{x}}) > 5", "abs({{x}})", "round({{x}})", "round({{x}}) IS NULL", "round({{x}}, 1)", "round({{x}}, {{z}})",
		"abs({{x}}::int)", "round({{x}}::int)", "round({{x}}::bigint) / 3", "round({{x}}::int) = {{z}}",
		"COALESCE(round({{x}}), 0.70)", "CASE WHEN {{z}} THEN round({{x}}::int) ELSE 1.50 END",
		"(round({{x}}::int) + 0.1)::numeric", "(abs({{x}}::int) + 0.5)::int", "-round({{x}}::bigint)",
		"round({{x}}::int) || 'a'", "GREATEST(round({{x}}::int), 1.5, {{z}})", "round({{x}}::int) IN (1, 2.0, {{z}})",
		"round({{x}}::int) % 2", "round({{x}}::int)::boolean", "round(round({{x}}::int), 1)", "abs('-1.5') + {{x}}",
		"round('2.5') = {{x}}", "round({{x}}::int) BETWEEN {{z}} AND 2", "lower(round({{x}}::int))",
	} {
		compareWithServer(t, expr, contexts("x", "z"))
	}
	// A quoted literal is read as double precision's input reads it.
	for _, lit := range []string{"-0", " -0 ", "-0.4", "2.5", "-2.5", "1e", "", "  1.5e3 ", "1e-400", "1e400", "3e-324",
		"2e-324", ".5", "5.", "+5", "- 5", "1.2.3", "1_000", "1e+5", "1E5", "00012", "1e-5", "e5", "."} {
		compareWithServer(t, "round('"+lit+"') + abs('"+lit+"') * {{x}}", contexts("x"))
	}
}

// double precision values print as the server prints them (shortest exact text, fixed
// from 1e-4 to 1e15) and compute as it does, overflow and underflow included.
func TestFloat8AgainstServer(t *testing.T) {
	nums := []string{"0", "1", "-1", "3", "7", "10", "0.1", "0.0001", "0.00001", "123456789.123456789", "1e14", "1e15",
		"-1e15", "2.5", "-2.5", "0.5", "1e300", "1e-300", "9007199254740993", "9223372036854775807", "1e308", "4.9e-324",
		"2e-324", "1e309", "0.3", "1e-5", "123e-7", "2147483647.5", "-2147483648.5"}
	var ctxs []map[string]any
	for _, n := range nums {
		for _, m := range nums {
			ctxs = append(ctxs, map[string]any{"n": json.Number(n), "m": json.Number(m)})
		}
	}
	for _, expr := range []string{
		"(round(1) * {{n}}) / {{m}}", "round(0) + {{n}} - {{m}}", "round(1) * {{n}} * {{m}}",
		"(round(1) * {{n}})::int", "(round(1) * {{n}})::bigint", "(round(1) * {{n}})::numeric",
		"round(1) * {{n}} < {{m}}", "round(round(1) * {{n}})",
	} {
		compareWithServer(t, expr, ctxs)
	}
	// Quotients and products of random numbers: doubles of every exponent, printed.
	r := rand.New(rand.NewPCG(16, 14))
	ctxs = ctxs[:0]
	for range 3000 {
		n := fmt.Sprintf("%de%d", r.IntN(2000000)-1000000, r.IntN(40)-20)
		m := fmt.Sprintf("%de%d", r.IntN(2000)+1, r.IntN(20)-10)
		ctxs = append(ctxs, map[string]any{"n": json.Number(n), "m": json.Number(m)})
	}
	compareWithServer(t, "(round(1) * {{n}}) / {{m}}", ctxs)
	compareWithServer(t, "round(1) * {{n}} * {{m}}", ctxs)
}
