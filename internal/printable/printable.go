// Package printable shows a string read from a user's file (a node id, a workflow id, a
// file name, a message that quotes them) in dws's output without letting it act on
// what shows it: an escape sequence that would clear a terminal or retitle it, a
// carriage return or newline that would rewrite or forge a line of a report (a
// GitHub Actions "::error" command), a character an XML page may not hold. Every
// output of every command shows user strings through String (a line of text) or Rune
// (a source excerpt, where every character keeps one column).
//
// Characters it does not pass: C0 controls, DEL and C1 controls (NEL among them);
// U+2028 and U+2029, which YAML 1.1, JavaScript and some terminals take as line breaks;
// the bidirectional controls (U+202A–U+202E, U+2066–U+2069), which reorder what a
// reader sees; U+FEFF, U+FFFE and U+FFFF (the last two are not XML characters); and
// bytes that are not UTF-8. It knows no output format: each format escapes its own
// syntax (HTML's <, Mermaid's quote) on top.
//
// A JUnit or XML report holds user strings through String too: XML can carry neither
// ESC (encoding/xml writes U+FFFD) nor, for its readers, a line of its own (a CR or LF
// there reads back as a real line break, which a CI log prints as a line). A JSON
// report keeps user strings exact, since a reader matches them against the definition:
// JSON's own escapes carry them, and JSON escapes in an encoded document the
// characters String does not pass that encoding/json writes raw (DEL, C1 controls, the
// bidirectional controls, U+FEFF), so that the bytes on a terminal or in a log are
// as printable as any other output.
package printable

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rune is r as a source excerpt shows it: a tab becomes a blank, a character that is
// not printable becomes U+FFFD, so that columns still line up under a caret.
func Rune(r rune) rune {
	switch {
	case r == '\t':
		return ' '
	case !ok(r):
		return utf8.RuneError
	}
	return r
}

// ok reports whether r may reach an output as it is (a tab may not, in String).
func ok(r rune) bool {
	switch {
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
		return false
	case r == 0x2028 || r == 0x2029:
		return false
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return false
	case r == 0xfeff || r == 0xfffe || r == 0xffff:
		return false
	}
	return true
}

// String escapes the characters of s that may not reach an output the way Go quotes
// them (\x1b, \n, \u2028, and \xff for a byte that is not UTF-8), leaving every other
// character as it is. A string without any is returned unchanged.
func String(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !ok(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case ok(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u0085'
			if strings.HasPrefix(q, `'\`) {
				b.WriteString(q[1 : len(q)-1])
			} else { // a rune Go thinks printable (U+2028 is not): quote it by number
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
		i += size
	}
	return b.String()
}

// JSON returns the encoded JSON document b with every character String does not pass
// written as a JSON escape (\u009b), which reads back as the same character. Outside
// strings a JSON document holds only ASCII (its white space included), which it leaves
// as it is; encoding/json already escapes the C0 controls and U+2028/U+2029 and never
// writes bytes that are not UTF-8.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x7f && !ok(r) { // a byte that is not UTF-8 reads as U+FFFD, which passes
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b) + 16)
	out.Write(b[:i])
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x7f && !ok(r) { // a byte that is not UTF-8 reads as U+FFFD, which passes
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.Bytes()
}
