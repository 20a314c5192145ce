package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// Every example in the config dws init writes is one dws accepts: uncommenting all of
// them gives a config that loads. The template cites nothing users do not have.
func TestInitTemplateExamplesLoad(t *testing.T) {
	text := initConfig
	for _, d := range dialect.All() {
		text += "\n" + d.ConfigDoc
	}
	if strings.Contains(text, "SPEC") {
		t.Error("the init template cites SPEC, which users do not have")
	}
	for _, key := range []string{"\n# sql:", "\n# lock:", "\n# baseline:", "\n# inline_security_waivers:"} {
		if !strings.Contains(text, key) {
			t.Errorf("the init template does not explain %s", strings.TrimSpace(key))
		}
	}
	key := regexp.MustCompile(`^# [a-z_]+:`)
	var lines []string
	inExample := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case key.MatchString(line):
			inExample = true
			line = strings.TrimPrefix(line, "# ")
		case inExample && strings.HasPrefix(line, "#   "):
			line = strings.TrimPrefix(line, "# ")
		default:
			inExample = false
		}
		lines = append(lines, line)
	}
	dir := t.TempDir()
	files := map[string]string{
		lint.ConfigName:         strings.Join(lines, "\n"),
		"prompt_templates.yaml": "templates: {}\nschemas: {}\n",
		"db/schema.sql":         "CREATE TABLE expense (id int, amount numeric, status text);\nCREATE TABLE expense_audit (id int);\n",
		"dws.lock":              "",
		".dws-baseline.json":    `{"version": 1, "findings": []}`,
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lint.LoadConfig(filepath.Join(dir, lint.ConfigName), dialect.Registry()); err != nil {
		t.Fatalf("the init template with every example uncommented does not load: %v\n%s", err, files[lint.ConfigName])
	}
}
