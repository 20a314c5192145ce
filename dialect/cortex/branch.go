package cortex

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/pgeval"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Branches in simulation (SPEC §8.4). Each branch expression is evaluated by pgeval,
// with PostgreSQL's semantics. A variable that an ai step outputs takes its values from
// that step's output schema in the prompt-template registry (type, minimum, maximum,
// enum); every other variable comes from the starting context (--context), or is free.
//   - A branch whose expression no context makes true (or none makes false, NULL or an
//     error) has a dead edge: sim-constant-branch, once per step, with the proof. Only a
//     search that tried every region of the expression's constants is a proof; a bounded
//     search that found nothing leaves the choice free.
//   - A context that makes the expression raise an error is sim-branch-error (the
//     branch then goes along onFailure, as false).
//   - An expression with a construct the evaluator does not support is sim-unsupported
//     at the construct; the choice stays free. Which constructs are supported is read
//     from the expression (pgeval's Expr.Unsupported), not from evaluating it once.
//   - Each covering path through branches gets a witness: one starting context under
//     which every branch on it goes the way the path goes, or a note that none exists
//     (proven) or that none was found (not a proof).

type branch struct {
	expr  *pgeval.Expr
	node  *source.Node // the expression string, for positions inside it
	ptr   string
	unsup *pgeval.Unsupported
}

// branches parses the branch expressions of the reachable steps.
func branches(steps []step) map[string]*branch {
	out := map[string]*branch{}
	for _, s := range steps {
		if s.typ != "branch" || s.params == nil || !s.hasID {
			continue
		}
		n := s.params.Get("expression")
		text, ok := n.Str()
		if !ok {
			continue
		}
		e, err := pgeval.Parse(text)
		if err != nil {
			continue // the sql stage has reported it; the choice stays free
		}
		// Whether the evaluator reads the expression is a property of its constructs,
		// never of one context's values (abs({{x}}) is read whatever x holds).
		out[s.id] = &branch{expr: e, node: n, ptr: s.ptr + "/params/expression", unsup: e.Unsupported()}
	}
	return out
}

// domains are the values each variable an ai step outputs can take, from its schema.
func domains(steps []step, reg *Registry, fixed map[string]any) map[string]pgeval.Domain {
	out := map[string]pgeval.Domain{}
	if reg == nil {
		return out
	}
	for _, s := range steps {
		if s.typ != "ai" || s.params == nil {
			continue
		}
		name, _ := s.params.Get("schema").Str()
		for _, p := range reg.Properties[name] {
			if _, given := fixed[p.Name]; given {
				continue
			}
			if _, seen := out[p.Name]; !seen {
				out[p.Name] = pgeval.Domain{Type: p.Type, Min: p.Minimum, Max: p.Maximum, Enum: p.Enum, NotNull: p.Required}
			}
		}
	}
	return out
}

// judgeBranches finds constant branches, erroring and unsupported expressions, and
// marks the dead outcomes in the machine. Each search is bounded on its own; the time
// bound (opts.Ctx) stops them all.
func judgeBranches(p *lint.Pass, m *machine, bs map[string]*branch, opts sim.Options, dom map[string]pgeval.Domain) error {
	fixed := opts.Context
	ids := slices.Sorted(maps.Keys(bs))
	for _, id := range ids {
		if err := sim.Stopped(opts.Ctx); err != nil {
			return err
		}
		b := bs[id]
		i := m.index[id]
		if b.unsup != nil {
			p.ReportAt("sim-unsupported", b.ptr, spanIn(p, b, b.unsup.Offset, 1),
				fmt.Sprintf("branch %q: %s, so the simulator treats the branch as free", id, b.unsup.Error()))
			continue
		}
		for _, want := range []bool{true, false} {
			_, found, proven := pgeval.Witness([]pgeval.Condition{{Expr: b.expr, Want: want}}, fixed, dom)
			if found || !proven {
				continue
			}
			never, outcome := "true", "true"
			if !want {
				never, outcome = "false (or NULL)", "false"
			}
			why := fmt.Sprintf("no context makes %q %s: every region of its constants was tried", b.expr.Source(), never)
			m.dead[i] = deadOutcome{outcome: outcome, why: why}
			given := "for any context"
			if len(fixed) > 0 {
				given = "with the starting context (--context)"
			}
			p.Report("sim-constant-branch", b.ptr, fmt.Sprintf(
				"branch %q is never %s %s: its %s edge is dead", id, never, given, outcome))
			break
		}
		if opts.EdgesOnly {
			continue
		}
		if ctx, err, found := pgeval.ErrorWitness(b.expr, dom); found {
			p.Report("sim-branch-error", b.ptr, fmt.Sprintf(
				"branch %q raises %q when %s; the run then goes along onFailure", id, err.Error(), describe(ctx)))
		}
	}
	return nil
}

// spanIn is the span of n bytes at offset off inside the expression string.
func spanIn(p *lint.Pass, b *branch, off, n int) source.Span {
	end := min(off+max(n, 1), len(b.node.Text))
	return source.Span{Start: p.Doc.StringPos(b.node, off), End: p.Doc.StringPos(b.node, end)}
}

// describe writes a context as "x is 0, y is absent".
func describe(ctx map[string]any) string {
	if len(ctx) == 0 {
		return "every variable is absent"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(ctx)) {
		parts = append(parts, fmt.Sprintf("%s is %v", k, jsonText(ctx[k])))
	}
	return strings.Join(parts, ", ")
}

func jsonText(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// witnesses gives each covering path through branches a starting context that takes it.
func witnesses(r *sim.Result, bs map[string]*branch, opts sim.Options, dom map[string]pgeval.Domain) error {
	fixed := opts.Context
	for k := range r.Cover {
		if err := sim.Stopped(opts.Ctx); err != nil {
			return err
		}
		p := &r.Cover[k]
		var conds []pgeval.Condition
		for _, st := range p.Steps {
			if b, ok := bs[st.Node]; ok && b.unsup == nil {
				conds = append(conds, pgeval.Condition{Expr: b.expr, Want: st.Outcome == "true"})
			}
		}
		if len(conds) == 0 {
			continue
		}
		ctx, found, proven := pgeval.Witness(conds, fixed, dom)
		switch {
		case found:
			// Variables an ai step outputs are part of the witness too: they are what
			// the stub answers.
			p.Context = ctx
			if p.Context == nil {
				p.Context = map[string]any{}
			}
		case proven:
			p.Note = "no single context takes this path: its branches contradict each other"
		default:
			p.Note = "no context found that takes this path (a bounded search, not a proof)"
		}
	}
	return nil
}
