package sim

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dwsdev/dws/internal/benchcpu"
)

// dag is a generated definition of n steps: each step's ok outcome goes to the next
// step, its fail outcome to a later step near it (a failure handler) or, one time in
// twenty, ends the run, like a long workflow with failure handlers. Every step is
// reached, and the counts grow to thousands of digits.
type dag struct{ next [][2]int }

func newDAG(n int) dag {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	d := dag{next: make([][2]int, n)}
	for i := range d.next {
		d.next[i][0] = i + 1
		d.next[i][1] = i + 1 + r.IntN(4)
		if r.IntN(20) == 0 {
			d.next[i][1] = -1
		}
		for k := range 2 {
			if d.next[i][k] >= n {
				d.next[i][k] = -1
			}
		}
	}
	return d
}

func (d dag) Start() int { return 0 }

func (d dag) Moves(i int) []Move[int] {
	name := fmt.Sprint("s", i)
	out := make([]Move[int], 2)
	for k, outcome := range [2]string{"ok", "fail"} {
		out[k] = Move[int]{Edge: Edge{name, outcome}, Next: d.next[i][k]}
		if d.next[i][k] < 0 {
			out[k].End, out[k].Status = true, Status(k)
		}
	}
	return out
}

// BenchmarkExplore counts and covers generated definitions of 3,000 and 100,000 steps
// (SPEC §8.5: < 100 ms for 3,000, linear growth).
func BenchmarkExplore(b *testing.B) {
	for _, n := range []int{3000, 30000, 100000} {
		d := newDAG(n)
		b.Run(fmt.Sprint("steps=", n), func(b *testing.B) {
			benchcpu.Loop(b, func() {
				r, err := Explore[int](d, Options{}, 100, nil)
				if err != nil || r.CoverSize == 0 {
					b.Fatal(err)
				}
			})
		})
	}
}
