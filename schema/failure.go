package schema

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dwsdev/dws/source"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Failure is one way a value fails its dialect's schema, in plain words.
//
// Validate reports one Failure per failing leaf of the library's error tree, with these
// readings: a "required" failure becomes one Failure per missing property, at the object;
// an "additionalProperties" failure becomes one Failure per unknown key, at the key (Key
// set), listing the allowed keys in schema order; of a failed anyOf/oneOf only the branch
// the value got furthest into is reported (see bestBranch); an "if" never surfaces, only
// the leaves of its "then", and a required or unknown key under a "then" guarded by
// {"properties": {"type": {"const": "sql"}}} says "(required for a sql step)". Failures
// are sorted by pointer (array indexes as numbers), then message, without duplicates.
type Failure struct {
	// Pointer is the RFC 6901 pointer of the failing value ("" is the root). For an unknown
	// property it is the pointer of that property's member, e.g. "/steps/2/retyr".
	Pointer string
	// Key is set when the failure is about the member's key itself (an unknown property):
	// a caller then marks the key, not the value.
	Key bool
	// Message starts with the dotted path of the value ("steps[2].retry.count", or "(root)"),
	// then a colon and the reason.
	Message string
}

// failures flattens the library's error tree into one Failure per leaf, sorted by pointer
// (array indexes compared as numbers) then message, without duplicates.
func failures(root *jsonschema.ValidationError, inst any, docs map[string]*node) []Failure {
	b := &builder{inst: inst, docs: docs}
	b.walk(root)
	sort.Slice(b.out, func(i, j int) bool { return less(b.out[i], b.out[j]) })
	out := b.out[:0]
	for i, f := range b.out {
		if i == 0 || f != b.out[i-1] {
			out = append(out, f)
		}
	}
	return out
}

type builder struct {
	inst any
	docs map[string]*node
	out  []Failure
}

func (b *builder) walk(e *jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		b.leaf(e)
		return
	}
	if k := lastSegment(e.KeywordLocation); k == "anyOf" || k == "oneOf" {
		b.walk(bestBranch(e))
		return
	}
	for _, c := range e.Causes {
		b.walk(c)
	}
}

// bestBranch picks, among the failed branches of an anyOf/oneOf, the one the value got
// furthest into, so the user sees why the closest alternative failed and not a wall of
// errors from every alternative. Ranked by, in order:
//  1. fewest leaves that reject the value outright: type, enum or const at the branch's
//     own location, or const on one of its members (a discriminator such as
//     {"kind": {"const": "a"}}): a branch whose discriminator fails was never the intended one;
//  2. the deepest failing location: the value matched more of that branch's shape;
//  3. the fewest leaves;
//  4. the earliest branch, so the choice is stable.
func bestBranch(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	best := e.Causes[0]
	bs := scoreBranch(best, e.InstanceLocation)
	for _, c := range e.Causes[1:] {
		s := scoreBranch(c, e.InstanceLocation)
		if s.better(bs) {
			best, bs = c, s
		}
	}
	return best
}

type branchScore struct{ rejects, depth, leaves int }

func (s branchScore) better(t branchScore) bool {
	if s.rejects != t.rejects {
		return s.rejects < t.rejects
	}
	if s.depth != t.depth {
		return s.depth > t.depth
	}
	return s.leaves < t.leaves
}

func scoreBranch(branch *jsonschema.ValidationError, at string) branchScore {
	var s branchScore
	var visit func(e *jsonschema.ValidationError)
	visit = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			s.leaves++
			if d := strings.Count(e.InstanceLocation, "/"); d > s.depth {
				s.depth = d
			}
			switch lastSegment(e.KeywordLocation) {
			case "type", "enum":
				if e.InstanceLocation == at {
					s.rejects++
				}
			case "const":
				if e.InstanceLocation == at || isChild(e.InstanceLocation, at) {
					s.rejects++
				}
			}
			return
		}
		if k := lastSegment(e.KeywordLocation); k == "anyOf" || k == "oneOf" {
			visit(bestBranch(e))
			return
		}
		for _, c := range e.Causes {
			visit(c)
		}
	}
	visit(branch)
	return s
}

// isChild reports whether ptr names a direct member of the value at parent.
func isChild(ptr, parent string) bool {
	rest, ok := strings.CutPrefix(ptr, parent+"/")
	return ok && !strings.Contains(rest, "/")
}

func (b *builder) add(ptr string, key bool, msg string) {
	b.out = append(b.out, Failure{Pointer: ptr, Key: key, Message: msg})
}

// leaf writes the message for one failing keyword from the keyword and the schema text;
// the library's English is only a fallback for keywords the schemas here do not use.
func (b *builder) leaf(e *jsonschema.ValidationError) {
	loc := parseKeywordLocation(e.AbsoluteKeywordLocation)
	if loc.inIf {
		// An "if" only selects a branch; its failure is never the user's problem.
		return
	}
	ptr := e.InstanceLocation
	doc := b.docs[loc.url]
	sch := doc.at(loc.schema)
	val, _ := resolve(b.inst, ptr)
	path := b.path(ptr)
	say := func(format string, a ...any) {
		b.add(ptr, false, path+": "+fmt.Sprintf(format, a...))
	}
	fallback := func() { say("%s", e.Message) }
	if sch == nil {
		fallback()
		return
	}
	kw := sch.get(loc.keyword)

	switch loc.keyword {
	case "type":
		want := kw.strs()
		if len(want) == 0 {
			fallback()
			return
		}
		say("expected %s, got %s", strings.Join(want, " or "), describe(val))
	case "required":
		obj, _ := val.(map[string]any)
		var missing []string
		for _, r := range kw.strs() {
			if _, ok := obj[r]; !ok {
				missing = append(missing, r)
			}
		}
		if len(missing) == 0 {
			fallback()
			return
		}
		suffix := ""
		if c := condition(doc, loc); c != "" {
			suffix = " (required " + c + ")"
		}
		for _, m := range missing {
			say("missing required property %q%s", m, suffix)
		}
	case "additionalProperties":
		b.unknownKeys(e, doc, loc, sch, val)
	case "unevaluatedProperties":
		b.add(ptr, true, path+": unknown property")
	case "enum":
		if kw == nil {
			fallback()
			return
		}
		vals := make([]string, len(kw.arr))
		for i, v := range kw.arr {
			vals[i] = v.text(true)
		}
		say("%s is not one of %s", show(val), strings.Join(vals, ", "))
	case "const":
		say("expected %s, got %s", kw.text(false), show(val))
	case "pattern":
		if kw.text(true) == `\S` {
			// The schemas' way of saying "not blank": say it in words.
			say("must not be blank (empty or only white space)")
			return
		}
		say("%s does not match %s", show(val), kw.text(true))
	case "format":
		say("%s is not a valid %s", show(val), kw.text(true))
	case "minLength":
		if s, ok := val.(string); ok && s == "" {
			say("must not be empty")
			return
		}
		say("%s is shorter than %s %s", show(val), kw.text(false), plural(kw.text(false), "character", "characters"))
	case "maxLength":
		say("%s is longer than %s %s", show(val), kw.text(false), plural(kw.text(false), "character", "characters"))
	case "minimum":
		say("%s is less than the minimum %s", show(val), kw.text(false))
	case "maximum":
		say("%s is more than the maximum %s", show(val), kw.text(false))
	case "exclusiveMinimum":
		say("%s is not more than %s", show(val), kw.text(false))
	case "exclusiveMaximum":
		say("%s is not less than %s", show(val), kw.text(false))
	case "multipleOf":
		say("%s is not a multiple of %s", show(val), kw.text(false))
	case "minItems", "maxItems":
		arr, _ := val.([]any)
		n := strconv.Itoa(len(arr))
		bound := "fewer than the minimum"
		if loc.keyword == "maxItems" {
			bound = "more than the maximum"
		}
		say("has %s %s, %s %s", n, plural(n, "item", "items"), bound, kw.text(false))
	case "minProperties", "maxProperties":
		obj, _ := val.(map[string]any)
		n := strconv.Itoa(len(obj))
		bound := "fewer than the minimum"
		if loc.keyword == "maxProperties" {
			bound = "more than the maximum"
		}
		say("has %s %s, %s %s", n, plural(n, "property", "properties"), bound, kw.text(false))
	case "oneOf":
		say("matches more than one of the allowed forms")
	case "not":
		say("matches a form that is not allowed here")
	case "", "properties", "patternProperties", "items", "prefixItems", "contains",
		"additionalItems", "unevaluatedItems", "then", "else", "allOf", "anyOf":
		// A leaf located at a subschema rather than a keyword is a false schema.
		if e.Message != "not allowed" {
			fallback()
			return
		}
		say("is not allowed here")
	default:
		fallback()
	}
}

// unknownKeys splits the library's one additionalProperties error at the parent object
// into one Failure per offending key, at the key (upstream issue #173).
func (b *builder) unknownKeys(e *jsonschema.ValidationError, doc *node, loc keywordLocation, sch *node, val any) {
	obj, ok := val.(map[string]any)
	if !ok {
		b.add(e.InstanceLocation, false, b.path(e.InstanceLocation)+": "+e.Message)
		return
	}
	props := sch.get("properties")
	var patterns []*regexp.Regexp
	var patternText []string
	if pp := sch.get("patternProperties"); pp != nil {
		for _, p := range pp.keys {
			re, err := regexp.Compile(p)
			if err != nil {
				continue
			}
			patterns = append(patterns, re)
			patternText = append(patternText, p)
		}
	}
	var unknown []string
	for k := range obj {
		if props.get(k) != nil {
			continue
		}
		matched := false
		for _, re := range patterns {
			if re.MatchString(k) {
				matched = true
				break
			}
		}
		if !matched {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		b.add(e.InstanceLocation, false, b.path(e.InstanceLocation)+": "+e.Message)
		return
	}
	sort.Strings(unknown)

	var allowed []string
	if props != nil {
		allowed = append(allowed, props.keys...)
	}
	for _, p := range patternText {
		allowed = append(allowed, "names matching "+p)
	}
	hint := "no properties are allowed"
	if len(allowed) > 0 {
		hint = "allowed: " + strings.Join(allowed, ", ")
		if c := condition(doc, loc); c != "" {
			hint = "allowed " + c + ": " + strings.Join(allowed, ", ")
		}
	}
	for _, k := range unknown {
		ptr := e.InstanceLocation + "/" + escapePointer(k)
		b.add(ptr, true, b.path(ptr)+": unknown property ("+hint+")")
	}
}

// condition describes the "if" guarding the innermost "then" a keyword sits under, when it
// is the usual discriminator {properties: {type: {const: X}}}: "for a sql step" (the noun
// is the enclosing $defs name) or `when type is "sql"`.
func condition(doc *node, loc keywordLocation) string {
	if loc.thenAt == nil {
		return ""
	}
	props := doc.at(loc.thenAt).get("if").get("properties")
	if props == nil || len(props.keys) != 1 {
		return ""
	}
	name := props.keys[0]
	c := props.get(name).get("const")
	if c == nil {
		return ""
	}
	if s, ok := c.str(); ok && loc.thenDef != "" {
		return "for " + article(s) + " " + s + " " + loc.thenDef
	}
	return "when " + name + " is " + c.text(false)
}

// keywordLocation is an absolute keyword location taken apart.
type keywordLocation struct {
	url     string
	schema  []string // pointer segments of the schema object holding the keyword
	keyword string   // "" when the location names a subschema (a false schema)
	inIf    bool     // the keyword is evaluated inside an "if"
	thenAt  []string // schema object holding the innermost enclosing "then", if any
	thenDef string   // the $defs name enclosing that "then", if any
}

var (
	// keywords whose value maps names to subschemas
	mapKeywords = map[string]bool{"properties": true, "patternProperties": true, "$defs": true,
		"definitions": true, "dependentSchemas": true, "dependencies": true}
	// keywords whose value is an array of subschemas
	listKeywords = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	// keywords whose value is one subschema
	subKeywords = map[string]bool{"not": true, "if": true, "then": true, "else": true, "items": true,
		"contains": true, "additionalProperties": true, "propertyNames": true, "additionalItems": true,
		"unevaluatedProperties": true, "unevaluatedItems": true, "contentSchema": true}
)

func parseKeywordLocation(abs string) keywordLocation {
	url, frag, _ := strings.Cut(abs, "#")
	loc := keywordLocation{url: url}
	segs := splitPointer(frag)
	def := ""
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		if i == len(segs)-1 {
			loc.keyword, loc.schema = s, segs[:i]
			return loc
		}
		switch {
		case mapKeywords[s] || listKeywords[s]:
			if s == "$defs" || s == "definitions" {
				def = segs[i+1]
			}
			i++
		case subKeywords[s]:
			switch s {
			case "if":
				loc.inIf = true
			case "then":
				loc.thenAt, loc.thenDef = segs[:i], def
			case "items":
				if _, err := strconv.Atoi(segs[i+1]); err == nil {
					i++ // draft-07 array form
				}
			}
		default:
			loc.keyword, loc.schema = segs[len(segs)-1], segs[:len(segs)-1]
			return loc
		}
	}
	loc.schema = segs
	return loc
}

func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		parts[i] = unescapePointer(s)
	}
	return parts
}

func escapePointer(s string) string { return source.EscapeToken(s) }

func unescapePointer(s string) string {
	t, _ := source.UnescapeToken(s)
	return t
}

func lastSegment(p string) string {
	return p[strings.LastIndexByte(p, '/')+1:]
}

// resolve returns the instance value at a JSON Pointer.
func resolve(v any, ptr string) (any, bool) {
	for _, s := range splitPointer(ptr) {
		switch t := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = t[s]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil, false
			}
			v = t[i]
		default:
			return nil, false
		}
	}
	return v, true
}

var plainKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`) })

// path renders a pointer the way a reader names the value: steps[2].retry.count.
func (b *builder) path(ptr string) string {
	if ptr == "" {
		return "(root)"
	}
	var sb strings.Builder
	v := b.inst
	for _, s := range splitPointer(ptr) {
		if arr, ok := v.([]any); ok {
			sb.WriteString("[" + s + "]")
			if i, err := strconv.Atoi(s); err == nil && i >= 0 && i < len(arr) {
				v = arr[i]
			} else {
				v = nil
			}
			continue
		}
		if plainKey().MatchString(s) {
			if sb.Len() > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(s)
		} else {
			sb.WriteString("[" + strconv.Quote(s) + "]")
		}
		if obj, ok := v.(map[string]any); ok {
			v = obj[s]
		} else {
			v = nil
		}
	}
	return sb.String()
}

const maxShown = 60 // characters of a string value quoted in a message

// show renders an instance value inside a message.
func show(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		if utf8.RuneCountInString(t) > maxShown {
			r := []rune(t)
			return strconv.Quote(string(r[:maxShown-1])) + "…"
		}
		return strconv.Quote(t)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case json.Number:
		return t.String()
	default:
		return fmt.Sprint(t)
	}
}

// describe names a value's JSON type, with the value when it is short: number 5.
func describe(v any) string {
	switch v.(type) {
	case nil, map[string]any, []any:
		return show(v)
	case string:
		return "string " + show(v)
	case bool:
		return "boolean " + show(v)
	default:
		return "number " + show(v)
	}
}

func plural(n, one, many string) string {
	if n == "1" {
		return one
	}
	return many
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}

// less orders failures by pointer, comparing array indexes as numbers so steps[2] comes
// before steps[10], then by message, then value failures before key failures.
func less(a, b Failure) bool {
	if a.Pointer != b.Pointer {
		as, bs := splitPointer(a.Pointer), splitPointer(b.Pointer)
		for i := 0; i < len(as) && i < len(bs); i++ {
			if as[i] == bs[i] {
				continue
			}
			ai, aerr := strconv.Atoi(as[i])
			bi, berr := strconv.Atoi(bs[i])
			if aerr == nil && berr == nil && ai != bi {
				return ai < bi
			}
			return as[i] < bs[i]
		}
		return len(as) < len(bs)
	}
	if a.Message != b.Message {
		return a.Message < b.Message
	}
	return !a.Key && b.Key
}
