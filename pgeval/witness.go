package pgeval

import (
	"encoding/json"
	"math"
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

// MaxCandidates bounds the contexts ErrorWitness tries.
const MaxCandidates = 4096

// MaxWork bounds one search of Witness over a group of variables: the contexts it
// tries times the size of what each evaluates (its parse-tree nodes, a list of constants
// counting as one: it is looked up, not scanned). A search that would need more tries
// as many as the bound allows, and its "none found" is no proof.
const MaxWork = MaxCandidates * 64

// Witness looks for a context, extending fixed, under which every condition holds.
// Each variable takes values from a candidate set built from the constants the
// expressions compare it with (each constant, the numbers just beside it, midpoints,
// values beyond the extremes, NULL), restricted to its domain.
//
// The conditions are split into independent parts first: each condition, and each
// argument of a wanted-true AND (true exactly when every argument is); parts that share
// a variable form a group, and each group is searched on its own, over the combinations
// of its own variables' candidates only. A group whose every atom compares one variable
// with constants, searched exhaustively, has tried every region those constants split
// its variables' domains into, and a group with no variable left (all fixed, or none) is
// evaluated once, exactly: "none found" in such a group is a proof (proven) that no
// context satisfies the conditions. So x IN (…2500 constants…) AND x NOT IN (…) is one
// variable's regions, a few thousand tries, never the product of unrelated variables'.
func Witness(conds []Condition, fixed map[string]any, domains map[string]Domain) (ctx map[string]any, found, proven bool) {
	var parts []Condition
	for _, c := range conds {
		if !c.Want {
			parts = append(parts, c)
			continue
		}
		for _, e := range c.Expr.conjuncts() {
			parts = append(parts, Condition{Expr: e, Want: true})
		}
	}
	ctx = map[string]any{}
	for k, v := range fixed {
		ctx[k] = v
	}
	missing := false
	for _, g := range independent(parts, fixed) {
		values, ok, exhaustive := g.search(fixed, domains)
		switch {
		case ok:
			for k, v := range values {
				ctx[k] = v
			}
		case exhaustive:
			return nil, false, true
		default:
			missing = true
		}
	}
	if missing {
		return nil, false, false
	}
	// The groups' values together satisfy every part, and so every condition; checked
	// once more on the whole conditions, as they are evaluated in a run.
	for _, c := range conds {
		if !c.Holds(ctx) {
			return nil, false, false
		}
	}
	return ctx, true, false
}

// group is parts of the conditions that share variables (not fixed ones), in the
// order of the conditions, and those variables, sorted.
type group struct {
	parts []Condition
	vars  []string
	index []int // of each part among all
}

// independent groups the parts: two parts that name a common variable not in fixed are
// in one group.
func independent(parts []Condition, fixed map[string]any) []*group {
	var groups []*group
	of := map[string]*group{}
	for i, p := range parts {
		var g *group
		for _, v := range p.Expr.vars {
			if _, ok := fixed[v]; ok {
				continue
			}
			h := of[v]
			switch {
			case h == nil:
				if g == nil {
					g = &group{}
					groups = append(groups, g)
				}
				g.vars = append(g.vars, v)
				of[v] = g
			case g == nil:
				g = h
			case h != g:
				// Merge h into g.
				g.parts = append(g.parts, h.parts...)
				g.index = append(g.index, h.index...)
				g.vars = append(g.vars, h.vars...)
				for _, w := range h.vars {
					of[w] = g
				}
				groups = slices.DeleteFunc(groups, func(x *group) bool { return x == h })
			}
		}
		if g == nil {
			// No variable left to choose: a group of its own, evaluated once.
			g = &group{}
			groups = append(groups, g)
		}
		g.parts = append(g.parts, p)
		g.index = append(g.index, i)
	}
	for _, g := range groups {
		sort.Strings(g.vars)
		// The parts in the conditions' order, as the analysis of kinds reads them.
		sort.Sort(byIndex{g})
	}
	return groups
}

type byIndex struct{ g *group }

func (b byIndex) Len() int           { return len(b.g.index) }
func (b byIndex) Less(i, j int) bool { return b.g.index[i] < b.g.index[j] }
func (b byIndex) Swap(i, j int) {
	b.g.index[i], b.g.index[j] = b.g.index[j], b.g.index[i]
	b.g.parts[i], b.g.parts[j] = b.g.parts[j], b.g.parts[i]
}

// search tries the combinations of the group's variables' candidates, the first
// variable fastest, and returns the values of the first that satisfies every part (nil
// for an absent variable is left out). exhaustive says that "none found" is a proof.
func (g *group) search(fixed map[string]any, domains map[string]Domain) (values map[string]any, found, exhaustive bool) {
	a := newAnalysis()
	cost := 0
	for _, c := range g.parts {
		a.expr(c.Expr)
		cost += treeSize(c.Expr.root)
	}
	limit := max(MaxWork/max(cost, 1), 1)
	cands := make([][]any, len(g.vars))
	total := 1
	for i, v := range g.vars {
		cands[i] = a.candidates(v, domains[v])
		total *= len(cands[i])
		if total > limit {
			total = limit + 1
		}
	}
	exhaustive = total <= limit && (a.simple || len(g.vars) == 0)
	ctx := map[string]any{}
	for k, v := range fixed {
		ctx[k] = v
	}
	pick := make([]int, len(g.vars))
	for n := 0; n < limit; n++ {
		for i, v := range g.vars {
			if x := cands[i][pick[i]]; x != nil {
				ctx[v] = x
			} else {
				delete(ctx, v)
			}
		}
		if g.holds(ctx) {
			values = map[string]any{}
			for _, v := range g.vars {
				if x, ok := ctx[v]; ok {
					values[v] = x
				}
			}
			return values, true, false
		}
		if !next(pick, cands) {
			break // every combination tried
		}
	}
	return nil, false, exhaustive
}

func (g *group) holds(ctx map[string]any) bool {
	for _, c := range g.parts {
		if !c.Holds(ctx) {
			return false
		}
	}
	return true
}

// treeSize is the number of nodes below and at n, a list of constants counting as one.
func treeSize(n *pg.Node) int {
	if n == nil {
		return 0
	}
	if n.GetList() != nil && constantsOf(n) != nil {
		return 1
	}
	size := 1
	for _, c := range children(n) {
		size += treeSize(c)
	}
	return size
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
	nums := []Decimal{decimalOf(0)}
	seen := map[string]bool{"0": true}
	for _, n := range a.nums[v] {
		if k := valueKey(Value{N: n}, Numeric); !seen[k] {
			seen[k] = true
			nums = append(nums, n)
		}
	}
	// Points are ordered by their float64 first (correctly rounded, so never out of
	// order), exactly only where those are equal.
	type point struct {
		r *big.Rat
		f float64
	}
	var pts []point
	add := func(r *big.Rat) {
		f, _ := r.Float64()
		pts = append(pts, point{r, f})
	}
	less := func(a, b point) bool {
		if a.f != b.f {
			return a.f < b.f
		}
		return a.r.Cmp(b.r) < 0
	}
	for _, n := range nums {
		r := n.rat()
		add(r)
		add(new(big.Rat).Add(r, big.NewRat(1, 1)))
		add(new(big.Rat).Sub(r, big.NewRat(1, 1)))
		add(new(big.Rat).Add(r, big.NewRat(1, 2)))
		add(new(big.Rat).Sub(r, big.NewRat(1, 2)))
	}
	sort.Slice(pts, func(i, j int) bool { return less(pts[i], pts[j]) })
	var uniq []point
	for _, p := range pts {
		if len(uniq) == 0 || uniq[len(uniq)-1].r.Cmp(p.r) != 0 {
			uniq = append(uniq, p)
		}
	}
	for i, n := 1, len(uniq); i < n; i++ {
		m := new(big.Rat).Add(uniq[i-1].r, uniq[i].r)
		m.Quo(m, big.NewRat(2, 1))
		f, _ := m.Float64()
		uniq = append(uniq, point{m, f})
	}
	// Every midpoint lies strictly between two neighbours, so all are distinct.
	// Closest to zero first, a positive before its negative.
	abs := func(p point) point { return point{new(big.Rat).Abs(p.r), math.Abs(p.f)} }
	ps := make([]struct{ p, abs point }, len(uniq))
	for i, p := range uniq {
		ps[i].p, ps[i].abs = p, abs(p)
	}
	sort.Slice(ps, func(i, j int) bool {
		if less(ps[i].abs, ps[j].abs) || less(ps[j].abs, ps[i].abs) {
			return less(ps[i].abs, ps[j].abs)
		}
		return ps[i].p.r.Sign() > ps[j].p.r.Sign()
	})
	lo, hasLo := new(big.Rat).SetString(d.Min)
	hi, hasHi := new(big.Rat).SetString(d.Max)
	for _, pt := range ps {
		p := pt.p.r
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
// one: sums and halves of decimals) as a decimal: its denominator is 2^a·5^b, and
// max(a, b) digits after the point are exact.
func ratText(r *big.Rat) string {
	den := new(big.Int).Set(r.Denom())
	twos := den.TrailingZeroBits()
	den.Rsh(den, twos)
	fives := uint(0)
	five, q, m := big.NewInt(5), new(big.Int), new(big.Int)
	for den.Cmp(one) > 0 {
		q.QuoRem(den, five, m)
		if m.Sign() != 0 {
			return r.FloatString(40) // not terminating: no candidate is
		}
		den.Set(q)
		fives++
	}
	return r.FloatString(int(max(twos, fives)))
}

var one = big.NewInt(1)

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
