package source

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
	"go.yaml.in/yaml/v4/plugin/loaderlimits"
)

// maxNodes bounds the values a YAML document may expand to. Aliases make a
// few hundred bytes worth a billion values; no workflow file needs more
// than a tiny fraction of this.
const maxNodes = 1_000_000

var (
	tooManyAliases = fmt.Sprintf("too many aliases (alias expansion exceeds %d values)", maxNodes)
	tooManyValues  = fmt.Sprintf("too many values (a document holds at most %d)", maxNodes)
)

// yamlBuilder turns a yaml.v4 node tree into Nodes, computing the spans
// yaml.v4 does not give (it only knows where a node starts).
type yamlBuilder struct {
	doc   *Document
	src   string
	slab  []Node
	count int
	sizes map[*yaml.Node]int // expanded size of anchored nodes; -1 while counting

	// aliased is set when the document uses an alias at all.
	aliased bool

	// copySpan is set while an alias is expanded: the copied values have no
	// text of their own, so they all point at the alias.
	copySpan *Span

	// indent is the indentation of the innermost block collection around the node
	// being built, -1 outside any; inFlow is set inside a flow collection.
	indent int
	inFlow bool
}

// yamlFailure carries an *Error out of the recursive builder.
type yamlFailure struct{ err *Error }

func parseYAML(d *Document) (root *Node, err *Error) {
	if err := checkYAMLChars(d); err != nil {
		return nil, err
	}
	text, err := yamlDirectives(d)
	if err != nil {
		return nil, err
	}
	b := &yamlBuilder{doc: d, src: d.Text, sizes: map[*yaml.Node]int{}, indent: -1}
	// yaml.v4 has been known to panic on hostile input; a linter must
	// report that as a broken file, not crash.
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(yamlFailure); ok {
				root, err = nil, f.err
				return
			}
			root, err = nil, d.errorAt(bomLen(d.Text), fmt.Sprintf("YAML parser failed: %v", r))
		}
	}()
	top, err := b.load(text)
	if err != nil {
		return nil, err
	}
	if top.Kind == yaml.ScalarNode && top.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		// yaml.v4 reads a block scalar at the top, whose text may start in column 1,
		// on through a document marker: "|\nx\n...\n" would be "x\n...\n", and a
		// second document part of the first. YAML 1.2 ends the document there.
		if m, ok := b.markerAfter(int(b.doc.PosAt(b.startOf(top)).Line)); ok {
			if docMarker(text[m:], "---") {
				return nil, d.errorAt(m, moreThanOne)
			}
			if off, ok := b.afterEnd(m); ok {
				return nil, d.errorAt(off, moreThanOne)
			}
			if top, err = b.load(text[:m]); err != nil {
				return nil, err
			}
		}
	}
	b.aliased = hasAlias(top)
	b.size(top)
	root = b.build(top, 0)
	d.Comments = yamlComments(d, root)
	return root, nil
}

// load reads text's document (the parser's view of d.Text), which must be the only one.
func (b *yamlBuilder) load(text []byte) (*yaml.Node, *Error) {
	d := b.doc
	// The parser stops where dws would: deeper input is refused before it is all read.
	loader, e := yaml.NewLoader(bytes.NewReader(text), yaml.WithPlugin(loaderlimits.New(loaderlimits.DepthValue(maxDepth))))
	if e != nil {
		return nil, d.errorAt(bomLen(d.Text), fmt.Sprintf("YAML parser failed: %v", e))
	}
	var doc yaml.Node
	if e := loader.Load(&doc); e != nil {
		if errors.Is(e, io.EOF) {
			return nil, d.errorAt(bomLen(d.Text), "empty document")
		}
		return nil, b.yamlError(e)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, d.errorAt(bomLen(d.Text), "empty document")
	}
	top := doc.Content[0]
	var next yaml.Node
	switch e := loader.Load(&next); {
	case errors.Is(e, io.EOF):
	case e != nil:
		// A second document that does not parse either: the file's first fault is
		// holding it at all.
		if off, ok := b.markerAfter(top.Line); ok {
			if docMarker([]byte(b.src[off:]), "...") {
				off, ok = b.afterEnd(off)
			}
			if ok {
				return nil, d.errorAt(off, moreThanOne)
			}
		}
		return nil, b.yamlError(e)
	default:
		return nil, d.errorAt(b.lineOffset(next.Line), moreThanOne)
	}
	return top, nil
}

const moreThanOne = "more than one YAML document (a file holds exactly one)"

// markerAfter finds the first document marker ("---" or "...") on a line after the
// given one. No scalar holds a line starting with one (YAML 1.2 forbids it), so the
// first one found is a marker.
func (b *yamlBuilder) markerAfter(line int) (int, bool) {
	for n := line + 1; ; n++ {
		s, e, ok := b.doc.lineBounds(n)
		if !ok {
			return 0, false
		}
		if l := []byte(b.src[s:e]); docMarker(l, "---") || docMarker(l, "...") {
			return s, true
		}
	}
}

// afterEnd finds what follows the document end marker "..." at off: the start of
// another document, if anything but comments and more end markers follows.
func (b *yamlBuilder) afterEnd(off int) (int, bool) {
	for n := b.doc.PosAt(off).Line + 1; ; n++ {
		s, e, ok := b.doc.lineBounds(int(n))
		if !ok {
			return 0, false
		}
		if l := []byte(b.src[s:e]); !blankOrComment(l) && !docMarker(l, "...") {
			return s, true
		}
	}
}

// checkYAMLChars rejects the characters YAML forbids, with their position,
// which the parser's own message lacks. It also rejects NEL, LS and PS (U+0085,
// U+2028, U+2029): line breaks to YAML 1.1 and to the parser, ordinary characters
// to YAML 1.2, so that a file holding one raw would be read otherwise than YAML 1.2
// reads it (a list item split in two, a comment ending early).
func checkYAMLChars(d *Document) *Error {
	for i, r := range d.Text {
		if r >= 0x20 && r < 0x7F || r == '\t' || r == '\n' || r == '\r' {
			continue
		}
		if r == 0x85 || r == 0x2028 || r == 0x2029 {
			esc := map[rune]string{0x85: `\N`, 0x2028: `\L`, 0x2029: `\P`}[r]
			return d.errorAt(i, fmt.Sprintf("character %U is a line break to YAML 1.1 and a character to YAML 1.2, so readers disagree on this file; in a double-quoted string write it as %s", r, esc))
		}
		if r < 0x20 || r == 0x7F || r >= 0x80 && r < 0xA0 && r != 0x85 || r == 0xFFFE || r == 0xFFFF {
			if r == 0 {
				return d.errorAt(i, "NUL byte is not allowed")
			}
			return d.errorAt(i, fmt.Sprintf("control character %U is not allowed", r))
		}
	}
	return nil
}

// yamlError turns a yaml.v4 error into an *Error at the position the parser names.
func (b *yamlBuilder) yamlError(e error) *Error {
	var le *yaml.LoadError
	if !errors.As(e, &le) {
		return b.doc.errorAt(bomLen(b.doc.Text), strings.TrimPrefix(e.Error(), "yaml: "))
	}
	msg := le.Message
	if strings.HasPrefix(msg, "exceeded max depth") {
		msg = tooDeep
	}
	mark := le.Mark
	switch {
	case le.ContextMsg == "while scanning a simple key":
		// The parser notices the missing ':' where it gave up, often the next line;
		// the key that lacks it is what needs the change.
		mark = le.ContextMark
	case le.ContextMsg == "while scanning a quoted scalar" && strings.Contains(msg, "end of stream"):
		mark, msg = le.ContextMark, "this quoted string is never closed"
	}
	off := bomLen(b.doc.Text)
	if mark.Line > 0 {
		off = b.offsetOf(mark.Line, mark.Column)
	}
	return b.doc.errorAt(off, msg)
}

// lineOffset is the offset of the first non-blank character of a line.
func (b *yamlBuilder) lineOffset(line int) int {
	s, e, ok := b.doc.lineBounds(line)
	if !ok {
		return len(b.src)
	}
	for s < e && (b.src[s] == ' ' || b.src[s] == '\t') {
		s++
	}
	return s
}

// offsetOf converts yaml.v4's 1-based line and column (in characters) to a
// byte offset, clamped to the line.
func (b *yamlBuilder) offsetOf(line, col int) int {
	s, e, ok := b.doc.lineBounds(line)
	if !ok {
		return len(b.src)
	}
	off := s
	for k := 1; k < col && off < e; k++ {
		_, size := utf8.DecodeRuneInString(b.src[off:e])
		off += size
	}
	return off
}

func (b *yamlBuilder) span(start, end int) Span {
	if end < start {
		end = start
	}
	return Span{b.doc.PosAt(start), b.doc.PosAt(end)}
}

func (b *yamlBuilder) fail(offset int, msg string) {
	if b.copySpan != nil {
		offset = int(b.copySpan.Start.Offset)
	}
	panic(yamlFailure{b.doc.errorAt(offset, msg)})
}

func (b *yamlBuilder) failNode(y *yaml.Node, msg string) {
	b.fail(b.startOf(y), msg)
}

// size counts the values y expands to, failing once that exceeds maxNodes.
// Counting first means an alias bomb is refused before anything is built.
// hasAlias reports whether the tree holds an alias (each node looked at once).
func hasAlias(y *yaml.Node) bool {
	stack := []*yaml.Node{y}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.AliasNode {
			return true
		}
		stack = append(stack, n.Content...)
	}
	return false
}

func (b *yamlBuilder) size(y *yaml.Node) int {
	if y.Kind == yaml.AliasNode {
		if y.Alias == nil {
			b.failNode(y, fmt.Sprintf("unknown anchor %q", y.Value))
		}
		n, ok := b.sizes[y.Alias]
		if !ok {
			n = b.size(y.Alias)
		}
		if n < 0 {
			b.failNode(y, fmt.Sprintf("alias *%s refers to a value that contains it", y.Value))
		}
		return n
	}
	if y.Anchor != "" {
		b.sizes[y] = -1
	}
	total := 1
	for _, c := range y.Content {
		total += b.size(c)
		if total > maxNodes {
			if b.aliased {
				b.failNode(c, tooManyAliases)
			}
			b.failNode(c, tooManyValues)
		}
	}
	if y.Anchor != "" {
		b.sizes[y] = total
	}
	return total
}

func (b *yamlBuilder) newNode(k Kind, span Span, st style) *Node {
	if len(b.slab) == 0 {
		b.slab = make([]Node, min(max(len(b.src)/16, 16), 4096))
	}
	n := &b.slab[0]
	b.slab = b.slab[1:]
	n.Kind = k
	n.Span = span
	n.style = st
	if b.copySpan != nil {
		n.Span = *b.copySpan
		n.style = styleCopy
	}
	return n
}

// build converts y; depth counts the arrays and objects around it.
func (b *yamlBuilder) build(y *yaml.Node, depth int) *Node {
	b.count++
	if b.count > maxNodes {
		b.failNode(y, tooManyAliases)
	}
	switch y.Kind {
	case yaml.AliasNode:
		return b.alias(y, depth)
	case yaml.ScalarNode:
		return b.scalar(y)
	case yaml.SequenceNode:
		return b.sequence(y, depth+1)
	case yaml.MappingNode:
		return b.mapping(y, depth+1)
	}
	b.failNode(y, "unsupported YAML node")
	return nil
}

func (b *yamlBuilder) alias(y *yaml.Node, depth int) *Node {
	if y.Alias == nil {
		b.failNode(y, fmt.Sprintf("unknown anchor %q", y.Value))
	}
	if b.copySpan != nil {
		// An alias inside a copy: the outer alias is what the reader sees.
		return b.build(y.Alias, depth)
	}
	start := b.offsetOf(y.Line, y.Column)
	end := start
	if end < len(b.src) && b.src[end] == '*' {
		end = min(end+1+len(y.Value), len(b.src))
	}
	span := b.span(start, end)
	b.copySpan = &span
	defer func() { b.copySpan = nil }()
	return b.build(y.Alias, depth)
}

// startOf is where y's own text starts, after any anchor and tag.
func (b *yamlBuilder) startOf(y *yaml.Node) int {
	off := b.offsetOf(y.Line, y.Column)
	s := b.src
	for off < len(s) && (s[off] == '&' || s[off] == '!') {
		for off < len(s) && !isYAMLSpace(s[off]) {
			off++
		}
		// An empty value ends where its properties do; anything else
		// may start on a later line.
		empty := y.Kind == yaml.ScalarNode && y.Value == "" && y.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
		off = b.skipSpace(off, !empty)
	}
	return off
}

func isYAMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// skipSpace skips blanks and, if lines is set, line breaks and comments.
func (b *yamlBuilder) skipSpace(off int, lines bool) int {
	s := b.src
	for off < len(s) {
		switch c := s[off]; {
		case c == ' ' || c == '\t':
		case lines && (c == '\r' || c == '\n'):
		case lines && c == '#':
			for off < len(s) && s[off] != '\n' && s[off] != '\r' {
				off++
			}
			continue
		default:
			return off
		}
		off++
	}
	return off
}

func (b *yamlBuilder) scalar(y *yaml.Node) *Node {
	start := b.startOf(y)
	end, st := b.scalarEnd(start, y)
	span := b.span(start, end)
	if b.copySpan == nil {
		switch st {
		case stylePlain:
			if !b.inFlow {
				b.flowLines(start, end, flowPlain)
			}
		case styleSingle, styleDouble:
			b.flowLines(start, end, flowQuoted)
		case styleLiteral, styleFolded:
			b.checkBlockLeading(start, b.indent)
		}
	}
	tag := y.ShortTag()
	// The non-specific tag ! makes a scalar a string (spec 6.9.1): "! 12" is "12".
	plain := y.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && y.Tag != "!"
	switch {
	case y.Style&yaml.TaggedStyle != 0:
		b.checkTag(start, y.Tag)
	case (tag == "!!int" || tag == "!!float") && !core12Number(y.Value):
		// yaml.v4 still resolves some YAML 1.1 forms (1_000, 0b101, 1:30) as numbers;
		// under the YAML 1.2 core schema a plain scalar like that is a string.
		tag = "!!str"
	case tag == "!!str" && plain && core12Number(y.Value):
		// yaml.v4 makes a number it cannot hold (1e400, a hundred thousand digits) a
		// string; under the YAML 1.2 core schema it is a number, and out of range, as
		// its JSON twin is.
		tag = "!!float"
	}
	switch tag {
	case "!!str", "!!timestamp", "!!binary", "!!merge":
		n := b.newNode(String, span, st)
		n.Text = y.Value
		return n
	case "!!null":
		switch y.Value {
		case "", "~", "null", "Null", "NULL":
		default:
			b.fail(start, fmt.Sprintf("cannot read %q as null", y.Value))
		}
		return b.newNode(Null, span, st)
	case "!!bool":
		n := b.newNode(Bool, span, st)
		switch y.Value {
		case "true", "True", "TRUE":
			n.Bool = true
		case "false", "False", "FALSE":
		default:
			b.fail(start, fmt.Sprintf("cannot read %q as a boolean", y.Value))
		}
		return n
	case "!!int", "!!float":
		switch strings.ToLower(y.Value) {
		case ".inf", "+.inf", "-.inf", ".nan":
			b.fail(start, fmt.Sprintf("%s has no JSON form; quote it to make it a string", y.Value))
		}
		lit, ok := yamlInt(y.Value)
		if !ok && tag == "!!float" {
			lit, ok = yamlFloat(y.Value)
		}
		if !ok {
			b.fail(start, fmt.Sprintf("cannot read %q as a number", y.Value))
		} else if msg := numberRange(lit); msg != "" {
			b.fail(start, msg)
		}
		n := b.newNode(Number, span, st)
		n.Text = lit
		return n
	}
	b.fail(start, fmt.Sprintf("tag %s cannot be used on a scalar", tag))
	return nil
}

// checkTag refuses tags outside the YAML core set: what a custom tag means
// is up to an application, and JSON has no place to keep it.
func (b *yamlBuilder) checkTag(off int, tag string) {
	switch tag {
	case "!!str", "!!int", "!!float", "!!bool", "!!null", "!!timestamp", "!!binary", "!!seq", "!!map", "!!merge":
		return
	}
	if strings.HasPrefix(tag, "!!") {
		b.fail(off, fmt.Sprintf("tag %s is not supported", tag))
	}
	b.fail(off, fmt.Sprintf("custom tag %s is not supported", tag))
}

// scalarEnd finds where the scalar starting at start ends, from its style.
func (b *yamlBuilder) scalarEnd(start int, y *yaml.Node) (int, style) {
	s := b.src
	switch {
	case y.Style&yaml.DoubleQuotedStyle != 0:
		return quotedEnd(s, start, '"'), styleDouble
	case y.Style&yaml.SingleQuotedStyle != 0:
		return quotedEnd(s, start, '\''), styleSingle
	case y.Style&yaml.LiteralStyle != 0:
		return b.blockEnd(start, y.Value, true), styleLiteral
	case y.Style&yaml.FoldedStyle != 0:
		return b.blockEnd(start, y.Value, false), styleFolded
	}
	if y.Value == "" || strings.HasPrefix(s[start:], y.Value) {
		return start + len(y.Value), stylePlain
	}
	// A plain scalar folded over several lines.
	return walkScalar(s, start, len(s), y.Value, len(y.Value), stylePlain), stylePlain
}

// quotedEnd returns the offset just past the closing quote of the quoted
// scalar at start.
func quotedEnd(s string, start int, q byte) int {
	if start >= len(s) || s[start] != q {
		return start
	}
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if q == '"' {
				i++
			}
		case q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(s)
}

// blockEnd returns the end of the last non-empty line of the block scalar
// whose header (| or >) is at start.
func (b *yamlBuilder) blockEnd(start int, value string, literal bool) int {
	header := start
	for header < len(b.src) && strings.IndexByte("|>+-0123456789", b.src[header]) >= 0 {
		header++
	}
	trimmed := strings.TrimRight(value, "\n")
	if trimmed == "" {
		return header
	}
	line := int(b.doc.PosAt(start).Line)
	if literal {
		// A literal scalar has one line of value per line of text.
		if _, end, ok := b.doc.lineBounds(line + 1 + strings.Count(trimmed, "\n")); ok {
			return end
		}
		return len(b.src)
	}
	first, _, ok := b.doc.lineBounds(line + 1)
	if !ok {
		return header
	}
	return walkScalar(b.src, first, len(b.src), value, len(trimmed), stylePlain)
}

func (b *yamlBuilder) sequence(y *yaml.Node, depth int) *Node {
	if depth > maxDepth {
		b.failNode(y, tooDeep)
	}
	if y.Style&yaml.TaggedStyle != 0 && y.Tag != "!!seq" {
		b.checkTag(b.startOf(y), y.Tag)
		b.failNode(y, fmt.Sprintf("tag %s cannot be used on a sequence", y.Tag))
	}
	start := b.startOf(y)
	items := make([]*Node, len(y.Content))
	end := start
	outer := b.enter(y)
	for i, c := range y.Content {
		items[i] = b.build(c, depth)
		end = max(end, int(items[i].Span.End.Offset))
	}
	b.leave(outer)
	if y.Style&yaml.FlowStyle != 0 {
		end = b.closeBracket(max(end, start+1), ']')
		b.flowLines(start, end, flowCollection)
	}
	n := b.newNode(Array, b.span(start, end), stylePlain)
	n.Items = items
	return n
}

// closeBracket returns the offset past the bracket closing a flow
// collection whose content ends at off, or off if it cannot be found.
func (b *yamlBuilder) closeBracket(off int, close byte) int {
	i := b.skipSpace(off, true)
	for i < len(b.src) && (b.src[i] == ',' || b.src[i] == ':' || b.src[i] == '?') {
		i = b.skipSpace(i+1, true)
	}
	if i < len(b.src) && b.src[i] == close {
		return i + 1
	}
	return off
}

func (b *yamlBuilder) mapping(y *yaml.Node, depth int) *Node {
	if depth > maxDepth {
		b.failNode(y, tooDeep)
	}
	if y.Style&yaml.TaggedStyle != 0 && y.Tag != "!!map" {
		b.checkTag(b.startOf(y), y.Tag)
		b.failNode(y, fmt.Sprintf("tag %s cannot be used on a mapping", y.Tag))
	}
	start := b.startOf(y)
	end := start
	pairs := len(y.Content) / 2
	members := make([]Member, 0, pairs)
	var merges []int   // indexes into members where merged members go
	var merged []*Node // what to merge there
	var seen map[string]Span
	if pairs > 16 {
		seen = make(map[string]Span, pairs)
	}
	outer := b.enter(y)
	for k := 0; k+1 < len(y.Content); k += 2 {
		ky, vy := y.Content[k], y.Content[k+1]
		if ky.Kind == yaml.ScalarNode && ky.ShortTag() == "!!merge" {
			v := b.build(vy, depth)
			merges = append(merges, len(members))
			merged = append(merged, v)
			end = max(end, int(v.Span.End.Offset))
			continue
		}
		key := b.build(ky, depth)
		if key.Kind != String {
			b.fail(int(key.Span.Start.Offset), keyNotString(key, ky))
		}
		if seen != nil {
			if first, dup := seen[key.Text]; dup {
				b.fail(int(key.Span.Start.Offset), duplicateKey(key.Text, first))
			}
			seen[key.Text] = key.Span
		} else {
			for _, m := range members {
				if m.Key == key.Text {
					b.fail(int(key.Span.Start.Offset), duplicateKey(key.Text, m.KeySpan))
				}
			}
		}
		v := b.build(vy, depth)
		if b.copySpan == nil && vy.Kind == yaml.ScalarNode && vy.Value == "" && v.Kind == Null && vy.Anchor == "" && vy.Style == 0 {
			// "key:" with nothing after it: yaml.v4 places the null
			// wherever the next token is; the colon is a better place.
			off := b.skipSpace(int(key.Span.End.Offset), false)
			if off < len(b.src) && b.src[off] == ':' {
				off++
			}
			v.Span = b.span(off, off)
		}
		members = append(members, Member{Key: key.Text, KeySpan: key.Span, Value: v})
		end = max(end, int(v.Span.End.Offset), int(key.Span.End.Offset))
	}
	b.leave(outer)
	if merges != nil {
		members = b.merge(members, merges, merged)
	}
	if y.Style&yaml.FlowStyle != 0 {
		end = b.closeBracket(max(end, start+1), '}')
		b.flowLines(start, end, flowCollection)
	}
	n := b.newNode(Object, b.span(start, end), stylePlain)
	n.Members = members
	return n
}

// merge applies merge keys: keys written in the mapping win over merged
// ones, and among merged mappings the earlier wins, as in YAML 1.1's
// merge type that yaml.v4 follows.
func (b *yamlBuilder) merge(own []Member, at []int, merged []*Node) []Member {
	have := make(map[string]bool, len(own))
	for _, m := range own {
		have[m.Key] = true
	}
	out := make([]Member, 0, len(own))
	next := 0
	for i, v := range merged {
		out = append(out, own[next:at[i]]...)
		next = at[i]
		sources := []*Node{v}
		if v.Kind == Array {
			sources = v.Items
		}
		for _, src := range sources {
			if src.Kind != Object {
				b.fail(int(v.Span.Start.Offset), "a merge key (<<) needs a mapping or a list of mappings")
			}
			for _, m := range src.Members {
				if !have[m.Key] {
					have[m.Key] = true
					out = append(out, m)
				}
			}
		}
	}
	return append(out, own[next:]...)
}

func keyNotString(key *Node, y *yaml.Node) string {
	switch key.Kind {
	case Array, Object:
		return fmt.Sprintf("keys must be strings (this key is an %s)", key.Kind)
	case Null:
		if y.Value == "" {
			return "keys must be strings (an empty key is null)"
		}
	}
	return fmt.Sprintf("keys must be strings (%s is a %s here; quote it)", y.Value, key.Kind)
}

// yamlInt converts what yaml.v4 reads as an integer (decimal, 0x, 0o, 0b,
// 1.1-style 0777 octal, underscores) to a decimal literal, exactly, however
// large.
// The YAML 1.2 core schema's number forms (spec 10.3.2), besides .inf and .nan.
var (
	core12Int   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$`) })
	core12Float = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)
	})
)

func core12Number(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case ".inf", ".nan":
		return true
	}
	return core12Int().MatchString(s) || core12Float().MatchString(s)
}

// yamlInt reads an integer the YAML 1.2 core schema way: decimal (leading zeros are
// decimal, not octal as in YAML 1.1), 0o octal, 0x hex.
func yamlInt(s string) (string, bool) {
	var z big.Int
	base := 10
	digits := strings.TrimPrefix(s, "+")
	switch {
	case strings.HasPrefix(s, "0o"):
		base, digits = 8, s[2:]
	case strings.HasPrefix(s, "0x"):
		base, digits = 16, s[2:]
	}
	if _, ok := z.SetString(digits, base); !ok {
		return "", false
	}
	return z.String(), true
}

// yamlFloat rewrites a YAML float as a JSON number literal by syntax alone,
// so that no digit is lost to a round trip through float64.
func yamlFloat(s string) (string, bool) {
	s = strings.ReplaceAll(s, "_", "")
	i := 0
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	a := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	whole, frac := s[a:i], ""
	if i < len(s) && s[i] == '.' {
		i++
		a = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		frac = s[a:i]
	}
	if whole == "" && frac == "" {
		return "", false
	}
	exp := ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		a = i
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if d == i {
			return "", false
		}
		exp = s[a:i]
	}
	if i != len(s) {
		return "", false
	}
	var out strings.Builder
	if neg {
		out.WriteByte('-')
	}
	whole = strings.TrimLeft(whole, "0")
	if whole == "" {
		whole = "0"
	}
	out.WriteString(whole)
	if frac != "" {
		out.WriteByte('.')
		out.WriteString(frac)
	}
	out.WriteString(exp)
	return out.String(), true
}
