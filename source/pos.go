package source

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a place in a file. Its fields are 32 bits (a file dws reads is at most
// MaxFileSize, and ParseString refuses one of 2 GiB): a value tree holds two Pos a
// value, and four a member, and at 64 bits they were a third of its memory.
type Pos struct {
	Offset int32 // 0-based byte offset
	Line   int32 // 1-based
	Col    int32 // 1-based, in Unicode code points
}

// Span is a range of a file; End is exclusive.
type Span struct {
	Start, End Pos
}

// lineStarts returns the byte offset at which each line begins. Lines end at
// \n, \r\n or a lone \r; for YAML also at NEL, LS and PS, because yaml.v4
// counts those as line breaks and its line numbers must agree with ours (the
// YAML loader refuses them, but only once it has found one, by position).
func lineStarts(b string, unicodeBreaks bool) []int {
	first := bomLen(b)
	starts := make([]int, 1, 16+len(b)/32)
	starts[0] = first
	if !unicodeBreaks && strings.IndexByte(b, '\r') < 0 {
		for i := first; ; {
			j := strings.IndexByte(b[i:], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			starts = append(starts, i)
		}
	}
	for i := first; i < len(b); i++ {
		switch b[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			starts = append(starts, i+1)
		case 0xC2:
			if unicodeBreaks && i+1 < len(b) && b[i+1] == 0x85 {
				starts = append(starts, i+2)
				i++
			}
		case 0xE2:
			if unicodeBreaks && i+2 < len(b) && b[i+1] == 0x80 && (b[i+2] == 0xA8 || b[i+2] == 0xA9) {
				starts = append(starts, i+3)
				i += 2
			}
		}
	}
	return starts
}

// lineTable returns the byte offset at which each line starts, made on first need
// (safe for concurrent use).
func (d *Document) lineTable() []int {
	if d.lines != nil {
		return d.lines
	}
	if p := d.lazyLines.Load(); p != nil {
		return *p
	}
	l := lineStarts(d.Text, d.Format == YAML)
	d.lazyLines.Store(&l)
	return l
}

// PosAt returns the position of a byte offset, clamped into the file.
func (d *Document) PosAt(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(d.Text) {
		offset = len(d.Text)
	}
	lines := d.lineTable()
	l := sort.Search(len(lines), func(i int) bool { return lines[i] > offset }) - 1
	if l < 0 {
		// Inside the byte order mark, which has no column of its own.
		return Pos{Offset: int32(offset), Line: 1, Col: 1}
	}
	return Pos{Offset: int32(offset), Line: int32(l + 1), Col: int32(1 + utf8.RuneCountInString(d.Text[lines[l]:offset]))}
}

// lineBounds returns the byte range of 1-based line n without its line
// break, or ok=false when there is no such line.
func (d *Document) lineBounds(n int) (start, end int, ok bool) {
	lines := d.lineTable()
	if n < 1 || n > len(lines) {
		return 0, 0, false
	}
	start = lines[n-1]
	if n == len(lines) {
		return start, len(d.Text), true
	}
	end = lines[n]
	t := d.Text
	switch {
	case end > start && t[end-1] == '\n':
		end--
		if end > start && t[end-1] == '\r' {
			end--
		}
	case end > start && t[end-1] == '\r':
		end--
	default:
		_, size := utf8.DecodeLastRuneInString(t[start:end])
		end -= size
	}
	return start, end, true
}

// Line returns the text of 1-based line n without its line break, or "" when
// there is no such line.
func (d *Document) Line(n int) string {
	start, end, ok := d.lineBounds(n)
	if !ok {
		return ""
	}
	return strings.Clone(d.Text[start:end]) // a line kept must not keep the file
}
