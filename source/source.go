// Package source loads JSON and YAML files into a tree of JSON data-model
// values (null, boolean, number, string, array, object) in which every value
// and every object key keeps the span of text it came from, so that any later
// diagnostic can point at a line and column.
//
// The package knows nothing about workflow dialects or lint rules: it only
// reads bytes, rejects what is not well-formed, and answers position
// questions (JSON Pointer lookups, line text, positions inside strings).
//
// JSON is read by a strict RFC 8259 scanner written here, because
// encoding/json neither keeps positions nor rejects duplicate keys. Beyond
// the RFC's grammar it refuses duplicate keys, \u escapes of lone
// surrogates (they decode to no character; encoding/json would silently
// substitute U+FFFD) and nesting deeper than 1000 arrays and objects. A
// trailing comma is reported at the comma, the byte to delete.
//
// YAML is read as YAML 1.2 reads it, with go.yaml.in/yaml/v4, and then mapped onto
// the JSON data model, since everything downstream (schemas, canonical bytes) speaks
// JSON. The official yaml-test-suite is the measure (TestYAMLTestSuite runs every
// case): of the libraries measured on it, yaml.v4 reads the most of it right and
// refuses the most of its invalid cases, and where it still departs from YAML 1.2
// this package puts it right:
//
//   - "%YAML 1.2" is accepted (yaml.v4 takes only 1.1), a later 1.x is read as
//     1.2, and 2.x is refused; a reserved directive (%FOO) is ignored.
//   - Indentation yaml.v4 lets pass is refused: a flow collection, or a quoted or
//     plain string, that goes on over a line not indented past the block
//     collection around it (a tab does not indent; a closing bracket alone may
//     stand at the block's own indentation, as in eemeli/yaml); a block scalar
//     whose leading empty lines hold more spaces than its first line of text.
//   - A block scalar at the top ends at a document marker (--- or ...), where
//     yaml.v4 would read the marker, and any document after it, into the string.
//   - The non-specific tag ! makes a scalar a string ("! 12" is "12").
//   - NEL, LS and PS (U+0085, U+2028, U+2029) are refused: yaml.v4 takes them for
//     line breaks, as YAML 1.1 did, and YAML 1.2 for characters. Written as \N,
//     \L, \P in a double-quoted string they are read as everywhere.
//   - A parse error points at what the parser found wrong; a missing ':' at the
//     key that lacks it, an unclosed quote at its opening quote.
//
// Decisions where dws reads less than YAML 1.2 (the exceptions the test suite
// lists):
//
//   - Only one document per file; an empty file or one holding only comments
//     is an error.
//   - Custom tags (!foo) and the tags outside the core schema (!!set, !!omap)
//     are rejected: what they mean is up to an application, and JSON has no
//     place for it; the core schema's !! tags are checked.
//   - An anchor or alias name that ends in ':' or holds a character beyond ASCII
//     is refused, as yaml.v4 refuses it (YAML 1.2 allows any character but white
//     space and ,[]{}).
//
// And how YAML maps onto JSON:
//
//   - Scalars are typed by the YAML 1.2 core schema (so yes/no/on/off are
//     strings). Where yaml.v4 still resolves a YAML 1.1 number form, the 1.2
//     reading wins: 1_000, 0b101 and 12:30 are strings, 010 is ten, 0o17 is
//     octal and 0x1F hexadecimal. Integers and floats become exact
//     JSON number literals (0x1F becomes 31, +1.5 becomes 1.5, big integers
//     keep every digit); .inf and .nan have no JSON form and are errors.
//     Timestamps and !!binary have no JSON type either and are kept as
//     strings holding the source text. Document.YAML11Differences lists the
//     plain scalars a YAML 1.1 reader would read otherwise.
//   - Mapping keys must be strings, and duplicate keys are errors.
//   - Aliases are expanded into copies whose values and keys all carry the
//     alias's span. Expansion is bounded (1,000,000 values in all, counted
//     before anything is built) so that alias bombs fail fast and small;
//     nesting deeper than 1000 levels is refused where the parser meets it.
//   - Merge keys (<<, from YAML 1.1) are supported with the usual semantics:
//     keys written in the mapping win over merged ones, and earlier merged
//     mappings win over later ones.
//
// Positions: offsets are byte offsets into the file as read, including a
// leading UTF-8 byte order mark, which is otherwise skipped; columns count
// Unicode code points and the first column of the first line is the one
// after the byte order mark.
package source

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Format is the syntax a file is written in.
type Format uint8

// The formats dws reads.
const (
	JSON Format = iota + 1
	YAML
)

func (f Format) String() string {
	switch f {
	case JSON:
		return "json"
	case YAML:
		return "yaml"
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

const bom = "\xEF\xBB\xBF"

// bomLen is the length of a leading UTF-8 byte order mark, 0 or 3.
func bomLen[T ~string | ~[]byte](data T) int {
	if len(data) >= 3 && data[0] == bom[0] && data[1] == bom[1] && data[2] == bom[2] {
		return 3
	}
	return 0
}

// FormatOf decides the format of a file by its name and, when the name does
// not tell, by its first significant byte: JSON texts worth linting are
// objects or arrays, and anything else is read as YAML.
func FormatOf[T ~string | ~[]byte](name string, data T) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".json":
		return JSON
	case ".yaml", ".yml":
		return YAML
	}
	for i := bomLen(data); i < len(data); i++ {
		switch data[i] {
		case ' ', '\t', '\r', '\n':
			continue
		case '{', '[':
			return JSON
		}
		break
	}
	return YAML
}

// Document is one parsed file.
type Document struct {
	Path     string
	Format   Format
	Text     string // the file's bytes as read; values share its memory
	Root     *Node
	Comments []Comment // YAML only, sorted by line

	lines []int // byte offset at which each line starts (YAML: made by Parse)
	// lazyLines is lines made on first need (JSON: a valid file reports nothing, and
	// its nodes carry their lines already).
	lazyLines atomic.Pointer[[]int]
	// excerpt, when set, is all the document keeps of its text: a window of each line
	// a report shows (see Excerpt).
	excerpt map[int]snippet
	// longNumbers is set when a JSON document holds a number literal of longNumber
	// bytes or more (see MayHaveLongNumbers).
	longNumbers bool
}

// longNumber is the length from which a number literal may be an integer beyond
// ±2^53: fifteen digits and a sign are well inside it.
const longNumber = 16

// MayHaveLongNumbers reports whether d may hold a number literal of sixteen bytes or
// more, the only ones that can lose precision as an IEEE 754 double. A JSON document
// knows from its parse; a YAML one always may.
func (d *Document) MayHaveLongNumbers() bool {
	return d.Format != JSON || d.longNumbers
}

// Comment is a YAML comment and the line it applies to: its own line when it follows
// something on that line, else the next line holding YAML content (what an "ignore on
// the line or the line above" directive needs).
type Comment struct {
	Line int
	Span Span   // from the '#' to the end of the comment
	Text string // without the leading '#', trimmed
	own  bool   // on a line of its own
}

// Error is a syntax or data-model error in a file.
type Error struct {
	Pos Pos
	Msg string // plain lower-case words, without the position
}

func (e *Error) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// Parse reads data, the contents of the file at path, in the given format;
// a zero format means FormatOf(path, data). Bad input yields an *Error.
func Parse(path string, data []byte, format Format) (*Document, error) {
	return ParseString(path, string(data), format)
}

// ParseString is Parse of a file's contents held as a string (ReadFileString's), which
// the document keeps as its Text without a copy.
func ParseString(path, text string, format Format) (*Document, error) {
	if format != JSON && format != YAML {
		format = FormatOf(path, text)
	}
	if len(text) > math.MaxInt32 {
		return nil, &Error{Pos: Pos{Line: 1, Col: 1}, Msg: "the file is 2 GiB or more: not parsed"}
	}
	d := &Document{Path: path, Format: format, Text: text}
	if format == YAML {
		d.lines = lineStarts(text, true) // the YAML loader reads them as it goes
	}
	if !utf8.ValidString(text) {
		return nil, d.errorAt(firstInvalidUTF8(text), "invalid UTF-8")
	}
	var err *Error
	if format == JSON {
		d.Root, err = parseJSON(d)
	} else {
		d.Root, err = parseYAML(d)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Document) errorAt(offset int, msg string) *Error {
	return &Error{Pos: d.PosAt(offset), Msg: msg}
}

func firstInvalidUTF8(data string) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRuneInString(data[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(data)
}
