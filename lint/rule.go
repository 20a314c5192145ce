package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/sqlcheck"
)

// Rule is one check: a stable id, its default severity and the documentation that
// `dws rules` and `dws explain` print and the test suite runs.
type Rule struct {
	ID       string
	Severity Severity
	// Dialect is the dialect the rule belongs to; empty for rules of every dialect.
	Dialect string
	Summary string
	// Doc is the explanation: why the rule exists and what to do about a finding.
	Doc string
	// Fail and Pass are its examples; a core rule's are the dialects' (Dialect.Examples).
	Fail Example
	Pass Example
	// Inline says whether an inline dws:ignore comment may suppress the rule.
	Inline InlinePolicy
	// Sim marks a rule that dws simulate reports (its examples are simulated).
	Sim bool
	// Diff marks a rule that dws diff reports (the version rules): its examples are
	// the NEW file, compared with the OLD one their Files hold as "old/" + Name.
	Diff bool
	// Check finds the rule's problems in one file of its dialect, and runs wherever the
	// rule is not turned off. It is nil for a rule that a stage reports (read, parse,
	// schema, the graph rules) or that a dialect's Check or Bundle reports.
	Check func(p *Pass)
}

// InlinePolicy says whether a file may waive a rule's finding in itself, with an inline
// dws:ignore comment. .dws.yaml's ignore entries and the baseline may always.
type InlinePolicy uint8

const (
	// InlineAllowed means any inline ignore with a reason suppresses the rule.
	InlineAllowed InlinePolicy = iota
	// InlineIfConfigured is for a rule that guards security (the SQL allow-list); an inline
	// ignore suppresses it only when .dws.yaml says inline_security_waivers: true.
	InlineIfConfigured
	// InlineNever is for a rule that guards integrity (the lockfile); a file can never
	// waive it in itself.
	InlineNever
)

// Example is a file the rule's documentation shows. Fail examples must produce the
// rule; Pass examples must produce no finding at all.
type Example struct {
	// Name is the file name, whose extension selects JSON or YAML.
	Name string
	Text string
	// Config is an optional .dws.yaml the example is validated with.
	Config string
	// Files are other files the example needs beside it (a prompt-template registry, a
	// lockfile), by name.
	Files map[string]string
	// Missing makes the example a path that does not exist (for the read rule).
	Missing bool
}

// Registry is the one list of what a dws binary knows: its dialects and every rule,
// core rules and the dialects' own.
type Registry struct {
	rules    []Rule
	byID     map[string]int
	dialects []*Dialect
	// sections maps a config section to its owner and parser.
	sections map[string]section
}

// section is a top-level section of .dws.yaml that a dialect (or the SQL stage) owns.
type section struct {
	owner string
	parse SectionParser
}

// NewRegistry builds the registry of the core rules and the given dialects, which
// keep their order (the order of detection). A rule id registered twice, a check
// naming a rule that is not registered, or a config section claimed twice (or named
// like a core key) is a programming error and panics at start-up.
func NewRegistry(dialects ...*Dialect) *Registry {
	r := &Registry{byID: map[string]int{}, dialects: dialects, sections: map[string]section{}}
	all := slices.Clone(coreRules)
	for i := range all {
		for _, d := range dialects {
			if ex, ok := d.Examples[all[i].ID]; ok && all[i].Fail.Name == "" && all[i].Pass.Name == "" {
				all[i].Fail, all[i].Pass = ex.Fail, ex.Pass
			}
		}
	}
	if sql := sqlRules(dialects); sql != nil {
		all = append(all, sql...)
		r.sections[sqlcheck.Section] = section{"the SQL stage", parseSQLSection}
	}
	for _, d := range dialects {
		for _, rule := range d.Rules {
			rl := *rule
			if rl.Dialect == "" {
				rl.Dialect = d.ID
			}
			all = append(all, rl)
		}
		for name, parse := range d.Config {
			if coreKeys[name] {
				panic(fmt.Sprintf("lint: dialect %s claims the core config key %q", d.ID, name))
			}
			if other, dup := r.sections[name]; dup {
				panic(fmt.Sprintf("lint: config section %q claimed by both %s and %s", name, other.owner, d.ID))
			}
			r.sections[name] = section{d.ID, parse}
		}
	}
	for _, rule := range all {
		if _, dup := r.byID[rule.ID]; dup {
			panic(fmt.Sprintf("lint: rule %q registered twice", rule.ID))
		}
		r.byID[rule.ID] = len(r.rules)
		r.rules = append(r.rules, rule)
	}
	for _, d := range dialects {
		for _, c := range d.Checks {
			for _, id := range c.Rules {
				if _, ok := r.byID[id]; !ok {
					panic(fmt.Sprintf("lint: dialect %s has a check of rule %q, which is not registered", d.ID, id))
				}
			}
		}
	}
	slices.SortFunc(r.rules, func(a, b Rule) int {
		if c := strings.Compare(a.Dialect, b.Dialect); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for i, rule := range r.rules {
		r.byID[rule.ID] = i
	}
	return r
}

// Rules lists every rule, core rules first, then by dialect and id.
func (r *Registry) Rules() []Rule { return r.rules }

// Unknown describes an id that names no rule: the nearest rule id when it looks like a
// slip of one, and where the list is.
func (r *Registry) Unknown(id string) string {
	ids := make([]string, len(r.rules))
	for i, rule := range r.rules {
		ids[i] = rule.ID
	}
	if near, ok := suggest.Nearest(id, ids); ok {
		return fmt.Sprintf("did you mean %q? dws rules lists them", near)
	}
	return "dws rules lists them"
}

// Lookup finds a rule by id.
func (r *Registry) Lookup(id string) (Rule, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Rule{}, false
	}
	return r.rules[i], true
}

// Dialects lists the dialects in detection order.
func (r *Registry) Dialects() []*Dialect { return r.dialects }

// Dialect finds a dialect by id.
func (r *Registry) Dialect(id string) (*Dialect, bool) {
	for _, d := range r.dialects {
		if d.ID == id {
			return d, true
		}
	}
	return nil, false
}

// DialectIDs lists the dialect ids in detection order.
func (r *Registry) DialectIDs() []string {
	ids := make([]string, len(r.dialects))
	for i, d := range r.dialects {
		ids[i] = d.ID
	}
	return ids
}
