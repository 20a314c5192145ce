package direclaw_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// ownTests holds DireClaw's own test files (testdata/direclaw-tests/README.md).
const ownTests = "testdata/direclaw-tests"

// TestDireClawOwnTests validates the orchestrator files of DireClaw's own test suite,
// setup templates and docs as the current release (direclaw: { release: current }) and
// compares with what DireClaw does with each (verdicts.tsv): dws accepts a file (no
// error) exactly when DireClaw does, except where it is stricter on purpose, and then
// the one rule named there is what rejects it.
func TestDireClawOwnTests(t *testing.T) {
	type verdict struct{ file, want, why, stricter string }
	f, err := os.Open(filepath.Join(ownTests, "verdicts.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var verdicts []verdict
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			cols := strings.Split(line, "\t")
			if len(cols) != 4 || (cols[1] != "accept" && cols[1] != "reject") {
				t.Fatalf("verdicts.tsv: bad line %q", line)
			}
			verdicts = append(verdicts, verdict{cols[0], cols[1], cols[2], cols[3]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	reg := dialect.Registry()
	run := func(release string) map[string][]string {
		cfg, err := lint.ParseConfig(filepath.Join(t.TempDir(), lint.ConfigName), []byte("direclaw: { release: "+release+" }\n"), reg)
		if err != nil {
			t.Fatal(err)
		}
		l := &lint.Linter{Registry: reg, Config: cfg, Jobs: 1}
		var inputs []lint.Input
		for _, v := range verdicts {
			inputs = append(inputs, lint.Input{Path: filepath.Join(ownTests, v.file)})
		}
		errs := map[string][]string{}
		for _, fr := range l.Run(inputs).Files {
			var rules []string
			for _, d := range fr.Diagnostics {
				if d.Severity == lint.Error {
					rules = append(rules, d.Rule)
				}
			}
			errs[filepath.Base(fr.Path)] = rules
		}
		return errs
	}
	errs := run("current")
	agree, onPurpose := 0, 0
	for _, v := range verdicts {
		rules, ok := errs[v.file]
		if !ok {
			t.Fatalf("%s was not checked", v.file)
		}
		got := "accept"
		if len(rules) > 0 {
			got = "reject"
		}
		switch {
		case got == v.want:
			agree++
			if v.stricter != "" {
				t.Errorf("%s: listed as stricter on purpose, but dws agrees with DireClaw (%s)", v.file, v.want)
			}
		case v.stricter != "" && v.want == "accept":
			rule, _, _ := strings.Cut(v.stricter, ":")
			if uniq := slices.Compact(slices.Sorted(slices.Values(rules))); !slices.Equal(uniq, []string{rule}) {
				t.Errorf("%s: dws is to be stricter by %s alone, but reports %v", v.file, rule, rules)
			}
			onPurpose++
		default:
			t.Errorf("%s: DireClaw %s it (%s); dws %ss it, with errors %v", v.file, v.want+"s", v.why, got, rules)
		}
	}
	both := run("both")
	agreeBoth := 0
	for _, v := range verdicts {
		if (len(both[v.file]) == 0) == (v.want == "accept") {
			agreeBoth++
		}
	}
	t.Logf("release current: dws agrees with DireClaw on %d of %d files, and is stricter on purpose on %d; release both: %d agree",
		agree, len(verdicts), onPurpose, agreeBoth)
}
