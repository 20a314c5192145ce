package sqlallow

import (
	"fmt"
	"slices"
	"sort"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// PostgreSQL reads a field selection (value).name as the call name(value) unless
// value is a row that has a field called name, and t.name as name(t) unless the
// FROM item t has a column called name. Neither shows as a function call in the
// parse tree. This file tells the cases apart as far as dws can know the value's
// type, and hands every call to the function rules. When it cannot tell a field
// from a call of a function that is no built-in, it refuses (fail closed).

// spelling is how a statement writes a call that is not name(…).
type spelling uint8

const (
	asCall      spelling = iota // name(…)
	asAttribute                 // (value).name
	asColumn                    // t.name
)

// suffix says, at the end of a message, how PostgreSQL reads the spelling.
func (sp spelling) suffix(name string) string {
	switch sp {
	case asAttribute:
		return fmt.Sprintf(" (PostgreSQL reads (value).%s as %s(value))", name, name)
	case asColumn:
		return fmt.Sprintf(" (PostgreSQL reads t.%s as %s(t) when t has no such column)", name, name)
	}
	return ""
}

type shapeKind uint8

const (
	shapeUnknown  shapeKind = iota // may or may not be a row
	shapeScalar                    // certainly not a row: a field selection is a call
	shapeRow                       // a row with exactly fields
	shapeTableRow                  // a FROM item's row whose fields are not certain, or a column of a table dws does not know
)

// shape is what dws knows of a value's type, for field selection.
type shape struct {
	kind   shapeKind
	fields []string
}

// indirection checks (value).a.b[1].c: each field name is a field or a call.
func (c *checker) indirection(ind *pg.A_Indirection, s *scope) {
	rest(c, ind, s, 0)
	c.replay(ind, s, c.fieldLocations(ind).locs)
}

// replay follows the indirection from its value, checking each field selection
// when locs is given, and returns the shape of the result (kept per node).
func (c *checker) replay(ind *pg.A_Indirection, s *scope, locs []int) shape {
	if sh, ok := c.shapes[ind]; ok && locs == nil {
		return sh
	}
	sh := c.shapeOf(ind.Arg, s)
	for i, n := range ind.Indirection {
		str := n.GetString_()
		if str == nil {
			sh = shape{} // after a subscript: an element of unknown type
			continue
		}
		if ti, ok := templateIn(str.Sval, c.ph); ok {
			if locs != nil {
				c.setRole(ti, "function")
			}
			sh = shape{}
			continue
		}
		if locs != nil {
			c.selectField(sh, str.Sval, locs[i])
		}
		sh = c.nextShape(sh, str.Sval)
	}
	if c.shapes == nil {
		c.shapes = map[*pg.A_Indirection]shape{}
	}
	c.shapes[ind] = sh
	return sh
}

// selectField checks one field selection on a value of shape sh.
func (c *checker) selectField(sh shape, name string, loc int) {
	length := tokenLen(c.src, loc)
	switch {
	case sh.kind == shapeRow && slices.Contains(sh.fields, name):
	case sh.kind == shapeTableRow:
		c.maybeCall(name, loc, length, asAttribute, false)
	case sh.kind == shapeUnknown && !c.knownFunction(name, 1):
		c.add(Nondeterministic, loc, length, fmt.Sprintf("dws cannot tell whether (value).%s reads a field or calls %s(value), which is not a PostgreSQL built-in and may be volatile: give the value's type in sql.from_ddl", name, name))
	default:
		c.checkCall("", name, name, 1, loc, length, asAttribute)
	}
}

// nextShape is the shape of (value).name for a value of shape sh: a field's type
// is not known; a call's is its result's.
func (c *checker) nextShape(sh shape, name string) shape {
	switch {
	case sh.kind == shapeRow && slices.Contains(sh.fields, name), sh.kind == shapeTableRow:
		return shape{}
	case sh.kind == shapeUnknown && !c.knownFunction(name, 1):
		return shape{}
	}
	return callShape("", name, 1)
}

// itemField checks t.name, where t is a FROM item: a column, or the call name(t).
// It reports whether it is certainly a call. A table's column that the DDL does
// not have, and that names no function dws knows, is left to the column check
// ("does not exist").
func (c *checker) itemField(it *item, name string, loc int) bool {
	if it.rel != nil && it.rel.tpl {
		return false
	}
	switch it.has(name) {
	case hasNo:
		if it.rel != nil && !c.knownFunction(name, 1) {
			return false
		}
		c.checkCall("", name, name, 1, loc, tokenLen(c.src, loc), asColumn)
		return true
	case hasMaybe:
		c.maybeCall(name, loc, tokenLen(c.src, loc), asColumn, true)
	}
	return false
}

// maybeCall checks name selected from a value whose fields dws does not know:
// name is taken for a field (a column), unless it is denied or a built-in that
// could take the value: any one-argument built-in, or when the value is certainly
// a row (rowOnly: t.name, where PostgreSQL requires t to be a FROM item) one that
// takes a row.
func (c *checker) maybeCall(name string, loc, length int, via spelling, rowOnly bool) {
	if builtinDenied("", name) != "" || c.pol.denied("", name) {
		c.checkCall("", name, name, 1, loc, length, via)
		return
	}
	for b := range catalog().overloads(name, 1) {
		switch b.args[0] {
		case "record", "anyelement", "any", "anycompatible", "anynonarray", "anycompatiblenonarray":
		default:
			if rowOnly {
				continue
			}
		}
		c.checkCall("", name, name, 1, loc, length, via)
		return
	}
}

// knownFunction reports whether name(…) with nargs arguments is a built-in, a
// function of the DDL, or denied: something dws can judge as a call.
func (c *checker) knownFunction(name string, nargs int) bool {
	if catalog().has(name, nargs) || builtinDenied("", name) != "" || c.pol.denied("", name) {
		return true
	}
	_, ok := c.pol.ddlFunction("", name, nargs)
	return ok
}

// callShape is the shape of what the built-in schema.name returns.
func callShape(schema, name string, nargs int) shape {
	if schema != "" && schema != "pg_catalog" {
		return shape{}
	}
	var fields []string
	rows, scalars, n := 0, 0, 0
	for b := range catalog().overloads(name, nargs) {
		n++
		t, ok := catalog().types[b.result]
		switch {
		case b.result == "record" && len(b.out) > 0:
			rows++
			if rows == 1 {
				fields = b.out
			} else {
				fields = slices.DeleteFunc(slices.Clone(fields), func(f string) bool { return !slices.Contains(b.out, f) })
			}
		case ok && t.typtype != 'c' && t.typtype != 'p':
			scalars++
		}
	}
	switch {
	case n == 0:
		return shape{}
	case scalars == n:
		return shape{kind: shapeScalar}
	case rows == n:
		return shape{kind: shapeRow, fields: fields}
	}
	return shape{}
}

// shapeOf tells what dws knows of the type of the value n.
func (c *checker) shapeOf(n *pg.Node, s *scope) shape {
	switch x := inner(n).(type) {
	case *pg.A_Const, *pg.ParamRef, *pg.A_Expr, *pg.BoolExpr, *pg.NullTest, *pg.BooleanTest,
		*pg.A_ArrayExpr, *pg.SQLValueFunction, *pg.CollateClause, *pg.XmlExpr, *pg.XmlSerialize:
		return shape{kind: shapeScalar}
	case *pg.SubLink:
		if x.SubLinkType == pg.SubLinkType_EXPR_SUBLINK {
			return shape{}
		}
		return shape{kind: shapeScalar}
	case *pg.TypeCast:
		return c.typeShape(typeRefOf(x.TypeName))
	case *pg.RowExpr:
		fields := make([]string, len(x.Args))
		for i := range fields {
			fields[i] = fmt.Sprintf("f%d", i+1)
		}
		return shape{kind: shapeRow, fields: fields}
	case *pg.FuncCall:
		schema, name := typeName(stringList(x.Funcname))
		return callShape(schema, name, len(x.Args))
	case *pg.ColumnRef:
		return c.columnShape(x, s)
	case *pg.A_Indirection:
		return c.replay(x, s, nil)
	}
	return shape{}
}

// typeShape is the shape of a value of the type ref.
func (c *checker) typeShape(ref typeRef) shape {
	if ref.array {
		return shape{kind: shapeScalar}
	}
	for range 8 {
		if t, ok := catalog().builtinType(ref.schema, ref.name); ok {
			if t.typtype == 'c' || t.typtype == 'p' {
				return shape{}
			}
			return shape{kind: shapeScalar}
		}
		d, ok := c.pol.ddlType(ref)
		switch {
		case !ok:
			return shape{}
		case d.base != nil:
			ref = *d.base
			if ref.array {
				return shape{kind: shapeScalar}
			}
		case d.fields != nil:
			return shape{kind: shapeRow, fields: d.fields}
		default:
			return shape{kind: shapeScalar} // an enum
		}
	}
	return shape{}
}

// columnShape is the shape of a column reference: a column (its DDL type), or a
// whole row of a FROM item.
func (c *checker) columnShape(cr *pg.ColumnRef, s *scope) shape {
	if s == nil {
		return shape{}
	}
	names := stringList(cr.Fields)
	if len(names) != len(cr.Fields) || len(names) == 0 || len(names) > 2 {
		return shape{}
	}
	if t, ok := c.columnType(cr, s); ok {
		return c.typeShape(t)
	}
	if len(names) == 1 {
		// PostgreSQL reads a single name as a column when any FROM item has one,
		// and only then as an item's whole row. A table whose columns dws does not
		// know may have it: then the item's fields are not certain (an alias can be
		// chosen to equal a column's name).
		maybeColumn := false
		for sc := s; sc != nil; sc = sc.parent {
			if sc.lateralOnly {
				continue
			}
			for _, it := range sc.items {
				if it.children != nil {
					continue
				}
				switch it.has(names[0]) {
				case hasYes:
					return shape{} // a column of unknown type
				case hasMaybe:
					maybeColumn = true
				}
			}
		}
		if it := s.lookup(names[0]); it != nil {
			switch {
			case it.children != nil:
				return shape{}
			case it.known && !maybeColumn:
				return shape{kind: shapeRow, fields: it.cols}
			default:
				return shape{kind: shapeTableRow}
			}
		}
	}
	return shape{}
}

// fieldSpan is where the parts of an indirection are written.
type fieldSpan struct {
	locs       []int // where each field name is written
	start, end int   // the first byte of the value, the byte after the last field
}

// fieldLocations finds where each field name of an indirection is written (the
// parse tree keeps no location for them) and where the indirection ends. The
// fields follow the value: they start at the first "." after a closing bracket, or
// "[" that is no array type's "[]", after the last place inside the value. Results
// are kept per node: a chain of n selections costs O(n), not O(n²).
func (c *checker) fieldLocations(ind *pg.A_Indirection) fieldSpan {
	if sp, ok := c.spans[ind]; ok {
		return sp
	}
	start, after := c.extent(ind.Arg)
	sp := fieldSpan{locs: make([]int, len(ind.Indirection)), start: start, end: after}
	for i := range sp.locs {
		sp.locs[i] = max(start, 0)
	}
	if c.spans == nil {
		c.spans = map[*pg.A_Indirection]fieldSpan{}
	}
	c.spans[ind] = sp
	if after < 0 {
		return sp
	}
	toks := c.tokens()
	i := sort.Search(len(toks), func(i int) bool { return int(toks[i].End) > after })
	if i > 0 && int(toks[i-1].Start) >= after {
		i--
	}
	depth := 0
	for ; i < len(toks); i++ {
		t := toks[i].Token
		if depth <= 0 && i > 0 {
			prev := toks[i-1].Token
			closed := prev == pg.Token_ASCII_41 || prev == pg.Token_ASCII_93
			if t == pg.Token_ASCII_46 && closed {
				break
			}
			if t == pg.Token_ASCII_91 && (i+1 >= len(toks) || toks[i+1].Token != pg.Token_ASCII_93) {
				break
			}
		}
		switch t {
		case pg.Token_ASCII_40, pg.Token_ASCII_91:
			depth++
		case pg.Token_ASCII_41, pg.Token_ASCII_93:
			depth--
		}
	}
	j := i
	for k, n := range ind.Indirection {
		if j >= len(toks) {
			c.spans[ind] = sp
			return sp
		}
		switch {
		case n.GetAIndices() != nil && toks[j].Token == pg.Token_ASCII_91:
			for d := 0; j < len(toks); j++ {
				if toks[j].Token == pg.Token_ASCII_91 {
					d++
				} else if toks[j].Token == pg.Token_ASCII_93 {
					if d--; d == 0 {
						break
					}
				}
			}
			j++
		case toks[j].Token == pg.Token_ASCII_46 && j+1 < len(toks):
			sp.locs[k] = int(toks[j+1].Start)
			j += 2
		default:
			c.spans[ind] = sp
			return sp
		}
	}
	if j > 0 && j <= len(toks) {
		sp.end = int(toks[j-1].End)
	}
	c.spans[ind] = sp
	return sp
}

// extent returns the smallest and the largest location in a subtree (-1 when it
// has none); a field selection inside counts up to its last field.
func (c *checker) extent(m proto.Message) (first, last int) {
	first, last = -1, -1
	note := func(lo, hi int) {
		if lo >= 0 && (first < 0 || lo < first) {
			first = lo
		}
		if hi > last {
			last = hi
		}
	}
	var walk func(r protoreflect.Message)
	walk = func(r protoreflect.Message) {
		if ind, ok := r.Interface().(*pg.A_Indirection); ok {
			sp := c.fieldLocations(ind)
			note(sp.start, sp.end)
			return
		}
		r.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Name() == "location" && fd.Kind() == protoreflect.Int32Kind:
				if l := int(v.Int()); l >= 0 {
					note(l, l)
				}
			case fd.Kind() == protoreflect.MessageKind && fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message())
				}
			case fd.Kind() == protoreflect.MessageKind:
				walk(v.Message())
			}
			return true
		})
	}
	if m != nil && m.ProtoReflect().IsValid() {
		walk(m.ProtoReflect())
	}
	return first, last
}

// tokens scans the checked text once.
func (c *checker) tokens() []*pg.ScanToken {
	if c.toks == nil {
		if res, err := pg.Scan(c.src); err == nil {
			c.toks = res.Tokens
		}
		if c.toks == nil {
			c.toks = []*pg.ScanToken{}
		}
	}
	return c.toks
}
