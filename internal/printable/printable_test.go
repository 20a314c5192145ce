package printable_test

import (
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
