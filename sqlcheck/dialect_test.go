package sqlcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlcheck"
)

// quill is a dialect made up here, to show what any dialect with SQL writes: documents
// with a top-level "quill" key whose "query" is one statement, given the arguments
// listed under "args". Its one SQL part is SQLSites.
func quill(id string) *lint.Dialect {
	return &lint.Dialect{
		ID:     id,
		Detect: func(doc *source.Document) bool { return doc.Root.Has(id) },
		SQLSites: func(p *lint.Pass) []sqlcheck.Site {
			args := 0
			if a := p.Doc.Root.Get("args"); a != nil {
				args = len(a.Items)
			}
			return []sqlcheck.Site{{Text: p.Doc.Root.Get("query"), Pointer: "/query", Args: args}}
		},
	}
}

// validate runs one quill file, with config as its .dws.yaml when not empty, and
// returns its findings as file:line:col: rule: message lines. The schema stage's finding
// that quill has no embedded schema is left out.
func validate(t *testing.T, reg *lint.Registry, doc, config string) string {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := lint.DefaultConfig(dir)
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, lint.ConfigName), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		if cfg, err = lint.LoadConfig(filepath.Join(dir, lint.ConfigName), reg); err != nil {
			t.Fatal(err)
		}
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range l.Run([]lint.Input{{Path: path}}).Diagnostics() {
		if d.Rule != "schema" {
			fmt.Fprintf(&b, "%d:%d-%d:%d %s %s: %s\n", d.Line, d.Column, d.EndLine, d.EndColumn, d.Pointer, d.Rule, d.Message)
		}
	}
	return b.String()
}

// A dialect that only lists its SQL sites gets the SQL rules, the sql: section and its
// findings on the characters inside its strings: no Cortex in sight.
func TestDialectWithSQL(t *testing.T) {
	reg := lint.NewRegistry(quill("quill"))
	doc := "quill: 1\nquery: \"SELECT id, name FROM payroll\\tWHERE id = $2\"\nargs: [7]\n"
	config := "version: 1\nsql: { allow: { payroll: [id] } }\n"
	// "name" is columns 20-24 of line 2; $2 is at column 50, counting the two
	// characters of the \t escape before it.
	want := `2:9-2:52 /query sql-args: args[0] is never used
2:20-2:24 /query sql-column: column "name" of "payroll" is not allowed (allowed: id)
2:50-2:52 /query sql-args: $2 has no entry in args (1 given)
`
	if got := validate(t, reg, doc, config); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	// Without a sql: section nothing is allowed, and the finding says why.
	want = `2:23-2:30 /query sql-table: table "payroll" is not on the allow-list (no sql: section is configured, so nothing is allowed)` + "\n"
	if got := validate(t, reg, "quill: 1\nquery: SELECT id FROM payroll\n", ""); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	// The rules are the dialects' with SQL, in detection order; a security rule keeps
	// its inline policy.
	two := lint.NewRegistry(quill("quill"), quill("ink"))
	r, ok := two.Lookup("sql-table")
	if !ok || r.Dialect != "quill,ink" || r.Severity != lint.Error || r.Inline != lint.InlineIfConfigured {
		t.Errorf("sql-table is registered as %+v, %v", r, ok)
	}
}

// A registry without a dialect with SQL has no SQL rules and no sql: section.
func TestNoSQLNoRules(t *testing.T) {
	plain := quill("plain")
	plain.SQLSites = nil
	reg := lint.NewRegistry(plain)
	if _, ok := reg.Lookup("sql-table"); ok {
		t.Error("sql-table is registered for a dialect without SQL")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, lint.ConfigName)
	if err := os.WriteFile(path, []byte("version: 1\nsql: { allow: {} }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := lint.LoadConfig(path, reg); err == nil || !strings.Contains(err.Error(), `unknown key "sql"`) {
		t.Errorf("a sql: section without SQL: %v", err)
	}
}
