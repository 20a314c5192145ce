package pgeval

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The proof differential (SPEC §8.4, "A proof is a promise"): every proof Witness makes
// on generated one- and two-variable conditions ("no context makes this true", "no
// context makes it false", "no context satisfies these conditions together") is held to
// a real PostgreSQL search of a dense grid of contexts, and every witness it finds is
// checked by the server too. One counterexample fails the suite.
//
// The grid is built here, independently of the search's own candidates: for each
// variable every JSON type (numbers, strings, true, false, and NULL, which is also what
// an absent variable is), with numbers at every constant the case uses (and every bound
// of its domain), a thousandth either side, the integers around it (its floor and
// ceiling and one beyond each) and ±1000; strings at every constant, extended by the
// least character and by "~", cut, with the last character moved up, and just below it,
// the empty string, strings beyond every constant, and strings numeric input reads in
// other ways (NaN, Infinity, " 1", 1e3); restricted to the variable's domain when the
// case gives one (an ai step's output schema). The shapes stress the ways proofs went
// wrong: cast literals ('100'::numeric), strings between and beyond the constants,
// values of another JSON type than the comparison suggests, integer domains between
// non-integer constants, unions of domains, variable-free and always-failing
// expressions.

// proofCase is one generated case: its expressions, the constants they use (for the
// grid) and the domains of its variables.
type proofCase struct {
	exprs   []*Expr
	vars    []string
	nums    []string // numeric constants, as decimal text
	strs    []string // text constants
	domains map[string]Domain
}

type proofGen struct {
	r          *rand.Rand
	c          *proofCase
	nums, strs []string // the current case's constants to draw from
}

func (g *proofGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

// The constants a case draws from: numbers that fall between integers and beside
// each other, and strings with gaps between and beyond them.
var (
	proofNums = []string{"-1", "0", "1", "2", "5", "10", "100", "0.5", "1.5", "10.3", "11.9", "2.25", "-0.5", "7"}
	proofStrs = []string{"", "a", "b", "c", "y", "ba", "abc", "abd", "B", "10", "5", "1.5", "true", "t", "é", "a b", "z"}
)

// num writes a numeric constant in one of the forms PostgreSQL types differently:
// a literal, a cast literal, an unknown-typed string.
func (g *proofGen) num() string {
	n := g.pick(g.caseNums()...)
	g.c.nums = append(g.c.nums, n)
	integer := !strings.Contains(n, ".")
	switch g.r.IntN(9) {
	case 0:
		return "'" + n + "'::numeric"
	case 1:
		if integer {
			return "'" + n + "'::int"
		}
		return "'" + n + "'::numeric"
	case 2:
		g.c.strs = append(g.c.strs, n)
		return "'" + n + "'" // unknown: takes the other side's type
	case 3:
		if n == "0" {
			return "'-0'::numeric"
		}
		if integer {
			return "'" + n + "'::bigint"
		}
		return n + "0" // the same value with another scale
	case 4:
		return n + "::numeric"
	}
	if strings.HasPrefix(n, "-") {
		return "(" + n + ")"
	}
	return n
}

// str writes a text constant, untyped or cast to text.
func (g *proofGen) str() string {
	s := g.pick(g.caseStrs()...)
	g.c.strs = append(g.c.strs, s)
	if d, ok := ParseDecimal(s); ok && s != "" {
		g.c.nums = append(g.c.nums, d.String())
	}
	lit := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if g.r.IntN(4) == 0 {
		return lit + "::text"
	}
	return lit
}

// caseNums and caseStrs are the few constants of the current case, so that its atoms
// compare a variable with neighbouring values.
func (g *proofGen) caseNums() []string { return g.nums }
func (g *proofGen) caseStrs() []string { return g.strs }

// subset is n distinct members of pool.
func (g *proofGen) subset(pool []string, n int) []string {
	var s []string
	for _, i := range g.r.Perm(len(pool))[:n] {
		s = append(s, pool[i])
	}
	return s
}

// konst is any constant: mostly numbers and strings, sometimes a boolean or NULL.
func (g *proofGen) konst() string {
	switch g.r.IntN(12) {
	case 0:
		return g.pick("true", "false", "'t'", "NULL")
	case 1, 2, 3, 4:
		return g.str()
	}
	return g.num()
}

// atom is one comparison of variable v (or of no variable at all).
func (g *proofGen) atom(v string) string {
	x := "{{" + v + "}}"
	switch g.r.IntN(22) {
	case 0, 1, 2, 3:
		return x + " " + g.pick("=", "<>", "<", "<=", ">", ">=") + " " + g.konst()
	case 4:
		return g.konst() + " " + g.pick("<", ">=", "=") + " " + x
	case 5, 6:
		return x + " " + g.pick(">", ">=") + " " + g.str() + " AND " + x + " " + g.pick("<", "<=") + " " + g.str()
	case 7:
		return x + " " + g.pick(">", ">=") + " " + g.num() + " AND " + x + " " + g.pick("<", "<=") + " " + g.num()
	case 8:
		// Items of one type: a list of mixed types is the evaluator's own matter
		// (the differential test's), not the search's.
		if g.r.IntN(2) == 0 {
			return x + g.pick(" IN ", " NOT IN ") + "(" + g.num() + ", " + g.num() + ")"
		}
		return x + g.pick(" IN ", " NOT IN ") + "(" + g.str() + ", " + g.str() + ")"
	case 9:
		return x + g.pick(" ", " NOT ") + "BETWEEN " + g.pick("", "SYMMETRIC ") + g.konst() + " AND " + g.konst()
	case 10:
		return x + " IS " + g.pick("", "NOT ") + "NULL"
	case 11:
		return x + " IS " + g.pick("", "NOT ") + "DISTINCT FROM " + g.konst()
	case 12:
		return "(" + x + " " + g.pick("=", "<", ">") + " " + g.konst() + ") IS " + g.pick("", "NOT ") + g.pick("TRUE", "FALSE", "UNKNOWN", "NULL")
	case 13:
		return x + g.pick("", " IS TRUE", " IS NOT FALSE", " = true")
	case 14:
		// Errors or NULL for every context: the true edge is dead.
		return g.pick(x, x+"::numeric", x+"::int") + g.pick(" / 0 > ", " % 0 = ", " / 0 <= ") + g.num()
	case 15:
		// Complements whose union misses only another type, an error or NULL.
		k := g.konst()
		return "(" + x + " > " + k + " OR " + x + " <= " + k + g.pick("", " OR "+x+" IS NULL") + ")"
	case 16:
		return x + g.pick("::numeric", "::int", "::text") + " " + g.pick("<", "=", ">") + " " + g.konst()
	case 17:
		return g.pick("lower", "length", "abs", "upper") + "(" + x + ") " + g.pick("=", ">") + " " + g.konst()
	case 18:
		return x + g.pick(" LIKE ", " NOT LIKE ") + g.pick("'a%'", "'_'", "'%b'", "'1%'")
	case 19:
		return "(" + x + " " + g.pick("+", "*", "-") + " " + g.num() + ") " + g.pick("<", ">", "=") + " " + g.num()
	case 20:
		return "COALESCE(" + x + ", " + g.konst() + ") " + g.pick("=", "<", ">") + " " + g.konst()
	}
	// Variable-free: evaluated once, exactly.
	return g.pick("1 = 1", "1 = 2", "'a' < 'b'", "NULL IS NULL", "NULL = 1", "1 / 0 = 1", g.konst()+" "+g.pick("=", "<")+" "+g.konst())
}

// expr combines atoms over the variables with AND, OR and NOT.
func (g *proofGen) expr(vars []string, depth int) string {
	if depth == 0 || g.r.IntN(3) == 0 {
		if len(vars) == 2 && g.r.IntN(8) == 0 {
			return "{{" + vars[0] + "}} " + g.pick("=", "<", ">=") + " {{" + vars[1] + "}}"
		}
		return g.atom(vars[g.r.IntN(len(vars))])
	}
	if g.r.IntN(5) == 0 {
		return "NOT (" + g.expr(vars, depth-1) + ")"
	}
	return "(" + g.expr(vars, depth-1) + ") " + g.pick("AND", "OR") + " (" + g.expr(vars, depth-1) + ")"
}

// domain is an output schema's constraint on a variable: integers between non-integer
// bounds, a range, an enum, one type, a union of two schemas.
func (g *proofGen) domain() Domain {
	switch g.r.IntN(9) {
	case 0:
		return Domain{Type: "integer", NotNull: true}
	case 1:
		return Domain{Type: "integer", Min: "0.5", Max: "20", NotNull: g.r.IntN(2) == 0}
	case 2:
		return Domain{Type: "number", Min: "0", Max: "1", NotNull: true}
	case 3:
		return Domain{Type: "number", Min: "10.3", Max: "11.9", NotNull: true}
	case 4:
		return Domain{Type: "string", Enum: []any{"a", "b"}, NotNull: true}
	case 5:
		return Domain{Type: "boolean", NotNull: g.r.IntN(2) == 0}
	case 6:
		return Domain{Type: "string", NotNull: true}
	case 7:
		return Domain{Type: "integer", Min: "10.3", Max: "11.9", NotNull: true}
	}
	return Domain{Union: []Domain{{Type: "integer", Min: "0", Max: "5", NotNull: true}, {Type: "string", Enum: []any{"x", "10"}, NotNull: true}}}
}

func (g *proofGen) newCase() *proofCase {
	g.c = &proofCase{domains: map[string]Domain{}}
	g.nums, g.strs = g.subset(proofNums, 3), g.subset(proofStrs, 3)
	g.c.vars = []string{"x"}
	if g.r.IntN(2) == 0 {
		g.c.vars = []string{"x", "y"}
	}
	for _, v := range g.c.vars {
		if g.r.IntN(4) == 0 {
			g.c.domains[v] = g.domain()
			if d := g.c.domains[v]; d.Type == "integer" || d.Union != nil {
				// Integers between non-integer constants.
				g.nums = g.subset([]string{"0.5", "1.5", "10.3", "11.9", "2.25", "-0.5", "10.9"}, 3)
			}
		}
	}
	for range 1 + g.r.IntN(2) {
		g.c.exprs = append(g.c.exprs, mustParseProof(g.expr(g.c.vars, 2)))
	}
	return g.c
}

func mustParseProof(s string) *Expr {
	e, err := Parse(s)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", s, err))
	}
	return e
}

// gridValues are the values variable v takes in the check: every JSON type, dense
// around the case's constants, restricted to its domain.
func gridValues(c *proofCase, v string) []any {
	d, hasDomain := c.domains[v]
	var rats []*big.Rat
	add := func(r *big.Rat, delta ...int64) {
		for _, k := range delta {
			rats = append(rats, new(big.Rat).Add(r, big.NewRat(k, 1000)))
		}
	}
	nums := append([]string{"0"}, c.nums...)
	for _, u := range append([]Domain{d}, d.Union...) {
		nums = append(nums, u.Min, u.Max)
	}
	for _, n := range nums {
		r, ok := new(big.Rat).SetString(n)
		if !ok || n == "" {
			continue
		}
		// The constant, a thousandth either side, and the integers around it.
		add(r, 0, -1, 1)
		fl := new(big.Rat).SetInt(new(big.Int).Div(r.Num(), r.Denom())) // Div floors
		add(fl, 0, -1000, 1000, 2000)
	}
	rats = append(rats, big.NewRat(-1000, 1), big.NewRat(1000, 1))
	sort.Slice(rats, func(i, j int) bool { return rats[i].Cmp(rats[j]) < 0 })
	rats = slices.CompactFunc(rats, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	var out []any
	for _, r := range rats {
		out = append(out, json.Number(r.FloatString(decimalsOf(r))))
	}
	// Each string constant, just above it (extended by the least character and by a
	// high one), its prefix, just below it, and the next string not extending it;
	// the empty string and strings beyond every constant.
	strs := []string{"", "~~", "é", "NaN", "Infinity", " 1", "1e3"}
	for _, s := range c.strs {
		strs = append(strs, s, s+"\x01", s+"~")
		if rs := []rune(s); len(rs) > 0 {
			head, last := string(rs[:len(rs)-1]), rs[len(rs)-1]
			strs = append(strs, head, head+string(last+1))
			if last > 0x21 {
				strs = append(strs, head+string(last-1)+"~")
			}
		}
	}
	slices.Sort(strs)
	for _, s := range slices.Compact(strs) {
		out = append(out, s)
	}
	out = append(out, true, false, nil)
	if !hasDomain {
		return out
	}
	var in []any
	for _, x := range out {
		if inDomain(d, x) {
			in = append(in, x)
		}
	}
	for _, u := range append([]Domain{d}, d.Union...) {
		for _, x := range u.Enum {
			if !slices.Contains(in, x) && inDomain(d, x) {
				in = append(in, x)
			}
		}
	}
	return in
}

// decimalsOf is how many digits after the point write r exactly (r is a decimal).
func decimalsOf(r *big.Rat) int {
	for p := 0; p < 40; p++ {
		if back, _ := new(big.Rat).SetString(r.FloatString(p)); back.Cmp(r) == 0 {
			return p
		}
	}
	return 40
}

// inDomain says whether a value can be a variable's under the domain: the test's own
// reading of Domain, the one the search must honour.
func inDomain(d Domain, x any) bool {
	if d.Union != nil {
		return slices.ContainsFunc(d.Union, func(u Domain) bool { return inDomain(u, x) })
	}
	if x == nil {
		return !d.NotNull || slices.Contains(d.Enum, nil)
	}
	if d.Enum != nil {
		return slices.ContainsFunc(d.Enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(x) && sameKind(e, x) }) && inDomain(Domain{Type: d.Type}, x)
	}
	switch d.Type {
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "number", "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		r, _ := new(big.Rat).SetString(string(n))
		if d.Type == "integer" && !r.IsInt() {
			return false
		}
		if lo, ok := new(big.Rat).SetString(d.Min); ok && d.Min != "" && r.Cmp(lo) < 0 {
			return false
		}
		if hi, ok := new(big.Rat).SetString(d.Max); ok && d.Max != "" && r.Cmp(hi) > 0 {
			return false
		}
	}
	return true
}

func sameKind(a, b any) bool { return fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b) }

// proofQuery is one evaluation the server does: an expression over a context.
type proofQuery struct {
	expr string
	ctx  map[string]any
}

func (q proofQuery) key() string {
	b, _ := json.Marshal(q.ctx)
	return q.expr + "\x00" + string(b)
}

// evalBatch evaluates an array of expressions in one statement, each as ev() does;
// when one of them raises an error, each on its own.
const evalBatch = `
CREATE OR REPLACE FUNCTION ev_batch(es text[]) RETURNS TABLE(k bigint, x text) LANGUAGE plpgsql AS $fn$
DECLARE r text[]; q text;
BEGIN
  SELECT 'SELECT ARRAY[' || string_agg('coalesce(''V:'' || (' || e || E'\n)::text, ''N'')', ', ' ORDER BY i) || ']::text[]'
    INTO q FROM unnest(es) WITH ORDINALITY AS u(e, i);
  BEGIN
    EXECUTE q INTO r;
  EXCEPTION WHEN others THEN
    r := ARRAY(SELECT ev(e) FROM unnest(es) WITH ORDINALITY AS u(e, i) ORDER BY i);
  END;
  RETURN QUERY SELECT u.i, u.x FROM unnest(r) WITH ORDINALITY AS u(x, i);
END
$fn$;
`

// serverOutcomes evaluates the queries in PostgreSQL and returns whether each makes
// its expression true (a branch's true edge), by key. Evaluations of one expression
// over contexts of one signature go together in a statement (ev_batch), as they
// mostly fail, or not, together.
func serverOutcomes(t *testing.T, qs map[string]proofQuery) map[string]bool {
	out := map[string]bool{}
	for k, r := range serverResults(t, qs) {
		out[k] = r == "V:true"
	}
	return out
}

// serverResults are ev()'s answers: "V:value", "N" or "E:SQLSTATE", by key.
func serverResults(t *testing.T, qs map[string]proofQuery) map[string]string {
	c := server.Get(t)
	if _, stderr, err := c.Psql("dws", evalBatch); err != nil || len(stderr) > 0 {
		t.Fatalf("creating ev_batch(): %v %s", err, stderr)
	}
	signature := func(q proofQuery) string {
		var b strings.Builder
		for _, v := range slices.Sorted(maps.Keys(q.ctx)) {
			fmt.Fprintf(&b, "%s:%T,", v, q.ctx[v])
		}
		return q.expr + "\x00" + b.String()
	}
	keys := slices.Sorted(maps.Keys(qs))
	sort.SliceStable(keys, func(i, j int) bool { return signature(qs[keys[i]]) < signature(qs[keys[j]]) })
	var chunks [][]string
	for i, k := range keys {
		if i == 0 || len(chunks[len(chunks)-1]) == 64 || signature(qs[k]) != signature(qs[keys[i-1]]) {
			chunks = append(chunks, nil)
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], k)
	}
	out := make(map[string]string, len(keys))
	const perQuery = 400
	for start := 0; start < len(chunks); start += perQuery {
		part := chunks[start:min(start+perQuery, len(chunks))]
		var q strings.Builder
		q.WriteString("SELECT j || '|' || b.k || '|' || b.x FROM (VALUES ")
		for j, chunk := range part {
			if j > 0 {
				q.WriteString(",\n")
			}
			fmt.Fprintf(&q, "(%d, ARRAY[", j)
			for i, k := range chunk {
				if i > 0 {
					q.WriteString(", ")
				}
				fmt.Fprintf(&q, "'%s'", strings.ReplaceAll(inline(qs[k].expr, qs[k].ctx), "'", "''"))
			}
			q.WriteString("])")
		}
		q.WriteString(") v(j, a), LATERAL ev_batch(a) AS b;\n")
		res, stderr, err := c.Psql("dws", q.String())
		if err != nil || len(stderr) > 0 {
			t.Fatalf("psql: %v %s", err, stderr)
		}
		lines := strings.Split(strings.TrimRight(string(res), "\n"), "\n")
		answered := 0
		for _, line := range lines {
			f := strings.SplitN(line, "|", 3)
			if len(f) != 3 {
				t.Fatalf("answer %q", line)
			}
			j, err1 := strconv.Atoi(f[0])
			k, err2 := strconv.Atoi(f[1])
			if err1 != nil || err2 != nil || j >= len(part) || k < 1 || k > len(part[j]) {
				t.Fatalf("answer %q", line)
			}
			out[part[j][k-1]] = f[2]
			answered++
		}
		if want := len(slices.Concat(part...)); answered != want {
			t.Fatalf("%d answers for %d evaluations", answered, want)
		}
	}
	return out
}

// contexts are every combination of the variables' grid values (nil: absent).
func proofContexts(c *proofCase, vars []string) []map[string]any {
	out := []map[string]any{{}}
	for _, v := range vars {
		var next []map[string]any
		for _, x := range gridValues(c, v) {
			for _, ctx := range out {
				n := map[string]any{}
				for k, y := range ctx {
					n[k] = y
				}
				if x != nil {
					n[v] = x
				}
				next = append(next, n)
			}
		}
		out = next
	}
	return out
}

func TestProofsHoldInPostgreSQL(t *testing.T) {
	g := &proofGen{r: rand.New(rand.NewPCG(28, 4))}
	type claim struct {
		c     *proofCase
		conds []Condition
		vars  []string
		ctx   map[string]any // the witness, when one was found
	}
	var proofs, witnesses []claim
	searches := 0
	for range 1000 {
		c := g.newCase()
		var sets [][]Condition
		for _, e := range c.exprs {
			sets = append(sets, []Condition{{e, true}}, []Condition{{e, false}})
		}
		if len(c.exprs) == 2 {
			sets = append(sets, []Condition{{c.exprs[0], g.r.IntN(2) == 0}, {c.exprs[1], g.r.IntN(2) == 0}})
		}
		for _, conds := range sets {
			searches++
			var vars []string
			for _, cd := range conds {
				for _, v := range cd.Expr.Variables() {
					if !slices.Contains(vars, v) {
						vars = append(vars, v)
					}
				}
			}
			slices.Sort(vars)
			ctx, found, proven := Witness(conds, nil, c.domains)
			switch {
			case proven:
				proofs = append(proofs, claim{c: c, conds: conds, vars: vars})
			case found:
				witnesses = append(witnesses, claim{c: c, conds: conds, vars: vars, ctx: ctx})
			}
		}
	}
	qs := map[string]proofQuery{}
	points := 0
	for _, p := range proofs {
		for _, ctx := range proofContexts(p.c, p.vars) {
			points++
			for _, cd := range p.conds {
				q := proofQuery{cd.Expr.Source(), ctx}
				qs[q.key()] = q
			}
		}
	}
	for _, w := range witnesses {
		for _, cd := range w.conds {
			q := proofQuery{cd.Expr.Source(), w.ctx}
			qs[q.key()] = q
		}
	}
	truth := serverOutcomes(t, qs)
	holds := func(conds []Condition, ctx map[string]any) bool {
		for _, cd := range conds {
			if truth[proofQuery{cd.Expr.Source(), ctx}.key()] != cd.Want {
				return false
			}
		}
		return true
	}
	describe := func(conds []Condition) string {
		var s []string
		for _, cd := range conds {
			s = append(s, fmt.Sprintf("%q is %v", cd.Expr.Source(), cd.Want))
		}
		return strings.Join(s, " and ")
	}
	counter := 0
	for _, p := range proofs {
		for _, ctx := range proofContexts(p.c, p.vars) {
			if holds(p.conds, ctx) {
				counter++
				if counter <= 20 {
					b, _ := json.Marshal(ctx)
					t.Errorf("proven that no context makes %s (domains %v), but PostgreSQL says %s does", describe(p.conds), p.c.domains, b)
				}
				break
			}
		}
	}
	wrong := 0
	for _, w := range witnesses {
		outside := ""
		for v, x := range w.ctx {
			if d, ok := w.c.domains[v]; ok && !inDomain(d, x) {
				outside = v
			}
		}
		if !holds(w.conds, w.ctx) || outside != "" {
			wrong++
			if wrong <= 20 {
				b, _ := json.Marshal(w.ctx)
				t.Errorf("the witness %s of %s (domains %v) does not hold in PostgreSQL or leaves a domain (%s)", b, describe(w.conds), w.c.domains, outside)
			}
		}
	}
	t.Logf("%d searches: %d proofs checked on %d grid points (%d server evaluations), %d counterexamples; %d witnesses checked, %d wrong",
		searches, len(proofs), points, len(qs), counter, len(witnesses), wrong)
	if len(proofs) < 300 {
		t.Errorf("only %d proofs among the generated conditions: the generator must make the search prove things", len(proofs))
	}
}
