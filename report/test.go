package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
	"github.com/mattn/go-runewidth"
)

// TestFormats lists the formats of dws test.
var TestFormats = []string{"text", "json", "junit"}

// WriteTest writes a scenario run in format. minCoverage is the gate (negative: none);
// times are each scenario's wall time, the one thing that differs between two runs.
func WriteTest(w io.Writer, format string, s *scenario.Suite, minCoverage float64, opts Options) error {
	switch format {
	case "json":
		return testJSON(w, s, minCoverage, opts)
	case "junit":
		return testJUnit(w, s)
	}
	return testText(w, s, minCoverage, opts)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func testText(w io.Writer, s *scenario.Suite, minCoverage float64, opts Options) error {
	bw := bufio.NewWriter(w)
	st := newStyles(opts.Color)
	// Definitions that did not validate: their findings first, as dws validate shows them.
	var broken []lint.FileResult
	for _, f := range s.Files {
		for _, d := range f.Diagnostics {
			if d.Severity == lint.Error {
				broken = append(broken, f)
				break
			}
		}
	}
	if err := WriteFindings(bw, broken, opts.Color); err != nil {
		return err
	}
	for _, o := range s.Outcomes {
		if o.Passed {
			fmt.Fprintf(bw, "%s  %s (%s)\n", st.info.Render("ok  "), printable.String(o.Scenario.Path), ms(o.Duration))
		} else {
			fmt.Fprintf(bw, "%s  %s (%s)\n", st.err.Render("FAIL"), printable.String(o.Scenario.Path), ms(o.Duration))
		}
		for _, f := range o.Failures {
			fmt.Fprintf(bw, "    %s\n", printable.String(f))
		}
		if o.FirstDiff >= 0 {
			sideBySide(bw, o)
		}
		if len(o.Diagnostics) > 0 {
			var doc = o.Scenario.Doc
			var buf strings.Builder
			_ = WriteFindings(&buf, []lint.FileResult{{Path: o.Scenario.Path, Diagnostics: o.Diagnostics, Doc: doc}}, opts.Color)
			for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
				fmt.Fprintf(bw, "    %s\n", line)
			}
		}
		for _, wmsg := range o.Warnings {
			fmt.Fprintf(bw, "    %s %s\n", st.warn.Render("warning:"), printable.String(wmsg))
		}
	}
	if len(s.Definitions) > 0 {
		fmt.Fprintln(bw, st.bold.Render("coverage"))
		width := 0
		for _, d := range s.Definitions {
			width = max(width, runewidth.StringWidth(printable.String(d.Name())))
		}
		for _, d := range s.Definitions {
			c := d.Coverage
			fmt.Fprintf(bw, "  %-*s  %5.1f%%  %d of %d edges\n", width, printable.String(d.Name()), c.Percent(), c.Covered, c.Coverable)
			if len(c.Uncovered) > 0 {
				fmt.Fprintf(bw, "    uncovered: %s\n", printable.String(edgeList(c.Uncovered)))
			}
			for _, e := range c.Dead {
				fmt.Fprintf(bw, "    dead: %s (%s)\n", printable.String(e.String()), printable.String(e.Why))
			}
		}
	}
	fmt.Fprintln(bw, testSummary(s, minCoverage, st))
	return bw.Flush()
}

func edgeList(es []sim.Edge) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// sideBySide prints the expected and the actual path, one visit a line, marking the
// first that differs.
func sideBySide(w io.Writer, o *scenario.Outcome) {
	left := []string{"expected"}
	right := []string{"actual"}
	for _, v := range o.Expected {
		left = append(left, printable.String(v.String()))
	}
	for _, v := range o.Actual {
		right = append(right, printable.String(v.String()))
	}
	width := 0
	for _, l := range left {
		width = max(width, runewidth.StringWidth(l))
	}
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		mark := "  "
		if i-1 == o.FirstDiff {
			mark = "≠ "
		}
		pad := strings.Repeat(" ", width-runewidth.StringWidth(l))
		fmt.Fprintf(w, "    %s%s%s   %s\n", mark, l, pad, r)
	}
}

func testSummary(s *scenario.Suite, minCoverage float64, st styles) string {
	n, passed := len(s.Outcomes), s.Passed()
	line := fmt.Sprintf("%s: %d passed", plural(n, "scenario"), passed)
	if passed < n {
		line += fmt.Sprintf(", %d failed", n-passed)
	}
	if len(s.Definitions) > 0 {
		t := s.Total()
		line += fmt.Sprintf("; coverage %.1f%% (%d of %d edges)", t.Percent(), t.Covered, t.Coverable)
		if minCoverage >= 0 && t.Percent() < minCoverage {
			line += fmt.Sprintf(", below the minimum %g%%", minCoverage)
		}
	}
	return st.bold.Render(line)
}

type testJSONDoc struct {
	Tool        string          `json:"tool"`
	Version     string          `json:"version"`
	Scenarios   []testJSONCase  `json:"scenarios"`
	Definitions []testJSONDef   `json:"definitions"`
	Files       []fileJSON      `json:"files"`
	Summary     testJSONSummary `json:"summary"`
}

type fileJSON struct {
	Path        string            `json:"path"`
	Dialect     string            `json:"dialect"`
	Diagnostics []lint.Diagnostic `json:"diagnostics"`
}

type testJSONCase struct {
	Path        string            `json:"path"`
	Name        string            `json:"name"`
	Definition  string            `json:"definition"`
	Workflow    string            `json:"workflow"`
	Passed      bool              `json:"passed"`
	Seconds     float64           `json:"seconds"`
	Status      string            `json:"status"`
	Path0       []string          `json:"run"`
	Expected    []string          `json:"expected_path"`
	FirstDiff   int               `json:"first_difference"`
	Failures    []string          `json:"failures"`
	Warnings    []string          `json:"warnings"`
	Diagnostics []lint.Diagnostic `json:"diagnostics"`
}

type testJSONDef struct {
	Path      string   `json:"path"`
	Workflow  string   `json:"workflow"`
	Dialect   string   `json:"dialect"`
	Scenarios int      `json:"scenarios"`
	Covered   int      `json:"covered"`
	Coverable int      `json:"coverable"`
	Percent   float64  `json:"percent"`
	Uncovered []string `json:"uncovered"`
	Dead      []string `json:"dead"`
}

type testJSONSummary struct {
	Scenarios   int     `json:"scenarios"`
	Passed      int     `json:"passed"`
	Failed      int     `json:"failed"`
	Covered     int     `json:"covered"`
	Coverable   int     `json:"coverable"`
	Percent     float64 `json:"percent"`
	MinCoverage float64 `json:"min_coverage"`
}

func visitStrings(vs []scenario.Visit) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

func round1(f float64) float64 { return float64(int64(f*10+0.5)) / 10 }

func testJSON(w io.Writer, s *scenario.Suite, minCoverage float64, opts Options) error {
	doc := testJSONDoc{Tool: "dws", Version: opts.Version, Scenarios: []testJSONCase{}, Definitions: []testJSONDef{}, Files: []fileJSON{}}
	for _, o := range s.Outcomes {
		c := testJSONCase{Path: o.Scenario.Path, Name: o.Scenario.Name, Definition: o.Scenario.Definition, Workflow: o.Scenario.Workflow,
			Passed: o.Passed, Seconds: o.Duration.Seconds(), Path0: visitStrings(o.Actual), Expected: visitStrings(o.Expected),
			FirstDiff: o.FirstDiff, Failures: nonNil(o.Failures), Warnings: nonNil(o.Warnings), Diagnostics: o.Diagnostics}
		if c.Diagnostics == nil {
			c.Diagnostics = []lint.Diagnostic{}
		}
		if o.Run != nil {
			c.Status = o.Run.Status.String()
		}
		doc.Scenarios = append(doc.Scenarios, c)
	}
	for _, d := range s.Definitions {
		j := testJSONDef{Path: d.Path, Workflow: d.Workflow, Dialect: d.Dialect, Scenarios: d.Scenarios, Covered: d.Coverage.Covered,
			Coverable: d.Coverage.Coverable, Percent: round1(d.Coverage.Percent()), Uncovered: []string{}, Dead: []string{}}
		for _, e := range d.Coverage.Uncovered {
			j.Uncovered = append(j.Uncovered, e.String())
		}
		for _, e := range d.Coverage.Dead {
			j.Dead = append(j.Dead, e.String())
		}
		doc.Definitions = append(doc.Definitions, j)
	}
	for _, f := range s.Files {
		if len(f.Diagnostics) > 0 {
			doc.Files = append(doc.Files, fileJSON{Path: f.Path, Dialect: f.Dialect, Diagnostics: f.Diagnostics})
		}
	}
	t := s.Total()
	doc.Summary = testJSONSummary{Scenarios: len(s.Outcomes), Passed: s.Passed(), Failed: len(s.Outcomes) - s.Passed(),
		Covered: t.Covered, Coverable: t.Coverable, Percent: round1(t.Percent()), MinCoverage: minCoverage}
	return writeJSON(w, doc, true)
}

// printableAll is each of ss through printable.String.
func printableAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = printable.String(s)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Time     string           `xml:"time,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitTestCase `xml:"testcase"`
}

// junitProperty carries a definition's coverage (JUnit has no place of its own for it).
type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitTestCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// testJUnit writes one test suite per definition and one case per scenario, the shape
// GitLab, Jenkins and GitHub's test reporters read. Every user string is shown through
// printable.String, as in validate's JUnit report.
func testJUnit(w io.Writer, s *scenario.Suite) error {
	out := junitTestSuites{Name: "dws test"}
	defErrors := map[string][]lint.Diagnostic{}
	for _, f := range s.Files {
		for _, d := range f.Diagnostics {
			if d.Severity == lint.Error {
				defErrors[f.Path] = append(defErrors[f.Path], d)
			}
		}
	}
	byDef := map[string]int{}
	var defs []string // each suite's definition, as Covered.Name says it
	suiteTime := map[int]time.Duration{}
	var total time.Duration
	for _, o := range s.Outcomes {
		def := filepath.ToSlash(o.Scenario.Definition)
		shown := printable.String(def)
		if o.Scenario.Workflow != "" {
			def += " (workflow " + o.Scenario.Workflow + ")"
			shown += " (workflow " + printable.String(o.Scenario.Workflow) + ")"
		}
		i, ok := byDef[def]
		if !ok {
			i = len(out.Suites)
			byDef[def] = i
			defs = append(defs, def)
			out.Suites = append(out.Suites, junitTestSuite{Name: shown})
		}
		su := &out.Suites[i]
		c := junitTestCase{Name: printable.String(o.Scenario.Name), Classname: "dws.scenario", File: printable.String(o.Scenario.Path),
			Time: fmt.Sprintf("%.6f", o.Duration.Seconds())}
		if !o.Passed {
			lines := printableAll(o.Failures)
			for _, d := range o.Diagnostics {
				lines = append(lines, printable.String(d.String()))
			}
			// A definition that does not validate: its errors, which the text report
			// shows above the scenarios and a JUnit reader would otherwise never see.
			for _, d := range defErrors[o.Scenario.Definition] {
				lines = append(lines, printable.String(d.String()))
			}
			if o.FirstDiff >= 0 {
				lines = append(lines, "expected: "+strings.Join(printableAll(visitStrings(o.Expected)), ", "),
					"actual:   "+strings.Join(printableAll(visitStrings(o.Actual)), ", "))
			}
			c.Failure = &junitFailure{Message: printable.String(o.Failures[0]), Type: "dws.scenario", Text: strings.Join(lines, "\n")}
			su.Failures++
			out.Failures++
		}
		c.SystemOut = strings.Join(printableAll(o.Warnings), "\n")
		su.Cases = append(su.Cases, c)
		suiteTime[i] += o.Duration
		su.Tests++
		out.Tests++
		total += o.Duration
	}
	cov := map[string]*scenario.Covered{}
	for _, d := range s.Definitions {
		cov[d.Name()] = d
	}
	for i := range out.Suites {
		su := &out.Suites[i]
		su.Time = fmt.Sprintf("%.6f", suiteTime[i].Seconds())
		if d, ok := cov[defs[i]]; ok {
			c := d.Coverage
			su.Properties = []junitProperty{
				{"dws.coverage.percent", fmt.Sprintf("%.1f", c.Percent())},
				{"dws.coverage.covered", fmt.Sprint(c.Covered)},
				{"dws.coverage.coverable", fmt.Sprint(c.Coverable)},
				{"dws.coverage.uncovered", printable.String(edgeList(c.Uncovered))},
			}
		}
	}
	out.Time = fmt.Sprintf("%.6f", total.Seconds())
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
