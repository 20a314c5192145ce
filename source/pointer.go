package source

import "strings"

// pointerEscaper is the one place RFC 6901 escaping is written.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// EscapeToken escapes one reference token of a JSON Pointer (RFC 6901): "~" becomes
// "~0" and "/" becomes "~1".
func EscapeToken(tok string) string { return pointerEscaper.Replace(tok) }

// UnescapeToken reverses EscapeToken. ok is false when a "~" is not followed by 0 or
// 1, which RFC 6901 does not allow.
func UnescapeToken(tok string) (string, bool) { return unescapeToken(tok) }

// Pointer builds an RFC 6901 JSON Pointer from unescaped reference tokens.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		pointerEscaper.WriteString(&b, t)
	}
	return b.String()
}

// AppendPointer returns ptr extended by one unescaped reference token.
func AppendPointer(ptr string, token string) string {
	return ptr + "/" + EscapeToken(token)
}

// Lookup returns the value a JSON Pointer names, or nil when it names
// nothing (or is not a valid pointer).
func (d *Document) Lookup(pointer string) *Node {
	n, _, _ := d.resolve(pointer)
	return n
}

// PointerSpan returns the span at which to report a diagnostic about the
// value pointer names. When that value does not exist, ok is false and the
// span is the one of the deepest value that does exist on the way (for a
// missing member, the object that lacks it), which is where a "missing"
// diagnostic belongs.
func (d *Document) PointerSpan(pointer string) (span Span, ok bool) {
	n, deepest, _ := d.resolve(pointer)
	if n != nil {
		return n.Span, true
	}
	if deepest != nil {
		return deepest.Span, false
	}
	return Span{}, false
}

// KeySpan returns the span of the key of the object member pointer names,
// for diagnostics about the key itself rather than its value.
func (d *Document) KeySpan(pointer string) (Span, bool) {
	n, _, m := d.resolve(pointer)
	if n == nil || m == nil {
		return Span{}, false
	}
	return m.KeySpan, true
}

// resolve follows pointer from the root. It returns the value pointer names
// (nil if absent), the deepest value reached on the way, and the member
// whose value was reached last when the final step was into an object.
func (d *Document) resolve(pointer string) (n, deepest *Node, last *Member) {
	if d == nil || d.Root == nil {
		return nil, nil, nil
	}
	n = d.Root
	if pointer == "" {
		return n, n, nil
	}
	if pointer[0] != '/' {
		return nil, nil, nil
	}
	rest := pointer[1:]
	for {
		tok, more := rest, false
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			tok, rest, more = rest[:i], rest[i+1:], true
		}
		tok, valid := unescapeToken(tok)
		if !valid {
			return nil, nil, nil
		}
		deepest, last = n, nil
		switch n.Kind {
		case Object:
			last = n.Member(tok)
			if last == nil {
				return nil, deepest, nil
			}
			n = last.Value
		case Array:
			i, ok := arrayIndex(tok)
			if !ok || i >= len(n.Items) {
				return nil, deepest, nil
			}
			n = n.Items[i]
		default:
			return nil, deepest, nil
		}
		if !more {
			return n, n, last
		}
	}
}

func unescapeToken(tok string) (string, bool) {
	if strings.IndexByte(tok, '~') < 0 {
		return tok, true
	}
	var b strings.Builder
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(tok) {
			return "", false
		}
		i++
		switch tok[i] {
		case '0':
			b.WriteByte('~')
		case '1':
			b.WriteByte('/')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// arrayIndex parses an RFC 6901 array index: decimal, no leading zeros.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (tok[0] == '0' && len(tok) > 1) {
		return 0, false
	}
	i := 0
	for _, c := range []byte(tok) {
		if c < '0' || c > '9' {
			return 0, false
		}
		i = i*10 + int(c-'0')
	}
	return i, true
}
