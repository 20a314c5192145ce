package source

import (
	"strings"
	"unicode/utf8"
)

// StringPos returns the position in the file of the character at byte
// offset i of the decoded string n.Text, so that a diagnostic about part of
// a string (an expression inside it, say) can point inside the literal.
// It is exact for JSON and for YAML plain, quoted and literal (|) scalars,
// and best effort for folded (>) scalars and for values copied by an alias
// (those point at the alias). It never leaves the node's span.
func (d *Document) StringPos(n *Node, i int) Pos {
	if n == nil {
		return Pos{}
	}
	start, end := int(n.Span.Start.Offset), int(n.Span.End.Offset)
	if n.Kind != String || start < 0 || end > len(d.Text) || start > end {
		return n.Span.Start
	}
	i = min(max(i, 0), len(n.Text))
	var off int
	if d.Format == JSON {
		off = jsonStringOffset(d.Text, start, end, i)
	} else {
		off = d.yamlStringOffset(n, i)
	}
	off = min(max(off, start), end)
	for off > start && off < len(d.Text) && !utf8.RuneStart(d.Text[off]) {
		off--
	}
	return d.PosAt(off)
}

func jsonStringOffset(d string, start, end, i int) int {
	off, limit := start+1, end-1
	for j := 0; j < i && off < limit; {
		if d[off] == '\\' {
			r, n := jsonEscape(d, off)
			dec := utf8.RuneLen(r)
			if dec < 0 {
				dec = 3
			}
			if j+dec > i {
				return off
			}
			off += n
			j += dec
			continue
		}
		off++
		j++
	}
	return off
}

func (d *Document) yamlStringOffset(n *Node, i int) int {
	start, end := int(n.Span.Start.Offset), int(n.Span.End.Offset)
	s := d.Text
	switch n.style {
	case styleCopy:
		return start
	case styleDouble, styleSingle:
		return walkScalar(s, start+1, max(end-1, start+1), n.Text, i, n.style)
	case styleLiteral:
		return d.literalOffset(n, i)
	case styleFolded:
		first, _, ok := d.lineBounds(int(n.Span.Start.Line) + 1)
		if !ok {
			return start
		}
		return walkScalar(s, first, end, n.Text, i, stylePlain)
	}
	return walkScalar(s, start, end, n.Text, i, stylePlain)
}

// literalOffset maps into a literal block scalar, where line k of the value
// is line k after the header, behind the block's indentation.
func (d *Document) literalOffset(n *Node, i int) int {
	v := n.Text
	k := strings.Count(v[:i], "\n")
	vs := strings.LastIndexByte(v[:i], '\n') + 1
	ve := strings.IndexByte(v[i:], '\n')
	if ve < 0 {
		ve = len(v)
	} else {
		ve += i
	}
	ls, le, ok := d.lineBounds(int(n.Span.Start.Line) + 1 + k)
	if !ok {
		return int(n.Span.End.Offset)
	}
	indent := max((le-ls)-(ve-vs), 0)
	return min(ls+indent+(i-vs), le)
}

// walkScalar walks the scalar text s[off:limit] alongside its value v and
// returns the offset of the text that v[i] came from. Where YAML folding
// turned line breaks and indentation into spaces, it resynchronises on the
// next character both sides share.
func walkScalar(s string, off, limit int, v string, i int, st style) int {
	off = walkTo(s, off, limit, v, i, st)
	if i >= len(v) || v[i] == ' ' || v[i] == '\t' || v[i] == '\n' {
		return off
	}
	// v[i] is a visible character: step over what decodes to nothing
	// before it (folded line breaks, indentation, escaped line breaks).
	for off < limit {
		switch c := s[off]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			off++
			continue
		case st == styleDouble && c == '\\':
			if n, dec := yamlEscape(s, off, limit); dec == 0 {
				off += n
				continue
			}
		}
		break
	}
	return off
}

func walkTo(s string, off, limit int, v string, i int, st style) int {
	for j := 0; j < i && off < limit; {
		c := s[off]
		switch {
		case st == styleDouble && c == '\\':
			n, dec := yamlEscape(s, off, limit)
			if dec > 0 && j+dec > i {
				return off
			}
			off += n
			j += dec
		case st == styleSingle && c == '\'' && off+1 < limit && s[off+1] == '\'':
			off += 2
			j++
		case c == v[j]:
			off++
			j++
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			off++
		case v[j] == ' ' || v[j] == '\t' || v[j] == '\n':
			j++
		default:
			off++
			j++
		}
	}
	return off
}

// yamlEscape returns the length in s of the double-quoted escape at off and
// the length in bytes of what it decodes to.
func yamlEscape(s string, off, limit int) (n, dec int) {
	if off+1 >= limit {
		return 1, 0
	}
	switch c := s[off+1]; c {
	case '\r', '\n':
		// An escaped line break joins lines; it and the next line's
		// indentation decode to nothing.
		j := off + 2
		if c == '\r' && j < limit && s[j] == '\n' {
			j++
		}
		for j < limit && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		return j - off, 0
	case 'N', '_':
		return 2, 2 // U+0085, U+00A0
	case 'L', 'P':
		return 2, 3 // U+2028, U+2029
	case 'x':
		n = 4
	case 'u':
		n = 6
	case 'U':
		n = 10
	default:
		return 2, 1
	}
	if off+n > limit {
		return 2, 1
	}
	var r rune
	for _, h := range []byte(s[off+2 : off+n]) {
		switch {
		case h >= '0' && h <= '9':
			r = r<<4 | rune(h-'0')
		case h >= 'a' && h <= 'f':
			r = r<<4 | rune(h-'a'+10)
		case h >= 'A' && h <= 'F':
			r = r<<4 | rune(h-'A'+10)
		default:
			return 2, 1
		}
	}
	if dec = utf8.RuneLen(r); dec < 0 {
		dec = 3
	}
	return n, dec
}
