package change_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/lint"
)

// These tests hold node hashes (SPEC §17) to their contract on units the real dialects
// read from files: random Cortex and DireClaw definitions, loops included.

// graphSpec is a random definition's shape: per node a type, a value, an optional
// description and two routes (a node index, or -1 for none).
type graphSpec struct {
	typ    []string
	p      []int
	desc   []bool
	routes [][2]int
}

func randomSpec(r *rand.Rand, n int, types []string) *graphSpec {
	g := &graphSpec{}
	for range n {
		g.typ = append(g.typ, types[r.IntN(len(types))])
		g.p = append(g.p, r.IntN(4))
		g.desc = append(g.desc, r.IntN(2) == 0)
		var rt [2]int
		for k := range rt {
			rt[k] = -1
			if r.IntN(3) > 0 {
				rt[k] = r.IntN(n)
			}
		}
		g.routes = append(g.routes, rt)
	}
	return g
}

// shuffled writes the members of a flow-style object in random order (r nil: as given).
func shuffled(r *rand.Rand, members []string) string {
	members = slices.Clone(members)
	if r != nil {
		r.Shuffle(len(members), func(a, b int) { members[a], members[b] = members[b], members[a] })
	}
	return "{ " + strings.Join(members, ", ") + " }"
}

// cortex renders g as a Cortex workflow, its nodes in the order given, their members
// shuffled by r; id names node i.
func (g *graphSpec) cortex(r *rand.Rand, order []int, name, version string, id func(int) string) string {
	route := func(t int) string {
		if t < 0 {
			return "null"
		}
		return `"` + id(t) + `"`
	}
	var steps []string
	for _, i := range order {
		ms := []string{
			`"id": "` + id(i) + `"`, `"type": "` + g.typ[i] + `"`,
			`"params": ` + shuffled(r, []string{fmt.Sprintf(`"code": "run(%d)"`, g.p[i]), `"kind": "x"`}),
			`"onSuccess": ` + route(g.routes[i][0]), `"onFailure": ` + route(g.routes[i][1]),
		}
		if g.desc[i] {
			ms = append(ms, `"description": "d"`)
		}
		steps = append(steps, "    "+shuffled(r, ms))
	}
	return shuffled(r, []string{`"schemaVersion": "1.0"`, `"name": "` + name + `"`, `"version": "` + version + `"`,
		"\"steps\": [\n" + strings.Join(steps, ",\n") + "\n  ]"}) + "\n"
}

// cortexNext is the Cortex graph of g: both routes are edges.
func (g *graphSpec) cortexNext() [][]int {
	next := make([][]int, len(g.typ))
	for i, rt := range g.routes {
		for _, t := range rt {
			if t >= 0 {
				next[i] = append(next[i], t)
			}
		}
	}
	return next
}

// direclaw renders g as a DireClaw orchestrator: node i is an agent_task (route 0 its
// next; none: the implicit next step) or an agent_review (routes on_approve and
// on_reject), run by its own agent i, whose model is models[i].
func (g *graphSpec) direclaw(orch, wf, version string, id func(int) string, models []string, iterations int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "id: %s\nselector_agent: a0\ndefault_workflow: %s\nagents:\n", orch, wf)
	for i := range g.typ {
		fmt.Fprintf(&b, "  a%d: { provider: openai, model: %s }\n", i, models[i])
	}
	fmt.Fprintf(&b, "workflows:\n  - id: %s\n    version: %s\n    steps:\n", wf, version)
	for i := range g.typ {
		ms := []string{"id: " + id(i), "type: " + g.typ[i], fmt.Sprintf("agent: a%d", i), fmt.Sprintf(`prompt: "step p=%d"`, g.p[i])}
		if g.desc[i] {
			ms = append(ms, "description: d")
		}
		labels := []string{"next", ""}
		if g.typ[i] == "agent_review" {
			labels = []string{"on_approve", "on_reject"}
		}
		for k, t := range g.routes[i] {
			if t >= 0 && labels[k] != "" {
				ms = append(ms, labels[k]+": "+id(t))
			}
		}
		fmt.Fprintf(&b, "      - %s\n", shuffled(nil, ms))
	}
	fmt.Fprintf(&b, "workflow_orchestration:\n  max_total_iterations: %d\n", iterations)
	return b.String()
}

// direclawNext is the DireClaw graph of g, as DireClaw runs it.
func (g *graphSpec) direclawNext() [][]int {
	next := make([][]int, len(g.typ))
	for i, rt := range g.routes {
		switch {
		case g.typ[i] == "agent_review":
			for _, t := range rt {
				if t >= 0 {
					next[i] = append(next[i], t)
				}
			}
		case rt[0] >= 0:
			next[i] = append(next[i], rt[0])
		case i+1 < len(g.typ):
			next[i] = append(next[i], i+1)
		}
	}
	return next
}

// reachable is every node a plain search finds from i over next, i included.
func reachable(next [][]int, i int) map[int]bool {
	seen := map[int]bool{i: true}
	todo := []int{i}
	for len(todo) > 0 {
		v := todo[0]
		todo = todo[1:]
		for _, w := range next[v] {
			if !seen[w] {
				seen[w] = true
				todo = append(todo, w)
			}
		}
	}
	return seen
}

func nodeID(i int) string { return fmt.Sprintf("n%d", i) }

// hashesOf reads the file text as the real dialects do and returns the node hashes of
// its only unit.
func hashesOf(t *testing.T, l *lint.Linter, path, text string) map[string]change.NodeHash {
	t.Helper()
	us := l.Inspect(path, []byte(text)).Units()
	if len(us) != 1 {
		t.Fatalf("%s: %d units, want 1:\n%s", path, len(us), text)
	}
	out := map[string]change.NodeHash{}
	for _, h := range change.Hashes(us[0]) {
		out[h.Node] = h
	}
	return out
}

func linter(t *testing.T) *lint.Linter {
	t.Helper()
	l, err := lint.New(dialect.Registry(), lint.DefaultConfig(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestNodeKeysChangeDownstream: on 300 random definitions (150 Cortex, 150 DireClaw,
// loops included), editing one node's value (a Cortex step's code, a DireClaw step's
// prompt) or what it references (its DireClaw agent's model) changes its own hash and
// no other, and the key of exactly the nodes reachable from it (itself and its loop
// mates included), found by a plain search over the routes the test wrote.
func TestNodeKeysChangeDownstream(t *testing.T) {
	l := linter(t)
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 2 + r.IntN(9)
		var before, after map[string]change.NodeHash
		var next [][]int
		i := r.IntN(n)
		if trial%2 == 0 {
			g := randomSpec(r, n, []string{"script", "sql", "http"})
			before = hashesOf(t, l, "f.json", g.cortex(nil, slices.Collect(seq(n)), "flow", "v1.0", nodeID))
			g.p[i] = 99
			after = hashesOf(t, l, "f.json", g.cortex(nil, slices.Collect(seq(n)), "flow", "v1.0", nodeID))
			next = g.cortexNext()
		} else {
			g := randomSpec(r, n, []string{"agent_task", "agent_review"})
			models := slices.Repeat([]string{"gpt-5"}, n)
			before = hashesOf(t, l, "o.yaml", g.direclaw("o", "w", "1", nodeID, models, 12))
			if trial%4 == 1 {
				g.p[i] = 99
			} else {
				models[i] = "gpt-6"
			}
			after = hashesOf(t, l, "o.yaml", g.direclaw("o", "w", "1", nodeID, models, 12))
			next = g.direclawNext()
		}
		down := reachable(next, i)
		if len(after) != n || len(before) != n {
			t.Fatalf("trial %d: %d and %d nodes, want %d", trial, len(before), len(after), n)
		}
		for k := range n {
			id := nodeID(k)
			if own := after[id].Own != before[id].Own; own != (k == i) {
				t.Fatalf("trial %d: edited %s; own hash of %s changed=%v", trial, nodeID(i), id, own)
			}
			if key := after[id].Key != before[id].Key; key != down[k] {
				t.Fatalf("trial %d: edited %s; key of %s changed=%v, reachable=%v; routes %v", trial, nodeID(i), id, key, down[k], next)
			}
		}
	}
}

func seq(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// permutations lists every ordering of 0..n-1.
func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			out = append(out, slices.Concat(p[:i], []int{n - 1}, p[i:]))
		}
	}
	return out
}

// TestNodeKeysIgnoreOrder: writing a Cortex workflow's steps in any order, and the
// members of every object in a random order, changes no hash: every permutation of the
// steps of 40 random workflows of 2 to 5 steps, loops included.
func TestNodeKeysIgnoreOrder(t *testing.T) {
	l := linter(t)
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		n := 2 + r.IntN(4)
		g := randomSpec(r, n, []string{"script", "sql", "http"})
		want := hashesOf(t, l, "f.json", g.cortex(nil, slices.Collect(seq(n)), "flow", "v1.0", nodeID))
		for _, perm := range permutations(n) {
			text := g.cortex(r, perm, "flow", "v1.0", nodeID)
			if got := hashesOf(t, l, "f.json", text); !maps.EqualFunc(got, want, sameHashes) {
				t.Fatalf("trial %d, order %v: hashes differ\n%s\n got %v\nwant %v", trial, perm, text, got, want)
			}
		}
	}
}

func sameHashes(a, b change.NodeHash) bool {
	return a.Own == b.Own && a.Key == b.Key && slices.Equal(a.Loop, b.Loop)
}

// TestNodeKeysRename: renaming every node (wherever it is named), the unit (a Cortex
// workflow's name; a DireClaw orchestrator's and workflow's ids), bumping its version
// and moving its file changes no hash: neither holds an id, a version or a path (main's
// contract: change/doc.go "Ids take no part"). A change of the unit's own values that is
// not cosmetic (DireClaw's workflow_orchestration) changes every key and no own hash; a
// cosmetic one (a description) changes nothing.
func TestNodeKeysRename(t *testing.T) {
	l := linter(t)
	r := rand.New(rand.NewPCG(5, 6))
	renamed := func(i int) string { return fmt.Sprintf("step-%d", i) }
	check := func(trial int, what string, a, b map[string]change.NodeHash, n int, sameKey bool) {
		t.Helper()
		for k := range n {
			x, y := a[nodeID(k)], b[renamed(k)]
			if y.Own == "" {
				y = b[nodeID(k)]
			}
			if x.Own != y.Own || (x.Key == y.Key) != sameKey {
				t.Fatalf("trial %d, %s: node %d: %+v vs %+v", trial, what, k, x, y)
			}
		}
	}
	for trial := range 100 {
		n := 2 + r.IntN(8)
		if trial%2 == 0 {
			g := randomSpec(r, n, []string{"script", "sql", "http"})
			a := hashesOf(t, l, "f.json", g.cortex(nil, slices.Collect(seq(n)), "flow", "v1.0", nodeID))
			b := hashesOf(t, l, "moved/other.json", g.cortex(nil, slices.Collect(seq(n)), "other", "v2.3", renamed))
			check(trial, "renamed", a, b, n, true)
			continue
		}
		g := randomSpec(r, n, []string{"agent_task", "agent_review"})
		models := slices.Repeat([]string{"gpt-5"}, n)
		a := hashesOf(t, l, "o.yaml", g.direclaw("o", "w", "1", nodeID, models, 12))
		b := hashesOf(t, l, "moved/p.yaml", g.direclaw("p", "v", "7", renamed, models, 12))
		check(trial, "renamed", a, b, n, true)
		c := hashesOf(t, l, "o.yaml", g.direclaw("o", "w", "1", nodeID, models, 4))
		check(trial, "workflow_orchestration changed", a, c, n, false)
		d := hashesOf(t, l, "o.yaml", strings.Replace(g.direclaw("o", "w", "1", nodeID, models, 12), "    version: 1\n", "    version: 1\n    description: new words\n", 1))
		check(trial, "description added", a, d, n, true)
	}
}
