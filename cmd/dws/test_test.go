package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/scenario"
)

// fixtureSuite runs the fixture scenarios whose name matches only, from the repository
// root, the way dws test does.
func fixtureSuite(t *testing.T, only string) *scenario.Suite {
	t.Helper()
	t.Chdir(repoRoot)
	reg := dialect.Registry()
	cfg, err := lint.LoadConfig(".dws.yaml", reg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	files, err := scenario.Find([]string{"fixtures"})
	if err != nil {
		t.Fatal(err)
	}
	var re = mustRegexp(t, only)
	return scenario.Run(l, files, re, scenario.Options{}, 2)
}

// The coverage page is well-formed XML and lists every edge of every definition,
// covered edges as covered and the others as uncovered or dead (the picture drawn from
// them is judged in Chromium: TestCoveragePageInChromium).
func TestCoverageReportPage(t *testing.T) {
	// Only the scenarios in which something fails: some edges stay uncovered.
	only := "fails|blocked|invalid"
	page := filepath.Join(t.TempDir(), "coverage.html")
	var out, errb bytes.Buffer
	t.Chdir(repoRoot)
	if code := run([]string{"dws", "test", "--run", only, "--coverage-report", page, "fixtures"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string]string{} // "definition|edge" -> class
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	def := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attrs := map[string]string{}
		for _, a := range el.Attr {
			attrs[a.Name.Local] = a.Value
		}
		switch {
		case el.Name.Local == "section" && attrs["class"] == "definition":
			def = attrs["id"]
		case attrs["data-edge"] != "":
			drawn[def+"|"+attrs["data-edge"]] = attrs["class"]
		}
	}
	suite := fixtureSuite(t, only)
	if len(suite.Definitions) < 4 {
		t.Fatalf("%d definitions", len(suite.Definitions))
	}
	uncovered := 0
	for _, d := range suite.Definitions {
		missing := map[string]bool{}
		for _, e := range d.Coverage.Uncovered {
			missing[e.String()] = true
		}
		for _, e := range d.Result.Edges {
			want := "covered"
			switch {
			case !e.Coverable:
				want = "dead"
			case missing[e.String()]:
				want = "uncovered"
				uncovered++
			}
			key := "def-" + anchorOf(d.Name()) + "|" + e.String()
			got, ok := drawn[key]
			switch {
			case !ok:
				t.Errorf("%s: edge %s is not drawn", d.Name(), e)
			case got != want:
				t.Errorf("%s: edge %s is drawn %s, want %s", d.Name(), e, got, want)
			}
		}
	}
	if uncovered == 0 {
		t.Error("no uncovered edge: the test does not exercise the dashed red edges")
	}
}

// anchorOf is the page's id for a definition (report.anchor, written again here so a
// change of it shows).
func anchorOf(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteString("_" + strconv.FormatInt(int64(r), 16))
		}
	}
	return b.String()
}

type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Time     string `xml:"time,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			File      string `xml:"file,attr"`
			Time      string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// The JUnit report has the shape CI test reporters read: testsuites > testsuite >
// testcase, counts that add up, numeric times, a failure with a message.
func TestJUnitReport(t *testing.T) {
	dir := t.TempDir()
	def, err := os.ReadFile(filepath.Join(repoRoot, "fixtures/sim/expense.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"expense.json": string(def),
		".dws.yaml":    "version: 1\nrules: { ai-schema: off, sql-table: off }\n",
		"good.scenario.yaml": "definition: expense.json\ncontext: { amount: 10, fraudScore: 0.1 }\n" +
			"expect: { status: succeeded, path: [fraud-score, branch-approve=true, auto-approve] }\n",
		"bad.scenario.yaml": "definition: expense.json\ncontext: { amount: 5000 }\nexpect: { status: failed }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	var out, errb bytes.Buffer
	if code := run([]string{"dws", "test", "--format", "junit", "."}, nil, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	var doc junitDoc
	if err := xml.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out.String())
	}
	if doc.Tests != 2 || doc.Failures != 1 || len(doc.Suites) != 1 {
		t.Fatalf("tests %d, failures %d, suites %d\n%s", doc.Tests, doc.Failures, len(doc.Suites), out.String())
	}
	s := doc.Suites[0]
	if s.Name != "expense.json" || s.Tests != 2 || s.Failures != 1 || len(s.Cases) != 2 {
		t.Fatalf("suite %+v", s)
	}
	for _, tm := range []string{doc.Time, s.Time, s.Cases[0].Time, s.Cases[1].Time} {
		if _, err := strconv.ParseFloat(tm, 64); err != nil {
			t.Errorf("time %q is not a number of seconds", tm)
		}
	}
	props := map[string]string{}
	for _, p := range s.Props {
		props[p.Name] = p.Value
	}
	if props["dws.coverage.covered"] != "5" || props["dws.coverage.coverable"] != "10" || props["dws.coverage.percent"] != "50.0" {
		t.Errorf("coverage properties %v", props)
	}
	bad, good := s.Cases[0], s.Cases[1]
	if bad.Name != "bad" || bad.Failure == nil || bad.Failure.Message != "the run ended succeeded, expected failed" {
		t.Errorf("bad case %+v", bad)
	}
	if good.Name != "good" || good.Failure != nil || good.Classname != "dws.scenario" || good.File != "good.scenario.yaml" {
		t.Errorf("good case %+v", good)
	}
}

func mustRegexp(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(s)
	if err != nil {
		t.Fatal(err)
	}
	return re
}
