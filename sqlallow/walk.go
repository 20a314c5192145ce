package sqlallow

//go:generate go run ../internal/pggen/gen walk sqlallow walk_gen.go

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"
)

type useAcc struct {
	cols   map[string]bool
	all    bool
	offset int
}

type checker struct {
	pol      *compiled
	src      string
	ph       []placeholder
	shift    int  // bytes of wrapper before the checked text
	expr     bool // checking a branch expression
	top      *pg.Node
	findings []Finding
	uses     map[string]*useAcc
	useOrder []string
	params   []*pg.ParamRef
	tplRoles map[int]string
	depth    int
	toks     []*pg.ScanToken // the scanned text, when a field selection needs it
	spans    map[*pg.A_Indirection]fieldSpan
	shapes   map[*pg.A_Indirection]shape
	// via are the DDL functions whose bodies are being checked, outermost first (a
	// guard against recursion).
	via []string
	// noUses: the check makes no Relations (Prepared.FindingsOnly).
	noUses bool
	// refusedCall is a CALL whose statement kind the policy refuses: the procedure it
	// names is that finding's, not a function finding of its own (its arguments are
	// still checked).
	refusedCall *pg.CallStmt
}

// relRef is one reference to a real relation.
type relRef struct {
	key      string // schema.name
	display  string // as written, normalised
	grant    *grant // nil: not on the allow-list
	ddl      []string
	ddlKnown bool
	tpl      bool // named by a template placeholder: reported once, not checked further
}

// item is one entry of a FROM list (or a DML target) that column references
// can resolve to.
type item struct {
	name     string // the name a qualified reference uses (alias or relation name)
	schema   string // schema as written, for schema.table.col, when not aliased
	rel      *relRef
	cols     []string // visible column names, when known
	known    bool
	rename   map[string]string // visible name → real column (alias column lists)
	children []*item           // the leaves of an aliased join
	hidden   bool              // inside an aliased join: not referenceable by name
}

const (
	hasNo = iota
	hasMaybe
	hasYes
)

func (it *item) has(col string) int {
	switch {
	case it.children != nil:
		best := hasNo
		for _, ch := range it.children {
			if h := ch.has(col); h > best {
				best = h
			}
		}
		return best
	case it.rel != nil && it.rel.tpl:
		return hasMaybe
	case !it.known:
		return hasMaybe
	}
	if it.rel != nil && systemColumns[col] {
		return hasYes
	}
	for _, c := range it.cols {
		if c == col {
			return hasYes
		}
	}
	return hasNo
}

func (it *item) realCol(col string) string {
	if r, ok := it.rename[col]; ok {
		return r
	}
	return col
}

type cteDef struct {
	name  string
	cols  []string
	known bool
}

// scope is one query level.
type scope struct {
	parent      *scope
	ctes        []*cteDef
	items       []*item
	lateralOnly bool // items are being hidden from a non-LATERAL subquery in FROM
}

func (s *scope) cte(name string) *cteDef {
	for sc := s; sc != nil; sc = sc.parent {
		for i := len(sc.ctes) - 1; i >= 0; i-- {
			if sc.ctes[i].name == name {
				return sc.ctes[i]
			}
		}
	}
	return nil
}

// didYouMean names the known name word is likely a slip of (internal/suggest), written
// so that it can be pasted: a name PostgreSQL folds when unquoted (MixedCase) is said
// to need double quotes, the most common slip of all.
func didYouMean(word string, known []string) string {
	near, ok := suggest.Nearest(word, known)
	if !ok {
		return ""
	}
	for _, part := range strings.Split(near, ".") {
		if strings.ToLower(part) != part {
			return fmt.Sprintf("; did you mean %q, written in double quotes (unquoted names are folded to lower case)?", near)
		}
	}
	return fmt.Sprintf("; did you mean %q?", near)
}

// columns are the known column names of the FROM items visible from s, each once, in
// order, for a "did you mean".
func (s *scope) columns() []string {
	var out []string
	for sc := s; sc != nil; sc = sc.parent {
		if sc.lateralOnly {
			continue
		}
		for _, it := range leaves(sc.items) {
			for _, col := range it.cols {
				if !slices.Contains(out, col) {
					out = append(out, col)
				}
			}
		}
	}
	return out
}

// lookupAny reports whether s or an enclosing scope has any FROM item at all.
func (s *scope) lookupAny() bool {
	for sc := s; sc != nil; sc = sc.parent {
		if len(sc.items) > 0 {
			return true
		}
	}
	return false
}

func (s *scope) lookup(name string) *item {
	for sc := s; sc != nil; sc = sc.parent {
		if sc.lateralOnly {
			continue
		}
		for _, it := range sc.items {
			if !it.hidden && it.name == name {
				return it
			}
		}
	}
	return nil
}

// maxDepth bounds recursion over the tree; the parser itself stops far
// earlier, so this only guards against surprises.
const maxDepth = 20000

// visit walks any part of the tree in scope s. Node types with meaning get
// their own handling; every other message has all of its fields walked, so
// no relation, column or function below an unknown node type is missed. A
// handler walks the fields it takes itself and hands the message to rest with
// the set of those fields: every other field, a field a newer pg_query_go adds
// included, is walked like an unknown node (fail closed).
func (c *checker) visit(m proto.Message, s *scope) {
	c.depth++
	if c.depth > maxDepth {
		if c.depth == maxDepth+1 {
			c.add(Syntax, 0, 1, "statement is nested too deeply to check")
		}
		c.depth--
		return
	}
	// Most of what is visited is a Node wrapper: it is unwrapped here, one level as
	// the parser counts them, before the switch on what it holds.
	if n, ok := m.(*pg.Node); ok {
		if n != nil && n.Node != nil {
			c.visit(inner(n), s)
		}
	} else {
		c.visitMessage(m, s)
	}
	c.depth--
}

// visitMessage is visit of a message other than a Node wrapper.
func (c *checker) visitMessage(m proto.Message, s *scope) {
	switch x := m.(type) {
	case nil:
		return
	case *pg.SelectStmt:
		c.selectStmt(x, s)
	case *pg.InsertStmt:
		c.insertStmt(x, s)
	case *pg.UpdateStmt:
		c.updateStmt(x, s)
	case *pg.DeleteStmt:
		c.deleteStmt(x, s)
	case *pg.MergeStmt:
		c.mergeStmt(x, s)
	case *pg.RangeVar:
		c.relation(x, "")
		rest(c, x, s, 0)
	case *pg.ColumnRef:
		c.columnRef(x, s)
		rest(c, x, s, 0)
	case *pg.FuncCall:
		c.funcCall(x, s)
		rest(c, x, s, 0)
	case *pg.SQLValueFunction:
		c.valueFunction(x)
		rest(c, x, s, 0)
	case *pg.TypeCast:
		c.typeCast(x, s)
		if x.Arg.GetAConst() != nil {
			// The cast says what the literal is; typeCast has checked it.
			rest(c, x, s, fTypeCast_Arg)
			return
		}
		rest(c, x, s, 0)
	case *pg.A_Const:
		c.literal(x)
		rest(c, x, s, 0)
	case *pg.A_Indirection:
		c.indirection(x, s)
	case *pg.ParamRef:
		c.params = append(c.params, x)
		rest(c, x, s, 0)
	case *pg.LockingClause:
		// FOR UPDATE OF names FROM items, not relations; anything else is walked.
		for _, n := range x.LockedRels {
			if rv := n.GetRangeVar(); rv != nil {
				rest(c, rv, s, 0)
				continue
			}
			c.visit(n, s)
		}
		rest(c, x, s, fLockingClause_LockedRels)
	case *pg.IntoClause:
		// The relation a statement creates (SELECT … INTO, CREATE TABLE AS, CREATE
		// MATERIALIZED VIEW) is not one it reads or writes: whether the step may
		// create relations at all is the statement kind's, so sql-table says nothing.
		rest(c, x, s, fIntoClause_Rel)
	case *pg.CreateStmt:
		rest(c, x, s, fCreateStmt_Relation) // INHERITS parents are read, and still checked
	case *pg.ViewStmt:
		rest(c, x, s, fViewStmt_View)
	case *pg.CreateSeqStmt:
		rest(c, x, s, fCreateSeqStmt_Sequence)
	case *pg.ExecuteStmt:
		c.execute(x)
		rest(c, x, s, 0)
	case *pg.CallStmt:
		if x != c.refusedCall || x.Funccall == nil {
			c.children(x, s)
			return
		}
		rest(c, x.Funccall, s, 0) // the arguments, not the procedure's name
		rest(c, x, s, fCallStmt_Funccall)
	case *pg.RangeSubselect, *pg.RangeFunction, *pg.JoinExpr, *pg.RangeTableSample, *pg.RangeTableFunc:
		if s == nil {
			s = &scope{}
		}
		c.fromItem(x, s)
	case *pg.WithClause:
		if s == nil {
			s = &scope{}
		}
		c.withClause(x, s)
	default:
		c.children(m, s)
	}
}

// children visits every message-typed field of m that is set, in declaration
// order (eachChild is generated from pg_query's types: reflection over them cost a
// seventh of a run).
func (c *checker) children(m proto.Message, s *scope) {
	eachChild(m, 0, func(e proto.Message) { c.visit(e, s) })
}

// rest visits, in scope s, every message-typed field of x that is set except the
// fields in taken: the ones x's handler walks (or, with a reason, leaves) itself.
// Every handler that reads a message's fields ends with it, so a field it does not
// name is walked, one that pg_query_go adds included.
func rest[T proto.Message](c *checker, x T, s *scope, taken fields[T]) {
	eachChild(x, uint64(taken), func(e proto.Message) { c.visit(e, s) })
}

func (c *checker) visitAll(list []*pg.Node, s *scope) {
	for _, n := range list {
		c.visit(n, s)
	}
}

// query walks a statement that produces rows (a subquery, a CTE body) as a
// new level below parent and returns its output column names when known.
func (c *checker) query(n *pg.Node, parent *scope) ([]string, bool) {
	switch x := inner(n).(type) {
	case *pg.SelectStmt:
		return c.selectStmt(x, parent)
	case *pg.InsertStmt:
		return c.insertStmt(x, parent)
	case *pg.UpdateStmt:
		return c.updateStmt(x, parent)
	case *pg.DeleteStmt:
		return c.deleteStmt(x, parent)
	case *pg.MergeStmt:
		return c.mergeStmt(x, parent)
	default:
		c.visit(n, parent)
		return nil, false
	}
}

func (c *checker) withClause(w *pg.WithClause, s *scope) {
	var defs []*cteDef
	for _, n := range w.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			c.visit(n, s)
			continue
		}
		d := &cteDef{name: cte.Ctename}
		if len(cte.Aliascolnames) > 0 {
			d.cols, d.known = stringList(cte.Aliascolnames), true
		}
		defs = append(defs, d)
		if w.Recursive {
			// In WITH RECURSIVE every CTE of the list is visible to every body.
			s.ctes = append(s.ctes, d)
		}
	}
	i := 0
	for _, n := range w.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			continue
		}
		d := defs[i]
		i++
		cols, known := c.query(cte.Ctequery, s)
		if !d.known {
			d.cols, d.known = cols, known
		}
		if sc := cte.SearchClause; sc != nil && sc.SearchSeqColumn != "" {
			d.cols = append(append([]string(nil), d.cols...), sc.SearchSeqColumn)
		}
		if cc := cte.CycleClause; cc != nil {
			d.cols = append(append([]string(nil), d.cols...), cc.CycleMarkColumn, cc.CyclePathColumn)
		}
		rest(c, cte, s, fCommonTableExpr_Ctequery)
		if !w.Recursive {
			// A plain CTE is visible only to the siblings after it.
			s.ctes = append(s.ctes, d)
		}
	}
	rest(c, w, s, fWithClause_Ctes)
}

func stringList(list []*pg.Node) []string {
	out := make([]string, 0, len(list))
	for _, n := range list {
		if str := n.GetString_(); str != nil {
			out = append(out, str.Sval)
		}
	}
	return out
}

func isSetOp(sel *pg.SelectStmt) bool {
	return sel.Op != pg.SetOperation_SETOP_NONE && sel.Op != pg.SetOperation_SET_OPERATION_UNDEFINED
}

func (c *checker) selectStmt(sel *pg.SelectStmt, parent *scope) ([]string, bool) {
	s := &scope{parent: parent}
	if sel.WithClause != nil {
		c.withClause(sel.WithClause, s)
	}
	if isSetOp(sel) || sel.Larg != nil || sel.Rarg != nil {
		var cols []string
		known := false
		if sel.Larg != nil {
			cols, known = c.selectStmt(sel.Larg, s)
		}
		if sel.Rarg != nil {
			c.selectStmt(sel.Rarg, s)
		}
		rs := &scope{parent: s, items: []*item{{cols: cols, known: known}}}
		c.sortClause(sel.SortClause, cols, rs)
		rest(c, sel, rs, fSelectStmt_WithClause|fSelectStmt_Larg|fSelectStmt_Rarg|fSelectStmt_SortClause)
		return cols, known
	}
	if len(sel.ValuesLists) > 0 {
		rest(c, sel, s, fSelectStmt_WithClause)
		n := 0
		if l := sel.ValuesLists[0].GetList(); l != nil {
			n = len(l.Items)
		}
		cols := make([]string, n)
		for i := range cols {
			cols[i] = fmt.Sprintf("column%d", i+1)
		}
		return cols, true
	}
	for _, f := range sel.FromClause {
		c.fromNode(f, s)
	}
	cols, known := c.targetCols(sel.TargetList, s)
	if len(sel.SortClause) > 0 || len(sel.DistinctClause) > 0 {
		outputs := outputNames(sel.TargetList, cols)
		c.sortClause(sel.SortClause, outputs, s)
		c.sortClause(sel.DistinctClause, outputs, s)
	}
	rest(c, sel, s, fSelectStmt_WithClause|fSelectStmt_FromClause|fSelectStmt_SortClause|fSelectStmt_DistinctClause)
	return cols, known
}

func outputNames(targets []*pg.Node, cols []string) []string {
	out := make([]string, len(cols), len(cols)+len(targets))
	copy(out, cols)
	for _, t := range targets {
		if rt := t.GetResTarget(); rt != nil && rt.Name != "" {
			out = append(out, rt.Name)
		}
	}
	return out
}

// sortClause walks ORDER BY / DISTINCT ON, where a bare name is first an
// output column name (PostgreSQL's SQL-92 rule) and only then an input column.
func (c *checker) sortClause(list []*pg.Node, outputs []string, s *scope) {
	for _, n := range list {
		e := n
		if sb := n.GetSortBy(); sb != nil {
			e = sb.Node
			rest(c, sb, s, fSortBy_Node)
		}
		if cr := e.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
			if str := cr.Fields[0].GetString_(); str != nil {
				matched := false
				for _, o := range outputs {
					if o == str.Sval {
						matched = true
					}
				}
				if matched {
					continue
				}
			}
		}
		c.visit(e, s)
	}
}

// targetCols walks a SELECT list and returns the output column names. A name
// is given only where it is certain how PostgreSQL names the column; anything
// else makes the list unknown, which keeps column resolution conservative.
func (c *checker) targetCols(list []*pg.Node, s *scope) ([]string, bool) {
	cols := make([]string, 0, len(list))
	known := true
	for _, n := range list {
		rt := n.GetResTarget()
		if rt == nil {
			known = false
			continue
		}
		if rt.Name != "" {
			cols = append(cols, rt.Name)
			continue
		}
		if cr := rt.Val.GetColumnRef(); cr != nil && len(cr.Fields) > 0 && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
			var its []*item
			if len(cr.Fields) == 1 {
				its = leaves(s.items)
			} else if str := cr.Fields[len(cr.Fields)-2].GetString_(); str != nil {
				if it := s.lookup(str.Sval); it != nil {
					its = leaves([]*item{it})
				}
			}
			if len(its) == 0 {
				known = false
			}
			for _, it := range its {
				if !it.known {
					known = false
				}
				cols = append(cols, it.cols...)
			}
			continue
		}
		name, ok := figureColname(rt.Val)
		if !ok {
			known = false
			continue
		}
		cols = append(cols, name)
	}
	return cols, known
}

func leaves(items []*item) []*item {
	var out []*item
	for _, it := range items {
		if it.children != nil {
			if !it.hidden {
				// children are in the scope too; a wrapper adds nothing.
				continue
			}
			continue
		}
		out = append(out, it)
	}
	return out
}

func figureColname(n *pg.Node) (string, bool) {
	switch x := inner(n).(type) {
	case *pg.ColumnRef:
		if str := x.Fields[len(x.Fields)-1].GetString_(); str != nil {
			return str.Sval, true
		}
	case *pg.FuncCall:
		if str := x.Funcname[len(x.Funcname)-1].GetString_(); str != nil {
			return str.Sval, true
		}
	case *pg.TypeCast:
		if name, ok := figureColname(x.Arg); ok && name != "?column?" {
			return name, true
		}
	case *pg.A_Const, *pg.A_Expr, *pg.ParamRef, *pg.BoolExpr, *pg.NullTest, *pg.BooleanTest:
		return "?column?", true
	}
	return "", false
}

// fromNode walks one FROM entry and adds what it makes visible to s.
func (c *checker) fromNode(n *pg.Node, s *scope) []*item {
	return c.fromItem(inner(n), s)
}

func (c *checker) fromItem(m proto.Message, s *scope) []*item {
	switch x := m.(type) {
	case *pg.RangeVar:
		it := c.rangeVarItem(x, s)
		rest(c, x, s, 0)
		s.items = append(s.items, it)
		return []*item{it}
	case *pg.RangeSubselect:
		saved := s.lateralOnly
		if !x.Lateral {
			s.lateralOnly = true
		}
		cols, known := c.query(x.Subquery, s)
		s.lateralOnly = saved
		rest(c, x, s, fRangeSubselect_Subquery)
		it := &item{cols: cols, known: known}
		c.applyAlias(it, x.Alias)
		s.items = append(s.items, it)
		return []*item{it}
	case *pg.RangeFunction:
		// Functions in FROM may refer to earlier FROM items even without LATERAL.
		rest(c, x, s, 0)
		it := &item{}
		if len(x.Functions) == 1 {
			if l := x.Functions[0].GetList(); l != nil && len(l.Items) > 0 {
				if fc := l.Items[0].GetFuncCall(); fc != nil {
					it.name, _ = figureColname(l.Items[0])
					_ = fc
				}
			}
		}
		if len(x.Coldeflist) > 0 {
			for _, cd := range x.Coldeflist {
				if d := cd.GetColumnDef(); d != nil {
					it.cols = append(it.cols, d.Colname)
				}
			}
			it.known = true
		}
		c.applyAlias(it, x.Alias)
		s.items = append(s.items, it)
		return []*item{it}
	case *pg.JoinExpr:
		left := c.fromNode(x.Larg, s)
		right := c.fromNode(x.Rarg, s)
		for _, u := range stringList(x.UsingClause) {
			c.joinColumn(left, u)
			c.joinColumn(right, u)
		}
		if x.IsNatural {
			c.naturalJoin(left, right)
		}
		c.visit(x.Quals, s)
		rest(c, x, s, fJoinExpr_Larg|fJoinExpr_Rarg|fJoinExpr_Quals)
		all := append(append([]*item(nil), left...), right...)
		var made []*item
		if x.Alias != nil {
			for _, it := range all {
				it.hidden = true
			}
			w := &item{name: x.Alias.Aliasname, children: leaves(all), known: true}
			s.items = append(s.items, w)
			made = append(made, w)
		}
		if x.JoinUsingAlias != nil {
			w := &item{name: x.JoinUsingAlias.Aliasname, children: leaves(all), known: true}
			s.items = append(s.items, w)
			made = append(made, w)
		}
		return append(made, all...)
	case *pg.RangeTableSample:
		its := c.fromNode(x.Relation, s)
		c.add(Nondeterministic, int(x.Location), wordLen(c.src, int(x.Location)), "TABLESAMPLE picks rows at random: the statement is not repeatable")
		rest(c, x, s, fRangeTableSample_Relation)
		return its
	case *pg.RangeTableFunc:
		rest(c, x, s, 0)
		it := &item{}
		for _, col := range x.Columns {
			if tc := col.GetRangeTableFuncCol(); tc != nil {
				it.cols = append(it.cols, tc.Colname)
			}
		}
		it.known = true
		c.applyAlias(it, x.Alias)
		s.items = append(s.items, it)
		return []*item{it}
	default:
		if m != nil {
			c.children(m, s)
		}
		return nil
	}
}

func (c *checker) applyAlias(it *item, a *pg.Alias) {
	if a == nil {
		return
	}
	it.name = a.Aliasname
	if names := stringList(a.Colnames); len(names) > 0 {
		if it.known && len(names) <= len(it.cols) {
			it.cols = append(names, it.cols[len(names):]...)
		} else {
			it.cols, it.known = names, false
		}
	}
}

// rangeVarItem makes the FROM item for a name: a CTE in scope, else a relation.
func (c *checker) rangeVarItem(rv *pg.RangeVar, s *scope) *item {
	if rv.Schemaname == "" && rv.Catalogname == "" {
		if d := s.cte(rv.Relname); d != nil {
			it := &item{name: rv.Relname, cols: d.cols, known: d.known}
			c.applyAlias(it, rv.Alias)
			return it
		}
	}
	r := c.relation(rv, "")
	it := &item{name: rv.Relname, schema: rv.Schemaname, rel: r, cols: r.ddl, known: r.ddlKnown}
	if rv.Alias != nil {
		it.name, it.schema = rv.Alias.Aliasname, ""
		if names := stringList(rv.Alias.Colnames); len(names) > 0 {
			if r.ddlKnown {
				it.rename = map[string]string{}
				vis := append([]string(nil), r.ddl...)
				for i, nm := range names {
					if i < len(vis) {
						it.rename[nm] = vis[i]
						vis[i] = nm
					}
				}
				it.cols = vis
			} else if r.grant != nil && !r.grant.all && !r.tpl {
				c.add(Column, int(rv.Location), tokenLen(c.src, int(rv.Location)), fmt.Sprintf("column aliases on %q hide which columns are read; without DDL dws cannot tell: name the columns instead", r.display))
				it.rename = map[string]string{}
				for _, nm := range names {
					it.rename[nm] = "*"
				}
			}
		}
	}
	return it
}

// relation records a reference to a real relation and checks it.
func (c *checker) relation(rv *pg.RangeVar, _ string) *relRef {
	loc := int(rv.Location)
	for _, part := range []string{rv.Catalogname, rv.Schemaname, rv.Relname} {
		if i, ok := templateIn(part, c.ph); ok {
			c.setRole(i, "table")
			return &relRef{key: "?", display: "{{" + c.ph[i].name + "}}", tpl: true}
		}
	}
	display := rv.Relname
	if rv.Schemaname != "" {
		display = rv.Schemaname + "." + rv.Relname
	}
	ri := c.pol.relation(rv.Schemaname, rv.Relname)
	key := ri.key
	r := &relRef{key: key, display: display, grant: ri.grant, ddl: ri.ddl, ddlKnown: ri.ddlKnown}
	c.use(key, loc)
	view, isView := ri.view, ri.isView
	switch {
	case c.expr:
		c.add(Expression, loc, tokenLen(c.src, loc), fmt.Sprintf("reads table %q: a branch expression may not read a relation", display))
	case isView:
		// A view the DDL defines reads its base relations: they decide, whether or
		// not the allow-list names the view.
		c.ddlBody(view, loc, tokenLen(c.src, loc))
	case r.grant == nil:
		c.add(Table, loc, tokenLen(c.src, loc), fmt.Sprintf("table %q is not on the allow-list", display)+
			didYouMean(display, c.pol.allowedNames(rv.Schemaname != "")))
	}
	if !c.expr {
		for _, b := range ri.attached {
			if b.event == "" {
				c.ddlBody(b, loc, tokenLen(c.src, loc)) // a policy: every access
			}
		}
	}
	return r
}

// use returns the record of relation key's use, made at loc when it is the first;
// nil when the check makes no Relations (Prepared.FindingsOnly).
func (c *checker) use(key string, loc int) *useAcc {
	if c.noUses {
		return nil
	}
	u := c.uses[key]
	if u == nil {
		if c.uses == nil {
			c.uses = map[string]*useAcc{}
		}
		u = &useAcc{offset: loc}
		c.uses[key] = u
		c.useOrder = append(c.useOrder, key)
	}
	return u
}

// col records that column name is used (nil-safe).
func (u *useAcc) col(name string) {
	if u == nil {
		return
	}
	if u.cols == nil {
		u.cols = map[string]bool{}
	}
	u.cols[name] = true
}

// setAll records that every column is used (nil-safe).
func (u *useAcc) setAll() {
	if u != nil {
		u.all = true
	}
}

// setRole records what a template placeholder stands for.
func (c *checker) setRole(i int, role string) {
	if c.tplRoles == nil {
		c.tplRoles = map[int]string{}
	}
	c.tplRoles[i] = role
}

func grants(r *relRef, col string) bool {
	return r.tpl || r.grant == nil || r.grant.all || r.grant.cols[col]
}

func allowedList(g *grant) string {
	if g.list == "" {
		return "no column is allowed"
	}
	return "allowed: " + g.list
}

// colUse records that column col of relation r is read or written.
func (c *checker) colUse(r *relRef, col string, loc int) {
	if r.tpl {
		return
	}
	if col == "*" {
		c.allCols(r, loc, "a column alias")
		return
	}
	c.use(r.key, loc).col(col)
	if r.ddlKnown && !slices.Contains(r.ddl, col) && !systemColumns[col] {
		c.add(Column, loc, tokenLen(c.src, loc), fmt.Sprintf("column %q does not exist in %q (sql.from_ddl)", col, r.display)+
			didYouMean(col, r.ddl))
		return
	}
	if grants(r, col) {
		return
	}
	msg := fmt.Sprintf("column %q of %q is not allowed (%s)", col, r.display, allowedList(r.grant))
	if !r.ddlKnown {
		// Without the DDL a slip for an allowed column reads as a column not granted.
		msg += didYouMean(col, slices.Sorted(maps.Keys(r.grant.cols)))
	}
	c.add(Column, loc, tokenLen(c.src, loc), msg)
}

// allCols records that every column of r is used (*, t.*, a whole-row value,
// an INSERT without a column list, NATURAL JOIN).
func (c *checker) allCols(r *relRef, loc int, what string) {
	if r.tpl {
		return
	}
	c.use(r.key, loc).setAll()
	if r.grant == nil || r.grant.all {
		return
	}
	if r.ddlKnown {
		var missing []string
		for _, col := range r.ddl {
			if !r.grant.cols[col] {
				missing = append(missing, col)
			}
		}
		if len(missing) == 0 {
			return
		}
		c.add(Column, loc, tokenLen(c.src, loc), fmt.Sprintf("%s reads columns of %q that are not allowed: %s (%s)", what, r.display, strings.Join(missing, ", "), allowedList(r.grant)))
		return
	}
	c.add(Column, loc, tokenLen(c.src, loc), fmt.Sprintf("%s uses every column of %q, but only some are granted (%s); name the columns", what, r.display, allowedList(r.grant)))
}

func (c *checker) wholeRow(it *item, loc int, what string) {
	if it.rel != nil {
		c.allCols(it.rel, loc, what)
	}
	for _, ch := range it.children {
		c.wholeRow(ch, loc, what)
	}
}

// joinColumn checks a USING or NATURAL join column. The parse tree keeps no location for
// USING names, so the finding points at the start of the statement.
func (c *checker) joinColumn(items []*item, col string) {
	const loc = 0
	var cands []*item
	for _, it := range leaves(items) {
		if it.has(col) != hasNo {
			cands = append(cands, it)
		}
	}
	c.resolveAmong(col, cands, loc)
}

func (c *checker) naturalJoin(left, right []*item) {
	for _, side := range [][]*item{left, right} {
		for _, it := range leaves(side) {
			if it.rel == nil {
				continue
			}
			if !it.known {
				c.allCols(it.rel, 0, "NATURAL JOIN")
				continue
			}
		}
	}
	// With known columns the common names are the join columns.
	for _, l := range leaves(left) {
		for _, col := range l.cols {
			for _, r := range leaves(right) {
				if r.known && r.has(col) == hasYes && l.known {
					c.joinColumn([]*item{l}, col)
					c.joinColumn([]*item{r}, col)
				}
			}
		}
	}
}

// resolveAmong checks col against the tables among candidates.
func (c *checker) resolveAmong(col string, cands []*item, loc int) {
	var tables []*item
	for _, it := range cands {
		if it.rel != nil {
			tables = append(tables, it)
		}
	}
	if len(tables) == 1 {
		c.colUse(tables[0].rel, tables[0].realCol(col), loc)
		return
	}
	bad := false
	for _, t := range tables {
		rc := t.realCol(col)
		if rc == "*" {
			c.allCols(t.rel, loc, "a column alias")
			continue
		}
		if !t.rel.tpl {
			c.use(t.rel.key, loc).col(rc)
		}
		if !grants(t.rel, rc) {
			bad = true
		}
	}
	if bad {
		names := make([]string, len(tables))
		for i, t := range tables {
			names[i] = fmt.Sprintf("%q", t.name)
		}
		list := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
		c.add(Column, loc, tokenLen(c.src, loc), fmt.Sprintf("unqualified column %q could come from %s; qualify it", col, list))
	}
}

func (c *checker) columnRef(cr *pg.ColumnRef, s *scope) {
	loc := int(cr.Location)
	var names []string
	star := false
	for i, f := range cr.Fields {
		if str := f.GetString_(); str != nil {
			if ti, ok := templateIn(str.Sval, c.ph); ok {
				c.setRole(ti, "column")
				return
			}
			names = append(names, str.Sval)
		} else if f.GetAStar() != nil && i == len(cr.Fields)-1 {
			star = true
		}
	}
	if s == nil {
		s = &scope{}
	}
	switch {
	case star && len(names) == 0:
		for _, it := range leaves(s.items) {
			c.wholeRow(it, loc, "*")
		}
	case star:
		c.qualified(names, "", true, s, loc)
	case len(names) == 1:
		c.unqualified(names[0], s, loc)
	case len(names) > 1:
		c.qualified(names[:len(names)-1], names[len(names)-1], false, s, loc)
	}
}

func (c *checker) unqualified(col string, s *scope, loc int) {
	var cands []*item
	definite := false
	for sc := s; sc != nil && !definite; sc = sc.parent {
		if sc.lateralOnly {
			continue
		}
		for _, it := range sc.items {
			if it.children != nil {
				continue
			}
			switch it.has(col) {
			case hasYes:
				definite = true
				cands = append(cands, it)
			case hasMaybe:
				cands = append(cands, it)
			}
		}
	}
	wholeRow := false
	if !definite {
		// Not (certainly) a column: PostgreSQL then reads it as a whole row.
		if it := s.lookup(col); it != nil {
			c.wholeRow(it, loc, fmt.Sprintf("whole-row reference %q", col))
			wholeRow = true
			// The whole-row check is the stricter one for that item.
			kept := cands[:0:0]
			for _, cand := range cands {
				if cand != it {
					kept = append(kept, cand)
				}
			}
			cands = kept
		}
	}
	if len(cands) == 0 && !wholeRow && c.expr {
		c.add(Expression, loc, tokenLen(c.src, loc), fmt.Sprintf("column %q has nothing to come from: a branch expression sees only {{variables}} and constants", col))
	} else if len(cands) == 0 && !wholeRow && s.lookupAny() {
		// Every relation in scope has a known column list and none has col:
		// PostgreSQL would refuse the statement, and a strict gate says so first.
		c.add(Column, loc, tokenLen(c.src, loc), fmt.Sprintf("column %q is not a column of any relation in scope", col)+
			didYouMean(col, s.columns()))
	}
	c.resolveAmong(col, cands, loc)
}

// qualified resolves quals.col (or quals.* when star).
func (c *checker) qualified(quals []string, col string, star bool, s *scope, loc int) {
	var it *item
	if len(quals) >= 2 {
		sch, tbl := quals[len(quals)-2], quals[len(quals)-1]
		for sc := s; sc != nil && it == nil; sc = sc.parent {
			if sc.lateralOnly {
				continue
			}
			for _, cand := range sc.items {
				if !cand.hidden && cand.rel != nil && cand.name == tbl && cand.schema == sch {
					it = cand
					break
				}
			}
		}
		if it == nil {
			// table.column.field, or column.field.field: read the head.
			c.qualified(quals[:1], quals[1], false, s, loc)
			return
		}
	} else {
		it = s.lookup(quals[0])
		if it == nil {
			// column.field of a composite column
			c.unqualified(quals[0], s, loc)
			return
		}
	}
	if star {
		c.wholeRow(it, loc, quals[len(quals)-1]+".*")
		return
	}
	if len(quals) == 1 && c.itemField(it, col, loc) {
		return
	}
	if it.rel != nil {
		rc := it.realCol(col)
		if rc == "*" {
			c.allCols(it.rel, loc, "a column alias")
			return
		}
		c.colUse(it.rel, rc, loc)
		return
	}
	if it.children != nil {
		var cands []*item
		for _, ch := range it.children {
			if ch.has(col) != hasNo {
				cands = append(cands, ch)
			}
		}
		c.resolveAmong(col, cands, loc)
	}
}
