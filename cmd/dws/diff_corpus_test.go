package main

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// direclawCorpus is DireClaw's own example files in their two releases
// (../shared/corpus/direclaw, MIT licensed), read in place.
const direclawCorpus = "../../../shared/corpus/direclaw"

// Between its two releases DireClaw's own examples changed an agent's model, every
// prompt and the steps' outputs while every workflow stayed at version 1: dws diff of
// the two releases says so, unit by unit, as a user runs it.
func TestDiffDireClawReleases(t *testing.T) {
	if _, err := os.Stat(direclawCorpus); err != nil {
		t.Skipf("the DireClaw corpus is absent (%s): %v", direclawCorpus, err)
	}
	t.Chdir(direclawCorpus)
	var stdout, stderr bytes.Buffer
	code := run([]string{"dws", "diff", "--format", "json", "initial", "current"}, nil, &stdout, &stderr)
	if code != exitFindings || stderr.Len() != 0 {
		t.Fatalf("exit %d, stderr %q; want 1 and nothing", code, stderr.String())
	}
	var rep struct {
		Units []struct {
			ID      string
			Class   string
			Version struct{ Old, New, Rule string }
			Changes []struct {
				Node, Where string
				Old, New    struct{ Value string }
			}
		}
		Summary struct {
			Changed, Added, Removed int
			Breaking                int
			VersionFindings         int `json:"version_findings"`
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range rep.Units {
		ids = append(ids, u.ID)
		if u.Version.Old != "1" || u.Version.New != "1" || u.Version.Rule != "version-not-bumped" || u.Class != "feature" {
			t.Errorf("%s: %s, version %s → %s judged %q; want feature and version-not-bumped", u.ID, u.Class, u.Version.Old, u.Version.New, u.Version.Rule)
		}
	}
	want := []string{
		"direclaw:default_orchestrator/minimal_single_agent",
		"direclaw:engineering_orchestrator/code_with_reviews",
		"direclaw:engineering_orchestrator/engineering_default",
		"direclaw:product_orchestrator/product_default",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("units %v, want %v", ids, want)
	}
	if s := rep.Summary; s.Changed != 4 || s.Added != 0 || s.Removed != 0 || s.Breaking != 0 || s.VersionFindings != 4 {
		t.Errorf("summary %+v", s)
	}
	// The planner's model is one of the changes, with both values.
	found := false
	for _, u := range rep.Units {
		for _, c := range u.Changes {
			if c.Node == "plan_create" && c.Where == "/agent:model" &&
				strings.Contains(c.Old.Value, "gpt-5.2") && strings.Contains(c.New.Value, "gpt-5.3-codex-spark") {
				found = true
			}
		}
	}
	if !found {
		t.Error("the planner's model change gpt-5.2 → gpt-5.3-codex-spark is not reported")
	}
}
