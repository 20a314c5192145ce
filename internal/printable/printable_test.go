package printable_test

import (
	"encoding/json"
	"testing"

	"github.com/dwsdev/dws/internal/printable"
)

func TestString(t *testing.T) {
	for in, want := range map[string]string{
		"review":                 "review",
		"日本語 ✓ 😀 \ufffd":         "日本語 ✓ 😀 \ufffd",
		"a\x1b[2J\r\n::error::x": `a\x1b[2J\r\n::error::x`,
		"tab\there\x7f\u0085":    `tab\there\x7f\u0085`,
		"line\u2028sep\u2029":    `line\u2028sep\u2029`,
		"\u202eevil\u2066":       `\u202eevil\u2066`,
		"\ufeffbom\ufffe\uffff":  `\ufeffbom\ufffe\uffff`,
		"bad\xffutf8\xc3":        `bad\xffutf8\xc3`,
		"\x00nul":                `\x00nul`,
	} {
		if got := printable.String(in); got != want {
			t.Errorf("String(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRune(t *testing.T) {
	for in, want := range map[rune]rune{'a': 'a', '\t': ' ', 0x1b: '\ufffd', 0x85: '\ufffd', 0x2028: '\ufffd', '日': '日'} {
		if got := printable.Rune(in); got != want {
			t.Errorf("Rune(%U) = %U, want %U", in, got, want)
		}
	}
}

// JSON escapes what String does not pass and encoding/json writes raw; the document
// still reads back as the same strings.
func TestJSON(t *testing.T) {
	in := map[string]string{"id": "a\x7f\u009b\u202e\u2066\ufeff\x1b\u2028 日本 \ufffd"}
	enc, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := printable.JSON(enc)
	want := `{"id":"a\u007f\u009b\u202e\u2066\ufeff\u001b\u2028 日本 ` + "\ufffd\"}"
	if string(got) != want {
		t.Errorf("JSON(%s) = %s, want %s", enc, got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["id"] != in["id"] {
		t.Errorf("JSON's output reads back as %q (%v), want %q", back["id"], err, in["id"])
	}
	if plain := []byte(`{"a": [1, "b"]}` + "\n"); &printable.JSON(plain)[0] != &plain[0] {
		t.Errorf("JSON copied a document that needs no escape")
	}
}
