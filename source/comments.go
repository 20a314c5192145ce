package source

import (
	"slices"
	"strings"
)

// yamlComments finds the comments of a parsed YAML document by scanning its text with
// what the loader already knows: the span of every scalar and key. A '#' is a comment
// when it is not inside a scalar and stands at the start of a line or after a space or
// tab (so a#b is a plain scalar and an anchor may hold a '#'); the comment runs to the
// end of its line. A block scalar's content lines are scalar; its header line (| or >)
// is not, so a comment after the indicator is found. yaml.v4 keeps comments only as
// text attached to nodes, without their positions, so they are not taken from there.
//
// A comment after something on its line applies to that line; a comment on a line of
// its own applies to the next line holding YAML content, which is what an inline
// "ignore on this line or the line below" directive needs.
func yamlComments(d *Document, root *Node) []Comment {
	type span struct{ from, to int }
	var masked []span
	walkScalars(root, func(m Member) {
		if m.KeySpan.End.Offset > m.KeySpan.Start.Offset {
			masked = append(masked, span{int(m.KeySpan.Start.Offset), int(m.KeySpan.End.Offset)})
		}
	}, func(n *Node) {
		from, to := int(n.Span.Start.Offset), int(n.Span.End.Offset)
		switch n.style {
		case styleCopy:
			return // an alias: its text is "*name"
		case styleLiteral, styleFolded:
			// The content starts on the line after the header.
			if i := strings.IndexByte(d.Text[from:min(to, len(d.Text))], '\n'); i >= 0 {
				from += i + 1
			} else {
				from = to
			}
		}
		if to > from {
			masked = append(masked, span{from, to})
		}
	})
	slices.SortFunc(masked, func(a, b span) int { return a.from - b.from })

	var out []Comment
	src := d.Text
	m := 0
	lineHasContent := false
	for i := bomLen(d.Text); i < len(src); i++ {
		for m < len(masked) && masked[m].to <= i {
			m++
		}
		if m < len(masked) && masked[m].from <= i {
			lineHasContent = true
			i = masked[m].to - 1
			continue
		}
		c := src[i]
		switch {
		case c == '\n':
			lineHasContent = false
		case c == '#' && (i == 0 || src[i-1] == ' ' || src[i-1] == '\t' || src[i-1] == '\n' || src[i-1] == '\r' || i == bomLen(d.Text)):
			end := i
			for end < len(src) && src[end] != '\n' && src[end] != '\r' {
				end++
			}
			start := d.PosAt(i)
			out = append(out, Comment{
				Line: int(start.Line),
				Span: Span{start, d.PosAt(end)},
				Text: strings.TrimSpace(src[i+1 : end]),
				own:  !lineHasContent,
			})
			i = end - 1
		case c != ' ' && c != '\t' && c != '\r':
			lineHasContent = true
		}
	}
	// A comment on a line of its own applies to the next line with content.
	for k := range out {
		if !out[k].own {
			continue
		}
		for n := out[k].Line + 1; n <= len(d.lineTable()); n++ {
			text := strings.TrimSpace(d.Line(n))
			if text != "" && !strings.HasPrefix(text, "#") {
				out[k].Line = n
				break
			}
		}
	}
	return out
}
