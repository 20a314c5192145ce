package sim

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomMachine is a small acyclic definition over the nodes n0…n5: each node answers
// ok or fail, leading to a later node or ending the run. Two seeds give two versions
// that share some paths and not others.
func randomMachine(seed uint64) graphMachine {
	r := rand.New(rand.NewPCG(seed, 7))
	g := graphMachine{start: "n0", moves: map[string][]Move[string]{}}
	const n = 6
	for i := range n {
		node := "n" + string(rune('0'+i))
		for _, o := range []string{"ok", "fail"} {
			if r.IntN(5) == 0 {
				continue
			}
			mv := Move[string]{Edge: Edge{node, o}}
			if j := i + 1 + r.IntN(3); j < n && r.IntN(4) != 0 {
				mv.Next = "n" + string(rune('0'+j))
			} else {
				mv.End, mv.Status = true, Status(r.IntN(2))
			}
			g.moves[node] = append(g.moves[node], mv)
		}
		if len(g.moves[node]) == 0 {
			g.moves[node] = []Move[string]{{Edge: Edge{node, "ok"}, End: true}}
		}
	}
	return g
}

// paths lists every run of m as its edges and end state, one string each.
func paths(m graphMachine, rename func(Edge) Edge) map[string]bool {
	out := map[string]bool{}
	var taken []string
	var walk func(s string)
	walk = func(s string) {
		for _, mv := range m.Moves(s) {
			e := mv.Edge
			if rename != nil {
				e = rename(e)
			}
			taken = append(taken, e.String())
			if mv.End {
				out[strings.Join(taken, " ")+" => "+mv.Status.String()] = true
			} else {
				walk(mv.Next)
			}
			taken = taken[:len(taken)-1]
		}
	}
	walk(m.Start())
	return out
}

// The paths two versions share, per end state, are those an enumeration of both finds
// in common: on random pairs of small definitions, with and without a renamed node.
func TestCommonAgainstEnumeration(t *testing.T) {
	rename := func(e Edge) Edge {
		if e.Node == "n2" {
			e.Node = "m2"
		}
		return e
	}
	for seed := range uint64(300) {
		a, b := randomMachine(seed), randomMachine(seed/3*3+7)
		var same func(Edge) Edge
		if seed%2 == 1 {
			// b is a with n2 renamed m2 (and its own moves besides).
			same = rename
			renamed := graphMachine{start: b.start, moves: map[string][]Move[string]{}}
			for node, ms := range b.moves {
				for _, mv := range ms {
					mv.Edge = rename(mv.Edge)
					if mv.Next == "n2" {
						mv.Next = "m2"
					}
					renamed.moves[rename(Edge{Node: node}).Node] = append(renamed.moves[rename(Edge{Node: node}).Node], mv)
				}
			}
			b = renamed
		}
		ra, err := Explore[string](a, Options{}, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		rb, err := Explore[string](b, Options{}, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Common(ra, rb, same, Options{})
		if err != nil {
			t.Fatal(err)
		}
		pa, pb := paths(a, same), paths(b, nil)
		want := map[string]int64{}
		for p := range pa {
			if pb[p] {
				_, status, _ := strings.Cut(p, " => ")
				want[status]++
			}
		}
		for _, s := range Statuses() {
			if got.Of(s).Int64() != want[s.String()] {
				t.Fatalf("seed %d: %s common %v, enumeration %d\na: %v\nb: %v", seed, s, got.Of(s), want[s.String()], pa, pb)
			}
		}
		// A version shares every path with itself.
		self, err := Common(ra, ra, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range Statuses() {
			if self.Of(s).Cmp(ra.Counts.Of(s)) != 0 {
				t.Fatalf("seed %d: %s shared with itself %v, has %v", seed, s, self.Of(s), ra.Counts.Of(s))
			}
		}
	}
}

// Pairs of states are bounded like states.
func TestCommonStatesBound(t *testing.T) {
	r, err := Explore[ringState](ring{n: 4, limit: 30}, Options{}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Common(r, r, nil, Options{MaxStates: 5}); err == nil {
		t.Fatal("no bound error")
	}
}

// A cancelled context stops the count with the time bound, never a partial count.
func TestCommonTimeBound(t *testing.T) {
	r, err := Explore[ringState](ring{n: 4, limit: 3000}, Options{}, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var be *BoundError
	if _, err := Common(r, r, nil, Options{Ctx: ctx}); !errors.As(err, &be) || be.Bound != "time" {
		t.Fatalf("got %v", err)
	}
}
