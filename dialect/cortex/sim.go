package cortex

import (
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/pgeval"
	"github.com/dwsdev/dws/sim"
)

// Run-time semantics (SPEC §8.1): a sql, http, script or ai step either succeeds (ok,
// along onSuccess) or fails once its retries are used up (fail, along onFailure); a
// sleep step only succeeds; a branch step is true (onSuccess) or false (onFailure), an
// expression that is NULL or raises an error counting as false. A null or absent edge
// ends the run: failed when the outcome taken was fail, succeeded otherwise. The graph
// is acyclic (validation refuses cycles), so a run's state is the step it is at.

// machine is a Cortex definition as sim sees it.
type machine struct {
	steps []step
	index map[string]int
	// dead holds, per step, the outcome no run can take and why (a constant branch).
	dead map[int]deadOutcome
}

type deadOutcome struct{ outcome, why string }

func newMachine(steps []step) *machine {
	m := &machine{steps: steps, index: map[string]int{}, dead: map[int]deadOutcome{}}
	for i, s := range steps {
		if _, dup := m.index[s.id]; s.hasID && !dup {
			m.index[s.id] = i
		}
	}
	return m
}

func (m *machine) Start() int { return 0 }

// outcomes are a step's outcomes in report order, each with its edge field.
func outcomes(s step) []struct {
	name string
	e    edge
	fail bool
} {
	type o = struct {
		name string
		e    edge
		fail bool
	}
	switch s.typ {
	case "sleep":
		return []o{{"ok", s.onSuccess, false}}
	case "branch":
		return []o{{"true", s.onSuccess, false}, {"false", s.onFailure, false}}
	}
	return []o{{"ok", s.onSuccess, false}, {"fail", s.onFailure, true}}
}

func (m *machine) Moves(i int) []sim.Move[int] {
	s := m.steps[i]
	var out []sim.Move[int]
	for _, o := range outcomes(s) {
		mv := sim.Move[int]{Edge: sim.Edge{Node: s.id, Outcome: o.name}}
		if d, ok := m.dead[i]; ok && d.outcome == o.name {
			mv.Dead, mv.Why = true, d.why
		}
		next, ok := m.index[o.e.target]
		switch {
		case o.e.target != "" && ok:
			mv.Next, mv.To = next, o.e.target
		default:
			// null or absent ends the run (a dangling edge never gets here: the
			// definition would not have validated).
			mv.End, mv.Status = true, sim.Succeeded
			if o.fail {
				mv.Status, mv.Finding = sim.Failed, "sim-unhandled-failure"
			}
		}
		out = append(out, mv)
	}
	return out
}

// edges are every edge of the definition, reached by a run or not.
func (m *machine) edges() []sim.Edge {
	var out []sim.Edge
	for _, s := range m.steps {
		if !s.hasID {
			continue
		}
		for _, o := range outcomes(s) {
			out = append(out, sim.Edge{Node: s.id, Outcome: o.name})
		}
	}
	return out
}

// simulate is the dialect's simulation part.
func simulate(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	steps := stepsOf(p)
	if len(steps) == 0 {
		return nil, nil
	}
	m := newMachine(steps)
	bs := branches(steps)
	dom := domains(steps, settingsOf(p.Config).Registry, opts.Context)
	// One searcher for the definition: its branches' parts are searched again for the
	// covering paths through them, and identical branches are common.
	search := new(pgeval.Searcher)
	if err := judgeBranches(p, m, bs, opts, dom, search); err != nil {
		return nil, err
	}
	r, err := sim.Explore[int](m, opts, maxPaths, m.edges())
	if err != nil {
		return nil, err
	}
	if err := witnesses(r, bs, opts, dom, search); err != nil {
		return nil, err
	}
	for _, f := range r.Findings() {
		i := m.index[f.Node]
		p.Report(f.Rule, steps[i].ptr+"/id",
			"step "+quote(f.Node)+" can fail, and nothing handles it: onFailure ends the run failed")
	}
	checkStubOutputs(p, steps, r)
	reg := settingsOf(p.Config).Registry
	ns := nodes(steps)
	return []sim.Definition{{Result: r, Nodes: ns, Play: m.play(bs, reg), Pin: pinStep(ns)}}, nil
}

func quote(s string) string { return `"` + s + `"` }
