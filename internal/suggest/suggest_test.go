package suggest

import "testing"

func TestNearest(t *testing.T) {
	commands := []string{"validate", "simulate", "checksum", "canonical", "keygen", "sign", "verify", "rules", "explain", "schema", "init", "version"}
	rules := []string{"cycle", "dangling-edge", "dead-end", "duplicate-id", "entry"}
	tests := []struct {
		word  string
		known []string
		want  string
		ok    bool
	}{
		{"validat", commands, "validate", true},
		{"vaildate", commands, "validate", true}, // a swap is one edit
		{"VALIDATE", commands, "validate", true},
		{"simulat", commands, "simulate", true},
		{"sing", commands, "sign", true},
		{"dangling-edg", rules, "dangling-edge", true},
		{"dead-edn", rules, "dead-end", true},
		{"graph", commands, "", false}, // a command dws does not have
		{"x", commands, "", false},     // one letter is no slip of anything
		{"lint", commands, "", false},  // init is 2 edits from a 4-letter word: too far
		{"", commands, "", false},
		{"00000000-0000-4000-8000-000000000009", []string{"00000000-0000-4000-8000-000000000001"}, "", false},
		{"1234", []string{"1235"}, "", false},
	}
	for _, tt := range tests {
		got, ok := Nearest(tt.word, tt.known)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Nearest(%q) = %q, %v; want %q, %v", tt.word, got, ok, tt.want, tt.ok)
		}
	}
	if got := DidYouMean("validat", commands); got != `; did you mean "validate"?` {
		t.Errorf("DidYouMean = %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "", 3}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"kitten", "sitting", 3}, {"é", "e", 1}} {
		if got := distance(tt.a, tt.b); got != tt.want {
			t.Errorf("distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
