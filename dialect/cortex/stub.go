package cortex

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// A simulated ai step answers ok with an output drawn from its output schema in the
// prompt-template registry. When the schema admits no output at all (a property whose
// minimum is above its maximum, an empty enum), no stub can answer ok: sim-stub-output.

// checkStubOutputs reports the ai steps some run reaches whose output schema no output
// can satisfy.
func checkStubOutputs(p *lint.Pass, steps []step, r *sim.Result) {
	reg := settingsOf(p.Config).Registry
	if reg == nil {
		return
	}
	reached := map[string]bool{}
	for _, e := range r.Edges {
		if e.Coverable || e.Why != "no run reaches it" {
			reached[e.Node] = true
		}
	}
	for _, s := range steps {
		if s.typ != "ai" || s.params == nil || !reached[s.id] {
			continue
		}
		name, ok := s.params.Get("schema").Str()
		if !ok {
			continue
		}
		for _, prop := range reg.Properties[name] {
			if why := unsatisfiable(prop); why != "" && prop.Required {
				p.Report("sim-stub-output", s.ptr+"/params/schema", fmt.Sprintf(
					"no output of ai step %q can fit schema %q: %s %s", s.id, name, prop.Name, why))
			}
		}
	}
}

// unsatisfiable says why no value meets a property's constraints, "" when one does.
func unsatisfiable(p Property) string {
	if p.Enum != nil {
		if len(p.Enum) == 0 {
			return "has an empty enum"
		}
		if !slices.ContainsFunc(p.Enum, func(v any) bool { return fitsType(p, v) }) {
			return "allows only values that are not of its type " + p.Type
		}
		return ""
	}
	lo, hasLo := new(big.Rat).SetString(p.Minimum)
	hi, hasHi := new(big.Rat).SetString(p.Maximum)
	if p.Minimum == "" || p.Maximum == "" || !hasLo || !hasHi {
		return ""
	}
	if lo.Cmp(hi) > 0 {
		return fmt.Sprintf("has minimum %s above maximum %s", p.Minimum, p.Maximum)
	}
	if p.Type == "integer" {
		// The smallest integer at or above the minimum must not pass the maximum.
		n := new(big.Int).Quo(lo.Num(), lo.Denom())
		if new(big.Rat).SetInt(n).Cmp(lo) < 0 {
			n.Add(n, big.NewInt(1))
		}
		if new(big.Rat).SetInt(n).Cmp(hi) > 0 {
			return fmt.Sprintf("is an integer, and none lies between %s and %s", p.Minimum, p.Maximum)
		}
	}
	return ""
}

func fitsType(p Property, v any) bool {
	switch p.Type {
	case "":
		return true
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number", "integer":
		n, ok := v.(interface{ String() string })
		if !ok {
			return false
		}
		r, ok := new(big.Rat).SetString(n.String())
		return ok && (p.Type == "number" || r.IsInt())
	}
	return true
}
