package source

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds nesting of arrays and objects. Real workflow files stay
// far below it; the bound keeps hostile input from exhausting the stack.
const maxDepth = 1000

var tooDeep = fmt.Sprintf("nesting deeper than %d levels", maxDepth)

// jsonParser is a recursive-descent RFC 8259 parser. Recursion is bounded by
// maxDepth. It tracks line and column as it goes, because looking them up
// per value would cost more than the parse.
type jsonParser struct {
	doc  *Document
	data string // the document's text: undecorated strings and numbers share it
	i    int

	line      int
	lineStart int // offset of the current line's first byte
	cont      int // UTF-8 continuation bytes since lineStart, to count code points

	slab    []Node // nodes are handed out from chunks to save allocations
	chunk   int
	spare   [][]Node // made, not yet handed out (fresh)
	grown   bool     // past the first chunk, the estimate's
	mslab   []Member // members are handed out from chunks too
	mchunk  int
	islab   []*Node  // and array items
	items   []*Node  // scratch stack of array items under construction
	members []Member // scratch stack of object members under construction
	buf     []byte   // scratch for decoding escaped strings

	err *Error
}

// jsonScratch is a parser's scratch stacks, kept from one document to the next: grown
// afresh for every file, they were a tenth of the parse.
type jsonScratch struct {
	items   []*Node
	members []Member
	buf     []byte
}

var scratches = sync.Pool{New: func() any { return new(jsonScratch) }}

// maxChunk bounds the nodes of one chunk: about a megabyte of them.
const maxChunk = 1 << 13

// maxScratch bounds the scratch a pool keeps (a document with a huge array grows it).
const maxScratch = 4096

func parseJSON(d *Document) (*Node, *Error) {
	p := &jsonParser{doc: d, data: d.Text, line: 1}
	s := scratches.Get().(*jsonScratch)
	p.items, p.members, p.buf = s.items[:0], s.members[:0], s.buf[:0]
	defer func() {
		if cap(p.items) > maxScratch || cap(p.members) > maxScratch || cap(p.buf) > 16*maxScratch {
			return
		}
		// No node or key of this document stays reachable from the pool.
		clear(p.items[:cap(p.items)])
		clear(p.members[:cap(p.members)])
		s.items, s.members, s.buf = p.items, p.members, p.buf
		scratches.Put(s)
	}()
	p.i = bomLen(p.data)
	p.lineStart = p.i
	// Each member value follows a ':' and each array item a '[' or ','
	// (as do most members), so a vectorised count of those bytes sizes the
	// first chunk of nodes closely; a short estimate costs only more chunks.
	colons := strings.Count(p.data, ":")
	p.chunk = 1 + max(strings.Count(p.data, ","), colons) + strings.Count(p.data, "[")
	p.mchunk = colons
	p.space()
	if p.i == len(p.data) {
		return nil, d.errorAt(bomLen(p.data), "empty document")
	}
	n := p.value(0)
	if p.err != nil {
		return nil, p.err
	}
	p.space()
	if p.i < len(p.data) {
		p.unexpected(" after the top-level value")
		return nil, p.err
	}
	return n, nil
}

func (p *jsonParser) pos() Pos {
	return Pos{Offset: int32(p.i), Line: int32(p.line), Col: int32(p.i - p.lineStart - p.cont + 1)}
}

func (p *jsonParser) fail(offset int, msg string) {
	if p.err == nil {
		p.err = p.doc.errorAt(offset, msg)
	}
}

func (p *jsonParser) node(k Kind, start Pos) *Node {
	if len(p.slab) == 0 {
		p.nodeChunk()
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind = k
	n.Span.Start = start
	return n
}

// nodeChunk makes a new chunk of nodes current.
func (p *jsonParser) nodeChunk() {
	p.slab = p.fresh()
	// The estimate is close, and short by a few when arrays hold many items
	// (those follow commas): later chunks start small and double, so that a
	// short estimate does not cost a third of a document's nodes unused.
	if p.grown {
		p.chunk = min(2*p.chunk, 1024)
	} else {
		p.chunk = 16
	}
	p.grown = true
}

// fresh returns a new chunk of p.chunk nodes. A large document's first, estimated
// chunk comes as pieces of maxChunk nodes, all made at once: one run of hundreds of
// megabytes for a 4 MiB file was memory the next large file of a run could not reuse
// once smaller allocations had settled in it (a run's peak grew with its number of
// large files), and made at once the heap grows by the tree in one step, so the
// collector does not mark a growing tree over and over while it is parsed.
func (p *jsonParser) fresh() []Node {
	if len(p.spare) == 0 && !p.grown && p.chunk > maxChunk {
		p.spare = make([][]Node, 0, (p.chunk+maxChunk-1)/maxChunk)
		for n := p.chunk; n > 0; n -= maxChunk {
			p.spare = append(p.spare, make([]Node, min(n, maxChunk)))
		}
	}
	if len(p.spare) > 0 {
		c := p.spare[0]
		p.spare[0], p.spare = nil, p.spare[1:]
		return c
	}
	return make([]Node, p.chunk)
}

// memberSlice returns room for an object's k members, carved from chunks (the first
// sized by the text's colons, one a member) rather than one allocation per object.
func (p *jsonParser) memberSlice(k int) []Member {
	if k > len(p.mslab) {
		p.mslab = make([]Member, max(k, p.mchunk))
		p.mchunk = 64
	}
	m := p.mslab[:k:k]
	p.mslab = p.mslab[k:]
	return m
}

// itemSlice returns room for an array's k items, carved like memberSlice's.
func (p *jsonParser) itemSlice(k int) []*Node {
	if k > len(p.islab) {
		p.islab = make([]*Node, max(k, 64))
	}
	m := p.islab[:k:k]
	p.islab = p.islab[k:]
	return m
}

func (p *jsonParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t':
		case '\n':
			p.newline()
		case '\r':
			if p.i+1 >= len(p.data) || p.data[p.i+1] != '\n' {
				p.newline()
			}
		default:
			return
		}
		p.i++
	}
}

// newline records that the byte at p.i ends a line.
func (p *jsonParser) newline() {
	p.line++
	p.lineStart = p.i + 1
	p.cont = 0
}

// unexpected reports the byte at p.i, which fits nowhere; suffix says what
// was expected instead. Habits from other syntaxes get a message naming them.
func (p *jsonParser) unexpected(suffix string) {
	if p.i >= len(p.data) {
		p.fail(p.i, "unexpected end of input")
		return
	}
	switch c := p.data[p.i]; c {
	case '/', '#':
		p.fail(p.i, "comments are not allowed in JSON")
	case '\'':
		p.fail(p.i, "strings must use double quotes")
	case 0:
		p.fail(p.i, "unexpected NUL byte"+suffix)
	default:
		r, _ := utf8.DecodeRuneInString(p.data[p.i:])
		p.fail(p.i, "unexpected character "+quoteRune(r)+suffix)
	}
}

func quoteRune(r rune) string {
	if unicode.IsPrint(r) {
		return strconv.QuoteRune(r)
	}
	return fmt.Sprintf("%U", r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_'
}

// value parses the value at p.i; the caller has skipped white space.
func (p *jsonParser) value(depth int) *Node {
	if p.i >= len(p.data) {
		p.fail(p.i, "unexpected end of input")
		return nil
	}
	start := p.pos()
	c := p.data[p.i]
	switch {
	case c == '{':
		return p.object(start, depth+1)
	case c == '[':
		return p.array(start, depth+1)
	case c == '"':
		s, ok := p.string()
		if !ok {
			return nil
		}
		n := p.node(String, start)
		n.Text = s
		n.Span.End = p.pos()
		return n
	case c == '-' || isDigit(c):
		a := p.i
		if !p.number() {
			return nil
		}
		n := p.node(Number, start)
		n.Text = p.data[a:p.i]
		n.Span.End = p.pos()
		if len(n.Text) >= longNumber {
			p.doc.longNumbers = true
		}
		return n
	case c == '+':
		p.fail(p.i, "a number cannot start with '+'")
		return nil
	case c == '.':
		p.fail(p.i, "a number needs a digit before '.'")
		return nil
	case isWordByte(c):
		a := p.i
		for p.i < len(p.data) && isWordByte(p.data[p.i]) {
			p.i++
		}
		var n *Node
		switch w := p.data[a:p.i]; w {
		case "true", "false":
			n = p.node(Bool, start)
			n.Bool = w == "true"
		case "null":
			n = p.node(Null, start)
		case "NaN", "Infinity":
			p.fail(a, w+" is not a JSON value")
			return nil
		default:
			p.fail(a, fmt.Sprintf("invalid literal %q", w))
			return nil
		}
		n.Span.End = p.pos()
		return n
	}
	p.unexpected("")
	return nil
}

func (p *jsonParser) object(start Pos, depth int) *Node {
	if depth > maxDepth {
		p.fail(p.i, tooDeep)
		return nil
	}
	p.i++
	mark := len(p.members)
	// Small objects are checked for duplicates by scanning; a map pays off
	// only for large ones.
	var seen map[string]Span
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		n := p.node(Object, start)
		n.Span.End = p.pos()
		return n
	}
	for {
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			p.unexpected(", expected a key in double quotes")
			return nil
		}
		kstart := p.pos()
		key, ok := p.string()
		if !ok {
			return nil
		}
		kspan := Span{kstart, p.pos()}
		own := p.members[mark:]
		if seen == nil && len(own) > 16 {
			seen = make(map[string]Span, 2*len(own))
			for _, m := range own {
				seen[m.Key] = m.KeySpan
			}
		}
		if seen != nil {
			if first, dup := seen[key]; dup {
				p.fail(int(kstart.Offset), duplicateKey(key, first))
				return nil
			}
			seen[key] = kspan
		} else {
			for _, m := range own {
				if m.Key == key {
					p.fail(int(kstart.Offset), duplicateKey(key, m.KeySpan))
					return nil
				}
			}
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			p.unexpected(", expected ':' after the key")
			return nil
		}
		p.i++
		p.space()
		v := p.value(depth)
		if v == nil {
			return nil
		}
		p.members = append(p.members, Member{Key: key, KeySpan: kspan, Value: v})
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ',' {
			comma := p.i
			p.i++
			p.space()
			if p.i < len(p.data) && p.data[p.i] == '}' {
				p.fail(comma, "trailing comma")
				return nil
			}
			continue
		}
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			break
		}
		p.unexpected(", expected ',' or '}'")
		return nil
	}
	n := p.node(Object, start)
	n.Members = p.memberSlice(len(p.members) - mark)
	copy(n.Members, p.members[mark:])
	p.members = p.members[:mark]
	n.Span.End = p.pos()
	return n
}

func duplicateKey(key string, first Span) string {
	return fmt.Sprintf("duplicate key %q (first defined at line %d)", key, first.Start.Line)
}

func (p *jsonParser) array(start Pos, depth int) *Node {
	if depth > maxDepth {
		p.fail(p.i, tooDeep)
		return nil
	}
	p.i++
	mark := len(p.items)
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		n := p.node(Array, start)
		n.Span.End = p.pos()
		return n
	}
	for {
		v := p.value(depth)
		if v == nil {
			return nil
		}
		if len(p.items) == cap(p.items) {
			// Doubled: append grows a large slice by a quarter, and the copies of
			// the stack of a two-million-item array came to five times its size.
			p.items = slices.Grow(p.items, max(len(p.items), 64))
		}
		p.items = append(p.items, v)
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ',' {
			comma := p.i
			p.i++
			p.space()
			if p.i < len(p.data) && p.data[p.i] == ']' {
				p.fail(comma, "trailing comma")
				return nil
			}
			continue
		}
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			break
		}
		p.unexpected(", expected ',' or ']'")
		return nil
	}
	n := p.node(Array, start)
	n.Items = p.itemSlice(len(p.items) - mark)
	copy(n.Items, p.items[mark:])
	p.items = p.items[:mark]
	n.Span.End = p.pos()
	return n
}

// number scans a number literal at p.i. The input is known to start with
// '-' or a digit.
func (p *jsonParser) number() bool {
	d := p.data
	i := p.i
	need := func(i int, msg string) bool {
		if i >= len(d) {
			p.fail(i, "unexpected end of input")
			return false
		}
		if !isDigit(d[i]) {
			p.fail(i, msg)
			return false
		}
		return true
	}
	if d[i] == '-' {
		i++
		if !need(i, "expected a digit after '-'") {
			return false
		}
	}
	if d[i] == '0' {
		i++
		if i < len(d) && isDigit(d[i]) {
			p.fail(i-1, "leading zero in number")
			return false
		}
	} else {
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !need(i, "expected a digit after '.'") {
			return false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !need(i, "expected a digit in the exponent") {
			return false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if msg := numberRange(d[p.i:i]); msg != "" {
		p.fail(p.i, msg)
		return false
	}
	p.i = i
	return true
}

// numberRange rejects a number literal no consumer can read: beyond the double range
// (RFC 8259 §6 lets parsers limit range, and RFC 8785 cannot canonicalise it), or with
// an exponent so large that exact arithmetic on it (math/big, which JSON Schema
// validation uses) gives up. It returns "" for a number in range.
func numberRange(lit string) string {
	if _, err := strconv.ParseFloat(lit, 64); err != nil {
		return "number " + clip(lit) + " is out of range (beyond ±1.8e308)"
	}
	if e := strings.IndexAny(lit, "eE"); e >= 0 {
		if x, err := strconv.Atoi(strings.TrimPrefix(lit[e+1:], "+")); err != nil || x > 10000 || x < -10000 {
			return "number " + clip(lit) + " has an exponent beyond ±10000"
		}
	}
	return ""
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "…"
	}
	return s
}

// string scans the string literal at p.i and returns its decoded value. The
// input is known to be valid UTF-8, so only control characters and escapes
// need checking.
func (p *jsonParser) string() (string, bool) {
	d := p.data
	p.i++
	a := p.i
	escaped := false
	for {
		// Eight plain ASCII bytes at a time, then byte by byte from the first chunk
		// that holds anything else: a statement is a long run of plain bytes.
		for p.i+8 <= len(d) {
			x := le64(d, p.i)
			if ((x-swarLo*0x20)|(x^swarLo*'"'-swarLo)|(x^swarLo*'\\'-swarLo)|x)&swarHi != 0 {
				break
			}
			p.i += 8
		}
		for p.i < len(d) && strPlain[d[p.i]] {
			p.i++
		}
		if p.i >= len(d) {
			p.fail(p.i, "unexpected end of input (unterminated string)")
			return "", false
		}
		c := d[p.i]
		switch {
		case c == '"':
			b := p.i
			p.i++
			if !escaped {
				return p.data[a:b], true
			}
			return p.unescape(a, b), true
		case c == '\\':
			if !p.escape() {
				return "", false
			}
			escaped = true
			continue
		case c < 0x20:
			p.fail(p.i, fmt.Sprintf("control character %U in string (it must be escaped)", rune(c)))
			return "", false
		case c >= 0x80 && c < 0xC0:
			p.cont++
		}
		p.i++
	}
}

// le64 is the eight bytes of s from i as a little-endian word (the compiler makes it
// one load).
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// strPlain holds the bytes a string literal holds as they are, with nothing to count:
// not a quote, backslash, control character or UTF-8 continuation byte.
// swarLo and swarHi are the low and high bit of every byte of a word. Subtracting
// swarLo*n from a word sets a byte's high bit when the byte, or one below it, is
// under n, so the chunk test above never passes a byte it must stop at (it may stop
// at one it need not, which the byte loop then takes); a byte of 0x80 or above sets
// it itself.
const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

var strPlain = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && (c < 0x80 || c >= 0xC0)
	}
	return t
}()

// escape checks the escape sequence at p.i and steps over it.
func (p *jsonParser) escape() bool {
	d := p.data
	i := p.i
	if i+1 >= len(d) {
		p.fail(len(d), "unexpected end of input (unterminated string)")
		return false
	}
	switch d[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		p.i += 2
		return true
	case 'u':
		r, ok := hex4(d, i+2)
		if !ok {
			p.fail(i, `invalid \u escape (it needs four hex digits)`)
			return false
		}
		if !utf16.IsSurrogate(r) {
			p.i += 6
			return true
		}
		// A surrogate stands for nothing on its own; decoders would
		// silently turn a lone one into U+FFFD, so it is refused.
		if r < 0xDC00 && i+7 < len(d) && d[i+6] == '\\' && d[i+7] == 'u' {
			if r2, ok := hex4(d, i+8); ok && r2 >= 0xDC00 && r2 <= 0xDFFF {
				p.i += 12
				return true
			}
		}
		p.fail(i, fmt.Sprintf(`lone surrogate \u%s in string (not a Unicode character)`, d[i+2:i+6]))
		return false
	}
	r, _ := utf8.DecodeRuneInString(d[i+1:])
	p.fail(i, fmt.Sprintf("invalid escape \\%s in string", string(r)))
	return false
}

func hex4(d string, i int) (rune, bool) {
	if i+4 > len(d) {
		return 0, false
	}
	var r rune
	for k := i; k < i+4; k++ {
		c := d[k]
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// unescape decodes the already checked string body data[a:b].
func (p *jsonParser) unescape(a, b int) string {
	d := p.data
	buf := p.buf[:0]
	for i := a; i < b; {
		if d[i] != '\\' {
			j := i + 1
			for j < b && d[j] != '\\' {
				j++
			}
			buf = append(buf, d[i:j]...)
			i = j
			continue
		}
		r, n := jsonEscape(d, i)
		buf = utf8.AppendRune(buf, r)
		i += n
	}
	p.buf = buf
	return string(buf)
}

// jsonEscape decodes the escape sequence at d[i] and returns the character
// and the number of source bytes it takes. Invalid sequences decode as
// U+FFFD so that callers walking unchecked text never fail.
func jsonEscape(d string, i int) (rune, int) {
	if i+1 >= len(d) {
		return utf8.RuneError, 1
	}
	switch d[i+1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, ok := hex4(d, i+2)
		if !ok {
			return utf8.RuneError, 2
		}
		if utf16.IsSurrogate(r) && i+7 < len(d) && d[i+6] == '\\' && d[i+7] == 'u' {
			if r2, ok := hex4(d, i+8); ok {
				if c := utf16.DecodeRune(r, r2); c != utf8.RuneError {
					return c, 12
				}
			}
		}
		if utf16.IsSurrogate(r) {
			return utf8.RuneError, 6
		}
		return r, 6
	}
	r, _ := utf8.DecodeRuneInString(d[i+1:])
	return r, 2
}
