package schema

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/source"
)

// TestVerdictAgrees: the verdict accepts exactly the documents jsonschema accepts.
// Seeds are every fixture and corpus file, each tried against every dialect; each is
// mutated hundreds of times (keys dropped, values retyped, the discriminator changed,
// unknown keys added), and the two must agree on every mutant.
func TestVerdictAgrees(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../fixtures/*/*/*.json", "../fixtures/*/*/*.yaml", "../fixtures/*/*/*/*.json",
		"../fixtures/*/*/*/*.yaml", "../fixtures/*/*/*/*/*.json", "../fixtures/*/*/*/*/*.yaml", "testdata/*.json"} {
		more, _ := filepath.Glob(pattern)
		files = append(files, more...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d seed files", len(files))
	}
	type doc struct {
		v any
		n *source.Node
	}
	var docs []doc
	for si, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a fixture of a broken link
		}
		parsed, err := source.Parse(f, data, 0)
		if err != nil {
			continue // a fixture of bad syntax
		}
		seed := parsed.Root.Value()
		docs = append(docs, doc{seed, parsed.Root})
		r := rand.New(rand.NewPCG(uint64(si), 7))
		for range 59 {
			v := mutate(r, deepCopy(seed), 1+r.IntN(3))
			docs = append(docs, doc{v, nodeOf(t, v)})
		}
	}
	for _, id := range registry.ids {
		d := registry.byID[id]
		sch, err := d.compiled()
		if err != nil {
			t.Fatal(err)
		}
		vd := d.verdict()
		if vd == nil {
			t.Fatalf("%s: no verdict: %v", id, verdictErr(d))
		}
		valid := 0
		for _, dc := range docs {
			full := sch.Validate(dc.v) == nil
			if got := vd(dc.n); got != full {
				b, _ := json.Marshal(dc.v)
				t.Fatalf("%s: the verdict says valid=%v, jsonschema valid=%v for\n%s", id, got, full, b)
			}
			if full {
				valid++
			}
		}
		if valid == 0 && !slices.Contains(Documents, id) {
			t.Errorf("%s: none of %d documents valid: the seeds test nothing", id, len(docs))
		}
		t.Logf("%s: %d documents, %d valid, verdicts agree", id, len(docs), valid)
	}
}

// nodeOf parses v's JSON into a document, as the verdict reads it.
func nodeOf(t *testing.T, v any) *source.Node {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := source.Parse("v.json", b, source.JSON)
	if err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return doc.Root
}

func verdictErr(d *dialect) error {
	_, err := compileVerdict(d.src(), d.url)
	return err
}

// TestVerdictSemantics: jsonschema's meaning of each keyword the verdict knows, on
// the values where implementations differ: integers written as decimals, numbers
// beyond 64 bits, characters beyond one byte, equal numbers spelled differently.
func TestVerdictSemantics(t *testing.T) {
	schemas := []string{
		`{"type": "integer"}`,
		`{"type": ["string", "null"]}`,
		`{"minimum": 0, "maximum": 10.5}`,
		`{"exclusiveMinimum": -1e2, "exclusiveMaximum": 99999999999999999999}`,
		`{"minLength": 2, "maxLength": 3}`,
		`{"pattern": "^\\d+$"}`,
		`{"enum": [1, "a", null, [1, 2], {"k": 1.0}]}`,
		`{"enum": ["x", "y"]}`,
		`{"const": 2}`,
		`{"format": "uuid"}`,
		`{"format": "date-time"}`,
		`{"format": "no-such-format"}`,
		`{"properties": {"a": {"type": "string"}}, "patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": false}`,
		`{"patternProperties": {"^x": {"type": "integer"}}, "additionalProperties": {"type": "boolean"}}`,
		`{"additionalProperties": {"type": "boolean"}, "minProperties": 1, "maxProperties": 2, "required": ["a"]}`,
		`{"prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "minItems": 1, "maxItems": 3}`,
		`{"prefixItems": [{"type": "string"}]}`,
		`{"anyOf": [{"type": "string"}, {"minimum": 5}]}`,
		`{"oneOf": [{"type": "integer"}, {"minimum": 5}]}`,
		`{"not": {"type": "object"}, "allOf": [true, {"not": false}]}`,
		`{"if": {"type": "string"}, "then": {"minLength": 3}, "else": {"type": "integer"}}`,
		`{"then": false}`,
		`{"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"}`,
		// An allOf of "if k is the string v then …" branches is dispatched on k's value.
		`{"allOf": [{"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": {"required": ["b"]}},
			{"if": {"properties": {"k": {"const": "b"}}, "required": ["k"]}, "then": {"maxProperties": 1}}, {"minProperties": 1}]}`,
		`{"allOf": [{"if": {"properties": {"k": {"const": "a"}}, "required": ["k"]}, "then": {"type": "object"}},
			{"if": {"properties": {"k": {"const": "b"}}, "required": ["k"]}, "then": {"minLength": 2}},
			{"if": {"properties": {"j": {"const": "a"}}, "required": ["j"]}, "then": false}]}`,
	}
	values := []string{`null`, `true`, `0`, `-0`, `1`, `1.0`, `1e2`, `1.5`, `-1e2`, `-100.0000001`, `10.5`, `10.50001`,
		`99999999999999999999`, `99999999999999999998.9`, `2`, `2.0`, `20e-1`, `""`, `"a"`, `"ab"`, `"abcd"`, `"éé"`, `"日本語"`,
		`"𝄞𝄞𝄞𝄞"`, `"12"`, `"x"`, `"2026-11-25T10:00:00Z"`, `"2026-13-25T10:00:00Z"`, `"123e4567-e89b-12d3-a456-426614174000"`,
		`[]`, `[1]`, `["a"]`, `["a", 1, 2]`, `["a", 1, "b"]`, `["a", 1, 2, 3]`, `[1, 2]`, `[[[]]]`, `[[1]]`,
		`{}`, `{"a": "s"}`, `{"a": 1}`, `{"x1": 1}`, `{"x1": 1.5}`, `{"b": true}`, `{"a": "s", "b": 1}`, `{"a": "s", "b": true, "c": true}`,
		`{"k": 1}`, `{"k": 1.0, "l": 2}`, `{"k": "a"}`, `{"k": "a", "b": 1}`, `{"k": "b"}`, `{"k": "b", "x": 1}`, `{"k": "c"}`,
		`{"j": "a"}`, `{"j": "b", "k": "a", "b": 0}`}
	for i, src := range schemas {
		full := fmt.Sprintf(`{"$schema": %q, "$id": "https://dws.dev/schema/t%d.json", %s`, draft2020, i, src[1:])
		if src == `{}` {
			full = fmt.Sprintf(`{"$id": "https://dws.dev/schema/t%d.json"}`, i)
		}
		vd, err := compileVerdict([]byte(full), fmt.Sprintf("https://dws.dev/schema/t%d.json", i))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		c := newCompiler()
		if err := c.AddResource(fmt.Sprintf("https://dws.dev/schema/t%d.json", i), strings.NewReader(full)); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(fmt.Sprintf("https://dws.dev/schema/t%d.json", i))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, val := range values {
			doc, err := source.Parse("v.json", []byte(val), source.JSON)
			if err != nil {
				t.Fatal(err)
			}
			if want, got := sch.Validate(doc.Root.Value()) == nil, vd(doc.Root); want != got {
				t.Errorf("schema %s, value %s: the verdict says %v, jsonschema %v", src, val, got, want)
			}
		}
	}
}

// TestNoVerdict: a schema the verdict cannot judge gets none, and jsonschema alone
// validates it.
func TestNoVerdict(t *testing.T) {
	for _, src := range []string{
		`{"$id": "https://dws.dev/schema/x.json", "uniqueItems": true}`,
		`{"$id": "https://dws.dev/schema/x.json", "$ref": "https://example.com/other.json"}`,
		`{"$id": "https://dws.dev/schema/x.json", "properties": {"a": {"$id": "https://dws.dev/schema/y.json"}}}`,
		`{"$id": "https://dws.dev/schema/x.json", "$schema": "http://json-schema.org/draft-07/schema#"}`,
		`{"$id": "https://dws.dev/schema/other.json"}`,
		`{"$id": "https://dws.dev/schema/x.json", "unevaluatedProperties": false}`,
		// jsonschema resolves inner's #/$defs/t against other.json's $id: a string there.
		`{"$id": "https://dws.dev/schema/x.json", "$ref": "#/$defs/x/$defs/inner", "$defs": {"x": {"$id": "https://dws.dev/schema/other.json",
			"$defs": {"inner": {"$ref": "#/$defs/t"}, "t": {"type": "string"}}}, "t": {"type": "number"}}}`,
		// Bounds jsonschema reads through a double.
		`{"$id": "https://dws.dev/schema/x.json", "minLength": 4611686018427387904}`,
		`{"$id": "https://dws.dev/schema/x.json", "maxItems": 9223372036854775807}`,
		// Loops that read nothing of the document: jsonschema refuses them.
		`{"$id": "https://dws.dev/schema/x.json", "$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}`,
		`{"$id": "https://dws.dev/schema/x.json", "$ref": "#/$defs/a", "$defs": {"a": {"allOf": [{"not": {"$ref": "#/$defs/b"}}]}, "b": {"if": {"$ref": "#/$defs/a"}}}}`,
	} {
		if vd, err := compileVerdict([]byte(src), "https://dws.dev/schema/x.json"); vd != nil || err == nil {
			t.Errorf("%s: compiled to a verdict", src)
		}
	}
}

// TestVerdictRefs: a $ref is read as jsonschema reads it (~1, ~0, then percent
// escapes), and a recursive schema that descends into the document is fine.
func TestVerdictRefs(t *testing.T) {
	const url = "https://dws.dev/schema/x.json"
	src := `{"$id": "` + url + `", "$defs": {"a b": {"type": "string"}, "a%20b": {"type": "number"},
		"list": {"type": "array", "items": {"$ref": "#/$defs/list"}}, "sl~ash/": {"$ref": "#/$defs/list"}},
		"properties": {"s": {"$ref": "#/$defs/a%20b"}, "l": {"$ref": "#/$defs/sl~0ash~1"}}}`
	vd, err := compileVerdict([]byte(src), url)
	if err != nil {
		t.Fatal(err)
	}
	c := newCompiler()
	if err := c.AddResource(url, strings.NewReader(src)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	valid := 0
	for _, v := range []any{map[string]any{"s": json.Number("5")}, map[string]any{"s": "five"},
		map[string]any{"l": []any{[]any{[]any{}}}}, map[string]any{"l": []any{json.Number("1")}}} {
		want, got := sch.Validate(v) == nil, vd(nodeOf(t, v))
		if want != got {
			t.Errorf("%v: the verdict says %v, jsonschema %v", v, got, want)
		}
		if want {
			valid++
		}
	}
	if valid != 2 {
		t.Errorf("%d of 4 documents valid, want 2", valid)
	}
}

// FuzzVerdict: whatever the document, the verdict and jsonschema agree on it under
// every embedded schema.
func FuzzVerdict(f *testing.F) {
	for _, p := range []string{"testdata/*.json", "../fixtures/cortex/ok/*.json"} {
		files, _ := filepath.Glob(p)
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := source.Parse("f.json", data, source.JSON)
		if err != nil {
			return
		}
		v := doc.Root.Value()
		for _, id := range registry.ids {
			d := registry.byID[id]
			sch, err := d.compiled()
			if err != nil {
				t.Fatal(err)
			}
			if want, got := sch.Validate(v) == nil, d.verdict()(doc.Root); want != got {
				t.Fatalf("%s: the verdict says %v, jsonschema %v", id, got, want)
			}
		}
	})
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

var discriminators = []string{"sql", "http", "script", "ai", "branch", "sleep",
	"sequential", "conditional", "parallel", "loop", "handoff", "delegation", "nope"}

// mutate changes n random places of v.
func mutate(r *rand.Rand, v any, n int) any {
	for range n {
		var objs []map[string]any
		var walk func(any)
		walk = func(x any) {
			switch y := x.(type) {
			case map[string]any:
				objs = append(objs, y)
				for _, e := range y {
					walk(e)
				}
			case []any:
				for _, e := range y {
					walk(e)
				}
			}
		}
		walk(v)
		if len(objs) == 0 {
			return v
		}
		o := objs[r.IntN(len(objs))]
		keys := make([]string, 0, len(o))
		for k := range o {
			keys = append(keys, k)
		}
		if len(keys) == 0 {
			o["added"] = "x"
			continue
		}
		slices.Sort(keys)
		k := keys[r.IntN(len(keys))]
		switch r.IntN(5) {
		case 0:
			delete(o, k)
		case 1:
			o[k] = json.Number("7")
		case 2:
			o[k] = "text"
		case 3:
			if _, ok := o["type"]; ok {
				o["type"] = discriminators[r.IntN(len(discriminators))]
			} else {
				o["unknownKey"] = true
			}
		case 4:
			o[k] = map[string]any{}
		}
	}
	return v
}

// TestValidateNode: validating a parsed document gives what validating its value gives,
// failures and all, under every schema.
func TestValidateNode(t *testing.T) {
	files, _ := filepath.Glob("../fixtures/*/*/*.*")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		doc, err := source.Parse(f, data, 0)
		if err != nil {
			continue
		}
		for _, id := range registry.ids {
			want, werr := Validate(id, doc.Root.Value())
			got, gerr := ValidateNode(id, doc.Root)
			if !reflect.DeepEqual(got, want) || (werr == nil) != (gerr == nil) {
				t.Fatalf("%s under %s: ValidateNode %v, %v; Validate %v, %v", f, id, got, gerr, want, werr)
			}
			if len(want) == 0 {
				n++
			}
		}
	}
	if n == 0 || len(files) < 30 {
		t.Fatalf("%d files, %d valid under some schema", len(files), n)
	}
	if _, err := ValidateNode("no-such-dialect", nil); err == nil {
		t.Fatal("an unknown dialect validated")
	}
}
