package sqlallow

import (
	"bytes"
	"os"
	"slices"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/dwsdev/dws/internal/pggen"
)

// TestWalkGenCurrent: walk_gen.go is what internal/pggen writes for the
// pg_query_go in go.mod (run `go generate ./sqlallow` after an upgrade).
func TestWalkGenCurrent(t *testing.T) {
	want, err := pggen.Walk("sqlallow")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("walk_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("walk_gen.go is stale: run go generate ./sqlallow")
	}
}

// rangeChildren is what eachChild replaced: protoreflect's Range over the
// message-typed fields that are set, put in declaration order (a oneof where its
// first member is declared). Range itself promises no order, and protobuf-go
// swaps two fields at random per binary, so the reflective walk's order changed
// from build to build; the generated walk's does not. Bit i of skip is the i-th
// message-typed field in declaration order (a type with more than 64 has none).
func rangeChildren(m proto.Message, skip uint64) []proto.Message {
	bit := map[protoreflect.Name]int{}
	fds := m.ProtoReflect().Descriptor().Fields()
	for i := range fds.Len() {
		if fd := fds.Get(i); fd.Kind() == protoreflect.MessageKind {
			bit[fd.Name()] = len(bit)
		}
	}
	if len(bit) > 64 {
		skip = 0
	}
	type child struct {
		pos int
		m   proto.Message
	}
	var out []child
	m.ProtoReflect().Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.Kind() != protoreflect.MessageKind || skip&(1<<bit[fd.Name()]) != 0 {
			return true
		}
		pos := fd.Index()
		if od := fd.ContainingOneof(); od != nil {
			pos = od.Fields().Get(0).Index()
		}
		if fd.IsList() {
			for i := range v.List().Len() {
				out = append(out, child{pos, v.List().Get(i).Message().Interface()})
			}
			return true
		}
		out = append(out, child{pos, v.Message().Interface()})
		return true
	})
	slices.SortStableFunc(out, func(a, b child) int { return a.pos - b.pos })
	ms := make([]proto.Message, len(out))
	for i, c := range out {
		ms[i] = c.m
	}
	return ms
}

// TestEachChildIsRange: for every message of every tree in the corpora, the
// generated walk yields the same children in the same order as reflection, with
// and without skipped fields, and inner finds what the Node's oneof holds.
func TestEachChildIsRange(t *testing.T) {
	messages := 0
	kinds := map[protoreflect.FullName]bool{}
	var check func(m proto.Message)
	check = func(m proto.Message) {
		messages++
		kinds[m.ProtoReflect().Descriptor().FullName()] = true
		want := rangeChildren(m, 0)
		if n, ok := m.(*pg.Node); ok {
			r := n.ProtoReflect()
			fd := r.WhichOneof(r.Descriptor().Oneofs().Get(0))
			if fd == nil {
				if inner(n) != nil {
					t.Errorf("inner(%v) is not nil", n)
				}
			} else if got := inner(n); got != r.Get(fd).Message().Interface() {
				t.Errorf("inner(%v) = %v", n, got)
			}
		}
		for _, skip := range []uint64{0, 0b1011_0010_1101, ^uint64(0)} {
			want := rangeChildren(m, skip)
			var got []proto.Message
			eachChild(m, skip, func(e proto.Message) { got = append(got, e) })
			if len(got) != len(want) {
				t.Fatalf("%T skipping %b: %d children, Range has %d", m, skip, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%T skipping %b: child %d is %T, Range has %T", m, skip, i, got[i], want[i])
				}
			}
		}
		for _, e := range want {
			check(e)
		}
	}
	for _, s := range append(fullCorpus(), testDDL) {
		tree, err := pg.Parse(s)
		if err != nil {
			continue
		}
		check(tree)
	}
	if messages < 30000 {
		t.Fatalf("only %d messages: the corpus went missing", messages)
	}
	// Every type, every message-typed field set (each oneof member in turn).
	ms, err := pggen.Messages()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		for _, variant := range filled(t, m.Desc) {
			check(variant)
		}
	}
	if len(kinds) != len(ms) {
		t.Fatalf("%d of %d message types checked", len(kinds), len(ms))
	}
}

// filled returns messages of type md with every message-typed field set: a list
// gets two elements. A oneof gets one message per member.
func filled(t *testing.T, md protoreflect.MessageDescriptor) []proto.Message {
	t.Helper()
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		t.Fatal(err)
	}
	base := func() protoreflect.Message {
		r := mt.New()
		for i := range md.Fields().Len() {
			fd := md.Fields().Get(i)
			switch {
			case fd.Kind() != protoreflect.MessageKind || fd.ContainingOneof() != nil:
			case fd.IsList():
				l := r.Mutable(fd).List()
				l.Append(l.NewElement())
				l.Append(l.NewElement())
			default:
				r.Set(fd, r.NewField(fd))
			}
		}
		return r
	}
	out := []proto.Message{base().Interface()}
	for i := range md.Oneofs().Len() {
		fields := md.Oneofs().Get(i).Fields()
		for j := range fields.Len() {
			if fd := fields.Get(j); fd.Kind() == protoreflect.MessageKind {
				r := base()
				r.Set(fd, r.NewField(fd))
				out = append(out, r.Interface())
			}
		}
	}
	return out
}
