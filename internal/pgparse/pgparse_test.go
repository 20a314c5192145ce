package pgparse

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"github.com/pganalyze/pg_query_go/v5/parser"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/dwsdev/dws/internal/pggen"
)

// statements reach every kind of field the packer writes: scalars of every width and
// sign (negative locations and integers), booleans, enums, strings, doubles (Float
// nodes), repeated and packed fields, oneofs, several statements in one text, and
// statements that fail.
var statements = []string{
	"",
	";",
	"SELECT 1",
	"SELECT -2147483648, 9223372036854775807, -9223372036854775808, 1.5e300, .5, 0x1F",
	"SELECT 'text', E'\\n', $$dollar$$, B'1010', X'FF', true, false, NULL",
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

// sameBytes fails unless pgparse packs input exactly as pg_query_go does, or fails
// with the same error.
func sameBytes(t *testing.T, input string) {
	t.Helper()
	want, werr := parser.ParseToProtobuf(input)
	got, gerr := ParseToProtobuf(input)
	switch {
	case werr != nil || gerr != nil:
		var we, ge *parser.Error
		if !errors.As(werr, &we) || !errors.As(gerr, &ge) || *we != *ge {
			t.Fatalf("%q: pg_query_go says %v, pgparse %v", input, werr, gerr)
		}
	case !bytes.Equal(want, got):
		t.Fatalf("%q: pgparse packed\n%x\npg_query_go packed\n%x", input, got, want)
	}
}

func TestSameBytes(t *testing.T) {
	for _, s := range statements {
		sameBytes(t, s)
	}
	// Every DDL the project ships, each a text of many statements.
	files, _ := filepath.Glob("../../fixtures/*/*.sql")
	more, _ := filepath.Glob("../../fixtures/*/*/*.sql")
	files = append(files, more...)
	if len(files) == 0 {
		t.Fatal("no DDL fixtures found")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sameBytes(t, string(data))
	}
}

func TestParseIsPgParse(t *testing.T) {
	for _, s := range statements {
		want, werr := pg.Parse(s)
		got, gerr := Parse(s)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("%q: pg.Parse says %v, Parse %v", s, werr, gerr)
		}
		if werr == nil && !proto.Equal(want, got) {
			t.Fatalf("%q: trees differ", s)
		}
	}
}

// FuzzSameBytes: whatever the text, pgparse packs what pg_query_go packs.
func FuzzSameBytes(f *testing.F) {
	for _, s := range statements {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			return // a C string ends there, for both
		}
		sameBytes(t, s)
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

// TestDecodeGenCurrent: decode_gen.go is what internal/pggen writes for the
// pg_query_go in go.mod (run `go generate ./internal/pgparse` after an upgrade).
func TestDecodeGenCurrent(t *testing.T) {
	want, err := pggen.Decode("pgparse")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("decode_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("decode_gen.go is stale: run go generate ./internal/pgparse")
	}
}

// sameTree fails unless Decode reads data as proto.Unmarshal does: both refuse it,
// or both give equal trees (unknown fields, which Decode drops, aside).
func sameTree(t *testing.T, data []byte) {
	t.Helper()
	want := &pg.ParseResult{}
	werr := proto.Unmarshal(data, want)
	got, gerr := Decode(data)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%x: proto.Unmarshal says %v, Decode %v", data, werr, gerr)
	}
	if werr != nil {
		return
	}
	dropUnknown(want.ProtoReflect())
	if !proto.Equal(want, got) {
		t.Fatalf("%x: trees differ:\n%v\n%v", data, want, got)
	}
}

func dropUnknown(m protoreflect.Message) {
	m.SetUnknown(nil)
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.Kind() != protoreflect.MessageKind:
		case fd.IsList():
			for i := range v.List().Len() {
				dropUnknown(v.List().Get(i).Message())
			}
		default:
			dropUnknown(v.Message())
		}
		return true
	})
}

// TestDecodeIsUnmarshal: every statement and DDL fixture, and what a tree of every
// message type with every field set packs to, decode as proto.Unmarshal decodes them;
// so do damaged bytes, deep nesting, invalid UTF-8 and fields of the wrong wire type.
func TestDecodeIsUnmarshal(t *testing.T) {
	texts := append([]string(nil), statements...)
	files, _ := filepath.Glob("../../fixtures/*/*.sql")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(data))
	}
	for _, s := range texts {
		data, err := ParseToProtobuf(s)
		if err != nil {
			continue
		}
		sameTree(t, data)
		for cut := range min(len(data), 64) {
			sameTree(t, data[:len(data)-cut])
		}
	}
	ms, err := pggen.Messages()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, m := range ms {
		path := pathTo(m.Desc)
		if path == nil {
			continue // not in a parse tree (ScanResult)
		}
		full := fill(m.Desc, 3)
		data, err := proto.Marshal(full)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(path) - 1; i >= 0; i-- {
			data = protowire.AppendBytes(protowire.AppendTag(nil, path[i], protowire.BytesType), data)
		}
		sameTree(t, data)
		checked++
	}
	if checked < 250 {
		t.Fatalf("only %d message types checked", checked)
	}
	wrongType := protowire.AppendTag(nil, 1, protowire.Fixed32Type) // version is a varint
	wrongType = protowire.AppendFixed32(wrongType, 7)
	badUTF8 := []byte{0x12, 0x0a, 0x0a, 0x08, 0xa2, 0x06, 0x05, 0x0a, 0x03, 0xff, 0xfe, 0x41}
	for _, data := range [][]byte{wrongType, badUTF8, {0x08}, {0x08, 0xff}, {0x12, 0x05}, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, deep(10001), deep(9990)} {
		sameTree(t, data)
	}
}

// pathTo returns the field numbers that lead from a ParseResult to a message of
// type md (empty for ParseResult itself), nil when none does.
func pathTo(md protoreflect.MessageDescriptor) []protowire.Number {
	root := (&pg.ParseResult{}).ProtoReflect().Descriptor()
	type step struct {
		md   protoreflect.MessageDescriptor
		path []protowire.Number
	}
	seen := map[protoreflect.FullName]bool{root.FullName(): true}
	queue := []step{{root, []protowire.Number{}}}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if st.md.FullName() == md.FullName() {
			return st.path
		}
		for i := range st.md.Fields().Len() {
			fd := st.md.Fields().Get(i)
			if fd.Kind() != protoreflect.MessageKind || seen[fd.Message().FullName()] {
				continue
			}
			seen[fd.Message().FullName()] = true
			queue = append(queue, step{fd.Message(), append(append([]protowire.Number(nil), st.path...), fd.Number())})
		}
	}
	return nil
}

// deep packs n nested Node→A_Indirection levels under a statement.
func deep(n int) []byte {
	var inner []byte
	for range n / 2 {
		ind := protowire.AppendTag(nil, 1, protowire.BytesType)
		ind = protowire.AppendBytes(ind, inner)
		node := protowire.AppendTag(nil, 18, protowire.BytesType) // Node.a_indirection
		inner = protowire.AppendBytes(node, ind)
	}
	stmt := protowire.AppendTag(nil, 1, protowire.BytesType)
	stmt = protowire.AppendBytes(stmt, inner)
	return protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), stmt)
}

// fill returns a message of type md with every field set to a value other than
// its zero (lists of two), to depth levels of messages.
func fill(md protoreflect.MessageDescriptor, depth int) proto.Message {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		panic(err)
	}
	r := mt.New()
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		if od := fd.ContainingOneof(); od != nil && od.Fields().Get(0) != fd {
			continue // one member of a oneof: the first
		}
		value := func() protoreflect.Value {
			switch fd.Kind() {
			case protoreflect.MessageKind:
				return protoreflect.ValueOfMessage(fill(fd.Message(), depth-1).ProtoReflect())
			case protoreflect.BoolKind:
				return protoreflect.ValueOfBool(true)
			case protoreflect.EnumKind:
				return protoreflect.ValueOfEnum(fd.Enum().Values().Get(fd.Enum().Values().Len() - 1).Number())
			case protoreflect.Int32Kind:
				return protoreflect.ValueOfInt32(-7)
			case protoreflect.Int64Kind:
				return protoreflect.ValueOfInt64(-1 << 40)
			case protoreflect.Uint32Kind:
				return protoreflect.ValueOfUint32(1 << 31)
			case protoreflect.Uint64Kind:
				return protoreflect.ValueOfUint64(1 << 63)
			case protoreflect.DoubleKind:
				return protoreflect.ValueOfFloat64(-2.5)
			case protoreflect.StringKind:
				return protoreflect.ValueOfString("ü" + string(fd.Name()))
			}
			panic(fd.Kind().String())
		}
		if fd.Kind() == protoreflect.MessageKind && depth == 0 {
			continue
		}
		if fd.IsList() {
			l := r.Mutable(fd).List()
			l.Append(value())
			l.Append(value())
			continue
		}
		r.Set(fd, value())
	}
	return r.Interface()
}

// FuzzDecode: whatever the bytes, Decode agrees with proto.Unmarshal.
func FuzzDecode(f *testing.F) {
	for _, s := range statements {
		if data, err := ParseToProtobuf(s); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameTree(t, data)
	})
}
