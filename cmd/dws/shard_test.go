package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// N shards of a file set check every file exactly once, whatever N; a file keeps its
// shard when other files come and go (its part is a hash of its own path).
func TestShardsPartitionTheFiles(t *testing.T) {
	t.Chdir(repoRoot)
	files := func(args ...string) []string {
		var out, errb bytes.Buffer
		code := run(append([]string{"dws", "validate", "--format", "json"}, args...), nil, &out, &errb)
		if code > 1 {
			t.Fatalf("%v: exit %d %s", args, code, errb.String())
		}
		var doc struct {
			Files []struct{ Path string } `json:"files"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var ps []string
		for _, f := range doc.Files {
			ps = append(ps, f.Path)
		}
		return ps
	}
	all := files("fixtures")
	if len(all) < 100 {
		t.Fatalf("%d files", len(all))
	}
	for _, n := range []int{1, 2, 3, 7} {
		seen := map[string]int{}
		for k := 1; k <= n; k++ {
			part := files("--shard", fmt.Sprintf("%d/%d", k, n), "fixtures")
			if n > 1 && (len(part) == 0 || len(part) == len(all)) {
				t.Errorf("shard %d/%d has %d of %d files", k, n, len(part), len(all))
			}
			for _, f := range part {
				seen[f]++
			}
		}
		for _, f := range all {
			if seen[f] != 1 {
				t.Errorf("n=%d: %s checked %d times", n, f, seen[f])
			}
		}
		if len(seen) != len(all) {
			t.Errorf("n=%d: the shards checked %d files, the whole set is %d", n, len(seen), len(all))
		}
	}
	// A file's shard does not depend on which other files there are.
	one := files("--shard", "2/3", "fixtures/cortex")
	for _, f := range one {
		if !slices.Contains(files("--shard", "2/3", "fixtures"), f) {
			t.Errorf("%s moved shard when the set grew", f)
		}
	}
	var errb bytes.Buffer
	for _, bad := range []string{"0/3", "4/3", "3", "a/b", "1/0"} {
		if code := run([]string{"dws", "validate", "--shard", bad, "fixtures"}, nil, &bytes.Buffer{}, &errb); code != 2 {
			t.Errorf("--shard %s: exit %d", bad, code)
		}
	}
}

func TestShardsPartitionTheScenarios(t *testing.T) {
	t.Chdir(repoRoot)
	seen := map[string]int{}
	for k := 1; k <= 3; k++ {
		var out, errb bytes.Buffer
		if code := run([]string{"dws", "test", "--format", "json", "--shard", fmt.Sprintf("%d/3", k), "fixtures"}, nil, &out, &errb); code != 0 {
			t.Fatalf("shard %d/3: exit %d %s", k, code, errb.String())
		}
		var doc struct {
			Scenarios []struct{ Path string } `json:"scenarios"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		for _, s := range doc.Scenarios {
			seen[s.Path]++
		}
	}
	if len(seen) != 32 {
		t.Errorf("the shards ran %d distinct scenarios, want the 32 fixtures", len(seen))
	}
	for p, n := range seen {
		if n != 1 {
			t.Errorf("%s ran %d times", p, n)
		}
	}
}
