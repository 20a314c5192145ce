package source

import (
	"strings"
	"testing"
)

// An excerpt keeps margin characters either side of the columns it is asked for, counted
// in code points (a byte that is not UTF-8 is one), and says the column it starts at;
// an excerpt of an excerpt keeps the same.
func TestExcerpt(t *testing.T) {
	line := strings.Repeat("é", 40) + "\xff" + strings.Repeat("x", 40) + "日本"
	text := "{\n" + line + "\r\nshort\n"
	d := &Document{Path: "f.json", Format: JSON, Text: text}
	for _, c := range []struct {
		cols      []int
		margin    int
		want      string
		wantFirst int
	}{
		{[]int{41}, 3, strings.Repeat("é", 3) + "\xff" + "xxx", 38},
		{[]int{1}, 2, "ééé", 1},
		{[]int{83, 80}, 1, "xxx日本", 79},
		{[]int{200}, 5, "", 84},
	} {
		ex := d.Excerpt(map[int][]int{2: c.cols, 3: {1}}, c.margin)
		got, first := ex.LineFrom(2)
		if got != c.want || first != c.wantFirst {
			t.Errorf("cols %v margin %d: %q at %d, want %q at %d", c.cols, c.margin, got, first, c.want, c.wantFirst)
		}
		if s, _ := ex.LineFrom(3); s != "short"[:min(5, 1+c.margin)] {
			t.Errorf("line 3: %q", s)
		}
		again, first2 := ex.Excerpt(map[int][]int{2: c.cols}, c.margin).LineFrom(2)
		if again != got || first2 != first {
			t.Errorf("cols %v: an excerpt's excerpt is %q at %d, want %q at %d", c.cols, again, first2, got, first)
		}
	}
}
