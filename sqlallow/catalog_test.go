package sqlallow

import (
	"fmt"
	"iter"
	"sort"
	"strings"
	"testing"
)

// all yields every built-in name, in order, with its overloads.
func (c *catalogData) all() iter.Seq2[string, []*builtin] {
	return func(yield func(string, []*builtin) bool) {
		prev := ""
		for _, row := range c.rows {
			name, _, _ := strings.Cut(row, "\t")
			if name != prev && !yield(name, c.overloadsOf(name)) {
				return
			}
			prev = name
		}
	}
}

// TestCatalogMatchesServer: every built-in function and type of the embedded
// catalog is on the scratch server with the same arguments, result and
// volatility. It fails when the server is another PostgreSQL than the catalog was
// generated from: run `go generate ./sqlallow` there.
func TestCatalogMatchesServer(t *testing.T) {
	c := startCluster(t)
	out, _, err := c.psql("dws", `SELECT format('%s|%s|%s|%s|%s|%s|%s|%s', p.proname,
  array_to_string(ARRAY(SELECT ty.typname FROM unnest(p.proargtypes::oid[]) WITH ORDINALITY a(o, i) JOIN pg_type ty ON ty.oid = a.o ORDER BY a.i), ','),
  p.pronargdefaults, (p.provariadic <> 0)::int, rt.typname, p.proretset::int, p.prokind, p.provolatile)
FROM pg_proc p JOIN pg_type rt ON rt.oid = p.prorettype WHERE p.pronamespace = 'pg_catalog'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	server := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		server[line] = true
	}
	cat := catalog()
	var missing []string
	n := 0
	for name, list := range cat.all() {
		for _, b := range list {
			n++
			key := fmt.Sprintf("%s|%s|%d|%d|%s|%d|%c|%c", name, strings.Join(b.args, ","), b.defaults, bool01(b.variadic), b.result, bool01(b.set), b.kind, b.volatility)
			if !server[key] {
				missing = append(missing, key)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d of %d embedded functions differ from the server's pg_proc (regenerate: go generate ./sqlallow), e.g.:\n%s", len(missing), n, strings.Join(missing[:min(len(missing), 20)], "\n"))
	}
	if n < 3000 || len(server) < n {
		t.Errorf("embedded catalog has %d functions, server %d", n, len(server))
	}

	out, _, err = c.psql("dws", `SELECT format('%s|%s|%s', typname, typtype, typcategory) FROM pg_type WHERE typnamespace = 'pg_catalog'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		types[line] = true
	}
	for name, ty := range cat.types {
		if key := fmt.Sprintf("%s|%c|%c", name, ty.typtype, ty.category); !types[key] {
			t.Errorf("embedded type %s is not the server's", key)
		}
	}
}

func bool01(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestCatalogRowsSorted: a function's rows are found by binary search, so the
// generated catalog must stay sorted by name, and every overload of a denied
// function must carry the same reason.
func TestCatalogRowsSorted(t *testing.T) {
	c := catalog()
	reasons := map[string]string{}
	for i, row := range c.rows {
		name, _, _ := strings.Cut(row, "\t")
		if i > 0 {
			prev, _, _ := strings.Cut(c.rows[i-1], "\t")
			if prev > name {
				t.Fatalf("row %d: %q after %q", i, name, prev)
			}
		}
		f := strings.Split(row, "\t")
		if r, ok := reasons[name]; ok && r != f[9] && f[9] != "" && r != "" {
			t.Errorf("%s: denied for %q and for %q", name, r, f[9])
		}
		if f[9] != "" {
			reasons[name] = f[9]
		}
	}
	if len(c.rows) < 3000 || len(c.overloadsOf("substr")) < 2 || c.denied("pg_sleep") == "" || len(c.rowsOf("no_such_function")) != 0 {
		t.Fatalf("%d rows; substr %d overloads; pg_sleep denied %q", len(c.rows), len(c.overloadsOf("substr")), c.denied("pg_sleep"))
	}
}
