package lint

import (
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// glob is an include or exclude pattern made ready for a walk, which asks it about
// every file: the shapes configs use ("flows/*.json", "**/*.yaml", a file's own
// path) are matched with a prefix and a suffix, as doublestar would match them;
// every other pattern goes to doublestar.
type glob struct {
	pattern string
	plain   bool   // matched below, not by doublestar
	anyDir  bool   // "**/" first: the file may be in any directory
	dir     string // the literal directories before the last segment, with their "/"
	// The last segment is pre, then (when star) any run of characters but "/", then
	// suf; without star it is pre alone.
	pre, suf string
	star     bool
}

func compileGlob(p string) glob {
	g := glob{pattern: p}
	rest, anyDir := strings.CutPrefix(p, "**/")
	slash := strings.LastIndexByte(rest, '/')
	dir, last := rest[:slash+1], rest[slash+1:]
	if last == "" || strings.ContainsAny(dir, "*?[]{}\\") || strings.ContainsAny(last, "?[]{}\\/") ||
		strings.Count(last, "*") > 1 || !plainDirs(dir) || (anyDir && dir != "") ||
		!utf8.ValidString(p) || strings.ContainsRune(p, utf8.RuneError) {
		// doublestar compares runes: every byte that is no UTF-8 reads as U+FFFD.
		return g
	}
	g.plain, g.anyDir, g.dir = true, anyDir, dir
	g.pre, g.suf, g.star = strings.Cut(last, "*")
	if !g.star {
		g.pre = last
	}
	return g
}

// plainDirs says whether dir ("" or segments each followed by "/") has no empty,
// "." or ".." segment.
func plainDirs(dir string) bool {
	for dir != "" {
		seg, rest, _ := strings.Cut(dir, "/")
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		dir = rest
	}
	return true
}

// match says whether the slash-separated relative path rel matches g, as
// doublestar.Match(g.pattern, rel) does.
func (g glob) match(rel string) bool {
	if !g.plain || rel == "" {
		ok, _ := doublestar.Match(g.pattern, rel)
		return ok
	}
	var name string
	if g.anyDir {
		name = rel[strings.LastIndexByte(rel, '/')+1:]
	} else {
		var ok bool
		if name, ok = strings.CutPrefix(rel, g.dir); !ok || strings.IndexByte(name, '/') >= 0 {
			return false
		}
	}
	if !g.star {
		return name == g.pre
	}
	return len(name) >= len(g.pre)+len(g.suf) && strings.HasPrefix(name, g.pre) && strings.HasSuffix(name, g.suf)
}

func compileGlobs(ps []string) []glob {
	gs := make([]glob, len(ps))
	for i, p := range ps {
		gs[i] = compileGlob(p)
	}
	return gs
}

func matchAnyGlob(gs []glob, rel string) bool {
	for _, g := range gs {
		if g.match(rel) {
			return true
		}
	}
	return false
}
