package schema

import (
	"encoding/json"
	"fmt"
	"strings"

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

// newFastValidator builds the fast path for a schema, or returns nil when the schema has
// no dispatch point or one the fast path cannot prove equivalent.
func newFastValidator(d *dialect) (*fastValidator, error) {
	var doc map[string]any
	if err := json.Unmarshal(d.src, &doc); err != nil {
		return nil, err
	}
	if strings.Contains(string(d.src), `"unevaluated`) {
		return nil, nil
	}
	refs := map[string][]string{} // target pointer -> pointers of the $refs naming it
	collectRefs(doc, "", refs)
	type found struct {
		ptr, key string
		cases    map[string]string // const -> pointer of its then
	}
	var points []found
	findDispatch(doc, "", func(ptr, key string, cases map[string]string) {
		points = append(points, found{ptr, key, cases})
	})
	if len(points) == 0 {
		return nil, nil
	}
	fv := &fastValidator{}
	for _, p := range points {
		routes, ok := instanceRoutes(p.ptr, refs, 0)
		if !ok {
			return nil, nil
		}
		dp := dispatchPoint{routes: routes, key: p.key, cases: map[string]*jsonschema.Schema{}}
		for c, thenPtr := range p.cases {
			sch, err := newCompiler().Compile(d.url + "#" + thenPtr)
			if err != nil {
				return nil, fmt.Errorf("schema: compiling %s#%s: %w", d.url, thenPtr, err)
			}
			dp.cases[c] = sch
		}
		fv.points = append(fv.points, dp)
		obj := lookup(doc, p.ptr).(map[string]any)
		delete(obj, "allOf")
	}
	// The copy is its own resource, so that it can be compiled beside the original.
	fastURL := strings.TrimSuffix(d.url, urlSuffix) + ".fast" + urlSuffix
	doc["$id"] = fastURL
	src, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	c := newCompiler()
	if err := c.AddResource(fastURL, strings.NewReader(string(src))); err != nil {
		return nil, err
	}
	if fv.stripped, err = c.Compile(fastURL); err != nil {
		return nil, fmt.Errorf("schema: compiling the fast %s schema: %w", d.id, err)
	}
	return fv, nil
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

func escapeToken(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

func unescapeToken(s string) string {
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}
