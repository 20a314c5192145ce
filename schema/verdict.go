package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/dwsdev/dws/source"
)

// A verdict says whether a document is valid, and nothing else. It is compiled
// straight from a schema's text into Go closures over the parsed document
// (source.Node), so that a valid document (almost every document a CI run sees)
// costs a walk of it and no more: no value tree, no compiled jsonschema.Schema, no
// error values built and dropped, no metaschemas.
// jsonschema v5 stays the judge: a document the verdict does not accept is
// validated by it, which explains every failure (and decides, should the two ever
// disagree). TestVerdictAgrees holds them together.
//
// It knows the keywords of draft 2020-12 that dws's schemas use, with jsonschema
// v5's meaning (its regexp, its formats, its number and equality rules). A schema
// with any other keyword, a $ref outside the document or through a nested $id, a
// bound beyond 2^53, or a $ref loop that reads nothing of the document gets no
// verdict; jsonschema then validates everything, as before. The verdict does not check
// a schema against its metaschema: TestVerdictAgrees compiles every embedded schema
// with jsonschema, which does.
type verdict func(n *source.Node) bool

const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// annotations are keywords that never change a verdict.
var annotations = map[string]bool{
	"$schema": true, "$defs": true, "definitions": true, "$comment": true,
	"title": true, "description": true, "examples": true, "default": true,
	"deprecated": true, "readOnly": true, "writeOnly": true,
}

// verdictCompiler compiles one document's schemas; refs are compiled once, through
// a slot that recursion can point at before the closure exists.
type verdictCompiler struct {
	root  any
	slots map[string]*verdict
	// active are the $refs being compiled that the current schema applies in place
	// of (no property or item between).
	active map[string]bool
}

// compileVerdict compiles the schema text src, whose $id must be url.
func compileVerdict(src []byte, url string) (verdict, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, err
	}
	m, ok := root.(map[string]any)
	if !ok || m["$id"] != url {
		return nil, fmt.Errorf("the $id is not %s", url)
	}
	if d, ok := m["$schema"]; ok && d != draft2020 {
		return nil, fmt.Errorf("$schema %v is not draft 2020-12", d)
	}
	c := &verdictCompiler{root: root, slots: map[string]*verdict{}, active: map[string]bool{}}
	slot, err := c.ref("#")
	if err != nil {
		return nil, err
	}
	return *slot, nil
}

// ref returns the slot of the schema at a "#…" reference, compiling it once.
func (c *verdictCompiler) ref(ref string) (*verdict, error) {
	if slot, ok := c.slots[ref]; ok && !c.active[ref] {
		return slot, nil
	}
	ptr, ok := strings.CutPrefix(ref, "#")
	if !ok || ptr != "" && !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("$ref %q is not a pointer into the document", ref)
	}
	target := c.root
	if ptr != "" {
		for i, tok := range strings.Split(ptr[1:], "/") {
			m, ok := target.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("$ref %q does not resolve", ref)
			}
			if _, ok := m["$id"]; ok && i > 0 {
				// jsonschema resolves the rest against that $id: not followed here.
				return nil, fmt.Errorf("$ref %q passes a nested $id", ref)
			}
			// jsonschema's reading of a token: ~1, ~0, then percent-decoding.
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			tok, err := url.PathUnescape(tok)
			if err != nil {
				return nil, fmt.Errorf("$ref %q: %w", ref, err)
			}
			if target, ok = m[tok]; !ok {
				return nil, fmt.Errorf("$ref %q does not resolve", ref)
			}
		}
	}
	if c.active[ref] {
		// A loop of $refs and in-place keywords that reads nothing of the document:
		// jsonschema refuses such a schema.
		return nil, fmt.Errorf("$ref %q loops without descending into the document", ref)
	}
	if slot, ok := c.slots[ref]; ok {
		return slot, nil // being compiled, below a keyword that descends into the document
	}
	slot := new(verdict)
	c.slots[ref] = slot
	c.active[ref] = true
	f, err := c.compile(target, ptr == "")
	delete(c.active, ref)
	if err != nil {
		return nil, err
	}
	*slot = f
	return slot, nil
}

// descend compiles a subschema that applies to a part of the document (a property,
// an item): a $ref loop through it reads ever deeper, and ends with the document.
func (c *verdictCompiler) descend(s any) (verdict, error) {
	saved := c.active
	c.active = map[string]bool{}
	defer func() { c.active = saved }()
	return c.sub(s)
}

// sub compiles a subschema that a keyword holds.
func (c *verdictCompiler) sub(s any) (verdict, error) { return c.compile(s, false) }

// compile turns one schema into a verdict: the checks of its keywords, all of which
// must hold.
func (c *verdictCompiler) compile(s any, root bool) (verdict, error) {
	switch x := s.(type) {
	case bool:
		return func(*source.Node) bool { return x }, nil
	case map[string]any:
		var checks []verdict
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		// The type is checked first: it is the cheapest and it fails most.
		if t, ok := x["type"]; ok {
			f, err := typeCheck(t)
			if err != nil {
				return nil, err
			}
			checks = append(checks, f)
		}
		for _, k := range keys {
			if k == "type" || annotations[k] || k == "$id" && root {
				continue
			}
			f, err := c.keyword(x, k)
			if err != nil {
				return nil, err
			}
			if f != nil {
				checks = append(checks, f)
			}
		}
		switch len(checks) {
		case 0:
			return func(*source.Node) bool { return true }, nil
		case 1:
			return checks[0], nil
		}
		return func(n *source.Node) bool {
			for _, f := range checks {
				if !f(n) {
					return false
				}
			}
			return true
		}, nil
	}
	return nil, fmt.Errorf("a schema must be an object or a boolean, not %T", s)
}

// keyword compiles one keyword of schema x; nil means it checks nothing alone (then,
// else, and the properties additionalProperties reads).
func (c *verdictCompiler) keyword(x map[string]any, k string) (verdict, error) {
	val := x[k]
	switch k {
	case "$ref":
		ref, ok := val.(string)
		if !ok {
			return nil, fmt.Errorf("$ref is not a string")
		}
		slot, err := c.ref(ref)
		if err != nil {
			return nil, err
		}
		return func(n *source.Node) bool { return (*slot)(n) }, nil
	case "const":
		return func(n *source.Node) bool { return nodeEqual(n, val) }, nil
	case "enum":
		return enumCheck(val)
	case "format":
		name, _ := val.(string)
		f := jsonschema.Formats[name]
		if f == nil {
			return nil, nil // jsonschema asserts only the formats it knows
		}
		return func(n *source.Node) bool {
			if kind(n) == source.String {
				return f(n.Text)
			}
			return f(n.Value())
		}, nil
	case "properties", "patternProperties", "additionalProperties":
		if k != "properties" && x["properties"] != nil || k == "additionalProperties" && x["patternProperties"] != nil {
			return nil, nil // compiled with properties (or patternProperties)
		}
		return c.object(x)
	case "required":
		names, err := stringsOf(val)
		if err != nil {
			return nil, err
		}
		return func(n *source.Node) bool {
			if kind(n) != source.Object {
				return true
			}
			for _, name := range names {
				if n.Member(name) == nil {
					return false
				}
			}
			return true
		}, nil
	case "minProperties", "maxProperties":
		n, err := intOf(val)
		if err != nil {
			return nil, err
		}
		isMin := k == "minProperties"
		return func(x *source.Node) bool {
			return kind(x) != source.Object || (isMin && len(x.Members) >= n) || (!isMin && len(x.Members) <= n)
		}, nil
	case "minItems", "maxItems":
		n, err := intOf(val)
		if err != nil {
			return nil, err
		}
		isMin := k == "minItems"
		return func(x *source.Node) bool {
			return kind(x) != source.Array || (isMin && len(x.Items) >= n) || (!isMin && len(x.Items) <= n)
		}, nil
	case "items", "prefixItems":
		if k == "items" && x["prefixItems"] != nil {
			return nil, nil // compiled with prefixItems
		}
		return c.array(x)
	case "minLength", "maxLength":
		n, err := intOf(val)
		if err != nil {
			return nil, err
		}
		isMin := k == "minLength"
		return func(x *source.Node) bool {
			if kind(x) != source.String {
				return true
			}
			s := x.Text
			if isMin && len(s)/4 >= n || !isMin && len(s) <= n {
				return true // decided by the byte length alone
			}
			l := utf8.RuneCountInString(s)
			return isMin && l >= n || !isMin && l <= n
		}, nil
	case "pattern":
		p, ok := val.(string)
		if !ok {
			return nil, fmt.Errorf("pattern is not a string")
		}
		match, err := compilePattern(p)
		if err != nil {
			return nil, err
		}
		return func(n *source.Node) bool {
			return kind(n) != source.String || match(n.Text)
		}, nil
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		return boundCheck(k, val)
	case "not":
		f, err := c.sub(val)
		if err != nil {
			return nil, err
		}
		return func(n *source.Node) bool { return !f(n) }, nil
	case "allOf", "anyOf", "oneOf":
		return c.combine(k, val)
	case "if":
		cond, err := c.sub(val)
		if err != nil {
			return nil, err
		}
		then, els := verdict(nil), verdict(nil)
		if t, ok := x["then"]; ok {
			if then, err = c.sub(t); err != nil {
				return nil, err
			}
		}
		if e, ok := x["else"]; ok {
			if els, err = c.sub(e); err != nil {
				return nil, err
			}
		}
		return func(n *source.Node) bool {
			if cond(n) {
				return then == nil || then(n)
			}
			return els == nil || els(n)
		}, nil
	case "then", "else":
		return nil, nil // only with if, which compiles them
	}
	return nil, fmt.Errorf("keyword %q has no verdict", k)
}

func (c *verdictCompiler) object(x map[string]any) (verdict, error) {
	props := map[string]verdict{}
	if ps, ok := x["properties"]; ok {
		m, ok := ps.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("properties is not an object")
		}
		for name, s := range m {
			f, err := c.descend(s)
			if err != nil {
				return nil, err
			}
			props[name] = f
		}
	}
	type pattern struct {
		re *regexp.Regexp
		f  verdict
	}
	var patterns []pattern
	if ps, ok := x["patternProperties"]; ok {
		m, ok := ps.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("patternProperties is not an object")
		}
		for p, s := range m {
			re, err := regexp.Compile(p)
			if err != nil {
				return nil, err
			}
			f, err := c.descend(s)
			if err != nil {
				return nil, err
			}
			patterns = append(patterns, pattern{re, f})
		}
	}
	var additional verdict
	if a, ok := x["additionalProperties"]; ok {
		var err error
		if additional, err = c.descend(a); err != nil {
			return nil, err
		}
	}
	// Every member is judged by its property's schema, the patterns it matches,
	// and additionalProperties when it has neither (keys are unique in a parsed
	// document, so each is seen once).
	// A schema names a handful of properties: finding a key among them by length
	// and bytes costs less than hashing it.
	names := slices.Sorted(maps.Keys(props))
	checks := make([]verdict, len(names))
	for i, name := range names {
		checks[i] = props[name]
	}
	small := len(names) <= 8
	return func(n *source.Node) bool {
		if kind(n) != source.Object {
			return true
		}
		for _, m := range n.Members {
			var f verdict
			known := false
			if small {
				for i, name := range names {
					if name == m.Key {
						f, known = checks[i], true
						break
					}
				}
			} else {
				f, known = props[m.Key]
			}
			if known && !f(m.Value) {
				return false
			}
			for _, p := range patterns {
				if p.re.MatchString(m.Key) {
					known = true
					if !p.f(m.Value) {
						return false
					}
				}
			}
			if !known && additional != nil && !additional(m.Value) {
				return false
			}
		}
		return true
	}, nil
}

func (c *verdictCompiler) array(x map[string]any) (verdict, error) {
	var prefix []verdict
	if ps, ok := x["prefixItems"]; ok {
		list, ok := ps.([]any)
		if !ok {
			return nil, fmt.Errorf("prefixItems is not an array")
		}
		for _, s := range list {
			f, err := c.descend(s)
			if err != nil {
				return nil, err
			}
			prefix = append(prefix, f)
		}
	}
	var items verdict
	if s, ok := x["items"]; ok {
		var err error
		if items, err = c.descend(s); err != nil {
			return nil, err
		}
	}
	return func(n *source.Node) bool {
		if kind(n) != source.Array {
			return true
		}
		for i, e := range n.Items {
			switch {
			case i < len(prefix):
				if !prefix[i](e) {
					return false
				}
			case items != nil:
				if !items(e) {
					return false
				}
			default:
				return true
			}
		}
		return true
	}, nil
}

func (c *verdictCompiler) combine(k string, val any) (verdict, error) {
	list, ok := val.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("%s is not a non-empty array", k)
	}
	if k == "allOf" {
		if d, ok, err := c.dispatch(list); ok || err != nil {
			return d, err
		}
	}
	fs := make([]verdict, len(list))
	for i, s := range list {
		var err error
		if fs[i], err = c.sub(s); err != nil {
			return nil, err
		}
	}
	switch k {
	case "allOf":
		return func(n *source.Node) bool {
			for _, f := range fs {
				if !f(n) {
					return false
				}
			}
			return true
		}, nil
	case "anyOf":
		return func(n *source.Node) bool {
			for _, f := range fs {
				if f(n) {
					return true
				}
			}
			return false
		}, nil
	}
	return func(n *source.Node) bool {
		valid := 0
		for _, f := range fs {
			if f(n) {
				if valid++; valid > 1 {
					return false
				}
			}
		}
		return valid == 1
	}, nil
}

// dispatch compiles an allOf whose branches (two or more) say "if property P is the
// string v, then …" for one P and distinct values, as a step's type picks its params:
// at most one of those ifs holds for an object, so a lookup of P's value finds the one
// then to check. For anything but an object every such if holds (properties and
// required say nothing of it), so every then is checked. Other branches are checked
// as usual. ok is false when the allOf does not have that shape.
func (c *verdictCompiler) dispatch(list []any) (d verdict, ok bool, err error) {
	prop, n := "", 0
	seen := map[string]bool{}
	for _, s := range list {
		p, v, _, ok := ifConst(s)
		if !ok || prop != "" && p != prop {
			continue
		}
		if seen[v] {
			return nil, false, nil
		}
		seen[v] = true
		prop = p
		n++
	}
	if n < 2 {
		return nil, false, nil
	}
	byValue := map[string]verdict{}
	var thens, rest []verdict
	for _, s := range list {
		if p, v, then, ok := ifConst(s); ok && p == prop {
			f, err := c.sub(then)
			if err != nil {
				return nil, false, err
			}
			byValue[v] = f
			thens = append(thens, f)
			continue
		}
		f, err := c.sub(s)
		if err != nil {
			return nil, false, err
		}
		rest = append(rest, f)
	}
	return func(n *source.Node) bool {
		if kind(n) != source.Object {
			for _, f := range thens {
				if !f(n) {
					return false
				}
			}
		} else if m := n.Member(prop); m != nil && m.Value != nil && m.Value.Kind == source.String {
			if f, ok := byValue[m.Value.Text]; ok && !f(n) {
				return false
			}
		}
		for _, f := range rest {
			if !f(n) {
				return false
			}
		}
		return true
	}, true, nil
}

// ifConst reads a schema that is exactly {"if": {"properties": {P: {"const": v}},
// "required": [P]}, "then": T} with v a string.
func ifConst(s any) (prop, value string, then any, ok bool) {
	x, _ := s.(map[string]any)
	cond, _ := x["if"].(map[string]any)
	then, hasThen := x["then"]
	if len(x) != 2 || !hasThen || len(cond) != 2 {
		return "", "", nil, false
	}
	props, _ := cond["properties"].(map[string]any)
	req, _ := cond["required"].([]any)
	if len(props) != 1 || len(req) != 1 {
		return "", "", nil, false
	}
	for p, ps := range props {
		c, _ := ps.(map[string]any)
		v, isString := c["const"].(string)
		if len(c) != 1 || !isString || req[0] != p {
			return "", "", nil, false
		}
		return p, v, then, true
	}
	return "", "", nil, false
}

// JSON types as bits, so that a type list is one mask.
const (
	tNull = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var typeBits = map[string]int{"null": tNull, "boolean": tBoolean, "number": tNumber, "integer": tInteger,
	"string": tString, "array": tArray, "object": tObject}

func typeCheck(t any) (verdict, error) {
	names := []string{}
	switch x := t.(type) {
	case string:
		names = append(names, x)
	default:
		var err error
		if names, err = stringsOf(t); err != nil {
			return nil, err
		}
	}
	mask := 0
	for _, n := range names {
		b, ok := typeBits[n]
		if !ok {
			return nil, fmt.Errorf("unknown type %q", n)
		}
		mask |= b
	}
	return func(n *source.Node) bool {
		switch kind(n) {
		case source.Null:
			return mask&tNull != 0
		case source.Bool:
			return mask&tBoolean != 0
		case source.String:
			return mask&tString != 0
		case source.Array:
			return mask&tArray != 0
		case source.Object:
			return mask&tObject != 0
		case source.Number:
			return mask&tNumber != 0 || mask&tInteger != 0 && isInteger(json.Number(n.Text))
		}
		return false
	}, nil
}

// isInteger is jsonschema's rule: a number whose value is whole (1.0 and 1e2 are).
func isInteger(n json.Number) bool {
	if plainInt(string(n)) {
		return true
	}
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt()
}

// plainInt reports whether s is digits with an optional minus sign.
func plainInt(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func enumCheck(val any) (verdict, error) {
	list, ok := val.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("enum is not a non-empty array")
	}
	strs := map[string]bool{}
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			strs = nil
			break
		}
		strs[s] = true
	}
	if strs != nil {
		return func(n *source.Node) bool {
			return kind(n) == source.String && strs[n.Text]
		}, nil
	}
	return func(n *source.Node) bool {
		for _, e := range list {
			if nodeEqual(n, e) {
				return true
			}
		}
		return false
	}, nil
}

// kind is n's JSON type; a missing node is null, as its value is.
func kind(n *source.Node) source.Kind {
	if n == nil {
		return source.Null
	}
	return n.Kind
}

// nodeEqual is jsonschema's equality of the document's n and a schema's value b:
// numbers by value, objects and arrays deeply, values of different JSON types never.
func nodeEqual(n *source.Node, b any) bool {
	switch y := b.(type) {
	case nil:
		return kind(n) == source.Null
	case bool:
		return kind(n) == source.Bool && n.Bool == y
	case string:
		return kind(n) == source.String && n.Text == y
	case json.Number:
		if kind(n) != source.Number {
			return false
		}
		if n.Text == string(y) {
			return true
		}
		rx, okx := new(big.Rat).SetString(n.Text)
		ry, oky := new(big.Rat).SetString(string(y))
		return okx && oky && rx.Cmp(ry) == 0
	case []any:
		if kind(n) != source.Array || len(n.Items) != len(y) {
			return false
		}
		for i := range y {
			if !nodeEqual(n.Items[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		if kind(n) != source.Object || len(n.Members) != len(y) {
			return false
		}
		for _, m := range n.Members {
			e, ok := y[m.Key]
			if !ok || !nodeEqual(m.Value, e) {
				return false
			}
		}
		return true
	}
	return false
}

func boundCheck(k string, val any) (verdict, error) {
	n, ok := val.(json.Number)
	if !ok {
		return nil, fmt.Errorf("%s is not a number", k)
	}
	bound, ok := new(big.Rat).SetString(string(n))
	if !ok {
		return nil, fmt.Errorf("%s is not a number", k)
	}
	// ok reports whether a comparison of a number with the bound passes.
	var pass func(cmp int) bool
	switch k {
	case "minimum":
		pass = func(cmp int) bool { return cmp >= 0 }
	case "maximum":
		pass = func(cmp int) bool { return cmp <= 0 }
	case "exclusiveMinimum":
		pass = func(cmp int) bool { return cmp > 0 }
	default:
		pass = func(cmp int) bool { return cmp < 0 }
	}
	small, isSmall := int64(0), bound.IsInt() && bound.Num().IsInt64()
	if isSmall {
		small = bound.Num().Int64()
	}
	return func(n *source.Node) bool {
		if kind(n) != source.Number {
			return true // a non-number passes
		}
		if isSmall && plainInt(n.Text) {
			if i, err := strconv.ParseInt(n.Text, 10, 64); err == nil {
				return pass(cmpInt(i, small))
			}
		}
		r, ok := new(big.Rat).SetString(n.Text)
		return ok && pass(r.Cmp(bound))
	}, nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func stringsOf(val any) ([]string, error) {
	list, ok := val.([]any)
	if !ok {
		return nil, fmt.Errorf("not an array of strings")
	}
	out := make([]string, 0, len(list))
	for _, e := range list {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("not an array of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

func intOf(val any) (int, error) {
	n, ok := val.(json.Number)
	if !ok {
		return 0, fmt.Errorf("not an integer")
	}
	i, err := strconv.Atoi(string(n))
	if err != nil || i < 0 || i > 1<<53 {
		// jsonschema reads a bound through a double: beyond 2^53 it is not this one.
		return 0, fmt.Errorf("not a non-negative integer up to 2^53")
	}
	return i, nil
}
