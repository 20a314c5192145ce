package sim

import (
	"fmt"
	"testing"
)

// stagedMachine is a definition with stages inside a node, as a DWS phase has: each
// state is "node/stage", and a move to another stage of a node names no node (To "").
type stagedMachine map[string][]Move[string]

func (m stagedMachine) Start() string                 { return "a/run" }
func (m stagedMachine) Moves(s string) []Move[string] { return m[s] }

// Follows tells the edges that lead on (a's pass, to its transition) from the ones that
// end the run (a's fail), and which edges each follows; the zero Edge is the start.
func TestFollows(t *testing.T) {
	m := stagedMachine{
		"a/run": {
			{Edge: Edge{"a", "pass"}, Next: "a/passed"},
			{Edge: Edge{"a", "fail"}, End: true, Status: Failed},
			{Edge: Edge{"a", "never"}, Dead: true, Why: "no"},
		},
		"a/passed": {
			{Edge: Edge{"a", "next"}, To: "b", Next: "b/run"},
			{Edge: Edge{"a", "stop"}, End: true, Status: Succeeded},
		},
		"b/run": {
			{Edge: Edge{"b", "pass"}, Next: "b/passed"},
			{Edge: Edge{"b", "fail"}, End: true, Status: Failed},
		},
		"b/passed": {{Edge: Edge{"b", "done"}, End: true, Status: Succeeded}},
	}
	r, err := Explore[string](m, Options{}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	before, ends := r.Follows()
	want := map[Edge]string{
		{"a", "pass"}:  "[:] ends=false",
		{"a", "fail"}:  "[:] ends=true",
		{"a", "never"}: "[:] ends=false",
		{"a", "next"}:  "[a:pass] ends=false",
		{"a", "stop"}:  "[a:pass] ends=true",
		{"b", "pass"}:  "[a:next] ends=false",
		{"b", "fail"}:  "[a:next] ends=true",
		{"b", "done"}:  "[b:pass] ends=true",
	}
	for e, w := range want {
		if got := fmt.Sprintf("%v ends=%v", before[e], ends[e]); got != w {
			t.Errorf("%s: %s, want %s", e, got, w)
		}
	}
	if len(before) != len(want) {
		t.Errorf("%d edges, want %d: %v", len(before), len(want), before)
	}
}
