package main

import (
	"strings"
	"testing"
)

// dws explain prints the files an example needs beside it in name order, so that every
// explanation of a rule is the same bytes (contract-artifact's examples need three).
func TestExplainFilesInOrder(t *testing.T) {
	var first string
	for i := range 20 {
		var out, errOut strings.Builder
		if code := run([]string{"dws", "explain", "contract-artifact"}, nil, &out, &errOut); code != 0 {
			t.Fatalf("explain: exit %d: %s", code, errOut.String())
		}
		if i == 0 {
			first = out.String()
			continue
		}
		if out.String() != first {
			t.Fatalf("explain printed different bytes on run %d:\n%s\nthen:\n%s", i+1, first, out.String())
		}
	}
	a := strings.Index(first, "with jobspec.json:")
	b := strings.Index(first, "with workers/contract-analyst.json:")
	c := strings.Index(first, "with workers/review-verifier.json:")
	if a < 0 || b < a || c < b {
		t.Errorf("the example's files are not in name order:\n%s", first)
	}
}
