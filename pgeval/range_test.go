package pgeval

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Numbers are read exactly, whatever their exponent, as PostgreSQL's numeric reads
// them: 1e-1001 is a numeric with 1001 digits after the point (it was "unsupported",
// and a branch over it took true in dws test while PostgreSQL said false). A number
// numeric cannot hold raises the error PostgreSQL raises, and arithmetic stays within
// numeric's range and scale as the server's does. Each expression, over each context,
// must give the server's value, NULL or error; none may be unsupported.
func TestNumericRange(t *testing.T) {
	c := server.Get(t)
	nums := []string{
		"1e-1001", "-1e-1001", "1e1001", "2.5e-3000", "1e-16383", "-1.5e-16382", "1e131071", "-9.9e131070",
		"1e-16384", "0e-20000", "0.0e-16383", "123e-16384", "0e99999", "1e131072", "1e99999999999", "0e1073741822",
		"1e05", "1E+3", "0.000", "7",
	}
	exprs := []string{
		"{{x}} > 0", "{{x}} = 0", "{{x}} < 0", "({{x}})::text", "{{x}} * {{x}} > 0", "{{x}} * {{x}}",
		"{{x}} * 1e-16383", "{{x}} + {{x}}", "{{x}} * 10", "{{x}} / 3", "{{x}} / 0.001", "{{x}} % 7",
		"round({{x}}, 1500)", "round({{x}}, 3000)", "round({{x}}, -3000)", "round({{x}}, -131072)",
		"round({{x}}, 16383)", "round({{x}}, 20000)", "round({{x}}, -131073)", "round({{x}}, -200000)", "round({{x}} * 9.6, -131071)",
		"({{x}})::int", "{{x}} IN (0, 1e-1001)", "{{x}} BETWEEN -1 AND 1e-1001",
		"1e-1001 > 0", "-1e-1001 < 0", "1e-16384 > 0", "'1e-1001'::numeric > 0", "'1e-99999'::numeric = 0",
		"1e-5000 * 1e-12000 > 0", "1e-10000 * 1e-10000 = 0", "round(1.5, 1999)::text = round(1.5, 2500)::text",
		"round(9.6e131071, -131072)", "round(1e131071, -2147483647)", "round(1.5, 2147483647) = 1.5",
	}
	type tc struct {
		expr, server, want string
		ctx                map[string]any
	}
	var cases []tc
	for _, expr := range exprs {
		e, err := Parse(expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		for _, n := range nums {
			ctx := map[string]any{"x": json.Number(n)}
			want, ok := ours(e, ctx)
			if !ok {
				_, err := e.Eval(ctx)
				t.Errorf("%s with x = %s: %v", expr, n, err)
				continue
			}
			cases = append(cases, tc{expr: expr, server: inline(expr, ctx), want: want, ctx: ctx})
			if !strings.Contains(expr, "{{") {
				break
			}
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
	clip := func(s string) string {
		if len(s) > 80 {
			return s[:80] + "…"
		}
		return s
	}
	for i, line := range lines {
		_, got, _ := strings.Cut(line, "|")
		if strings.HasPrefix(got, "E:") {
			got = "E:"
		}
		if got != cases[i].want {
			at := 0
			for at < min(len(got), len(cases[i].want)) && got[at] == cases[i].want[at] {
				at++
			}
			t.Errorf("%s with x = %v: they differ from character %d (lengths %d, %d)\n  server %s\n  pgeval %s",
				cases[i].expr, cases[i].ctx["x"], at, len(got), len(cases[i].want), clip(got[max(at-20, 0):]), clip(cases[i].want[max(at-20, 0):]))
		}
	}
}
