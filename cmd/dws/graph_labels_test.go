package main

import (
	"bytes"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every edge dws graph draws is labelled, the edges into the end as much as the others,
// in every dialect: the README promises it. Mermaid and DOT alike.
func TestGraphEveryEdgeLabelled(t *testing.T) {
	t.Chdir(repoRoot)
	arrow := regexp.MustCompile(`^\s*(\S+) (-->|-\.->)(\|"[^"]+"\|)? (\S+)$`)
	dotEdge := regexp.MustCompile(`^\s*(\S+) -> (\S+?)( \[.*\])?;$`)
	endsLabelled := map[string]int{} // fixture directory -> edges into an end, labelled
	err := filepath.WalkDir("fixtures", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		base := filepath.Base(p)
		if ext := filepath.Ext(p); ext != ".json" && ext != ".yaml" || strings.HasSuffix(base, ".scenario.yaml") ||
			strings.HasSuffix(base, ".simulate.json") || base == ".dws.yaml" || base == "prompt_templates.yaml" {
			return nil
		}
		var mm, dot, se bytes.Buffer
		if run([]string{"dws", "graph", p}, nil, &mm, &se) != 0 {
			return nil // not drawable: TestGraphFixturesRender judges that
		}
		if code := run([]string{"dws", "graph", "--format", "dot", p}, nil, &dot, &se); code != 0 {
			t.Fatalf("%s: dot exit %d: %s", p, code, se.String())
		}
		for _, line := range strings.Split(mm.String(), "\n") {
			m := arrow.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			if m[3] == "" {
				t.Errorf("%s: Mermaid edge without a label: %s", p, strings.TrimSpace(line))
			} else if strings.HasSuffix(m[4], "end") {
				endsLabelled[filepath.Dir(p)]++
			}
		}
		for _, line := range strings.Split(dot.String(), "\n") {
			m := dotEdge.FindStringSubmatch(line)
			if m == nil || strings.HasPrefix(m[1], "legend_") {
				continue
			}
			if !strings.Contains(m[3], "label=") {
				t.Errorf("%s: DOT edge without a label: %s", p, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"fixtures/cortex/ok", "fixtures/dws/ok", "fixtures/ensemble/ok", "fixtures/direclaw/ok", "fixtures/sim"} {
		if endsLabelled[d] == 0 {
			t.Errorf("%s: no labelled edge into an end drawn: the test does not reach that dialect's ends", d)
		}
	}
}

// A task graph starts at every task no other task's context names: each is marked as
// an entry, not only the first.
func TestGraphTaskRootsAreEntries(t *testing.T) {
	t.Chdir(repoRoot)
	var out, errb bytes.Buffer
	if code := run([]string{"dws", "graph", "fixtures/sim/research-pipeline.yaml"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	_, tasks, ok := strings.Cut(out.String(), `subgraph g1["/tasks"]`)
	if !ok {
		t.Fatalf("no task graph drawn:\n%s", out.String())
	}
	for _, root := range []string{"gather-sources", "pull-metrics", "pull-surveys"} {
		if !strings.Contains(tasks, `["`+root+`"]:::entry`) {
			t.Errorf("task %s, which no context names, is not marked as an entry", root)
		}
	}
	for _, inner := range []string{"summarize", "outline", "review-draft"} {
		if strings.Contains(tasks, `["`+inner+`"]:::entry`) {
			t.Errorf("task %s, which follows another, is marked as an entry", inner)
		}
	}
}
