package lint_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A file is checked once however many of the paths given lead to it: named twice, and
// inside a directory given too, in either order, through a relative and an absolute
// path. One directory's walk, which never repeats a path, lists every file, each
// shown by its path from here whatever the directory was called.
func TestExpandTakesAFileOnce(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, name := range []string{"a.json", "b.json", "sub/c.json"} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, name, cleanFlow)
	}
	l := newLinter(t, dir)
	abs := filepath.Join(dir, "b.json")
	for _, tc := range []struct {
		paths []string
		want  []string
	}{
		{[]string{"."}, []string{"a.json", "b.json", "sub/c.json"}},
		{[]string{"a.json", "a.json"}, []string{"a.json"}},
		{[]string{"b.json", "."}, []string{"b.json", "a.json", "sub/c.json"}},
		{[]string{".", "sub/c.json", abs}, []string{"a.json", "b.json", "sub/c.json"}},
		{[]string{"sub", "."}, []string{"sub/c.json", "a.json", "b.json"}},
		// An absolute directory is walked as its files' absolute paths, shown from here.
		{[]string{filepath.Join(dir, "sub"), "./sub"}, []string{"sub/c.json"}},
		{[]string{"../" + filepath.Base(dir) + "/sub"}, []string{"../" + filepath.Base(dir) + "/sub/c.json"}},
	} {
		inputs, problems, err := l.Expand(tc.paths)
		if err != nil || len(problems) > 0 {
			t.Fatalf("%q: %v %v", tc.paths, err, problems)
		}
		var got []string
		for _, in := range inputs {
			got = append(got, in.Path)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: took %q, want %q", tc.paths, got, tc.want)
		}
	}
}
