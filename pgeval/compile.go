package pgeval

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// node is a compiled expression: its type, known before anything is evaluated (as
// PostgreSQL's parse analysis knows it), and how to evaluate it.
type node struct {
	typ  Type
	eval func() (Value, error)
	// lit is set for an unknown-typed literal (a quoted string or an untyped NULL),
	// whose type the context decides: it is converted when the expression is compiled,
	// so a literal that does not convert is an error wherever it stands.
	lit *Value
	// fixed says that eval returns one value whatever the context (a constant), so
	// that an implicit cast of it can be done once, when it is compiled.
	fixed bool
}

type compiler struct {
	e   *Expr
	ctx map[string]any
	// slots, when set, are where a variable's value is read at evaluation (one per
	// variable, in Expr.vars order) instead of being compiled in as a constant.
	slots []Value
}

func constant(v Value) *node {
	n := &node{typ: v.Type, eval: func() (Value, error) { return v, nil }, fixed: true}
	if v.Type == Unknown {
		n.lit = &v
	}
	return n
}

func unsupported(what string, loc int32) error {
	return &Unsupported{Construct: what, Offset: offset(loc)}
}

func (c *compiler) compile(n *pg.Node) (*node, error) {
	switch x := n.Node.(type) {
	case *pg.Node_AConst:
		return c.aconst(x.AConst)
	case *pg.Node_ParamRef:
		return c.param(x.ParamRef)
	case *pg.Node_BoolExpr:
		return c.boolExpr(x.BoolExpr)
	case *pg.Node_AExpr:
		return c.aexpr(x.AExpr)
	case *pg.Node_NullTest:
		arg, err := c.compile(x.NullTest.Arg)
		if err != nil {
			return nil, err
		}
		if arg.typ == Unknown {
			if arg, err = coerce(arg, Text); err != nil {
				return nil, err
			}
		}
		isNull := x.NullTest.Nulltesttype == pg.NullTestType_IS_NULL
		return &node{typ: Bool, eval: func() (Value, error) {
			v, err := arg.eval()
			if err != nil {
				return Value{}, err
			}
			return Value{Type: Bool, B: v.Null == isNull}, nil
		}}, nil
	case *pg.Node_BooleanTest:
		return c.booleanTest(x.BooleanTest)
	case *pg.Node_TypeCast:
		return c.typeCast(x.TypeCast)
	case *pg.Node_CaseExpr:
		return c.caseExpr(x.CaseExpr)
	case *pg.Node_CoalesceExpr:
		return c.coalesce(x.CoalesceExpr)
	case *pg.Node_MinMaxExpr:
		return c.minMax(x.MinMaxExpr)
	case *pg.Node_FuncCall:
		return c.funcCall(x.FuncCall)
	}
	return nil, &Unsupported{Construct: nodeName(n), Offset: nodeOffset(n)}
}

func nodeName(n *pg.Node) string {
	name := fmt.Sprintf("%T", n.Node)
	name = strings.TrimPrefix(name, "*pg_query.Node_")
	return name
}

// nodeOffset is the location of a node of any type, through its "location" field.
func nodeOffset(n *pg.Node) int {
	var loc int64
	n.ProtoReflect().Range(func(_ protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		m, ok := v.Interface().(protoreflect.Message)
		if !ok {
			return true
		}
		if f := m.Descriptor().Fields().ByName("location"); f != nil {
			loc = m.Get(f).Int()
		}
		return false
	})
	return offset(int32(loc))
}

func (c *compiler) aconst(k *pg.A_Const) (*node, error) {
	switch {
	case k.Isnull:
		return constant(Value{Type: Unknown, Null: true}), nil
	case k.GetIval() != nil:
		v := int64(k.GetIval().Ival)
		return constant(Value{Type: Int4, I: v}), nil
	case k.GetFval() != nil:
		v, err := numericLiteral(k)
		if err != nil {
			return nil, err
		}
		return constant(v), nil
	case k.GetSval() != nil:
		return constant(Value{Type: Unknown, S: k.GetSval().Sval}), nil
	case k.GetBoolval() != nil:
		return constant(Value{Type: Bool, B: k.GetBoolval().Boolval}), nil
	}
	return nil, unsupported("constant", k.Location)
}

// numericLiteral is the value of a "float" literal: an integer too large for int4
// is int8 when it fits, numeric otherwise (PostgreSQL's make_const). PostgreSQL 16
// writes integers in hexadecimal, octal and binary too, and allows _ between digits.
func numericLiteral(k *pg.A_Const) (Value, error) {
	lit := k.GetFval().Fval
	if n, ok := integerLiteral(lit); ok {
		if n.IsInt64() {
			i := n.Int64()
			if i >= math.MinInt32 && i <= math.MaxInt32 {
				return Value{Type: Int4, I: i}, nil
			}
			return Value{Type: Int8, I: i}, nil
		}
		lit = n.String()
	} else {
		lit = strings.ReplaceAll(lit, "_", "")
	}
	d, err := parseNumeric(lit)
	switch {
	case err == errNumericOverflow: //nolint:errorlint // parseNumeric returns it as is
		return Value{}, err // as parse analysis raises it, wherever the literal stands
	case err != nil:
		return Value{}, unsupported("numeric literal "+lit, k.Location)
	}
	return Value{Type: Numeric, N: d}, nil
}

func (c *compiler) param(p *pg.ParamRef) (*node, error) {
	name, ok := c.e.names[p.Number]
	if !ok {
		return nil, unsupported(fmt.Sprintf("$%d", p.Number), p.Location)
	}
	v, err := contextValue(c.ctx[name])
	var se *SQLError
	switch {
	case errors.As(err, &se):
		// A number PostgreSQL's numeric cannot hold: inlined as a numeric literal,
		// the server raises this wherever it stands.
		return nil, &SQLError{Code: se.Code, Message: fmt.Sprintf("{{%s}}: %s", name, se.Message)}
	case err != nil:
		return nil, &Unsupported{Construct: fmt.Sprintf("{{%s}}: %v", name, err), Offset: offset(p.Location)}
	}
	if c.slots != nil && !v.Null {
		k := slices.Index(c.e.vars, name)
		slots := c.slots
		return &node{typ: v.Type, eval: func() (Value, error) { return slots[k], nil }}, nil
	}
	return constant(v), nil
}

// contextValue is the SQL value of a context value.
func contextValue(x any) (Value, error) {
	switch v := x.(type) {
	case nil:
		return Value{Type: Unknown, Null: true}, nil
	case bool:
		return Value{Type: Bool, B: v}, nil
	case string:
		return Value{Type: Text, S: v}, nil
	case fmt.Stringer: // json.Number
		d, err := parseNumeric(v.String())
		switch {
		case err == errNumericOverflow: //nolint:errorlint // parseNumeric returns it as is
			return Value{}, err
		case err != nil:
			return Value{}, fmt.Errorf("%s is not a number", v)
		}
		return Value{Type: Numeric, N: d}, nil
	case float64:
		d, ok := ParseDecimal(strconv.FormatFloat(v, 'f', -1, 64))
		if !ok {
			return Value{}, fmt.Errorf("%v is not a finite number", v)
		}
		return Value{Type: Numeric, N: d}, nil
	case int:
		return Value{Type: Numeric, N: decimalOf(int64(v))}, nil
	case int64:
		return Value{Type: Numeric, N: decimalOf(v)}, nil
	}
	return Value{}, fmt.Errorf("a %T has no SQL value", x)
}

// coerce converts n to type t the way PostgreSQL's implicit casts and unknown-literal
// resolution do; anything else is an error, as parse analysis would raise it.
func coerce(n *node, t Type) (*node, error) {
	if n.typ == t {
		return n, nil
	}
	if n.lit != nil {
		if n.lit.Null {
			v := Value{Type: t, Null: true}
			return &node{typ: t, eval: func() (Value, error) { return v, nil }}, nil
		}
		v, err := castValue(*n.lit, t)
		if err != nil {
			return nil, err
		}
		return &node{typ: t, eval: func() (Value, error) { return v, nil }}, nil
	}
	if numericRank(n.typ) > 0 && numericRank(n.typ) < numericRank(t) {
		if n.fixed {
			// A constant: cast once (2300 compared with a numeric is read at every
			// evaluation of the search). One that fails still fails when evaluated.
			if v, err := n.eval(); err == nil && !v.Null {
				if c, err := castValue(v, t); err == nil {
					return constant(c), nil
				}
			}
		}
		return &node{typ: t, eval: func() (Value, error) {
			v, err := n.eval()
			if err != nil || v.Null {
				return Value{Type: t, Null: true}, err
			}
			return castValue(v, t)
		}}, nil
	}
	return nil, &SQLError{Code: "42883", Message: fmt.Sprintf("cannot use %s as %s", n.typ, t)}
}

// numericRank orders the numeric types for common-type resolution.
func numericRank(t Type) int {
	switch t {
	case Int4:
		return 1
	case Int8:
		return 2
	case Numeric:
		return 3
	case Float8:
		return 4
	}
	return 0
}

// commonType is the type several values resolve to (CASE, COALESCE, IN, GREATEST):
// unknowns take the others' type, or text when all are unknown; numeric types widen
// (to double precision when one is).
func commonType(ns []*node) (Type, error) {
	t := Unknown
	for _, n := range ns {
		switch {
		case n.typ == Unknown:
		case t == Unknown:
			t = n.typ
		case t == n.typ:
		case numericRank(t) > 0 && numericRank(n.typ) > 0:
			if numericRank(n.typ) > numericRank(t) {
				t = n.typ
			}
		default:
			return 0, &SQLError{Code: "42804", Message: fmt.Sprintf("types %s and %s cannot be matched", t, n.typ)}
		}
	}
	if t == Unknown {
		t = Text
	}
	return t, nil
}

// unify coerces ns to their common type.
func unify(ns []*node) ([]*node, Type, error) {
	t, err := commonType(ns)
	if err != nil {
		return nil, 0, err
	}
	out := make([]*node, len(ns))
	for i, n := range ns {
		if out[i], err = coerce(n, t); err != nil {
			return nil, 0, err
		}
	}
	return out, t, nil
}

func (c *compiler) all(ns []*pg.Node) ([]*node, error) {
	out := make([]*node, len(ns))
	for i, n := range ns {
		var err error
		if out[i], err = c.compile(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *compiler) boolExpr(b *pg.BoolExpr) (*node, error) {
	args, err := c.all(b.Args)
	if err != nil {
		return nil, err
	}
	for i := range args {
		if args[i], err = coerce(args[i], Bool); err != nil {
			return nil, err
		}
	}
	switch b.Boolop {
	case pg.BoolExprType_NOT_EXPR:
		a := args[0]
		return &node{typ: Bool, eval: func() (Value, error) {
			v, err := a.eval()
			if err != nil || v.Null {
				return Value{Type: Bool, Null: true}, err
			}
			return Value{Type: Bool, B: !v.B}, nil
		}}, nil
	case pg.BoolExprType_AND_EXPR, pg.BoolExprType_OR_EXPR:
		// Left to right, stopping at the first false (AND) or true (OR): a later
		// argument's error is not raised, as PostgreSQL does not raise it either.
		return logical(b.Boolop == pg.BoolExprType_OR_EXPR, args...), nil
	}
	return nil, unsupported("boolean operator", b.Location)
}

func (c *compiler) booleanTest(t *pg.BooleanTest) (*node, error) {
	arg, err := c.compile(t.Arg)
	if err != nil {
		return nil, err
	}
	if arg, err = coerce(arg, Bool); err != nil {
		return nil, err
	}
	test := t.Booltesttype
	return &node{typ: Bool, eval: func() (Value, error) {
		v, err := arg.eval()
		if err != nil {
			return Value{}, err
		}
		var r bool
		switch test {
		case pg.BoolTestType_IS_TRUE:
			r = !v.Null && v.B
		case pg.BoolTestType_IS_NOT_TRUE:
			r = v.Null || !v.B
		case pg.BoolTestType_IS_FALSE:
			r = !v.Null && !v.B
		case pg.BoolTestType_IS_NOT_FALSE:
			r = v.Null || v.B
		case pg.BoolTestType_IS_UNKNOWN:
			r = v.Null
		case pg.BoolTestType_IS_NOT_UNKNOWN:
			r = !v.Null
		}
		return Value{Type: Bool, B: r}, nil
	}}, nil
}

func opName(names []*pg.Node) string {
	if len(names) == 0 {
		return ""
	}
	return names[len(names)-1].GetString_().GetSval()
}

func (c *compiler) aexpr(a *pg.A_Expr) (*node, error) {
	op := opName(a.Name)
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		if a.Lexpr == nil {
			r, err := c.compile(a.Rexpr)
			if err != nil {
				return nil, err
			}
			switch op {
			case "-":
				return negate(r)
			case "+":
				if numericRank(r.typ) == 0 {
					return nil, &SQLError{Code: "42883", Message: "operator does not exist: + " + r.typ.String()}
				}
				return r, nil
			}
			return nil, unsupported("prefix operator "+op, a.Location)
		}
		l, err := c.compile(a.Lexpr)
		if err != nil {
			return nil, err
		}
		r, err := c.compile(a.Rexpr)
		if err != nil {
			return nil, err
		}
		return binary(op, l, r, a.Location)
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, r, err := c.pair(a)
		if err != nil {
			return nil, err
		}
		eq, err := comparison("=", l, r)
		if err != nil {
			return nil, err
		}
		distinct := a.Kind == pg.A_Expr_Kind_AEXPR_DISTINCT
		return &node{typ: Bool, eval: func() (Value, error) {
			lv, err := l.eval()
			if err != nil {
				return Value{}, err
			}
			rv, err := r.eval()
			if err != nil {
				return Value{}, err
			}
			same := lv.Null && rv.Null
			if !lv.Null && !rv.Null {
				v, err := eq.eval()
				if err != nil {
					return Value{}, err
				}
				same = v.B
			}
			return Value{Type: Bool, B: same != distinct}, nil
		}}, nil
	case pg.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := c.pair(a)
		if err != nil {
			return nil, err
		}
		// NULLIF(a, b) is a = b resolved as an operator: a takes the type that
		// resolution gives it, and so does the result.
		l, r, _, err = operands(l, r)
		if err != nil {
			return nil, err
		}
		eq, err := comparison("=", l, r)
		if err != nil {
			return nil, err
		}
		return &node{typ: l.typ, eval: func() (Value, error) {
			v, err := eq.eval()
			if err != nil {
				return Value{}, err
			}
			if !v.Null && v.B {
				return Value{Type: l.typ, Null: true}, nil
			}
			return l.eval()
		}}, nil
	case pg.A_Expr_Kind_AEXPR_IN:
		return c.in(a, op)
	case pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
		return c.like(a, op)
	case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		return c.between(a)
	}
	return nil, unsupported("operator "+op, a.Location)
}

func (c *compiler) pair(a *pg.A_Expr) (*node, *node, error) {
	l, err := c.compile(a.Lexpr)
	if err != nil {
		return nil, nil, err
	}
	r, err := c.compile(a.Rexpr)
	return l, r, err
}

// strict wraps a function of non-null values: any NULL argument makes the result NULL.
func strict(t Type, args []*node, f func(vs []Value) (Value, error)) *node {
	return &node{typ: t, eval: func() (Value, error) {
		vs := make([]Value, len(args))
		null := false
		for i, a := range args {
			v, err := a.eval()
			if err != nil {
				return Value{}, err
			}
			vs[i] = v
			null = null || v.Null
		}
		if null {
			return Value{Type: t, Null: true}, nil
		}
		return f(vs)
	}}
}

func binary(op string, l, r *node, loc int32) (*node, error) {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return comparison(op, l, r)
	case "+", "-", "*", "/", "%":
		return arithmetic(op, l, r)
	case "||":
		return concat(l, r)
	}
	return nil, unsupported("operator "+op, loc)
}

// operands resolves the operand types of a binary operator: an unknown literal takes the
// other side's type (text when both are unknown); numeric types widen.
func operands(l, r *node) (*node, *node, Type, error) {
	switch {
	case l.typ == Unknown && r.typ == Unknown:
		var err error
		if l, err = coerce(l, Text); err != nil {
			return nil, nil, 0, err
		}
		if r, err = coerce(r, Text); err != nil {
			return nil, nil, 0, err
		}
		return l, r, Text, nil
	case l.typ == Unknown:
		nl, err := coerce(l, r.typ)
		return nl, r, r.typ, err
	case r.typ == Unknown:
		nr, err := coerce(r, l.typ)
		return l, nr, l.typ, err
	}
	ns, t, err := unify([]*node{l, r})
	if err != nil {
		return nil, nil, 0, &SQLError{Code: "42883", Message: fmt.Sprintf("operator does not exist: %s and %s", l.typ, r.typ)}
	}
	return ns[0], ns[1], t, nil
}

func comparison(op string, l, r *node) (*node, error) {
	l, r, t, err := operands(l, r)
	if err != nil {
		return nil, err
	}
	return strict(Bool, []*node{l, r}, func(vs []Value) (Value, error) {
		c := compare(vs[0], vs[1], t)
		var b bool
		switch op {
		case "=":
			b = c == 0
		case "<>", "!=":
			b = c != 0
		case "<":
			b = c < 0
		case "<=":
			b = c <= 0
		case ">":
			b = c > 0
		case ">=":
			b = c >= 0
		}
		return Value{Type: Bool, B: b}, nil
	}), nil
}

// compare orders two non-null values of type t.
func compare(a, b Value, t Type) int {
	switch t {
	case Bool:
		switch {
		case a.B == b.B:
			return 0
		case !a.B:
			return -1
		}
		return 1
	case Int4, Int8:
		switch {
		case a.I < b.I:
			return -1
		case a.I > b.I:
			return 1
		}
		return 0
	case Numeric:
		return a.N.cmp(b.N)
	case Float8:
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		}
		return 0
	}
	return strings.Compare(a.S, b.S)
}

var (
	errInt4Range = &SQLError{Code: "22003", Message: "integer out of range"}
	errInt8Range = &SQLError{Code: "22003", Message: "bigint out of range"}
	errDivZero   = &SQLError{Code: "22012", Message: "division by zero"}
)

func intResult(t Type, v *big.Int) (Value, error) {
	if !v.IsInt64() {
		if t == Int4 {
			return Value{}, errInt4Range
		}
		return Value{}, errInt8Range
	}
	i := v.Int64()
	if t == Int4 && (i < math.MinInt32 || i > math.MaxInt32) {
		return Value{}, errInt4Range
	}
	return Value{Type: t, I: i}, nil
}

func arithmetic(op string, l, r *node) (*node, error) {
	l, r, t, err := operands(l, r)
	if err != nil {
		return nil, err
	}
	if numericRank(t) == 0 || t == Float8 && op == "%" {
		return nil, &SQLError{Code: "42883", Message: fmt.Sprintf("operator does not exist: %s %s %s", t, op, t)}
	}
	return strict(t, []*node{l, r}, func(vs []Value) (Value, error) {
		a, b := vs[0], vs[1]
		if t == Float8 {
			return float8Arith(op, a.F, b.F)
		}
		if t == Numeric {
			var d Decimal
			var err error
			switch op {
			case "+":
				d = a.N.add(b.N, false)
			case "-":
				d = a.N.add(b.N, true)
			case "*":
				d = a.N.mul(b.N)
			case "/":
				d, err = a.N.div(b.N)
			case "%":
				d, err = a.N.mod(b.N)
			}
			if err == nil {
				err = checkRange(d)
			}
			return Value{Type: Numeric, N: d}, err
		}
		x, y := big.NewInt(a.I), big.NewInt(b.I)
		switch op {
		case "+":
			return intResult(t, x.Add(x, y))
		case "-":
			return intResult(t, x.Sub(x, y))
		case "*":
			return intResult(t, x.Mul(x, y))
		case "/":
			if b.I == 0 {
				return Value{}, errDivZero
			}
			return intResult(t, x.Quo(x, y))
		}
		if b.I == 0 {
			return Value{}, errDivZero
		}
		return intResult(t, x.Rem(x, y))
	}), nil
}

func negate(r *node) (*node, error) {
	if r.typ == Unknown {
		return nil, &SQLError{Code: "42725", Message: "operator is not unique: - unknown"}
	}
	if numericRank(r.typ) == 0 {
		return nil, &SQLError{Code: "42883", Message: "operator does not exist: - " + r.typ.String()}
	}
	t := r.typ
	return strict(t, []*node{r}, func(vs []Value) (Value, error) {
		switch t {
		case Numeric:
			return Value{Type: Numeric, N: Decimal{new(big.Int).Neg(vs[0].N.Unscaled), vs[0].N.Scale}}, nil
		case Float8:
			return Value{Type: Float8, F: -vs[0].F}, nil
		}
		return intResult(t, new(big.Int).Neg(big.NewInt(vs[0].I)))
	}), nil
}

// concat is ||: text with text, or with any other non-array value as its text.
func concat(l, r *node) (*node, error) {
	var err error
	switch {
	case l.typ == Unknown && r.typ == Unknown:
		// Both take text, unknown's preferred type: text || text.
	case l.typ != Text && r.typ != Text && l.typ != Unknown && r.typ != Unknown:
		return nil, &SQLError{Code: "42883", Message: fmt.Sprintf("operator does not exist: %s || %s", l.typ, r.typ)}
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
	return strict(Text, []*node{l, r}, func(vs []Value) (Value, error) {
		return Value{Type: Text, S: textOf(vs[0]) + textOf(vs[1])}, nil
	}), nil
}

// textOf is a value's conversion to text (a boolean is "true" or "false").
func textOf(v Value) string {
	if v.Type == Bool {
		return strconv.FormatBool(v.B)
	}
	return v.String()
}

// integerLiteral reads an integer literal as PostgreSQL 16's scanner writes it: an
// optional sign (a negated constant), decimal digits or 0x/0o/0b and its digits, with _
// between digits. False for anything else (a decimal point, an exponent).
func integerLiteral(lit string) (*big.Int, bool) {
	s, neg := lit, false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 10 {
			s = s[2:]
		}
	}
	s = strings.ReplaceAll(s, "_", "")
	if s == "" {
		return nil, false
	}
	n, ok := new(big.Int).SetString(s, base)
	if !ok {
		return nil, false
	}
	if neg {
		n.Neg(n)
	}
	return n, true
}
