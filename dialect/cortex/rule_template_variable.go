package cortex

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

var templateVariable = lint.Rule{
	ID: "template-variable", Severity: lint.Warning, Dialect: ID,
	Summary: "a {{variable}} that is neither in the run context nor output by an ai step on every path before it",
	Doc: `Cortex fills {{name}} placeholders from the run context and from the outputs of earlier ai
steps. A name that is not in cortex.context and is not a top-level property of the output
schema of an ai step that succeeded on every path leading here is empty on some run. An ai
step's output only counts along its onSuccess edge. This rule runs only when cortex.context
is configured in .dws.yaml.`,
	Fail: lint.Example{Name: "approve.json", Config: "cortex: { context: [expenseId] }\n", Text: `{
  "schemaVersion": "1.0", "name": "approve", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": "{{amount}} <= 1000" } }
  ]
}
`},
	Pass: lint.Example{Name: "approve.json", Config: "cortex: { context: [expenseId, amount] }\n", Text: `{
  "schemaVersion": "1.0", "name": "approve", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": "{{amount}} <= 1000" } }
  ]
}
`},
	Check: func(p *lint.Pass) { checkTemplateVariables(p.File, stepsOf(p), settingsOf(p.Config)) },
}

var placeholder = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z0-9_.]*)?\s*\}\}`)
})

func validVariable(s string) bool {
	m := placeholder().FindStringSubmatch("{{" + s + "}}")
	return m != nil && m[1] == s
}

func checkTemplateVariables(f *lint.File, steps []step, set *Settings) {
	if set.Context == nil {
		return
	}
	avail := availableVariables(steps, set)
	for i, s := range steps {
		if s.params == nil || avail[i] == nil {
			continue // unreachable steps are reported by the graph stage
		}
		have := avail[i]
		eachString(s.params, s.ptr+"/params", func(n *source.Node, ptr string) {
			for _, m := range placeholder().FindAllStringSubmatchIndex(n.Text, -1) {
				name := n.Text[m[2]:m[3]]
				if have[name] {
					continue
				}
				span := source.Span{Start: f.Doc.StringPos(n, m[0]), End: f.Doc.StringPos(n, m[1])}
				f.ReportAt("template-variable", ptr, span, fmt.Sprintf(
					"{{%s}} is not in cortex.context, and no ai step outputs it on every path to step %q", name, s.id)+
					suggest.DidYouMean(name, slices.Sorted(maps.Keys(have))))
			}
		})
	}
}

// availableVariables computes, for each step, the variables set on every path from the
// entry to it: the context, plus the output properties of each ai step passed through
// its onSuccess edge. nil marks a step no path reaches. It iterates to a fixed point, so
// it also terminates on cyclic graphs (which the graph stage reports).
func availableVariables(steps []step, set *Settings) []map[string]bool {
	byID := map[string]int{}
	for i, s := range steps {
		if _, dup := byID[s.id]; s.hasID && !dup {
			byID[s.id] = i
		}
	}
	avail := make([]map[string]bool, len(steps))
	if len(steps) == 0 || !steps[0].hasID {
		return avail
	}
	start := map[string]bool{}
	for _, c := range set.Context {
		start[c] = true
	}
	avail[0] = start
	work := []int{0}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		s := steps[i]
		for _, e := range []struct {
			edge
			success bool
		}{{s.onSuccess, true}, {s.onFailure, false}} {
			j, ok := byID[e.target]
			if e.target == "" || !ok {
				continue
			}
			out := avail[i]
			if e.success && s.typ == "ai" {
				out = withOutputs(out, s, set)
			}
			if merged, changed := meet(avail[j], out); changed {
				avail[j] = merged
				work = append(work, j)
			}
		}
	}
	return avail
}

func withOutputs(in map[string]bool, s step, set *Settings) map[string]bool {
	if set.Registry == nil {
		return in
	}
	name, _ := s.params.Get("schema").Str()
	props := set.Registry.Schemas[name]
	if len(props) == 0 {
		return in
	}
	out := make(map[string]bool, len(in)+len(props))
	for k := range in {
		out[k] = true
	}
	for _, p := range props {
		out[p] = true
	}
	return out
}

// meet intersects have (nil = not reached yet) with in.
func meet(have, in map[string]bool) (map[string]bool, bool) {
	if have == nil {
		cp := make(map[string]bool, len(in))
		for k := range in {
			cp[k] = true
		}
		return cp, true
	}
	changed := false
	for k := range have {
		if !in[k] {
			delete(have, k)
			changed = true
		}
	}
	return have, changed
}

// eachString calls fn for every string value under n, in document order.
func eachString(n *source.Node, ptr string, fn func(*source.Node, string)) {
	switch n.Kind {
	case source.String:
		if strings.Contains(n.Text, "{{") {
			fn(n, ptr)
		}
	case source.Array:
		for i, it := range n.Items {
			eachString(it, fmt.Sprintf("%s/%d", ptr, i), fn)
		}
	case source.Object:
		for _, m := range n.Members {
			eachString(m.Value, source.AppendPointer(ptr, m.Key), fn)
		}
	}
}
