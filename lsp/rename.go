package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A rename writes the new name in the syntax of each place it goes: a JSON string, or
// a YAML scalar kept in its style when that style can hold the name (plain, 'single'
// or "double"; a plain scalar the name would not stay a plain string in becomes
// quoted, single where it can, double with escapes where it must). Inside a template
// reference the name is escaped as its string needs. The edited text is then parsed
// again: unless every renamed place reads back as the new name, and every string
// holding a template reference as it should, the rename is refused with an error
// rather than leave a document that no longer parses or means something else.
//
// A reference has a syntax of its own besides its string's: an edge field holds any
// string, but a template reference (the dialect's References say where they are) may
// hold fewer names. A name some reference to the node cannot hold is refused, saying
// which. And as a last guard, the renamed text is checked as a change would be: a
// rename that adds an error finding (to the id's own rules, say a step id that would
// leave its output root) is refused with that finding.

// byteEdit replaces raw[from:to] with text.
type byteEdit struct {
	from, to int
	text     string
}

// expect is a value the renamed document must hold: the string at pointer reads text.
type expect struct {
	pointer, text string
}

// plainName is a name a plain YAML scalar can hold as it is (checked again by parsing).
var plainName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$`) })

// Rename renames a node: its id and every edge that names it.
func (s *Server) Rename(_ context.Context, params *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	name := params.NewName
	if name == "" || !utf8.ValidString(name) {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("dws lsp: %q cannot be a node id", name))
	}
	in := a.inspection()
	h, ok := at(in, a.text.offset(params.Position))
	if !ok || h.node < 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "dws lsp: no step, phase or task id here to rename")
	}
	if _, taken := h.g.Lookup(name); taken && name != h.id {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("dws lsp: %q is already the id of another node", name))
	}
	_, _, refs := a.references(in, h.g, h.id, name)
	for _, r := range refs {
		if r.Holds != nil && !r.Holds(name) {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("dws lsp: %q cannot be renamed to %q: %s", h.id, name, r.Why))
		}
	}
	pointers := append([]string{h.g.Nodes[h.node].IDPointer}, uses(h.g, h.id)...)
	var edits []byteEdit
	var want []expect
	// First with plain YAML scalars kept plain where the name looks plain, then, if the
	// parse says otherwise (a name YAML reads as a number, a boolean or null), quoted.
	for _, quotePlain := range []bool{false, true} {
		edits, want = nil, nil
		seen := map[[2]int]bool{}
		for _, p := range pointers {
			v := in.Doc.Lookup(p)
			if v == nil || v.Kind != source.String {
				continue
			}
			sp := [2]int{int(v.Span.Start.Offset), int(v.Span.End.Offset)}
			if !seen[sp] { // an alias names the same text twice
				seen[sp] = true
				edits = append(edits, byteEdit{sp[0], sp[1], a.scalar(in.Doc, v, name, quotePlain)})
			}
			want = append(want, expect{p, name})
		}
		te, tw, _ := a.references(in, h.g, h.id, name)
		edits, want = append(edits, te...), append(want, tw...)
		if renamed, ok := a.renamedAsMeant(edits, want); ok {
			if f, added := s.addsError(a, renamed); added {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams,
					fmt.Sprintf("dws lsp: renaming %q to %q would add an error: %s [%s]", h.id, name, f.Message, f.Rule))
			}
			out := make([]protocol.TextEdit, 0, len(edits))
			for _, e := range edits {
				out = append(out, protocol.TextEdit{Range: a.text.span(e.from, e.to), NewText: e.text})
			}
			return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{params.TextDocument.URI: out}}, nil
		}
	}
	return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams,
		fmt.Sprintf("dws lsp: %q cannot be written where %q is so that the document still reads as meant", name, h.id))
}

// renamedAsMeant is the text with edits applied, and whether it parses and holds every
// value want says.
func (a *analysis) renamedAsMeant(edits []byteEdit, want []expect) (string, bool) {
	sorted := append([]byteEdit(nil), edits...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].from < sorted[j].from })
	var b strings.Builder
	last := 0
	for _, e := range sorted {
		if e.from < last || e.to > len(a.raw) {
			return "", false // overlapping edits
		}
		b.WriteString(a.raw[last:e.from])
		b.WriteString(e.text)
		last = e.to
	}
	b.WriteString(a.raw[last:])
	data := []byte(b.String())
	doc, err := source.Parse(a.path, data, source.FormatOf(a.path, data))
	if err != nil {
		return "", false
	}
	for _, w := range want {
		if v := doc.Lookup(w.pointer); v == nil || v.Kind != source.String || v.Text != w.text {
			return "", false
		}
	}
	return b.String(), true
}

// addsError reports whether the document renamed has more error findings of some rule
// than it has now, and one of them (one whose message it does not have now, when there
// is one).
func (s *Server) addsError(a *analysis, renamed string) (lint.Diagnostic, bool) {
	before := a.findings // when a is a check's (its diags are set), else a check now
	if a.diags == nil {
		before = s.analyze(context.Background(), a.path, a.raw, a.version).findings
	}
	after := s.analyze(context.Background(), a.path, renamed, a.version).findings
	count := map[string]int{}
	known := map[string]bool{}
	for _, f := range before {
		if f.Severity != lint.Error {
			continue
		}
		count[f.Rule]++
		known[f.Rule+"\x00"+f.Message] = true
	}
	for _, f := range after {
		if f.Severity == lint.Error {
			count[f.Rule]--
		}
	}
	var added []lint.Diagnostic
	for _, f := range after {
		if f.Severity == lint.Error && count[f.Rule] < 0 {
			added = append(added, f)
		}
	}
	if len(added) == 0 {
		return lint.Diagnostic{}, false
	}
	for _, f := range added {
		if !known[f.Rule+"\x00"+f.Message] {
			return f, true
		}
	}
	return added[0], true
}

// scalar is name written to replace the whole string token v.
func (a *analysis) scalar(doc *source.Document, v *source.Node, name string, quotePlain bool) string {
	if doc.Format == source.JSON {
		return jsonString(name)
	}
	switch a.raw[v.Span.Start.Offset] {
	case '"':
		return `"` + yamlDoubleContent(name) + `"`
	case '\'':
		if singleQuotable(name) {
			return `'` + strings.ReplaceAll(name, `'`, `''`) + `'`
		}
		return `"` + yamlDoubleContent(name) + `"`
	}
	if !quotePlain && plainName().MatchString(name) {
		return name
	}
	if singleQuotable(name) {
		return `'` + strings.ReplaceAll(name, `'`, `''`) + `'`
	}
	return `"` + yamlDoubleContent(name) + `"`
}

// inString is name written inside the string token v, between other characters.
func (a *analysis) inString(doc *source.Document, v *source.Node, name string) string {
	if doc.Format == source.JSON {
		s := jsonString(name)
		return s[1 : len(s)-1]
	}
	switch a.raw[v.Span.Start.Offset] {
	case '"':
		return yamlDoubleContent(name)
	case '\'':
		return strings.ReplaceAll(name, `'`, `''`) // what cannot be single-quoted fails the parse check
	}
	return name // plain or block: the parse check says whether it stays the same string
}

// jsonString is s as a JSON string literal.
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(s) != nil {
		return `""`
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// yamlPrintable reports whether YAML lets r stand as itself in a scalar's text (its
// c-printable set, without the line breaks, NEL included, and the byte-order mark).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t', r >= 0x20 && r <= 0x7e:
		return true
	case r >= 0xa0 && r <= 0xd7ff:
		return true
	case r >= 0xe000 && r <= 0xfffd:
		return r != 0xfeff
	case r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// singleQuotable reports whether a single-quoted YAML scalar holds s exactly: every
// character printable, on one line.
func singleQuotable(s string) bool {
	for _, r := range s {
		if !yamlPrintable(r) || r == '\u2028' || r == '\u2029' {
			return false
		}
	}
	return true
}

// yamlDoubleContent is s escaped for a double-quoted YAML scalar.
func yamlDoubleContent(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"', r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case yamlPrintable(r) && r != '\u2028' && r != '\u2029':
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02X`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			fmt.Fprintf(&b, `\U%08X`, r)
		}
	}
	return b.String()
}

// references are the edits that rename node old of graph g where the dialect says a
// string names it inside its text (a template reference): they name the node as
// surely as an edge does. Each string they change must then read as want says. refs
// are the references, for their syntax.
func (a *analysis) references(in *lint.Inspection, g *graph.Graph, old, name string) (edits []byteEdit, want []expect, refs []lint.Reference) {
	if in.Dialect == nil || in.Dialect.References == nil || in.Doc == nil {
		return nil, nil, nil
	}
	byString := map[string][]lint.Reference{}
	var order []string
	for _, r := range in.Dialect.References(in.Doc, g, old) {
		if _, ok := byString[r.Pointer]; !ok {
			order = append(order, r.Pointer)
		}
		byString[r.Pointer] = append(byString[r.Pointer], r)
	}
	for _, ptr := range order {
		n := in.Doc.Lookup(ptr)
		if n == nil || n.Kind != source.String {
			continue
		}
		rs := byString[ptr]
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].From < rs[j].From })
		var text strings.Builder
		changed, last := false, 0
		for _, r := range rs {
			if r.From < last || r.To > len(n.Text) || n.Text[r.From:r.To] != old {
				continue
			}
			start := int(in.Doc.StringPos(n, r.From).Offset)
			end := int(in.Doc.StringPos(n, r.To).Offset)
			if end-start != len(old) || a.raw[start:end] != old {
				continue // written with escapes: not renamed in place
			}
			edits = append(edits, byteEdit{start, end, a.inString(in.Doc, n, name)})
			text.WriteString(n.Text[last:r.From] + name)
			last, changed = r.To, true
			refs = append(refs, r)
		}
		if changed {
			text.WriteString(n.Text[last:])
			want = append(want, expect{ptr, text.String()})
		}
	}
	return edits, want, refs
}
