package change_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/change"
)

// cortexFlow is a Cortex workflow of steps "id type code onSuccess onFailure" (- for
// null).
func cortexFlow(lines ...string) string {
	var steps []string
	for _, line := range lines {
		f := strings.Fields(line)
		route := func(s string) string {
			if s == "-" {
				return "null"
			}
			return `"` + s + `"`
		}
		steps = append(steps, fmt.Sprintf(`{"id": %q, "type": %q, "params": {"code": %q}, "onSuccess": %s, "onFailure": %s}`,
			f[0], f[1], f[2], route(f[3]), route(f[4])))
	}
	return `{"schemaVersion": "1.0", "name": "flow", "version": "v1.0", "steps": [` + strings.Join(steps, ",\n") + "]}\n"
}

// TestNodeKeysLoop: a loop is hashed as one unit, its members sharing one key (main's
// contract, change/doc.go), and the key holds the loop's shape: which member routes to
// which, by which route.
func TestNodeKeysLoop(t *testing.T) {
	l := linter(t)
	keysOf := func(text string) map[string]change.NodeHash { return hashesOf(t, l, "f.json", text) }

	// A ring of like steps: one key, wherever an outside step enters it.
	enter := func(at string) map[string]change.NodeHash {
		return keysOf(cortexFlow("x script go "+at+" -", "a script s b -", "b script s c -", "c script s a -"))
	}
	kb, kc := enter("b"), enter("c")
	for _, id := range []string{"a", "b", "c"} {
		if kb[id].Key != kb["a"].Key || kc[id].Key != kb["a"].Key || !slices.Equal(kb[id].Loop, []string{"a", "b", "c"}) {
			t.Errorf("a symmetric ring's keys depend on its member or its entry: %v %v", kb, kc)
		}
	}

	// Swapping a step's two routes changes the keys of both targets, no own hash, and
	// not the step's own key.
	fork := keysOf(cortexFlow("a script a b c", "b sql b - -", "c sql c - -"))
	swapped := keysOf(cortexFlow("a script a c b", "b sql b - -", "c sql c - -"))
	if fork["b"].Key == swapped["b"].Key || fork["c"].Key == swapped["c"].Key || !sameHashes(fork["a"], swapped["a"]) ||
		fork["b"].Own != swapped["b"].Own || fork["c"].Own != swapped["c"].Own {
		t.Errorf("swapping routes: %v vs %v", fork, swapped)
	}

	// The same, inside a loop: check's success and failure lead back to the loop by
	// different steps; swapping them changes how the loop runs, so its key.
	loop := keysOf(cortexFlow("x script x check -", "check script check fix retry", "fix script fix check -", "retry script retry check -"))
	loopSwapped := keysOf(cortexFlow("x script x check -", "check script check retry fix", "fix script fix check -", "retry script retry check -"))
	if loop["check"].Key == loopSwapped["check"].Key {
		t.Errorf("swapping routes inside a loop changes no key: %v", loop)
	}

	// A ring of unlike steps and its reverse run their steps in other orders: other keys.
	ring := keysOf(cortexFlow("x script x a -", "a script 1 b -", "b script 2 c -", "c script 3 a -"))
	reverse := keysOf(cortexFlow("x script x a -", "a script 1 c -", "b script 2 a -", "c script 3 b -"))
	if ring["a"].Key == reverse["a"].Key {
		t.Error("a ring and its reverse have the same keys")
	}

	// A step that routes to itself (a retry) is a loop: removing the retry changes its key.
	self := keysOf(cortexFlow("x script x a -", "a script a b a", "b script b - -"))
	noSelf := keysOf(cortexFlow("x script x a -", "a script a b -", "b script b - -"))
	if !slices.Equal(self["a"].Loop, []string{"a"}) || self["a"].Key == noSelf["a"].Key || self["a"].Own != noSelf["a"].Own {
		t.Errorf("a retry on itself: %+v vs %+v", self["a"], noSelf["a"])
	}
}
