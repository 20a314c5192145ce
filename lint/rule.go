package lint

import (
	"fmt"
	"slices"
	"strings"
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
	Doc  string
	Fail Example
	Pass Example
}

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

// Registry is the catalog of rules known to one dws binary.
type Registry struct {
	rules []Rule
	byID  map[string]int
}

// NewRegistry builds a registry of the core rules and the rules of the given dialects.
// A rule id registered twice is a programming error and panics at start-up.
func NewRegistry(dialects ...Dialect) *Registry {
	r := &Registry{byID: map[string]int{}}
	all := slices.Clone(coreRules)
	for _, d := range dialects {
		all = append(all, d.Rules()...)
	}
	for _, rule := range all {
		if _, dup := r.byID[rule.ID]; dup {
			panic(fmt.Sprintf("lint: rule %q registered twice", rule.ID))
		}
		r.byID[rule.ID] = len(r.rules)
		r.rules = append(r.rules, rule)
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

// Lookup finds a rule by id.
func (r *Registry) Lookup(id string) (Rule, bool) {
	i, ok := r.byID[id]
	if !ok {
		return Rule{}, false
	}
	return r.rules[i], true
}
