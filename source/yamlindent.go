package source

import (
	"fmt"

	yaml "go.yaml.in/yaml/v4"
)

// YAML 1.2's indentation rules that yaml.v4 does not enforce, checked on the spans the
// builder computes. Each one turns a document yaml.v4 accepts and YAML 1.2 refuses
// into a parse error (yaml-test-suite 9C9N, QB6E, DK95/01, Y79Y/03, S98Z).

// flowKind is what a node spread over several lines inside a block collection is.
type flowKind uint8

const (
	flowCollection flowKind = iota // [...] or {...}
	flowQuoted                     // '...' or "..."
	flowPlain                      // a plain scalar folded over lines
)

// blockIndent is the indentation of the block collection y: the column (0-based) of its
// first entry, past any anchor or tag of its own.
func (b *yamlBuilder) blockIndent(y *yaml.Node) int {
	off := b.offsetOf(y.Line, y.Column)
	if y.Anchor != "" || y.Style&yaml.TaggedStyle != 0 || y.Tag == "!" {
		off = b.startOf(y)
	}
	return int(b.doc.PosAt(off).Col - 1)
}

// checkFlowLines refuses a line of a flow node (spread from start to end) that is not
// indented past n, the indentation of the block collection around it (spec 7.3.1,
// s-flow-line-prefix): a flow node in a block collection must stay to the right of
// it, and a tab does not count as indentation. Left alone are lines with no text
// (empty, or in a flow collection white space or a comment), and, as in YAML
// parsers that follow the spec closely (eemeli/yaml), the closing bracket of a flow
// collection on its own line at the block's indentation.
func (b *yamlBuilder) checkFlowLines(start, end, n int, kind flowKind) {
	first, last := b.doc.PosAt(start).Line, b.doc.PosAt(end).Line
	for line := first + 1; line <= last; line++ {
		s, e, ok := b.doc.lineBounds(int(line))
		if !ok {
			return
		}
		k := 0
		for s+k < e && b.src[s+k] == ' ' {
			k++
		}
		if k > n {
			continue
		}
		if s+k == e {
			continue // an empty line
		}
		r := s + k
		for r < e && (b.src[r] == ' ' || b.src[r] == '\t') {
			r++
		}
		if kind != flowQuoted && (r == e || b.src[r] == '#') {
			continue // white space or a comment between the entries
		}
		if kind == flowCollection && line == last && k >= n && (b.src[r] == ']' || b.src[r] == '}') {
			continue
		}
		what := "a flow collection"
		switch kind {
		case flowQuoted:
			what = "a quoted string"
		case flowPlain:
			what = "a plain string"
		}
		spaces := "spaces"
		if n == 0 {
			spaces = "space"
		}
		msg := fmt.Sprintf("this line continues %s inside a block at indentation %d, so it must be indented by at least %d %s", what, n, n+1, spaces)
		if r > s+k && b.src[s+k] == '\t' {
			msg += " (a tab does not indent)"
		}
		b.fail(s+k, msg)
	}
}

// checkBlockLeading refuses a block scalar whose indentation is left to be detected
// (no |2 or >2) while one of its leading empty lines holds more spaces than its first
// line of text (spec 8.1.1.1): YAML 1.2 calls that an error, yaml.v4 reads on with the
// wider indentation. header is the offset of the | or >; n the indentation of the block
// collection around the scalar (-1 at the top).
func (b *yamlBuilder) checkBlockLeading(header, n int) {
	s := b.src
	i := header + 1
	for i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] >= '0' && s[i] <= '9') {
		if s[i] >= '0' && s[i] <= '9' {
			return // an explicit indentation
		}
		i++
	}
	line := b.doc.PosAt(header).Line
	widest := 0
	for l := line + 1; ; l++ {
		ls, le, ok := b.doc.lineBounds(int(l))
		if !ok {
			return
		}
		k := 0
		for ls+k < le && s[ls+k] == ' ' {
			k++
		}
		if ls+k == le {
			widest = max(widest, k)
			continue
		}
		if k > n && widest > k {
			b.fail(ls+k, "a block scalar whose leading empty lines hold more spaces than its first line of text needs an indentation indicator (such as |2)")
		}
		return
	}
}

// enter notes the block or flow collection y as the one around the nodes built until
// leave is called with what enter returns.
func (b *yamlBuilder) enter(y *yaml.Node) (outer blockState) {
	outer = blockState{b.indent, b.inFlow}
	switch {
	case y.Style&yaml.FlowStyle != 0:
		b.inFlow = true
	case b.copySpan == nil:
		b.indent = b.blockIndent(y)
	}
	return outer
}

// blockState is the collection context enter saves and leave restores.
type blockState struct {
	indent int
	inFlow bool
}

func (b *yamlBuilder) leave(outer blockState) { b.indent, b.inFlow = outer.indent, outer.inFlow }

// flowLines checks a flow node's lines when it stands in a block collection (not
// within a flow collection, whose own check covers it, nor in an alias's copy).
func (b *yamlBuilder) flowLines(start, end int, kind flowKind) {
	if b.copySpan != nil || b.indent < 0 || kind != flowQuoted && b.inFlow {
		return
	}
	b.checkFlowLines(start, end, b.indent, kind)
}
