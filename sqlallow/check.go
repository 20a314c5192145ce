package sqlallow

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	pg "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"

	"github.com/dwsdev/dws/internal/pgparse"
)

// Kind is what a finding is about. The caller decides which of its rules reports
// each kind; this package knows no rule ids.
type Kind uint8

// The kinds of findings, in the order findings at one offset are sorted.
const (
	// Expression: a branch expression is not one boolean expression, or reaches
	// for something other than its variables and constants.
	Expression Kind = iota + 1
	// Args: a $n parameter without an argument, or an argument never used.
	Args
	// Column: a column the policy does not grant, or that no relation in scope has.
	Column
	// Function: a call of a denied function.
	Function
	// Nondeterministic: a volatile function, or a value read when the statement runs.
	Nondeterministic
	// Statement: not exactly one statement, or a kind the policy does not allow.
	Statement
	// Syntax: PostgreSQL's parser rejects the text.
	Syntax
	// Table: a relation the policy does not allow.
	Table
)

var kindNames = [...]string{"", "expression", "args", "column", "function", "nondeterministic", "statement", "syntax", "table"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Finding is one problem in a statement.
type Finding struct {
	Kind    Kind
	Offset  int // 0-based byte offset into the text that was checked
	Length  int // bytes to underline
	Message string
}

// Use is one relation the statement reads or writes.
type Use struct {
	Relation string   // schema.name, normalised
	Columns  []string // columns used, sorted; "*" when every column is
	Offset   int      // first reference
}

// Result is what CheckStatement and CheckExpression found.
type Result struct {
	Findings  []Finding
	Relations []Use
}

// placeholder is one {{name}} in the original text.
type placeholder struct {
	start, end int
	name       string
	ident      bool // substituted as an identifier, not a parameter
}

// maxPlaceholders bounds the {{…}} a statement may hold: each becomes $9000+i,
// which must fit in the five bytes of the shortest placeholder.
const maxPlaceholders = 1000

// findPlaceholders finds the {{name}} placeholders of s, and every other "{{":
// a placeholder is "{{", optional spaces, a name (letters, digits, underscores;
// dots between the parts of a path), optional spaces, "}}". Anything else that
// opens "{{" is returned in bad: a template engine may replace it whatever it
// holds, so what PostgreSQL runs would not be what dws parsed.
func findPlaceholders(s string, ph []placeholder) (_ []placeholder, bad []int) {
	for i := 0; i+1 < len(s); i++ {
		k := strings.Index(s[i:], "{{")
		if k < 0 {
			break
		}
		i += k
		end, name, ok := placeholderAt(s, i)
		if !ok {
			bad = append(bad, i)
			i++
			continue
		}
		ph = append(ph, placeholder{start: i, end: end, name: name})
		i = end - 1
	}
	return ph, bad
}

// placeholderAt reads the placeholder that opens at s[i:] ("{{").
func placeholderAt(s string, i int) (end int, name string, ok bool) {
	j := i + 2
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	start := j
	for {
		k := j
		for k < len(s) && (s[k] == '_' || s[k] >= 'a' && s[k] <= 'z' || s[k] >= 'A' && s[k] <= 'Z' || s[k] >= '0' && s[k] <= '9') {
			k++
		}
		if k == j || j == start && s[j] >= '0' && s[j] <= '9' {
			return 0, "", false // an empty part, or a name that starts with a digit
		}
		j = k
		if j < len(s) && s[j] == '.' {
			j++
			continue
		}
		break
	}
	name = s[start:j]
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	if !strings.HasPrefix(s[j:], "}}") {
		return 0, "", false
	}
	return j + 2, name, true
}

// substitute replaces each placeholder by a token of exactly its length: a
// parameter $9000+i, or for one that stands where a name is needed, the
// identifier q$NNN. Either way every offset still points into the original.
func substitute(s string, ph []placeholder) string {
	if len(ph) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for i, p := range ph {
		b.WriteString(s[at:p.start])
		var num [8]byte
		tok := num[:0]
		if p.ident {
			tok = append(tok, 'q', '$', byte('0'+i/100%10), byte('0'+i/10%10), byte('0'+i%10))
		} else {
			tok = strconv.AppendInt(append(tok, '$'), int64(9000+i), 10)
		}
		b.Write(tok)
		for range p.end - p.start - len(tok) {
			b.WriteByte(' ')
		}
		at = p.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// templateIn reports which placeholder a name was made from, if any.
func templateIn(name string, ph []placeholder) (int, bool) {
	if len(ph) == 0 {
		return 0, false
	}
	for i := 0; i+4 < len(name); i++ {
		var digits string
		switch {
		case name[i] == 'q' && name[i+1] == '$':
			digits = name[i+2 : i+5]
			if n, err := strconv.Atoi(digits); err == nil && n < len(ph) {
				return n, true
			}
		case name[i] == '$' && name[i+1] == '9':
			digits = name[i+1 : i+5]
			if n, err := strconv.Atoi(digits); err == nil && n-9000 < len(ph) && n >= 9000 {
				return n - 9000, true
			}
		}
	}
	return 0, false
}

// parseTemplated parses s with its placeholders substituted. A placeholder at
// which the parser stops is retried as an identifier, so that `FROM {{t}}`
// parses and is then reported as a name the allow-list cannot check.
func parseTemplated(s string, a *pgparse.Arena, buf []placeholder) (*pg.ParseResult, []placeholder, string, error) {
	ph, bad := findPlaceholders(s, buf)
	if len(bad) > 0 {
		return nil, ph, s, badPlaceholders(bad)
	}
	if len(ph) > maxPlaceholders {
		ph = ph[:maxPlaceholders]
	}
	for {
		src := substitute(s, ph)
		tree, err := a.Parse(src)
		if err == nil {
			return tree, ph, src, nil
		}
		var pe *pgparser.Error
		if !errors.As(err, &pe) {
			return nil, ph, src, err
		}
		at := charToByte(src, pe.Cursorpos-1)
		retried := false
		for i := range ph {
			if !ph[i].ident && at >= ph[i].start && at < ph[i].end {
				ph[i].ident = true
				retried = true
				break
			}
		}
		if !retried {
			return nil, ph, src, err
		}
	}
}

// badPlaceholders is the error for text with a "{{" that is not a placeholder.
type badPlaceholders []int

func (b badPlaceholders) Error() string {
	return "{{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked"
}

// addBad reports each "{{" that is not a placeholder and says whether there was one.
func (c *checker) addBad(err error) bool {
	if err == nil {
		return false // before errors.As, whose target would escape for every statement
	}
	var bad badPlaceholders
	if !errors.As(err, &bad) {
		return false
	}
	for _, off := range bad {
		c.add(Syntax, off, 2, bad.Error())
	}
	return true
}

// sessions hold what a check needs and drops when its Result is made: the arena its
// tree is built in, and its checker. A Result holds no node of the tree and none of
// the checker's slices (its findings are copied out), so the next check reuses both,
// which spares allocating and collecting an object per node and the checker's own
// memory. A check that parses more while its tree is live (a DDL function's body)
// uses the heap and a checker of its own.
var sessions = sync.Pool{New: func() any { return new(session) }}

type session struct {
	arena pgparse.Arena
	c     checker
}

// checker returns the session's checker, reset for a new check under pol; its
// slices keep their memory, emptied.
func (s *session) checker(pol *compiled, noUses bool) *checker {
	c := &s.c
	clear(c.findings)
	clear(c.ph)
	clear(c.params)
	*c = checker{pol: pol, noUses: noUses, findings: c.findings[:0], ph: c.ph[:0], params: c.params[:0]}
	return c
}

// Prepared is a policy compiled once for many checks: a snapshot of the Policy it was
// made from (changes to that Policy do not reach it), safe for concurrent use.
type Prepared struct {
	pol          *compiled
	findingsOnly bool
}

// Prepare compiles p for checking (nil: DefaultPolicy). Compiling it again for every
// statement was a tenth of the allow-list's allocations.
func Prepare(p *Policy) *Prepared { return &Prepared{pol: compile(p)} }

// FindingsOnly returns pp for a caller that reads only Result.Findings: its checks
// leave Result.Relations nil, and skip recording what each relation's use touches.
func (pp *Prepared) FindingsOnly() *Prepared { return &Prepared{pol: pp.pol, findingsOnly: true} }

// CheckStatement checks one sql step statement. args is the number of
// entries in the step's args (-1: unknown, sql-args is not checked).
func CheckStatement(stmt string, args int, p *Policy) Result {
	return Prepare(p).Statement(stmt, args)
}

// CheckExpression checks a branch expression: one SQL expression that reads
// no relation. Offsets are into expr.
func CheckExpression(expr string, p *Policy) Result {
	return Prepare(p).Expression(expr)
}

// Statement is CheckStatement under the prepared policy.
func (pp *Prepared) Statement(stmt string, args int) Result {
	ss := sessions.Get().(*session)
	defer sessions.Put(ss)
	c := ss.checker(pp.pol, pp.findingsOnly)
	tree, ph, src, err := parseTemplated(stmt, &ss.arena, c.ph)
	c.src, c.ph = src, ph
	if c.addBad(err) {
		return c.result()
	}
	if err != nil {
		se := syntaxError(src, err)
		c.add(Syntax, se.Offset, 1, se.Message)
		return c.result()
	}
	if len(tree.Stmts) == 0 {
		c.add(Statement, 0, len(stmt), "no statement: a sql step runs exactly one")
		return c.result()
	}
	if len(tree.Stmts) > 1 {
		loc := skipSpace(src, int(tree.Stmts[1].StmtLocation))
		c.add(Statement, loc, stmtLen(src, tree.Stmts[1])-(loc-int(tree.Stmts[1].StmtLocation)), fmt.Sprintf("%d statements: a sql step runs exactly one", len(tree.Stmts)))
	}
	for _, raw := range tree.Stmts {
		kind := StatementKind(raw.Stmt)
		if !c.pol.statements[kind] {
			loc := skipSpace(src, int(raw.StmtLocation))
			c.add(Statement, loc, wordLen(src, loc), fmt.Sprintf("%s statements are not allowed (allowed: %s)", strings.ToUpper(kind), strings.Join(sortedKeys(c.pol.statements), ", ")))
			c.refusedCall = raw.Stmt.GetCallStmt()
		}
		c.top = raw.Stmt
		c.visit(raw.Stmt, nil)
	}
	c.templateFindings()
	if args >= 0 {
		c.checkArgs(args)
	}
	return c.result()
}

// exprPrefix wraps a branch expression so the parser reads it as one.
const exprPrefix = "SELECT ("

// Expression is CheckExpression under the prepared policy.
func (pp *Prepared) Expression(expr string) Result {
	ss := sessions.Get().(*session)
	defer sessions.Put(ss)
	c := ss.checker(pp.pol, pp.findingsOnly)
	c.expr = true
	wrapped := exprPrefix + expr + "\n)"
	tree, ph, src, err := parseTemplated(wrapped, &ss.arena, c.ph)
	c.src, c.ph, c.shift = src, ph, len(exprPrefix)
	if c.addBad(err) {
		return c.result()
	}
	if err != nil {
		if off, ok := strayClose(expr); ok {
			// The wrapper's own ")" is what the parser trips over; the real
			// problem is the expression closing a parenthesis it never opened,
			// the way `true); DROP TABLE x; --` tries to escape.
			c.add(Expression, len(exprPrefix)+off, 1, "not one boolean expression: this \")\" closes a parenthesis the expression never opened")
			return c.result()
		}
		se := syntaxError(src, err)
		c.add(Expression, se.Offset, 1, "not one boolean expression: "+se.Message)
		return c.result()
	}
	var sel *pg.SelectStmt
	if len(tree.Stmts) == 1 {
		sel = tree.Stmts[0].Stmt.GetSelectStmt()
	}
	if sel == nil || len(sel.TargetList) != 1 || sel.IntoClause != nil || len(sel.FromClause) > 0 ||
		sel.WhereClause != nil || len(sel.GroupClause) > 0 || sel.HavingClause != nil ||
		len(sel.WindowClause) > 0 || len(sel.ValuesLists) > 0 || len(sel.SortClause) > 0 ||
		sel.LimitCount != nil || sel.LimitOffset != nil || len(sel.LockingClause) > 0 ||
		sel.WithClause != nil || sel.Op != pg.SetOperation_SET_OPERATION_UNDEFINED && sel.Op != pg.SetOperation_SETOP_NONE ||
		len(sel.DistinctClause) > 0 || sel.TargetList[0].GetResTarget() == nil || sel.TargetList[0].GetResTarget().Name != "" ||
		sel.TargetList[0].GetResTarget().GetVal().GetRowExpr() != nil {
		c.add(Expression, len(exprPrefix), len(expr), "not one boolean expression")
		return c.result()
	}
	if v := sel.TargetList[0].GetResTarget().Val; v != nil {
		if k := v.GetAConst(); k != nil && (k.GetIval() != nil || k.GetFval() != nil || k.GetSval() != nil || k.GetBsval() != nil) {
			c.add(Expression, int(k.Location), tokenLen(src, int(k.Location)), "not a boolean expression: a constant that is not true or false")
		}
	}
	c.top = tree.Stmts[0].Stmt
	c.visit(tree.Stmts[0].Stmt, nil)
	c.templateFindings()
	for _, pr := range c.params {
		if !c.isTemplateParam(pr) {
			c.add(Expression, int(pr.Location), tokenLen(src, int(pr.Location)), fmt.Sprintf("$%d has nothing to bind to in a branch expression; use {{name}}", pr.Number))
		}
	}
	return c.result()
}

// StatementKind is the statement kind of a parsed statement, as Policy.Statements
// names it.
func StatementKind(n *pg.Node) string {
	switch st := n.Node.(type) {
	case *pg.Node_SelectStmt:
		if selectInto(st.SelectStmt) {
			return "select into"
		}
		return "select"
	case *pg.Node_InsertStmt:
		return "insert"
	case *pg.Node_UpdateStmt:
		return "update"
	case *pg.Node_DeleteStmt:
		return "delete"
	case *pg.Node_MergeStmt:
		return "merge"
	case *pg.Node_CreateStmt:
		return "create table"
	case *pg.Node_CreateTableAsStmt:
		return "create table as"
	case *pg.Node_ViewStmt:
		return "create view"
	case *pg.Node_IndexStmt:
		return "create index"
	case *pg.Node_VariableSetStmt:
		return "set"
	case *pg.Node_VariableShowStmt:
		return "show"
	case *pg.Node_TransactionStmt:
		return "transaction"
	case *pg.Node_GrantStmt, *pg.Node_GrantRoleStmt:
		return "grant"
	case *pg.Node_DeclareCursorStmt:
		return "declare"
	case *pg.Node_ClosePortalStmt:
		return "close"
	case *pg.Node_CheckPointStmt:
		return "checkpoint"
	}
	if n.Node == nil {
		return "unknown"
	}
	return kindOf(string(n.ProtoReflect().WhichOneof(n.ProtoReflect().Descriptor().Oneofs().Get(0)).Message().Name()))
}

// kindOf turns a statement node's message name into its kind: AlterTableStmt is
// "alter table".
func kindOf(message string) string {
	name := strings.TrimSuffix(message, "Stmt")
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func selectInto(s *pg.SelectStmt) bool {
	if s == nil {
		return false
	}
	return s.IntoClause != nil || selectInto(s.Larg)
}

// skipSpace moves past white space and comments before a statement.
func skipSpace(src string, off int) int {
	for off < len(src) {
		switch {
		case src[off] == ' ' || src[off] == '\t' || src[off] == '\n' || src[off] == '\r' || src[off] == '\f':
			off++
		case strings.HasPrefix(src[off:], "--"):
			i := strings.IndexByte(src[off:], '\n')
			if i < 0 {
				return len(src)
			}
			off += i + 1
		case strings.HasPrefix(src[off:], "/*"):
			i := strings.Index(src[off+2:], "*/")
			if i < 0 {
				return off
			}
			off += i + 4
		default:
			return off
		}
	}
	return off
}

func stmtLen(src string, raw *pg.RawStmt) int {
	if raw.StmtLen == 0 {
		return len(src) - int(raw.StmtLocation)
	}
	return int(raw.StmtLen)
}

func isIdentByte(ch byte) bool {
	return ch == '_' || ch == '$' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch >= 0x80
}

// wordLen is the length of the word (keyword or plain identifier) at off.
func wordLen(src string, off int) int {
	if off < 0 || off >= len(src) {
		return 1
	}
	i := off
	for i < len(src) && isIdentByte(src[i]) {
		i++
	}
	if i == off {
		return 1
	}
	return i - off
}

// tokenLen is the length of a possibly qualified, possibly quoted name at
// off (a.b."C"), or of one word or symbol.
func tokenLen(src string, off int) int {
	if off < 0 || off >= len(src) {
		return 1
	}
	if src[off] == '\'' {
		j := off + 1
		for j < len(src) && src[j] != '\'' {
			j++
		}
		return j + 1 - off
	}
	i := off
	for i < len(src) {
		switch {
		case src[i] == '"':
			j := i + 1
			for j < len(src) {
				if src[j] == '"' {
					if j+1 < len(src) && src[j+1] == '"' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = j + 1
		case isIdentByte(src[i]):
			for i < len(src) && isIdentByte(src[i]) {
				i++
			}
		default:
			if i == off {
				return 1
			}
			return i - off
		}
		if i < len(src) && src[i] == '.' && i+1 < len(src) && (src[i+1] == '"' || isIdentByte(src[i+1]) || src[i+1] == '*') {
			i++
			if src[i] == '*' {
				i++
				break
			}
			continue
		}
		break
	}
	if i > len(src) {
		i = len(src)
	}
	return i - off
}

func (c *checker) add(kind Kind, off, length int, msg string) {
	off -= c.shift
	if c.expr {
		// The wrapper's own bytes are not in the expression.
		limit := len(c.src) - c.shift - len("\n)")
		if off < 0 {
			off = 0
		}
		if off > limit {
			off = limit
		}
		if off+length > limit {
			length = limit - off
		}
		if kind != Function && kind != Nondeterministic {
			kind = Expression
		}
	}
	if off < 0 {
		off = 0
	}
	if length < 1 {
		length = 1
	}
	c.findings = append(c.findings, Finding{Kind: kind, Offset: off, Length: length, Message: msg})
}

func (c *checker) result() Result {
	slices.SortStableFunc(c.findings, func(a, b Finding) int {
		if a.Offset != b.Offset {
			return cmp.Compare(a.Offset, b.Offset)
		}
		if a.Kind != b.Kind {
			return cmp.Compare(a.Kind, b.Kind)
		}
		return strings.Compare(a.Message, b.Message)
	})
	var out []Finding
	for i, f := range c.findings {
		if i > 0 && f == c.findings[i-1] {
			continue
		}
		out = append(out, f)
	}
	r := Result{Findings: out}
	for _, u := range c.useOrder {
		acc := c.uses[u]
		use := Use{Relation: u, Offset: acc.offset - c.shift}
		if acc.all {
			use.Columns = []string{"*"}
		} else {
			use.Columns = sortedKeys(acc.cols)
		}
		r.Relations = append(r.Relations, use)
	}
	sort.SliceStable(r.Relations, func(i, j int) bool { return r.Relations[i].Offset < r.Relations[j].Offset })
	return r
}

func (c *checker) isTemplateParam(pr *pg.ParamRef) bool {
	for _, p := range c.ph {
		if int(pr.Location) == p.start && !p.ident {
			return true
		}
	}
	return false
}

func (c *checker) checkArgs(args int) {
	used := map[int]bool{}
	reported := map[int]bool{}
	for _, pr := range c.params {
		if c.isTemplateParam(pr) {
			continue
		}
		n := int(pr.Number)
		used[n] = true
		if (n < 1 || n > args) && !reported[n] {
			reported[n] = true
			c.add(Args, int(pr.Location), tokenLen(c.src, int(pr.Location)), fmt.Sprintf("$%d has no entry in args (%d given)", n, args))
		}
	}
	for i := 0; i < args; i++ {
		if !used[i+1] {
			c.add(Args, 0, len(c.src), fmt.Sprintf("args[%d] is never used", i))
		}
	}
}

// templateFindings reports placeholders that stand where a name is needed,
// or inside a name: their value decides which table or column is used.
func (c *checker) templateFindings() {
	for i, p := range c.ph {
		role, ok := c.tplRoles[i]
		if !ok && !p.ident {
			continue
		}
		if !ok {
			role = "name"
		}
		kind, named := map[string]Kind{"table": Table, "column": Column, "function": Function}[role]
		if !named {
			kind = Syntax
		}
		c.add(kind, p.start, p.end-p.start, fmt.Sprintf("{{%s}} is used as a %s: a template value cannot choose a %s; the allow-list cannot check it", p.name, role, role))
	}
}

// strayClose finds the first ")" in expr (scanned as SQL, so strings, quoted names and
// comments do not count) that closes more parentheses than the expression opened.
func strayClose(expr string) (int, bool) {
	scan, err := pg.Scan(expr)
	if err != nil {
		return 0, false
	}
	depth := 0
	for _, tok := range scan.Tokens {
		switch tok.Token {
		case pg.Token_ASCII_40:
			depth++
		case pg.Token_ASCII_41:
			if depth == 0 {
				return int(tok.Start), true
			}
			depth--
		}
	}
	return 0, false
}

// KnownKind reports whether kind is a statement kind Policy.Statements can name: the
// kinds Kind returns for every statement node of PostgreSQL's grammar.
func KnownKind(kind string) bool {
	return knownKinds()[kind]
}

var knownKinds = sync.OnceValue(func() map[string]bool {
	kinds := map[string]bool{"select into": true, "create table": true, "create table as": true,
		"create view": true, "create index": true, "set": true, "show": true, "transaction": true,
		"grant": true, "declare": true, "close": true, "checkpoint": true}
	fields := (&pg.Node{}).ProtoReflect().Descriptor().Oneofs().Get(0).Fields()
	for i := range fields.Len() {
		if m := fields.Get(i).Message(); m != nil && strings.HasSuffix(string(m.Name()), "Stmt") {
			kinds[kindOf(string(m.Name()))] = true
		}
	}
	return kinds
})
