package dws

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// A conditional's branches are tried in order over the phase's stub output. For each
// branch (and the default) dws looks for an output that selects it: its condition holds
// and every earlier one fails. Each field a condition reads takes values from a set
// built from the constants the conditions compare it with (each constant, numbers just
// beside and between them, another string, absent); when every operator compares with
// constants (eq, ne, gt, gte, lt, lte, in, not_in, exists) the set meets every region
// they split the field's values into, so "no output selects it" is a proof. A branch no
// output selects is sim-infeasible-branch and its edge is dead.

type cond struct {
	field, op string
	value     any // the condition's value as JSON data
}

func condOf(n *source.Node) (cond, bool) {
	field, ok1 := n.Get("field").Str()
	op, ok2 := n.Get("operator").Str()
	if !ok1 || !ok2 {
		return cond{}, false
	}
	var v any
	if vn := n.Get("value"); vn != nil {
		v = vn.Value()
	}
	return cond{field: field, op: op, value: v}, true
}

// holds evaluates a condition over an output: the field's value, or absent.
func (c cond) holds(v any, present bool) bool {
	if c.op == "exists" {
		want, _ := c.value.(bool)
		return present == want
	}
	if !present {
		return c.op == "ne" || c.op == "not_in"
	}
	switch c.op {
	case "eq":
		return equal(v, c.value)
	case "ne":
		return !equal(v, c.value)
	case "gt", "gte", "lt", "lte":
		a, ok1 := numRat(v)
		b, ok2 := numRat(c.value)
		if !ok1 || !ok2 {
			return false
		}
		k := a.Cmp(b)
		return c.op == "gt" && k > 0 || c.op == "gte" && k >= 0 || c.op == "lt" && k < 0 || c.op == "lte" && k <= 0
	case "in", "not_in":
		list, _ := c.value.([]any)
		in := slices.ContainsFunc(list, func(x any) bool { return equal(v, x) })
		return in == (c.op == "in")
	case "contains":
		s, ok := v.(string)
		sub, ok2 := c.value.(string)
		return ok && ok2 && strings.Contains(s, sub)
	case "matches":
		s, ok := v.(string)
		pat, ok2 := c.value.(string)
		if !ok || !ok2 {
			return false
		}
		re, err := regexp.Compile(pat)
		return err == nil && re.MatchString(s)
	}
	return false
}

func equal(a, b any) bool {
	if x, ok := numRat(a); ok {
		if y, ok := numRat(b); ok {
			return x.Cmp(y) == 0
		}
	}
	return fmt.Sprint(a) == fmt.Sprint(b) && fmt.Sprintf("%T", a) == fmt.Sprintf("%T", b)
}

func numRat(v any) (*big.Rat, bool) {
	n, ok := v.(fmt.Stringer)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(n.String())
}

type candidate struct {
	v       any
	present bool
}

// candidates are the values a field takes in the search.
func candidates(conds []cond) ([]candidate, bool) {
	exact := true
	out := []candidate{{nil, false}}
	var nums []*big.Rat
	strs := map[string]bool{"other": true}
	bools := false
	for _, c := range conds {
		switch c.op {
		case "contains", "matches":
			exact = false
		}
		vals := []any{c.value}
		if list, ok := c.value.([]any); ok {
			vals = list
		}
		for _, v := range vals {
			switch x := v.(type) {
			case string:
				strs[x] = true
				if c.op == "contains" {
					strs["x"+x+"x"] = true
				}
			case bool:
				bools = true
			default:
				if r, ok := numRat(v); ok {
					nums = append(nums, r)
				}
			}
		}
	}
	if len(nums) > 0 {
		var pts []*big.Rat
		for _, n := range nums {
			pts = append(pts, n, new(big.Rat).Add(n, big.NewRat(1, 1)), new(big.Rat).Sub(n, big.NewRat(1, 1)))
		}
		sort.Slice(pts, func(i, j int) bool { return pts[i].Cmp(pts[j]) < 0 })
		for i, p := range pts {
			if i > 0 && pts[i-1].Cmp(p) == 0 {
				continue
			}
			out = append(out, candidate{numberOf(p), true})
			if i+1 < len(pts) {
				mid := new(big.Rat).Add(p, pts[i+1])
				out = append(out, candidate{numberOf(mid.Quo(mid, big.NewRat(2, 1))), true})
			}
		}
	}
	keys := make([]string, 0, len(strs))
	for s := range strs {
		keys = append(keys, s)
	}
	sort.Strings(keys)
	for _, s := range keys {
		out = append(out, candidate{s, true})
	}
	if bools {
		out = append(out, candidate{true, true}, candidate{false, true})
	}
	return out, exact
}

type jsonNumber string

func (n jsonNumber) String() string { return string(n) }

func numberOf(r *big.Rat) any {
	for s := 0; s <= 20; s++ {
		if new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))).IsInt() {
			return jsonNumber(r.FloatString(s))
		}
	}
	return jsonNumber(r.FloatString(20))
}

// judgeConditionals finds, for each conditional, the branches no output selects.
func judgeConditionals(p *lint.Pass, m *wmachine) {
	for _, t := range m.w.transitions {
		if t.typ != "conditional" {
			continue
		}
		var conds []cond
		var ok = true
		branches := items(t.node.Get("branches"))
		for _, b := range branches {
			c, good := condOf(b.Get("condition"))
			ok = ok && good
			conds = append(conds, c)
		}
		if !ok {
			continue // a malformed condition is the condition rule's; the choice stays free
		}
		outputs, dead, searched := branchOutputs(t, conds)
		if !searched {
			m.unsearched[t] = true
		}
		for j := range conds {
			if _, ok := dead[j]; ok {
				p.Report("sim-infeasible-branch", t.ptr+"/branches/"+itoa(j), fmt.Sprintf(
					"branch %d of the conditional from %s is never taken: earlier branches take every output it would", j+1, quote(t.from)))
			}
		}
		if _, ok := dead[-1]; ok {
			p.Report("sim-infeasible-branch", t.ptr+"/default", fmt.Sprintf(
				"the default of the conditional from %s is never taken: every output meets some branch", quote(t.from)))
		}
		if len(dead) > 0 {
			m.dead[t] = dead
		}
		m.outputs[t] = outputs
	}
}

// maxOutputs bounds the stub outputs tried for one conditional: the combinations of its
// fields' candidate values.
const maxOutputs = 4096

// branchOutputs searches, for each branch of a conditional (and -1 for the default), a
// stub output that selects it. dead lists the ones none selects, with the proof; it is
// empty when the search is not exhaustive (contains, matches) or was not made, and the
// choices stay free. searched is false when the outputs to try are more than
// maxOutputs: then none was tried.
func branchOutputs(t *transition, conds []cond) (outputs map[int]map[string]candidate, dead map[int]string, searched bool) {
	byField := map[string][]cond{}
	var fields []string
	for _, c := range conds {
		if _, seen := byField[c.field]; !seen {
			fields = append(fields, c.field)
		}
		byField[c.field] = append(byField[c.field], c)
	}
	exact := true
	cands := make([][]candidate, len(fields))
	total := 1
	for i, f := range fields {
		var e bool
		cands[i], e = candidates(byField[f])
		exact = exact && e
	}
	outputs = map[int]map[string]candidate{}
	for _, c := range cands {
		if total > maxOutputs {
			break
		}
		total *= len(c)
	}
	if total > maxOutputs {
		return outputs, nil, false
	}
	pick := make([]int, len(fields))
	for {
		out := map[string]candidate{}
		for i, f := range fields {
			out[f] = cands[i][pick[i]]
		}
		chosen := -1
		for j, c := range conds {
			if v := out[c.field]; c.holds(v.v, v.present) {
				chosen = j
				break
			}
		}
		if _, have := outputs[chosen]; !have {
			outputs[chosen] = out
		}
		k := 0
		for ; k < len(pick); k++ {
			if pick[k]++; pick[k] < len(cands[k]) {
				break
			}
			pick[k] = 0
		}
		if k == len(pick) {
			break
		}
	}
	if !exact {
		return outputs, nil, true
	}
	dead = map[int]string{}
	for j := range conds {
		if _, ok := outputs[j]; !ok {
			dead[j] = fmt.Sprintf("no stub output of phase %s meets branch %d's condition and fails every earlier one", quote(t.from), j+1)
		}
	}
	if _, hasDefault := t.node.Get("default").Str(); hasDefault {
		if _, ok := outputs[-1]; !ok {
			dead[-1] = "every stub output meets some branch's condition"
		}
	}
	return outputs, dead, true
}

// stubOutput writes a found output as the phase's stub answer: each field a JSONPath
// such as $.output.score, set in a nested object; a field that is absent is left out.
func stubOutput(out map[string]candidate) map[string]any {
	root := map[string]any{}
	for field, c := range out {
		if !c.present {
			continue
		}
		v := c.v
		if n, ok := v.(jsonNumber); ok {
			v = json.Number(n)
		}
		path := strings.Split(strings.TrimPrefix(strings.TrimPrefix(field, "$"), "."), ".")
		at := root
		for i, key := range path {
			if i == len(path)-1 {
				at[key] = v
				break
			}
			next, ok := at[key].(map[string]any)
			if !ok {
				next = map[string]any{}
				at[key] = next
			}
			at = next
		}
	}
	return root
}
