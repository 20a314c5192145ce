package source

import (
	"strings"
	"unicode/utf8"
)

// Excerpt returns what a report needs of the document: for each line named in at, the
// text around the columns listed for it (margin characters either side), and the
// comments, which inline suppressions read. Nothing else is kept: a parsed 4 MiB file's
// value tree costs hundreds of megabytes and its text megabytes, and a run that kept
// either for every file with a finding would grow with the number of files.
func (d *Document) Excerpt(at map[int][]int, margin int) *Document {
	if d == nil {
		return nil
	}
	ex := &Document{Path: d.Path, Format: d.Format, Comments: d.Comments, excerpt: map[int]snippet{}}
	for n, cols := range at {
		if len(cols) == 0 {
			continue
		}
		text, first := d.lineBytes(n)
		lo, hi := cols[0], cols[0]
		for _, c := range cols {
			lo, hi = min(lo, c), max(hi, c)
		}
		from := max(lo-margin, first)
		runes := 0
		start, end := -1, len(text)
		for i := 0; i < len(text); runes++ {
			col := first + runes
			if col == from && start < 0 {
				start = i
			}
			if col > hi+margin {
				end = i
				break
			}
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
		}
		if start < 0 {
			start = len(text)
			from = first + runes
		}
		// A copy: a slice would keep the whole line (all of a minified file) alive.
		ex.excerpt[n] = snippet{col: from, text: strings.Clone(text[start:end])}
	}
	return ex
}

type snippet struct {
	col  int // the column of text's first character
	text string
}

// LineFrom returns the text of 1-based line n without its line break and the column its
// first character is in: 1, unless the document is an Excerpt. It returns "" for a line
// the document does not have.
func (d *Document) LineFrom(n int) (text string, col int) {
	if d.excerpt != nil {
		s := d.excerpt[n]
		return s.text, max(s.col, 1)
	}
	return d.Line(n), 1
}

// lineBytes is LineFrom without a copy of the line: a minified file is one line, and
// an excerpt of it needs a few hundred of its bytes, not a copy of all of them.
func (d *Document) lineBytes(n int) (text string, col int) {
	if d.excerpt != nil {
		s := d.excerpt[n]
		return s.text, max(s.col, 1)
	}
	start, end, ok := d.lineBounds(n)
	if !ok {
		return "", 1
	}
	return d.Text[start:end], 1
}

// Head returns the document's first line, at most limit bytes of it, as a document of
// its own: what a report shows of a file it did not parse.
func Head(path, data string, limit int) *Document {
	end := min(len(data), limit)
	if i := strings.IndexAny(data[:end], "\n\r"); i >= 0 {
		end = i
	}
	for end > 0 && !utf8.ValidString(data[:end]) {
		end-- // never cut a character in two
	}
	return &Document{Path: path, Format: FormatOf(path, data), excerpt: map[int]snippet{1: {col: 1, text: strings.Clone(data[:end])}}}
}
