package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
)

// A file name or message holding an escape sequence or a newline is printed escaped: it
// can neither drive the terminal nor forge a line of the report.
func TestTextEscapesControlCharacters(t *testing.T) {
	name := "evil\x1b[2J\nfake.json:1:1: error: all good [x]\x07.json"
	res := &lint.Result{Files: []lint.FileResult{{Path: name, Diagnostics: []lint.Diagnostic{{
		Rule: "read", Severity: lint.Error, File: name, Line: 1, Column: 1,
		Message: "cannot read \x1b]0;title\x07", Related: []lint.Related{{File: name, Line: 2, Column: 3, Message: "see\rhere"}},
	}}}}}
	w, err := report.New("text", report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := w.Write(&out, res); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if strings.ContainsAny(got, "\x1b\x07\r") {
		t.Fatalf("control characters reach the terminal:\n%q", got)
	}
	want := `evil\x1b[2J\nfake.json:1:1: error: all good [x]\a.json:1:1: error: cannot read \x1b]0;title\a [read]
    evil\x1b[2J\nfake.json:1:1: error: all good [x]\a.json:2:3: note: see\rhere
1 error in 1 of 1 file
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
