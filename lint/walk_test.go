package lint

import (
	"path/filepath"
	"testing"
)

// TestCleanIsFilepathClean holds clean, which spares a walk a filepath.Clean for each
// of its entries, to filepath.Clean on every path of up to five elements built from
// the pieces that matter, and display to what it always was.
func TestCleanIsFilepathClean(t *testing.T) {
	pieces := []string{"a", "bc", ".", "..", "", ".x", "x."}
	var paths []string
	var grow func(p string, n int)
	grow = func(p string, n int) {
		paths = append(paths, p, "/"+p, p+"/")
		if n == 0 {
			return
		}
		for _, s := range pieces {
			next := s
			if p != "" {
				next = p + "/" + s
			}
			grow(next, n-1)
		}
	}
	grow("", 5)
	for _, p := range paths {
		if got, want := clean(p), p != "" && filepath.Clean(p) == p; got && !want {
			t.Fatalf("clean(%q) = true, but filepath.Clean gives %q", p, filepath.Clean(p))
		}
		if got, want := display(p), filepath.ToSlash(filepath.Clean(p)); got != want {
			t.Fatalf("display(%q) = %q, want %q", p, got, want)
		}
		if got, want := dirOf(p), filepath.Dir(p); got != want {
			t.Fatalf("dirOf(%q) = %q, want %q", p, got, want)
		}
	}
	// The common case must take the short way.
	for _, p := range []string{"corpus", "corpus/flow-00001.json", "/home/u/repo/flows", "/", "."} {
		if !clean(p) {
			t.Errorf("clean(%q) = false for a clean path", p)
		}
	}
}
