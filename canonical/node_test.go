package canonical

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dwsdev/dws/source"
)

// sameSum fails unless ChecksumNode gives what Checksum gives for the value tree.
func sameSum(t *testing.T, name string, data []byte) bool {
	t.Helper()
	doc, err := source.Parse(name, data, 0)
	if err != nil {
		return false
	}
	want, werr := checksum(doc.Root.Value())
	got, gerr := ChecksumNode(doc.Root)
	if got != want || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%s: ChecksumNode %q, %v; Checksum %q, %v", name, got, gerr, want, werr)
	}
	return true
}

// TestChecksumNode: every fixture, JSON and YAML, signed or not, and documents with
// numbers no double holds, sum the same from the parsed document as from its value.
func TestChecksumNode(t *testing.T) {
	var files []string
	for _, p := range []string{"../fixtures/*/*/*", "../fixtures/*/*/*/*", "../fixtures/*/*/*/*/*", "testdata/*/*"} {
		more, _ := filepath.Glob(p)
		files = append(files, more...)
	}
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil || filepath.Ext(f) != ".json" && filepath.Ext(f) != ".yaml" && filepath.Ext(f) != ".yml" {
			continue
		}
		if sameSum(t, f, data) {
			n++
		}
	}
	for _, s := range []string{`{"signature": "x", "b": [1.50, 15e-1, "\u00e9"], "a": null}`, `[{"signature": 1}]`,
		`{"\u20ac": 1, "\ufb33": 2, "\ud83d\ude00": 3}`, `1e300`, `-0.0`, `[123456789012345678901234567890, 0.1e-7]`, `"a\u0000b\u001f"`} {
		if !sameSum(t, "x.json", []byte(s)) {
			t.Fatalf("%s did not parse", s)
		}
	}
	if n < 50 {
		t.Fatalf("only %d documents compared", n)
	}
}

// FuzzChecksumNode: whatever the document, both ways give one checksum, or one error.
func FuzzChecksumNode(f *testing.F) {
	for _, s := range []string{`{"signature":"x","b":[1.50,15e-1,"\u00e9"],"a":null}`, `[[[[]]]]`, `1e400`, "a: [1, 0x1F, .5]\nb: {c: ~}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameSum(t, "f.json", data)
		sameSum(t, "f.yaml", data)
	})
}
