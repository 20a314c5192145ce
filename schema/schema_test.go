package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/dwsdev/dws/source"
)

func decode(t testing.TB, text string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("decoding test document: %v\n%s", err, text)
	}
	return v
}

func TestRegistry(t *testing.T) {
	ds := Dialects()
	if !sort.StringsAreSorted(ds) {
		t.Errorf("Dialects() = %v, not sorted", ds)
	}
	found := false
	for _, d := range ds {
		found = found || d == "cortex"
	}
	if !found {
		t.Fatalf("Dialects() = %v, want cortex among them", ds)
	}
	if got, ok := DialectForURL("https://dws.dev/schema/cortex.json"); !ok || got != "cortex" {
		t.Errorf("DialectForURL(cortex's $id) = %q, %v", got, ok)
	}
	if got, ok := DialectForURL("https://dws.dev/schema/nope.json"); ok {
		t.Errorf("DialectForURL(nope) = %q, want none", got)
	}
	for _, u := range []string{"https://dws.dev/schema/cortex.json", "https://dws.dev/schema/cortex.json#"} {
		if d, ok := DialectForURL(u); !ok || d != "cortex" {
			t.Errorf("DialectForURL(%q) = %q, %v; want cortex, true", u, d, ok)
		}
	}
	for _, u := range []string{"https://dws.dev/schema/nope.json", "http://dws.dev/schema/cortex.json", "https://json-schema.org/draft/2020-12/schema", ""} {
		if d, ok := DialectForURL(u); ok {
			t.Errorf("DialectForURL(%q) = %q, true; want false", u, d)
		}
	}
	src, ok := Source("cortex")
	disk, err := os.ReadFile("cortex.schema.json")
	if !ok || err != nil || !bytes.Equal(src, disk) {
		t.Errorf("Source(cortex) differs from cortex.schema.json (ok=%v, err=%v)", ok, err)
	}
	if _, ok := Source("nope"); ok {
		t.Error("Source(nope) reported ok")
	}
	if _, err := Validate("nope", map[string]any{}); err == nil {
		t.Error("Validate(nope) returned no error")
	}
}

// Every schema file dropped into the package must compile, carry the right $id and be
// reachable through DialectForURL.
func TestEveryEmbeddedSchemaCompiles(t *testing.T) {
	for _, id := range Dialects() {
		d := registry.byID[id]
		if _, err := d.compiled(); err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if got, ok := DialectForURL(d.url); !ok || got != id {
			t.Errorf("DialectForURL(%q) = %q, %v", d.url, got, ok)
		}
	}
}

func TestValidateSeedExamples(t *testing.T) {
	for _, name := range []string{"hello.json", "expense.json"} {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			fs, err := Validate("cortex", decode(t, string(text)))
			if err != nil {
				t.Fatal(err)
			}
			if len(fs) != 0 {
				t.Errorf("want no failures, got %#v", fs)
			}
		})
	}
}

// cortexDoc is the seed's hello example with the first step replaced by step (and more
// steps appended), and top-level members overridden by top ("key": value pairs).
func cortexDoc(top string, steps ...string) string {
	if len(steps) == 0 {
		steps = []string{`{"id": "say-hi", "type": "script", "params": {"code": "console.log(1)"}, "onSuccess": null}`}
	}
	head := `"schemaVersion": "1.0", "name": "hello", "version": "v1.0"`
	if top != "" {
		head = top
	}
	return "{" + head + `, "steps": [` + strings.Join(steps, ",\n") + "]}"
}

func TestValidateFailures(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []Failure
	}{
		{
			name: "wrong type",
			doc:  cortexDoc(`"schemaVersion": "1.0", "name": 42, "version": "v1.0"`),
			want: []Failure{{"/name", false, "name: expected string, got number 42"}},
		},
		{
			name: "wrong type object",
			doc:  cortexDoc("", `{"id": "say-hi", "type": "script", "params": ["code"]}`),
			want: []Failure{{"/steps/0/params", false, "steps[0].params: expected object, got an array"}},
		},
		{
			name: "edge that is a number",
			doc:  cortexDoc("", `{"id": "say-hi", "type": "script", "params": {"code": "x"}, "onSuccess": 5, "onFailure": true}`),
			want: []Failure{
				{"/steps/0/onFailure", false, "steps[0].onFailure: expected string or null, got boolean true"},
				{"/steps/0/onSuccess", false, "steps[0].onSuccess: expected string or null, got number 5"},
			},
		},
		{
			name: "missing required at the root, one failure each",
			doc:  `{"schemaVersion": "1.0", "steps": [{"id": "say-hi", "type": "script", "params": {"code": "x"}}]}`,
			want: []Failure{
				{"", false, `(root): missing required property "name"`},
				{"", false, `(root): missing required property "version"`},
			},
		},
		{
			name: "missing required in a step, no per-type noise",
			doc:  cortexDoc("", `{"id": "say-hi", "params": {"code": "x"}}`),
			want: []Failure{{"/steps/0", false, `steps[0]: missing required property "type"`}},
		},
		{
			name: "missing params of a typed step",
			doc:  cortexDoc("", `{"id": "nap", "type": "sleep"}`),
			want: []Failure{{"/steps/0", false, `steps[0]: missing required property "params" (required for a sleep step)`}},
		},
		{
			name: "missing per-type param",
			doc: cortexDoc("",
				`{"id": "say-hi", "type": "script", "params": {"code": "x"}}`,
				`{"id": "ask", "type": "ai", "params": {"model": "gpt-4o"}}`,
				`{"id": "write", "type": "sql", "params": {"args": []}}`),
			want: []Failure{
				{"/steps/1/params", false, `steps[1].params: missing required property "promptTemplate" (required for an ai step)`},
				{"/steps/1/params", false, `steps[1].params: missing required property "schema" (required for an ai step)`},
				{"/steps/2/params", false, `steps[2].params: missing required property "statement" (required for a sql step)`},
			},
		},
		{
			name: "unknown key at the top level",
			doc:  cortexDoc(`"schemaVersion": "1.0", "name": "hello", "version": "v1.0", "author": "me", "zz/top": 1`),
			want: []Failure{
				{"/author", true, "author: unknown property (allowed: $schema, schemaVersion, name, version, description, steps, signature)"},
				{"/zz~1top", true, `["zz/top"]: unknown property (allowed: $schema, schemaVersion, name, version, description, steps, signature)`},
			},
		},
		{
			name: "unknown key in a step and in its retry",
			doc: cortexDoc("",
				`{"id": "say-hi", "type": "script", "params": {"code": "x"}}`,
				`{"id": "other", "type": "script", "params": {"code": "x"}, "retyr": {"count": 1}, "retry": {"count": 1, "delay": 2}}`),
			want: []Failure{
				{"/steps/1/retry/delay", true, "steps[1].retry.delay: unknown property (allowed: count, delaySeconds)"},
				{"/steps/1/retyr", true, "steps[1].retyr: unknown property (allowed: id, type, params, onSuccess, onFailure, retry)"},
			},
		},
		{
			name: "unknown key in params",
			doc:  cortexDoc("", `{"id": "write", "type": "sql", "params": {"statement": "SELECT 1", "args": [], "arg": []}}`),
			want: []Failure{{"/steps/0/params/arg", true, "steps[0].params.arg: unknown property (allowed for a sql step: statement, args)"}},
		},
		{
			name: "enum",
			doc: cortexDoc("",
				`{"id": "say-hi", "type": "script", "params": {"code": "x"}}`,
				`{"id": "b", "type": "script", "params": {"code": "x"}}`,
				`{"id": "c", "type": "script", "params": {"code": "x"}}`,
				`{"id": "mail", "type": "email", "params": {"to": "x"}}`,
				`{"id": "call", "type": "http", "params": {"method": "get", "url": "https://x", "headers": {}, "bodyTemplate": ""}}`),
			want: []Failure{
				{"/steps/1/id", false, `steps[1].id: "b" does not match ^[a-z0-9_-]{3,40}$`},
				{"/steps/2/id", false, `steps[2].id: "c" does not match ^[a-z0-9_-]{3,40}$`},
				{"/steps/3/type", false, `steps[3].type: "email" is not one of sql, http, script, ai, branch, sleep`},
				{"/steps/4/params/method", false, `steps[4].params.method: "get" is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS`},
			},
		},
		{
			name: "pattern",
			doc: cortexDoc(`"schemaVersion": "2.0", "name": "hello", "version": "1.0"`,
				`{"id": "Bad Id", "type": "script", "params": {"code": "x"}}`),
			want: []Failure{
				{"/schemaVersion", false, `schemaVersion: "2.0" does not match ^1\.\d+`},
				{"/steps/0/id", false, `steps[0].id: "Bad Id" does not match ^[a-z0-9_-]{3,40}$`},
				{"/version", false, `version: "1.0" does not match ^v\d+\.\d+`},
			},
		},
		{
			name: "unanchored patterns are the seed's: 1.0-beta passes the schema",
			doc:  cortexDoc(`"schemaVersion": "1.0-beta", "name": "hello", "version": "v1.0.7"`),
			want: nil,
		},
		{
			name: "minimum and maximum",
			doc: cortexDoc("",
				`{"id": "say-hi", "type": "script", "params": {"code": "x"}, "retry": {"count": 9, "delaySeconds": -1}}`,
				`{"id": "nap", "type": "sleep", "params": {"seconds": -5}}`,
				`{"id": "nap2", "type": "sleep", "params": {"seconds": 1.5}, "retry": {"count": 2.0, "delaySeconds": 301}}`),
			want: []Failure{
				{"/steps/0/retry/count", false, "steps[0].retry.count: 9 is more than the maximum 5"},
				{"/steps/0/retry/delaySeconds", false, "steps[0].retry.delaySeconds: -1 is less than the minimum 0"},
				{"/steps/1/params/seconds", false, "steps[1].params.seconds: -5 is less than the minimum 0"},
				{"/steps/2/params/seconds", false, "steps[2].params.seconds: expected integer, got number 1.5"},
				{"/steps/2/retry/delaySeconds", false, "steps[2].retry.delaySeconds: 301 is more than the maximum 300"},
			},
		},
		{
			name: "minLength, maxLength and minItems",
			doc:  `{"schemaVersion": "1.0", "name": "ab", "version": "v1.0", "steps": []}`,
			want: []Failure{
				{"/name", false, `name: "ab" is shorter than 3 characters`},
				{"/steps", false, "steps: has 0 items, fewer than the minimum 1"},
			},
		},
		{
			name: "empty strings and long strings",
			doc: cortexDoc(`"schemaVersion": "1.0", "version": "v1.0", "name": "`+strings.Repeat("n", 121)+`"`,
				`{"id": "say-hi", "type": "script", "params": {"code": ""}}`),
			want: []Failure{
				{"/name", false, `name: "` + strings.Repeat("n", 59) + `"… is longer than 120 characters`},
				{"/steps/0/params/code", false, "steps[0].params.code: must not be empty"},
			},
		},
		{
			name: "headers are strings, keys that need quoting",
			doc:  cortexDoc("", `{"id": "call", "type": "http", "params": {"method": "POST", "url": "https://x", "headers": {"idempotencyKey": "k", "X.Retry": 3}, "bodyTemplate": "b"}}`),
			want: []Failure{{"/steps/0/params/headers/X.Retry", false, `steps[0].params.headers["X.Retry"]: expected string, got number 3`}},
		},
		{
			name: "step that is not an object",
			doc:  cortexDoc("", `"say-hi"`),
			want: []Failure{{"/steps/0", false, `steps[0]: expected object, got string "say-hi"`}},
		},
		{
			name: "root that is not an object",
			doc:  `[1, 2]`,
			want: []Failure{{"", false, "(root): expected object, got an array"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Validate("cortex", decode(t, tt.doc))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got:\n%s\nwant:\n%s", dump(got), dump(tt.want))
			}
		})
	}
}

func dump(fs []Failure) string {
	var sb strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&sb, "  {%q, %v, %q}\n", f.Pointer, f.Key, f.Message)
	}
	return sb.String()
}

// compileTest compiles a schema through the package's own compiler and loader.
func compileTest(t *testing.T, url, text string) (func(any) []Failure, error) {
	t.Helper()
	c := newCompiler()
	if err := c.AddResource(url, strings.NewReader(text)); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	n, err := parseNode([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := rawDocs()
	if err != nil {
		t.Fatal(err)
	}
	docs = maps.Clone(docs)
	docs[url] = n
	return func(v any) []Failure {
		err := sch.Validate(v)
		if err == nil {
			return nil
		}
		return failuresOf(t, err, v, docs)
	}, nil
}

func TestLoaderRefusesOtherURLs(t *testing.T) {
	_, err := compileTest(t, "https://dws.dev/test/tiny.json",
		`{"$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {"x": {"$ref": "http://example.com/x.json"}}}`)
	if err == nil || !strings.Contains(err.Error(), "not an embedded schema") {
		t.Fatalf("want a refusal to load http://example.com/x.json, got %v", err)
	}
}

func TestLoaderServesEmbeddedAndMetaschema(t *testing.T) {
	validate, err := compileTest(t, "https://dws.dev/test/tiny.json", `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"properties": {
			"edge": {"$ref": "https://dws.dev/schema/cortex.json#/$defs/edge"},
			"schema": {"$ref": "https://json-schema.org/draft/2020-12/schema"}
		}}`)
	if err != nil {
		t.Fatal(err)
	}
	got := validate(decode(t, `{"edge": 1, "schema": {"type": "string"}}`))
	want := []Failure{{"/edge", false, "edge: expected string or null, got number 1"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", dump(got), dump(want))
	}
}

func TestAnyOfKeepsTheBestBranch(t *testing.T) {
	validate, err := compileTest(t, "https://dws.dev/test/anyof.json", `{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"properties": {
			"edge": {"anyOf": [
				{"type": "string", "minLength": 3},
				{"type": "object", "required": ["to", "when"], "properties": {"to": {"type": "string"}, "when": {"type": "string"}}, "additionalProperties": false}
			]},
			"pick": {"oneOf": [
				{"type": "object", "required": ["kind", "a"], "properties": {"kind": {"const": "a"}, "a": {"type": "integer"}}},
				{"type": "object", "required": ["kind", "b"], "properties": {"kind": {"const": "b"}, "b": {"type": "integer"}}}
			]}
		}}`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc  string
		want []Failure
	}{
		{`{"edge": "ab"}`, []Failure{{"/edge", false, `edge: "ab" is shorter than 3 characters`}}},
		{`{"edge": {"to": 1, "when": "x"}}`, []Failure{{"/edge/to", false, "edge.to: expected string, got number 1"}}},
		{`{"edge": {"to": "x"}}`, []Failure{{"/edge", false, `edge: missing required property "when"`}}},
		{`{"pick": {"kind": "b", "b": "x"}}`, []Failure{{"/pick/b", false, `pick.b: expected integer, got string "x"`}}},
		{`{"pick": {"kind": "a"}}`, []Failure{{"/pick", false, `pick: missing required property "a"`}}},
		{`{"pick": {"kind": "a", "a": 1, "b": 2}}`, nil},
	}
	for _, tt := range tests {
		got := validate(decode(t, tt.doc))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", tt.doc, dump(got), dump(tt.want))
		}
	}
}

func TestConcurrentValidate(t *testing.T) {
	docs := []any{
		decode(t, benchDoc(40)),
		decode(t, cortexDoc("", `{"id": "Bad Id", "type": "sql", "params": {"stmt": "x"}, "retry": {"count": 9}}`)),
	}
	want := make([][]Failure, len(docs))
	for i, d := range docs {
		fs, err := Validate("cortex", d)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fs
	}
	if len(want[0]) != 0 || len(want[1]) == 0 {
		t.Fatalf("unexpected baseline: %v / %v", want[0], want[1])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				k := (g + i) % len(docs)
				got, err := Validate("cortex", docs[k])
				if err != nil || !reflect.DeepEqual(got, want[k]) {
					errs <- fmt.Sprintf("goroutine %d: got %v, %v", g, got, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// benchDoc builds a valid Cortex document of n steps cycling through every step type;
// 40 steps is about 10 KB.
func benchDoc(n int) string {
	steps := make([]string, n)
	for i := range steps {
		next := "null"
		if i+1 < n {
			next = fmt.Sprintf(`"step-%03d"`, i+1)
		}
		var params string
		switch i % 6 {
		case 0:
			params = `{"statement": "UPDATE expense SET status = 'approved', reviewed_at = {{now}} WHERE id = {{expenseId}} AND tenant = {{tenantId}}", "args": ["expenseId", "tenantId"]}`
		case 1:
			params = `{"method": "POST", "url": "https://slack.com/api/chat.postMessage", "headers": {"Authorization": "Bearer {{token}}", "idempotencyKey": "{{runId}}-notify"}, "bodyTemplate": "slack_approval"}`
		case 2:
			params = `{"code": "const total = ctx.items.reduce((a, b) => a + b.amount, 0); return { total };"}`
		case 3:
			params = `{"promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "fraudScore"}`
		case 4:
			params = `{"expression": "{{fraudScore}} < 0.7 AND {{amount}} <= 1000"}`
		case 5:
			params = `{"seconds": 30}`
		}
		typ := []string{"sql", "http", "script", "ai", "branch", "sleep"}[i%6]
		retry := ""
		if typ != "sleep" {
			retry = `, "retry": {"count": 2, "delaySeconds": 5}`
		}
		steps[i] = fmt.Sprintf(`    {"id": "step-%03d", "type": %q, "params": %s, "onSuccess": %s, "onFailure": "step-%03d"%s}`,
			i, typ, params, next, n-1, retry)
	}
	return `{"$schema": "https://dws.dev/schema/cortex.json", "schemaVersion": "1.0", "name": "benchmark workflow", "version": "v1.0", "description": "A long workflow for measuring schema validation.",
  "steps": [
` + strings.Join(steps, ",\n") + `
  ],
  "signature": ""
}`
}

func BenchmarkValidateCortex(b *testing.B) {
	text := benchDoc(40)
	v := decode(b, text)
	if fs, err := Validate("cortex", v); err != nil || len(fs) != 0 {
		b.Fatalf("benchmark document is not valid: %v %v", fs, err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Validate("cortex", v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateNode: what validate does with a valid document, the compiled
// verdict over the parsed document.
func BenchmarkValidateNode(b *testing.B) {
	text := benchDoc(40)
	doc, perr := source.Parse("bench.json", []byte(text), source.JSON)
	if perr != nil {
		b.Fatal(perr)
	}
	if fs, err := ValidateNode("cortex", doc.Root); err != nil || len(fs) != 0 {
		b.Fatalf("benchmark document is not valid: %v %v", fs, err)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ValidateNode("cortex", doc.Root); err != nil {
			b.Fatal(err)
		}
	}
}

func failuresOf(t *testing.T, err error, v any, docs map[string]*node) []Failure {
	t.Helper()
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("validation returned %T: %v", err, err)
	}
	return failures(ve, v, docs)
}
