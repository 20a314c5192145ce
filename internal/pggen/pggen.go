// Package pggen describes the Go types of pg_query's parse tree for the code
// generators that replace reflection over it: the message types, their fields in
// declaration order, and for each field the Go names the generated code must use
// (struct field, oneof wrapper type). Everything is read from pg_query_go itself
// (its descriptors and its Go types), so regenerating after an upgrade follows it.
package pggen

import (
	"fmt"
	"reflect"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// Message is one message type of the parse tree.
type Message struct {
	GoName string // the Go type's name in package pg_query: "SelectStmt"
	Desc   protoreflect.MessageDescriptor
	Fields []Field // in declaration order
}

// Field is one field of a message.
type Field struct {
	Desc   protoreflect.FieldDescriptor
	GoName string // the struct field (for a oneof member: the wrapper's field)
	// Oneof is the struct field holding the oneof interface ("Node"), and Wrapper
	// the member's wrapper type ("Node_SelectStmt"), for oneof members only.
	Oneof, Wrapper string
	// Elem is the Go type name of a message-typed field's message.
	Elem string
	// GoType is the Go type of the struct field as written in the generated code
	// ("int32", "pg_query.SetOperation", "[]*pg_query.Node").
	GoType string
}

// Messages returns every message type of pg_query.proto, sorted by name.
func Messages() ([]Message, error) {
	fd := pg.File_pg_query_proto
	var out []Message
	for i := range fd.Messages().Len() {
		md := fd.Messages().Get(i)
		if md.Messages().Len() > 0 {
			return nil, fmt.Errorf("%s: nested messages are not supported", md.FullName())
		}
		m, err := message(md)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func goType(md protoreflect.MessageDescriptor) (reflect.Type, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		return nil, err
	}
	return reflect.TypeOf(mt.Zero().Interface()).Elem(), nil
}

func message(md protoreflect.MessageDescriptor) (Message, error) {
	t, err := goType(md)
	if err != nil {
		return Message{}, err
	}
	m := Message{GoName: t.Name(), Desc: md}
	byName := map[string]reflect.StructField{}
	oneofs := map[string]string{}
	for i := range t.NumField() {
		sf := t.Field(i)
		if tag := sf.Tag.Get("protobuf"); tag != "" {
			byName[tagName(tag)] = sf
		}
		if o := sf.Tag.Get("protobuf_oneof"); o != "" {
			oneofs[o] = sf.Name
		}
	}
	for i := range md.Fields().Len() {
		fd := md.Fields().Get(i)
		f := Field{Desc: fd}
		if fd.Kind() == protoreflect.MessageKind {
			et, err := goType(fd.Message())
			if err != nil {
				return Message{}, err
			}
			f.Elem = et.Name()
		}
		if od := fd.ContainingOneof(); od != nil {
			f.Oneof = oneofs[string(od.Name())]
			w, name, err := wrapper(md, fd)
			if err != nil {
				return Message{}, err
			}
			f.Wrapper, f.GoName = w.Name(), name
			f.GoType = qualified(w.Field(0).Type)
		} else {
			sf, ok := byName[string(fd.Name())]
			if !ok {
				return Message{}, fmt.Errorf("%s: no struct field for %s", md.FullName(), fd.Name())
			}
			f.GoName = sf.Name
			f.GoType = qualified(sf.Type)
		}
		if f.Oneof == "" && fd.ContainingOneof() != nil {
			return Message{}, fmt.Errorf("%s: no struct field for oneof %s", md.FullName(), fd.ContainingOneof().Name())
		}
		m.Fields = append(m.Fields, f)
	}
	return m, nil
}

// wrapper finds a oneof member's wrapper type by setting the member through
// reflection and looking at what the Go struct then holds.
func wrapper(md protoreflect.MessageDescriptor, fd protoreflect.FieldDescriptor) (reflect.Type, string, error) {
	mt, err := protoregistry.GlobalTypes.FindMessageByName(md.FullName())
	if err != nil {
		return nil, "", err
	}
	r := mt.New()
	r.Set(fd, r.NewField(fd))
	v := reflect.ValueOf(r.Interface()).Elem()
	for i := range v.NumField() {
		if v.Type().Field(i).Tag.Get("protobuf_oneof") == string(fd.ContainingOneof().Name()) {
			w := v.Field(i).Elem().Type().Elem()
			return w, w.Field(0).Name, nil
		}
	}
	return nil, "", fmt.Errorf("%s.%s: wrapper not found", md.FullName(), fd.Name())
}

func tagName(tag string) string {
	for _, part := range strings.Split(tag, ",") {
		if name, ok := strings.CutPrefix(part, "name="); ok {
			return name
		}
	}
	return ""
}

// qualified writes t as generated code names it, with pg_query types qualified.
func qualified(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + qualified(t.Elem())
	case reflect.Slice:
		return "[]" + qualified(t.Elem())
	}
	if t.PkgPath() == reflect.TypeOf(pg.Node{}).PkgPath() {
		return "pg." + t.Name()
	}
	return t.String()
}
