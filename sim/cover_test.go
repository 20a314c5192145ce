package sim

import (
	"math/rand/v2"
	"testing"
)

// On random definitions of up to 420 steps the listed cover is made of real paths (each
// step a move of the state it is at, ending where a run ends) and takes every coverable
// edge: the flow push-relabel leaves is conserved, so walking it never gets stuck.
func TestCoverPathsAreRuns(t *testing.T) {
	for seed := range uint64(400) {
		r := rand.New(rand.NewPCG(seed, 5))
		n := 20 + r.IntN(400)
		d := dag{next: make([][2]int, n)}
		for i := range d.next {
			for k := range 2 {
				j := i + 1 + r.IntN(6)
				if j >= n || r.IntN(15) == 0 {
					j = -1
				}
				d.next[i][k] = j
			}
		}
		res, err := Explore[int](d, Options{}, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Cover) != res.CoverSize {
			t.Fatalf("seed %d: listed %d of %d", seed, len(res.Cover), res.CoverSize)
		}
		taken := map[Edge]bool{}
		for _, p := range res.Cover {
			s := 0
			for k, e := range p.Steps {
				found := false
				for _, mv := range d.Moves(s) {
					if mv.Edge == e {
						found = true
						if mv.End {
							if k != len(p.Steps)-1 {
								t.Fatalf("seed %d: path goes on after an end", seed)
							}
						} else {
							s = mv.Next
						}
					}
				}
				if !found {
					t.Fatalf("seed %d: path %v takes %v, no move of state %d", seed, p.Steps, e, s)
				}
				taken[e] = true
			}
		}
		if len(taken) != res.Coverable() {
			t.Fatalf("seed %d: cover takes %d of %d", seed, len(taken), res.Coverable())
		}
	}
}
