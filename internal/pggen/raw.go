package pggen

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Raw writes package pgparse's raw_gen.go: one function per node type of
// PostgreSQL's raw parse tree that builds pg_query_go's Go value straight from the
// C struct (read as memory through cgo's types, no cgo call per node), the way
// pg_query's own _out* functions build a protobuf-c message from it and proto.Unmarshal
// would decode that message once packed. It replaces building those messages in C
// and reading them in Go, which together cost as much as PostgreSQL's grammar.
//
// What each function reads is read from the C sources pg_query's generator wrote
// and dir (package pgparse's pgquery/, vendored from pg_query_go) holds:
// pg_query_outfuncs_defs.c (a WRITE_* macro per field of each node type),
// pg_query_outfuncs_conds.c (which node tag is which Node case) and
// pg_query_enum_defs.c (each C enum's proto value, which is not always the C value
// plus one). The few _out functions pg_query writes by hand are in handWritten.
// What each function writes is read from pg_query_go's Go types: a macro's proto
// field name is the descriptor's, which names the Go struct field.
//
// The values are those proto.Unmarshal gives for the packed messages: a scalar as
// it is, a string copied ("" for NULL), a message absent when NULL, a list's NULL
// cell an empty Node; and refused where proto.Unmarshal refuses (a panic Parse
// recovers): a string that is not UTF-8 (E'\x88' makes one), a tree nested deeper
// than its limit, counting a level for each message as it does (a Node, and the
// message it holds, are two).
func Raw(pkg, dir string) ([]byte, error) {
	ms, err := Messages()
	if err != nil {
		return nil, err
	}
	src, err := readRawSources(dir)
	if err != nil {
		return nil, err
	}
	g := &rawGen{byC: map[string]Message{}, src: src, enums: map[string]bool{}, slabs: map[string]string{}}
	for _, m := range ms {
		g.byC[strings.TrimPrefix(cName(m.Desc.FullName()), "PgQuery__")] = m
	}
	return g.write(pkg)
}

// A rawOp is one WRITE_* macro of an _out function: what it writes (outname, the
// proto field) from what (fldname, the C struct member), and for ENUM, SPECIFIC_NODE
// and SPECIFIC_NODE_PTR the type its third-from-last argument names.
type rawOp struct {
	macro, typename, outname, fldname string
}

// rawFunc is an _out function: the C struct it reads and its macros.
type rawFunc struct {
	cType string
	ops   []rawOp
}

// rawCase is a case of _outNode: the node tag, and the message (by protobuf-c name)
// and C struct its OUT_NODE builds, into the Node field fldname.
type rawCase struct {
	tag, message, cType, fldname string
}

// rawSources is what Raw reads in pg_query's C sources.
type rawSources struct {
	funcs map[string]rawFunc     // by the protobuf-c name of the message
	cases []rawCase              // in the order of _outNode's switch
	enums map[string][][2]string // by C type: its constants and their proto values
	order map[string]int         // an enum's position in pg_query_enum_defs.c
}

// handWritten is what the _out functions pg_query writes by hand in
// pg_query_outfuncs_protobuf.c do, in the vocabulary of the generated ones. Two
// pseudo-macros stand for what no WRITE_* does: LIST_ITEMS (the node is itself the
// List whose cells are the items) and A_CONST_VAL (the A_Const's val union, built
// by its node tag unless isnull). Raw refuses to run when that file has an _out
// function this does not describe.
var handWritten = map[string][]rawOp{
	"List":      {{macro: "LIST_ITEMS", outname: "items"}},
	"IntList":   {{macro: "LIST_ITEMS", outname: "items"}},
	"OidList":   {{macro: "LIST_ITEMS", outname: "items"}},
	"Integer":   {{macro: "WRITE_INT_FIELD", outname: "ival", fldname: "ival"}},
	"Float":     {{macro: "WRITE_STRING_FIELD", outname: "fval", fldname: "fval"}},
	"Boolean":   {{macro: "WRITE_BOOL_FIELD", outname: "boolval", fldname: "boolval"}},
	"String":    {{macro: "WRITE_STRING_FIELD", outname: "sval", fldname: "sval"}},
	"BitString": {{macro: "WRITE_STRING_FIELD", outname: "bsval", fldname: "bsval"}},
	"AConst": {
		{macro: "A_CONST_VAL", outname: "val"},
		{macro: "WRITE_BOOL_FIELD", outname: "isnull", fldname: "isnull"},
		{macro: "WRITE_INT_FIELD", outname: "location", fldname: "location"},
	},
}

var (
	reDefsFunc  = regexp.MustCompile(`(?m)^_out(\w+)\(OUT_TYPE\(\w+, (\w+)\) out, const (\w+) \*node\)\n\{\n((?:  WRITE_\w+\([^()]*\);\n)*)\}`)
	reDefsOp    = regexp.MustCompile(`  (WRITE_\w+)\(([^()]*)\);`)
	reCond      = regexp.MustCompile(`(?m)^case T_(\w+):\n  OUT_NODE\(\w+, (\w+), \w+, \w+, (\w+), (\w+)\);\n  break;$`)
	reEnumFunc  = regexp.MustCompile(`(?m)^_enumToInt(\w+)\((\w+) value\) \{\n  switch\(value\) \{\n((?:    case \w+: return -?\d+;\n)*)  \}`)
	reEnumCase  = regexp.MustCompile(`case (\w+): return (-?\d+);`)
	reHandOut   = regexp.MustCompile(`(?m)^_out(\w+)\(PgQuery__(\w+)\* out, const (\w+) \*node\)$`)
	reDefsStart = regexp.MustCompile(`(?m)^_out\w+\(`)
)

func readRawSources(dir string) (*rawSources, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, name))
		return string(b), err
	}
	defs, err := read("include/pg_query_outfuncs_defs.c")
	if err != nil {
		return nil, err
	}
	conds, err := read("include/pg_query_outfuncs_conds.c")
	if err != nil {
		return nil, err
	}
	enums, err := read("include/pg_query_enum_defs.c")
	if err != nil {
		return nil, err
	}
	hand, err := read("pg_query_outfuncs_protobuf.c")
	if err != nil {
		return nil, err
	}
	s := &rawSources{funcs: map[string]rawFunc{}, enums: map[string][][2]string{}, order: map[string]int{}}
	fs := reDefsFunc.FindAllStringSubmatch(defs, -1)
	if n := len(reDefsStart.FindAllString(defs, -1)); n != len(fs) || n == 0 {
		return nil, fmt.Errorf("pg_query_outfuncs_defs.c: %d _out functions, %d of them understood", n, len(fs))
	}
	for _, f := range fs {
		var ops []rawOp
		for _, o := range reDefsOp.FindAllStringSubmatch(f[4], -1) {
			args := strings.Split(o[2], ", ")
			op := rawOp{macro: o[1]}
			switch o[1] {
			case "WRITE_ENUM_FIELD":
				if len(args) != 4 {
					return nil, fmt.Errorf("_out%s: %s(%s)", f[1], o[1], o[2])
				}
				op.typename, args = args[0], args[1:]
			case "WRITE_SPECIFIC_NODE_FIELD", "WRITE_SPECIFIC_NODE_PTR_FIELD":
				if len(args) != 5 {
					return nil, fmt.Errorf("_out%s: %s(%s)", f[1], o[1], o[2])
				}
				op.typename, args = args[0], args[2:]
			}
			if len(args) != 3 {
				return nil, fmt.Errorf("_out%s: %s(%s)", f[1], o[1], o[2])
			}
			op.outname, op.fldname = args[0], args[2]
			ops = append(ops, op)
		}
		s.funcs[f[2]] = rawFunc{cType: f[3], ops: ops}
	}
	for _, c := range reCond.FindAllStringSubmatch(conds, -1) {
		s.cases = append(s.cases, rawCase{tag: c[1], message: c[2], cType: c[3], fldname: c[4]})
	}
	if n := strings.Count(conds, "case T_"); n != len(s.cases) || n == 0 {
		return nil, fmt.Errorf("pg_query_outfuncs_conds.c: %d cases, %d of them understood", n, len(s.cases))
	}
	for i, e := range reEnumFunc.FindAllStringSubmatch(enums, -1) {
		for _, c := range reEnumCase.FindAllStringSubmatch(e[3], -1) {
			s.enums[e[2]] = append(s.enums[e[2]], [2]string{c[1], c[2]})
		}
		s.order[e[2]] = i
	}
	if n := strings.Count(enums, "\n_enumToInt"); n != len(s.order) || n == 0 {
		return nil, fmt.Errorf("pg_query_enum_defs.c: %d _enumToInt functions, %d of them understood", n, len(s.order))
	}
	for _, h := range reHandOut.FindAllStringSubmatch(hand, -1) {
		if _, ok := handWritten[h[2]]; !ok {
			return nil, fmt.Errorf("pg_query_outfuncs_protobuf.c: _out%s is written by hand, and pggen does not know what it does", h[1])
		}
		if _, ok := s.funcs[h[2]]; ok {
			return nil, fmt.Errorf("_out%s is both written by hand and generated", h[1])
		}
		s.funcs[h[2]] = rawFunc{cType: h[3], ops: handWritten[h[2]]}
	}
	for name := range handWritten {
		if _, ok := s.funcs[name]; !ok {
			return nil, fmt.Errorf("pg_query_outfuncs_protobuf.c no longer writes _out%s by hand", name)
		}
	}
	return s, nil
}

// rawGen writes raw_gen.go, noting as it goes the enum functions and Arena slabs
// the functions it wrote use.
type rawGen struct {
	byC   map[string]Message // by protobuf-c name: "AConst"
	src   *rawSources
	enums map[string]bool   // the C enum types an ENUM macro reads
	slabs map[string]string // the Arena's slabs: name → type
	b     bytes.Buffer
}

func (g *rawGen) p(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

func (g *rawGen) write(pkg string) ([]byte, error) {
	g.p("// Code generated by internal/pggen (go generate); DO NOT EDIT.\n\n")
	g.p("package %s\n\n", pkg)
	g.p("/*\n#include \"postgres.h\"\n#include \"nodes/parsenodes.h\"\n*/\nimport \"C\"\n\n")
	g.p("import (\n\t\"unsafe\"\n\n\tpg %q\n)\n\n", "github.com/pganalyze/pg_query_go/v5")
	if err := g.top(); err != nil {
		return nil, err
	}
	if err := g.node(); err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(g.src.funcs)) {
		if err := g.message(name); err != nil {
			return nil, err
		}
	}
	for _, e := range slices.SortedFunc(maps.Keys(g.enums), func(a, b string) int { return g.src.order[a] - g.src.order[b] }) {
		g.p("// enum%s is pg_query's _enumToInt%s: the value a field of that type has in\n", e, e)
		g.p("// the proto, -1 for one it does not know.\n")
		g.p("func enum%s(v C.%s) int32 {\n\tswitch v {\n", e, e)
		for _, c := range g.src.enums[e] {
			g.p("\tcase C.%s:\n\t\treturn %s\n", c[0], c[1])
		}
		g.p("\t}\n\treturn -1\n}\n\n")
	}
	g.p("// slabs holds an Arena's memory: a slab for each message type (m), oneof wrapper\n")
	g.p("// type (w) and list element type (l) of the tree.\n")
	g.p("type slabs struct {\n")
	for _, prefix := range []string{"m", "w", "l"} {
		for _, name := range slices.Sorted(maps.Keys(g.slabs)) {
			if strings.HasPrefix(name, prefix) {
				g.p("\t%s slab[%s]\n", name, g.slabs[name])
			}
		}
	}
	g.p("}\n")
	return format.Source(g.b.Bytes())
}

// newValue writes "var x *pg.T" and its allocation, in the arena when there is one.
func (g *rawGen) newValue(x, slab, goType string) {
	g.slabs[slab] = "pg." + goType
	g.p("\tvar %s *pg.%s\n\tif a != nil {\n\t\t%s = alloc(&a.slabs.%s, a.gen)\n\t} else {\n\t\t%s = &pg.%s{}\n\t}\n", x, goType, x, slab, x, goType)
}

// top writes rawParseResult, what pg_query_nodes_to_protobuf does (pg_query_outfuncs_protobuf.c): the
// version, and a RawStmt for each cell of the List pg_query_raw_parse returns.
func (g *rawGen) top() error {
	pr, ok := g.byC["ParseResult"]
	if !ok {
		return fmt.Errorf("no ParseResult message")
	}
	rs, ok := g.byC["RawStmt"]
	if !ok {
		return fmt.Errorf("no RawStmt message")
	}
	g.p("// rawParseResult is pg_query_nodes_to_protobuf: the ParseResult of tree, the List of\n")
	g.p("// RawStmt pg_query_raw_parse returns (NULL for none), at depth 1.\n")
	g.p("func rawParseResult(tree unsafe.Pointer, a *Arena) *pg.%s {\n", pr.GoName)
	g.newValue("x", "m"+pr.GoName, pr.GoName)
	g.p("\tx.Version = C.PG_VERSION_NUM\n")
	g.p("\tif cs := cells((*C.List)(tree)); len(cs) > 0 {\n")
	g.slabs["l"+rs.GoName] = "*pg." + rs.GoName
	g.p("\t\tif a != nil {\n\t\t\tx.Stmts = carve(&a.slabs.l%s, a.gen, len(cs))\n\t\t} else {\n\t\t\tx.Stmts = make([]*pg.%s, len(cs))\n\t\t}\n", rs.GoName, rs.GoName)
	g.p("\t\tfor i, c := range cs {\n\t\t\tx.Stmts[i] = raw%s(c, 2, a)\n\t\t}\n\t}\n", rs.GoName)
	g.p("\treturn x\n}\n\n")
	return nil
}

// node writes rawNode, _outNode: the Node case of the node's tag, none for NULL or
// a tag pg_query does not know.
func (g *rawGen) node() error {
	nm, ok := g.byC["Node"]
	if !ok {
		return fmt.Errorf("no Node message")
	}
	byName := map[string]Field{}
	for _, f := range nm.Fields {
		byName[string(f.Desc.Name())] = f
	}
	g.p("// rawNode is the Node of the node at p (NULL: an empty Node) at depth.\n")
	g.p("func rawNode(p unsafe.Pointer, depth int, a *Arena) *pg.Node {\n")
	g.p("\tif depth > maxDepth {\n\t\tpanic(errDepth)\n\t}\n")
	g.newValue("x", "mNode", "Node")
	g.p("\tif p == nil {\n\t\treturn x\n\t}\n")
	g.p("\tswitch *(*C.NodeTag)(p) {\n")
	for _, c := range g.src.cases {
		f, ok := byName[strings.TrimSuffix(c.fldname, "_")]
		if !ok || f.Oneof == "" {
			return fmt.Errorf("_outNode: T_%s: no Node field %s", c.tag, c.fldname)
		}
		m, ok := g.byC[c.message]
		if !ok || m.GoName != f.Elem {
			return fmt.Errorf("_outNode: T_%s: message %s is not Node.%s's", c.tag, c.message, f.GoName)
		}
		if fn, ok := g.src.funcs[c.message]; !ok || fn.cType != c.cType {
			return fmt.Errorf("_outNode: T_%s: no _out%s of a %s", c.tag, c.message, c.cType)
		}
		g.p("\tcase C.T_%s:\n", c.tag)
		g.newValue("w", "w"+f.Wrapper, f.Wrapper)
		g.p("\t\tw.%s = raw%s(p, depth+1, a)\n\t\tx.%s = w\n", f.GoName, m.GoName, f.Oneof)
	}
	g.p("\t}\n\treturn x\n}\n\n")
	return nil
}

// message writes the function that builds the message of protobuf-c name name
// from its C struct, _out<name>.
func (g *rawGen) message(name string) error {
	fn := g.src.funcs[name]
	m, ok := g.byC[name]
	if !ok {
		return fmt.Errorf("_out%s: no message %s in pg_query_go", name, name)
	}
	fields := map[string]int{}
	for i, f := range m.Fields {
		fields[string(f.Desc.Name())] = i
		if od := f.Desc.ContainingOneof(); od != nil {
			if _, ok := fields[string(od.Name())]; !ok {
				fields[string(od.Name())] = i
			}
		}
	}
	// In the order of the proto's fields, which is the order proto.Unmarshal meets
	// them in: when a tree is both too deep and has a string that is not UTF-8, the
	// same one is reported.
	ops := slices.Clone(fn.ops)
	for _, op := range ops {
		if _, ok := fields[op.outname]; !ok {
			return fmt.Errorf("_out%s: %s writes %s, which %s does not have", name, op.macro, op.outname, m.GoName)
		}
	}
	slices.SortStableFunc(ops, func(a, b rawOp) int { return fields[a.outname] - fields[b.outname] })

	g.p("// raw%s is _out%s: the %s built from the C %s at p, at depth.\n", m.GoName, name, m.GoName, fn.cType)
	g.p("func raw%s(p unsafe.Pointer, depth int, a *Arena) *pg.%s {\n", m.GoName, m.GoName)
	g.p("\tif depth > maxDepth {\n\t\tpanic(errDepth)\n\t}\n")
	g.newValue("x", "m"+m.GoName, m.GoName)
	if len(ops) > 0 {
		g.p("\tn := (*C.%s)(p)\n", fn.cType)
	}
	for _, op := range ops {
		f := m.Fields[fields[op.outname]]
		if err := g.field(m, f, op); err != nil {
			return fmt.Errorf("_out%s: %s(%s): %w", name, op.macro, op.outname, err)
		}
	}
	g.p("\treturn x\n}\n\n")
	return nil
}

// kinds is the proto kind each scalar macro writes into.
var kinds = map[string]protoreflect.Kind{
	"WRITE_INT_FIELD":    protoreflect.Int32Kind,
	"WRITE_UINT_FIELD":   protoreflect.Uint32Kind,
	"WRITE_UINT64_FIELD": protoreflect.Uint64Kind,
	"WRITE_LONG_FIELD":   protoreflect.Int64Kind,
	"WRITE_FLOAT_FIELD":  protoreflect.DoubleKind,
	"WRITE_BOOL_FIELD":   protoreflect.BoolKind,
	"WRITE_CHAR_FIELD":   protoreflect.StringKind,
	"WRITE_STRING_FIELD": protoreflect.StringKind,
	"WRITE_ENUM_FIELD":   protoreflect.EnumKind,
}

// field writes what op does to m's field f, read from the C struct n.
func (g *rawGen) field(m Message, f Field, op rawOp) error {
	fd := f.Desc
	c := "n." + cgoField(op.fldname)
	if k, ok := kinds[op.macro]; ok && (fd.Kind() != k || fd.IsList()) {
		return fmt.Errorf("field of kind %s", fd.Kind())
	}
	nodeList := func() error {
		if !fd.IsList() || f.Elem != "Node" {
			return fmt.Errorf("not a list of Node")
		}
		g.slabs["lNode"] = "*pg.Node"
		return nil
	}
	switch op.macro {
	case "WRITE_INT_FIELD", "WRITE_UINT_FIELD", "WRITE_UINT64_FIELD", "WRITE_LONG_FIELD", "WRITE_FLOAT_FIELD":
		g.p("\tx.%s = %s(%s)\n", f.GoName, f.GoType, c)
	case "WRITE_BOOL_FIELD":
		g.p("\tx.%s = bool(%s)\n", f.GoName, c)
	case "WRITE_CHAR_FIELD":
		g.p("\tif %s != 0 {\n\t\tx.%s = rawChar(%s)\n\t}\n", c, f.GoName, c)
	case "WRITE_STRING_FIELD":
		g.p("\tif %s != nil {\n\t\tx.%s = goString(%s)\n\t}\n", c, f.GoName, c)
	case "WRITE_ENUM_FIELD":
		if _, ok := g.src.enums[op.typename]; !ok {
			return fmt.Errorf("no _enumToInt%s", op.typename)
		}
		g.enums[op.typename] = true
		g.p("\tx.%s = %s(enum%s(C.%s(%s)))\n", f.GoName, f.GoType, op.typename, op.typename, c)
	case "WRITE_LIST_FIELD":
		if err := nodeList(); err != nil {
			return err
		}
		g.p("\tx.%s = rawNodes(%s, depth+1, a)\n", f.GoName, c)
	case "LIST_ITEMS":
		if err := nodeList(); err != nil {
			return err
		}
		g.p("\tx.%s = rawNodes(n, depth+1, a)\n", f.GoName)
	case "WRITE_BITMAPSET_FIELD":
		if !fd.IsList() || fd.Kind() != protoreflect.Uint64Kind {
			return fmt.Errorf("not a list of uint64")
		}
		g.p("\tx.%s = rawBitmapset(%s)\n", f.GoName, c)
	case "WRITE_NODE_PTR_FIELD":
		if fd.IsList() || f.Elem != "Node" {
			return fmt.Errorf("not a Node")
		}
		g.p("\tif %s != nil {\n\t\tx.%s = rawNode(unsafe.Pointer(%s), depth+1, a)\n\t}\n", c, f.GoName, c)
	case "WRITE_SPECIFIC_NODE_PTR_FIELD", "WRITE_SPECIFIC_NODE_FIELD":
		e, ok := g.byC[op.typename]
		if !ok || fd.IsList() || e.GoName != f.Elem {
			return fmt.Errorf("not a %s", op.typename)
		}
		if _, ok := g.src.funcs[op.typename]; !ok {
			return fmt.Errorf("no _out%s", op.typename)
		}
		if op.macro == "WRITE_SPECIFIC_NODE_FIELD" {
			g.p("\tx.%s = raw%s(unsafe.Pointer(&%s), depth+1, a)\n", f.GoName, e.GoName, c)
		} else {
			g.p("\tif %s != nil {\n\t\tx.%s = raw%s(unsafe.Pointer(%s), depth+1, a)\n\t}\n", c, f.GoName, e.GoName, c)
		}
	case "A_CONST_VAL":
		return g.aConstVal(m, f)
	default:
		return fmt.Errorf("unknown macro")
	}
	return nil
}

// aConstVal writes _outAConst's val: unless the constant is NULL, the member of
// the oneof whose message is the one _outNode builds for the tag of the node the
// val union holds (none for a tag no member has).
func (g *rawGen) aConstVal(m Message, f Field) error {
	if f.Oneof == "" {
		return fmt.Errorf("not a oneof")
	}
	g.p("\tif !n.isnull {\n\t\tv := unsafe.Pointer(&n.val)\n\t\tswitch *(*C.NodeTag)(v) {\n")
	for _, o := range m.Fields {
		if o.Oneof != f.Oneof {
			continue
		}
		tag := ""
		for _, c := range g.src.cases {
			if e := g.byC[c.message]; e.GoName == o.Elem {
				tag = c.tag
			}
		}
		if tag == "" {
			return fmt.Errorf("%s: no node tag builds a %s", o.GoName, o.Elem)
		}
		g.p("\t\tcase C.T_%s:\n", tag)
		g.newValue("w", "w"+o.Wrapper, o.Wrapper)
		g.p("\t\t\tw.%s = raw%s(v, depth+1, a)\n\t\t\tx.%s = w\n", o.GoName, o.Elem, f.Oneof)
	}
	g.p("\t\t}\n\t}\n")
	return nil
}

// cName is protobuf-c's C name of a message: each dotted part camel-cased (an
// underscore dropped and the letter after it raised), the parts joined by "__".
func cName(full protoreflect.FullName) string {
	parts := strings.Split(string(full), ".")
	for i, part := range parts {
		var b strings.Builder
		up := true
		for _, r := range part {
			switch {
			case r == '_':
				up = true
			case up:
				b.WriteString(strings.ToUpper(string(r)))
				up = false
			default:
				b.WriteRune(r)
			}
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "__")
}

// cgoField is the Go name cgo gives a C struct member: a Go keyword gets an underscore.
func cgoField(name string) string {
	if token.IsKeyword(name) {
		return "_" + name
	}
	return name
}
