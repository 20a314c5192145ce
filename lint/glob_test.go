package lint

import (
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// globCases are patterns and paths where the prefix-and-suffix matching and
// doublestar could part: dots, empty stars, directories of the same prefix.
var globCases = []struct{ pattern, rel string }{
	{"flows/*.json", "flows/a.json"},
	{"flows/*.json", "flows/.json"},
	{"flows/*.json", "flows/sub/a.json"},
	{"flows/*.json", "flowsx/a.json"},
	{"flows/*.json", "flows/a.jsonx"},
	{"**/*.yaml", "a.yaml"},
	{"**/*.yaml", "a/b/c.yaml"},
	{"**/*.yaml", "a/b/c.yml"},
	{"**/*.yaml", ".yaml"},
	{"*.json", "a/b.json"},
	{"*", "a"},
	{"*", "a/b"},
	{"a*b", "ab"},
	{"a*b", "aab"},
	{"a*b", "a"},
	{"a*ab", "aab"},
	{"x/y/z.json", "x/y/z.json"},
	{"x/y/z.json", "x/y/zz.json"},
	{"**/flow.json", "deep/er/flow.json"},
	{"**/flow.json", "flow.json"},
	{"**/flow.json", "xflow.json"},
	{"./a/*.json", "a/b.json"},
	{"a//*.json", "a/b.json"},
	{"../*.json", "../b.json"},
	{"**/x/*.json", "x/b.json"},
	{"{a,b}/*.json", "a/c.json"},
	{"[ab].json", "a.json"},
	{"a?.json", "ab.json"},
	{"**", "a/b"},
	{"a/**", "a/b/c"},
	{"*/*.json", "a/b.json"},
}

func TestGlobMatchesAsDoublestar(t *testing.T) {
	for _, c := range globCases {
		want, _ := doublestar.Match(c.pattern, c.rel)
		if got := compileGlob(c.pattern).match(c.rel); got != want {
			t.Errorf("%q against %q: %v, doublestar says %v", c.pattern, c.rel, got, want)
		}
	}
	// The common shapes are matched without doublestar.
	for _, p := range []string{"flows/*.json", "**/*.yaml", "*.json", "a/b.json", "**/flow.json"} {
		if !compileGlob(p).plain {
			t.Errorf("%q goes to doublestar", p)
		}
	}
}

func FuzzGlobMatchesAsDoublestar(f *testing.F) {
	for _, c := range globCases {
		f.Add(c.pattern, c.rel)
	}
	f.Fuzz(func(t *testing.T, pattern, rel string) {
		if !doublestar.ValidatePattern(pattern) {
			return // a config refuses it (config.go)
		}
		want, _ := doublestar.Match(pattern, rel)
		if got := compileGlob(pattern).match(rel); got != want {
			t.Errorf("%q against %q: %v, doublestar says %v", pattern, rel, got, want)
		}
	})
}
