package scenario_test

import (
	"testing"

	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
)

// Whatever a scenario file holds, reading and checking it gives diagnostics with
// positions, never a panic.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"definition: a.json\nstubs: { a: [{ ok: true }, { fail: x, times: 2 }] }\nexpect: { status: failed, path: [a=fail, b], visits: { a: 1 } }\n",
		"definition: a.json\nstubs: { a: [{ run: [./x.sh, y] }, { decision: approve, output: { k: 1 } }] }\n",
		"definition: [\n",
		"{\"definition\": \"a.json\", \"expect\": {\"context\": {\"x\": 1e400}}}",
		"definition: a.json\nstubs: { a: [{ ok: true, fail: x }], b: [{}] }\nexpect: { visits: { a: 99999999999999999999 } }\n",
		"",
	} {
		f.Add([]byte(seed))
	}
	nodes := map[string]sim.Node{
		"a": {Kind: "task", Answers: []string{"ok", "fail"}, Outcomes: []string{"ok", "fail"}},
		"b": {Kind: "review", Answers: []string{"decision"}, Decisions: []string{"approve", "reject"}, Outcomes: []string{"approve", "reject"}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, ds := scenario.Parse("fuzz.scenario.yaml", data)
		for _, d := range ds {
			if d.Line < 1 || d.Column < 1 || d.Rule == "" || d.Message == "" {
				t.Fatalf("diagnostic without a position, rule or message: %+v", d)
			}
		}
		if len(ds) == 0 {
			for _, d := range sc.Check(nodes, nil) {
				if d.Line < 1 || d.Column < 1 || d.Rule == "" {
					t.Fatalf("check diagnostic without a position or rule: %+v", d)
				}
			}
		}
	})
}
