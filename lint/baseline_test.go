package lint_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dwsdev/dws/lint"
)

// The baseline is read strictly: a key that differs only in case, or any other unknown
// key, is an error instead of entries silently merged or dropped.
func TestBaselineRejectsStrayKeys(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"case":      `{"version": 1, "findings": [], "Findings": [{"file": "a.json", "rule": "cycle", "pointer": ""}]}`,
		"entry key": `{"version": 1, "findings": [{"file": "a.json", "rule": "cycle", "Rule": "entry", "pointer": ""}]}`,
		"duplicate": `{"version": 1, "findings": [], "findings": []}`,
		"version":   `{"version": 2, "findings": []}`,
	} {
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := lint.LoadBaseline(p); err == nil {
			t.Errorf("%s: %s was accepted", name, text)
		}
	}
}

// Hooks that record baselines for different files at once all land: each run replaces
// the entries of the files it checked and keeps the others.
func TestWriteBaselineMerges(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "base.json")
	result := func(file string, rules ...string) *lint.Result {
		fr := lint.FileResult{Path: filepath.Join(dir, file)}
		for _, r := range rules {
			fr.Diagnostics = append(fr.Diagnostics, lint.Diagnostic{Rule: r, File: fr.Path, Severity: lint.Error})
		}
		return &lint.Result{Files: []lint.FileResult{fr}}
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := lint.WriteBaseline(path, result(fmt.Sprintf("f%d.json", i), "cycle")); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	b, err := lint.LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 8 {
		t.Fatalf("%d entries after 8 concurrent writers; want 8: %v", len(b.Entries), b.Entries)
	}
	// A file checked again replaces its own entries only.
	if _, _, err := lint.WriteBaseline(path, result("f3.json", "entry", "dead-end")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lint.WriteBaseline(path, result("f5.json")); err != nil {
		t.Fatal(err)
	}
	b, _ = lint.LoadBaseline(path)
	var got []string
	for _, e := range b.Entries {
		got = append(got, e.File+":"+e.Rule)
	}
	want := "f0.json:cycle f1.json:cycle f2.json:cycle f3.json:dead-end f3.json:entry f4.json:cycle f6.json:cycle f7.json:cycle"
	if strings.Join(got, " ") != want {
		t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}
