package pgeval

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// in is x IN (list) and x NOT IN (list), as PostgreSQL's transformAExprIn builds them.
// With more than one item, when x and the items have a common type, they are one
// comparison with an array: every item is evaluated, then compared with x in that
// type (NULL semantics: no match and a NULL item is NULL). Otherwise, and for a single
// item, the list is x = a OR x = b … (x <> a AND x <> b … for NOT IN), each comparison
// typed on its own and evaluated left to right until one decides: an IN list whose
// items share no type compares item by item, and raises an error only for an item x
// cannot be compared with (COALESCE(NULL IN (1, 'a'::text), true) is true).
func (c *compiler) in(a *pg.A_Expr, op string) (*node, error) {
	l, err := c.compile(a.Lexpr)
	if err != nil {
		return nil, err
	}
	list := a.Rexpr.GetList()
	if list == nil {
		return nil, unsupported("IN with a subquery", a.Location)
	}
	items, err := c.all(list.Items)
	if err != nil {
		return nil, err
	}
	not := op == "<>"
	if _, err := commonType(append([]*node{l}, items...)); err != nil || len(items) == 1 {
		cmps := make([]*node, len(items))
		for i, it := range items {
			if cmps[i], err = comparison(op, l, it); err != nil {
				return nil, err
			}
		}
		return logical(!not, cmps...), nil
	}
	all, t, err := unify(append([]*node{l}, items...))
	if err != nil {
		return nil, err
	}
	if n := hashedIn(c.e, all, t, list.Items, not); n != nil {
		return n, nil
	}
	return &node{typ: Bool, eval: func() (Value, error) {
		x, err := all[0].eval()
		if err != nil {
			return Value{}, err
		}
		// Every element is evaluated (they form one array), then compared.
		vals := make([]Value, len(all)-1)
		for i, n := range all[1:] {
			if vals[i], err = n.eval(); err != nil {
				return Value{}, err
			}
		}
		if x.Null {
			return Value{Type: Bool, Null: true}, nil
		}
		null := false
		for _, v := range vals {
			if v.Null {
				null = true
			} else if compare(x, v, t) == 0 {
				return Value{Type: Bool, B: !not}, nil
			}
		}
		if null {
			return Value{Type: Bool, Null: true}, nil
		}
		return Value{Type: Bool, B: not}, nil
	}}, nil
}

// hashedIn is x IN (list) for a list of constants, evaluated once here and looked up
// by value, as PostgreSQL hashes a long list of constants: the same answer as comparing
// with each element in turn, in time that does not grow with the list (the witness
// search evaluates an expression for every region of its constants). nil when some
// element depends on the context, or raises an error (which must then be raised when
// the expression is evaluated).
func hashedIn(e *Expr, all []*node, t Type, items []*pg.Node, not bool) *node {
	for _, it := range items {
		if e.hasParam(it) {
			return nil
		}
	}
	set := make(map[string]bool, len(items))
	null := false
	for _, n := range all[1:] {
		v, err := n.eval()
		switch {
		case err != nil:
			return nil
		case v.Null:
			null = true
		default:
			set[valueKey(v, t)] = true
		}
	}
	x := all[0]
	return &node{typ: Bool, eval: func() (Value, error) {
		v, err := x.eval()
		switch {
		case err != nil:
			return Value{}, err
		case v.Null:
			return Value{Type: Bool, Null: true}, nil
		case set[valueKey(v, t)]:
			return Value{Type: Bool, B: !not}, nil
		case null:
			return Value{Type: Bool, Null: true}, nil
		}
		return Value{Type: Bool, B: not}, nil
	}}
}

// valueKey is a non-null value of type t as a key that two values share exactly when
// compare says they are equal: a numeric without the trailing zeros of its scale.
func valueKey(v Value, t Type) string {
	switch t {
	case Bool:
		return strconv.FormatBool(v.B)
	case Int4, Int8:
		return strconv.FormatInt(v.I, 10)
	case Float8:
		if v.F == 0 {
			return "0" // -0 = 0
		}
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case Numeric:
		u, scale := v.N.Unscaled, v.N.Scale
		if u.Sign() == 0 {
			return "0"
		}
		ten, r := big.NewInt(10), new(big.Int)
		for scale > 0 {
			q, m := new(big.Int).QuoRem(u, ten, r)
			if m.Sign() != 0 {
				break
			}
			u, scale = q, scale-1
		}
		return u.String() + "e-" + strconv.Itoa(scale)
	}
	return v.S
}

// like is LIKE and ILIKE (and their negations), with % and _ and \\ as the escape.
func (c *compiler) like(a *pg.A_Expr, op string) (*node, error) {
	l, r, err := c.pair(a)
	if err != nil {
		return nil, err
	}
	if l.typ == Unknown {
		if l, err = coerce(l, Text); err != nil {
			return nil, err
		}
	}
	if r.typ == Unknown {
		if r, err = coerce(r, Text); err != nil {
			return nil, err
		}
	}
	if l.typ != Text || r.typ != Text {
		return nil, &SQLError{Code: "42883", Message: fmt.Sprintf("operator does not exist: %s %s %s", l.typ, op, r.typ)}
	}
	fold := a.Kind == pg.A_Expr_Kind_AEXPR_ILIKE
	not := strings.HasPrefix(op, "!")
	return strict(Bool, []*node{l, r}, func(vs []Value) (Value, error) {
		s, p := vs[0].S, vs[1].S
		if fold {
			s, p = asciiLower(s), asciiLower(p)
		}
		m, err := likeMatch(s, p)
		if err != nil {
			return Value{}, err
		}
		return Value{Type: Bool, B: m != not}, nil
	}), nil
}

// The results of matchText: LIKE_FALSE, LIKE_TRUE and LIKE_ABORT of PostgreSQL's
// like_match.c (abort: no match, and no later start in the text can match either).
const (
	likeFalse = iota
	likeTrue
	likeAbort
)

var errLikeEscape = &SQLError{Code: "22025", Message: "LIKE pattern must not end with escape character"}

// likeMatch matches s against a LIKE pattern (\ escapes the next character) as
// PostgreSQL's MatchText does for UTF-8, step for step: a pattern ending in \ raises
// an error only when matching reaches that \ ('a' LIKE 'a\' is false, as 'b' LIKE
// 'a\' is; 'ab' LIKE 'a\' raises it), so the order in which the text is tried is
// PostgreSQL's, not any order that gives the same matches.
func likeMatch(s, p string) (bool, error) {
	r, err := matchText(s, p)
	return r == likeTrue, err
}

// matchText is like_match.c's MatchText: bytes are compared one by one, and a wildcard
// consumes a whole UTF-8 character. Its recursion is as deep as the pattern has %, and
// a call that gets past its first literal run decides the answer (true or abort), so
// it takes time proportional to the text times the pattern.
func matchText(t, p string) (int, error) {
	if p == "%" {
		return likeTrue, nil
	}
	for len(t) > 0 && len(p) > 0 {
		switch p[0] {
		case '\\':
			p = p[1:]
			if p == "" {
				return 0, errLikeEscape
			}
			if p[0] != t[0] {
				return likeFalse, nil
			}
		case '%':
			// Skip the wildcards after the %: N _ and any % match at least N characters.
			p = p[1:]
			for p != "" && (p[0] == '%' || p[0] == '_') {
				if p[0] == '_' {
					if t == "" {
						return likeAbort, nil
					}
					t = nextChar(t)
				}
				p = p[1:]
			}
			if p == "" {
				return likeTrue, nil
			}
			first := p[0]
			if first == '\\' {
				if len(p) < 2 {
					return 0, errLikeEscape
				}
				first = p[1]
			}
			for t != "" {
				if t[0] == first {
					if r, err := matchText(t, p); err != nil || r != likeFalse {
						return r, err
					}
				}
				t = nextChar(t)
			}
			return likeAbort, nil
		case '_':
			t, p = nextChar(t), p[1:]
			continue
		default:
			if p[0] != t[0] {
				return likeFalse, nil
			}
		}
		t, p = t[1:], p[1:]
	}
	if t != "" {
		return likeFalse, nil
	}
	p = strings.TrimLeft(p, "%")
	if p == "" {
		return likeTrue, nil
	}
	return likeAbort, nil
}

// nextChar is t after its first UTF-8 character: one byte and the continuation bytes
// after it (like.c's NextChar for UTF-8).
func nextChar(t string) string {
	i := 1
	for i < len(t) && t[i]&0xC0 == 0x80 {
		i++
	}
	return t[i:]
}

func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - ('a' - 'A')
		}
		return r
	}, s)
}

// between is x BETWEEN a AND b, which PostgreSQL reads as x >= a AND x <= b (and
// SYMMETRIC as either order).
func (c *compiler) between(a *pg.A_Expr) (*node, error) {
	x, err := c.compile(a.Lexpr)
	if err != nil {
		return nil, err
	}
	bounds := a.Rexpr.GetList()
	if bounds == nil || len(bounds.Items) != 2 {
		return nil, unsupported("BETWEEN", a.Location)
	}
	lo, err := c.compile(bounds.Items[0])
	if err != nil {
		return nil, err
	}
	hi, err := c.compile(bounds.Items[1])
	if err != nil {
		return nil, err
	}
	and := func(lo, hi *node) (*node, error) {
		ge, err := comparison(">=", x, lo)
		if err != nil {
			return nil, err
		}
		le, err := comparison("<=", x, hi)
		if err != nil {
			return nil, err
		}
		return logical(false, ge, le), nil
	}
	r, err := and(lo, hi)
	if err != nil {
		return nil, err
	}
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		r2, err := and(hi, lo)
		if err != nil {
			return nil, err
		}
		r = logical(true, r, r2)
	}
	if a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN || a.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
		inner := r
		r = &node{typ: Bool, eval: func() (Value, error) {
			v, err := inner.eval()
			if err != nil || v.Null {
				return Value{Type: Bool, Null: true}, err
			}
			return Value{Type: Bool, B: !v.B}, nil
		}}
	}
	return r, nil
}

// logical is AND (or OR) of boolean nodes, left to right, stopping early.
func logical(or bool, args ...*node) *node {
	return &node{typ: Bool, eval: func() (Value, error) {
		null := false
		for _, a := range args {
			v, err := a.eval()
			if err != nil {
				return Value{}, err
			}
			if v.Null {
				null = true
			} else if v.B == or {
				return Value{Type: Bool, B: or}, nil
			}
		}
		if null {
			return Value{Type: Bool, Null: true}, nil
		}
		return Value{Type: Bool, B: !or}, nil
	}}
}

func (c *compiler) caseExpr(ce *pg.CaseExpr) (*node, error) {
	var subject *node
	if ce.Arg != nil {
		var err error
		if subject, err = c.compile(ce.Arg); err != nil {
			return nil, err
		}
		// An unknown subject is text before it is compared (PostgreSQL's CASE).
		if subject.typ == Unknown {
			if subject, err = coerce(subject, Text); err != nil {
				return nil, err
			}
		}
	}
	var conds, results []*node
	for _, w := range ce.Args {
		when := w.GetCaseWhen()
		cond, err := c.compile(when.Expr)
		if err != nil {
			return nil, err
		}
		if subject != nil {
			if cond, err = comparison("=", subject, cond); err != nil {
				return nil, err
			}
		} else if cond, err = coerce(cond, Bool); err != nil {
			return nil, err
		}
		res, err := c.compile(when.Result)
		if err != nil {
			return nil, err
		}
		conds, results = append(conds, cond), append(results, res)
	}
	def := constant(Value{Type: Unknown, Null: true})
	if ce.Defresult != nil {
		var err error
		if def, err = c.compile(ce.Defresult); err != nil {
			return nil, err
		}
	}
	all, t, err := unify(append(results, def))
	if err != nil {
		return nil, err
	}
	return &node{typ: t, eval: func() (Value, error) {
		for i, cond := range conds {
			v, err := cond.eval()
			if err != nil {
				return Value{}, err
			}
			if !v.Null && v.B {
				return all[i].eval()
			}
		}
		return all[len(all)-1].eval()
	}}, nil
}

func (c *compiler) coalesce(ce *pg.CoalesceExpr) (*node, error) {
	args, err := c.all(ce.Args)
	if err != nil {
		return nil, err
	}
	args, t, err := unify(args)
	if err != nil {
		return nil, err
	}
	return &node{typ: t, eval: func() (Value, error) {
		for _, a := range args {
			v, err := a.eval()
			if err != nil || !v.Null {
				return v, err
			}
		}
		return Value{Type: t, Null: true}, nil
	}}, nil
}

func (c *compiler) minMax(m *pg.MinMaxExpr) (*node, error) {
	args, err := c.all(m.Args)
	if err != nil {
		return nil, err
	}
	args, t, err := unify(args)
	if err != nil {
		return nil, err
	}
	greatest := m.Op == pg.MinMaxOp_IS_GREATEST
	return &node{typ: t, eval: func() (Value, error) {
		best := Value{Type: t, Null: true}
		for _, a := range args {
			v, err := a.eval()
			if err != nil {
				return Value{}, err
			}
			if v.Null {
				continue
			}
			if best.Null || (compare(v, best, t) > 0) == greatest && compare(v, best, t) != 0 {
				best = v
			}
		}
		return best, nil
	}}, nil
}

// funcCall compiles a call funcSupported admits: the function exists and takes as
// many arguments as the call passes.
func (c *compiler) funcCall(f *pg.FuncCall) (*node, error) {
	name := opName(f.Funcname)
	if u := funcSupported(f); u != nil {
		return nil, u
	}
	args, err := c.all(f.Args)
	if err != nil {
		return nil, err
	}
	switch name {
	case "lower", "upper", "length", "btrim", "ltrim", "rtrim":
		a, err := coerce(args[0], Text)
		if err != nil {
			return nil, &SQLError{Code: "42883", Message: fmt.Sprintf("function %s(%s) does not exist", name, args[0].typ)}
		}
		if name == "length" {
			return strict(Int4, []*node{a}, func(vs []Value) (Value, error) {
				return Value{Type: Int4, I: int64(utf8.RuneCountInString(vs[0].S))}, nil
			}), nil
		}
		return strict(Text, []*node{a}, func(vs []Value) (Value, error) {
			s := vs[0].S
			switch name {
			case "lower":
				s = asciiLower(s)
			case "upper":
				s = asciiUpper(s)
			case "btrim":
				s = strings.Trim(s, " ")
			case "ltrim":
				s = strings.TrimLeft(s, " ")
			case "rtrim":
				s = strings.TrimRight(s, " ")
			}
			return Value{Type: Text, S: s}, nil
		}), nil
	case "abs", "round":
		return absRound(name, args)
	}
	return nil, unsupported("function "+name, f.Location)
}

// absRound is abs(x), round(x) and round(x, digits) as PostgreSQL resolves them: abs
// of an integer or a numeric keeps its type, round of a numeric stays numeric (half
// away from zero), and abs or round of an unknown (a quoted literal, an absent
// variable) is their double precision form, as is round of an integer (half to even);
// round(x, digits) is round(numeric, integer). Text and boolean have neither.
func absRound(name string, args []*node) (*node, error) {
	x := args[0]
	missing := &SQLError{Code: "42883", Message: fmt.Sprintf("function %s(%s) does not exist", name, argTypes(args))}
	if x.typ == Text || x.typ == Bool {
		return nil, missing
	}
	var err error
	if len(args) == 2 {
		if x.typ == Float8 || args[1].typ != Int4 && args[1].typ != Unknown {
			return nil, missing
		}
		if x, err = coerce(x, Numeric); err != nil {
			return nil, err
		}
		digits, err := coerce(args[1], Int4)
		if err != nil {
			return nil, err
		}
		return strict(Numeric, []*node{x, digits}, func(vs []Value) (Value, error) {
			d := roundDecimal(vs[0].N, int(vs[1].I))
			return Value{Type: Numeric, N: d}, checkRange(d)
		}), nil
	}
	if x.typ == Unknown || name == "round" && (x.typ == Int4 || x.typ == Int8) {
		if x, err = coerce(x, Float8); err != nil {
			return nil, err
		}
	}
	t := x.typ
	return strict(t, []*node{x}, func(vs []Value) (Value, error) {
		v := vs[0]
		switch {
		case t == Float8 && name == "abs":
			return Value{Type: Float8, F: math.Abs(v.F)}, nil
		case t == Float8:
			return Value{Type: Float8, F: math.RoundToEven(v.F)}, nil
		case t == Numeric && name == "abs":
			return Value{Type: Numeric, N: Decimal{new(big.Int).Abs(v.N.Unscaled), v.N.Scale}}, nil
		case t == Numeric:
			d := roundDecimal(v.N, 0)
			return Value{Type: Numeric, N: d}, checkRange(d)
		}
		return intResult(t, new(big.Int).Abs(big.NewInt(v.I)))
	}), nil
}

func argTypes(args []*node) string {
	var ts []string
	for _, a := range args {
		ts = append(ts, a.typ.String())
	}
	return strings.Join(ts, ", ")
}

// roundDecimal is PostgreSQL's round(numeric, s): half away from zero; a negative s
// rounds left of the point and leaves scale 0. s is clamped as numeric_round clamps
// it: to the most digits a numeric holds after the point, and one more than it holds
// before.
func roundDecimal(d Decimal, s int) Decimal {
	s = max(min(s, maxDScale), -maxIntDigits-1)
	if s >= 0 {
		return d.rescale(s)
	}
	q := roundDiv(d.Unscaled, pow10(d.Scale-s))
	return Decimal{q.Mul(q, pow10(-s)), 0}
}

func (c *compiler) typeCast(tc *pg.TypeCast) (*node, error) {
	t, precision, scale, err := castTarget(tc.TypeName)
	if err != nil {
		return nil, err
	}
	arg, err := c.compile(tc.Arg)
	if err != nil {
		return nil, err
	}
	if arg.lit != nil {
		// A literal is converted while the expression is analysed.
		v := *arg.lit
		if !v.Null {
			if v, err = castValue(v, t); err != nil {
				return nil, err
			}
			if precision > 0 {
				if v, err = numericTypmod(v, precision, scale); err != nil {
					return nil, err
				}
			}
		} else {
			v = Value{Type: t, Null: true}
		}
		return &node{typ: t, eval: func() (Value, error) { return v, nil }}, nil
	}
	if !castable(arg.typ, t) {
		return nil, &SQLError{Code: "42846", Message: fmt.Sprintf("cannot cast type %s to %s", arg.typ, t)}
	}
	return strict(t, []*node{arg}, func(vs []Value) (Value, error) {
		v, err := castValue(vs[0], t)
		if err != nil || precision == 0 {
			return v, err
		}
		return numericTypmod(v, precision, scale)
	}), nil
}

func castTarget(tn *pg.TypeName) (Type, int, int, error) {
	name := opName(tn.Names)
	if len(tn.ArrayBounds) > 0 {
		return 0, 0, 0, unsupported("an array type", tn.Location)
	}
	var t Type
	switch name {
	case "int4", "int", "integer":
		t = Int4
	case "int8", "bigint":
		t = Int8
	case "numeric", "decimal":
		t = Numeric
	case "text":
		t = Text
	case "bool", "boolean":
		t = Bool
	default:
		return 0, 0, 0, unsupported("a cast to "+name, tn.Location)
	}
	if len(tn.Typmods) == 0 {
		return t, 0, 0, nil
	}
	if t != Numeric || len(tn.Typmods) > 2 {
		return 0, 0, 0, unsupported("type modifiers on "+name, tn.Location)
	}
	mods := make([]int, len(tn.Typmods))
	for i, m := range tn.Typmods {
		k := m.GetAConst()
		if k == nil || k.GetIval() == nil {
			return 0, 0, 0, unsupported("type modifiers", tn.Location)
		}
		mods[i] = int(k.GetIval().Ival)
	}
	p, s := mods[0], 0
	if len(mods) == 2 {
		s = mods[1]
	}
	if p < 1 || p > 1000 || s < 0 || s > p {
		return 0, 0, 0, unsupported("these numeric type modifiers", tn.Location)
	}
	return Numeric, p, s, nil
}

// numericTypmod applies numeric(p, s): round to s digits, then at most p-s digits before
// the point.
func numericTypmod(v Value, p, s int) (Value, error) {
	if v.Null {
		return v, nil
	}
	d := v.N.rescale(s)
	intDigits := len(new(big.Int).Abs(d.Unscaled).String()) - s
	if d.Unscaled.Sign() != 0 && intDigits > p-s {
		return Value{}, &SQLError{Code: "22003", Message: "numeric field overflow"}
	}
	return Value{Type: Numeric, N: d}, nil
}

// castable says whether PostgreSQL has a cast from a to b among the supported types.
func castable(a, b Type) bool {
	if a == b || b == Text || a == Text || a == Unknown {
		return true
	}
	switch {
	case numericRank(a) > 0 && numericRank(b) > 0:
		return true
	case a == Bool && b == Int4, a == Int4 && b == Bool:
		return true
	}
	return false
}

// castValue converts a non-null value to type t.
func castValue(v Value, t Type) (Value, error) {
	if v.Type == t {
		return v, nil
	}
	if v.Type == Unknown || v.Type == Text {
		return parseInput(v.S, t)
	}
	switch t {
	case Text:
		return Value{Type: Text, S: textOf(v)}, nil
	case Bool:
		if v.Type == Int4 {
			return Value{Type: Bool, B: v.I != 0}, nil
		}
	case Int4, Int8:
		switch v.Type {
		case Int4, Int8:
			return intResult(t, big.NewInt(v.I))
		case Numeric:
			return intResult(t, roundDiv(v.N.Unscaled, pow10(v.N.Scale)))
		case Float8:
			return float8ToInt(v.F, t)
		case Bool:
			if t == Int4 {
				if v.B {
					return Value{Type: Int4, I: 1}, nil
				}
				return Value{Type: Int4, I: 0}, nil
			}
		}
	case Numeric:
		switch v.Type {
		case Int4, Int8:
			return Value{Type: Numeric, N: decimalOf(v.I)}, nil
		case Float8:
			return float8ToNumeric(v.F)
		}
	case Float8:
		if numericRank(v.Type) > 0 {
			return toFloat8(v)
		}
	}
	return Value{}, &SQLError{Code: "42846", Message: fmt.Sprintf("cannot cast type %s to %s", v.Type, t)}
}

// parseInput is a type's input function: the text a literal or a text value holds.
func parseInput(s string, t Type) (Value, error) {
	switch t {
	case Text:
		return Value{Type: Text, S: s}, nil
	case Int4, Int8:
		name := "integer"
		if t == Int8 {
			name = "bigint"
		}
		trimmed := strings.Trim(s, " \t\n\r\v\f")
		if !validInt(trimmed) {
			return Value{}, &SQLError{Code: "22P02", Message: fmt.Sprintf("invalid input syntax for type %s: %q", name, s)}
		}
		i, err := strconv.ParseInt(trimmed, 10, 64)
		if err != nil || t == Int4 && (i < math.MinInt32 || i > math.MaxInt32) {
			return Value{}, &SQLError{Code: "22003", Message: fmt.Sprintf("value %q is out of range for type %s", s, name)}
		}
		return Value{Type: t, I: i}, nil
	case Numeric:
		trimmed := strings.Trim(s, " \t\n\r\v\f")
		switch strings.ToLower(strings.TrimLeft(trimmed, "+-")) {
		case "nan", "infinity", "inf":
			return Value{}, &Unsupported{Construct: "numeric " + trimmed}
		}
		d, err := parseNumeric(trimmed)
		switch {
		case err == errNumericOverflow: //nolint:errorlint // parseNumeric returns it as is
			return Value{}, err
		case err != nil || strings.ContainsAny(trimmed, " \t"):
			return Value{}, &SQLError{Code: "22P02", Message: fmt.Sprintf("invalid input syntax for type numeric: %q", s)}
		}
		return Value{Type: Numeric, N: d}, nil
	case Float8:
		return float8Input(s)
	case Bool:
		b, ok := parseBool(s)
		if !ok {
			return Value{}, &SQLError{Code: "22P02", Message: fmt.Sprintf("invalid input syntax for type boolean: %q", s)}
		}
		return Value{Type: Bool, B: b}, nil
	}
	return Value{}, &Unsupported{Construct: "input for " + t.String()}
}

func validInt(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// parseBool is PostgreSQL's boolean input: t/true/y/yes/on/1 and f/false/n/no/off/0,
// any case, surrounding space ignored, and any unique prefix of the words.
func parseBool(s string) (bool, bool) {
	w := strings.ToLower(strings.Trim(s, " \t\n\r\v\f"))
	switch w {
	case "1":
		return true, true
	case "0":
		return false, true
	case "":
		return false, false
	}
	for _, c := range []struct {
		word string
		v    bool
		min  int
	}{{"true", true, 1}, {"false", false, 1}, {"yes", true, 1}, {"no", false, 1}, {"on", true, 2}, {"off", false, 2}} {
		if len(w) >= c.min && strings.HasPrefix(c.word, w) {
			return c.v, true
		}
	}
	return false, false
}
