package pggen

import (
	"bytes"
	"fmt"
	"go/format"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Walk writes package sqlallow's walk_gen.go: inner, which returns the message a
// Node holds, and eachChild, which calls a function with every message-typed
// field of a message that is set, in declaration order (the order protoreflect's
// Range walks), skipping fields by name. Both replace reflection: a type switch costs
// nothing next to Range, which was a seventh of a run's CPU.
func Walk(pkg string) ([]byte, error) {
	ms, b, p, err := file(pkg, "google.golang.org/protobuf/proto")
	if err != nil {
		return nil, err
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
	p("// declaration order, except the fields named in skip.\n")
	p("func eachChild(m proto.Message, skip []string, f func(proto.Message)) {\n")
	p("\tswitch x := m.(type) {\n")
	for _, m := range ms {
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
					fmt.Fprintf(&cases, "\t\tcase *pg.%s:\n\t\t\tif o.%s != nil && !skipped(skip, %q) {\n\t\t\t\tf(o.%s)\n\t\t\t}\n",
						g.Wrapper, g.GoName, g.Desc.Name(), g.GoName)
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
				q("\t\tif len(x.%s) > 0 && !skipped(skip, %q) {\n\t\t\tfor _, e := range x.%s {\n\t\t\t\tf(e)\n\t\t\t}\n\t\t}\n",
					f.GoName, f.Desc.Name(), f.GoName)
				continue
			}
			q("\t\tif x.%s != nil && !skipped(skip, %q) {\n\t\t\tf(x.%s)\n\t\t}\n", f.GoName, f.Desc.Name(), f.GoName)
		}
		if body.Len() == 0 {
			continue
		}
		p("\tcase *pg.%s:\n%s", m.GoName, body.String())
	}
	p("\t}\n}\n")
	return format.Source(b.Bytes())
}
