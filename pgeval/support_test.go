package pgeval

import (
	"errors"
	"testing"
)

// Whether an expression is supported is read from its constructs: abs and round of a
// variable are, whatever the variable holds, and an unsupported function is found
// even behind a part that raises an error when every variable is absent. A supported
// expression evaluates over every context of scalar values without Unsupported.
func TestUnsupportedIsTheConstruct(t *testing.T) {
	for _, tt := range []struct {
		expr, construct string
		offset          int
	}{
		{"abs({{delta}}) > 5", "", 0},
		{"round({{x}}) = round({{y}}, 1)", "", 0},
		{"round({{x}}, {{y}}) IS NULL", "", 0},
		{"{{x}} IN (1, {{y}}, 'a') AND {{x}} NOT LIKE 'a\\'", "", 0},
		{"-{{x}} < 0 AND position('a' in {{s}}) > 0", "function position", 15},
		{"{{x}} > 1 OR {{x}} ~ 'a'", "operator ~", 19},
		{"{{x}}::float8 > 1", "a cast to float8", 7},
		{"{{s}} LIKE 'a' ESCAPE '!'", "function like_escape", 6},
		{"{{x}} IN (SELECT 1)", "SubLink", 6},
		{"btrim({{s}}, 'x') = ''", "btrim with 2 arguments", 0},
		{"abs({{x}}, 1) > 0", "abs with 2 arguments", 0},
		{"B'101' = {{x}}", "constant", 0},
		{"$9 > {{x}}", "$9", 0},
	} {
		e, err := Parse(tt.expr)
		if err != nil {
			t.Fatalf("%s: %v", tt.expr, err)
		}
		u := e.Unsupported()
		switch {
		case tt.construct == "" && u != nil:
			t.Errorf("%s: %v", tt.expr, u)
		case tt.construct != "" && (u == nil || u.Construct != tt.construct || u.Offset != tt.offset):
			t.Errorf("%s: got %#v, want %s at %d", tt.expr, u, tt.construct, tt.offset)
		}
		if u != nil {
			continue
		}
		for _, ctx := range contexts(e.Variables()...) {
			var un *Unsupported
			if _, err := e.Eval(ctx); errors.As(err, &un) {
				t.Errorf("%s with %v: %v", tt.expr, ctx, err)
			}
		}
	}
}
