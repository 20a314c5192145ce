package schema

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// patterns are simple ones (matched by tables) and ones that must go to regexp.
var patterns = []string{
	`^[a-z0-9_-]{3,40}$`, `^1\.\d+`, `^v\d+\.\d+`, `^v\d+\.\d+$`, `^[A-Z]+_[0-9]*$`,
	`^a*b?a$`, `^a{1,2}a$`, `^[ab]{1,2}c`, `^x?y?z?$`, `^$`, `^abc`, `^\d{4}-\d{2}-\d{2}$`,
	`^(?i)abc$`, `abc`, `^[^a]+$`, `^.+$`, `^é+$`, `^(ab)+$`, `^a|b$`, `^[a-z]+\d+[a-z]*$`,
}

// TestSimplePatternIsRegexp: a pattern matched by tables answers as regexp does, on
// random strings over the bytes that matter and on strings regexp itself would match.
func TestSimplePatternIsRegexp(t *testing.T) {
	alphabet := []byte("abcxyzAZ_-.019é\x88 v")
	r := rand.New(rand.NewPCG(1, 2))
	simple := 0
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m, ok := simplePattern(p)
		if !ok {
			continue
		}
		simple++
		for range 20000 {
			b := make([]byte, r.IntN(12))
			for i := range b {
				b[i] = alphabet[r.IntN(len(alphabet))]
			}
			s := string(b)
			if m(s) != re.MatchString(s) {
				t.Fatalf("%s on %q: tables say %v, regexp %v", p, s, m(s), re.MatchString(s))
			}
		}
	}
	for _, p := range []string{`^(?i)abc$`, `abc`, `^[^a]+$`, `^.+$`, `^é+$`, `^(ab)+$`, `^a|b$`, `^a*b?a$`, `^a{1,2}a$`} {
		if _, ok := simplePattern(p); ok {
			t.Errorf("%s: matched by tables, but greedy runs cannot answer it", p)
		}
	}
	if simple < 8 {
		t.Fatalf("only %d patterns compiled to tables", simple)
	}
}

// FuzzSimplePattern: whatever the pattern and the text, the tables agree with regexp.
func FuzzSimplePattern(f *testing.F) {
	for _, p := range patterns {
		f.Add(p, "abc-123")
	}
	f.Fuzz(func(t *testing.T, p, s string) {
		re, err := regexp.Compile(p)
		if err != nil {
			return
		}
		if m, ok := simplePattern(p); ok && m(s) != re.MatchString(s) {
			t.Fatalf("%q on %q: tables say %v, regexp %v", p, s, m(s), re.MatchString(s))
		}
	})
}

func BenchmarkPattern(b *testing.B) {
	const p, s = `^[a-z0-9_-]{3,40}$`, "load-expense-report_42"
	m, _ := simplePattern(p)
	re := regexp.MustCompile(p)
	b.Run("tables", func(b *testing.B) {
		for b.Loop() {
			m(s)
		}
	})
	b.Run("regexp", func(b *testing.B) {
		for b.Loop() {
			re.MatchString(s)
		}
	})
}
