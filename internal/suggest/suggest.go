// Package suggest finds the known name a user most likely meant: the "did you mean"
// of an unknown command, rule id or step name.
package suggest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Nearest returns the name of known closest to word by edit distance (insertions,
// deletions, substitutions and swaps of neighbours each count one), when it is close
// enough to be a slip: at most 2 edits, and fewer than half of word's letters.
// Comparison ignores case. Among equally close names the first in known wins. A UUID or
// a number is never a slip: one that differs in a digit is another id, not a typo.
func Nearest(word string, known []string) (string, bool) {
	if generated(word) {
		return "", false
	}
	w := strings.ToLower(word)
	wn := utf8.RuneCountInString(w)
	best, bestD := "", -1
	for _, k := range known {
		if kn := utf8.RuneCountInString(k); kn > wn+2 || kn < wn-2 {
			continue // more than 2 edits apart, without computing the distance
		}
		d := distance(w, strings.ToLower(k))
		if d <= 2 && 2*d < len([]rune(w)) && (bestD < 0 || d < bestD) {
			best, bestD = k, d
		}
	}
	return best, bestD >= 0
}

// DidYouMean is `; did you mean "NAME"?` for the nearest known name, else "".
func DidYouMean(word string, known []string) string {
	if s, ok := Nearest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// Hint is what helps with a reference to word that names none of known: `; did you
// mean "NAME"?` when it is a slip of one, else, when known are few (at most 6), the list
// of them under the given plural noun (` (steps: "a", "b")`), else "".
func Hint(word string, known []string, plural string) string {
	if near, ok := Nearest(word, known); ok {
		return fmt.Sprintf("; did you mean %q?", near)
	}
	return Few(known, plural)
}

// Few is the list of known under the given plural noun (` (steps: "a", "b")`) when they
// are few (at most 6, each counted once), else "": Hint when no known name is near.
func Few(known []string, plural string) string {
	var once []string
	for _, k := range known {
		if !slices.Contains(once, k) {
			once = append(once, k)
			if len(once) > 6 {
				return ""
			}
		}
	}
	known = once
	if len(known) > 0 {
		quoted := make([]string, len(known))
		for i, k := range known {
			quoted[i] = strconv.Quote(k)
		}
		return fmt.Sprintf(" (%s: %s)", plural, strings.Join(quoted, ", "))
	}
	return ""
}

// distance is the optimal string alignment distance between a and b, by rune.
func distance(a, b string) int {
	s, t := []rune(a), []rune(b)
	prev2 := make([]int, len(t)+1)
	prev := make([]int, len(t)+1)
	cur := make([]int, len(t)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(s); i++ {
		cur[0] = i
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(t)]
}

// generated reports ids no one types by hand: UUIDs and numbers.
func generated(word string) bool {
	if word == "" {
		return false
	}
	if strings.Trim(word, "0123456789") == "" {
		return true
	}
	if len(word) != 36 {
		return false
	}
	for i, c := range word {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", c):
			return false
		}
	}
	return true
}
