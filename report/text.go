package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/mattn/go-runewidth"
	"github.com/muesli/termenv"
)

// text is the compiler-style report: a header line per finding, the source line with a
// caret under the span, related places as notes, then a summary line.
type text struct {
	opts Options
}

// window is how many characters of a long source line are shown around a finding, so a
// minified one-line JSON file does not flood the terminal.
const window = 100

type styles struct {
	err, warn, info, note, rule, caret, gutter, bold paint
}

// paint is a lipgloss style, or nothing at all. Without colour no lipgloss style is
// rendered: the first one detects the terminal, which costs tens of milliseconds.
type paint struct{ style *lipgloss.Style }

func (p paint) Render(s string) string {
	if p.style == nil {
		return s
	}
	return p.style.Render(s)
}

func newStyles(color bool) styles {
	if !color {
		return styles{}
	}
	// The caller decided colour is wanted (a terminal, --color always, FORCE_COLOR):
	// the 16 ANSI colours every terminal has, without lipgloss guessing again.
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI)
	p := func(s lipgloss.Style) paint { return paint{&s} }
	return styles{
		err:    p(r.NewStyle().Foreground(lipgloss.Color("9")).Bold(true)),
		warn:   p(r.NewStyle().Foreground(lipgloss.Color("11")).Bold(true)),
		info:   p(r.NewStyle().Foreground(lipgloss.Color("12")).Bold(true)),
		note:   p(r.NewStyle().Foreground(lipgloss.Color("14"))),
		rule:   p(r.NewStyle().Faint(true)),
		caret:  p(r.NewStyle().Foreground(lipgloss.Color("10")).Bold(true)),
		gutter: p(r.NewStyle().Faint(true)),
		bold:   p(r.NewStyle().Bold(true)),
	}
}

func (t *text) Write(w io.Writer, res *lint.Result) error {
	bw := bufio.NewWriter(w)
	st := newStyles(t.opts.Color)
	for _, f := range res.Files {
		t.findings(bw, st, f)
	}
	fmt.Fprintln(bw, summaryLine(res, st))
	return bw.Flush()
}

// WriteFindings prints the findings of files as the text report does (the compiler
// line, the source line and a caret), without a summary.
func WriteFindings(w io.Writer, files []lint.FileResult, color bool) error {
	bw := bufio.NewWriter(w)
	t := &text{opts: Options{Color: color}}
	st := newStyles(color)
	for _, f := range files {
		t.findings(bw, st, f)
	}
	return bw.Flush()
}

func (t *text) findings(bw io.Writer, st styles, f lint.FileResult) {
	for _, d := range f.Diagnostics {
		sev := st.err
		switch d.Severity {
		case lint.Warning:
			sev = st.warn
		case lint.Info:
			sev = st.info
		}
		fmt.Fprintf(bw, "%s %s %s %s\n",
			st.bold.Render(fmt.Sprintf("%s:%d:%d:", printable.String(d.File), d.Line, d.Column)),
			sev.Render(d.Severity.String()+":"), printable.String(d.Message), st.rule.Render("["+d.Rule+"]"))
		if f.Doc != nil {
			t.excerpt(bw, st, f, d)
		}
		for _, r := range d.Related {
			fmt.Fprintf(bw, "    %s %s %s\n", st.gutter.Render(fmt.Sprintf("%s:%d:%d:", printable.String(r.File), r.Line, r.Column)),
				st.note.Render("note:"), printable.String(r.Message))
		}
	}
}

// excerpt prints the finding's source line with a caret under its span.
func (t *text) excerpt(w io.Writer, st styles, f lint.FileResult, d lint.Diagnostic) {
	line, first := f.Doc.LineFrom(d.Line)
	if line == "" && d.Line > 1 {
		return
	}
	// The document may keep only part of a long line: its first character is in column
	// first, and columns below are counted from there.
	shift := first - 1
	runes := []rune(line)
	startCol := max(d.Column-1-shift, 0)
	// A span that runs past this line is underlined to its end; an empty one gets one caret.
	endCol := len(runes)
	if d.EndLine == d.Line || d.EndLine == 0 {
		endCol = d.EndColumn - 1 - shift
	}
	endCol = max(min(endCol, len(runes)), startCol+1)
	// Cut long lines to a window around the span.
	from, to, pre, post := 0, len(runes), "", ""
	if len(runes) > window || shift > 0 {
		from = max(0, startCol-window/3)
		to = min(len(runes), from+window)
	}
	if from > 0 || shift > 0 {
		pre = "…"
	}
	if to < len(runes) {
		post = "…"
	}
	shown := strings.Map(printable.Rune, string(runes[from:to]))
	gutter := fmt.Sprintf("%5d | ", d.Line)
	fmt.Fprintf(w, "%s%s%s%s\n", st.gutter.Render(gutter), pre, shown, post)
	// Columns count characters, but a terminal gives CJK and emoji two cells: pad and
	// underline by display width so the caret sits under the span.
	lo, hi := min(max(startCol, from), to), min(endCol, to)
	pad := strings.Repeat(" ", runewidth.StringWidth(pre)+runewidth.StringWidth(strings.Map(printable.Rune, string(runes[from:lo]))))
	width := max(runewidth.StringWidth(strings.Map(printable.Rune, string(runes[lo:max(hi, lo)]))), 1)
	fmt.Fprintf(w, "%s%s%s\n", st.gutter.Render("      | "), pad, st.caret.Render("^"+strings.Repeat("~", width-1)))
}

func summaryLine(res *lint.Result, st styles) string {
	s := Summarize(res)
	suppressed := ""
	if s.Suppressed > 0 {
		suppressed = fmt.Sprintf(" (%d suppressed)", s.Suppressed)
	}
	if s.Errors+s.Warnings+s.Infos == 0 {
		return st.bold.Render(fmt.Sprintf("no problems in %s", plural(s.Files, "file"))) + suppressed
	}
	var parts []string
	if s.Errors > 0 {
		parts = append(parts, st.err.Render(plural(s.Errors, "error")))
	}
	if s.Warnings > 0 {
		parts = append(parts, st.warn.Render(plural(s.Warnings, "warning")))
	}
	if s.Infos > 0 {
		parts = append(parts, st.info.Render(plural(s.Infos, "info")))
	}
	return fmt.Sprintf("%s in %d of %s%s", strings.Join(parts, ", "), s.Failed, plural(s.Files, "file"), suppressed)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
