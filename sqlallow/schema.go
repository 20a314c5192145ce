package sqlallow

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"github.com/dwsdev/dws/internal/pgparse"
)

// Schema is what a DDL script creates: tables with their columns in order (and
// the columns' types), composite types, domains and functions. Relations are keyed
// schema.name; an unqualified name is keyed in public here, and a Policy places
// it in the first schema of its SearchPath, as running the script with that
// search_path would.
type Schema struct {
	Tables   map[string][]string
	bare     map[string]bool               // keys of Tables the script does not qualify
	colTypes map[string]map[string]typeRef // table → column → type
	types    map[string]*ddlType
	funcs    map[string][]ddlFunc
	prepared map[string]preparedStmt // PREPARE name AS …, by name
	// views are the views the DDL creates, by schema.name; attached holds, by the
	// table they are on, the rules' actions and the policies' expressions: what a
	// statement touching the table makes PostgreSQL read or write besides.
	views    map[string]ddlBody
	attached map[string][]ddlBody
	text     string // the DDL script, which the nodes of views, rules and policies point into
}

// ddlBody is SQL the DDL attaches to a name: a view's query, a rule's actions, a
// policy's USING and WITH CHECK expressions.
type ddlBody struct {
	what  string // "view expense_view", "rule log_change on expense", …
	line  int
	nodes []*pg.Node
	// event is the write a rule fires on (insert, update, delete); "" for a policy,
	// which applies to every access.
	event string
}

// preparedStmt is a statement the DDL prepares, and the line it does so on.
type preparedStmt struct {
	query string
	line  int
}

// typeRef is a type as a statement or the DDL names it.
type typeRef struct {
	schema, name string
	array        bool
}

func typeRefOf(tn *pg.TypeName) typeRef {
	if tn == nil {
		return typeRef{}
	}
	schema, name := typeName(stringList(tn.Names))
	switch name {
	case "serial", "serial4":
		name = "int4"
	case "bigserial", "serial8":
		name = "int8"
	case "smallserial", "serial2":
		name = "int2"
	}
	return typeRef{schema: schema, name: name, array: len(tn.ArrayBounds) > 0}
}

// ddlType is a type the DDL creates: a composite type (fields), a domain (base)
// or an enum.
type ddlType struct {
	fields     []string
	fieldTypes map[string]typeRef
	base       *typeRef
	bare       bool
}

// ddlFunc is one function the DDL creates, with the volatility it declares.
type ddlFunc struct {
	nargs, defaults int
	variadic        bool
	volatility      byte // i, s or v (PostgreSQL's default)
	bare            bool
	// language is the function's LANGUAGE (sql, plpgsql, c, …); body, for a sql
	// function, its statements as text; line, where the DDL creates it (1-based).
	language string
	body     string
	line     int
	key      string
	// plpgsql marks a body made of a PL/pgSQL function's static SQL: its variables
	// read as columns, so only its relations and calls are judged, not its columns.
	plpgsql bool
}

func (f ddlFunc) accepts(n int) bool {
	if f.variadic && n >= f.nargs {
		return true
	}
	return n <= f.nargs && n >= f.nargs-f.defaults
}

// FromDDL reads CREATE TABLE (including INHERITS, LIKE and PARTITION OF), ALTER
// TABLE … ADD/DROP COLUMN, CREATE TYPE … AS (…), CREATE DOMAIN and CREATE
// FUNCTION statements; other statements are ignored. A syntax error is returned
// as a *SyntaxError with its byte offset.
func FromDDL(ddl string) (*Schema, error) {
	tree, err := pgparse.Parse(ddl)
	if err != nil {
		return nil, syntaxError(ddl, err)
	}
	s := &Schema{Tables: map[string][]string{}, bare: map[string]bool{}, colTypes: map[string]map[string]typeRef{},
		types: map[string]*ddlType{}, funcs: map[string][]ddlFunc{}, prepared: map[string]preparedStmt{},
		views: map[string]ddlBody{}, attached: map[string][]ddlBody{}, text: ddl}
	key := func(schema, name string) string {
		if schema == "" {
			schema = "public"
		}
		return schema + "." + name
	}
	rel := func(rv *pg.RangeVar) string { return key(rv.Schemaname, rv.Relname) }
	for _, raw := range tree.Stmts {
		switch st := raw.Stmt.Node.(type) {
		case *pg.Node_CreateStmt:
			cs := st.CreateStmt
			var cols []string
			types := map[string]typeRef{}
			copyFrom := func(from string) {
				cols = appendNew(cols, s.Tables[from]...)
				for c, t := range s.colTypes[from] {
					types[c] = t
				}
			}
			for _, inh := range cs.InhRelations {
				if rv := inh.GetRangeVar(); rv != nil {
					copyFrom(rel(rv))
				}
			}
			for _, e := range cs.TableElts {
				if cd := e.GetColumnDef(); cd != nil {
					cols = appendNew(cols, cd.Colname)
					if cd.TypeName != nil {
						types[cd.Colname] = typeRefOf(cd.TypeName)
					}
				}
				// LIKE copies the source table's columns, in place.
				if like := e.GetTableLikeClause(); like != nil && like.Relation != nil {
					copyFrom(rel(like.Relation))
				}
			}
			k := rel(cs.Relation)
			s.Tables[k] = cols
			s.colTypes[k] = types
			s.bare[k] = cs.Relation.Schemaname == ""
		case *pg.Node_AlterTableStmt:
			k := rel(st.AlterTableStmt.Relation)
			cols, ok := s.Tables[k]
			if !ok {
				continue
			}
			for _, c := range st.AlterTableStmt.Cmds {
				cmd := c.GetAlterTableCmd()
				if cmd == nil {
					continue
				}
				switch cmd.Subtype {
				case pg.AlterTableType_AT_AddColumn:
					if cd := cmd.Def.GetColumnDef(); cd != nil {
						cols = appendNew(cols, cd.Colname)
						if cd.TypeName != nil {
							s.colTypes[k][cd.Colname] = typeRefOf(cd.TypeName)
						}
					}
				case pg.AlterTableType_AT_DropColumn:
					for i, n := range cols {
						if n == cmd.Name {
							cols = append(cols[:i:i], cols[i+1:]...)
							break
						}
					}
					delete(s.colTypes[k], cmd.Name)
				}
			}
			s.Tables[k] = cols
		case *pg.Node_CompositeTypeStmt:
			ct := st.CompositeTypeStmt
			if ct.Typevar == nil {
				continue
			}
			t := &ddlType{fieldTypes: map[string]typeRef{}, bare: ct.Typevar.Schemaname == ""}
			for _, e := range ct.Coldeflist {
				if cd := e.GetColumnDef(); cd != nil {
					t.fields = append(t.fields, cd.Colname)
					t.fieldTypes[cd.Colname] = typeRefOf(cd.TypeName)
				}
			}
			s.types[rel(ct.Typevar)] = t
		case *pg.Node_CreateDomainStmt:
			schema, name := typeName(stringList(st.CreateDomainStmt.Domainname))
			base := typeRefOf(st.CreateDomainStmt.TypeName)
			s.types[key(schema, name)] = &ddlType{base: &base, bare: schema == ""}
		case *pg.Node_CreateEnumStmt:
			schema, name := typeName(stringList(st.CreateEnumStmt.TypeName))
			s.types[key(schema, name)] = &ddlType{bare: schema == ""}
		case *pg.Node_ViewStmt:
			vs := st.ViewStmt
			k := rel(vs.View)
			s.views[k] = ddlBody{what: "view " + vs.View.Relname, line: lineAt(ddl, int(raw.StmtLocation)), nodes: []*pg.Node{vs.Query}}
		case *pg.Node_RuleStmt:
			rs := st.RuleStmt
			k := rel(rs.Relation)
			b := ddlBody{what: fmt.Sprintf("rule %s on %s", rs.Rulename, rs.Relation.Relname), line: lineAt(ddl, int(raw.StmtLocation))}
			switch rs.Event {
			case pg.CmdType_CMD_INSERT:
				b.event = "insert"
			case pg.CmdType_CMD_UPDATE:
				b.event = "update"
			case pg.CmdType_CMD_DELETE:
				b.event = "delete"
			default:
				continue // ON SELECT rules are views
			}
			b.nodes = append(b.nodes, rs.Actions...)
			if rs.WhereClause != nil {
				b.nodes = append(b.nodes, rs.WhereClause)
			}
			s.attached[k] = append(s.attached[k], b)
		case *pg.Node_CreatePolicyStmt:
			ps := st.CreatePolicyStmt
			k := rel(ps.Table)
			b := ddlBody{what: fmt.Sprintf("policy %s on %s", ps.PolicyName, ps.Table.Relname), line: lineAt(ddl, int(raw.StmtLocation))}
			for _, n := range []*pg.Node{ps.Qual, ps.WithCheck} {
				if n != nil {
					b.nodes = append(b.nodes, n)
				}
			}
			s.attached[k] = append(s.attached[k], b)
		case *pg.Node_PrepareStmt:
			ps := st.PrepareStmt
			if q, err := pg.Deparse(&pg.ParseResult{Stmts: []*pg.RawStmt{{Stmt: ps.Query}}}); err == nil {
				s.prepared[ps.Name] = preparedStmt{query: q, line: lineAt(ddl, int(raw.StmtLocation))}
			}
		case *pg.Node_CreateFunctionStmt:
			cf := st.CreateFunctionStmt
			schema, name := typeName(stringList(cf.Funcname))
			f := ddlFunc{volatility: 'v', bare: schema == "", language: "sql", line: lineAt(ddl, int(raw.StmtLocation))}
			for _, p := range cf.Parameters {
				fp := p.GetFunctionParameter()
				if fp == nil {
					continue
				}
				switch fp.Mode {
				case pg.FunctionParameterMode_FUNC_PARAM_OUT, pg.FunctionParameterMode_FUNC_PARAM_TABLE:
					continue
				case pg.FunctionParameterMode_FUNC_PARAM_VARIADIC:
					f.variadic = true
				}
				f.nargs++
				if fp.Defexpr != nil {
					f.defaults++
				}
			}
			for _, o := range cf.Options {
				d := o.GetDefElem()
				if d == nil {
					continue
				}
				switch d.Defname {
				case "volatility":
					switch d.Arg.GetString_().GetSval() {
					case "immutable":
						f.volatility = 'i'
					case "stable":
						f.volatility = 's'
					}
				case "language":
					f.language = strings.ToLower(d.Arg.GetString_().GetSval())
				case "as":
					// AS 'body' (a C function's AS names its object file and symbol).
					if l := d.Arg.GetList(); l != nil && len(l.Items) == 1 {
						f.body = l.Items[0].GetString_().GetSval()
					}
				}
			}
			if cf.SqlBody != nil {
				// BEGIN ATOMIC … END: the statements, written back as SQL.
				f.body = atomicBody(cf.SqlBody)
			}
			switch f.language {
			case "sql":
			case "plpgsql":
				end := len(ddl)
				if raw.StmtLen > 0 {
					end = min(int(raw.StmtLocation+raw.StmtLen), len(ddl))
				}
				f.body, f.plpgsql = plpgsqlStatic(ddl[raw.StmtLocation:end]), true
			default:
				f.body = ""
			}
			k := key(schema, name)
			f.key = k
			s.funcs[k] = append(s.funcs[k], f)
		}
	}
	return s, nil
}

// plpgsqlStatic is the static SQL of a PL/pgSQL function (the text of its CREATE
// FUNCTION), as statements a checker can read: its SQL statements as written, and its
// expressions and assignments' right-hand sides as SELECTs. It is "" when the function
// runs dynamic SQL (EXECUTE, FOR … IN EXECUTE, OPEN … FOR EXECUTE), or when pg_query's
// PL/pgSQL parser or PostgreSQL's parser cannot read a part: then nothing of what it
// touches is known.
func plpgsqlStatic(create string) string {
	out, err := pg.ParsePlPgSqlToJSON(create)
	if err != nil {
		return ""
	}
	var tree any
	if json.Unmarshal([]byte(out), &tree) != nil {
		return ""
	}
	var stmts []string
	ok := true
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				switch k {
				case "PLpgSQL_stmt_dynexecute", "PLpgSQL_stmt_dynfors":
					ok = false
				case "PLpgSQL_stmt_open":
					if m, _ := c.(map[string]any); m != nil && m["dynquery"] != nil {
						ok = false
					}
				case "PLpgSQL_expr":
					m, _ := c.(map[string]any)
					q, _ := m["query"].(string)
					mode, _ := m["parseMode"].(float64)
					switch {
					case mode == 0:
					case mode >= 3:
						// target := expression
						if i := strings.Index(q, ":="); i >= 0 {
							q = q[i+2:]
						}
						q = "SELECT " + q
					default:
						q = "SELECT " + q
					}
					if _, err := pgparse.Parse(q); err != nil {
						ok = false
					}
					stmts = append(stmts, q)
					continue
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(tree)
	if !ok || len(stmts) == 0 {
		return ""
	}
	sort.Strings(stmts) // a map walk: make the body the same every run
	return strings.Join(stmts, ";\n")
}

// lineAt is the 1-based line of byte offset off in text.
func lineAt(text string, off int) int {
	off = max(0, min(off, len(text)))
	// A statement's location is where the previous one ended: its own first line is
	// the first one with something on it.
	for off < len(text) && (text[off] == ' ' || text[off] == '\n' || text[off] == '\t' || text[off] == '\r') {
		off++
	}
	return strings.Count(text[:off], "\n") + 1
}

// atomicBody writes a BEGIN ATOMIC body's statements back as SQL, one per line.
func atomicBody(body *pg.Node) string {
	var stmts []*pg.RawStmt
	var collect func(n *pg.Node)
	collect = func(n *pg.Node) {
		if l := n.GetList(); l != nil {
			for _, it := range l.Items {
				collect(it)
			}
			return
		}
		if n.Node != nil {
			stmts = append(stmts, &pg.RawStmt{Stmt: n})
		}
	}
	collect(body)
	var parts []string
	for _, st := range stmts {
		if text, err := pg.Deparse(&pg.ParseResult{Stmts: []*pg.RawStmt{st}}); err == nil {
			parts = append(parts, text)
		}
	}
	return strings.Join(parts, ";\n")
}

func appendNew(list []string, add ...string) []string {
outer:
	for _, a := range add {
		for _, l := range list {
			if l == a {
				continue outer
			}
		}
		list = append(list, a)
	}
	return list
}

func splitKey(k string) (schema, name string) {
	for i := 0; i < len(k); i++ {
		if k[i] == '.' {
			return k[:i], k[i+1:]
		}
	}
	return "", k
}

// SyntaxError is a parse error with the byte offset it points at.
type SyntaxError struct {
	Offset  int
	Message string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Message) }

func syntaxError(src string, err error) *SyntaxError {
	if pe := (*pgparser.Error)(nil); errors.As(err, &pe) {
		// The parser quotes the offending bytes, which need not be UTF-8.
		return &SyntaxError{Offset: charToByte(src, pe.Cursorpos-1), Message: strings.ToValidUTF8(pe.Message, "\uFFFD")}
	}
	return &SyntaxError{Message: err.Error()}
}

// charToByte converts a 0-based character index, as the parser reports it,
// into a byte offset.
func charToByte(s string, ch int) int {
	if ch <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == ch {
			return i
		}
		n++
	}
	return len(s)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
