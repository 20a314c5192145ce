package pgeval

import (
	"fmt"
	"strings"
	"testing"
)

// TestServerReadsAsTheParser: the differential server is the PostgreSQL the parser is
// (pg_query_go v5 reads SQL as PostgreSQL 16 does). Literals PostgreSQL 16 added —
// hexadecimal, octal and binary integers, underscores between digits — mean the same in
// pgeval and on the server; a server of 15 reads none of them (syntax errors) and fails
// this test.
func TestServerReadsAsTheParser(t *testing.T) {
	c := server.Get(t)
	exprs := []string{
		"0x10", "0X1F + 1", "0o17", "0b101", "-0x8000000000000000",
		"1_000", "1_000_000 * 2", "1_000.000_1", "0x_ff", "1_0e1_0 > 1",
		"0x7FFFFFFFFFFFFFFF + 1", "0xFFFFFFFFFFFFFFFFFF",
	}
	var q strings.Builder
	q.WriteString("SELECT ev(e) FROM (VALUES ")
	for i, e := range exprs {
		if i > 0 {
			q.WriteString(", ")
		}
		fmt.Fprintf(&q, "(%d, '%s')", i, strings.ReplaceAll(e, "'", "''"))
	}
	q.WriteString(") v(i, e) ORDER BY i;\n")
	out, stderr, err := c.Psql("dws", q.String())
	if err != nil || len(stderr) > 0 {
		t.Fatalf("psql: %v %s", err, stderr)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(exprs) {
		t.Fatalf("%d answers for %d expressions", len(lines), len(exprs))
	}
	for i, e := range exprs {
		got := lines[i]
		if strings.HasPrefix(got, "E:") && !strings.HasPrefix(e, "0x7F") {
			t.Errorf("%s: the server (PostgreSQL %s) raises %s: it does not read PostgreSQL 16's literals", e, c.Version, got)
			continue
		}
		if strings.HasPrefix(got, "E:") {
			got = "E:"
		}
		x, err := Parse(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		if want, ok := ours(x, nil); !ok || want != got {
			t.Errorf("%s: server %s, pgeval %s (supported %v)", e, got, want, ok)
		}
	}
}
