package pgeval

import (
	"fmt"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// Unsupported is the first construct of the expression outside the evaluator's subset
// (SPEC §8.4), nil when every construct is in it. It reads the expression, never a
// context: whether abs({{x}}) is evaluated does not depend on what x holds.
//
// An expression whose constructs are all supported is evaluated for every context,
// with one exception, a value the evaluator has no SQL value for: a context value that
// is an array or an object, or a numeric or double precision NaN or infinity (read from
// text). Eval then returns an *Unsupported for that context only.
func (e *Expr) Unsupported() *Unsupported {
	return supported(e.root, e.names)
}

func supported(n *pg.Node, names map[int32]string) *Unsupported {
	all := func(ns ...*pg.Node) *Unsupported {
		for _, m := range ns {
			if m == nil {
				continue
			}
			if u := supported(m, names); u != nil {
				return u
			}
		}
		return nil
	}
	switch x := n.Node.(type) {
	case *pg.Node_AConst:
		return constantSupported(x.AConst)
	case *pg.Node_ParamRef:
		if _, ok := names[x.ParamRef.Number]; !ok {
			return &Unsupported{Construct: fmt.Sprintf("$%d", x.ParamRef.Number), Offset: offset(x.ParamRef.Location)}
		}
		return nil
	case *pg.Node_BoolExpr:
		return all(x.BoolExpr.Args...)
	case *pg.Node_AExpr:
		a := x.AExpr
		if u := all(a.Lexpr); u != nil {
			return u
		}
		op := opName(a.Name)
		switch a.Kind {
		case pg.A_Expr_Kind_AEXPR_OP:
			if a.Lexpr == nil && op != "-" && op != "+" {
				return &Unsupported{Construct: "prefix operator " + op, Offset: offset(a.Location)}
			}
			if a.Lexpr != nil && !binaryOperator(op) {
				if u := all(a.Rexpr); u != nil {
					return u
				}
				return &Unsupported{Construct: "operator " + op, Offset: offset(a.Location)}
			}
			return all(a.Rexpr)
		case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT, pg.A_Expr_Kind_AEXPR_NULLIF,
			pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
			return all(a.Rexpr)
		case pg.A_Expr_Kind_AEXPR_IN:
			list := a.Rexpr.GetList()
			if list == nil {
				return &Unsupported{Construct: "IN with a subquery", Offset: offset(a.Location)}
			}
			return all(list.Items...)
		case pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
			pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
			bounds := a.Rexpr.GetList()
			if bounds == nil || len(bounds.Items) != 2 {
				return &Unsupported{Construct: "BETWEEN", Offset: offset(a.Location)}
			}
			return all(bounds.Items...)
		}
		return &Unsupported{Construct: "operator " + op, Offset: offset(a.Location)}
	case *pg.Node_NullTest:
		return all(x.NullTest.Arg)
	case *pg.Node_BooleanTest:
		return all(x.BooleanTest.Arg)
	case *pg.Node_TypeCast:
		if _, _, _, err := castTarget(x.TypeCast.TypeName); err != nil {
			u, _ := err.(*Unsupported) //nolint:errorlint // castTarget returns it as is
			return u
		}
		return all(x.TypeCast.Arg)
	case *pg.Node_CaseExpr:
		ce := x.CaseExpr
		if u := all(ce.Arg); u != nil {
			return u
		}
		for _, w := range ce.Args {
			when := w.GetCaseWhen()
			if when == nil {
				return &Unsupported{Construct: nodeName(w), Offset: nodeOffset(w)}
			}
			if u := all(when.Expr, when.Result); u != nil {
				return u
			}
		}
		return all(ce.Defresult)
	case *pg.Node_CoalesceExpr:
		return all(x.CoalesceExpr.Args...)
	case *pg.Node_MinMaxExpr:
		return all(x.MinMaxExpr.Args...)
	case *pg.Node_FuncCall:
		f := x.FuncCall
		if u := funcSupported(f); u != nil {
			return u
		}
		return all(f.Args...)
	}
	return &Unsupported{Construct: nodeName(n), Offset: nodeOffset(n)}
}

// constantSupported is nil for the constants the evaluator reads: NULL, integers,
// numerics, strings and booleans (not bit strings).
func constantSupported(k *pg.A_Const) *Unsupported {
	switch {
	case k.Isnull, k.GetIval() != nil, k.GetSval() != nil, k.GetBoolval() != nil:
		return nil
	case k.GetFval() != nil:
		_, err := numericLiteral(k)
		u, _ := err.(*Unsupported) //nolint:errorlint // numericLiteral returns it as is
		return u
	}
	return unsupported("constant", k.Location).(*Unsupported) //nolint:errorlint // it is one
}

// binaryOperator reports whether the evaluator knows the infix operator op.
func binaryOperator(op string) bool {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "%", "||":
		return true
	}
	return false
}

// funcSupported is nil for a call of a function the evaluator knows, with as many
// arguments as it takes: lower, upper, length and the trims with one, abs with one,
// round with one or two; no aggregate or window syntax, no schema but pg_catalog.
func funcSupported(f *pg.FuncCall) *Unsupported {
	name := opName(f.Funcname)
	if f.AggStar || f.AggDistinct || f.Over != nil || len(f.AggOrder) > 0 || f.AggFilter != nil || f.FuncVariadic ||
		len(f.Funcname) == 2 && f.Funcname[0].GetString_().GetSval() != "pg_catalog" || len(f.Funcname) > 2 {
		return &Unsupported{Construct: "function " + name, Offset: offset(f.Location)}
	}
	ok := false
	switch name {
	case "lower", "upper", "length", "btrim", "ltrim", "rtrim", "abs":
		ok = len(f.Args) == 1
	case "round":
		ok = len(f.Args) == 1 || len(f.Args) == 2
	default:
		return &Unsupported{Construct: "function " + name, Offset: offset(f.Location)}
	}
	if !ok {
		return &Unsupported{Construct: fmt.Sprintf("%s with %d arguments", name, len(f.Args)), Offset: offset(f.Location)}
	}
	return nil
}
