package canonical

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The property tests generate documents from fixed seeds, so a failure
// reproduces; the seed is in the failure message.
const propertyRuns = 300

func forEachDoc(t *testing.T, f func(t *testing.T, r *rand.Rand, doc map[string]any)) {
	for seed := uint64(1); seed <= propertyRuns; seed++ {
		r := rand.New(rand.NewPCG(seed, 0x5eed))
		doc := genObject(r, 0)
		delete(doc, SignatureProperty)
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { f(t, r, doc) })
	}
}

// checksum is the sha256 checksum of doc's canonical bytes, "sha256:" and 64 hex digits
// (what ChecksumNode gives for the parsed document).
func checksum(doc any) (string, error) {
	b, err := Bytes(doc)
	if err != nil {
		return "", err
	}
	return canonicalSum(b), nil
}

func mustChecksum(t *testing.T, doc any) string {
	t.Helper()
	sum, err := checksum(doc)
	if err != nil {
		t.Fatalf("Checksum: %v\ndoc: %#v", err, doc)
	}
	return sum
}

// Spelling a document differently (key order, whitespace, number spelling,
// string escapes) must not change its checksum.
func TestPropertySpellingDoesNotMatter(t *testing.T) {
	forEachDoc(t, func(t *testing.T, r *rand.Rand, doc map[string]any) {
		want := mustChecksum(t, doc)
		for range 4 {
			var b strings.Builder
			spell(r, &b, doc)
			got := mustChecksum(t, decode(t, []byte(b.String())))
			if got != want {
				t.Fatalf("respelt document has checksum %s, want %s\ntext: %s", got, want, b.String())
			}
		}
	})
}

func TestSpellingExamples(t *testing.T) {
	groups := [][]string{
		{`{"n":1.5}`, `{"n":1.50}`, `{"n":15e-1}`, `{"n":0.15E1}`, `{"n":150E-2}`, `{ "n" : 1.5e0 }`},
		{`{"s":"é"}`, `{"s":"\u00e9"}`, `{"s":"\u00E9"}`},
		{`{"s":"/"}`, `{"s":"\u002f"}`, `{"s":"\/"}`},
		{`{"a":1,"b":[true,null]}`, "{\n\t\"b\" : [ true , null ] ,\r\n \"a\":1 }"},
		{`{"z":0}`, `{"z":-0}`, `{"z":0.0}`, `{"z":0e10}`},
	}
	for _, g := range groups {
		want := mustChecksum(t, decode(t, []byte(g[0])))
		for _, s := range g[1:] {
			if got := mustChecksum(t, decode(t, []byte(s))); got != want {
				t.Errorf("%s has checksum %s, %s has %s", s, got, g[0], want)
			}
		}
	}
}

// Any change to the content changes the checksum.
func TestPropertyChangesMatter(t *testing.T) {
	forEachDoc(t, func(t *testing.T, r *rand.Rand, doc map[string]any) {
		before := mustChecksum(t, doc)
		for range 4 {
			changed, what := mutate(r, doc)
			if after := mustChecksum(t, changed); after == before {
				t.Fatalf("%s left the checksum at %s", what, before)
			}
		}
		if mustChecksum(t, doc) != before {
			t.Fatal("mutate modified the original document")
		}
	})
}

// The top-level signature is not content; a nested one is.
func TestPropertySignature(t *testing.T) {
	forEachDoc(t, func(t *testing.T, r *rand.Rand, doc map[string]any) {
		before := mustChecksum(t, doc)
		signed := clone(doc).(map[string]any)
		signed[SignatureProperty] = genString(r)
		if got := mustChecksum(t, signed); got != before {
			t.Fatalf("adding a top-level signature changed the checksum")
		}
		signed[SignatureProperty] = genValue(r, 0)
		if got := mustChecksum(t, signed); got != before {
			t.Fatalf("changing the top-level signature changed the checksum")
		}

		nested := clone(doc).(map[string]any)
		inner := map[string]any{}
		if objs := objectsBelow(nested); len(objs) > 0 {
			inner = objs[r.IntN(len(objs))]
			if _, has := inner[SignatureProperty]; has {
				inner[SignatureProperty] = []any{inner[SignatureProperty]}
			} else {
				inner[SignatureProperty] = genString(r)
			}
		} else {
			inner[SignatureProperty] = genString(r)
			nested[newKey(r, nested)] = inner
		}
		if got := mustChecksum(t, nested); got == before {
			t.Fatalf("a nested signature did not change the checksum")
		}
	})
}

// --- a generator of JSON data-model documents ---

var stringRunes = []rune("aAzZ09 _-./\\\"\x00\x01\x1f\x7féü€\u2028\u2029\U0001F600\U00010000\uFB33\uFFFD\n\t")

func genString(r *rand.Rand) string {
	n := r.IntN(8)
	var b strings.Builder
	for range n {
		b.WriteRune(stringRunes[r.IntN(len(stringRunes))])
	}
	return b.String()
}

var keyWords = []string{"id", "name", "steps", "next", "signature", "é", "€", "\U0001F600", "\uFB33", "a/b", "", "A", "a", "10", "1"}

func genKey(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return genString(r)
	}
	return keyWords[r.IntN(len(keyWords))]
}

func newKey(r *rand.Rand, m map[string]any) string {
	for {
		k := genKey(r) + strconv.Itoa(r.IntN(1000))
		if _, taken := m[k]; !taken {
			return k
		}
	}
}

// genNumber returns a number as the loader would hand it over, in one of its
// spellings; spell writes others.
func genNumber(r *rand.Rand) json.Number {
	var digits string
	switch r.IntN(3) {
	case 0:
		digits = strconv.Itoa(r.IntN(1000))
	case 1:
		digits = strconv.FormatUint(r.Uint64N(1e15), 10)
	default:
		digits = strconv.FormatUint(r.Uint64()>>r.IntN(60), 10)
	}
	exp := r.IntN(61) - 30
	if r.IntN(2) == 0 {
		exp = 0
	}
	return json.Number(spellNumber(r, r.IntN(3) == 0, digits, exp))
}

func genValue(r *rand.Rand, depth int) any {
	k := r.IntN(8)
	if depth >= 4 && k >= 6 {
		k = r.IntN(6)
	}
	switch k {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2, 3:
		return genNumber(r)
	case 4, 5:
		return genString(r)
	case 6:
		a := make([]any, r.IntN(5))
		for i := range a {
			a[i] = genValue(r, depth+1)
		}
		return a
	default:
		return genObject(r, depth+1)
	}
}

func genObject(r *rand.Rand, depth int) map[string]any {
	n := r.IntN(6)
	if depth == 0 {
		n += 2
	}
	m := make(map[string]any, n)
	for range n {
		m[genKey(r)] = genValue(r, depth)
	}
	return m
}

// --- writing a document with random but equivalent spelling ---

func ws(r *rand.Rand, b *strings.Builder) {
	for range r.IntN(3) {
		b.WriteByte(" \t\n\r"[r.IntN(4)])
	}
}

func spell(r *rand.Rand, b *strings.Builder, v any) {
	ws(r, b)
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case json.Number:
		neg, digits, exp := splitNumber(string(v))
		b.WriteString(spellNumber(r, neg, digits, exp))
	case string:
		spellString(r, b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			spell(r, b, e)
		}
		ws(r, b)
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			ws(r, b)
			spellString(r, b, k)
			ws(r, b)
			b.WriteByte(':')
			spell(r, b, v[k])
		}
		ws(r, b)
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("not a data-model value: %T", v))
	}
	ws(r, b)
}

// splitNumber reads a JSON number as ±digits × 10^exp with no leading zeros
// in digits, the form every spelling is written from.
func splitNumber(s string) (neg bool, digits string, exp int) {
	neg = strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant := s
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil {
			panic(err)
		}
		exp = e
	}
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		exp -= len(mant) - i - 1
		mant = mant[:i] + mant[i+1:]
	}
	digits = strings.TrimLeft(mant, "0")
	if digits == "" {
		digits = "0"
	}
	return neg, digits, exp
}

// spellNumber writes ±digits × 10^exp exactly, with random trailing zeros,
// decimal point position, exponent and exponent letter. Equal decimal values
// round to the same double, so every spelling is the same number.
func spellNumber(r *rand.Rand, neg bool, digits string, exp int) string {
	if z := r.IntN(3); z > 0 {
		digits += strings.Repeat("0", z)
		exp -= z
	}
	p := r.IntN(len(digits) + 1)
	intPart, frac := digits[:p], digits[p:]
	exp += len(frac)
	if intPart == "" {
		intPart = "0"
	}
	intPart = strings.TrimLeft(intPart, "0")
	if intPart == "" {
		intPart = "0"
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(intPart)
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	if exp != 0 || r.IntN(4) == 0 {
		b.WriteByte("eE"[r.IntN(2)])
		switch {
		case exp < 0:
		case r.IntN(2) == 0:
			b.WriteByte('+')
		}
		b.WriteString(strconv.Itoa(exp))
	}
	return b.String()
}

func spellString(r *rand.Rand, b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		mustEscape := c < 0x20 || c == '"' || c == '\\'
		switch {
		case !mustEscape && r.IntN(3) > 0:
			b.WriteRune(c)
		case c == '/' && r.IntN(2) == 0:
			b.WriteString(`\/`)
		case strings.ContainsRune("\"\\\b\f\n\r\t", c) && r.IntN(2) == 0:
			b.WriteString(map[rune]string{'"': `\"`, '\\': `\\`, '\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}[c])
		case c > 0xFFFF:
			c -= 0x10000
			writeU(r, b, 0xD800+(c>>10))
			writeU(r, b, 0xDC00+(c&0x3FF))
		default:
			writeU(r, b, c)
		}
	}
	b.WriteByte('"')
}

func writeU(r *rand.Rand, b *strings.Builder, c rune) {
	h := fmt.Sprintf(`\u%04x`, c)
	if r.IntN(2) == 0 {
		h = `\u` + strings.ToUpper(h[2:])
	}
	b.WriteString(h)
}

// --- changing a document ---

func clone(v any) any {
	switch v := v.(type) {
	case []any:
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = clone(e)
		}
		return c
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = clone(e)
		}
		return c
	}
	return v
}

func objectsBelow(v any) []map[string]any {
	var out []map[string]any
	var walk func(v any, top bool)
	walk = func(v any, top bool) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e, false)
			}
		case map[string]any:
			if !top {
				out = append(out, v)
			}
			for _, e := range v {
				walk(e, false)
			}
		}
	}
	walk(v, true)
	return out
}

// mutate returns a changed copy of doc and says what it changed: a value
// replaced by one with different canonical bytes, a member added or removed,
// or an element added or removed. The top-level signature is never touched.
func mutate(r *rand.Rand, doc map[string]any) (any, string) {
	c := clone(doc).(map[string]any)
	// A slot is a place holding a value: a member or an element.
	type slot struct {
		get func() any
		set func(any)
		ptr string
	}
	slots := []slot{{func() any { return c }, nil, ""}}
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch v := v.(type) {
		case []any:
			for i := range v {
				p := ptr + "/" + strconv.Itoa(i)
				slots = append(slots, slot{func() any { return v[i] }, func(n any) { v[i] = n }, p})
				walk(v[i], p)
			}
		case map[string]any:
			for k := range v {
				p := ptr + "/" + k
				slots = append(slots, slot{func() any { return v[k] }, func(n any) { v[k] = n }, p})
				walk(v[k], p)
			}
		}
	}
	walk(c, "")

	s := slots[r.IntN(len(slots))]
	switch v := s.get().(type) {
	case []any:
		if len(v) > 0 && r.IntN(2) == 0 {
			i := r.IntN(len(v))
			s.set(append(v[:i:i], v[i+1:]...))
			return c, fmt.Sprintf("removing element %d of %s", i, s.ptr)
		}
		if r.IntN(2) == 0 {
			s.set(append(v[:len(v):len(v)], genValue(r, 3)))
			return c, fmt.Sprintf("appending to %s", s.ptr)
		}
	case map[string]any:
		if r.IntN(2) == 0 {
			for k := range v {
				if s.ptr == "" && k == SignatureProperty {
					continue
				}
				delete(v, k)
				return c, fmt.Sprintf("deleting %s/%s", s.ptr, k)
			}
		}
		if r.IntN(2) == 0 || s.set == nil {
			k := newKey(r, v)
			v[k] = genValue(r, 3)
			return c, fmt.Sprintf("adding %s/%s", s.ptr, k)
		}
	}
	old, err := Bytes(s.get())
	if err != nil {
		panic(err)
	}
	for {
		n := genValue(r, 3)
		if nb, err := Bytes(n); err == nil && string(nb) != string(old) {
			s.set(n)
			return c, fmt.Sprintf("replacing %s (%s) by %s", s.ptr, old, nb)
		}
	}
}
