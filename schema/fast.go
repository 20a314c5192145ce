package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The fast path. A step or transition schema that dispatches on a discriminator with
// allOf: [{if: {properties: {type: {const: "sql"}}, required: [type]}, then: …}, …]
// makes jsonschema v5 evaluate, and fail, every other type's "if" on every step: most
// of the validation time of a valid document. For a schema with such dispatch points,
// the validator keeps a copy of the schema without them, and the "then" schema of each
// case compiled on its own; a document is valid exactly when the copy accepts it and
// every instance the dispatch point applies to is accepted by its own case. Only a
// document that fails is validated again with the full schema, for the failures.
//
// The fast path is built only where that equivalence is plain: the dispatch point is
// reached from the root only through properties, items and local $refs, and the schema
// uses no unevaluatedProperties/unevaluatedItems (which the removed allOf would affect).

// fastValidator validates documents of one dialect without the dispatch allOfs.
type fastValidator struct {
	stripped *jsonschema.Schema
	points   []dispatchPoint
}

// dispatchPoint is one removed allOf: where its instances are, and the case schemas.
type dispatchPoint struct {
	routes [][]string // instance paths; "*" is every array item
	key    string
	cases  map[string]*jsonschema.Schema
}

// valid reports whether v is valid under the full schema.
func (f *fastValidator) valid(v any) bool {
	if f.stripped.Validate(v) != nil {
		return false
	}
	for _, p := range f.points {
		for _, r := range p.routes {
			if !p.validAt(v, r) {
				return false
			}
		}
	}
	return true
}

func (p *dispatchPoint) validAt(v any, route []string) bool {
	if len(route) == 0 {
		obj, ok := v.(map[string]any)
		if !ok {
			return true
		}
		c, ok := obj[p.key].(string)
		if !ok {
			return true // no case's "if" holds
		}
		sch := p.cases[c]
		return sch == nil || sch.Validate(v) == nil
	}
	switch x := v.(type) {
	case map[string]any:
		if route[0] == "*" {
			return true
		}
		child, ok := x[route[0]]
		return !ok || p.validAt(child, route[1:])
	case []any:
		if route[0] != "*" {
			return true
		}
		for _, it := range x {
			if !p.validAt(it, route[1:]) {
				return false
			}
		}
	}
	return true
}

// fastPath is a dialect's fast path, planned and compiled only once it pays: together
// they cost about 10 ms, which one small file (the pre-commit case) never earns back.
type fastPath struct {
	d    *dialect
	seen atomic.Int64 // items of top-level arrays (steps, phases, …) validated so far
	once sync.Once
	fv   *fastValidator // nil when the schema has no fast path, or it failed to build
}

// plan is what planFastPath finds in a schema.
type plan struct {
	points   []plannedPoint
	stripped []byte // the schema without the dispatch allOfs
	fastURL  string
}

type plannedPoint struct {
	routes [][]string
	key    string
	cases  map[string]string // discriminator value -> pointer of its then schema
}

// worthAfter is how many items of top-level arrays (a cheap stand-in for steps and
// transitions) are validated with the full schema before the fast path is built.
const worthAfter = 256

// validator returns the fast path once enough has been validated to pay for it, else nil
// (validate with the full schema). It is safe for concurrent use.
func (fp *fastPath) validator(v any) *fastValidator {
	if fp == nil {
		return nil
	}
	n := 0
	if obj, ok := v.(map[string]any); ok {
		for _, e := range obj {
			if a, ok := e.([]any); ok {
				n += len(a)
			}
		}
	}
	if fp.seen.Add(int64(n)) < worthAfter {
		return nil
	}
	fp.once.Do(func() {
		// A schema without a fast path, or one that fails to build, keeps the full
		// schema: the fast path is an optimisation, never a verdict of its own.
		if p, err := planFastPath(fp.d); err == nil && p != nil {
			fp.fv, _ = p.compile(fp.d)
		}
	})
	return fp.fv
}

func (p *plan) compile(d *dialect) (*fastValidator, error) {
	c := newCompiler()
	if err := c.AddResource(p.fastURL, bytes.NewReader(p.stripped)); err != nil {
		return nil, err
	}
	fv := &fastValidator{}
	var err error
	if fv.stripped, err = c.Compile(p.fastURL); err != nil {
		return nil, fmt.Errorf("schema: compiling the fast %s schema: %w", d.id, err)
	}
	for _, p := range p.points {
		dp := dispatchPoint{routes: p.routes, key: p.key, cases: map[string]*jsonschema.Schema{}}
		for value, thenPtr := range p.cases {
			sch, err := c.Compile(d.url + "#" + thenPtr)
			if err != nil {
				return nil, fmt.Errorf("schema: compiling %s#%s: %w", d.url, thenPtr, err)
			}
			dp.cases[value] = sch
		}
		fv.points = append(fv.points, dp)
	}
	return fv, nil
}

// planFastPath finds a schema's dispatch points, or returns nil when it has none or one
// the fast path cannot prove equivalent. It compiles nothing.
func planFastPath(d *dialect) (*plan, error) {
	var doc map[string]any
	if err := json.Unmarshal(d.src, &doc); err != nil {
		return nil, err
	}
	if strings.Contains(string(d.src), `"unevaluated`) {
		return nil, nil
	}
	refs := map[string][]string{} // target pointer -> pointers of the $refs naming it
	collectRefs(doc, "", refs)
	fp := &plan{}
	var ptrs []string
	findDispatch(doc, "", func(ptr, key string, cases map[string]string) {
		fp.points = append(fp.points, plannedPoint{key: key, cases: cases})
		ptrs = append(ptrs, ptr)
	})
	if len(fp.points) == 0 {
		return nil, nil
	}
	for i, ptr := range ptrs {
		routes, ok := instanceRoutes(ptr, refs, 0)
		if !ok {
			return nil, nil
		}
		fp.points[i].routes = routes
	}
	for _, ptr := range ptrs {
		delete(lookup(doc, ptr).(map[string]any), "allOf")
	}
	// The copy is its own resource, so that it can be compiled beside the original.
	fp.fastURL = strings.TrimSuffix(d.url, urlSuffix) + ".fast" + urlSuffix
	doc["$id"] = fp.fastURL
	var err error
	fp.stripped, err = json.Marshal(doc)
	return fp, err
}

// findDispatch calls fn for every schema object whose allOf is a discriminator dispatch:
// every entry exactly {if: {properties: {K: {const: C}}, required: [K]}, then: …}, one K.
func findDispatch(n any, ptr string, fn func(ptr, key string, cases map[string]string)) {
	switch x := n.(type) {
	case map[string]any:
		if all, ok := x["allOf"].([]any); ok && len(all) > 0 {
			key, cases := "", map[string]string{}
			for i, e := range all {
				k, c, ok := dispatchCase(e)
				if !ok || (key != "" && k != key) || cases[c] != "" {
					key = ""
					break
				}
				key, cases[c] = k, fmt.Sprintf("%s/allOf/%d/then", ptr, i)
			}
			if key != "" {
				fn(ptr, key, cases)
			}
		}
		for k, v := range x {
			findDispatch(v, ptr+"/"+escapeToken(k), fn)
		}
	case []any:
		for i, v := range x {
			findDispatch(v, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	}
}

func dispatchCase(e any) (key, value string, ok bool) {
	m, _ := e.(map[string]any)
	if len(m) != 2 || m["then"] == nil {
		return "", "", false
	}
	cond, _ := m["if"].(map[string]any)
	props, _ := cond["properties"].(map[string]any)
	req, _ := cond["required"].([]any)
	if len(cond) != 2 || len(props) != 1 || len(req) != 1 {
		return "", "", false
	}
	for k, v := range props {
		cv, _ := v.(map[string]any)
		c, isStr := cv["const"].(string)
		if len(cv) != 1 || !isStr || req[0] != k {
			return "", "", false
		}
		return k, c, true
	}
	return "", "", false
}

func collectRefs(n any, ptr string, refs map[string][]string) {
	switch x := n.(type) {
	case map[string]any:
		if r, ok := x["$ref"].(string); ok && strings.HasPrefix(r, "#") {
			refs[r[1:]] = append(refs[r[1:]], ptr)
		}
		for k, v := range x {
			collectRefs(v, ptr+"/"+escapeToken(k), refs)
		}
	case []any:
		for i, v := range x {
			collectRefs(v, fmt.Sprintf("%s/%d", ptr, i), refs)
		}
	}
}

// instanceRoutes returns the instance paths at which the schema at ptr applies, when
// they follow from properties, items and $refs alone.
func instanceRoutes(ptr string, refs map[string][]string, depth int) ([][]string, bool) {
	if depth > 32 {
		return nil, false
	}
	if ptr == "" {
		return [][]string{{}}, true
	}
	segs := strings.Split(ptr[1:], "/")
	n := len(segs)
	var routes [][]string
	switch {
	case n == 2 && (segs[0] == "$defs" || segs[0] == "definitions"):
		for _, from := range refs[ptr] {
			rs, ok := instanceRoutes(from, refs, depth+1)
			if !ok {
				return nil, false
			}
			routes = append(routes, rs...)
		}
		return routes, true
	case n >= 2 && segs[n-2] == "properties":
		parent, ok := instanceRoutes(strings.Join(append([]string{""}, segs[:n-2]...), "/"), refs, depth+1)
		if !ok {
			return nil, false
		}
		for _, r := range parent {
			routes = append(routes, append(append([]string(nil), r...), unescapeToken(segs[n-1])))
		}
		return routes, true
	case n >= 1 && segs[n-1] == "items":
		parent, ok := instanceRoutes(strings.Join(append([]string{""}, segs[:n-1]...), "/"), refs, depth+1)
		if !ok {
			return nil, false
		}
		for _, r := range parent {
			routes = append(routes, append(append([]string(nil), r...), "*"))
		}
		return routes, true
	}
	return nil, false
}

func lookup(doc any, ptr string) any {
	cur := doc
	for _, tok := range strings.Split(ptr, "/")[1:] {
		m, _ := cur.(map[string]any)
		cur = m[unescapeToken(tok)]
	}
	return cur
}

func escapeToken(s string) string { return escapePointer(s) }

func unescapeToken(s string) string { return unescapePointer(s) }
