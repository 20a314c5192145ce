package schema

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// compilePattern compiles a "pattern" keyword. Most patterns in workflow schemas are
// anchored runs of ASCII character classes (`^[a-z0-9_-]{3,40}$`, `^v\d+\.\d+`), which a
// table per run matches exactly and several times faster than regexp; any other
// pattern is regexp's.
func compilePattern(p string) (func(string) bool, error) {
	// A simple pattern parses as regexp parses (syntax.Perl), and regexp compiles
	// whatever parses: the tables need no regexp compiled beside them.
	if m, ok := simplePattern(p); ok {
		return m, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	return re.MatchString, nil
}

// run is one step of a simple pattern: between min and max (-1: no limit) bytes of set.
type run struct {
	set      *[256]bool
	min, max int
}

// simplePattern compiles p when it is "^" followed by runs of ASCII literals and
// non-negated ASCII classes, each optionally repeated, optionally ending in "$", and no
// run that may vary in length shares a byte with the runs after it up to the first
// that cannot be empty: then taking each run greedily is exactly regexp's answer.
func simplePattern(p string) (func(string) bool, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 2 || re.Sub[0].Op != syntax.OpBeginText {
		return nil, false
	}
	subs := re.Sub[1:]
	end := false
	if last := subs[len(subs)-1]; last.Op == syntax.OpEndText {
		end = true
		subs = subs[:len(subs)-1]
	}
	var runs []run
	for _, s := range subs {
		min, max := 1, 1
		switch s.Op {
		case syntax.OpRepeat:
			min, max = s.Min, s.Max
			s = s.Sub[0]
		case syntax.OpPlus:
			min, max = 1, -1
			s = s.Sub[0]
		case syntax.OpStar:
			min, max = 0, -1
			s = s.Sub[0]
		case syntax.OpQuest:
			min, max = 0, 1
			s = s.Sub[0]
		}
		if s.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		switch s.Op {
		case syntax.OpLiteral:
			if min != 1 || max != 1 {
				if len(s.Rune) != 1 {
					return nil, false
				}
			}
			for _, r := range s.Rune {
				if r >= utf8.RuneSelf {
					return nil, false
				}
				var set [256]bool
				set[r] = true
				runs = append(runs, run{&set, min, max})
			}
		case syntax.OpCharClass:
			var set [256]bool
			for i := 0; i+1 < len(s.Rune); i += 2 {
				lo, hi := s.Rune[i], s.Rune[i+1]
				if hi >= utf8.RuneSelf {
					return nil, false
				}
				for r := lo; r <= hi; r++ {
					set[r] = true
				}
			}
			runs = append(runs, run{&set, min, max})
		default:
			return nil, false
		}
	}
	for i, r := range runs {
		if r.min == r.max {
			continue
		}
		// What a varying run could leave for the runs after it, up to the first that
		// must match something, must not be theirs to take.
		for _, next := range runs[i+1:] {
			for c := range 256 {
				if r.set[c] && next.set[c] {
					return nil, false
				}
			}
			if next.min > 0 {
				break
			}
		}
	}
	return func(s string) bool {
		i := 0
		for _, r := range runs {
			n := 0
			for i < len(s) && (r.max < 0 || n < r.max) && r.set[s[i]] {
				i++
				n++
			}
			if n < r.min {
				return false
			}
		}
		return !end || i == len(s)
	}, true
}
