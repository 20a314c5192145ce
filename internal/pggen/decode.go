package pggen

import (
	"bytes"
	"fmt"
	"go/format"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Decode writes package pgparse's decode_gen.go: one decoder per message type
// that reads protobuf wire bytes into pg_query_go's Go types as proto.Unmarshal
// does (the last scalar wins, a repeated message appends, a message or oneof
// member seen twice is merged, a field of another wire type than its own is
// skipped as unknown, a string must be UTF-8, nesting is bounded), without its
// reflective machinery. Unknown fields are dropped rather than kept.
func Decode(pkg string) ([]byte, error) {
	ms, b, p, err := file(pkg, "math", "", "google.golang.org/protobuf/encoding/protowire")
	if err != nil {
		return nil, err
	}
	p("var _ = math.Float64frombits\n\n")
	for _, m := range ms {
		p("func decode%s(b []byte, x *pg.%s, depth int) error {\n", m.GoName, m.GoName)
		p("\tif depth > maxDepth {\n\t\treturn errDepth\n\t}\n")
		p("\tfor len(b) > 0 {\n")
		p("\t\tnum, typ, n := protowire.ConsumeTag(b)\n\t\tif n < 0 || num > protowire.MaxValidNumber {\n\t\t\treturn errWire\n\t\t}\n\t\tb = b[n:]\n")
		p("\t\tswitch num {\n")
		for _, f := range m.Fields {
			code, err := decodeField(f)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", m.GoName, f.Desc.Name(), err)
			}
			p("\t\tcase %d:\n%s", f.Desc.Number(), code)
		}
		p("\t\t}\n")
		p("\t\tn = protowire.ConsumeFieldValue(num, typ, b)\n\t\tif n < 0 {\n\t\t\treturn errWire\n\t\t}\n\t\tb = b[n:]\n")
		p("\t}\n\treturn nil\n}\n\n")
	}
	return format.Source(b.Bytes())
}

func decodeField(f Field) (string, error) {
	fd := f.Desc
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	varint := func(conv string) {
		p("\t\t\tif typ == protowire.VarintType {\n")
		p("\t\t\t\tv, n := protowire.ConsumeVarint(b)\n\t\t\t\tif n < 0 {\n\t\t\t\t\treturn errWire\n\t\t\t\t}\n\t\t\t\tb = b[n:]\n")
		p("\t\t\t\tx.%s = %s\n\t\t\t\tcontinue\n\t\t\t}\n", f.GoName, conv)
	}
	bytesField := func(body string) {
		p("\t\t\tif typ == protowire.BytesType {\n")
		p("\t\t\t\tv, n := protowire.ConsumeBytes(b)\n\t\t\t\tif n < 0 {\n\t\t\t\t\treturn errWire\n\t\t\t\t}\n\t\t\t\tb = b[n:]\n")
		p("%s\t\t\t\tcontinue\n\t\t\t}\n", body)
	}
	switch {
	case f.Oneof != "":
		if fd.Kind() != protoreflect.MessageKind {
			return "", fmt.Errorf("a oneof member of kind %s", fd.Kind())
		}
		bytesField(fmt.Sprintf("\t\t\t\tw, ok := x.%s.(*pg.%s)\n\t\t\t\tif !ok || w.%s == nil {\n\t\t\t\t\tw = &pg.%s{%s: &pg.%s{}}\n\t\t\t\t\tx.%s = w\n\t\t\t\t}\n"+
			"\t\t\t\tif err := decode%s(v, w.%s, depth+1); err != nil {\n\t\t\t\t\treturn err\n\t\t\t\t}\n",
			f.Oneof, f.Wrapper, f.GoName, f.Wrapper, f.GoName, f.Elem, f.Oneof, f.Elem, f.GoName))
	case fd.IsList() && fd.Kind() == protoreflect.MessageKind:
		bytesField(fmt.Sprintf("\t\t\t\te := &pg.%s{}\n\t\t\t\tif err := decode%s(v, e, depth+1); err != nil {\n\t\t\t\t\treturn err\n\t\t\t\t}\n\t\t\t\tx.%s = append(x.%s, e)\n",
			f.Elem, f.Elem, f.GoName, f.GoName))
	case fd.IsList() && fd.Kind() == protoreflect.Uint64Kind:
		p("\t\t\tif typ == protowire.VarintType {\n")
		p("\t\t\t\tv, n := protowire.ConsumeVarint(b)\n\t\t\t\tif n < 0 {\n\t\t\t\t\treturn errWire\n\t\t\t\t}\n\t\t\t\tb = b[n:]\n")
		p("\t\t\t\tx.%s = append(x.%s, v)\n\t\t\t\tcontinue\n\t\t\t}\n", f.GoName, f.GoName)
		bytesField(fmt.Sprintf("\t\t\t\tfor len(v) > 0 {\n\t\t\t\t\te, n := protowire.ConsumeVarint(v)\n\t\t\t\t\tif n < 0 {\n\t\t\t\t\t\treturn errWire\n\t\t\t\t\t}\n\t\t\t\t\tv = v[n:]\n\t\t\t\t\tx.%s = append(x.%s, e)\n\t\t\t\t}\n",
			f.GoName, f.GoName))
	case fd.IsList():
		return "", fmt.Errorf("a repeated field of kind %s", fd.Kind())
	case fd.Kind() == protoreflect.MessageKind:
		bytesField(fmt.Sprintf("\t\t\t\tif x.%s == nil {\n\t\t\t\t\tx.%s = &pg.%s{}\n\t\t\t\t}\n\t\t\t\tif err := decode%s(v, x.%s, depth+1); err != nil {\n\t\t\t\t\treturn err\n\t\t\t\t}\n",
			f.GoName, f.GoName, f.Elem, f.Elem, f.GoName))
	case fd.Kind() == protoreflect.StringKind:
		bytesField(fmt.Sprintf("\t\t\t\tif !utf8Valid(v) {\n\t\t\t\t\treturn errUTF8\n\t\t\t\t}\n\t\t\t\tx.%s = string(v)\n", f.GoName))
	case fd.Kind() == protoreflect.BoolKind:
		varint("v != 0")
	case fd.Kind() == protoreflect.EnumKind:
		varint(fmt.Sprintf("%s(int32(v))", f.GoType))
	case fd.Kind() == protoreflect.Int32Kind:
		varint("int32(v)")
	case fd.Kind() == protoreflect.Int64Kind:
		varint("int64(v)")
	case fd.Kind() == protoreflect.Uint32Kind:
		varint("uint32(v)")
	case fd.Kind() == protoreflect.Uint64Kind:
		varint("v")
	case fd.Kind() == protoreflect.DoubleKind:
		p("\t\t\tif typ == protowire.Fixed64Type {\n")
		p("\t\t\t\tv, n := protowire.ConsumeFixed64(b)\n\t\t\t\tif n < 0 {\n\t\t\t\t\treturn errWire\n\t\t\t\t}\n\t\t\t\tb = b[n:]\n")
		p("\t\t\t\tx.%s = math.Float64frombits(v)\n\t\t\t\tcontinue\n\t\t\t}\n", f.GoName)
	default:
		return "", fmt.Errorf("a field of kind %s", fd.Kind())
	}
	return b.String(), nil
}
