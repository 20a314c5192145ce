package cortex

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/dwsdev/dws/pgeval"
	"github.com/dwsdev/dws/sim"
)

// A scenario's run (SPEC §8.3), and the decisions where SPEC leaves a choice open:
//   - A sql, http, script or ai step is invoked once per attempt: 1 + retry.count
//     attempts, each answered by the step's next stub answer. The first ok ends the
//     visit ok; when every attempt failed the outcome is fail.
//   - An ok answer's output is merged into the context, member by member: that is how
//     an ai step's fraudScore reaches a later branch. An unpinned ai step answers the
//     smallest output its schema accepts (each required property at its minimum, the
//     first value of its enum, "" or false); any other unpinned step answers ok.
//   - A pinned ai output is checked against the step's output schema: a missing
//     required property, a value of the wrong type, outside minimum/maximum or not in
//     the enum is sim-stub-output, and fails the scenario.
//   - A branch is never stubbed: its expression is evaluated over the context. NULL and
//     an error count as false (sim-branch-error); so does a value the evaluator cannot
//     evaluate (sim-unsupported, e.g. {{s}}::numeric with s "NaN"). An expression with a
//     construct the evaluator does not support takes true, the first outcome
//     (sim-unsupported). The findings are the run's, and the scenario reports them.
//   - A sleep step is ok.

// nodes are what a scenario may pin at each step.
func nodes(steps []step) map[string]sim.Node {
	out := map[string]sim.Node{}
	for _, s := range steps {
		if !s.hasID {
			continue
		}
		n := sim.Node{Kind: s.typ + " step"}
		for _, o := range outcomes(s) {
			n.Outcomes = append(n.Outcomes, o.name)
		}
		switch s.typ {
		case "branch":
			n.Decided = "a branch is decided by its expression over the context"
		case "sleep":
			n.Decided = "a sleep step always succeeds"
		default:
			n.Answers = []string{"ok", "fail"}
		}
		out[s.id] = n
	}
	return out
}

type player struct {
	m     *machine
	bs    map[string]*branch
	reg   *Registry
	stubs sim.Stubs
}

// play runs one scenario of the definition.
func (m *machine) play(bs map[string]*branch, reg *Registry) func(sim.Stubs, map[string]any, int) (*sim.Run, error) {
	return func(stubs sim.Stubs, ctx map[string]any, maxSteps int) (*sim.Run, error) {
		p := &player{m: m, bs: bs, reg: reg, stubs: stubs}
		return sim.Play[int](m, p, ctx, maxSteps)
	}
}

func (p *player) Decide(i int, moves []sim.Move[int], run *sim.Run) (int, error) {
	s := p.m.steps[i]
	run.Visits[s.id]++
	switch s.typ {
	case "sleep":
		return 0, nil
	case "branch":
		if i := p.branch(s, moves, run); i >= 0 {
			return i, nil
		}
		// The edge the expression takes was proven dead: the context got there in a way
		// the proof does not cover (a stub's output writing a variable its step's schema
		// does not list).
		for _, mv := range moves {
			if mv.Dead {
				return 0, fmt.Errorf("branch %q goes %s, an edge the simulation proved dead (%s): the context reached it in a way the proof does not cover", s.id, mv.Edge.Outcome, mv.Why)
			}
		}
		return 0, fmt.Errorf("branch %q has no edge to take", s.id)
	}
	attempts := 1
	if n, ok := s.node.Get("retry").Get("count").Value().(json.Number); ok {
		if k, err := n.Int64(); err == nil && k > 0 && k < 1000 {
			attempts += int(k)
		}
	}
	var input any
	if s.params != nil {
		input = s.params.Value()
	}
	for a := 1; a <= attempts; a++ {
		ans, pinned, err := p.stubs.Answer(sim.Call{Node: s.id, Attempt: a, Input: input, Context: run.Context})
		if err != nil {
			return 0, err
		}
		if !pinned {
			ans = sim.Answer{Kind: "ok", Output: p.smallest(s)}
		} else if ans.Kind == "ok" && ans.Output != nil {
			if why := p.misfit(s, ans.Output); why != "" {
				return 0, &sim.RuleError{Rule: "sim-stub-output", Node: s.id, Message: why}
			}
		}
		switch ans.Kind {
		case "ok":
			for k, v := range ans.Output {
				run.Context[k] = v
			}
			return sim.Pick(moves, "ok"), nil
		case "fail":
			continue
		default:
			return 0, &sim.StubError{Node: s.id, Err: fmt.Errorf("a %s step answers ok or fail, not %s", s.typ, ans.Kind)}
		}
	}
	return sim.Pick(moves, "fail"), nil
}

// branch evaluates the step's expression over the run's context. An expression the
// evaluator cannot read takes true (a free choice takes the first outcome); one that it
// reads but cannot evaluate for this context's values (a numeric "NaN") counts as
// false, as an error does (SPEC §8.1). Each is a finding of the run.
func (p *player) branch(s step, moves []sim.Move[int], run *sim.Run) int {
	finding := func(rule, format string, args ...any) {
		run.Findings = append(run.Findings, sim.RuleError{Rule: rule, Node: s.id, Message: fmt.Sprintf(format, args...)})
	}
	b := p.bs[s.id]
	switch {
	case b == nil:
		finding("sim-unsupported", "branch %q: its expression does not parse; it takes true", s.id)
		return sim.Pick(moves, "true")
	case b.unsup != nil:
		finding("sim-unsupported", "branch %q: %v; it takes true", s.id, b.unsup)
		return sim.Pick(moves, "true")
	}
	v, err := b.expr.Eval(run.Context)
	var u *pgeval.Unsupported
	switch {
	case errors.As(err, &u):
		finding("sim-unsupported", "branch %q: %v for this run's context, which counts as false, as an error does", s.id, err)
		return sim.Pick(moves, "false")
	case err != nil:
		finding("sim-branch-error", "branch %q raised %q, which counts as false", s.id, err.Error())
		return sim.Pick(moves, "false")
	case v.Type == pgeval.Bool && !v.Null && v.B:
		return sim.Pick(moves, "true")
	}
	return sim.Pick(moves, "false")
}

// properties are the output-schema properties of an ai step; nil when it has none.
func (p *player) properties(s step) ([]Property, string) {
	if s.typ != "ai" || p.reg == nil || s.params == nil {
		return nil, ""
	}
	name, _ := s.params.Get("schema").Str()
	return p.reg.Properties[name], name
}

// smallest is the smallest output an ai step's schema accepts; nil for other steps.
func (p *player) smallest(s step) map[string]any {
	props, _ := p.properties(s)
	if props == nil {
		return nil
	}
	out := map[string]any{}
	for _, prop := range props {
		if !prop.Required {
			continue
		}
		if v, ok := smallestOf(prop); ok {
			out[prop.Name] = v
		}
	}
	return out
}

func smallestOf(p Property) (any, bool) {
	if p.Enum != nil {
		i := slices.IndexFunc(p.Enum, func(v any) bool { return fitsType(p, v) })
		if i < 0 {
			return nil, false
		}
		return p.Enum[i], true
	}
	switch p.Type {
	case "string":
		return "", true
	case "boolean":
		return false, true
	case "number", "integer", "":
		lo, hasLo := new(big.Rat).SetString(p.Minimum)
		hi, hasHi := new(big.Rat).SetString(p.Maximum)
		v := new(big.Rat)
		switch {
		case p.Minimum != "" && hasLo:
			v.Set(lo)
		case p.Maximum != "" && hasHi && hi.Sign() < 0:
			v.Set(hi)
		}
		if p.Type == "integer" && !v.IsInt() {
			n := new(big.Int).Quo(v.Num(), v.Denom())
			if new(big.Rat).SetInt(n).Cmp(v) < 0 {
				n.Add(n, big.NewInt(1))
			}
			v.SetInt(n)
		}
		return json.Number(ratString(v)), true
	}
	return nil, false
}

// ratString writes r as a decimal without exponent (r has a finite decimal expansion:
// it came from a JSON number or is an integer).
func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	for prec := 1; prec < 400; prec++ {
		s := r.FloatString(prec)
		if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
			return s
		}
	}
	return r.FloatString(400)
}

// misfit says how a pinned output breaks the step's output schema, "" when it fits.
func (p *player) misfit(s step, out map[string]any) string {
	props, name := p.properties(s)
	for _, prop := range props {
		v, ok := out[prop.Name]
		if !ok {
			if prop.Required {
				return fmt.Sprintf("the stub's output for ai step %q lacks %s, which schema %q requires", s.id, prop.Name, name)
			}
			continue
		}
		if why := valueMisfit(prop, v); why != "" {
			return fmt.Sprintf("the stub's output for ai step %q does not fit schema %q: %s %s", s.id, name, prop.Name, why)
		}
	}
	return ""
}

func valueMisfit(p Property, v any) string {
	if !fitsType(p, v) {
		return fmt.Sprintf("is %s, not of type %s", jsonText(v), p.Type)
	}
	if p.Enum != nil {
		for _, e := range p.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				return ""
			}
		}
		return fmt.Sprintf("is %s, not one of its enum", jsonText(v))
	}
	n, ok := v.(fmt.Stringer)
	if !ok {
		return ""
	}
	r, ok := new(big.Rat).SetString(n.String())
	if !ok {
		return ""
	}
	if lo, ok := new(big.Rat).SetString(p.Minimum); ok && p.Minimum != "" && r.Cmp(lo) < 0 {
		return fmt.Sprintf("is %s, below its minimum %s", n, p.Minimum)
	}
	if hi, ok := new(big.Rat).SetString(p.Maximum); ok && p.Maximum != "" && r.Cmp(hi) > 0 {
		return fmt.Sprintf("is %s, above its maximum %s", n, p.Maximum)
	}
	return ""
}

// pinStep is the stub answer that makes a run take a step (sim.Definition.Pin): a
// step's ok or fail; an ai step's ok carries the witness context, which the branches
// after it read. A branch decides itself.
func pinStep(nodes map[string]sim.Node) func(sim.Edge, map[string]any) (sim.Pin, bool) {
	return func(st sim.Edge, ctx map[string]any) (sim.Pin, bool) {
		switch {
		case st.Outcome == "ok" && sim.Accepts(nodes, st.Node, "ok"):
			p := sim.OKPin(st.Node, ctx)
			if !p.Moved && nodes[st.Node].Kind == "ai step" && len(ctx) > 0 {
				p.Answer.Output = maps.Clone(ctx)
			}
			return p, true
		case st.Outcome == "fail" && sim.Accepts(nodes, st.Node, "fail"):
			return sim.FailPin(st.Node, "simulated failure"), true
		}
		return sim.Pin{}, false
	}
}
