package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
)

// junit writes one test case per file; a file with findings at or above warning is a
// failed case listing them, which is how CI dashboards show per-file results. Every
// user string (a path, a message) is shown through printable.String, one per line of
// the failure's text: what a JUnit reader parses holds no control character, and no
// line of it is one the report did not write.
type junit struct{}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

func (junit) Write(w io.Writer, res *lint.Result) error {
	suite := junitSuite{Name: "dws validate"}
	for _, f := range res.Files {
		c := junitCase{Name: printable.String(f.Path), Classname: "dws." + orNone(f.Dialect)}
		var fails, notes []string
		for _, d := range f.Diagnostics {
			if d.Severity >= lint.Warning {
				fails = append(fails, printable.String(d.String()))
			} else {
				notes = append(notes, printable.String(d.String()))
			}
		}
		if len(fails) > 0 {
			c.Failure = &junitFailure{
				Message: fmt.Sprintf("%d finding(s)", len(fails)),
				Type:    "dws",
				Text:    strings.Join(fails, "\n"),
			}
			suite.Failures++
		}
		c.SystemOut = strings.Join(notes, "\n")
		suite.Cases = append(suite.Cases, c)
		suite.Tests++
	}
	out := junitSuites{Name: "dws", Tests: suite.Tests, Failures: suite.Failures, Suites: []junitSuite{suite}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
