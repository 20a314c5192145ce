package cortex

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/pgeval"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Branches in simulation (SPEC §8.4). Each branch expression is evaluated by pgeval,
// with PostgreSQL's semantics. A variable that an ai step certainly wrote before the
// branch takes its values from the output schemas that may have written it last in the
// prompt-template registry (type, minimum, maximum, enum; origins.go); every other
// variable comes from the starting context (--context), or is free: any JSON value.
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
		out[s.id] = &branch{expr: e, node: n, ptr: s.sitePtr, unsup: e.Unsupported()}
	}
	return out
}

// judgeBranches finds constant branches, erroring and unsupported expressions, and
// marks the dead outcomes in the machine. Each search is bounded on its own; the time
// bound (opts.Ctx) stops them all.
func judgeBranches(p *lint.Pass, m *machine, bs map[string]*branch, opts sim.Options, f *flow, search *pgeval.Searcher) error {
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
		fixed, dom := f.atStep(i, b.expr)
		for _, want := range []bool{true, false} {
			_, found, proven := search.Witness([]pgeval.Condition{{Expr: b.expr, Want: want}}, fixed, dom)
			if found || !proven {
				continue
			}
			never, outcome := "true", "true"
			if !want {
				never, outcome = "false (or NULL)", "false"
			}
			why := fmt.Sprintf("no context makes %q %s: every region of its constants was tried", b.expr.Source(), never)
			if len(dom) > 0 {
				why = fmt.Sprintf("no context makes %q %s: every region of its constants was tried, within the output schemas of the ai steps before it", b.expr.Source(), never)
			}
			m.dead[i] = deadOutcome{outcome: outcome, why: why}
			given := "for any context"
			if len(opts.Context) > 0 {
				given = "with the starting context (--context)"
			}
			p.Report("sim-constant-branch", b.ptr, fmt.Sprintf(
				"branch %q is never %s %s: its %s edge is dead", id, never, given, outcome))
			break
		}
		if opts.EdgesOnly {
			continue
		}
		if ctx, err, found := search.ErrorWitness(b.expr, dom); found {
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
func witnesses(r *sim.Result, bs map[string]*branch, opts sim.Options, f *flow, search *pgeval.Searcher) error {
	for k := range r.Cover {
		if err := sim.Stopped(opts.Ctx); err != nil {
			return err
		}
		p := &r.Cover[k]
		conds, fixed, dom, renamed := f.pathConditions(p, bs)
		if len(conds) == 0 {
			continue
		}
		ctx, found, proven := search.Witness(conds, fixed, dom)
		if found && len(renamed) > 0 {
			if why := changed(ctx, renamed); why != "" {
				if ctx = unchanged(search, conds, fixed, dom, renamed); ctx == nil {
					p.Note = "a context takes this path only when " + why
					continue
				}
			}
		}
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

// changed drops from a witness the variables renamed for the values an ai step gave
// them on the way (name#k, see flow.pathConditions) where they equal the value read
// before; when one differs it says which step changed what, as a witness cannot: a
// context holds one value per variable, and an emitted scenario's ai stubs answer it.
func changed(ctx map[string]any, renamed map[string]string) string {
	text := func(x any, ok bool) string {
		if !ok {
			return "absent"
		}
		return jsonText(x)
	}
	var why []string
	for _, name := range slices.Sorted(maps.Keys(renamed)) {
		v, _, _ := strings.Cut(name, "#")
		x, has := ctx[name]
		y, had := ctx[v]
		if text(x, has) == text(y, had) && reflect.TypeOf(x) == reflect.TypeOf(y) {
			delete(ctx, name)
			continue
		}
		why = append(why, fmt.Sprintf("ai step %q changes %s from %s to %s", renamed[name], v, text(y, had), text(x, has)))
	}
	return strings.Join(why, ", and ")
}

// unchanged looks for a witness in which every variable keeps one value along the path
// (each ai step that writes it answers the same): it must lie in the domain of each
// value it takes. nil when none is found.
func unchanged(search *pgeval.Searcher, conds []pgeval.Condition, fixed map[string]any, dom map[string]pgeval.Domain, renamed map[string]string) map[string]any {
	base := func(name string) string {
		v, _, _ := strings.Cut(name, "#")
		return v
	}
	one := make([]pgeval.Condition, len(conds))
	for i, c := range conds {
		one[i] = pgeval.Condition{Expr: c.Expr.Renamed(base), Want: c.Want}
	}
	fixed1, dom1 := map[string]any{}, map[string]pgeval.Domain{}
	for k, v := range fixed {
		if _, r := renamed[k]; !r {
			fixed1[k] = v
		}
	}
	for k, d := range dom {
		if _, r := renamed[k]; !r {
			dom1[k] = d
		}
	}
	ctx, found, _ := search.Witness(one, fixed1, dom1)
	if !found {
		return nil
	}
	for name := range renamed {
		if d, ok := dom[name]; ok && !d.Admits(ctx[base(name)]) {
			return nil
		}
	}
	return ctx
}
