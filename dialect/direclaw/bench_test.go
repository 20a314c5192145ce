package direclaw

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
)

// acyclic is one workflow of n steps: each agent_task continues in list order or jumps
// ahead with next, and routes blocked a step or three ahead half the time. The limit is
// n, so that no run can reach it and visits are not part of the state.
func acyclic(n int) (string, int) {
	rng := rand.New(rand.NewPCG(uint64(n), 13))
	var b strings.Builder
	fmt.Fprintf(&b, "workflows:\n  - id: w\n    limits: { max_total_iterations: %d }\n    steps:\n", n)
	for i := range n {
		fmt.Fprintf(&b, "      - { id: s%d, type: agent_task", i)
		if rng.IntN(4) == 0 && i+2 < n {
			fmt.Fprintf(&b, ", next: s%d", i+2)
		}
		if rng.IntN(2) == 0 && i+1 < n {
			fmt.Fprintf(&b, ", on_blocked: s%d", min(i+1+rng.IntN(3), n-1))
		}
		b.WriteString(" }\n")
	}
	return b.String(), n
}

// loops is one workflow of n steps routed as a binary tree (step i leads to 2i+1 and
// 2i+2), so that every step is within a few visits of the first: an agent_task completes
// to one child and is blocked to the other, every third one sends a failure back to its
// parent, and every fifth step is a review that approves to one child and rejects to
// the other. Leaves continue in list order. With max_total_iterations 24 every run is
// bounded and visits are part of the state: at most 24 states a step.
func loops(n int) (string, int) {
	const limit = 24
	var b strings.Builder
	fmt.Fprintf(&b, "workflows:\n  - id: w\n    limits: { max_total_iterations: %d }\n    steps:\n", limit)
	for i := range n {
		c1, c2 := 2*i+1, 2*i+2
		switch {
		case c2 >= n:
			fmt.Fprintf(&b, "      - { id: s%d, type: agent_task }\n", i)
		case i%5 == 4:
			fmt.Fprintf(&b, "      - { id: s%d, type: agent_review, on_approve: s%d, on_reject: s%d }\n", i, c1, c2)
		case i%3 == 2:
			fmt.Fprintf(&b, "      - { id: s%d, type: agent_task, next: s%d, on_blocked: s%d, on_failed: s%d }\n", i, c1, c2, (i-1)/2)
		default:
			fmt.Fprintf(&b, "      - { id: s%d, type: agent_task, next: s%d, on_blocked: s%d }\n", i, c1, c2)
		}
	}
	return b.String(), limit
}

// BenchmarkSimulate counts and covers generated workflows of 1,000 and 10,000 steps:
// acyclic (every state a step, a proven minimum cover) and with review loops (visits in
// the state, a greedy cover).
func BenchmarkSimulate(b *testing.B) {
	for _, tc := range []struct {
		name  string
		gen   func(int) (string, int)
		track bool
	}{{"acyclic", acyclic, false}, {"review-loops", loops, true}} {
		for _, n := range []int{1000, 10000} {
			text, limit := tc.gen(n)
			o := orch(b, text)
			b.Run(fmt.Sprintf("%s/steps=%d", tc.name, n), func(b *testing.B) {
				for b.Loop() {
					m := newMachine(o.workflows[0], limit, Both)
					r, err := m.explore(sim.Options{}, 100)
					if err != nil || r.Counts.Total().Sign() == 0 || m.track != tc.track {
						b.Fatal(err, m.track)
					}
				}
			})
		}
	}
}
