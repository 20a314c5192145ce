package change

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
)

func hashesOf(u *Unit) map[string]NodeHash {
	m := map[string]NodeHash{}
	for _, h := range Hashes(u) {
		m[h.Node] = h
	}
	return m
}

// A changed value changes the node's own hash and the keys of it and everything
// downstream, nothing upstream; the hashes are the same on every run.
func TestHashesDownstream(t *testing.T) {
	a := hashesOf(unit("1", Integer, base))
	if b := hashesOf(unit("1", Integer, base)); b["c"].Key != a["c"].Key || !strings.HasPrefix(a["c"].Own, "sha256:") || len(a["c"].Key) != 71 {
		t.Fatalf("not deterministic: %+v %+v", a["c"], b["c"])
	}
	b := hashesOf(unit("1", Integer, strings.Replace(base, "desc=first", "desc=second", 1)))
	if b["a"].Own != a["a"].Own || b["a"].Key != a["a"].Key {
		t.Error("upstream a changed")
	}
	if b["b"].Own == a["b"].Own || b["b"].Key == a["b"].Key {
		t.Error("b's own hash and key did not change")
	}
	if b["c"].Own != a["c"].Own || b["c"].Key == a["c"].Key {
		t.Error("downstream c: own must stay, key must change")
	}
}

// A loop is hashed as one unit: its nodes share a key, which changes when any of them
// does, and nodes after it follow.
func TestHashesLoop(t *testing.T) {
	const loop = `
start script
plan ai
review ai
ship sql
start ok>plan
plan ok>review
review reject>plan
review approve>ship
`
	a := hashesOf(unit("1", Integer, loop))
	if a["plan"].Key != a["review"].Key || !slices.Equal(a["plan"].Loop, []string{"plan", "review"}) || a["start"].Loop != nil {
		t.Fatalf("loop: %+v", a)
	}
	b := hashesOf(unit("1", Integer, strings.Replace(loop, "review ai", "review ai model=y", 1)))
	if b["plan"].Key == a["plan"].Key || b["plan"].Own != a["plan"].Own || b["ship"].Key == a["ship"].Key || b["start"].Key != a["start"].Key {
		t.Fatalf("after review changed: %+v", b)
	}
}

// dws diff says which nodes must run again and why: changed itself, new, or a chain from
// an upstream change; a declared rename re-runs nothing.
func TestReRun(t *testing.T) {
	changed := strings.Replace(base, "model=x", "model=y", 1) + "d script\nc ok>d\n"
	rep := Diff([]*Unit{unit("1", Integer, base)}, []*Unit{unit("2", Integer, changed)}, nil, sim.Options{})
	var got []string
	for _, r := range rep.Units[0].ReRun {
		got = append(got, r.Node+" "+r.Why+" "+strings.Join(r.Chain, ">"))
	}
	want := []string{"a changed ", "b upstream a>b", "c upstream a>b>c", "d new "}
	if !slices.Equal(got, want) {
		t.Fatalf("re-run %q, want %q", got, want)
	}
	nw := strings.ReplaceAll(base, "c sql", "z sql")
	nw = strings.Replace(nw, "b ok>c", "b ok>z", 1)
	rep = Diff([]*Unit{unit("1", Integer, base)}, []*Unit{unit("2", Integer, nw)}, []Rename{{Unit: "test:flow", From: "c", To: "z"}}, sim.Options{})
	if len(rep.Units[0].ReRun) != 0 {
		t.Fatalf("a rename re-runs %+v", rep.Units[0].ReRun)
	}
}

// A long chain shows its first and last nodes and how many it leaves out between
// them: the whole chains of a long definition grow with the square of its length.
func TestReRunLongChain(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "n%02d script\n", i)
	}
	for i := range 29 {
		fmt.Fprintf(&b, "n%02d ok>n%02d\n", i, i+1)
	}
	old := b.String()
	nw := strings.Replace(old, "n00 script", "n00 script code=2", 1)
	rep := Diff([]*Unit{unit("1", Integer, old)}, []*Unit{unit("2", Integer, nw)}, nil, sim.Options{})
	rs := rep.Units[0].ReRun
	if len(rs) != 30 {
		t.Fatalf("%d re-runs, want 30", len(rs))
	}
	last := rs[29]
	want := []string{"n00", "n01", "n02", "n03", "n26", "n27", "n28", "n29"}
	if !slices.Equal(last.Chain, want) || last.Skipped != 22 {
		t.Errorf("chain %v, %d skipped; want %v, 22", last.Chain, last.Skipped, want)
	}
	if got := rs[8]; len(got.Chain) != 8 || got.Skipped != 1 {
		t.Errorf("n08: chain %v, %d skipped; want 8 nodes, 1 skipped", got.Chain, got.Skipped)
	}
	if got := rs[7]; len(got.Chain) != 8 || got.Skipped != 0 {
		t.Errorf("n07: chain %v, %d skipped; want all 8 nodes", got.Chain, got.Skipped)
	}
}
