package report_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
)

const sarifSchemaPath = "../../shared/corpus/sarif/sarif-schema-2.1.0.json"

// compileSARIFSchema compiles the official schema once; it takes most of a second.
var compileSARIFSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return jsonschema.Compile(sarifSchemaPath)
})

// sarifSchema returns the official SARIF 2.1.0 schema (draft-04, formats asserted).
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	if _, err := os.Stat(sarifSchemaPath); errors.Is(err, fs.ErrNotExist) {
		t.Skipf("SARIF corpus absent: %s not found, cannot validate against the official schema", sarifSchemaPath)
	}
	s, err := compileSARIFSchema()
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	return s
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, out []byte) {
	t.Helper()
	if err := schemaCheck(s, out); err != nil {
		t.Fatalf("output does not validate against SARIF 2.1.0: %#v\n%s", err, out)
	}
}

func schemaCheck(s *jsonschema.Schema, out []byte) error {
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	return s.Validate(v)
}

func writeSARIF(t *testing.T, reg *lint.Registry, res *lint.Result) []byte {
	t.Helper()
	w, err := report.New("sarif", report.Options{Version: "1.2.3", Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := w.Write(&buf, res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The parts of a SARIF log the tests look at.
type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		ColumnKind         string          `json:"columnKind"`
		OriginalURIBaseIDs json.RawMessage `json:"originalUriBaseIds"`
		Tool               struct {
			Driver struct {
				Name           string `json:"name"`
				Version        string `json:"version"`
				InformationURI string `json:"informationUri"`
				Rules          []struct {
					ID               string `json:"id"`
					ShortDescription struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
					FullDescription struct {
						Text string `json:"text"`
					} `json:"fullDescription"`
					DefaultConfiguration struct {
						Level string `json:"level"`
					} `json:"defaultConfiguration"`
					Properties struct {
						Dialect string `json:"dialect"`
					} `json:"properties"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []sarifResult `json:"results"`
	} `json:"runs"`
}

type sarifResult struct {
	RuleID    string `json:"ruleId"`
	RuleIndex *int   `json:"ruleIndex"`
	Level     string `json:"level"`
	Message   struct {
		Text string `json:"text"`
	} `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int `json:"id"`
	PhysicalLocation *struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId"`
		} `json:"artifactLocation"`
		Region *sarifRegion `json:"region"`
	} `json:"physicalLocation"`
	LogicalLocations []struct {
		FullyQualifiedName string `json:"fullyQualifiedName"`
		Kind               string `json:"kind"`
	} `json:"logicalLocations"`
	Message *struct {
		Text string `json:"text"`
	} `json:"message"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine"`
	EndColumn   int `json:"endColumn"`
}

func decodeSARIF(t *testing.T, out []byte) sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatalf("decoding SARIF: %v\n%s", err, out)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("got %d runs, want 1", len(log.Runs))
	}
	return log
}

func registry() *lint.Registry { return dialect.Registry() }

// handResult has every kind of finding: three severities, related locations, a rule the
// registry does not know, an unknown position, and paths that need percent-encoding.
func handResult() *lint.Result {
	const file = "flows/my flow/café.json"
	return &lint.Result{Files: []lint.FileResult{
		{Path: "<stdin>", Diagnostics: []lint.Diagnostic{
			{Rule: "parse", Severity: lint.Error, Message: "unexpected end of input", File: "<stdin>"},
		}},
		{Path: file, Diagnostics: []lint.Diagnostic{
			{
				Rule: "duplicate-id", Severity: lint.Error, Message: `step "nap" is defined twice`,
				File: file, Pointer: "/steps/1/id", Line: 5, Column: 13, EndLine: 5, EndColumn: 18,
				Related: []lint.Related{
					{File: file, Pointer: "/steps/0/id", Line: 4, Column: 13, Message: "first defined here"},
					{File: "other.json", Line: 2, Column: 1, Message: "also here"},
				},
			},
			{
				Rule: "unused-suppression", Severity: lint.Warning, Message: "nothing to suppress",
				File: file, Pointer: "/steps/0", Line: 7, Column: 3, EndLine: 9, EndColumn: 4,
			},
			{
				Rule: "cycle", Severity: lint.Info, Message: "a cycle, at info",
				File: file, Line: 11, Column: 1, EndLine: 11, EndColumn: 1,
			},
			{Rule: "no-such-rule", Severity: lint.Warning, Message: "from a rule outside the catalog", File: file, Line: 1},
		}},
	}}
}

func TestSARIFValidatesAndMapsFields(t *testing.T) {
	schema := sarifSchema(t)
	reg := registry()
	out := writeSARIF(t, reg, handResult())
	validateSARIF(t, schema, out)
	log := decodeSARIF(t, out)

	if log.Version != "2.1.0" || log.Schema != "https://json.schemastore.org/sarif-2.1.0.json" {
		t.Errorf("version %q, $schema %q", log.Version, log.Schema)
	}
	run := log.Runs[0]
	if run.ColumnKind != "unicodeCodePoints" {
		t.Errorf("columnKind = %q, want unicodeCodePoints (dws columns count code points)", run.ColumnKind)
	}
	if run.OriginalURIBaseIDs != nil {
		t.Errorf("originalUriBaseIds is written (%s); it would make output machine-dependent", run.OriginalURIBaseIDs)
	}
	d := run.Tool.Driver
	if d.Name != "dws" || d.Version != "1.2.3" || d.InformationURI != "https://dws.dev" {
		t.Errorf("driver = %q %q %q", d.Name, d.Version, d.InformationURI)
	}
	if len(d.Rules) != len(reg.Rules()) {
		t.Fatalf("driver lists %d rules, registry has %d", len(d.Rules), len(reg.Rules()))
	}
	for i, r := range reg.Rules() {
		got := d.Rules[i]
		want := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "note", lint.Off: "none"}[r.Severity]
		if got.ID != r.ID || got.ShortDescription.Text != r.Summary || got.FullDescription.Text != r.Doc ||
			got.DefaultConfiguration.Level != want || got.Properties.Dialect != r.Dialect {
			t.Errorf("rules[%d] = %+v, want %s (%s, dialect %q)", i, got, r.ID, want, r.Dialect)
		}
	}

	if len(run.Results) != 5 {
		t.Fatalf("got %d results, want 5", len(run.Results))
	}
	byRule := map[string]sarifResult{}
	for _, r := range run.Results {
		byRule[r.RuleID] = r
		if r.RuleIndex != nil && d.Rules[*r.RuleIndex].ID != r.RuleID {
			t.Errorf("%s: ruleIndex %d points at %s", r.RuleID, *r.RuleIndex, d.Rules[*r.RuleIndex].ID)
		}
		if r.RuleIndex == nil && r.RuleID != "no-such-rule" {
			t.Errorf("%s: no ruleIndex", r.RuleID)
		}
		if len(r.PartialFingerprints["dwsFindingKey/v1"]) != 64 {
			t.Errorf("%s: partialFingerprints = %v", r.RuleID, r.PartialFingerprints)
		}
	}
	for rule, level := range map[string]string{"parse": "error", "duplicate-id": "error", "unused-suppression": "warning", "cycle": "note"} {
		if got := byRule[rule].Level; got != level {
			t.Errorf("%s: level %q, want %q", rule, got, level)
		}
	}
	if byRule["no-such-rule"].RuleIndex != nil {
		t.Errorf("a rule outside the catalog got ruleIndex %d", *byRule["no-such-rule"].RuleIndex)
	}

	dup := byRule["duplicate-id"]
	if dup.Message.Text != `step "nap" is defined twice` {
		t.Errorf("message = %q", dup.Message.Text)
	}
	loc := dup.Locations[0]
	if a := loc.PhysicalLocation.ArtifactLocation; a.URI != "flows/my%20flow/caf%C3%A9.json" || a.URIBaseID != "%SRCROOT%" {
		t.Errorf("artifactLocation = %+v", a)
	}
	if r := *loc.PhysicalLocation.Region; r != (sarifRegion{5, 13, 5, 18}) {
		t.Errorf("region = %+v, want 5:13-5:18", r)
	}
	if len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != "/steps/1/id" || loc.LogicalLocations[0].Kind != "element" {
		t.Errorf("logicalLocations = %+v", loc.LogicalLocations)
	}
	if len(dup.RelatedLocations) != 2 {
		t.Fatalf("relatedLocations = %+v", dup.RelatedLocations)
	}
	for i, rl := range dup.RelatedLocations {
		if rl.ID == nil || *rl.ID != i {
			t.Errorf("relatedLocations[%d].id = %v", i, rl.ID)
		}
	}
	first := dup.RelatedLocations[0]
	if first.Message == nil || first.Message.Text != "first defined here" ||
		*first.PhysicalLocation.Region != (sarifRegion{StartLine: 4, StartColumn: 13}) ||
		first.LogicalLocations[0].FullyQualifiedName != "/steps/0/id" {
		t.Errorf("relatedLocations[0] = %+v", first)
	}
	if dup.RelatedLocations[1].LogicalLocations != nil {
		t.Errorf("related location without a pointer has logicalLocations %+v", dup.RelatedLocations[1].LogicalLocations)
	}

	if r := *byRule["unused-suppression"].Locations[0].PhysicalLocation.Region; r != (sarifRegion{7, 3, 9, 4}) {
		t.Errorf("multi-line region = %+v", r)
	}
	info := byRule["cycle"].Locations[0]
	if info.LogicalLocations != nil {
		t.Errorf("empty pointer gave logicalLocations %+v", info.LogicalLocations)
	}
	if r := *info.PhysicalLocation.Region; r != (sarifRegion{11, 1, 11, 1}) {
		t.Errorf("empty region = %+v", r)
	}
	// A finding without a position (an unparsable file) names the file and no region:
	// SARIF has no line 0.
	parse := byRule["parse"].Locations[0].PhysicalLocation
	if parse.Region != nil || parse.ArtifactLocation.URI != "%3Cstdin%3E" {
		t.Errorf("parse location = %+v, region %+v", parse.ArtifactLocation, parse.Region)
	}
	if r := *byRule["no-such-rule"].Locations[0].PhysicalLocation.Region; r != (sarifRegion{StartLine: 1}) {
		t.Errorf("line-only region = %+v", r)
	}
	if bytes.Contains(out, []byte(`Line": 0`)) || bytes.Contains(out, []byte(`Column": 0`)) {
		t.Errorf("output holds a zero line or column:\n%s", out)
	}
}

func TestSARIFEmptyResult(t *testing.T) {
	schema := sarifSchema(t)
	for name, res := range map[string]*lint.Result{
		"no files":         {},
		"files, no errors": {Files: []lint.FileResult{{Path: "ok.json"}}},
	} {
		t.Run(name, func(t *testing.T) {
			out := writeSARIF(t, registry(), res)
			validateSARIF(t, schema, out)
			if !bytes.Contains(out, []byte(`"results": []`)) {
				t.Errorf("empty results are not written as []:\n%s", out)
			}
		})
	}
}

func TestSARIFWithoutRegistry(t *testing.T) {
	schema := sarifSchema(t)
	out := writeSARIF(t, nil, handResult())
	validateSARIF(t, schema, out)
	log := decodeSARIF(t, out)
	if n := len(log.Runs[0].Tool.Driver.Rules); n != 0 {
		t.Errorf("%d rules without a registry", n)
	}
	for _, r := range log.Runs[0].Results {
		if r.RuleIndex != nil {
			t.Errorf("%s: ruleIndex %d without a registry", r.RuleID, *r.RuleIndex)
		}
	}
}

// TestSARIFURIs checks how file paths become artifact URIs.
func TestSARIFURIs(t *testing.T) {
	schema := sarifSchema(t)
	for _, tc := range []struct{ file, uri, base string }{
		{"bad.json", "bad.json", "%SRCROOT%"},
		{"./flows/a.json", "flows/a.json", "%SRCROOT%"},
		{"../up/a.json", "../up/a.json", "%SRCROOT%"},
		{"a b/ü#1?.yaml", "a%20b/%C3%BC%231%3F.yaml", "%SRCROOT%"},
		{"100%.json", "100%25.json", "%SRCROOT%"},
		{"c:d.json", "./c:d.json", "%SRCROOT%"},
		{"/abs/my file.json", "file:///abs/my%20file.json", ""},
	} {
		d := lint.Diagnostic{Rule: "parse", Severity: lint.Error, Message: "m", File: filepath.FromSlash(tc.file), Line: 1, Column: 1}
		out := writeSARIF(t, registry(), &lint.Result{Files: []lint.FileResult{{Path: d.File, Diagnostics: []lint.Diagnostic{d}}}})
		validateSARIF(t, schema, out)
		a := decodeSARIF(t, out).Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation
		if a.URI != tc.uri || a.URIBaseID != tc.base {
			t.Errorf("%q: uri %q base %q, want %q %q", tc.file, a.URI, a.URIBaseID, tc.uri, tc.base)
		}
	}
}

// TestSARIFPipeline runs the real pipeline on a broken file and checks that what it
// reports survives into SARIF unchanged.
func TestSARIFPipeline(t *testing.T) {
	schema := sarifSchema(t)
	dir := t.TempDir()
	t.Chdir(dir)
	bad := `{
  "schemaVersion": "1.0", "name": "dup", "version": "v1.0",
  "steps": [
    { "id": "nap", "type": "sleep", "params": { "seconds": 1 }, "onSuccess": null },
    { "id": "nap", "type": "sleep", "params": { "seconds": 2 } }
  ]
}
`
	if err := os.WriteFile("bad file.json", []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	l := &lint.Linter{Registry: dialect.Registry(), Config: lint.DefaultConfig(dir)}
	res := l.Run([]lint.Input{{Path: "bad file.json"}})
	diags := res.Diagnostics()
	if len(diags) == 0 {
		t.Fatal("the pipeline found nothing in a file with a duplicate id")
	}

	reg := l.Registry
	out := writeSARIF(t, reg, res)
	validateSARIF(t, schema, out)
	if again := writeSARIF(t, reg, res); !bytes.Equal(out, again) {
		t.Error("two writes of one result differ")
	}
	log := decodeSARIF(t, out)
	if len(log.Runs[0].Results) != len(diags) {
		t.Fatalf("%d results for %d diagnostics", len(log.Runs[0].Results), len(diags))
	}
	for i, d := range diags {
		r := log.Runs[0].Results[i]
		if r.RuleID != d.Rule || r.Message.Text != d.Message {
			t.Errorf("result %d = %s %q, want %s %q", i, r.RuleID, r.Message.Text, d.Rule, d.Message)
		}
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != "bad%20file.json" {
			t.Errorf("result %d uri = %q", i, pl.ArtifactLocation.URI)
		}
		if want := (sarifRegion{d.Line, d.Column, d.EndLine, d.EndColumn}); pl.Region == nil || *pl.Region != want {
			t.Errorf("result %d region = %+v, want %+v", i, pl.Region, want)
		}
	}
}

// TestSARIFSchemaRejects proves the gate can fail: a valid log, broken in ways the
// schema forbids, must not validate.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := sarifSchema(t)
	out := writeSARIF(t, registry(), handResult())
	validateSARIF(t, schema, out)
	result := func(log map[string]any) map[string]any {
		return log["runs"].([]any)[0].(map[string]any)["results"].([]any)[1].(map[string]any)
	}
	region := func(log map[string]any) map[string]any {
		loc := result(log)["locations"].([]any)[0].(map[string]any)
		return loc["physicalLocation"].(map[string]any)["region"].(map[string]any)
	}
	for name, mutate := range map[string]func(log map[string]any){
		"result level fatal": func(log map[string]any) { result(log)["level"] = "fatal" },
		"startLine 0":        func(log map[string]any) { region(log)["startLine"] = 0 },
		"startColumn 0":      func(log map[string]any) { region(log)["startColumn"] = 0 },
		"ruleIndex -2":       func(log map[string]any) { result(log)["ruleIndex"] = -2 },
		"columnKind bytes": func(log map[string]any) {
			log["runs"].([]any)[0].(map[string]any)["columnKind"] = "bytes"
		},
		"version 2.0.0": func(log map[string]any) { log["version"] = "2.0.0" },
	} {
		t.Run(name, func(t *testing.T) {
			var log map[string]any
			if err := json.Unmarshal(out, &log); err != nil {
				t.Fatal(err)
			}
			mutate(log)
			bad, err := json.Marshal(log)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemaCheck(schema, bad); err == nil {
				t.Errorf("the schema accepted a log with %s", name)
			}
		})
	}
}

// Every rule carries help (text and markdown with its examples) and a helpUri, which
// GitHub code scanning shows; an invocation records the exit code and the run's times.
// Both stay valid against the official schema.
func TestSARIFHelpAndInvocation(t *testing.T) {
	schema := sarifSchema(t)
	start := time.Date(2026, 11, 23, 1, 2, 3, 4000, time.UTC)
	w, err := report.New("sarif", report.Options{Version: "1.2.3", Registry: registry(),
		Invocation: &report.Invocation{ExitCode: 1, Start: start, End: start.Add(1500 * time.Millisecond)}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := w.Write(&buf, handResult()); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, schema, buf.Bytes())
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
						Help    struct {
							Text     string `json:"text"`
							Markdown string `json:"markdown"`
						} `json:"help"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Invocations []struct {
				ExecutionSuccessful bool   `json:"executionSuccessful"`
				ExitCode            int    `json:"exitCode"`
				Start               string `json:"startTimeUtc"`
				End                 string `json:"endTimeUtc"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful || run.Invocations[0].ExitCode != 1 ||
		run.Invocations[0].Start != "2026-11-23T01:02:03.000004Z" || run.Invocations[0].End != "2026-11-23T01:02:04.500004Z" {
		t.Errorf("invocations = %+v", run.Invocations)
	}
	for _, r := range run.Tool.Driver.Rules {
		if r.HelpURI != "https://dws.dev/rules/"+r.ID || !strings.Contains(r.Help.Text, "dws explain "+r.ID) {
			t.Errorf("rule %s: helpUri %q, help %q", r.ID, r.HelpURI, r.Help.Text)
		}
		rule, _ := registry().Lookup(r.ID)
		if (rule.Fail.Text != "") != strings.Contains(r.Help.Markdown, "Fails (`") ||
			(rule.Pass.Text != "") != strings.Contains(r.Help.Markdown, "Passes (`") {
			t.Errorf("rule %s: help.markdown lacks its examples:\n%s", r.ID, r.Help.Markdown)
		}
	}
	// Without an invocation the output is byte-stable: no times.
	if out := writeSARIF(t, registry(), handResult()); bytes.Contains(out, []byte("invocations")) {
		t.Error("invocations written without Options.Invocation")
	}
}
