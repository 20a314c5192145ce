package cortex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/dwsdev/dws/pgeval"
	"github.com/dwsdev/dws/sim"
)

// Where a branch's variables come from (SPEC §8.4, "A proof is a promise"). A variable
// is the starting context's, until an ai step that ends ok writes it: an ok output is
// merged into the context, and an ai step writes the top-level properties its output
// schema lists (a required one always, another one maybe). So at a step, a variable's
// value comes from the starting context, or from one of the schemas that may have
// written it last:
//   - only when an ai step that requires it in its schema certainly ran before the step
//     and ended ok (on every path to the step) is the starting context ruled out, and
//     the variable ranges over the schemas that may have written it last: the union of
//     their properties' types, bounds and enums;
//   - otherwise it is the starting context's: every JSON value, or the value --context
//     fixes, or, when a schema may have written it, that value or the schemas' values.
//
// For one path the ai steps that ran ok are known: a branch reads what the last of them
// that lists the variable wrote (or, for a property it does not require, what was there
// before). A variable written between two branches that read it is two variables for
// the path's witness search, one per value it had.

// origin is where a variable's value may come from at a step: the starting context, and
// the output schemas (bits, indexes into its writers) that may have written it last.
type origin struct {
	ctx     bool
	schemas uint64
}

func (o origin) or(p origin) origin { return origin{o.ctx || p.ctx, o.schemas | p.schemas} }

// maxWriters bounds the schemas tracked per variable; a variable with more writers is
// taken as the starting context's (every value), which no proof can wrongly narrow.
const maxWriters = 64

// flow is where each variable a branch reads comes from, at each step.
type flow struct {
	steps []step
	byID  map[string]int
	reg   *Registry
	fixed map[string]any
	vars  []string       // variables branches read that some schema lists
	index map[string]int // into vars
	// writers are, per variable, the properties of the schemas that write it.
	writers [][]Property
	names   [][]string // the schema of each writer
	// at holds each reached step's origins, indexed like vars; nil for a step no path
	// reaches.
	at [][]origin
}

// domains finds where each variable a branch reads comes from at every step: the
// starting context (fixed when --context gives it), or the ai steps' output schemas.
func domains(steps []step, reg *Registry, fixed map[string]any) *flow {
	f := &flow{steps: steps, byID: map[string]int{}, reg: reg, fixed: fixed, index: map[string]int{}}
	for i, s := range steps {
		if _, dup := f.byID[s.id]; s.hasID && !dup {
			f.byID[s.id] = i
		}
	}
	if reg == nil || len(steps) == 0 {
		return f
	}
	read := map[string]bool{}
	for _, s := range steps {
		if s.typ != "branch" || s.params == nil {
			continue
		}
		if text, ok := s.params.Get("expression").Str(); ok {
			for _, m := range placeholder().FindAllStringSubmatch(text, -1) {
				read[m[1]] = true
			}
		}
	}
	for _, s := range steps {
		for _, p := range f.schemaOf(s) {
			if !read[p.Name] {
				continue
			}
			i, ok := f.index[p.Name]
			if !ok {
				i = len(f.vars)
				f.index[p.Name] = i
				f.vars = append(f.vars, p.Name)
				f.writers = append(f.writers, nil)
				f.names = append(f.names, nil)
			}
			name, _ := s.params.Get("schema").Str()
			if !slices.Contains(f.names[i], name) && len(f.names[i]) < maxWriters {
				f.writers[i] = append(f.writers[i], p)
				f.names[i] = append(f.names[i], name)
			}
		}
	}
	if len(f.vars) == 0 {
		return f
	}
	f.propagate()
	return f
}

// schemaOf is the output schema's properties of an ai step; nil for other steps.
func (f *flow) schemaOf(s step) []Property {
	if s.typ != "ai" || s.params == nil || f.reg == nil {
		return nil
	}
	name, ok := s.params.Get("schema").Str()
	if !ok {
		return nil
	}
	return f.reg.Properties[name]
}

// after is what a step's outcome leaves: an ai step that ends ok writes its schema's
// properties.
func (f *flow) after(s step, ok bool, in []origin) []origin {
	props := f.schemaOf(s)
	if !ok || props == nil {
		return in
	}
	out := slices.Clone(in)
	name, _ := s.params.Get("schema").Str()
	for _, p := range props {
		i, tracked := f.index[p.Name]
		if !tracked {
			continue
		}
		w := slices.Index(f.names[i], name)
		if w < 0 {
			out[i] = origin{ctx: true} // beyond maxWriters: any value
			continue
		}
		bit := origin{schemas: 1 << w}
		if p.Required {
			out[i] = bit
		} else {
			out[i] = out[i].or(bit)
		}
	}
	return out
}

// propagate computes the origins at each reached step, in topological order (a
// definition that is simulated has no cycle; a step on one is left unreached, free).
func (f *flow) propagate() {
	n := len(f.steps)
	f.at = make([][]origin, n)
	succ := func(i int) []struct {
		j  int
		ok bool
	} {
		s := f.steps[i]
		var out []struct {
			j  int
			ok bool
		}
		for _, e := range []struct {
			edge
			ok bool
		}{{s.onSuccess, true}, {s.onFailure, false}} {
			if j, found := f.byID[e.target]; e.target != "" && found {
				out = append(out, struct {
					j  int
					ok bool
				}{j, e.ok})
			}
		}
		return out
	}
	// The steps the entry reaches, and how many edges lead into each.
	indeg := make([]int, n)
	reached := make([]bool, n)
	stack := []int{0}
	reached[0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range succ(i) {
			indeg[e.j]++
			if !reached[e.j] {
				reached[e.j] = true
				stack = append(stack, e.j)
			}
		}
	}
	start := make([]origin, len(f.vars))
	for i := range start {
		start[i] = origin{ctx: true}
	}
	in := make([][]origin, n)
	in[0] = start
	ready := []int{}
	if indeg[0] == 0 {
		ready = append(ready, 0)
	}
	for len(ready) > 0 {
		i := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		f.at[i] = in[i]
		s := f.steps[i]
		for _, e := range succ(i) {
			out := in[i]
			if s.typ == "ai" {
				out = f.after(s, e.ok, in[i])
			}
			if in[e.j] == nil {
				in[e.j] = slices.Clone(out)
			} else {
				for k := range out {
					in[e.j][k] = in[e.j][k].or(out[k])
				}
			}
			if indeg[e.j]--; indeg[e.j] == 0 {
				ready = append(ready, e.j)
			}
		}
	}
}

// domainOf is what a witness search takes for the variable tracked at index i, given
// where its value comes from: a fixed value (fixed), or a domain (restricted), or
// neither (any JSON value).
func (f *flow) domainOf(i int, o origin) (value any, fixed bool, d pgeval.Domain, restricted bool) {
	v := f.vars[i]
	given, isFixed := f.fixed[v]
	if o.schemas == 0 {
		return given, isFixed, d, false // the starting context's
	}
	if o.ctx && !isFixed {
		return nil, false, d, false // any value the run starts with, or a schema's
	}
	var union []pgeval.Domain
	for w, p := range f.writers[i] {
		if o.schemas&(1<<w) != 0 {
			union = append(union, propertyDomain(p))
		}
	}
	if o.ctx {
		union = append(union, pgeval.Domain{Enum: []any{given}, NotNull: given != nil})
	}
	if len(union) == 1 {
		return nil, false, union[0], true
	}
	return nil, false, pgeval.Domain{Union: union}, true
}

// searchAt is the fixed values and domains of a search over the given variables, given
// where each tracked one comes from.
func (f *flow) searchAt(vars []string, origins []origin) (map[string]any, map[string]pgeval.Domain) {
	fixed := maps.Clone(f.fixed)
	if fixed == nil {
		fixed = map[string]any{}
	}
	dom := map[string]pgeval.Domain{}
	for _, v := range vars {
		i, tracked := f.index[v]
		if !tracked || origins == nil {
			continue
		}
		value, isFixed, d, restricted := f.domainOf(i, origins[i])
		delete(fixed, v)
		if isFixed {
			fixed[v] = value
		}
		if restricted {
			dom[v] = d
		}
	}
	return fixed, dom
}

// propertyDomain is the values a schema property takes when the output holds it: of its
// type, or any JSON value, null included, when it has no scalar type ("null", "object",
// a list of types).
func propertyDomain(p Property) pgeval.Domain {
	switch p.Type {
	case "number", "integer", "string", "boolean":
		return pgeval.Domain{Type: p.Type, Min: p.Minimum, Max: p.Maximum, Enum: p.Enum, NotNull: true}
	}
	return pgeval.Domain{Enum: p.Enum}
}

// atStep is the search's fixed values and domains for the branch at step i, over every
// path to it.
func (f *flow) atStep(i int, e *pgeval.Expr) (map[string]any, map[string]pgeval.Domain) {
	var origins []origin
	if f.at != nil {
		origins = f.at[i]
	}
	return f.searchAt(e.Variables(), origins)
}

// pathConditions are the conditions a path's branches put on its starting context and
// ai outputs, with the fixed values and domains of their variables. A variable an ai
// step writes between two branches that read it is renamed for the later reads
// (name#k), as it holds another value there; renamed maps each new name to the
// variable and the step that wrote it.
func (f *flow) pathConditions(p *sim.Path, bs map[string]*branch) (conds []pgeval.Condition, fixed map[string]any, dom map[string]pgeval.Domain, renamed map[string]string) {
	cur := make([]origin, len(f.vars))
	for i := range cur {
		cur[i] = origin{ctx: true}
	}
	version := make([]int, len(f.vars)) // the path step that last wrote it, +1
	readAt := make([]int, len(f.vars))  // the version branches read so far, -1: none
	for i := range readAt {
		readAt[i] = -1
	}
	fixed, dom = map[string]any{}, map[string]pgeval.Domain{}
	renamed = map[string]string{}
	seen := map[string]bool{} // the names given a domain
	for k, st := range p.Steps {
		i, ok := f.byID[st.Node]
		if !ok {
			continue
		}
		s := f.steps[i]
		if b, isBranch := bs[st.Node]; isBranch && b.unsup == nil {
			e := b.expr
			rename := map[string]string{}
			for _, v := range e.Variables() {
				j, tracked := f.index[v]
				if !tracked {
					continue
				}
				if readAt[j] >= 0 && readAt[j] != version[j] {
					name := fmt.Sprintf("%s#%d", v, version[j])
					rename[v] = name
					renamed[name] = p.Steps[version[j]-1].Node
				}
				if readAt[j] < 0 {
					readAt[j] = version[j]
				}
				name := v
				if r, ok := rename[v]; ok {
					name = r
				}
				if !seen[name] {
					seen[name] = true
					value, isFixed, d, restricted := f.domainOf(j, cur[j])
					if isFixed {
						fixed[name] = value
					}
					if restricted {
						dom[name] = d
					}
				}
			}
			if len(rename) > 0 {
				e = e.Renamed(func(v string) string {
					if r, ok := rename[v]; ok {
						return r
					}
					return v
				})
			}
			conds = append(conds, pgeval.Condition{Expr: e, Want: st.Outcome == "true"})
		}
		if s.typ == "ai" && st.Outcome == "ok" {
			cur = f.after(s, true, cur)
			for _, prop := range f.schemaOf(s) {
				if j, tracked := f.index[prop.Name]; tracked {
					version[j] = k + 1 // a new value, or (not required) maybe the old one
				}
			}
		}
	}
	// The rest of the starting context, as the witness shows it.
	for k, v := range f.fixed {
		if !seen[k] {
			fixed[k] = v
		}
	}
	return conds, fixed, dom, renamed
}
