package pgeval

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sort"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Condition is one branch outcome a context must produce: Want true means the
// expression is true; false means it is false, NULL or raises an error (all of which
// send a branch along its false route).
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

// Domain restricts the values a variable may take (an ai step's output schema): a JSON
// type ("number", "integer", "string", "boolean"; "" for any), bounds and an enum. The
// zero Domain is every JSON value: a number, a string, a boolean, NULL or absent.
type Domain struct {
	Type     string
	Min, Max string // JSON number literals, "" when unbounded
	Enum     []any
	NotNull  bool // the value is always present and not null
	// Union, when set, is a domain made of these (two schemas writing one property):
	// a value of any of them. The other fields are then unused.
	Union []Domain
}

// Admits says whether x (a JSON value as a context holds it; nil for null or absent) is
// one of the domain's values.
func (d Domain) Admits(x any) bool {
	if d.Union != nil {
		return slices.ContainsFunc(d.Union, func(u Domain) bool { return u.Admits(x) })
	}
	if x == nil {
		return !d.NotNull || slices.Contains(d.Enum, nil)
	}
	if d.Enum != nil {
		same := func(e any) bool {
			if a, ok := e.(json.Number); ok {
				b, isNum := x.(json.Number)
				ra, okA := new(big.Rat).SetString(string(a))
				rb, okB := new(big.Rat).SetString(string(b))
				return isNum && okA && okB && ra.Cmp(rb) == 0
			}
			return classOf(e) == classOf(x) && fmt.Sprint(e) == fmt.Sprint(x)
		}
		if !slices.ContainsFunc(d.Enum, same) {
			return false
		}
	}
	if d.Type == "" {
		return classOf(x) != 0
	}
	if !fitsType(d.Type, x) {
		return false
	}
	if n, ok := x.(json.Number); ok {
		r, _ := new(big.Rat).SetString(string(n))
		if lo, ok := new(big.Rat).SetString(d.Min); ok && d.Min != "" && r.Cmp(lo) < 0 {
			return false
		}
		if hi, ok := new(big.Rat).SetString(d.Max); ok && d.Max != "" && r.Cmp(hi) > 0 {
			return false
		}
	}
	return true
}

// MaxCandidates bounds the contexts ErrorWitness tries.
const MaxCandidates = 4096

// MaxWork bounds one search of Witness over a group of variables: the contexts it
// tries times the size of what each evaluates (its parse-tree nodes, a list of constants
// counting as one: it is looked up, not scanned). A search that would need more tries
// as many as the bound allows, and its "none found" is no proof.
const MaxWork = MaxCandidates * 64

// MaxProofWork bounds a search over one variable whose atoms all compare it with
// constants: its candidates are the regions its constants make (linear in them), and
// trying each is a proof (SPEC §8.4), so it may take more work than MaxWork allows a
// search that can only find.
const MaxProofWork = MaxWork * 256

// Witness looks for a context, extending fixed, under which every condition holds.
// Each variable takes values from a candidate set built from the constants the
// expressions compare it with (see regions.go): one value in each region those constants
// split each JSON type into, restricted to its domain, and NULL.
//
// The conditions are split into independent parts first: each condition, and each
// argument of a wanted-true AND (true exactly when every argument is); parts that share
// a variable form a group, and each group is searched on its own, over the combinations
// of its own variables' candidates only. A group whose every atom compares one variable
// with constants, searched exhaustively, has tried every region of every type of its
// variables, and a group with no variable left (all fixed, or none) is evaluated once,
// exactly: "none found" in such a group is a proof (proven) that no context satisfies
// the conditions. So is a group that no combination of its variables' types can satisfy,
// outcome by outcome (abstract.go: {{x}} / 0 > 1 is never true). So x IN (…2500
// constants…) AND x NOT IN (…) is one variable's regions, a few thousand tries, never the
// product of unrelated variables'.
//
// A Searcher remembers the searches of single parts (see Searcher); a nil one
// remembers nothing between calls.
func (s *Searcher) Witness(conds []Condition, fixed map[string]any, domains map[string]Domain) (ctx map[string]any, found, proven bool) {
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
		values, ok, exhaustive := s.search(g, fixed, domains)
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
func (g *group) search(s *Searcher, fixed map[string]any, domains map[string]Domain) (values map[string]any, found, exhaustive bool) {
	a := newAnalysis()
	cost := 0
	for _, c := range g.parts {
		a.add(c.Expr)
		cost += c.Expr.treeSize(c.Expr.root)
	}
	if !a.simple {
		a.widen(g.vars, domains)
	}
	limit := max(MaxWork/max(cost, 1), 1)
	cands := make([][]any, len(g.vars))
	vals := make([][]Value, len(g.vars))
	slow := false
	total := 1
	for i, v := range g.vars {
		l := s.candidates(a, v, domains[v])
		cands[i], vals[i], slow = l.xs, l.vals, slow || l.bad
		total *= len(cands[i])
		if total > limit {
			total = limit + 1
		}
	}
	if total == 0 {
		return nil, false, false // a domain with no value: no context, and no proof
	}
	if a.simple && len(g.vars) == 1 && total > limit && len(cands[0])*max(cost, 1) <= MaxProofWork {
		limit, total = len(cands[0]), len(cands[0])
	}
	exhaustive = total <= limit && (a.simple || len(g.vars) == 0)
	b := newBinder(g.vars, cands, vals, slow, fixed)
	defer b.release()
	pick := make([]int, len(g.vars))
	for n := 0; n < limit; n++ {
		ok, unsure := b.holds(g.parts, pick)
		if ok {
			values = map[string]any{}
			for i, v := range g.vars {
				if x := cands[i][pick[i]]; x != nil {
					values[v] = x
				}
			}
			return values, true, false
		}
		if unsure {
			// The evaluator cannot tell what this context gives: no proof from here.
			exhaustive = false
		}
		if !next(pick, cands) {
			break // every combination tried
		}
	}
	if !exhaustive {
		exhaustive = g.impossible(fixed, domains)
	}
	return nil, false, exhaustive
}

// binder evaluates expressions over combinations of candidates, each converted to its
// SQL value once (the search evaluates thousands of combinations). It holds the
// programs it evaluates with (one per expression and signature of types) until release.
type binder struct {
	vars  []string
	cands [][]any
	vals  [][]Value
	fixed map[string]any
	fvals map[string]Value
	slow  bool // a fixed value has no SQL value: evaluate contexts as Eval does
	buf   []Value
	bound map[*Expr]*boundExpr
}

// boundExpr is where each of an expression's variables takes its value in a binder, and
// the programs the binder holds for it.
type boundExpr struct {
	idx   []int   // per variable (Expr.vars): its index among the binder's, or -1
	fixed []Value // per variable: its value when idx is -1 (fixed, or absent)
	progs []heldProgram
}

// heldProgram is a program a binder holds, by its variables' types (typeCode, 4 bits
// each) and the signature it was taken under.
type heldProgram struct {
	types     uint64
	signature string
	p         *program
}

// newBinder binds the variables to their candidates, vals being their SQL values (as
// contextValue gives them; slow when one has none).
func newBinder(vars []string, cands [][]any, vals [][]Value, slow bool, fixed map[string]any) *binder {
	b := &binder{vars: vars, cands: cands, vals: vals, slow: slow, fixed: fixed, fvals: map[string]Value{}, bound: map[*Expr]*boundExpr{}}
	for k, x := range fixed {
		v, err := contextValue(x)
		if err != nil {
			b.slow = true
		}
		b.fvals[k] = v
	}
	return b
}

// release hands the programs the binder holds back to their expressions.
func (b *binder) release() {
	for e, be := range b.bound {
		for _, h := range be.progs {
			e.putProgram(h.signature, h.p)
		}
	}
	b.bound = nil
}

// context is the combination as a context.
func (b *binder) context(pick []int) map[string]any {
	ctx := map[string]any{}
	for k, x := range b.fixed {
		ctx[k] = x
	}
	for i, v := range b.vars {
		if x := b.cands[i][pick[i]]; x != nil {
			ctx[v] = x
		} else {
			delete(ctx, v)
		}
	}
	return ctx
}

func (b *binder) bind(e *Expr) *boundExpr {
	if be := b.bound[e]; be != nil {
		return be
	}
	be := &boundExpr{idx: make([]int, len(e.vars)), fixed: make([]Value, len(e.vars))}
	for k, name := range e.vars {
		be.idx[k] = slices.Index(b.vars, name)
		v, ok := b.fvals[name]
		if !ok {
			v = Value{Type: Unknown, Null: true} // neither chosen nor fixed: absent
		}
		be.fixed[k] = v
	}
	if b.bound != nil {
		b.bound[e] = be
	}
	return be
}

// eval evaluates e at the combination.
func (b *binder) eval(e *Expr, pick []int) (Value, error) {
	if b.slow {
		return e.Eval(b.context(pick))
	}
	be := b.bind(e)
	b.buf = b.buf[:0]
	var sig uint64 // each variable's type, 4 bits (typeCode)
	for k, i := range be.idx {
		v := be.fixed[k]
		if i >= 0 {
			v = b.vals[i][pick[i]]
		}
		b.buf = append(b.buf, v)
		sig = sig<<4 | typeCode(v)
	}
	if len(be.idx) > 16 || b.bound == nil {
		return e.evalValues(b.buf)
	}
	var p *program
	for _, h := range be.progs {
		if h.types == sig {
			p = h.p
			break
		}
	}
	if p == nil {
		var signature string
		p, signature = e.program(b.buf)
		be.progs = append(be.progs, heldProgram{sig, signature, p})
	}
	if p.err != nil {
		return Value{}, p.err
	}
	copy(p.slots, b.buf)
	return p.root.eval()
}

// typeCode is what Eval's signature tells of a value, in 4 bits: NULL, or its type.
func typeCode(v Value) uint64 {
	if v.Null {
		return 15
	}
	return uint64(v.Type)
}

// holds says whether the combination satisfies every part; unsure when an evaluation on
// the way met a construct the evaluator does not support.
func (b *binder) holds(parts []Condition, pick []int) (ok, unsure bool) {
	for _, c := range parts {
		v, err := b.eval(c.Expr, pick)
		var u *Unsupported
		if err != nil && asUnsupported(err, &u) {
			return false, true
		}
		if truth := err == nil && !v.Null && v.Type == Bool && v.B; truth != c.Want {
			return false, false
		}
	}
	return true, false
}

// evalValues is Eval over the values of the expression's variables (in Variables'
// order) as SQL values, through the same compiled programs.
func (e *Expr) evalValues(vals []Value) (Value, error) {
	p, signature := e.program(vals)
	defer e.putProgram(signature, p)
	if p.err != nil {
		return Value{}, p.err
	}
	copy(p.slots, vals)
	return p.root.eval()
}

// program is a program for the signature of vals (the values of e's variables), idle or
// newly compiled, and the signature; the caller hands it back with putProgram.
func (e *Expr) program(vals []Value) (*program, string) {
	var buf [16]byte
	key := buf[:0]
	for _, v := range vals {
		if v.Null {
			key = append(key, 'N')
		} else {
			key = append(key, byte('a'+v.Type))
		}
	}
	signature := string(key)
	p := e.takeProgram(signature)
	if p == nil {
		ctx := map[string]any{}
		for i, name := range e.vars {
			if x := jsonOf(vals[i]); x != nil {
				ctx[name] = x
			}
		}
		p = &program{slots: make([]Value, len(e.vars))}
		c := &compiler{e: e, ctx: ctx, slots: p.slots}
		p.root, p.err = c.top()
	}
	return p, signature
}

// jsonOf is the context value whose SQL value v is (v is one: a number, a string, a
// boolean or NULL).
func jsonOf(v Value) any {
	switch {
	case v.Null:
		return nil
	case v.Type == Bool:
		return v.B
	case v.Type == Text:
		return v.S
	}
	return json.Number(v.N.String())
}

// MaxSignatures bounds the combinations of JSON types impossible tries.
const MaxSignatures = 1024

// impossible says whether no combination of the group's variables' types can satisfy
// every part (abstract.go): for each, some part compiles to an error that it does not
// want, or cannot give the outcome it wants.
func (g *group) impossible(fixed map[string]any, domains map[string]Domain) bool {
	classes := make([][]byte, len(g.vars))
	total := 1
	for i, v := range g.vars {
		classes[i] = typeClasses(domains[v])
		if total *= len(classes[i]); total > MaxSignatures || total == 0 {
			return false
		}
	}
	class := map[string]byte{}
	ctx := map[string]any{}
	for k, v := range fixed {
		ctx[k] = v
		class[k] = classOf(v)
	}
	pick := make([]int, len(g.vars))
	for {
		for i, v := range g.vars {
			class[v] = classes[i][pick[i]]
			if x := representative(class[v]); x != nil {
				ctx[v] = x
			} else {
				delete(ctx, v)
			}
		}
		possible := true
		for _, c := range g.parts {
			o, ok := outcomes(c.Expr, ctx, class)
			if !ok {
				return false
			}
			if c.Want && o&oTrue == 0 || !c.Want && o&^oTrue == 0 {
				possible = false
				break
			}
		}
		if possible {
			return false
		}
		if !nextClass(pick, classes) {
			return true
		}
	}
}

// outcomes is what e may give for the contexts of ctx's types (ctx holds one value of
// each); ok is false when the evaluator does not support it.
func outcomes(e *Expr, ctx map[string]any, class map[string]byte) (outcome, bool) {
	c := &compiler{e: e, ctx: ctx}
	if _, err := c.top(); err != nil {
		var u *Unsupported
		if asUnsupported(err, &u) {
			return 0, false
		}
		return oError, true // an error for every context of these types
	}
	return (&abstract{e: e, class: class}).eval(e.root).o, true
}

// typeClasses are the JSON types a domain admits: 'n' number, 't' text, 'b' boolean,
// 'N' NULL (absent).
func typeClasses(d Domain) []byte {
	if d.Union != nil {
		var out []byte
		for _, u := range d.Union {
			for _, c := range typeClasses(u) {
				if !slices.Contains(out, c) {
					out = append(out, c)
				}
			}
		}
		return out
	}
	var out []byte
	if d.Enum != nil {
		for _, x := range d.Enum {
			if c := classOf(x); c != 0 && !slices.Contains(out, c) && (x == nil || fitsType(d.Type, x)) {
				out = append(out, c)
			}
		}
	} else {
		switch d.Type {
		case "number", "integer":
			out = []byte{'n'}
		case "string":
			out = []byte{'t'}
		case "boolean":
			out = []byte{'b'}
		default:
			out = []byte{'n', 't', 'b'}
		}
	}
	if !d.NotNull && !slices.Contains(out, 'N') {
		out = append(out, 'N')
	}
	return out
}

func classOf(x any) byte {
	switch x.(type) {
	case nil:
		return 'N'
	case bool:
		return 'b'
	case string:
		return 't'
	case json.Number, float64, int, int64:
		return 'n'
	}
	return 0
}

func representative(class byte) any {
	switch class {
	case 'n':
		return json.Number("0")
	case 't':
		return ""
	case 'b':
		return false
	}
	return nil
}

func nextClass(pick []int, classes [][]byte) bool {
	for k := range pick {
		if pick[k]++; pick[k] < len(classes[k]) {
			return true
		}
		pick[k] = 0
	}
	return false
}

// children are the nodes directly below n, whatever its type, in the order its type
// declares its fields. (protoreflect's Range visits fields in an order that changes from
// one build to the next, on purpose: what the search tries first must not.)
func children(n *pg.Node) []*pg.Node {
	var out []*pg.Node
	var visit func(m protoreflect.Message)
	visit = func(m protoreflect.Message) {
		fds := m.Descriptor().Fields()
		for i := 0; i < fds.Len(); i++ {
			fd := fds.Get(i)
			if fd.Message() == nil || fd.IsMap() || !m.Has(fd) {
				continue
			}
			if fd.IsList() {
				l := m.Get(fd).List()
				for j := 0; j < l.Len(); j++ {
					collect(l.Get(j).Message(), &out, visit)
				}
				continue
			}
			collect(m.Get(fd).Message(), &out, visit)
		}
	}
	// n is a oneof wrapper: its one field is the node itself.
	m := n.ProtoReflect()
	if fd := m.WhichOneof(m.Descriptor().Oneofs().Get(0)); fd != nil {
		visit(m.Get(fd).Message())
	}
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
// error (division by zero, a value that does not convert), and returns the error. Only
// well-typed contexts count: ones whose types the expression compiles with. A value of
// a type the expression cannot take at all (a string compared with a number) raises an
// error too, for every value of that type; that is no finding of its own.
//
// A Searcher remembers it by the expression's text and its variables' domains (see
// Searcher); a nil one remembers nothing between calls.
func (s *Searcher) ErrorWitness(e *Expr, domains map[string]Domain) (ctx map[string]any, err error, found bool) {
	k, ok := s.errorKey(e, domains)
	if ok {
		if r, hit := s.get(k); hit {
			return r.context(e), r.err, r.found
		}
	}
	ctx, err, found = s.errorWitness(e, domains)
	if ok {
		s.put(k, resultOf(e, ctx, found, false, err))
	}
	return ctx, err, found
}

func (s *Searcher) errorWitness(e *Expr, domains map[string]Domain) (ctx map[string]any, err error, found bool) {
	a := newAnalysis()
	a.add(e)
	vars := append([]string(nil), e.vars...)
	sort.Strings(vars)
	if a.simple && !constantFails(e, e.root) {
		// Comparisons of a variable with constants raise no error of their own: only a
		// constant that fails can, and there is none.
		return nil, nil, false
	}
	if !a.simple {
		a.widen(vars, domains)
	}
	// Each variable's candidates by type; the types' combinations (signatures) that
	// compile are searched, in the candidates' order, within MaxCandidates in all.
	byClass := make([]map[byte]*candidateList, len(vars))
	classes := make([][]byte, len(vars))
	slow := false
	for i, v := range vars {
		byClass[i] = map[byte]*candidateList{}
		l := s.candidates(a, v, domains[v])
		slow = slow || l.bad
		for j, x := range l.xs {
			c := classOf(x)
			if byClass[i][c] == nil {
				classes[i] = append(classes[i], c)
				byClass[i][c] = &candidateList{}
			}
			byClass[i][c].xs = append(byClass[i][c].xs, x)
			byClass[i][c].vals = append(byClass[i][c].vals, l.vals[j])
		}
	}
	for i := range vars {
		if len(classes[i]) == 0 {
			return nil, nil, false // a domain with no value
		}
	}
	budget := MaxCandidates
	sig := make([]int, len(vars))
	cands := make([][]any, len(vars))
	vals := make([][]Value, len(vars))
	for budget > 0 {
		ctx := map[string]any{}
		for i, v := range vars {
			l := byClass[i][classes[i][sig[i]]]
			cands[i], vals[i] = l.xs, l.vals
			if x := cands[i][0]; x != nil {
				ctx[v] = x
			}
		}
		if _, cerr := (&compiler{e: e, ctx: ctx}).top(); cerr == nil {
			b := newBinder(vars, cands, vals, slow, nil)
			pick := make([]int, len(vars))
			for ; budget > 0; budget-- {
				var se *SQLError
				if _, err := b.eval(e, pick); err != nil && asSQLError(err, &se) {
					b.release()
					return b.context(pick), se, true
				}
				if !next(pick, cands) {
					break
				}
			}
			b.release()
		}
		if !nextClass(sig, classes) {
			break
		}
	}
	return nil, nil, false
}

// constantFails says whether a variable-free part of n raises an error.
func constantFails(e *Expr, n *pg.Node) bool {
	if n == nil {
		return false
	}
	if !e.hasParam(n) {
		if n.GetString_() != nil {
			return false // an operator's or a type's name: no value, nothing to raise
		}
		if n.GetList() != nil {
			for _, it := range n.GetList().Items {
				if constantFails(e, it) {
					return true
				}
			}
			return false
		}
		node, err := (&compiler{e: e}).compile(n)
		if err == nil {
			_, err = node.eval()
		}
		var u *Unsupported
		return err != nil && !asUnsupported(err, &u)
	}
	for _, c := range e.children(n) {
		if constantFails(e, c) {
			return true
		}
	}
	return false
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
