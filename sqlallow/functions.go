package sqlallow

import (
	"fmt"
	"slices"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"

	"github.com/dwsdev/dws/internal/pgparse"
)

// funcCall checks a function call as written: name(args).
func (c *checker) funcCall(fc *pg.FuncCall, s *scope) {
	parts := stringList(fc.Funcname)
	if len(parts) == 0 {
		return
	}
	for _, p := range parts {
		if i, ok := templateIn(p, c.ph); ok {
			c.setRole(i, "function")
			return
		}
	}
	name := parts[len(parts)-1]
	schema := ""
	if len(parts) > 1 {
		schema = parts[len(parts)-2]
	}
	nargs := len(fc.Args)
	if fc.AggWithinGroup {
		// The ORDER BY of an ordered-set aggregate holds its aggregated arguments.
		nargs += len(fc.AggOrder)
	}
	loc := int(fc.Location)
	c.checkCall(schema, name, strings.Join(parts, "."), nargs, loc, tokenLen(c.src, loc), asCall)
	// timestamptz('now') and date(x) are casts written as calls.
	if len(fc.Args) == 1 && !fc.AggStar && len(fc.AggOrder) == 0 && fc.Over == nil {
		if t, ok := catalog().builtinType(schema, name); ok && catalog().timeLike(t) {
			c.timeInput(fc.Args[0], name, loc, s)
		}
	}
}

// checkCall applies the function rules to one call of schema.name (schema ""
// when unqualified) with nargs arguments; shown is how the message names it, and
// sp how the statement spells the call.
func (c *checker) checkCall(schema, name, shown string, nargs, loc, length int, sp spelling) {
	if reason := builtinDenied(schema, name); reason != "" {
		c.add(Function, loc, length, fmt.Sprintf("function %s is denied: %s%s", shown, denyReason(reason), sp.suffix(name)))
		return
	}
	if c.pol.denied(schema, name) {
		c.add(Function, loc, length, fmt.Sprintf("function %s is denied%s", shown, sp.suffix(name)))
		return
	}
	if !c.builtin(schema, name, nargs) && !c.pol.functionAllowed(schema, name) {
		f, inDDL := c.pol.ddlFunction(schema, name, nargs)
		switch {
		case inDDL && f.body != "":
			c.functionBody(f, shown, loc, length)
		case inDDL && f.language == "plpgsql":
			c.add(Function, loc, length, fmt.Sprintf("function %s (sql.from_ddl line %d) runs SQL dws cannot read (EXECUTE of a string, or SQL the parser rejects): add it to sql.functions if it may run%s",
				shown, f.line, sp.suffix(name)))
			return
		case inDDL:
			c.add(Function, loc, length, fmt.Sprintf("function %s is written in %s (sql.from_ddl line %d), so dws cannot see what it reads or writes: add it to sql.functions if it may run%s",
				shown, f.language, f.line, sp.suffix(name)))
			return
		default:
			c.add(Function, loc, length, fmt.Sprintf("function %s is not a PostgreSQL built-in and is not on the allow-list (sql.functions)%s", shown, sp.suffix(name)))
			return
		}
	}
	switch volatility(c.pol, schema, name, nargs) {
	case isVolatile:
		c.add(Nondeterministic, loc, length, fmt.Sprintf("%s() is volatile: pass the value as an argument%s", shown, sp.suffix(name)))
	case isClock:
		c.add(Nondeterministic, loc, length, fmt.Sprintf("%s() changes from one run of the statement to the next: pass the value as an argument%s", shown, sp.suffix(name)))
	case isUnknown:
		c.add(Nondeterministic, loc, length, fmt.Sprintf("%s() is not a PostgreSQL built-in, so it may be volatile: pass the value as an argument, or declare the function IMMUTABLE or STABLE in sql.from_ddl%s", shown, sp.suffix(name)))
	}
}

type callVolatility uint8

const (
	isRepeatable callVolatility = iota // immutable, or stable for reasons other than time
	isVolatile                         // provolatile v
	isClock                            // stable, but reads the clock, the transaction or the backend
	isUnknown                          // not a built-in and not declared in the DDL
)

// volatility decides from PostgreSQL's catalog (or the DDL's declaration) whether
// a call of schema.name with nargs arguments can give another value on a retry.
// When overloads of the same arity disagree, the worst one counts: dws does not
// resolve argument types.
func volatility(p *compiled, schema, name string, nargs int) callVolatility {
	if schema == "" || schema == "pg_catalog" {
		found, v := false, isRepeatable
		for b := range catalog().overloads(name, nargs) {
			found = true
			switch {
			case b.volatility == 'v':
				return isVolatile
			case b.clock:
				v = isClock
			}
		}
		if found {
			return v
		}
		if name == "unnest" && nargs > 1 {
			// unnest(a, b, …) in FROM is ROWS FROM (unnest(a), unnest(b), …).
			return isRepeatable
		}
	}
	if schema != "pg_catalog" {
		if f, ok := p.ddlFunction(schema, name, nargs); ok {
			if f.volatility == 'v' {
				return isVolatile
			}
			return isRepeatable
		}
	}
	return isUnknown
}

// builtinDenied is the reason the built-in deny-list, derived from PostgreSQL's
// catalog, denies a function, or "". An unqualified name is looked up in
// pg_catalog, which PostgreSQL searches first; a pg_ name that is no built-in is
// denied too, since pg_ names are PostgreSQL's.
func builtinDenied(schema, name string) string {
	if schema != "" && schema != "pg_catalog" {
		return ""
	}
	cat := catalog()
	if r := cat.denied(name); r != "" {
		return r
	}
	if strings.HasPrefix(name, "pg_") && len(cat.rowsOf(name)) == 0 {
		return "pg_"
	}
	return ""
}

var valueFunctionNames = map[pg.SQLValueFunctionOp]string{
	pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE:        "CURRENT_DATE",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME:        "CURRENT_TIME",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:      "CURRENT_TIME",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP:   "CURRENT_TIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N: "CURRENT_TIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIME:           "LOCALTIME",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N:         "LOCALTIME",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP:      "LOCALTIMESTAMP",
	pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:    "LOCALTIMESTAMP",
}

func (c *checker) valueFunction(v *pg.SQLValueFunction) {
	if name, ok := valueFunctionNames[v.Op]; ok {
		loc := int(v.Location)
		c.add(Nondeterministic, loc, wordLen(c.src, loc), name+" is volatile: pass the value as an argument")
	}
}

// typeCast checks what a cast to a date/time type reads: PostgreSQL reads the
// special values 'now', 'today', 'tomorrow' and 'yesterday' when the statement
// runs, in a literal or in any text computed by the statement.
func (c *checker) typeCast(tc *pg.TypeCast, s *scope) {
	if tc.TypeName == nil {
		return
	}
	ref := typeRefOf(tc.TypeName)
	for _, part := range []string{ref.schema, ref.name} {
		if i, ok := templateIn(part, c.ph); ok {
			c.setRole(i, "type")
			return
		}
	}
	loc := int(tc.TypeName.Location)
	if c.timeType(ref) {
		c.timeInput(tc.Arg, ref.name, loc, s)
		return
	}
	if _, ok := catalog().builtinType(ref.schema, ref.name); ok {
		return
	}
	if _, ok := c.pol.ddlType(ref); ok {
		return
	}
	// A type dws does not know may be a domain over a date type.
	if k := tc.Arg.GetAConst(); k != nil {
		c.literal(k)
	}
}

// timeType reports a built-in date/time type (or an array, range or multirange of
// one), or a DDL domain over one.
func (c *checker) timeType(ref typeRef) bool {
	for range 8 {
		if t, ok := catalog().builtinType(ref.schema, ref.name); ok {
			return catalog().timeLike(t)
		}
		d, ok := c.pol.ddlType(ref)
		if !ok || d.base == nil {
			return false
		}
		ref = *d.base
	}
	return false
}

// timeInput checks the value a cast to the date/time type target reads. A
// literal is checked for special values; a parameter is the caller's value; text
// that the statement computes ('n' || 'ow', lower(x), a text column of the DDL) is
// refused, as it may be 'now' when the statement runs.
func (c *checker) timeInput(arg *pg.Node, target string, loc int, s *scope) {
	switch k, kind := c.textKind(arg, s); kind {
	case textLiteral:
		v := k.GetSval().GetSval()
		kloc := int(k.Location)
		switch {
		case specialTime(v, false):
			c.add(Nondeterministic, kloc, tokenLen(c.src, kloc), fmt.Sprintf("'%s' is read when the statement runs: pass the value as an argument", strings.TrimSpace(v)))
		case (target == "timetz" || target == "_timetz") && !hasOffset(v):
			c.add(Nondeterministic, kloc, tokenLen(c.src, kloc), fmt.Sprintf("'%s' as %s takes the zone offset of the day the statement runs: write the offset (+02) or pass the value as an argument", strings.TrimSpace(v), target))
		}
	case textComputed:
		c.add(Nondeterministic, loc, tokenLen(c.src, loc), fmt.Sprintf("text computed by the statement is cast to %s: PostgreSQL reads 'now', 'today', … in it when the statement runs; pass the value as an argument", target))
	}
}

type textKindOf uint8

const (
	notText      textKindOf = iota // a value of another type, a parameter, or data read from a table
	textLiteral                    // a string literal, possibly cast to a text type
	textComputed                   // text the statement builds
)

// textKind tells what kind of text value n is (see textKindOf); for a literal it
// returns the constant.
func (c *checker) textKind(n *pg.Node, s *scope) (*pg.A_Const, textKindOf) {
	switch x := inner(n).(type) {
	case *pg.A_Const:
		if x.GetSval() != nil {
			return x, textLiteral
		}
	case *pg.TypeCast:
		ref := typeRefOf(x.TypeName)
		if t, ok := catalog().builtinType(ref.schema, ref.name); ok && !ref.array && (t.category == 'S' || ref.name == "unknown") {
			return c.textKind(x.Arg, s)
		}
	case *pg.A_Expr:
		if len(x.Name) == 1 && x.Name[0].GetString_().GetSval() == "||" {
			return nil, textComputed
		}
	case *pg.FuncCall:
		schema, name := typeName(stringList(x.Funcname))
		if schema != "" && schema != "pg_catalog" {
			return nil, notText
		}
		for b := range catalog().overloads(name, len(x.Args)) {
			if t, ok := catalog().types[b.result]; ok && t.category == 'S' {
				return nil, textComputed
			}
		}
	case *pg.CoalesceExpr:
		return nil, c.worstText(x.Args, s)
	case *pg.MinMaxExpr:
		return nil, c.worstText(x.Args, s)
	case *pg.CaseExpr:
		list := []*pg.Node{x.Defresult}
		for _, w := range x.Args {
			if cw := w.GetCaseWhen(); cw != nil {
				list = append(list, cw.Result)
			}
		}
		return nil, c.worstText(list, s)
	case *pg.SubLink:
		if sel := x.Subselect.GetSelectStmt(); sel != nil && x.SubLinkType == pg.SubLinkType_EXPR_SUBLINK && len(sel.TargetList) == 1 {
			if rt := sel.TargetList[0].GetResTarget(); rt != nil {
				if _, k := c.textKind(rt.Val, nil); k != notText {
					return nil, textComputed
				}
			}
		}
	case *pg.ColumnRef:
		if t, ok := c.columnType(x, s); ok && !t.array {
			if bt, ok := catalog().builtinType(t.schema, t.name); ok && bt.category == 'S' {
				return nil, textComputed
			}
		}
	}
	return nil, notText
}

// worstText is textComputed when any of list is text the statement builds, or a
// literal: a branch that yields 'now' is as good as computing it.
func (c *checker) worstText(list []*pg.Node, s *scope) textKindOf {
	for _, n := range list {
		if n == nil {
			continue
		}
		if _, k := c.textKind(n, s); k != notText {
			return textComputed
		}
	}
	return notText
}

// columnType is the DDL type of the column a reference names, when dws can tell.
func (c *checker) columnType(cr *pg.ColumnRef, s *scope) (typeRef, bool) {
	if s == nil {
		return typeRef{}, false
	}
	names := stringList(cr.Fields)
	if len(names) != len(cr.Fields) || len(names) == 0 || len(names) > 2 {
		return typeRef{}, false
	}
	col := names[len(names)-1]
	var it *item
	if len(names) == 2 {
		it = s.lookup(names[0])
	} else {
		for sc := s; sc != nil && it == nil; sc = sc.parent {
			if sc.lateralOnly {
				continue
			}
			for _, cand := range sc.items {
				if cand.children == nil && cand.has(col) == hasYes {
					if it != nil {
						return typeRef{}, false
					}
					it = cand
				}
			}
		}
	}
	if it == nil || it.rel == nil || it.rel.tpl {
		return typeRef{}, false
	}
	return c.pol.ddlColumnType(it.rel.key, it.realCol(col))
}

// literal checks a string literal whose type the statement does not give: if it
// reads as a date or time with a special value, PostgreSQL turns it into the time
// of the run wherever a date/time value is expected (at > 'today').
func (c *checker) literal(k *pg.A_Const) {
	v := k.GetSval()
	if v == nil || !specialTime(v.Sval, true) {
		return
	}
	loc := int(k.Location)
	c.add(Nondeterministic, loc, tokenLen(c.src, loc), fmt.Sprintf("'%s' is read when the statement runs: pass the value as an argument", strings.TrimSpace(v.Sval)))
}

// The date/time input words that PostgreSQL replaces by the time of the run, and
// the constant ones.
var (
	runTimeWords  = map[string]bool{"now": true, "today": true, "tomorrow": true, "yesterday": true}
	constantWords = map[string]bool{"epoch": true, "infinity": true, "-infinity": true, "allballs": true}
)

// specialTime reports whether the date/time input v holds a special value read
// when the statement runs. For a literal of unknown type (untyped) it must also
// look like a date/time input, so that 'approve now' as text is not refused;
// cast such a literal to text to say it is text.
func specialTime(v string, untyped bool) bool {
	// now, today, tomorrow and yesterday all hold a w or a y.
	if !strings.ContainsAny(v, "wyWY") {
		return false
	}
	words := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ',' || r == '{' || r == '}' || r == '[' || r == ']' || r == '(' || r == ')' || r == '"'
	})
	special := false
	for _, w := range words {
		switch {
		case runTimeWords[w]:
			special = true
		case !untyped || constantWords[w] || strings.ContainsAny(w, "0123456789/") || len(w) <= 5:
			// A date, a time, a zone or an abbreviation such as am, utc, bc.
		default:
			return false
		}
	}
	return special
}

// hasOffset reports a time input with an explicit numeric zone offset.
func hasOffset(v string) bool {
	for i := 1; i+1 < len(v); i++ {
		if (v[i] == '+' || v[i] == '-') && v[i+1] >= '0' && v[i+1] <= '9' {
			return true
		}
	}
	return false
}

// execute checks EXECUTE name(…), which runs a prepared statement (also inside CREATE
// TABLE … AS EXECUTE): its SQL is the PREPARE's, which dws sees only when the DDL
// holds it; then it is checked like a function body. Otherwise EXECUTE is refused.
func (c *checker) execute(x *pg.ExecuteStmt) {
	loc := 0
	if top := c.top; top != nil {
		if st := top.GetCreateTableAsStmt(); st != nil && st.Query != nil {
			loc = max(strings.Index(strings.ToUpper(c.src), "EXECUTE"), 0)
		}
	}
	if q, line, ok := c.pol.prepared(x.Name); ok {
		c.functionBody(ddlFunc{body: q, line: line, key: "prepare " + x.Name}, "prepared statement "+x.Name, loc, len("EXECUTE"))
		return
	}
	c.add(Statement, loc, len("EXECUTE"), fmt.Sprintf("EXECUTE %s runs a prepared statement whose SQL dws cannot see, so it may read any table: write the statement itself, or PREPARE it in sql.from_ddl", x.Name))
}

// builtin reports whether schema.name with nargs arguments is one of PostgreSQL's own
// functions (pg_catalog, which an unqualified name finds first).
func (c *checker) builtin(schema, name string, nargs int) bool {
	if schema != "" && schema != "pg_catalog" {
		return false
	}
	for range catalog().overloads(name, nargs) {
		return true
	}
	// unnest(a, b, …) in FROM is ROWS FROM (unnest(a), unnest(b), …).
	return name == "unnest" && nargs > 1
}

// functionBody checks the body of a LANGUAGE sql function the DDL creates, as if its
// statements were written at the call: what they touch counts for the calling
// statement, and each finding in them is reported at the call, naming the function and
// where the DDL creates it. A function that calls itself, directly or not, is checked
// once.
func (c *checker) functionBody(f ddlFunc, shown string, loc, length int) {
	for _, v := range c.via {
		if v == f.key {
			return
		}
	}
	tree, err := pgparse.Parse(f.body)
	if err != nil {
		c.add(Function, loc, length, fmt.Sprintf("function %s (sql.from_ddl line %d): its body does not parse: %v", shown, f.line, err))
		return
	}
	sub := &checker{pol: c.pol, src: f.body, noUses: c.noUses, via: append(append([]string(nil), c.via...), f.key)}
	for _, raw := range tree.Stmts {
		sub.top = raw.Stmt
		sub.visit(raw.Stmt, nil)
	}
	where := fmt.Sprintf("function %s (sql.from_ddl line %d)", shown, f.line)
	if strings.HasPrefix(shown, "prepared statement ") {
		where = fmt.Sprintf("%s (sql.from_ddl line %d)", shown, f.line)
	}
	if f.plpgsql {
		// Its variables read as columns: only relations and calls are its findings.
		sub.findings = slices.DeleteFunc(sub.findings, func(fd Finding) bool { return fd.Kind == Column })
	}
	c.merge(sub, where, loc, length)
}

// ddlBody checks SQL the DDL attaches to a relation (a view's query, a rule's actions,
// a policy's expressions) as if written at the reference: its findings are reported
// there, naming what brought them in and its DDL line, and what it touches counts.
func (c *checker) ddlBody(b ddlBody, loc, length int) {
	key := b.what
	for _, v := range c.via {
		if v == key {
			return
		}
	}
	sub := &checker{pol: c.pol, src: c.pol.ddl.text, noUses: c.noUses, via: append(append([]string(nil), c.via...), key)}
	for _, n := range b.nodes {
		sub.top = n
		sub.visit(n, &scope{})
	}
	c.merge(sub, fmt.Sprintf("%s (sql.from_ddl line %d)", b.what, b.line), loc, length)
}

// merge reports a sub-check's findings at loc with where in front, and adds what it
// touched to this statement's uses.
func (c *checker) merge(sub *checker, where string, loc, length int) {
	for _, fd := range sub.findings {
		switch fd.Kind {
		case Table, Column, Function, Statement:
			c.add(fd.Kind, loc, length, where+": "+fd.Message)
		}
	}
	for _, k := range sub.useOrder {
		u := sub.uses[k]
		acc := c.use(k, loc)
		if u.all {
			acc.setAll()
		}
		for col := range u.cols {
			acc.col(col)
		}
	}
}
