package pggen

import (
	"bytes"
	"fmt"
	"go/format"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Walk writes package sqlallow's walk_gen.go from pg_query_go's types. See walk.
func Walk(pkg string) ([]byte, error) {
	ms, err := Messages()
	if err != nil {
		return nil, err
	}
	return walk(pkg, ms)
}

// maxFields is how many message-typed fields a type may have for a handler to take
// some of them: one bit each in a fields set. Only Node, whose oneof has a member per
// node type, has more; it is unwrapped, never taken from.
const maxFields = 64

// walk writes inner, which returns the message a Node holds; eachChild, which calls
// a function with every message-typed field of a message that is set, in declaration
// order (the order protoreflect's Range walks), except the fields a skip set names;
// and for every type T with message-typed fields the constants naming them, of type
// fields[T] (fT_Field), from which a handler builds the set of fields it takes
// itself. A field pg_query_go adds is in no handler's set, so eachChild walks it; a
// field it removes or renames is a constant that no longer exists, so a handler that
// took it does not compile. Both replace reflection: a type switch costs nothing
// next to Range, which was a seventh of a run's CPU.
func walk(pkg string, ms []Message) ([]byte, error) {
	b, p := header(pkg, "google.golang.org/protobuf/proto")

	p("// fields is a set of message-typed fields of T, one bit each, named by the\n")
	p("// constants fT_Field: the fields a handler takes itself, which eachChild skips.\n")
	p("type fields[T proto.Message] uint64\n\n")

	for _, m := range ms {
		fs := messageFields(m)
		if len(fs) == 0 || len(fs) > maxFields {
			continue
		}
		p("// Fields of %s.\nconst (\n", m.GoName)
		for i, f := range fs {
			if i == 0 {
				p("\tf%s_%s fields[*pg.%s] = 1 << iota\n", m.GoName, f.GoName, m.GoName)
				continue
			}
			p("\tf%s_%s\n", m.GoName, f.GoName)
		}
		p(")\n\n")
	}

	p("// inner returns the message a Node holds, nil when it holds none.\n")
	p("func inner(n *pg.Node) proto.Message {\n\tif n == nil {\n\t\treturn nil\n\t}\n")
	p("\tswitch x := n.Node.(type) {\n")
	for _, m := range ms {
		if m.GoName != "Node" {
			continue
		}
		for _, f := range m.Fields {
			p("\tcase *pg.%s:\n\t\tif x.%s != nil {\n\t\t\treturn x.%s\n\t\t}\n", f.Wrapper, f.GoName, f.GoName)
		}
	}
	p("\t}\n\treturn nil\n}\n\n")

	p("// eachChild calls f with every message-typed field of m that is set, in\n")
	p("// declaration order, except the fields in skip (a fields set of m's type).\n")
	p("func eachChild(m proto.Message, skip uint64, f func(proto.Message)) {\n")
	p("\tswitch x := m.(type) {\n")
	for _, m := range ms {
		fs := messageFields(m)
		bit := map[string]int{}
		if len(fs) <= maxFields {
			for i, f := range fs {
				bit[string(f.Desc.Name())] = i
			}
		}
		// unless is the condition that the field is not skipped ("" for a type whose
		// fields cannot be skipped).
		unless := func(f Field) string {
			i, ok := bit[string(f.Desc.Name())]
			if !ok {
				return ""
			}
			return fmt.Sprintf(" && skip&(1<<%d) == 0", i)
		}
		var body bytes.Buffer
		q := func(format string, args ...any) { fmt.Fprintf(&body, format, args...) }
		seen := map[string]bool{}
		for _, f := range m.Fields {
			if f.Oneof != "" {
				if seen[f.Oneof] {
					continue
				}
				seen[f.Oneof] = true
				var cases bytes.Buffer
				for _, g := range m.Fields {
					if g.Oneof != f.Oneof || g.Desc.Kind() != protoreflect.MessageKind {
						continue
					}
					fmt.Fprintf(&cases, "\t\tcase *pg.%s:\n\t\t\tif o.%s != nil%s {\n\t\t\t\tf(o.%s)\n\t\t\t}\n",
						g.Wrapper, g.GoName, unless(g), g.GoName)
				}
				if cases.Len() > 0 {
					q("\t\tswitch o := x.%s.(type) {\n%s\t\t}\n", f.Oneof, cases.String())
				}
				continue
			}
			if f.Desc.Kind() != protoreflect.MessageKind {
				continue
			}
			if f.Desc.IsList() {
				q("\t\tif len(x.%s) > 0%s {\n\t\t\tfor _, e := range x.%s {\n\t\t\t\tf(e)\n\t\t\t}\n\t\t}\n",
					f.GoName, unless(f), f.GoName)
				continue
			}
			q("\t\tif x.%s != nil%s {\n\t\t\tf(x.%s)\n\t\t}\n", f.GoName, unless(f), f.GoName)
		}
		if body.Len() == 0 {
			continue
		}
		p("\tcase *pg.%s:\n%s", m.GoName, body.String())
	}
	p("\t}\n}\n")
	return format.Source(b.Bytes())
}

// messageFields returns the message-typed fields of m, in declaration order.
func messageFields(m Message) []Field {
	var out []Field
	for _, f := range m.Fields {
		if f.Desc.Kind() == protoreflect.MessageKind {
			out = append(out, f)
		}
	}
	return out
}
