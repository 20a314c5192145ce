package canonical

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// decode reads JSON into the data model the way the loader hands it over.
func decode(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decoding %q: %v", data, err)
	}
	return v
}

func checkVectors(t *testing.T, dir string) {
	inputs, err := filepath.Glob(filepath.Join(dir, "input", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no vectors in %s", dir)
	}
	for _, in := range inputs {
		name := filepath.Base(in)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(filepath.Join(dir, "output", name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := Bytes(decode(t, data))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("canonical bytes differ\n got: %s\nwant: %s", got, want)
			}
		})
	}
}

func TestRFC8785Vectors(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "corpus", "jcs")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("the RFC 8785 corpus is not here (%v); testdata/jcs still runs", err)
	}
	checkVectors(t, dir)
}

func TestVectors(t *testing.T) {
	checkVectors(t, filepath.Join("testdata", "jcs"))
}

func TestChecksumFormat(t *testing.T) {
	got, err := checksum(decode(t, []byte(`{"b":1,"a":[true,null]}`)))
	if err != nil {
		t.Fatal(err)
	}
	// sha256 of the canonical bytes {"a":[true,null],"b":1}.
	want := canonicalSum([]byte(`{"a":[true,null],"b":1}`))
	if got != want {
		t.Errorf("Checksum = %s, want %s", got, want)
	}
	if !validSum(got) {
		t.Errorf("%s is not sha256: and 64 lower-case hex digits", got)
	}
	if empty := canonicalSum(nil); empty != "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" {
		t.Errorf("canonicalSum(nil) = %s", empty)
	}
}

func TestBytesLeavesDocumentAlone(t *testing.T) {
	doc := map[string]any{"signature": "x", "a": json.Number("1")}
	if _, err := Bytes(doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc["signature"]; !ok || len(doc) != 2 {
		t.Errorf("Bytes modified its argument: %v", doc)
	}
}

func TestBytesErrors(t *testing.T) {
	deep := any(json.Number("1"))
	for range maxDepth + 1 {
		deep = []any{deep}
	}
	tests := []struct {
		name string
		doc  any
		want string
	}{
		{"invalid UTF-8 string", map[string]any{"a": []any{"ok", "\xff"}}, `at "/a/1": string is not valid UTF-8`},
		{"invalid UTF-8 key", map[string]any{"a\xffb": true}, `property name "a\xffb" is not valid UTF-8`},
		{"key needing escapes", map[string]any{"a/b": map[string]any{"~": "\xc0"}}, `at "/a~1b/~0"`},
		{"not a number", json.Number("1.2.3"), "invalid number literal"},
		{"infinite", json.Number("1e400"), ""},
		{"too deep", deep, "nesting deeper than 10000 levels"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Bytes(tt.doc)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "canonicalising: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestSignature(t *testing.T) {
	if s, ok := Signature(map[string]any{"signature": "abc"}); !ok || s != "abc" {
		t.Errorf("Signature = %q, %v", s, ok)
	}
	for _, doc := range []any{
		map[string]any{},
		map[string]any{"signature": json.Number("1")},
		[]any{map[string]any{"signature": "nested"}},
		"signature",
	} {
		if s, ok := Signature(doc); ok {
			t.Errorf("Signature(%v) = %q, true", doc, s)
		}
	}
}
