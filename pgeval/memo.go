package pgeval

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A Searcher runs Witness and ErrorWitness and remembers what they found for the parts
// of expressions, so that a part searched again is not searched again: the answer is
// the one the search gives, the memo only skips the work. One definition repeats
// searches often: a branch's parts are searched for each of its outcomes and again for
// every covering path through it, and identical branches are common.
//
// What is remembered is keyed by what the search's outcome depends on: the expression's
// text and which conjunct of it the part is, the outcome wanted, and, for each of the
// part's variables, its fixed value or its domain and its place in the search's order.
// Keys name variables by parameter, not by name: a path's witness search renames
// variables that an ai step writes on the way (Expr.Renamed) and searches the same parts
// as the branches' own searches did. Only searches of one part are remembered (a group
// of parts that share variables is searched anew).
//
// A Searcher holds at most maxMemo answers (it starts again empty when full), so it may
// serve a whole definition, or many. Its zero value is ready to use; a nil *Searcher
// remembers nothing. It is safe for concurrent use.
type Searcher struct {
	mu    sync.Mutex
	m     map[memoKey]memoResult
	cands map[string]candidateList
}

const maxMemo = 1 << 15

type memoKey struct {
	src  string // the expression's text
	part int    // which conjunct of it (Expr.part)
	kind byte   // 't' a wanted-true search, 'f' a wanted-false one, 'e' ErrorWitness
	vars string // each variable's fixed value or domain, and the search's order
}

type memoResult struct {
	values            map[int]any // the witness's values, by the part's parameter index
	found, exhaustive bool
	err               error // ErrorWitness's
}

func (s *Searcher) get(k memoKey) (memoResult, bool) {
	if s == nil {
		return memoResult{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.m[k]
	return r, ok
}

func (s *Searcher) put(k memoKey, r memoResult) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil || len(s.m) >= maxMemo {
		s.m = map[memoKey]memoResult{}
	}
	s.m[k] = r
}

// partNames are the variables of e's parameters, in parameter order; ok is false when
// two parameters are one variable (a renaming that merged them) or one is no variable
// ($1 written in the expression), which no key covers. Found once per expression.
func partNames(e *Expr) (names []string, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pnames == nil {
		params := e.shape.of(e.root).params
		e.pnames = make([]string, len(params))
		e.pnamesOK = true
		for i, p := range params {
			name, named := e.names[p]
			if !named || slices.Contains(e.pnames[:i], name) {
				e.pnamesOK = false
			}
			e.pnames[i] = name
		}
	}
	return e.pnames, e.pnamesOK
}

// resultOf is what a search over e found, by parameter index.
func resultOf(e *Expr, ctx map[string]any, found, exhaustive bool, err error) memoResult {
	r := memoResult{found: found, exhaustive: exhaustive, err: err}
	if found {
		names, _ := partNames(e)
		r.values = map[int]any{}
		for i, name := range names {
			if x, ok := ctx[name]; ok {
				r.values[i] = x
			}
		}
	}
	return r
}

// context is the remembered witness with e's names; nil when none was found.
func (r memoResult) context(e *Expr) map[string]any {
	if !r.found {
		return nil
	}
	names, _ := partNames(e)
	ctx := make(map[string]any, len(r.values))
	for i, x := range r.values {
		ctx[names[i]] = x
	}
	return ctx
}

// search is g.search, remembered for a group of one part.
func (s *Searcher) search(g *group, fixed map[string]any, domains map[string]Domain) (values map[string]any, found, exhaustive bool) {
	if s == nil || len(g.parts) != 1 {
		return g.search(s, fixed, domains)
	}
	c := g.parts[0]
	e := c.Expr
	names, ok := partNames(e)
	if !ok {
		return g.search(s, fixed, domains)
	}
	var key strings.Builder
	writeVarsKey(&key, names, fixed, domains)
	// The variables' order decides which witness is found first.
	for _, v := range g.vars {
		key.WriteString(strconv.Itoa(slices.Index(names, v)))
		key.WriteByte(',')
	}
	kind := byte('f')
	if c.Want {
		kind = 't'
	}
	k := memoKey{src: e.src, part: e.part, kind: kind, vars: key.String()}
	if r, hit := s.get(k); hit {
		return r.context(e), r.found, r.exhaustive
	}
	values, found, exhaustive = g.search(s, fixed, domains)
	s.put(k, resultOf(e, values, found, exhaustive, nil))
	return values, found, exhaustive
}

// errorKey is the key of ErrorWitness over e and the domains; ok is false when there is
// none.
func (s *Searcher) errorKey(e *Expr, domains map[string]Domain) (memoKey, bool) {
	if s == nil {
		return memoKey{}, false
	}
	names, ok := partNames(e)
	if !ok {
		return memoKey{}, false
	}
	var key strings.Builder
	writeVarsKey(&key, names, nil, domains)
	// The variables' order (by name) decides which error is found first.
	for _, v := range slices.Sorted(slices.Values(names)) {
		key.WriteString(strconv.Itoa(slices.Index(names, v)))
		key.WriteByte(',')
	}
	return memoKey{src: e.src, part: e.part, kind: 'e', vars: key.String()}, true
}

// writeVarsKey writes each variable's fixed value, or else its domain.
func writeVarsKey(b *strings.Builder, names []string, fixed map[string]any, domains map[string]Domain) {
	for _, name := range names {
		if x, ok := fixed[name]; ok {
			b.WriteString("F")
			writeValueKey(b, x)
		} else {
			b.WriteString("D")
			writeDomainKey(b, domains[name])
		}
		b.WriteByte(';')
	}
}

// writeValueKey writes a context value so that two values write the same text exactly
// when they are the same value of the same Go type.
func writeValueKey(b *strings.Builder, x any) {
	switch y := x.(type) {
	case nil:
		b.WriteString("N")
	case bool:
		if y {
			b.WriteString("T")
		} else {
			b.WriteString("F")
		}
	case string:
		writeText(b, 's', y)
	case json.Number:
		writeText(b, 'n', string(y))
	case map[string]any:
		b.WriteString("{")
		for _, k := range slices.Sorted(maps.Keys(y)) {
			writeText(b, 'k', k)
			writeValueKey(b, y[k])
		}
		b.WriteString("}")
	case []any:
		b.WriteString("[")
		for _, z := range y {
			writeValueKey(b, z)
		}
		b.WriteString("]")
	default:
		writeText(b, 'x', fmt.Sprintf("%T(%#v)", x, x))
	}
}

// writeText writes a tagged string, its length first: no text is a prefix of another's.
func writeText(b *strings.Builder, tag byte, s string) {
	var n [20]byte
	b.WriteByte(tag)
	b.Write(strconv.AppendInt(n[:0], int64(len(s)), 10))
	b.WriteByte(':')
	b.WriteString(s)
}

func writeDomainKey(b *strings.Builder, d Domain) {
	b.WriteString("{")
	writeText(b, 't', d.Type)
	writeText(b, 'l', d.Min)
	writeText(b, 'h', d.Max)
	if d.NotNull {
		b.WriteString("!")
	}
	if d.Enum != nil {
		b.WriteString("[")
		for _, x := range d.Enum {
			writeValueKey(b, x)
		}
		b.WriteString("]")
	}
	if d.Union != nil {
		b.WriteString("(")
		for _, u := range d.Union {
			writeDomainKey(b, u)
		}
		b.WriteString(")")
	}
	b.WriteString("}")
}

// candidateList is a variable's candidates (analysis.candidates) and their SQL values.
type candidateList struct {
	xs   []any
	vals []Value
	bad  bool // some candidate has no SQL value (contextValue fails)
}

// candidates are a.candidates(v, d) with their SQL values, remembered by what they are
// made from: the kind the expression uses v as, the constants v is compared with and
// the strings LIKE patterns give it (in order), and its domain. A definition's branches
// compare their variables with few distinct constants.
func (s *Searcher) candidates(a *analysis, v string, d Domain) candidateList {
	var key strings.Builder
	if s != nil {
		key.WriteString(a.kind[v])
		key.WriteByte('|')
		var buf [24]byte
		for _, n := range a.nums[v] {
			if n.Unscaled.IsInt64() {
				key.Write(strconv.AppendInt(buf[:0], n.Unscaled.Int64(), 10))
			} else {
				key.WriteString(n.Unscaled.String())
			}
			key.WriteByte('e')
			key.Write(strconv.AppendInt(buf[:0], int64(n.Scale), 10))
			key.WriteByte(',')
		}
		key.WriteByte('|')
		for _, t := range a.texts[v] {
			writeText(&key, 's', t)
		}
		key.WriteByte('|')
		for _, t := range a.hints[v] {
			writeText(&key, 'h', t)
		}
		key.WriteByte('|')
		writeDomainKey(&key, d)
		s.mu.Lock()
		l, ok := s.cands[key.String()]
		s.mu.Unlock()
		if ok {
			return l
		}
	}
	l := candidateList{xs: a.candidates(v, d)}
	l.vals = make([]Value, len(l.xs))
	for i, x := range l.xs {
		val, err := contextValue(x)
		if err != nil {
			l.bad = true
		}
		l.vals[i] = val
	}
	if s != nil {
		s.mu.Lock()
		if s.cands == nil || len(s.cands) >= maxMemo {
			s.cands = map[string]candidateList{}
		}
		s.cands[key.String()] = l
		s.mu.Unlock()
	}
	return l
}
