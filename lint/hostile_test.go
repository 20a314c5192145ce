package lint_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// newLinter checks files of up to 4 MiB, so that the parsers meet the hostile bytes
// (with the default limits.max_bytes a large file is size-limit and never parsed).
func newLinter(t testing.TB, dir string) *lint.Linter {
	t.Helper()
	cfg := lint.DefaultConfig(dir)
	cfg.Limits.MaxBytes = source.MaxFileSize
	return &lint.Linter{Registry: dialect.Registry(), Config: cfg, Jobs: 2}
}

// TestHostileInputs feeds the pipeline files built to break parsers: each must come back
// as a finding with a position, never a panic, a hang or unbounded memory.
func TestHostileInputs(t *testing.T) {
	dir := t.TempDir()
	aliasBomb := `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`
	cases := []struct {
		name, text, rule string
	}{
		{"invalid-utf8.json", "{\"schemaVersion\": \"1.0\", \"name\": \"\xff\xfe\"}", "parse"},
		{"invalid-utf8.yaml", "schemaVersion: \"1.0\"\nname: \xc3\x28\n", "parse"},
		{"deep.json", strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000), "parse"},
		{"deep-object.json", strings.Repeat(`{"a":`, 200_000) + "1" + strings.Repeat("}", 200_000), "parse"},
		{"deep.yaml", strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000), "parse"},
		{"truncated.json", `{"schemaVersion": "1.0", "name": "hello", "steps": [{"id": "a`, "parse"},
		{"alias-bomb.yaml", aliasBomb, "parse"},
		{"empty.json", "", "parse"},
		{"empty.yaml", "", "parse"},
		{"nul.json", "{\"schemaVersion\": \"1.0\x00\"}", "parse"},
		{"nul.yaml", "schemaVersion: \"1.0\"\x00\n", "parse"},
		{"nan.json", `{"schemaVersion": NaN}`, "parse"},
		{"huge-number.json", `{"schemaVersion": "1.0", "name": "huge", "version": "v1.0", "steps": [{"id": "nap", "type": "sleep", "params": {"seconds": 1e999999999}}]}`, "parse"},
		{"huge-integer.json", `{"schemaVersion": "1.0", "name": "huge", "version": "v1.0", "steps": [{"id": "nap", "type": "sleep", "params": {"seconds": 123456789012345678901234567890}}]}`, ""},
		{"tiny.yaml", "schemaVersion: \"1.0\"\nname: tiny\nversion: v1.0\nsteps: [{id: nap, type: sleep, params: {seconds: 1e-99999999}}]\n", "parse"},
		{"bom-only.json", "\xef\xbb\xbf", "parse"},
		{"array.json", "[1, 2, 3]", "dialect"},
		{"scalar.yaml", "just a string\n", "dialect"},
	}
	inputs := make([]lint.Input, 0, len(cases))
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, lint.Input{Path: p})
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res := newLinter(t, dir).Run(inputs)
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
		t.Errorf("hostile inputs allocated %d MB in all", grew>>20)
	}
	byPath := map[string][]lint.Diagnostic{}
	for _, f := range res.Files {
		byPath[filepath.Base(f.Path)] = f.Diagnostics
	}
	for _, c := range cases {
		found := c.rule == ""
		for _, d := range byPath[c.name] {
			if d.Line < 1 || d.Column < 1 {
				t.Errorf("%s: finding without a position: %v", c.name, d)
			}
			if strings.Contains(d.Message, "internal error") {
				t.Errorf("%s: %v", c.name, d)
			}
			found = found || (d.Rule == c.rule && d.Severity == lint.Error)
		}
		if !found {
			t.Errorf("%s: no %s error among %v", c.name, c.rule, byPath[c.name])
		}
	}
}

// TestHostileFiles covers what is wrong with the file rather than its bytes.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	fh, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// 100 MB without writing 100 MB: a sparse file. dws must not even read it.
	if err := fh.Truncate(100 << 20); err != nil {
		t.Fatal(err)
	}
	fh.Close()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "flows")
	if err := os.MkdirAll(filepath.Join(sub, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(sub, filepath.Join(sub, "inner", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, "inner", "x.json"), []byte(`{"steps": 1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere.json"), filepath.Join(sub, "broken.json")); err != nil {
		t.Fatal(err)
	}

	l := newLinter(t, dir)
	inputs, problems, err := l.Expand([]string{big, fifo, sub, dir + "/missing.json", "/proc/self/mem", dir})
	if err != nil {
		t.Fatal(err)
	}
	res := l.Run(inputs, problems...)
	want := map[string]string{
		"big.json":     "size-limit",
		"pipe.json":    "read",
		"loop":         "read",
		"missing.json": "read",
		"mem":          "read",
		"broken.json":  "read",
		"x.json":       "dialect",
	}
	got := map[string]string{}
	for _, f := range res.Files {
		for _, d := range f.Diagnostics {
			got[filepath.Base(f.Path)] = d.Rule
			if d.Line < 1 || d.Column < 1 {
				t.Errorf("%s: finding without a position: %v", f.Path, d)
			}
		}
	}
	for name, rule := range want {
		if got[name] != rule {
			t.Errorf("%s: got rule %q, want %q (all: %v)", name, got[name], rule, got)
		}
	}
}
