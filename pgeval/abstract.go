package pgeval

import (
	pg "github.com/pganalyze/pg_query_go/v5"
)

// Proofs by outcome (SPEC §8.4): an expression that raises an error or is NULL for every
// context ({{x}} / 0 > 1) is never true, though its atoms are no comparisons with
// constants. For each combination of its variables' JSON types (a "signature": how the
// expression compiles depends on the types only) it is compiled — a compile error is an
// error for every context of those types — and then evaluated over outcome sets rather
// than values: each node's set holds what it may give (true, false, another value,
// NULL, an error) for some values of those types. A variable-free part is evaluated once,
// exactly; a strict operator or function of an argument that is always NULL or an error
// is itself always NULL or an error; a division by a constant zero of a finite number is
// an error; AND, OR and NOT combine sets as they combine values, left to right. Anything
// else may give anything. The sets over-approximate what PostgreSQL gives, so an outcome
// absent from every signature's set is impossible.

// outcome is a set of what an expression may give.
type outcome uint8

const (
	oTrue outcome = 1 << iota
	oFalse
	oValue // a non-null value that is not a boolean
	oNull
	oError

	oBool = oTrue | oFalse
	oAny  = oTrue | oFalse | oValue | oNull | oError
	// oNE: NULL or an error, what a strict operator passes on.
	oNE = oNull | oError
)

// absValue is a node's outcomes; finite says that its numbers are never NaN or
// infinite (a number in a context is finite; numeric input may read 'NaN'); zero that it
// is the constant 0.
type absValue struct {
	o      outcome
	finite bool
	zero   bool
}

// abstract evaluates expressions over outcome sets for one signature.
type abstract struct {
	e *Expr
	// class is each variable's JSON type in the signature: 'n' number, 't' text,
	// 'b' boolean, 'N' NULL (absent).
	class map[string]byte
}

func (a *abstract) eval(n *pg.Node) absValue {
	if n == nil {
		return absValue{o: oAny}
	}
	if !a.e.hasParam(n) {
		return a.constant(n)
	}
	switch x := n.Node.(type) {
	case *pg.Node_ParamRef:
		switch a.class[a.e.names[x.ParamRef.Number]] {
		case 'N':
			return absValue{o: oNull, finite: true}
		case 'b':
			return absValue{o: oBool, finite: true}
		case 'n', 't':
			return absValue{o: oValue, finite: true}
		}
		return absValue{o: oAny}
	case *pg.Node_BoolExpr:
		var args []outcome
		for _, arg := range x.BoolExpr.Args {
			args = append(args, a.eval(arg).o)
		}
		switch x.BoolExpr.Boolop {
		case pg.BoolExprType_NOT_EXPR:
			return absValue{o: not(args[0]), finite: true}
		case pg.BoolExprType_OR_EXPR:
			return absValue{o: logicalSets(true, args), finite: true}
		}
		return absValue{o: logicalSets(false, args), finite: true}
	case *pg.Node_NullTest:
		arg := a.eval(x.NullTest.Arg).o
		var o outcome
		if arg&oNull != 0 {
			o |= oTrue
		}
		if arg&(oBool|oValue) != 0 {
			o |= oFalse
		}
		if x.NullTest.Nulltesttype == pg.NullTestType_IS_NOT_NULL {
			o = not(o)
		}
		return absValue{o: o | arg&oError, finite: true}
	case *pg.Node_BooleanTest:
		arg := a.eval(x.BooleanTest.Arg).o
		var o outcome
		switch x.BooleanTest.Booltesttype {
		case pg.BoolTestType_IS_TRUE, pg.BoolTestType_IS_NOT_TRUE:
			o = test(arg&oTrue != 0, arg&(oFalse|oNull|oValue) != 0)
		case pg.BoolTestType_IS_FALSE, pg.BoolTestType_IS_NOT_FALSE:
			o = test(arg&oFalse != 0, arg&(oTrue|oNull|oValue) != 0)
		default:
			o = test(arg&oNull != 0, arg&(oBool|oValue) != 0)
		}
		switch x.BooleanTest.Booltesttype {
		case pg.BoolTestType_IS_NOT_TRUE, pg.BoolTestType_IS_NOT_FALSE, pg.BoolTestType_IS_NOT_UNKNOWN:
			o = not(o)
		}
		return absValue{o: o | arg&oError, finite: true}
	case *pg.Node_AExpr:
		return a.aexpr(x.AExpr)
	case *pg.Node_TypeCast:
		arg := a.eval(x.TypeCast.Arg)
		t, _, _, err := castTarget(x.TypeCast.TypeName)
		if err != nil {
			return absValue{o: oAny}
		}
		if s, ok := strictOf(arg.o); ok {
			return absValue{o: s, finite: true}
		}
		o := oValue | oError | arg.o&oNull
		if t == Bool {
			o = oBool | oError | arg.o&oNull
		}
		// int and bigint are always finite; numeric input may read NaN or Infinity.
		finite := t == Int4 || t == Int8 || t == Bool || t == Text || t == Numeric && arg.finite && a.numberTyped(x.TypeCast.Arg)
		return absValue{o: o, finite: finite}
	case *pg.Node_FuncCall:
		f := x.FuncCall
		switch opName(f.Funcname) {
		case "lower", "upper", "length", "btrim", "ltrim", "rtrim", "abs", "round":
		default:
			return absValue{o: oAny}
		}
		finite := true
		var all outcome
		for _, arg := range f.Args {
			v := a.eval(arg)
			if s, ok := strictOf(v.o); ok {
				return absValue{o: s, finite: true}
			}
			all |= v.o
			finite = finite && v.finite
		}
		return absValue{o: oValue | oError | all&oNull, finite: finite}
	}
	return absValue{o: oAny}
}

// numberTyped says whether n is a number in the signature (not a string that numeric
// input reads): a variable holding a number, or arithmetic.
func (a *abstract) numberTyped(n *pg.Node) bool {
	if p := n.GetParamRef(); p != nil {
		c := a.class[a.e.names[p.Number]]
		return c == 'n' || c == 'N'
	}
	if ae := n.GetAExpr(); ae != nil && ae.Kind == pg.A_Expr_Kind_AEXPR_OP {
		switch opName(ae.Name) {
		case "+", "-", "*", "/", "%":
			return true
		}
	}
	return false
}

func (a *abstract) aexpr(ae *pg.A_Expr) absValue {
	l, r := a.eval(ae.Lexpr), absValue{o: oAny}
	if ae.Rexpr != nil && ae.Rexpr.GetList() == nil {
		r = a.eval(ae.Rexpr)
	}
	switch ae.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		op := opName(ae.Name)
		if ae.Lexpr == nil {
			// Prefix - or +.
			if s, ok := strictOf(r.o); ok {
				return absValue{o: s, finite: true}
			}
			return absValue{o: oValue | oError | r.o&oNull, finite: r.finite}
		}
		if s, ok := strictOf(l.o, r.o); ok {
			return absValue{o: s, finite: true}
		}
		null := (l.o | r.o) & oNull
		switch op {
		case "=", "<>", "!=", "<", "<=", ">", ">=":
			return absValue{o: oBool | null | (l.o|r.o)&oError, finite: true}
		case "/", "%":
			if r.zero && r.o == oValue && l.finite {
				// Every value of l divided by zero is an error; NULL stays NULL.
				var o outcome
				if l.o&(oValue|oBool|oError) != 0 {
					o |= oError
				}
				return absValue{o: o | l.o&oNull, finite: true}
			}
			return absValue{o: oValue | oError | null, finite: l.finite && r.finite}
		case "+", "-", "*":
			return absValue{o: oValue | oError | null, finite: l.finite && r.finite}
		case "||":
			return absValue{o: oValue | (l.o|r.o)&oError | null, finite: true}
		}
		return absValue{o: oAny}
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		return absValue{o: oBool | (l.o|r.o)&oError, finite: true}
	case pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
		if s, ok := strictOf(l.o, r.o); ok {
			return absValue{o: s, finite: true}
		}
		return absValue{o: oBool | oNE, finite: true}
	case pg.A_Expr_Kind_AEXPR_IN, pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		// A NULL (or failing) subject makes every comparison NULL (or fails first).
		if l.o&^oNE == 0 {
			return absValue{o: oNE, finite: true}
		}
		return absValue{o: oBool | oNE, finite: true}
	}
	return absValue{o: oAny}
}

// constant evaluates a variable-free part once, exactly.
func (a *abstract) constant(n *pg.Node) absValue {
	node, err := (&compiler{e: a.e}).compile(n)
	if err != nil {
		return absValue{o: oError, finite: false}
	}
	v, err := node.eval()
	switch {
	case err != nil:
		var u *Unsupported
		if asUnsupported(err, &u) {
			return absValue{o: oAny}
		}
		return absValue{o: oError, finite: true}
	case v.Null:
		return absValue{o: oNull, finite: true}
	case v.Type == Bool && v.B:
		return absValue{o: oTrue, finite: true}
	case v.Type == Bool:
		return absValue{o: oFalse, finite: true}
	}
	zero := false
	switch v.Type {
	case Int4, Int8:
		zero = v.I == 0
	case Numeric:
		zero = v.N.Unscaled.Sign() == 0
	case Unknown:
		// An untyped literal takes the other side's type: a number when it is divided by.
		if d, err := parseInput(v.S, Numeric); err == nil {
			zero = d.N.Unscaled.Sign() == 0
		}
	}
	return absValue{o: oValue, finite: true, zero: zero}
}

// strictOf is what a strict operator gives when one of its arguments is always NULL or
// an error: NULL or an error too (an error when one is raised first, NULL otherwise).
func strictOf(args ...outcome) (outcome, bool) {
	var all outcome
	always := false
	for _, o := range args {
		all |= o
		always = always || o&^oNE == 0
	}
	return all & oNE, always
}

func not(o outcome) outcome {
	r := o &^ oBool
	if o&oTrue != 0 {
		r |= oFalse
	}
	if o&oFalse != 0 {
		r |= oTrue
	}
	return r
}

// test is the outcome of IS TRUE and its kind: true when yes may hold, false when no may.
func test(yes, no bool) outcome {
	var o outcome
	if yes {
		o |= oTrue
	}
	if no {
		o |= oFalse
	}
	return o
}

// logicalSets is AND (or OR) over outcome sets, as logical evaluates it: left to right,
// an error raised at once, stopping at the first false (true).
func logicalSets(or bool, args []outcome) outcome {
	stop, pass := oFalse, oTrue
	if or {
		stop, pass = oTrue, oFalse
	}
	var out outcome
	// The states after some arguments: all passed, or some NULL and the rest passed.
	passed, null := true, false
	for _, o := range args {
		if o&oValue != 0 {
			o |= oBool // never: a compiled AND has boolean arguments
		}
		if !passed && !null {
			break
		}
		out |= o & (stop | oError)
		nextPassed := passed && o&pass != 0
		nextNull := (passed || null) && o&oNull != 0 || null && o&pass != 0
		passed, null = nextPassed, nextNull
	}
	if passed {
		out |= pass
	}
	if null {
		out |= oNull
	}
	return out
}

func asUnsupported(err error, target **Unsupported) bool {
	u, ok := err.(*Unsupported) //nolint:errorlint // Eval returns them unwrapped
	if ok {
		*target = u
	}
	return ok
}
