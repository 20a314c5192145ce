package direclaw

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// defaultMaxIterations is DireClaw's max_total_iterations when neither the workflow's
// limits nor workflow_orchestration set one.
const defaultMaxIterations = 12

// outcome is one answer a step's stub can give: where it routes, or how it ends the run.
type outcome struct {
	name string
	// field is the routing field the outcome follows; "" for one no field routes.
	field string
	// target is the index of the step it leads to; -1 when it ends the run.
	target int
	status sim.Status
	// dead marks a routing field no outcome follows, with why.
	dead bool
	why  string
}

// unhandled reports whether the outcome ends the run failed for want of its route
// (sim-unhandled-failure).
func (o outcome) unhandled() bool {
	return o.target < 0 && o.status == sim.Failed && o.field != "" && !o.dead
}

// machine is one workflow as sim sees it. A run's state is the step it is at and, when
// the iteration limit can matter, the visits it has made so far (this one included), so
// that a loop's turns are distinct states and the state graph is acyclic.
type machine struct {
	w        *workflow
	outcomes [][]outcome // by step index; nil for a later definition of an id
	limit    int
	// track is set when some run can reach the limit (a loop, or a path longer than
	// it); otherwise visits are not counted and every state is a step, which changes
	// no count and lets sim find a minimum cover.
	track bool
}

type visit struct{ step, visits int }

func newMachine(w *workflow, limit int, rel Release) *machine {
	m := &machine{w: w, outcomes: make([][]outcome, len(w.steps)), limit: max(limit, 1)}
	// A route naming no step is dropped after its dangling-edge finding, as in the graph.
	target := func(id string) int {
		if s, ok := w.byID[id]; ok {
			return s.index
		}
		return -1
	}
	for i, s := range w.steps {
		if w.byID[s.id] != s {
			continue // a later definition of an id takes no part, as in the graph
		}
		routes := s.routesFor(rel)
		route := func(field string) int {
			if r, ok := routes[field]; ok {
				return target(r.target)
			}
			return -1
		}
		var os []outcome
		if s.review {
			os = []outcome{
				{name: "approve", field: "on_approve", target: route("on_approve"), status: sim.Succeeded},
				{name: "reject", field: "on_reject", target: route("on_reject"), status: sim.Failed},
				{name: "invalid", target: -1, status: sim.Failed},
			}
			if _, ok := routes["next"]; ok {
				os = append(os, outcome{name: "next", field: "next", target: -1, dead: true,
					why: "an agent_review routes by its decision (on_approve, on_reject); DireClaw never follows its next"})
			}
		} else {
			next := route("next")
			if next < 0 && i+1 < len(w.steps) {
				next = target(w.steps[i+1].id) // the next step in list order
			}
			os = []outcome{{name: "complete", field: "next", target: next, status: sim.Succeeded}}
			if rel.current() {
				// No blocked status, and nothing routes a failure: the run fails.
				os = append(os, outcome{name: "failed", target: -1, status: sim.Failed})
			} else {
				os = append(os,
					outcome{name: "blocked", field: "on_blocked", target: route("on_blocked"), status: sim.Failed},
					outcome{name: "failed", field: "on_failed", target: route("on_failed"), status: sim.Failed})
			}
		}
		m.outcomes[i] = os
	}
	m.track = !fitsLimit(m.outcomes, m.limit)
	return m
}

// fitsLimit reports whether no run from the first step can make more than limit visits:
// the steps it reaches form no cycle and no path through them is longer than limit.
func fitsLimit(outcomes [][]outcome, limit int) bool {
	n := len(outcomes)
	reach := make([]bool, n)
	reach[0] = true
	order := []int{0}
	for k := 0; k < len(order); k++ {
		for _, o := range outcomes[order[k]] {
			if o.target >= 0 && !reach[o.target] {
				reach[o.target] = true
				order = append(order, o.target)
			}
		}
	}
	indeg := make([]int, n)
	for _, i := range order {
		for _, o := range outcomes[i] {
			if o.target >= 0 {
				indeg[o.target]++
			}
		}
	}
	if indeg[0] > 0 {
		return false // the first step is revisited: a loop
	}
	// Kahn's algorithm over the reached steps, with the longest path into each.
	depth := make([]int, n)
	depth[0] = 1
	queue := []int{0}
	done := 0
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		done++
		if depth[i] > limit {
			return false
		}
		for _, o := range outcomes[i] {
			if t := o.target; t >= 0 {
				depth[t] = max(depth[t], depth[i]+1)
				if indeg[t]--; indeg[t] == 0 {
					queue = append(queue, t)
				}
			}
		}
	}
	return done == len(order)
}

func (m *machine) Start() visit {
	if m.track {
		return visit{0, 1}
	}
	return visit{0, 0}
}

func (m *machine) Moves(v visit) []sim.Move[visit] {
	s := m.w.steps[v.step]
	os := m.outcomes[v.step]
	out := make([]sim.Move[visit], len(os))
	for k, o := range os {
		mv := sim.Move[visit]{Edge: sim.Edge{Node: s.id, Outcome: o.name}}
		switch {
		case o.dead:
			mv.Dead, mv.Why = true, o.why
		case o.target < 0:
			mv.End, mv.Status = true, o.status
			if o.unhandled() {
				mv.Finding = "sim-unhandled-failure"
			}
		case m.track && v.visits >= m.limit:
			// The visit that would pass the limit is not made: the run ends failed.
			mv.End, mv.Status, mv.Finding = true, sim.Failed, "sim-max-iterations"
		default:
			mv.To = m.w.steps[o.target].id
			mv.Next = visit{o.target, v.visits}
			if m.track {
				mv.Next.visits++
			}
		}
		out[k] = mv
	}
	return out
}

// edges are every edge of the workflow, reached by a run or not.
func (m *machine) edges() []sim.Edge {
	var out []sim.Edge
	for i, os := range m.outcomes {
		for _, o := range os {
			out = append(out, sim.Edge{Node: m.w.steps[i].id, Outcome: o.name})
		}
	}
	return out
}

// maxIterations is the workflow's iteration limit (its limits, else
// workflow_orchestration, else DireClaw's default) and the pointer of where it is set,
// "" for the default.
func maxIterations(o *orchestrator, w *workflow) (int, string) {
	for _, at := range []struct {
		n   *source.Node
		ptr string
	}{
		{w.node.Get("limits"), w.ptr + "/limits"},
		{o.root.Get("workflow_orchestration"), "/workflow_orchestration"},
	} {
		if v := integer(at.n.Get("max_total_iterations")); v != nil {
			n := math.MaxInt32 // more than any run can count states for
			if v.IsInt64() && v.Int64() < math.MaxInt32 {
				n = int(v.Int64())
			}
			return n, at.ptr + "/max_total_iterations"
		}
	}
	return defaultMaxIterations, ""
}

// simulate is the dialect's simulation part: each workflow on its own, first step first.
func simulate(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	o := model(p)
	rel := releaseOf(p.File)
	var defs []sim.Definition
	seen := map[string]bool{}
	for _, w := range o.workflows {
		if !w.hasID || seen[w.id] || !simulable(w) {
			continue // the schema stage or duplicate-id has reported it
		}
		seen[w.id] = true
		limit, at := maxIterations(o, w)
		m := newMachine(w, limit, rel)
		r, err := m.explore(opts, maxPaths)
		if err != nil {
			return nil, err
		}
		report(p.File, m, r.Findings(), at)
		ns := m.nodes()
		defs = append(defs, sim.Definition{Workflow: w.id, Pointer: w.ptr, Result: r, Nodes: ns, Play: m.play, Pin: pinStep(ns)})
	}
	return defs, nil
}

// explore counts and covers the workflow's runs, saying why when a bound stops it.
func (m *machine) explore(opts sim.Options, maxPaths int) (*sim.Result, error) {
	r, err := sim.Explore[visit](m, opts, maxPaths, m.edges())
	var be *sim.BoundError
	switch {
	case errors.As(err, &be) && m.track && be.Bound != "time":
		return nil, fmt.Errorf("workflow %q, with every loop unrolled up to max_total_iterations (%d visits): %w", m.w.id, m.limit, err)
	case err != nil:
		return nil, fmt.Errorf("workflow %q: %w", m.w.id, err)
	}
	return r, nil
}

// simulable reports whether a workflow has steps and every step an id.
func simulable(w *workflow) bool {
	for _, s := range w.steps {
		if !s.hasID {
			return false
		}
	}
	return len(w.steps) > 0
}

// report reports the findings of one workflow's simulation at the steps they concern.
func report(f *lint.File, m *machine, found []sim.Finding, at string) {
	for _, fd := range found {
		s := m.w.byID[fd.Node]
		switch fd.Rule {
		case "sim-unhandled-failure":
			var ends, routes []string
			for _, o := range m.outcomes[s.index] {
				if o.unhandled() {
					ends, routes = append(ends, o.name), append(routes, "no "+o.field)
				}
			}
			f.Report(fd.Rule, s.ptr+"/id", fmt.Sprintf("step %s can end %s and nothing handles it (%s): the run fails",
				s.label(), strings.Join(ends, " or "), strings.Join(routes, ", ")))
		case "sim-max-iterations":
			where := "DireClaw's default"
			var rel []lint.Related
			switch {
			case strings.HasPrefix(at, "/workflow_orchestration"):
				where = "from workflow_orchestration"
			case at != "":
				where = "from the workflow's limits"
			}
			if at != "" {
				rel = append(rel, f.Related(at, "the limit"))
			}
			f.Report(fd.Rule, s.ptr+"/id", fmt.Sprintf(
				"a run can reach step %s having made the %d visits max_total_iterations allows (%s): the step it routes to next is not run, and the run fails",
				s.label(), m.limit, where), rel...)
		}
	}
}
