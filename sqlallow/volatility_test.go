package sqlallow

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestVolatilityAgainstServer shows on the scratch server that what dws reports
// as nondeterministic is: each statement below gives the time of the run (or a
// fresh value), and dws reports it. Then every volatile built-in of the server's
// pg_proc is reported when called, and every zero-argument built-in that dws lets
// through gives the same answer in two sessions.
func TestVolatilityAgainstServer(t *testing.T) {
	c := startCluster(t)
	if _, stderr, err := c.psql("dws", `CREATE OR REPLACE FUNCTION public.uuid_generate_v4() RETURNS uuid VOLATILE LANGUAGE sql AS 'SELECT gen_random_uuid()';`); err != nil || strings.Contains(string(stderr), "ERROR") {
		t.Fatalf("%v %s", err, stderr)
	}
	// Each pair: a statement dws must refuse, and a query that is true on the
	// server because that statement reads the clock or makes a fresh value.
	cases := []struct{ stmt, proof string }{
		{"SELECT 'now'::text::timestamptz", "SELECT 'now'::text::timestamptz = now()"},
		{"SELECT ('n'||'ow')::timestamptz", "SELECT ('n'||'ow')::timestamptz = now()"},
		{"SELECT timestamptz('now')", "SELECT timestamptz('now') = now()"},
		{"SELECT date('today')", "SELECT date('today') = current_date"},
		{"SELECT age('2020-01-01'::timestamp)", "SELECT age('2020-01-01'::timestamp) = age(current_date::timestamp, '2020-01-01'::timestamp)"},
		{"SELECT id FROM expense WHERE '2020-01-01'::date < 'today'", "SELECT 'today' = current_date::text::date AND '2020-01-01'::date < 'today'"},
		{"SELECT public.uuid_generate_v4()", "SELECT public.uuid_generate_v4() <> public.uuid_generate_v4()"},
		{"SELECT uuid_generate_v4()", "SELECT uuid_generate_v4() <> uuid_generate_v4()"},
	}
	var script strings.Builder
	for i, cs := range cases {
		fmt.Fprintf(&script, "\\echo @@@ %d\n%s;\n\\echo @@@END :ERROR :LAST_ERROR_MESSAGE\n", i, cs.proof)
	}
	out, _, err := c.psql("dws", script.String())
	if err != nil {
		t.Fatal(err)
	}
	results, errs := splitNamed(string(out))
	pol := DefaultPolicy()
	pol.Allow = map[string][]string{"expense": {"*"}}
	// Allowed to run (sql.functions), a function that is no built-in may still be volatile.
	pol.Functions = []string{"uuid_generate_v4", "public.uuid_generate_v4"}
	for i, cs := range cases {
		key := fmt.Sprint(i)
		if errs[key] != "" || strings.TrimSpace(results[key]) != "t" {
			t.Errorf("server: %s gave %q %s", cs.proof, results[key], errs[key])
		}
		if !hasKind(CheckStatement(cs.stmt, -1, &pol), Nondeterministic) {
			t.Errorf("dws does not report %s as nondeterministic", cs.stmt)
		}
	}

	// Every volatile built-in, called with as many arguments as it takes.
	out, _, err = c.psql("dws", `SELECT DISTINCT proname || '/' || pronargs FROM pg_proc WHERE pronamespace = 'pg_catalog'::regnamespace AND provolatile = 'v' AND prokind = 'f'`)
	if err != nil {
		t.Fatal(err)
	}
	volatile := strings.Fields(string(out))
	if len(volatile) < 200 {
		t.Fatalf("only %d volatile built-ins on the server", len(volatile))
	}
	for _, v := range volatile {
		name, n, _ := strings.Cut(v, "/")
		var args []string
		for i := 0; i < atoi(n); i++ {
			args = append(args, "NULL")
		}
		stmt := fmt.Sprintf("SELECT pg_catalog.%s(%s)", quoteName(name), strings.Join(args, ", "))
		if r := CheckStatement(stmt, -1, &pol); !hasKind(r, Nondeterministic) && !hasKind(r, Function) {
			t.Errorf("volatile built-in passes: %s", stmt)
		}
	}

	// Every zero-argument built-in that dws lets through, in two sessions.
	var calls []string
	for name, list := range catalog().all() {
		for _, b := range list {
			if b.kind == 'f' && len(b.args) == 0 && !b.set && b.result != "trigger" && b.result != "event_trigger" && b.result != "internal" && b.result != "void" {
				stmt := "SELECT pg_catalog." + quoteName(name) + "()"
				if len(CheckStatement(stmt, -1, &pol).Findings) == 0 {
					calls = append(calls, name)
				}
				break
			}
		}
	}
	sort.Strings(calls)
	script.Reset()
	for _, name := range calls {
		fmt.Fprintf(&script, "\\echo @@@ %s\nSELECT pg_catalog.%s()::text;\n\\echo @@@END :ERROR :LAST_ERROR_MESSAGE\n", name, quoteName(name))
	}
	first, _, err := c.psql("dws", script.String())
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.psql("dws", "SELECT pg_sleep(0.05)"); err != nil {
		t.Fatal(err)
	}
	second, _, err := c.psql("dws", script.String())
	if err != nil {
		t.Fatal(err)
	}
	r1, e1 := splitNamed(string(first))
	r2, _ := splitNamed(string(second))
	compared := 0
	for _, name := range calls {
		if e1[name] != "" {
			continue // needs a context (an event trigger) or state (lastval)
		}
		compared++
		if r1[name] != r2[name] {
			t.Errorf("%s() passes dws but differs between two sessions: %q, %q", name, r1[name], r2[name])
		}
	}
	if compared < 15 {
		t.Errorf("compared only %d zero-argument built-ins: %v", compared, calls)
	}
	t.Logf("%d statements proven to read the clock, %d volatile built-ins reported, %d repeatable zero-argument built-ins compared across sessions", len(cases), len(volatile), compared)
}

func hasKind(r Result, k Kind) bool {
	for _, f := range r.Findings {
		if f.Kind == k {
			return true
		}
	}
	return false
}

func atoi(s string) int {
	n := 0
	for _, ch := range s {
		n = n*10 + int(ch-'0')
	}
	return n
}
