package pgeval

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// The regions of a variable's domain (SPEC §8.4, "A proof is a promise"). When every
// atom of an expression compares one variable with constants, the expression's outcome
// depends, for each variable, only on the JSON type of its value and, within a type, on
// where the value lies among the constants it is compared with, as PostgreSQL orders
// that type:
//   - a number (numeric, exact) against the numeric constants: a constant written as a
//     number, cast to a number type ('100'::numeric is 100), or an untyped string
//     literal that numeric input reads ('100' takes the number's type in n > '100');
//   - a string against the text constants (an untyped or text literal), in the byte
//     order of the "C" collation the evaluator implements: each constant, each gap
//     between two neighbours that holds a string, everything below the least (the
//     empty string) and everything beyond the greatest;
//   - a boolean: true and false;
//   - NULL, which is also what an absent variable is.
//
// Comparisons with a constant of another type raise an error for every value of the
// type, whatever its region. One value per region of each type the variable's domain
// admits is then an exhaustive search. A domain of integers takes the integers around
// each constant (its floor and ceiling and one beyond each), so that the integers
// between two non-integer constants are tried (x > 10.3 AND x < 11.9 at 11).

// analysis gathers, per variable, the constants it is compared with and what kind of
// value it is used as, and whether every atom is "one variable against constants".
type analysis struct {
	nums   map[string][]Decimal
	texts  map[string][]string
	hints  map[string][]string // strings a LIKE pattern matches: tried, not regions
	kind   map[string]string   // "num", "text", "bool": the kind tried first
	simple bool
}

func newAnalysis() *analysis {
	return &analysis{nums: map[string][]Decimal{}, texts: map[string][]string{}, hints: map[string][]string{},
		kind: map[string]string{}, simple: true}
}

func (a *analysis) expr(e *Expr) {
	a.walk(e, e.root, "bool")
}

// add is expr(e), read from the analysis of e's tree by parameter, found once per tree
// (shape.analysisOf) and given e's names: the searches of one definition read the same
// expressions, renamed, again and again. The result is expr's: within one expression
// each variable's constants are gathered in the order expr gathers them, and the kind
// it is first used as is the kind expr would give it.
func (a *analysis) add(e *Expr) {
	names, ok := partNames(e)
	if !ok {
		a.expr(e) // two parameters, one variable: their constants interleave
		return
	}
	t := e.shape.analysisOf(e)
	params := e.shape.of(e.root).params
	for i, p := range params {
		name, ph := names[i], placeholder(p)
		if xs := t.nums[ph]; len(xs) > 0 {
			a.nums[name] = append(a.nums[name], xs...)
		}
		if xs := t.texts[ph]; len(xs) > 0 {
			a.texts[name] = append(a.texts[name], xs...)
		}
		if xs := t.hints[ph]; len(xs) > 0 {
			a.hints[name] = append(a.hints[name], xs...)
		}
		if k := t.kind[ph]; k != "" && a.kind[name] == "" {
			a.kind[name] = k
		}
	}
	a.simple = a.simple && t.simple
}

// placeholder is the name parameter p has in the analyses shape.analysisOf keeps: no
// variable is called so.
func placeholder(p int32) string { return "\x00" + strconv.Itoa(int(p)) }

// walk visits n, which stands where a value of the given kind is expected.
func (a *analysis) walk(e *Expr, n *pg.Node, want string) {
	if n == nil || !e.hasParam(n) {
		return // a constant: the same value (or error) for every context
	}
	switch x := n.Node.(type) {
	case *pg.Node_ParamRef:
		if name, ok := e.names[x.ParamRef.Number]; ok && want != "" && a.kind[name] == "" {
			a.kind[name] = want
		}
		return
	case *pg.Node_BoolExpr:
		for _, arg := range x.BoolExpr.Args {
			a.walk(e, arg, "bool")
		}
		return
	case *pg.Node_NullTest:
		a.walk(e, x.NullTest.Arg, "")
		return
	case *pg.Node_BooleanTest:
		a.walk(e, x.BooleanTest.Arg, "bool")
		return
	case *pg.Node_AExpr:
		if a.atom(e, x.AExpr) {
			return
		}
	}
	// Anything else: not one variable against constants. Gather what can be gathered.
	a.simple = false
	kind := ""
	if ae := n.GetAExpr(); ae != nil {
		kind = "num"
		if op := opName(ae.Name); op == "||" || ae.Kind == pg.A_Expr_Kind_AEXPR_LIKE || ae.Kind == pg.A_Expr_Kind_AEXPR_ILIKE {
			kind = "text"
		}
	} else if n.GetList() != nil {
		kind = want
	}
	for _, c := range e.children(n) {
		if e.hasParam(c) {
			a.walk(e, c, kind)
			continue
		}
		for _, v := range e.vars {
			a.note(v, constants(e, c))
		}
	}
}

// atom reads ae when it compares one variable with constants, recording them, and says
// whether it did.
func (a *analysis) atom(e *Expr, ae *pg.A_Expr) bool {
	variable, other := ae.Lexpr, ae.Rexpr
	switch ae.Kind {
	case pg.A_Expr_Kind_AEXPR_OP:
		if !isComparison(opName(ae.Name)) {
			return false
		}
		if variable.GetParamRef() == nil {
			variable, other = other, variable
		}
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		if variable.GetParamRef() == nil {
			variable, other = other, variable
		}
	case pg.A_Expr_Kind_AEXPR_IN, pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM,
		pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE:
	default:
		return false
	}
	p := variable.GetParamRef()
	if p == nil || other == nil || e.hasParam(other) {
		return false
	}
	name, ok := e.names[p.Number]
	if !ok {
		return false
	}
	consts := constants(e, other)
	if ae.Kind == pg.A_Expr_Kind_AEXPR_LIKE || ae.Kind == pg.A_Expr_Kind_AEXPR_ILIKE {
		// A pattern's matches are not finitely many regions: strings it matches are
		// tried, and the search is no proof.
		a.note(name, consts)
		for _, k := range consts {
			if k.Type == Unknown || k.Type == Text {
				x := likeExample(k.S)
				a.hints[name] = append(a.hints[name], x, x+"x", "x"+x)
			}
		}
		if a.kind[name] == "" {
			a.kind[name] = "text"
		}
		a.simple = false
		return true
	}
	a.note(name, consts)
	for _, k := range consts {
		if a.kind[name] != "" || k.Null {
			continue
		}
		switch k.Type {
		case Bool:
			a.kind[name] = "bool"
		case Int4, Int8, Numeric:
			a.kind[name] = "num"
		default:
			a.kind[name] = "text"
		}
	}
	return true
}

func isComparison(op string) bool {
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// note records constants a variable is compared with, as the types they have: a number
// is a boundary among numbers, a text a boundary among strings, and an untyped literal
// both (it takes the variable's type: a string, or the number numeric input reads).
func (a *analysis) note(name string, consts []Value) {
	for _, k := range consts {
		if k.Null {
			continue
		}
		switch k.Type {
		case Unknown:
			a.texts[name] = append(a.texts[name], k.S)
			if n, err := parseInput(k.S, Numeric); err == nil {
				a.nums[name] = append(a.nums[name], n.N)
			}
		case Text:
			a.texts[name] = append(a.texts[name], k.S)
		case Int4, Int8:
			a.nums[name] = append(a.nums[name], decimalOf(k.I))
		case Numeric:
			a.nums[name] = append(a.nums[name], k.N)
		}
	}
}

// widen adds, for a search that is no proof anyway, values worth trying beyond the
// constants each variable meets: their negatives (-x > 10 wants x below -10), numbers
// written as strings (x::int = 2 wants "2"), and the bounds and enums of the other
// variables' domains (x < y wants x near y's values).
func (a *analysis) widen(vars []string, domains map[string]Domain) {
	for _, v := range vars {
		for _, n := range a.nums[v] {
			a.nums[v] = append(a.nums[v], Decimal{new(big.Int).Neg(n.Unscaled), n.Scale})
			a.texts[v] = append(a.texts[v], n.String()) // a string a cast reads as n
		}
	}
	var bounds []Value
	var collect func(d Domain)
	collect = func(d Domain) {
		for _, u := range d.Union {
			collect(u)
		}
		for _, b := range []string{d.Min, d.Max} {
			if n, ok := ParseDecimal(b); ok && b != "" {
				bounds = append(bounds, Value{Type: Numeric, N: n})
			}
		}
		for _, x := range d.Enum {
			if v, err := contextValue(x); err == nil && !v.Null {
				bounds = append(bounds, v)
			}
		}
	}
	for _, w := range vars {
		collect(domains[w])
	}
	for _, v := range vars {
		a.note(v, bounds)
	}
}

// constants are the values of a variable-free expression, or of a list of them,
// evaluated as they stand (an untyped literal stays unknown); none when one raises an
// error (then so does every evaluation that reaches it).
func constants(e *Expr, n *pg.Node) []Value {
	if l := n.GetList(); l != nil {
		var out []Value
		for _, it := range l.Items {
			out = append(out, constants(e, it)...)
		}
		return out
	}
	var node *node
	var err error
	if k := n.GetAConst(); k != nil {
		node, err = (&compiler{e: e}).aconst(k)
	} else {
		node, err = (&compiler{e: e}).compile(n)
	}
	if err != nil {
		return nil
	}
	v, err := node.eval()
	if err != nil {
		return nil
	}
	return []Value{v}
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

// candidates are the values variable v takes in the search: one in each region of each
// type its domain admits, the kind the expression uses it as first and the simplest
// first (small numbers, short strings), then NULL (absent), so that a witness reads
// naturally.
func (a *analysis) candidates(v string, d Domain) []any {
	c := &candidateSet{}
	if a.domainValues(v, d, c) {
		c.add(nil)
	}
	return c.out
}

type candidateSet struct {
	out  []any
	keys []candidateKey        // of out, in order
	seen map[candidateKey]bool // of out, once it is long
}

type candidateKey struct {
	class byte // as classOf; 0 for another Go type
	text  string
}

// candidateMap is how many candidates a set holds before it looks them up in a map
// rather than scanning them (most sets are a few dozen).
const candidateMap = 64

func (c *candidateSet) add(x any) {
	var k candidateKey
	switch y := x.(type) {
	case nil:
		k = candidateKey{'N', ""}
	case bool:
		k = candidateKey{'b', strconv.FormatBool(y)}
	case string:
		k = candidateKey{'t', y}
	case json.Number:
		k = candidateKey{'n', string(y)}
	default:
		k = candidateKey{0, fmt.Sprintf("%T %v", x, x)}
	}
	switch {
	case c.seen != nil:
		if c.seen[k] {
			return
		}
		c.seen[k] = true
	case slices.Contains(c.keys, k):
		return
	case len(c.keys) == candidateMap:
		c.seen = make(map[candidateKey]bool, 2*candidateMap)
		for _, key := range c.keys {
			c.seen[key] = true
		}
		c.seen[k] = true
	}
	c.keys = append(c.keys, k)
	c.out = append(c.out, x)
}

// domainValues adds the values of the domain, and says whether it admits NULL.
func (a *analysis) domainValues(v string, d Domain, c *candidateSet) bool {
	if d.Union != nil {
		null := false
		for _, u := range d.Union {
			null = a.domainValues(v, u, c) || null
		}
		return null
	}
	if d.Enum != nil {
		null := !d.NotNull
		for _, x := range d.Enum {
			switch x.(type) {
			case nil:
				null = true
			case bool, string, json.Number:
				if fitsType(d.Type, x) {
					c.add(x)
				}
			}
		}
		return null
	}
	switch d.Type {
	case "number", "integer":
		a.numbers(v, d, c)
	case "string":
		a.strings(v, c)
	case "boolean":
		c.add(true)
		c.add(false)
	default:
		// Any JSON value: every type, the kind the expression uses it as first, then
		// NULL (absent), then the other types.
		kinds := []string{"num", "text", "bool"}
		if i := slices.Index(kinds, a.kind[v]); i > 0 {
			kinds[0], kinds[i] = kinds[i], kinds[0]
		}
		for i, k := range kinds {
			switch k {
			case "num":
				a.numbers(v, d, c)
			case "text":
				a.strings(v, c)
			default:
				c.add(true)
				c.add(false)
			}
			if i == 0 && !d.NotNull {
				c.add(nil)
			}
		}
	}
	return !d.NotNull
}

// fitsType says whether an enum value is of the domain's JSON type.
func fitsType(typ string, x any) bool {
	switch typ {
	case "number", "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		r, ok := new(big.Rat).SetString(string(n))
		return ok && (typ == "number" || r.IsInt())
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	}
	return true
}

// numbers adds one number in each region of the numeric constants v is compared with,
// within the domain's bounds: each constant, one either side, midpoints, beyond both
// ends; for integers, the integers around each constant and bound.
func (a *analysis) numbers(v string, d Domain, c *candidateSet) {
	if texts, ok := smallNumbers(a.nums[v], d); ok {
		for _, t := range texts {
			c.add(json.Number(t))
		}
		return
	}
	numbersExact(a.nums[v], d, c)
}

// numbersExact is numbers over exact rationals, for any constants and bounds.
func numbersExact(consts []Decimal, d Domain, c *candidateSet) {
	nums := []Decimal{decimalOf(0)}
	seen := map[string]bool{"0": true}
	for _, n := range consts {
		if k := valueKey(Value{N: n}, Numeric); !seen[k] {
			seen[k] = true
			nums = append(nums, n)
		}
	}
	lo, hasLo := new(big.Rat).SetString(d.Min)
	hasLo = hasLo && d.Min != ""
	hi, hasHi := new(big.Rat).SetString(d.Max)
	hasHi = hasHi && d.Max != ""
	integer := d.Type == "integer"
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
	unit, half := big.NewRat(1, 1), big.NewRat(1, 2)
	for _, n := range nums {
		r := n.rat()
		if integer {
			// floor-1, floor, ceil, ceil+1: the integer at a constant, and the first
			// integers below and above it, whatever lies between constants.
			fl := new(big.Rat).SetInt(floor(r))
			cl := new(big.Rat).SetInt(ceil(r))
			add(new(big.Rat).Sub(fl, unit))
			add(fl)
			add(cl)
			add(new(big.Rat).Add(cl, unit))
			continue
		}
		add(r)
		add(new(big.Rat).Add(r, unit))
		add(new(big.Rat).Sub(r, unit))
		add(new(big.Rat).Add(r, half))
		add(new(big.Rat).Sub(r, half))
	}
	sort.Slice(pts, func(i, j int) bool { return less(pts[i], pts[j]) })
	var uniq []point
	for _, p := range pts {
		if len(uniq) == 0 || uniq[len(uniq)-1].r.Cmp(p.r) != 0 {
			uniq = append(uniq, p)
		}
	}
	if !integer {
		for i, n := 1, len(uniq); i < n; i++ {
			m := new(big.Rat).Add(uniq[i-1].r, uniq[i].r)
			m.Quo(m, big.NewRat(2, 1))
			f, _ := m.Float64()
			uniq = append(uniq, point{m, f})
		}
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
	for _, pt := range ps {
		p := pt.p.r
		if hasLo && p.Cmp(lo) < 0 || hasHi && p.Cmp(hi) > 0 {
			continue
		}
		c.add(json.Number(ratText(p)))
	}
	// A region that holds a bound holds the bound (or, for integers, the first integer
	// inside it): a region only partly in the domain has a candidate too.
	if hasLo {
		if integer {
			lo = new(big.Rat).SetInt(ceil(lo))
		}
		if !hasHi || lo.Cmp(hi) <= 0 {
			c.add(json.Number(ratText(lo)))
		}
	}
	if hasHi {
		if integer {
			hi = new(big.Rat).SetInt(floor(hi))
		}
		if !hasLo || hi.Cmp(lo) >= 0 {
			c.add(json.Number(ratText(hi)))
		}
	}
}

func floor(r *big.Rat) *big.Int {
	// Div rounds toward negative infinity for a positive divisor (Euclidean).
	return new(big.Int).Div(r.Num(), r.Denom())
}

func ceil(r *big.Rat) *big.Int {
	f := floor(r)
	if !r.IsInt() {
		f.Add(f, one)
	}
	return f
}

// strings adds one string in each region of the text constants v is compared with:
// each constant, one in each gap between neighbours, one beyond the greatest, and the
// empty string below them all; and the strings LIKE patterns match.
func (a *analysis) strings(v string, c *candidateSet) {
	c.add("")
	c.add("x")
	for _, s := range a.texts[v] {
		c.add(s)
	}
	for _, s := range a.hints[v] {
		c.add(s)
	}
	sorted := slices.Clone(a.texts[v])
	sorted = append(sorted, "")
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	for i := 0; i+1 < len(sorted); i++ {
		if s, ok := between(sorted[i], sorted[i+1]); ok {
			c.add(s)
		}
	}
	c.add(beyond(sorted[len(sorted)-1]))
	c.add("~") // after letters and digits: beyond most strings, and what upper() makes
}

// between is a string strictly between a and b (a < b, byte order), when one exists.
// Every string after a and before b is a followed by more: a + "a" when b does not
// extend a, else a + u for some u before b's rest, of which "\x01" is the least (text
// holds no NUL), so only b = a + "\x01" leaves the gap empty.
func between(a, b string) (string, bool) {
	for _, u := range []string{"a", "0", " ", "\x01"} {
		if s := a + u; s < b {
			return s, true
		}
	}
	return "", false
}

// beyond is a string after s: its last character's successor when that is printable
// ASCII (y → z), else s + "a".
func beyond(s string) string {
	if n := len(s); n > 0 && s[n-1] >= ' ' && s[n-1] < '~' {
		return s[:n-1] + string(s[n-1]+1)
	}
	return s + "a"
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
