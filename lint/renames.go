package lint

import (
	"fmt"
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/source"
)

// parseRenames reads renames: (SPEC §17), the renames dws diff pairs by, never guessed:
//
//	renames:
//	  - { from: "cortex:expense", to: "cortex:expense-claims" }                # a unit
//	  - { unit: "cortex:expense-claims", from: fraud-score, to: risk-score }   # a node of it
//
// A unit is named by its id without version (kind:name), a node's unit by its NEW id.
// A name renamed twice, or two names renamed to one, is an error.
func parseRenames(c *configParse, _ string, v *source.Node) error {
	if v.Kind != source.Array {
		return ConfigErrorAt(v, "renames: want a list of {from, to} entries (and unit, for a node)")
	}
	seenFrom, seenTo := map[string]bool{}, map[string]bool{}
	for _, e := range v.Items {
		if e.Kind != source.Object {
			return ConfigErrorAt(e, "renames: each entry is a mapping {from, to} or {unit, from, to}")
		}
		var r change.Rename
		for _, m := range e.Members {
			s, ok := m.Value.Str()
			if !ok || strings.TrimSpace(s) == "" {
				return ConfigErrorAt(m.Value, "renames.%s: want a non-empty string", m.Key)
			}
			switch m.Key {
			case "unit":
				r.Unit = s
			case "from":
				r.From = s
			case "to":
				r.To = s
			default:
				return &ConfigError{Line: int(m.KeySpan.Start.Line), Column: int(m.KeySpan.Start.Col), Msg: fmt.Sprintf("renames: unknown key %q (want unit, from, to)", m.Key)}
			}
		}
		if r.From == "" || r.To == "" {
			return ConfigErrorAt(e, "renames: an entry needs from and to")
		}
		if r.Unit == "" {
			for _, id := range []string{r.From, r.To} {
				if kind, name, ok := strings.Cut(id, ":"); !ok || kind == "" || name == "" || strings.Contains(id, "@") {
					return ConfigErrorAt(e, "renames: %q is not a unit id (kind:name, without @version; a node rename names its unit)", id)
				}
			}
		}
		from, to := r.Unit+"\x00"+r.From, r.Unit+"\x00"+r.To
		if seenFrom[from] {
			return ConfigErrorAt(e, "renames: %s is renamed twice", r.From)
		}
		if seenTo[to] {
			return ConfigErrorAt(e, "renames: two names are renamed to %s", r.To)
		}
		seenFrom[from], seenTo[to] = true, true
		c.cfg.Renames = append(c.cfg.Renames, r)
	}
	return nil
}
