package scenario

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// Emitting scenarios (dws simulate --emit-scenarios, SPEC §8.3): each covering path of
// a definition becomes a scenario that pins it, so that a team starts from full coverage
// and edits from there. A path's outcomes become stub answers, node by node in the order
// the run invokes them: ok, pass, complete and completed are {ok: true}; fail and failed
// {fail: …}; a named failure route or blocked is {fail: ROUTE}; approve and reject are
// decisions; a loop's again and exit, a delegation's ok and fail and a review's approve
// and retry pin the loop's, delegation's and review's own nodes. Outcomes the definition
// decides (a branch, a conditional, routing, a join) are not stubbed: the path's witness
// context (dws simulate's) starts the run, and a phase whose output a conditional reads,
// or an ai step whose output a branch reads, answers with the witness values. Every
// emitted scenario is run before it is written; a path it does not reproduce (one whose
// branches no single context takes) is not written, and is counted.

// Emitted is one scenario file to write.
type Emitted struct {
	// Name is the file name's stem (expense-3, review-plan_and_build-2).
	Name string
	Text []byte
}

// Emit pins every covering path of def. defPath is the definition as the scenario names
// it (relative to where the scenario will be), stem names the files, checksum is the
// definition's canonical checksum. It returns the scenarios that reproduce their path,
// and how many paths none could pin.
func Emit(def sim.Definition, defPath, stem, checksum string) ([]Emitted, int) {
	var out []Emitted
	failed := 0
	for k, p := range def.Result.Cover {
		sc := pin(def, p)
		sc.Definition, sc.Workflow, sc.Checksum = defPath, def.Workflow, checksum
		if def.Play == nil {
			failed++
			continue
		}
		if o := sc.Execute(def, Options{}); !o.Passed {
			failed++
			continue
		}
		name := fmt.Sprintf("%s-%d", stem, k+1)
		out = append(out, Emitted{Name: name, Text: sc.yaml(fmt.Sprintf("Path %d of %s: pinned by dws simulate --emit-scenarios.", k+1, defPath))})
	}
	return out, failed
}

// pin turns a path into a scenario (without definition, workflow and checksum).
func pin(def sim.Definition, p sim.Path) *Scenario {
	sc := &Scenario{Stubs: map[string][]*Stub{}, Context: maps.Clone(p.Context)}
	if sc.Context == nil {
		sc.Context = map[string]any{}
	}
	add := func(node string, a sim.Answer) {
		sc.Stubs[node] = append(sc.Stubs[node], &Stub{Answer: a})
	}
	for _, st := range p.Steps {
		node, o := st.Node, st.Outcome
		n, known := def.Nodes[node]
		accepts := func(kind string) bool { return known && slices.Contains(n.Answers, kind) }
		switch {
		case o == "again" || o == "exit":
			if _, ok := def.Nodes[node+"#loop"]; ok {
				add(node+"#loop", sim.Answer{Kind: "decision", Decision: o})
			}
		case strings.HasPrefix(o, "delegation") && (strings.HasSuffix(o, " ok") || strings.HasSuffix(o, " fail")):
			name, verdict, _ := strings.Cut(o, " ")
			if i := strings.LastIndexByte(o, ' '); i > 0 {
				name, verdict = o[:i], o[i+1:]
			}
			if verdict == "ok" {
				add(node+"#"+name, sim.Answer{Kind: "ok"})
			} else {
				add(node+"#"+name, sim.Answer{Kind: "fail", Reason: "delegated work failed"})
			}
		case (o == "approve" || o == "retry") && def.Nodes[node+"#review"].Kind != "":
			add(node+"#review", sim.Answer{Kind: "decision", Decision: o})
		case (o == "approve" || o == "reject") && accepts("decision"):
			add(node, sim.Answer{Kind: "decision", Decision: o})
		case o == "invalid" && accepts("fail"):
			add(node, sim.Answer{Kind: "fail", Reason: "no valid decision"})
		case (o == "ok" || o == "pass" || o == "complete" || o == "completed") && accepts("ok"):
			a := sim.Answer{Kind: "ok"}
			if out, ok := p.Context[node].(map[string]any); ok {
				a.Output = out // a phase whose output a conditional reads
				delete(sc.Context, node)
			} else if n.Kind == "ai step" && len(p.Context) > 0 {
				a.Output = maps.Clone(p.Context) // what the branches after it read
			}
			add(node, a)
		case (o == "fail" || o == "failed") && accepts("fail"):
			add(node, sim.Answer{Kind: "fail", Reason: "simulated failure"})
		case o == "blocked" && accepts("fail"):
			add(node, sim.Answer{Kind: "fail", Reason: "blocked"})
		case strings.HasPrefix(o, "on_") && accepts("fail"):
			add(node, sim.Answer{Kind: "fail", Reason: o})
		}
	}
	sc.Expect.Status = p.Status.String()
	sc.Expect.HasPath = true
	for _, v := range Visits(p.Steps) {
		sc.Expect.Path = append(sc.Expect.Path, Visit{Node: v.Node, Outcomes: v.Outcomes[:1]})
	}
	return sc
}

// yaml writes the scenario as a file dws test reads: YAML, its values in JSON's flow
// style (which YAML reads as is), keys sorted, so that the file is byte-stable.
func (sc *Scenario) yaml(comment string) []byte {
	var b strings.Builder
	j := func(v any) string {
		out, err := json.Marshal(v)
		if err != nil {
			return "null"
		}
		return string(out)
	}
	fmt.Fprintf(&b, "# %s\n", comment)
	b.WriteString("$schema: https://dws.dev/schema/scenario.json\n")
	fmt.Fprintf(&b, "definition: %s\n", j(sc.Definition))
	if sc.Workflow != "" {
		fmt.Fprintf(&b, "workflow: %s\n", j(sc.Workflow))
	}
	if sc.Checksum != "" {
		fmt.Fprintf(&b, "checksum: %s\n", sc.Checksum)
	}
	if len(sc.Context) > 0 {
		fmt.Fprintf(&b, "context: %s\n", j(sc.Context))
	}
	if len(sc.Stubs) > 0 {
		b.WriteString("stubs:\n")
		for _, node := range slices.Sorted(maps.Keys(sc.Stubs)) {
			var answers []string
			for _, st := range sc.Stubs[node] {
				m := map[string]any{}
				switch st.Answer.Kind {
				case "ok":
					if st.Answer.Output == nil {
						m["ok"] = true
					}
				case "fail":
					m["fail"] = st.Answer.Reason
				case "decision":
					m["decision"] = st.Answer.Decision
				}
				if st.Answer.Output != nil {
					m["output"] = st.Answer.Output
				}
				answers = append(answers, j(m))
			}
			fmt.Fprintf(&b, "  %s: [%s]\n", j(node), strings.Join(answers, ", "))
		}
	}
	b.WriteString("expect:\n")
	fmt.Fprintf(&b, "  status: %s\n", sc.Expect.Status)
	path := make([]string, len(sc.Expect.Path))
	for i, v := range sc.Expect.Path {
		path[i] = v.String()
	}
	fmt.Fprintf(&b, "  path: %s\n", j(path))
	return []byte(b.String())
}
