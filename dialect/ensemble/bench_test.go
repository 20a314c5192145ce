package ensemble

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// dag is an ensemble of n phases, each waiting for one or two of the four phases before
// it (so the frontier stays narrow however long the ensemble is), every tenth reviewed
// with one retry.
func dag(n int) string {
	rng := rand.New(rand.NewPCG(uint64(n), 9))
	var b strings.Builder
	b.WriteString("ensemble: generated\nphases:\n")
	for i := range n {
		var after []string
		for k := range 1 + rng.IntN(2) {
			if j := i - 1 - rng.IntN(4) - k; j >= 0 {
				after = append(after, fmt.Sprint("p", j))
			}
		}
		fmt.Fprintf(&b, "  - name: p%d\n    after: [%s]\n    tasks: [ { name: t%d, description: d } ]\n", i, strings.Join(after, ", "), i)
		if i%10 == 9 {
			fmt.Fprintf(&b, "    review: { task: { name: r%d, description: d }, maxRetries: 1 }\n", i)
		}
	}
	return b.String()
}

// chain is n phases each after the one before: a frontier of one, and a state graph
// whose every edge is one move, so that sim proves its cover minimum.
func chain(n int) string {
	var b strings.Builder
	b.WriteString("ensemble: chain\nphases:\n")
	for i := range n {
		after := ""
		if i > 0 {
			after = fmt.Sprintf(", after: [p%d]", i-1)
		}
		fmt.Fprintf(&b, "  - { name: p%d%s, tasks: [ { name: t%d, description: d } ] }\n", i, after, i)
	}
	return b.String()
}

// BenchmarkSimulate counts and covers generated ensembles of 1,000 and 10,000 phases.
func BenchmarkSimulate(b *testing.B) {
	for _, tc := range []struct {
		name string
		gen  func(int) string
	}{{"chain", chain}, {"dag", dag}} {
		for _, n := range []int{1000, 10000} {
			doc, err := source.Parse("e.yaml", []byte(tc.gen(n)), source.YAML)
			if err != nil {
				b.Fatal(err)
			}
			phases := phasesOf(decode(doc))
			b.Run(fmt.Sprintf("%s/phases=%d", tc.name, n), func(b *testing.B) {
				for b.Loop() {
					m, err := newMachine(phases)
					if err != nil {
						b.Fatal(err)
					}
					r, err := m.explore(sim.Options{}, 100)
					if err != nil || r.Counts.Total().Sign() == 0 {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
