package sqlcheck

import (
	"slices"
	"testing"

	"github.com/dwsdev/dws/sqlallow"
)

// Every kind of allow-list finding is reported by one of the SQL rules, and every SQL
// rule reports a kind: the rules lint runs the stage for are exactly those it reports.
func TestKindsHaveRules(t *testing.T) {
	var mapped []string
	for k := sqlallow.Expression; k <= sqlallow.Table; k++ {
		id, ok := ruleOf[k]
		if !ok {
			t.Errorf("no rule reports %v findings", k)
			continue
		}
		mapped = append(mapped, id)
	}
	var declared []string
	for _, r := range Rules {
		declared = append(declared, r.ID)
		if r.Fail.Name == "" || r.Pass.Name == "" || r.Fail.SQL == "" || r.Pass.SQL == "" {
			t.Errorf("rule %s needs a failing and a passing example", r.ID)
		}
	}
	slices.Sort(mapped)
	slices.Sort(declared)
	if !slices.Equal(mapped, declared) {
		t.Errorf("the rules are %v but the stage reports %v", declared, mapped)
	}
}
