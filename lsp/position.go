package lsp

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// text is a document's content with its line starts, for converting between byte
// offsets, dws's positions (1-based line, 1-based column in code points) and LSP's
// (0-based line, 0-based character in UTF-16 code units). Lines end at \n, \r\n or \r,
// as LSP says.
type text struct {
	s     string
	lines []int // byte offset of each line's start
}

func newText(s string) *text {
	t := &text{s: s, lines: []int{0}}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			t.lines = append(t.lines, i+1)
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line is the content of line n (0-based) without its line break.
func (t *text) line(n int) string {
	if n < 0 || n >= len(t.lines) {
		return ""
	}
	start, end := t.lines[n], len(t.s)
	if n+1 < len(t.lines) {
		end = t.lines[n+1]
	}
	for end > start && (t.s[end-1] == '\n' || t.s[end-1] == '\r') {
		end--
	}
	return t.s[start:end]
}

// offset is the byte offset of an LSP position; a character past the end of its line
// is the end of the line, a line past the end is the end of the text.
func (t *text) offset(p protocol.Position) int {
	n := int(p.Line)
	if n >= len(t.lines) {
		return len(t.s)
	}
	line := t.line(n)
	units := 0
	for i, r := range line {
		if units >= int(p.Character) {
			return t.lines[n] + i
		}
		units += utf16Len(r)
	}
	return t.lines[n] + len(line)
}

// position is the LSP position of a byte offset.
func (t *text) position(off int) protocol.Position {
	off = max(0, min(off, len(t.s)))
	n := sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
	line := t.line(n)
	col := min(off-t.lines[n], len(line))
	units := 0
	for _, r := range line[:col] {
		units += utf16Len(r)
	}
	return protocol.Position{Line: uint32(n), Character: uint32(units)}
}

// fromColumn is the LSP position of dws's line and column (1-based, code points).
func (t *text) fromColumn(line, col int) protocol.Position {
	n := max(line-1, 0)
	if n >= len(t.lines) {
		return t.position(len(t.s))
	}
	s := t.line(n)
	units, k := 0, 1
	for _, r := range s {
		if k >= col {
			break
		}
		units += utf16Len(r)
		k++
	}
	return protocol.Position{Line: uint32(n), Character: uint32(units)}
}

// rangeOf is the LSP range of a dws span given by line and column (an end line of 0
// means an empty span at the start).
func (t *text) rangeOf(line, col, endLine, endCol int) protocol.Range {
	start := t.fromColumn(line, col)
	if endLine == 0 {
		return protocol.Range{Start: start, End: start}
	}
	return protocol.Range{Start: start, End: t.fromColumn(endLine, endCol)}
}

// span is the LSP range of the bytes [from, to).
func (t *text) span(from, to int) protocol.Range {
	return protocol.Range{Start: t.position(from), End: t.position(to)}
}

func utf16Len(r rune) int {
	if r == utf8.RuneError {
		return 1
	}
	return len(utf16.Encode([]rune{r}))
}
