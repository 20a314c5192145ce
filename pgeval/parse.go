// Package pgeval evaluates Cortex branch expressions with PostgreSQL's semantics, so
// that the simulator can tell which way a branch goes for a given context and find
// contexts that send it each way (SPEC §8.4). It parses with PostgreSQL's own parser
// (pg_query) and evaluates the tree itself: three-valued logic, exact decimals with
// PostgreSQL's display scales and division rule, its errors (division by zero, values
// that do not convert, integer overflow), literal typing and coercion. A differential
// test holds it to a real PostgreSQL server.
//
// It knows SQL expressions and nothing else: no dialect, no simulator.
//
// Typing decisions:
//   - {{name}} is the context value name: a JSON number is numeric (with the scale it
//     is written with), a string text, a boolean boolean; an absent or null value is an
//     untyped NULL, which takes the type the expression around it gives it, as a NULL
//     literal does in PostgreSQL.
//   - Numbers, in the context and in the expression, are read exactly as numeric reads
//     them, whatever the exponent (1e-1001 has 1001 digits after the point). One that
//     numeric cannot hold (more than 16383 digits after the point, 10^131072 or more)
//     raises numeric's "value overflows numeric format" wherever it stands, as the
//     server does for the literal; arithmetic keeps numeric's range and rounds a
//     product to 16383 digits after the point, as numeric_mul does.
//   - Text compares byte by byte and lower/upper change ASCII letters only: PostgreSQL's
//     "C" collation and character classes. (Under another collation the server may
//     order non-ASCII text differently.)
//   - abs and round are resolved as PostgreSQL resolves them: abs or round of an
//     unknown (an absent variable, a quoted literal) and round of an integer are their
//     double precision forms, evaluated as IEEE doubles with PostgreSQL's overflow and
//     underflow errors and its text output (round('2.5') is 2: half to even).
//     double precision is no cast target, and a double never holds NaN or an infinity:
//     text that would give one (NaN, Infinity, hexadecimal) is an unsupported value.
//   - An IN list is one comparison with an array when the left side and the items have
//     a common type (and there is more than one item), else an OR of comparisons typed
//     one by one, as PostgreSQL's transformAExprIn builds it.
//   - LIKE follows PostgreSQL's like_match.c step for step, so a pattern ending in \
//     raises its error exactly when the server's matching reaches the \.
//   - Whether an expression is supported is decided from its constructs
//     (Expr.Unsupported), never by evaluating it once. Anything outside the subset is
//     Unsupported, with its offset; a supported expression still returns Unsupported
//     for a context value it has no SQL value for (an array, an object, numeric NaN).
//
// Witness decisions (SPEC §8.4, "A proof is a promise"; witness.go, regions.go,
// abstract.go):
//   - A variable no domain restricts ranges over every JSON value: a number, a string,
//     true, false, and null or absent (both NULL). A number is one numeric can hold: one
//     it cannot (10^131072 or more, more than 16383 digits after the point) raises an
//     error wherever it stands, and proofs do not cover it. A string is one text can
//     hold (no NUL), ordered byte by byte, as the "C" collation orders it (the
//     differential server runs with --locale=C).
//   - A search whose "none found" is no proof tries, besides the regions, the negatives
//     of the constants and the other variables' domain bounds; its candidates are
//     bounded by MaxWork.
//   - ErrorWitness (sim-branch-error) counts only contexts whose types the expression
//     compiles with: a value of a type it cannot take at all (a string compared with a
//     number) raises an error for every value of that type, which is no finding of its
//     own; it still takes the false edge, and proofs count it.
//   - A domain that admits no value at all (an output schema no output fits: an integer
//     between 0.2 and 0.8, an enum of another type) gives no context and no proof: the
//     search finds nothing and claims nothing, so no edge is called dead for it.
package pgeval

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	pg "github.com/pganalyze/pg_query_go/v5"

	"github.com/dwsdev/dws/internal/pgparse"
)

// prefix wraps an expression so that PostgreSQL parses it as one.
const prefix = "SELECT ("

// Expr is a parsed branch expression.
type Expr struct {
	src  string // the expression as written
	root *pg.Node
	// names maps a parameter number to its variable.
	names map[int32]string
	vars  []string

	// conjunct marks an argument of a parent's AND (see conjuncts): it is compiled
	// as a boolean, as the AND coerces it.
	conjunct bool
	// part is the expression's place among the conjuncts of the one it was split from
	// (1 for the first), 0 for an expression as parsed: with src, which part of which
	// expression it is, whatever its variables are called.
	part int

	// shape is what the tree is without a context, shared by the expression, its
	// conjuncts and its renamings (see shape).
	shape *shape

	mu       sync.Mutex
	parts    []*Expr  // the conjuncts, once asked for
	pnames   []string // see partNames
	pnamesOK bool
}

// Parse parses a branch expression whose {{name}} placeholders are variables. A syntax
// error is an *SQLError with the offset in the message.
func Parse(expr string) (*Expr, error) {
	sub, names, vars, err := substitute(expr)
	if err != nil {
		return nil, err
	}
	tree, err := pgparse.Parse(prefix + sub + "\n)")
	if err != nil {
		return nil, &SQLError{Code: "42601", Message: err.Error()}
	}
	if len(tree.Stmts) != 1 {
		return nil, &SQLError{Code: "42601", Message: "not one expression"}
	}
	sel := tree.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 || len(sel.FromClause) > 0 || sel.WhereClause != nil {
		return nil, &SQLError{Code: "42601", Message: "not one expression"}
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Val == nil {
		return nil, &SQLError{Code: "42601", Message: "not one expression"}
	}
	return &Expr{src: expr, root: rt.Val, names: names, vars: vars, shape: &shape{root: rt.Val}}, nil
}

// substitute replaces each {{name}} by a parameter $N of the same length (padded with
// spaces), so that offsets in the parse tree are offsets in the expression.
func substitute(expr string) (string, map[int32]string, []string, error) {
	var b strings.Builder
	names := map[int32]string{}
	number := map[string]int32{}
	var vars []string
	for i := 0; i < len(expr); {
		open := strings.Index(expr[i:], "{{")
		if open < 0 {
			b.WriteString(expr[i:])
			break
		}
		open += i
		end := strings.Index(expr[open:], "}}")
		if end < 0 {
			return "", nil, nil, &SQLError{Code: "42601", Message: fmt.Sprintf("unclosed {{ at %d", open)}
		}
		end += open + 2
		name := strings.TrimSpace(expr[open+2 : end-2])
		if !validName(name) {
			return "", nil, nil, &SQLError{Code: "42601", Message: fmt.Sprintf("%q is not a variable name", expr[open:end])}
		}
		n, ok := number[name]
		if !ok {
			n = int32(len(number) + 1)
			number[name] = n
			names[n] = name
			vars = append(vars, name)
		}
		tok := "$" + strconv.Itoa(int(n))
		if len(tok) > end-open {
			return "", nil, nil, &SQLError{Code: "42601", Message: "too many variables"}
		}
		b.WriteString(expr[i:open])
		b.WriteString(tok + strings.Repeat(" ", end-open-len(tok)))
		i = end
	}
	return b.String(), names, vars, nil
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case i > 0 && (r >= '0' && r <= '9' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// Renamed is the expression with each variable v read as name(v): the same expression
// over other variables (a witness search over a path gives a variable that changes on
// the way one name per value).
func (e *Expr) Renamed(name func(string) string) *Expr {
	r := &Expr{src: e.src, root: e.root, names: map[int32]string{}, conjunct: e.conjunct, part: e.part, shape: e.shape}
	for n, v := range e.names {
		r.names[n] = name(v)
	}
	for _, v := range e.vars {
		r.vars = append(r.vars, name(v))
	}
	return r
}

// Source is the expression as written.
func (e *Expr) Source() string { return e.src }

// Variables are the expression's variables, in order of first use.
func (e *Expr) Variables() []string { return append([]string(nil), e.vars...) }

// offset converts a parse-tree location to an offset in the expression.
func offset(loc int32) int { return max(int(loc)-len(prefix), 0) }

// Eval evaluates the expression over a context. Errors are *SQLError (PostgreSQL
// would raise it) or *Unsupported.
//
// How an expression compiles depends on its variables' types, never on their values
// (a NULL is the exception: it is an untyped literal, so it is part of the type), so a
// compiled program is kept per signature of types and reused with new values: the
// witness search evaluates one expression over thousands of contexts.
func (e *Expr) Eval(ctx map[string]any) (Value, error) {
	key, vals, ok := e.signature(ctx)
	if !ok {
		c := &compiler{e: e, ctx: ctx}
		n, err := c.top()
		if err != nil {
			return Value{}, err
		}
		return n.eval()
	}
	p := e.takeProgram(key)
	if p == nil {
		p = &program{slots: make([]Value, len(e.vars))}
		c := &compiler{e: e, ctx: ctx, slots: p.slots}
		p.root, p.err = c.top()
	}
	defer e.putProgram(key, p)
	if p.err != nil {
		return Value{}, p.err
	}
	copy(p.slots, vals)
	return p.root.eval()
}

// top compiles the whole expression; a conjunct is coerced to boolean as the AND it
// stands in coerces it.
func (c *compiler) top() (*node, error) {
	n, err := c.compile(c.e.root)
	if err != nil || !c.e.conjunct {
		return n, err
	}
	return coerce(n, Bool)
}

// conjuncts are the arguments of the expression's top-level AND (of the ANDs among
// them, and so on), each an expression of its own over the variables it names; the
// expression itself when it is no AND. The expression is true exactly when every
// conjunct is: PostgreSQL's AND is true only when every argument is true, and an
// argument's type, value and error do not depend on its neighbours.
func (e *Expr) conjuncts() []*Expr {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.parts == nil {
		var split func(n *pg.Node)
		split = func(n *pg.Node) {
			if b := n.GetBoolExpr(); b != nil && b.Boolop == pg.BoolExprType_AND_EXPR {
				for _, arg := range b.Args {
					split(arg)
				}
				return
			}
			if n == e.root {
				e.parts = append(e.parts, e)
				return
			}
			part := &Expr{src: e.src, root: n, names: e.names, conjunct: true, part: len(e.parts) + 1, shape: e.shape}
			named := e.paramsOf(n)
			for _, v := range e.vars {
				if slices.Contains(named, v) {
					part.vars = append(part.vars, v)
				}
			}
			e.parts = append(e.parts, part)
		}
		split(e.root)
	}
	return e.parts
}

// shape is what an expression's parse tree is, whatever the context: each node's
// children, the variables (parameter numbers) at or below it, its size (treeSize); and
// the programs compiled from it (see Eval). It is shared by the expression, its
// conjuncts and its renamings (a program reads variables by position, never by name),
// which the witness search makes thousands of: reading the tree goes through protobuf
// reflection, so it is read once, the first time it is asked about.
type shape struct {
	root  *pg.Node
	once  sync.Once
	nodes map[*pg.Node]nodeShape

	mu       sync.Mutex
	programs map[poolKey][]*program // idle, by signature (see takeProgram)
	analyses map[*pg.Node]*analysis // by root, over placeholder names (analysisOf)
}

type nodeShape struct {
	kids   []*pg.Node
	params []int32 // sorted, each once
	size   int
}

// poolKey names the programs of one expression (its root, and whether it is compiled
// as a conjunct) for one signature of types.
type poolKey struct {
	root      *pg.Node
	conjunct  bool
	signature string
}

func (s *shape) of(n *pg.Node) nodeShape {
	s.once.Do(func() {
		s.nodes = map[*pg.Node]nodeShape{}
		visitShapes(s.root, s.nodes)
	})
	ns, ok := s.nodes[n]
	if !ok {
		// Not a node of the tree (never, as the package uses it): read it as it is.
		ns = visitShapes(n, map[*pg.Node]nodeShape{})
	}
	return ns
}

// visitShapes finds the shape of n and of every node below it, into nodes.
func visitShapes(root *pg.Node, nodes map[*pg.Node]nodeShape) nodeShape {
	var visit func(n *pg.Node) nodeShape
	visit = func(n *pg.Node) nodeShape {
		kids, ok := directChildren(n)
		if !ok {
			kids = children(n)
		}
		ns := nodeShape{kids: kids, size: 1}
		if p := n.GetParamRef(); p != nil {
			ns.params = []int32{p.Number}
		}
		for _, c := range ns.kids {
			cs := visit(c)
			ns.params = append(ns.params, cs.params...)
			ns.size += cs.size
		}
		if len(ns.kids) > 1 {
			slices.Sort(ns.params)
			ns.params = slices.Compact(ns.params)
		}
		if n.GetList() != nil && len(ns.params) == 0 {
			ns.size = 1 // a list of constants is looked up, not scanned
		}
		nodes[n] = ns
		return ns
	}
	return visit(root)
}

// directChildren is children(n) for the nodes branch expressions are mostly made of,
// read from their fields rather than through reflection (in the same order); ok is false
// for another node.
func directChildren(n *pg.Node) (kids []*pg.Node, ok bool) {
	add := func(ms ...*pg.Node) {
		for _, m := range ms {
			if m != nil {
				kids = append(kids, m)
			}
		}
	}
	switch x := n.Node.(type) {
	case *pg.Node_ParamRef, *pg.Node_AConst, *pg.Node_String_:
		return nil, true
	case *pg.Node_BoolExpr:
		add(x.BoolExpr.Xpr)
		kids = append(kids, x.BoolExpr.Args...)
	case *pg.Node_AExpr:
		kids = append(kids, x.AExpr.Name...)
		add(x.AExpr.Lexpr, x.AExpr.Rexpr)
	case *pg.Node_NullTest:
		add(x.NullTest.Xpr, x.NullTest.Arg)
	case *pg.Node_BooleanTest:
		add(x.BooleanTest.Xpr, x.BooleanTest.Arg)
	case *pg.Node_List:
		kids = append(kids, x.List.Items...)
	default:
		return nil, false
	}
	return kids, true
}

// analysisOf is the analysis (regions.go) of the tree at e's root with each parameter p
// named placeholder(p), found once.
func (s *shape) analysisOf(e *Expr) *analysis {
	s.mu.Lock()
	a, ok := s.analyses[e.root]
	s.mu.Unlock()
	if ok {
		return a
	}
	named := &Expr{src: e.src, root: e.root, names: map[int32]string{}, conjunct: e.conjunct, part: e.part, shape: s}
	for _, p := range s.of(e.root).params {
		named.names[p] = placeholder(p)
		named.vars = append(named.vars, placeholder(p))
	}
	a = newAnalysis()
	a.expr(named)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.analyses == nil {
		s.analyses = map[*pg.Node]*analysis{}
	}
	s.analyses[e.root] = a
	return a
}

// paramsOf are the variables named in n.
func (e *Expr) paramsOf(n *pg.Node) []string {
	var out []string
	for _, p := range e.shape.of(n).params {
		if name, ok := e.names[p]; ok {
			out = append(out, name)
		}
	}
	return out
}

// children are the nodes directly below n (a node of e's tree).
func (e *Expr) children(n *pg.Node) []*pg.Node { return e.shape.of(n).kids }

// hasParam says whether a variable stands at or below n (a node of e's tree).
func (e *Expr) hasParam(n *pg.Node) bool { return len(e.shape.of(n).params) > 0 }

// treeSize is the number of nodes below and at n (a node of e's tree), a list of
// constants counting as one.
func (e *Expr) treeSize(n *pg.Node) int { return e.shape.of(n).size }

// program is the expression compiled for one signature of variable types; slots hold
// the values of one evaluation. A program is used by one evaluation at a time.
type program struct {
	root  *node
	err   error
	slots []Value
}

// signature is the types of the context's values for the expression's variables (N for
// NULL), and the values; ok is false when a value has no SQL value (the compiler then
// reports it).
func (e *Expr) signature(ctx map[string]any) (string, []Value, bool) {
	key := make([]byte, len(e.vars))
	vals := make([]Value, len(e.vars))
	for i, name := range e.vars {
		v, err := contextValue(ctx[name])
		if err != nil {
			return "", nil, false
		}
		vals[i] = v
		if v.Null {
			key[i] = 'N'
		} else {
			key[i] = byte('a' + v.Type)
		}
	}
	return string(key), vals, true
}

// maxIdlePrograms bounds the compiled programs kept per expression and signature
// (each serves one evaluation at a time).
const maxIdlePrograms = 4

// takeProgram is an idle program compiled from e for the signature, nil when there is
// none; putProgram hands it back after an evaluation. (Programs are kept with the
// expression rather than in a sync.Pool, which drops them at every collection.)
func (e *Expr) takeProgram(signature string) *program {
	s := e.shape
	s.mu.Lock()
	defer s.mu.Unlock()
	k := poolKey{e.root, e.conjunct, signature}
	idle := s.programs[k]
	if len(idle) == 0 {
		return nil
	}
	p := idle[len(idle)-1]
	s.programs[k] = idle[:len(idle)-1]
	return p
}

func (e *Expr) putProgram(signature string, p *program) {
	s := e.shape
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.programs == nil {
		s.programs = map[poolKey][]*program{}
	}
	k := poolKey{e.root, e.conjunct, signature}
	if len(s.programs[k]) < maxIdlePrograms {
		s.programs[k] = append(s.programs[k], p)
	}
}
