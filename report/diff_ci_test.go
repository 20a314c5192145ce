package report_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/sim"
)

// diffOf compares a fixtures/diff case as dws diff does.
func diffOf(t *testing.T, dir string) *change.Report {
	t.Helper()
	reg := registry()
	l, err := lint.New(reg, lint.DefaultConfig(dir))
	if err != nil {
		t.Fatal(err)
	}
	side := func(name string) []*change.Unit {
		matches, _ := filepath.Glob(filepath.Join(dir, name+".*"))
		if len(matches) != 1 {
			t.Fatalf("%s: %v", name, matches)
		}
		data, err := os.ReadFile(matches[0])
		if err != nil {
			t.Fatal(err)
		}
		us := l.Inspect(filepath.Base(matches[0]), data).Units()
		for _, u := range us {
			u.Path = filepath.Base(matches[0])
		}
		return us
	}
	return change.Diff(side("old"), side("new"), nil, sim.Options{})
}

func defaultSeverity(rule string) lint.Severity {
	if r, ok := registry().Lookup(rule); ok {
		return r.Severity
	}
	return lint.Error
}

// dws diff's CI formats: SARIF that validates against the official schema, with the
// version finding and each breaking change as results of registered rules; JUnit that
// parses; codeclimate with a fingerprint per finding. An acknowledged change is left out.
func TestDiffCIFormats(t *testing.T) {
	rep := diffOf(t, filepath.Join("..", "fixtures", "diff", "cortex", "breaking-bump-too-small"))
	opts := report.Options{Version: "test", Registry: registry()}
	var out bytes.Buffer
	if err := report.WriteDiff(&out, "sarif", rep, opts, defaultSeverity); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarifSchema(t), out.Bytes())
	log := decodeSARIF(t, out.Bytes())
	var rules []string
	for _, r := range log.Runs[0].Results {
		rules = append(rules, r.RuleID)
		if r.RuleIndex == nil {
			t.Errorf("result of %s has no rule index: its rule is not registered", r.RuleID)
		}
	}
	// Not simulated here: no paths-lost; a node removed, an edge retargeted, a limit
	// tightened.
	if got := strings.Join(rules, " "); strings.Count(got, "breaking-change") != 3 || strings.Count(got, "version-bump-too-small") != 1 {
		t.Errorf("SARIF results %q", got)
	}

	out.Reset()
	if err := report.WriteDiff(&out, "junit", rep, opts, defaultSeverity); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(out.Bytes(), new(struct{})); err != nil || !strings.Contains(out.String(), "version-bump-too-small") {
		t.Errorf("JUnit: %v\n%s", err, out.String())
	}

	out.Reset()
	if err := report.WriteDiff(&out, "codeclimate", rep, opts, defaultSeverity); err != nil {
		t.Fatal(err)
	}
	var issues []struct {
		CheckName   string `json:"check_name"`
		Fingerprint string `json:"fingerprint"`
	}
	if err := json.Unmarshal(out.Bytes(), &issues); err != nil || len(issues) != 4 {
		t.Fatalf("codeclimate: %v, %d issues\n%s", err, len(issues), out.String())
	}

	// Acknowledged, a breaking change is no finding; off, the version rule neither.
	ack := map[string]string{}
	for _, c := range rep.Units[0].Changes {
		ack[c.Fingerprint] = "intended"
	}
	rep.Acknowledge(ack)
	res := report.DiffResult(rep, func(rule string) lint.Severity {
		if rule == "version-bump-too-small" {
			return lint.Off
		}
		return defaultSeverity(rule)
	})
	if n := len(res.Diagnostics()); n != 0 {
		t.Errorf("%d findings left: %v", n, res.Diagnostics())
	}
}
