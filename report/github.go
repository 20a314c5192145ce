package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
)

// github prints GitHub Actions workflow commands, which annotate the pull request diff.
type github struct{}

func (github) Write(w io.Writer, res *lint.Result) error {
	bw := bufio.NewWriter(w)
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			level := "error"
			switch d.Severity {
			case lint.Warning:
				level = "warning"
			case lint.Info:
				level = "notice"
			}
			fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endLine=%d,endColumn=%d,title=%s::%s\n",
				level, ghProperty(d.File), d.Line, d.Column, d.EndLine, d.EndColumn, ghProperty(d.Rule), ghData(d.Message))
		}
	}
	return bw.Flush()
}

// The escapes GitHub's runner applies when it parses workflow commands, applied to
// printable text: a control character in a file name or message neither drives the
// log's terminal emulation nor, being escaped, ends the command early.
var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func ghData(s string) string     { return ghDataEscaper.Replace(printable.String(s)) }
func ghProperty(s string) string { return ghPropertyEscaper.Replace(printable.String(s)) }
