package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

type ccIssue struct {
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

// --format codeclimate has the shape GitLab's Code Quality widget reads, for every err
// fixture; fingerprints are unique and survive lines moving above a finding.
func TestCodeClimateReport(t *testing.T) {
	t.Chdir(repoRoot)
	sch, err := jsonschema.Compile("cmd/dws/testdata/gitlab-codequality.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"dws", "validate", "--format", "codeclimate", "fixtures/cortex/err", "fixtures/dws/err", "fixtures/direclaw/err", "fixtures/ensemble/err"}, nil, &out, &errb); code != 1 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("not GitLab's shape: %v", err)
	}
	var issues []ccIssue
	if err := json.Unmarshal(out.Bytes(), &issues); err != nil {
		t.Fatal(err)
	}
	if len(issues) < 100 {
		t.Fatalf("%d issues", len(issues))
	}
	seen := map[string]bool{}
	for _, is := range issues {
		if seen[is.Fingerprint] {
			t.Errorf("fingerprint %s twice", is.Fingerprint)
		}
		seen[is.Fingerprint] = true
	}

	// The same file with two lines added on top: the same fingerprints, lines 2 lower.
	src, err := os.ReadFile("fixtures/cortex/err/expense.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	report := func(text string) []ccIssue {
		p := filepath.Join(dir, "flow.json")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var o, e bytes.Buffer
		t.Chdir(dir)
		run([]string{"dws", "validate", "--format", "codeclimate", "flow.json"}, nil, &o, &e)
		var is []ccIssue
		if err := json.Unmarshal(o.Bytes(), &is); err != nil {
			t.Fatalf("%v: %s", err, o.String())
		}
		return is
	}
	before, after := report(string(src)), report("\n\n"+string(src))
	if len(before) == 0 || len(before) != len(after) {
		t.Fatalf("%d issues before, %d after", len(before), len(after))
	}
	for i := range before {
		if before[i].Fingerprint != after[i].Fingerprint || after[i].Location.Lines.Begin != before[i].Location.Lines.Begin+2 {
			t.Errorf("%s: %+v became %+v", before[i].CheckName, before[i], after[i])
		}
		if sev := after[i].Severity; sev != "major" && sev != "minor" && sev != "info" {
			t.Errorf("severity %q", after[i].Severity)
		}
	}
}
