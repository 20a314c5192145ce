package pgparse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/proto"

	"github.com/dwsdev/dws/internal/pggen"
)

// statements reach every kind of field the tree holds: scalars of every width and
// sign (negative locations and integers), booleans, enums, strings, doubles (Float
// nodes), repeated and packed fields, oneofs, several statements in one text, and
// statements that fail.
var statements = []string{
	"",
	";",
	"SELECT 1",
	"SELECT -2147483648, 9223372036854775807, -9223372036854775808, 1.5e300, .5, 0x1F",
	"SELECT 'text', E'\\n', $$dollar$$, B'1010', X'FF', true, false, NULL",
	"SELECT E'\\x88'",
	"SELECT a, b FROM t WHERE x = $1 AND y IN (SELECT z FROM u) ORDER BY 1 DESC NULLS LAST LIMIT 10 OFFSET $2",
	"WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r",
	"WITH w AS MATERIALIZED (DELETE FROM a RETURNING *) INSERT INTO b SELECT * FROM w ON CONFLICT (id) DO UPDATE SET v = EXCLUDED.v",
	"UPDATE x SET a = -1, (b, c) = (SELECT 1, 2) FROM y WHERE x.id = y.id RETURNING *",
	"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED AND s.v > 0 THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.v)",
	"SELECT rank() OVER (PARTITION BY a ORDER BY b ROWS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(x) FILTER (WHERE x > 0) FROM t GROUP BY ROLLUP (a, b), CUBE (c) HAVING count(*) > 1",
	"SELECT CASE WHEN a THEN 1 ELSE 2 END, coalesce(a, b), a IS DISTINCT FROM b, a::int[], ARRAY[1,2][1], (r).f, row(1, 'a') FROM t",
	"SELECT * FROM a NATURAL FULL JOIN b, LATERAL unnest(ARRAY[1]) WITH ORDINALITY u(x, i) TABLESAMPLE SYSTEM (10)",
	"SELECT xmlelement(name foo, xmlattributes(1 AS a)), json_object('a': 1), t AT TIME ZONE 'UTC', interval '1 day' FROM t",
	"CREATE TABLE t (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, v numeric(10, 2) NOT NULL DEFAULT 0 CHECK (v >= 0), r int REFERENCES o (id) ON DELETE CASCADE) PARTITION BY RANGE (id)",
	"CREATE INDEX CONCURRENTLY i ON t USING gin (v jsonb_path_ops) WHERE v IS NOT NULL",
	"CREATE FUNCTION f(a int, OUT b text) RETURNS SETOF record LANGUAGE sql STABLE STRICT AS $$ SELECT 'x' $$",
	"CREATE OR REPLACE FUNCTION g() RETURNS trigger AS $$ BEGIN NEW.x := 1; RETURN NEW; END $$ LANGUAGE plpgsql",
	"CREATE VIEW v WITH (security_barrier) AS SELECT * FROM t WITH CHECK OPTION",
	"CREATE POLICY p ON t FOR SELECT TO public USING (owner = current_user)",
	"CREATE RULE r AS ON INSERT TO t DO INSTEAD NOTHING",
	"ALTER TABLE t ADD COLUMN c text COLLATE \"C\", ALTER COLUMN v SET STATISTICS 100, DROP CONSTRAINT k CASCADE",
	"GRANT SELECT (a, b) ON t TO r WITH GRANT OPTION; REVOKE ALL ON SCHEMA s FROM PUBLIC",
	"COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true)",
	"PREPARE p(int) AS SELECT $1; EXECUTE p(1); DEALLOCATE p",
	"DO $$ BEGIN PERFORM 1; END $$",
	"EXPLAIN (ANALYZE, BUFFERS) SELECT 1; VACUUM (FULL) t; LOCK TABLE t IN ACCESS EXCLUSIVE MODE NOWAIT",
	"SET search_path = a, b; RESET ALL; SHOW work_mem; BEGIN ISOLATION LEVEL SERIALIZABLE; COMMIT",
	"SELECT * FROM t FOR UPDATE OF t SKIP LOCKED",
	"SELECT 1; SELECT 2; /* comment */ SELECT 3 -- trailing",
	"SELEC 1",
	"SELECT (",
	"SELECT 'unterminated",
	"CREATE TABLE (",
	"SELECT " + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200),
}

// testArena is the one Arena every sameTree parses into after Parse, so that each
// tree is built in memory the trees before it (of other sizes and shapes) used.
var testArena struct {
	sync.Mutex
	Arena
}

// sameTree fails unless Parse, and Arena.Parse in a reused arena, give the tree
// pg_query_go's Parse gives for input, or the same error.
func sameTree(t *testing.T, input string) {
	t.Helper()
	want, werr := pg.Parse(input)
	got, gerr := Parse(input)
	sameAs(t, input, want, werr, got, gerr)
	testArena.Lock()
	defer testArena.Unlock()
	got, gerr = testArena.Parse(input)
	sameAs(t, input, want, werr, got, gerr)
}

func sameAs(t *testing.T, input string, want *pg.ParseResult, werr error, got *pg.ParseResult, gerr error) {
	t.Helper()
	switch {
	case werr != nil && strings.Contains(werr.Error(), "exceeded maximum recursion depth"):
		// proto.Unmarshal's limit, met by a tree the grammar accepted.
		if !errors.Is(gerr, errDepth) {
			t.Fatalf("%.80q: pg.Parse says %v, Parse %v", input, werr, gerr)
		}
	case werr != nil && strings.Contains(werr.Error(), "invalid UTF-8"):
		// proto.Unmarshal's refusal of a string the grammar made (E'\x88').
		if !errors.Is(gerr, errUTF8) {
			t.Fatalf("%.80q: pg.Parse says %v, Parse %v", input, werr, gerr)
		}
	case werr != nil || gerr != nil:
		var we, ge *parser.Error
		if !errors.As(werr, &we) || !errors.As(gerr, &ge) || *we != *ge {
			t.Fatalf("%.80q: pg.Parse says %v, Parse %v", input, werr, gerr)
		}
	case !proto.Equal(want, got):
		t.Fatalf("%.80q: trees differ:\n%v\n%v", input, want, got)
	}
}

// TestParseIsPgParse: the tree built from PostgreSQL's raw parse tree is pg_query_go's, for
// every statement above, every DDL fixture, and nesting up to where the parser stops.
func TestParseIsPgParse(t *testing.T) {
	for _, s := range statements {
		sameTree(t, s)
	}
	files, _ := filepath.Glob("../../fixtures/*/*.sql")
	more, _ := filepath.Glob("../../fixtures/*/*/*.sql")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameTree(t, string(data))
	}
	for _, n := range []int{1000, 3000, 6000, 20000} {
		sameTree(t, "SELECT "+strings.Repeat("(", n)+"1"+strings.Repeat(")", n))
		sameTree(t, "SELECT "+strings.Repeat("-", n)+"1")
		sameTree(t, "SELECT 1"+strings.Repeat(" + 1", n))
	}
}

// TestArenaReuses: once an Arena has held a tree, parsing a statement of that shape
// again allocates only its strings and the C call's text, not a node; and the old
// tree is the new one's memory.
func TestArenaReuses(t *testing.T) {
	const q = "SELECT e.id, sum(p.amount) FROM expense e JOIN payment p ON p.expense_id = e.id WHERE e.status = $1 GROUP BY e.id ORDER BY 2 DESC LIMIT 10"
	var a Arena
	first, err := a.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	heap := testing.AllocsPerRun(20, func() { _, _ = Parse(q) })
	arena := testing.AllocsPerRun(20, func() { _, _ = a.Parse(q) })
	t.Logf("allocs: heap %v, arena %v", heap, arena)
	if arena > heap/3 {
		t.Errorf("Arena.Parse allocates %v objects, Parse %v: the arena is not reused", arena, heap)
	}
	again, err := a.Parse(q)
	if err != nil {
		t.Fatal(err)
	}
	if first != again {
		t.Errorf("the second tree is not in the first one's memory")
	}
}

// TestParseConcurrently: parses on many goroutines at once (pg_query's memory
// contexts are per thread, and Parse reads its raw tree between two C calls) give
// the trees they give alone.
func TestParseConcurrently(t *testing.T) {
	want := make([]*pg.ParseResult, len(statements))
	for i, s := range statements {
		want[i], _ = pg.Parse(s)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 * len(statements) {
				i := (k + g) % len(statements)
				got, err := Parse(statements[i])
				if (err == nil) != (want[i] != nil) || err == nil && !proto.Equal(want[i], got) {
					t.Errorf("%q on goroutine %d: %v", statements[i], g, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestRawGenCurrent: raw_gen.go is what internal/pggen writes for the pg_query_go in
// go.mod and the C sources vendored from it (run `go generate ./internal/pgparse`
// after an upgrade).
func TestRawGenCurrent(t *testing.T) {
	want, err := pggen.Raw("pgparse", "pgquery")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("raw_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("raw_gen.go is stale: run go generate ./internal/pgparse")
	}
}

// FuzzParse: whatever the text, Parse gives pg_query_go's tree or its error.
func FuzzParse(f *testing.F) {
	for _, s := range statements {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // a C string ends there, for both
		}
		sameTree(t, s)
	})
}

func BenchmarkParse(b *testing.B) {
	const q = "SELECT e.id, sum(p.amount) FROM expense e JOIN payment p ON p.expense_id = e.id WHERE e.status = $1 AND p.at > now() - interval '1 day' GROUP BY e.id HAVING count(*) > 2 ORDER BY 2 DESC LIMIT 10"
	b.Run("pgparse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Parse(q); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pg_query_go", func(b *testing.B) {
		for b.Loop() {
			if _, err := pg.Parse(q); err != nil {
				b.Fatal(err)
			}
		}
	})
}
