package canonical

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// The canonical bytes are written straight from the value tree: the RFC 8785 rules
// (members sorted by their UTF-16 code units, strings escaped as ECMAScript's
// JSON.stringify does, numbers as ECMAScript prints the double) applied in one pass.
// jcs.Transform would first need the document as JSON text, then parse that text into
// a tree of its own: for a 4 MiB array of numbers that is 340 MB of allocations and
// most of the time, for bytes that are the same (TestWriteAgreesWithJCS holds the two
// to that on every test document). Numbers are still formatted by jcs.NumberToJSON.

// validNumber reports whether lit is a number of RFC 8259's grammar, which jcs
// enforces too: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, read by hand (a
// regexp was compiled on every start and matched for every number with a fraction).
func validNumber(lit string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(lit) && lit[i] >= '0' && lit[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(lit) && lit[i] == '-' {
		i++
	}
	switch {
	case i < len(lit) && lit[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(lit) && lit[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(lit) && (lit[i] == 'e' || lit[i] == 'E') {
		i++
		if i < len(lit) && (lit[i] == '+' || lit[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(lit)
}

// errFallback marks a value of a Go type the tree writer does not know; Bytes then
// takes the encoding/json route.
var errFallback = errors.New("not a JSON data-model value")

// appendValue appends v's canonical bytes to b.
func appendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case json.Number:
		return appendNumber(b, string(v))
	case float64:
		s, err := jcs.NumberToJSON(v)
		if err != nil {
			return b, err
		}
		return append(b, s...), nil
	case string:
		return appendString(b, v), nil
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, e); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case map[string]any:
		members := make([]member, 0, len(v))
		for k := range v {
			members = append(members, member{key: k})
		}
		sortMembers(members)
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, m.key), ':')
			if b, err = appendValue(b, v[m.key]); err != nil {
				return b, err
			}
		}
		return append(b, '}'), nil
	}
	return b, errFallback
}

// compareUTF16 orders two strings by their UTF-16 code units, as RFC 8785 sorts
// member names, without converting them: UTF-8 order is code point order, which
// differs from UTF-16 order only between a character beyond U+FFFF (a surrogate
// pair, D800-DFFF) and one in E000-FFFF.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	if a[i] < utf8.RuneSelf && b[i] < utf8.RuneSelf {
		return int(a[i]) - int(b[i])
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i-- // back to the start of the character that differs (the same in both)
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	ua, ub := firstUnit(ra), firstUnit(rb)
	if ua != ub {
		return int(ua) - int(ub)
	}
	return int(ra) - int(rb) // both beyond U+FFFF with one high surrogate
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// member is one member of an object being written: its name, and where its value is
// for whoever writes it.
type member struct {
	key string
	at  int
}

// sortMembers puts members in canonical order: by their names' UTF-16 code units.
func sortMembers(members []member) {
	slices.SortFunc(members, func(a, b member) int { return compareUTF16(a.key, b.key) })
}

func appendNumber(b []byte, lit string) ([]byte, error) {
	if shortInteger(lit) {
		return append(b, lit...), nil // an integer of at most 15 digits prints as written
	}
	if !validNumber(lit) {
		return b, fmt.Errorf("invalid number literal %.32q", lit)
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return b, fmt.Errorf("number out of range: %.32q", lit)
	}
	s, err := jcs.NumberToJSON(f)
	if err != nil {
		return b, err
	}
	return append(b, s...), nil
}

// shortInteger reports whether lit is a JSON integer of at most 15 digits other
// than -0: its double is exact, and ECMAScript prints it as it is written.
func shortInteger(lit string) bool {
	digits := strings.TrimPrefix(lit, "-")
	if digits == "" || len(digits) > 15 || digits[0] == '0' && (len(digits) > 1 || lit[0] == '-') {
		return false
	}
	for i := range len(digits) {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

// writeString escapes exactly what RFC 8785 §3.2.2.2 escapes: '"', '\', and the
// control characters, the five with short forms by them.
// plainOut holds the bytes a canonical string writes as they are.
var plainOut = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		for i < len(s) && plainOut[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		var esc string
		switch c {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\b':
			esc = `\b`
		case '\f':
			esc = `\f`
		case '\n':
			esc = `\n`
		case '\r':
			esc = `\r`
		case '\t':
			esc = `\t`
		default:
			if c >= 0x20 {
				continue
			}
			b = append(append(b, s[start:i]...), `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
			start = i + 1
			continue
		}
		b = append(append(b, s[start:i]...), esc...)
		start = i + 1
	}
	return append(append(b, s[start:]...), '"')
}

const hexDigits = "0123456789abcdef"

// buffers hold the canonical bytes being written, reused: a fresh buffer for every
// file was a sixth of a run's allocated bytes. One grown past maxBuffer (a large
// file's) is not kept.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

const maxBuffer = 1 << 20

// withBuffer calls fn with a pooled buffer, emptied.
func withBuffer[T any](fn func(*[]byte) (T, error)) (T, error) {
	buf := buffers.Get().(*[]byte)
	*buf = (*buf)[:0]
	defer func() {
		if cap(*buf) <= maxBuffer {
			buffers.Put(buf)
		}
	}()
	return fn(buf)
}

// canonicalSum is the checksum of canonical bytes.
func canonicalSum(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

// bytesOf returns the canonical bytes of doc.
func bytesOf(doc any) ([]byte, error) {
	b, err := appendValue(nil, doc)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Inexact reports whether a JSON number literal changes value on its way through an
// IEEE 754 double, the way every RFC 8785 consumer reads it: the shortest decimal that
// reads back as the same double is not the number written. 0.1 is exact in this
// sense (it reads back as 0.1); 9007199254740993 and 1.00000000000000001 are not.
func Inexact(literal string) bool {
	written, ok := new(big.Rat).SetString(literal)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(literal, 64)
	if err != nil {
		return true // beyond the double range
	}
	back, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	return !ok || written.Cmp(back) != 0
}
