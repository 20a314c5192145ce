package pgeval

import (
	"encoding/json"
	"math/big"
	"slices"
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Condition is one branch outcome a context must produce: Want true means the
// expression is true; false means it is false, NULL or raises an error (all of which
// send a Cortex branch along onFailure).
type Condition struct {
	Expr *Expr
	Want bool
}

// Holds reports whether ctx produces the condition's outcome.
func (c Condition) Holds(ctx map[string]any) bool {
	v, err := c.Expr.Eval(ctx)
	truth := err == nil && !v.Null && v.Type == Bool && v.B
	return truth == c.Want
}

// Domain restricts the values a variable may take (an ai step's output schema): a
// type ("number", "integer", "string", "boolean"), bounds and an enum.
type Domain struct {
	Type     string
	Min, Max string // JSON number literals, "" when unbounded
	Enum     []any
	NotNull  bool // the value is always present
}

// MaxCandidates bounds the contexts one search tries.
const MaxCandidates = 4096

// Witness looks for a context, extending fixed, under which every condition holds.
// Each variable takes values from a candidate set built from the constants the
// expressions compare it with (each constant, the numbers just beside it, midpoints,
// values beyond the extremes, NULL), restricted to its domain. When every atom compares
// one variable with constants and the search was exhaustive, the candidates cover every
// region those constants split the domain into: "none found" is then a proof (proven).
func Witness(conds []Condition, fixed map[string]any, domains map[string]Domain) (ctx map[string]any, found, proven bool) {
	a := newAnalysis()
	for _, c := range conds {
		a.expr(c.Expr)
	}
	var vars []string
	for _, c := range conds {
		for _, v := range c.Expr.vars {
			if _, ok := fixed[v]; !ok && !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
	}
	sort.Strings(vars)
	cands := make([][]any, len(vars))
	total := 1
	for i, v := range vars {
		cands[i] = a.candidates(v, domains[v])
		total *= len(cands[i])
		if total > MaxCandidates {
			total = MaxCandidates + 1
		}
	}
	proven = a.simple && total <= MaxCandidates
	try := func(pick []int) map[string]any {
		ctx := map[string]any{}
		for k, v := range fixed {
			ctx[k] = v
		}
		for i, v := range vars {
			if x := cands[i][pick[i]]; x != nil {
				ctx[v] = x
			}
		}
		for _, c := range conds {
			if !c.Holds(ctx) {
				return nil
			}
		}
		return ctx
	}
	pick := make([]int, len(vars))
	for n := 0; n < MaxCandidates; n++ {
		if ctx := try(pick); ctx != nil {
			return ctx, true, false
		}
		if !next(pick, cands) {
			break // every combination tried
		}
	}
	return nil, false, proven
}

// analysis gathers, per variable, the constants it is compared with and what kind of
// value it is used as, and whether every atom is "one variable against constants".
type analysis struct {
	nums   map[string][]Decimal
	texts  map[string][]string
	kind   map[string]string // "num", "text", "bool"
	simple bool
}

func newAnalysis() *analysis {
	return &analysis{nums: map[string][]Decimal{}, texts: map[string][]string{}, kind: map[string]string{}, simple: true}
}

func (a *analysis) expr(e *Expr) {
	a.walk(e, e.root, "bool")
}

// walk visits n, which stands where a value of the given kind is expected.
func (a *analysis) walk(e *Expr, n *pg.Node, want string) {
	if n == nil {
		return
	}
	switch x := n.Node.(type) {
	case *pg.Node_ParamRef:
		if name, ok := e.names[x.ParamRef.Number]; ok {
			if want != "" && a.kind[name] == "" {
				a.kind[name] = want
			}
		}
		return
	case *pg.Node_BoolExpr:
		for _, arg := range x.BoolExpr.Args {
			a.walk(e, arg, "bool")
		}
		return
	case *pg.Node_NullTest:
		if x.NullTest.Arg.GetParamRef() == nil {
			a.simple = false
		}
		a.walk(e, x.NullTest.Arg, "")
		return
	case *pg.Node_BooleanTest:
		a.walk(e, x.BooleanTest.Arg, "bool")
		return
	case *pg.Node_AExpr:
		ae := x.AExpr
		op := opName(ae.Name)
		variable, other := ae.Lexpr, ae.Rexpr
		if variable.GetParamRef() == nil {
			variable, other = other, variable
		}
		name := ""
		if variable != nil && variable.GetParamRef() != nil {
			name = e.names[variable.GetParamRef().Number]
		}
		consts := constantsOf(other)
		switch {
		case name != "" && consts != nil && (ae.Kind == pg.A_Expr_Kind_AEXPR_OP && isComparison(op) ||
			ae.Kind == pg.A_Expr_Kind_AEXPR_IN || ae.Kind == pg.A_Expr_Kind_AEXPR_BETWEEN ||
			ae.Kind == pg.A_Expr_Kind_AEXPR_NOT_BETWEEN || ae.Kind == pg.A_Expr_Kind_AEXPR_DISTINCT ||
			ae.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT):
			a.record(name, consts)
			return
		case name != "" && consts != nil && (ae.Kind == pg.A_Expr_Kind_AEXPR_LIKE || ae.Kind == pg.A_Expr_Kind_AEXPR_ILIKE):
			a.record(name, consts)
			for _, k := range consts {
				if s, ok := k.(string); ok {
					a.texts[name] = append(a.texts[name], likeExample(s), likeExample(s)+"x", "x"+likeExample(s))
				}
			}
			a.simple = false // a pattern's matches are not finitely many regions
			return
		}
		a.simple = false
		kind := "num"
		if op == "||" || ae.Kind == pg.A_Expr_Kind_AEXPR_LIKE || ae.Kind == pg.A_Expr_Kind_AEXPR_ILIKE {
			kind = "text"
		}
		for _, k := range append(constantsOf(ae.Lexpr), constantsOf(ae.Rexpr)...) {
			for _, v := range e.vars {
				a.addConst(v, k)
			}
		}
		a.walk(e, ae.Lexpr, kind)
		a.walk(e, ae.Rexpr, kind)
		if l := ae.Rexpr.GetList(); l != nil {
			for _, it := range l.Items {
				a.walk(e, it, kind)
			}
		}
		return
	}
	// Anything else: not one variable against constants. Gather what can be gathered.
	a.simple = false
	for _, child := range children(n) {
		a.walk(e, child, "")
	}
}

func isComparison(op string) bool {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// constantsOf returns the constant values of a constant, a list of constants, or a
// cast of a constant; nil when n is something else.
func constantsOf(n *pg.Node) []any {
	if n == nil {
		return nil
	}
	if l := n.GetList(); l != nil {
		var out []any
		for _, it := range l.Items {
			ks := constantsOf(it)
			if ks == nil {
				return nil
			}
			out = append(out, ks...)
		}
		return out
	}
	if tc := n.GetTypeCast(); tc != nil {
		return constantsOf(tc.Arg)
	}
	k := n.GetAConst()
	if k == nil {
		return nil
	}
	switch {
	case k.Isnull:
		return []any{}
	case k.GetIval() != nil:
		return []any{decimalOf(int64(k.GetIval().Ival))}
	case k.GetFval() != nil:
		if d, ok := ParseDecimal(k.GetFval().Fval); ok {
			return []any{d}
		}
	case k.GetSval() != nil:
		return []any{k.GetSval().Sval}
	case k.GetBoolval() != nil:
		return []any{k.GetBoolval().Boolval}
	}
	return nil
}

func (a *analysis) record(name string, consts []any) {
	for _, k := range consts {
		a.addConst(name, k)
		switch v := k.(type) {
		case Decimal:
			if a.kind[name] == "" {
				a.kind[name] = "num"
			}
		case string:
			if a.kind[name] == "" {
				a.kind[name] = "text"
			}
			if d, ok := ParseDecimal(v); ok {
				a.nums[name] = append(a.nums[name], d)
			}
		case bool:
			if a.kind[name] == "" {
				a.kind[name] = "bool"
			}
		}
	}
}

func (a *analysis) addConst(name string, k any) {
	switch v := k.(type) {
	case Decimal:
		a.nums[name] = append(a.nums[name], v)
	case string:
		a.texts[name] = append(a.texts[name], v)
	}
}

// likeExample is a string the LIKE pattern matches.
func likeExample(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '%':
		case '_':
			b.WriteByte('a')
		case '\\':
			if i+1 < len(p) {
				i++
				b.WriteByte(p[i])
			}
		default:
			b.WriteByte(p[i])
		}
	}
	return b.String()
}

// candidates are the values variable v takes in the search, the simplest first (small
// numbers, short strings), nil (absent) last, so that a witness reads naturally.
func (a *analysis) candidates(v string, d Domain) []any {
	out := a.values(v, d)
	if !d.NotNull {
		out = append(out, nil)
	}
	return out
}

func (a *analysis) values(v string, d Domain) []any {
	var out []any
	kind := a.kind[v]
	switch d.Type {
	case "number", "integer":
		kind = "num"
	case "string":
		kind = "text"
	case "boolean":
		kind = "bool"
	}
	if d.Enum != nil {
		return append(out, d.Enum...)
	}
	switch kind {
	case "bool":
		return append(out, true, false)
	case "text":
		seen := map[string]bool{}
		for _, s := range append([]string{"", "x"}, a.texts[v]...) {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
		return out
	}
	// Numbers: each constant, one either side, midpoints, beyond both ends.
	nums := append([]Decimal{decimalOf(0)}, a.nums[v]...)
	var pts []*big.Rat
	add := func(r *big.Rat) { pts = append(pts, r) }
	for _, n := range nums {
		r := n.rat()
		add(r)
		add(new(big.Rat).Add(r, big.NewRat(1, 1)))
		add(new(big.Rat).Sub(r, big.NewRat(1, 1)))
		add(new(big.Rat).Add(r, big.NewRat(1, 2)))
		add(new(big.Rat).Sub(r, big.NewRat(1, 2)))
	}
	sort.Slice(pts, func(i, j int) bool { return pts[i].Cmp(pts[j]) < 0 })
	var uniq []*big.Rat
	for _, p := range pts {
		if len(uniq) == 0 || uniq[len(uniq)-1].Cmp(p) != 0 {
			uniq = append(uniq, p)
		}
	}
	var mids []*big.Rat
	for i := 1; i < len(uniq); i++ {
		m := new(big.Rat).Add(uniq[i-1], uniq[i])
		mids = append(mids, m.Quo(m, big.NewRat(2, 1)))
	}
	// Every midpoint lies strictly between two neighbours, so all are distinct.
	uniq = append(uniq, mids...)
	// Closest to zero first, a positive before its negative.
	type point struct{ r, abs *big.Rat }
	ps := make([]point, len(uniq))
	for i, r := range uniq {
		ps[i] = point{r, new(big.Rat).Abs(r)}
	}
	sort.Slice(ps, func(i, j int) bool {
		if c := ps[i].abs.Cmp(ps[j].abs); c != 0 {
			return c < 0
		}
		return ps[i].r.Sign() > ps[j].r.Sign()
	})
	lo, hasLo := new(big.Rat).SetString(d.Min)
	hi, hasHi := new(big.Rat).SetString(d.Max)
	for _, pt := range ps {
		p := pt.r
		if d.Min != "" && hasLo && p.Cmp(lo) < 0 || d.Max != "" && hasHi && p.Cmp(hi) > 0 {
			continue
		}
		if d.Type == "integer" && !p.IsInt() {
			continue
		}
		out = append(out, json.Number(ratText(p)))
	}
	if d.Min != "" && hasLo {
		out = append(out, json.Number(ratText(lo)))
	}
	if d.Max != "" && hasHi {
		out = append(out, json.Number(ratText(hi)))
	}
	return out
}

func (d Decimal) rat() *big.Rat {
	return new(big.Rat).SetFrac(d.Unscaled, pow10(d.Scale))
}

// ratText writes a rational with a terminating decimal expansion (every candidate has
// one: sums and halves of decimals) as a decimal.
func ratText(r *big.Rat) string {
	for s := 0; s <= 40; s++ {
		if new(big.Rat).Mul(r, new(big.Rat).SetInt(pow10(s))).IsInt() {
			return r.FloatString(s)
		}
	}
	return r.FloatString(40)
}

// children are the nodes directly below n, whatever its type.
func children(n *pg.Node) []*pg.Node {
	var out []*pg.Node
	var visit func(m protoreflect.Message)
	visit = func(m protoreflect.Message) {
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				for i := 0; i < v.List().Len(); i++ {
					collect(v.List().Get(i).Message(), &out, visit)
				}
			case fd.Message() != nil && !fd.IsMap():
				collect(v.Message(), &out, visit)
			}
			return true
		})
	}
	// n is a oneof wrapper: its one field is the node itself.
	n.ProtoReflect().Range(func(_ protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if m, ok := v.Interface().(protoreflect.Message); ok {
			visit(m)
		}
		return false
	})
	return out
}

func collect(m protoreflect.Message, out *[]*pg.Node, visit func(protoreflect.Message)) {
	if node, ok := m.Interface().(*pg.Node); ok {
		*out = append(*out, node)
		return
	}
	visit(m) // a helper message (CaseWhen, TypeName): look inside
}

// ErrorWitness looks for a context under which evaluating the expression raises an
// error (division by zero, a value that does not convert), and returns the error.
func ErrorWitness(e *Expr, domains map[string]Domain) (ctx map[string]any, err error, found bool) {
	a := newAnalysis()
	a.expr(e)
	vars := append([]string(nil), e.vars...)
	sort.Strings(vars)
	cands := make([][]any, len(vars))
	for i, v := range vars {
		cands[i] = a.candidates(v, domains[v])
	}
	pick := make([]int, len(vars))
	for n := 0; n < MaxCandidates; n++ {
		ctx := map[string]any{}
		for i, v := range vars {
			if x := cands[i][pick[i]]; x != nil {
				ctx[v] = x
			}
		}
		var se *SQLError
		if _, err := e.Eval(ctx); err != nil && asSQLError(err, &se) {
			return ctx, se, true
		}
		if !next(pick, cands) {
			break
		}
	}
	return nil, nil, false
}

// next advances pick to the next combination of candidates, in mixed radix; false once
// every combination has been taken.
func next(pick []int, cands [][]any) bool {
	for k := range pick {
		if pick[k]++; pick[k] < len(cands[k]) {
			return true
		}
		pick[k] = 0
	}
	return false
}

func asSQLError(err error, target **SQLError) bool {
	se, ok := err.(*SQLError) //nolint:errorlint // Eval returns them unwrapped
	if ok {
		*target = se
	}
	return ok
}
