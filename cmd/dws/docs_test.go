package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/schema"
)

// docs/rules.md is dws rules --format markdown, byte for byte: the rule docs registered in
// code are the one source, and the page cannot fall behind them.
func TestRulesDoc(t *testing.T) {
	var out, errOut strings.Builder
	if code := run([]string{"dws", "rules", "--format", "markdown"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("rules --format markdown: exit %d: %s", code, errOut.String())
	}
	page, err := os.ReadFile(filepath.Join(repoRoot, "docs", "rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != out.String() {
		t.Errorf("docs/rules.md is stale: run\n\tgo run ./cmd/dws rules --format markdown > docs/rules.md")
	}
	for _, r := range dialect.Registry().Rules() {
		if !strings.Contains(out.String(), "\n## "+r.ID+"\n") {
			t.Errorf("docs/rules.md has no section for %s", r.ID)
		}
	}
}

// Every relative link of README.md and docs/*.md names a file of the repository, and an
// anchor a heading of that file makes.
func TestDocLinks(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(repoRoot, "README.md"))
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(repoRoot, page)
		for _, m := range link.FindAllStringSubmatch(withoutCode(string(text)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			file := page
			if path != "" {
				file = filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
			}
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s links to %s, which does not exist", rel, target)
				continue
			}
			if anchor != "" && !slices.Contains(anchors(t, file), anchor) {
				t.Errorf("%s links to %s: %s has no heading with that anchor", rel, target, filepath.Base(file))
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links checked: is the link pattern wrong?", checked)
	}
}

// What dws says to a user (every command's help, every rule's explanation, the config
// dws init writes, the embedded schemas' descriptions) names pages of the repository's
// docs/ that exist, with their anchors, and never the specification, which users do not
// have.
func TestHelpNamesDocs(t *testing.T) {
	var texts []string
	say := func(args ...string) {
		var out, errOut strings.Builder
		if code := run(append([]string{"dws"}, args...), nil, &out, &errOut); code != 0 {
			t.Fatalf("dws %v: exit %d: %s", args, code, errOut.String())
		}
		texts = append(texts, out.String())
	}
	say("--help")
	for _, c := range commands() {
		say(c.Name, "--help")
	}
	for _, r := range dialect.Registry().Rules() {
		say("explain", r.ID)
	}
	for _, d := range append(schema.Dialects(), schema.Documents...) {
		say("schema", d)
	}
	texts = append(texts, initText())

	ref := regexp.MustCompile(`docs/[A-Za-z0-9_.-]+\.md(#[A-Za-z0-9_-]+)?`)
	named := map[string]bool{}
	for _, text := range texts {
		if i := max(strings.Index(text, "SPEC"), strings.Index(text, "§")); i >= 0 {
			t.Errorf("a user-facing text cites the specification: …%s…", text[max(0, i-60):min(len(text), i+60)])
		}
		if strings.Contains(text, "README") {
			t.Errorf("a user-facing text cites the README, which holds no detail; name a docs/ page:\n%s", text)
		}
		for _, m := range ref.FindAllString(text, -1) {
			named[m] = true
		}
	}
	for m := range named {
		path, anchor, _ := strings.Cut(m, "#")
		file := filepath.Join(repoRoot, filepath.FromSlash(path))
		if _, err := os.Stat(file); err != nil {
			t.Errorf("help text names %s, which does not exist", m)
			continue
		}
		if anchor != "" && !slices.Contains(anchors(t, file), anchor) {
			t.Errorf("help text names %s: %s has no heading with that anchor", m, path)
		}
	}
	for _, want := range []string{"docs/simulation.md", "docs/scenarios.md", "docs/editors.md", "docs/configuration.md"} {
		if !named[want] {
			t.Errorf("no help text names %s", want)
		}
	}
}

// withoutCode is Markdown text without its fenced code blocks and code spans, where
// brackets are not links.
func withoutCode(text string) string {
	text = regexp.MustCompile("(?ms)^```.*?^```").ReplaceAllString(text, "")
	return regexp.MustCompile("`[^`\n]*`").ReplaceAllString(text, "")
}

// anchors are the anchors GitHub makes for a Markdown file's headings: lower case, the
// punctuation but - and _ dropped, spaces as -, a repeated one numbered.
func anchors(t *testing.T, file string) []string {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	seen := map[string]int{}
	drop := regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	for _, line := range strings.Split(regexp.MustCompile("(?ms)^```.*?^```").ReplaceAllString(string(text), ""), "\n") {
		if !strings.HasPrefix(line, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(line, "#"))
		a := strings.ReplaceAll(drop.ReplaceAllString(strings.ToLower(h), ""), " ", "-")
		if n := seen[a]; n > 0 {
			out = append(out, a+"-"+strconv.Itoa(n))
		} else {
			out = append(out, a)
		}
		seen[a]++
	}
	return out
}
