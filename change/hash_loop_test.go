package change_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/sim"
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

// TestReruns: dws diff lists each node of NEW that must run again (its key changed) and
// why: changed itself, new, upstream of a change (with the chain), or what leads into it
// changed; a declared rename re-runs nothing; an undeclared one is a new node, after
// which nothing re-runs (the key holds no id).
func TestReruns(t *testing.T) {
	l := linter(t)
	old := cortexFlow("a script a b -", "b script b c -", "c sql c d -", "d sql d - -")
	show := func(rs []change.ReRun) string {
		var out []string
		for _, r := range rs {
			out = append(out, strings.TrimSpace(r.Node+" "+r.Why+" "+strings.Join(r.Chain, ">")))
		}
		return strings.Join(out, "\n")
	}
	units := func(path, text string) []*change.Unit {
		us := l.Inspect(path, []byte(text)).Units()
		for _, u := range us {
			u.Path = path
		}
		return us
	}
	for _, c := range []struct {
		name, new string
		renames   []change.Rename
		want      string
	}{
		{"nothing", old, nil, ""},
		{"changed", cortexFlow("a script a b -", "b script b2 c -", "c sql c d -", "d sql d - -"), nil,
			"b changed\nc upstream b>c\nd upstream b>c>d"},
		{"route added", cortexFlow("a script a b c", "b script b c -", "c sql c d -", "d sql d - -"), nil,
			"c inputs\nd inputs"},
		{"added", cortexFlow("a script a b -", "b script b c -", "c sql c d -", "d sql d e -", "e sql e - -"), nil,
			"e new"},
		{"renamed", cortexFlow("a script a b2 -", "b2 script b c -", "c sql c d -", "d sql d - -"),
			[]change.Rename{{Unit: "cortex:flow", From: "b", To: "b2"}}, ""},
		{"renamed undeclared", cortexFlow("a script a b2 -", "b2 script b c -", "c sql c d -", "d sql d - -"), nil,
			"b2 new"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := change.Diff(units("f.json", old), units("f.json", c.new), c.renames, sim.Options{})
			if len(rep.Units) != 1 {
				t.Fatalf("%d units", len(rep.Units))
			}
			if got := show(rep.Units[0].ReRun); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}

	// What a DireClaw step references: its agent's model.
	loop := func(model string) []*change.Unit {
		return units("o.yaml", `id: o
selector_agent: w
default_workflow: review
agents:
  w: { provider: openai, model: gpt-5 }
  r: { provider: openai, model: `+model+` }
workflows:
  - id: review
    version: 1
    steps:
      - { id: write, type: agent_task, agent: w, prompt: "Write" }
      - { id: check, type: agent_review, agent: r, prompt: "Check", on_approve: publish, on_reject: write }
      - { id: publish, type: agent_task, agent: w, prompt: "Publish" }
`)
	}
	rep := change.Diff(loop("gpt-5"), loop("gpt-6"), nil, sim.Options{})
	if got, want := show(rep.Units[0].ReRun), "write upstream check>write\ncheck changed\npublish upstream check>publish"; got != want {
		t.Errorf("agent's model changed: got\n%s\nwant\n%s", got, want)
	}
}
