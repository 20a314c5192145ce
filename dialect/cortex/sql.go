package cortex

import (
	"bytes"
	"encoding/json"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlcheck"
)

// sqlSites are the SQL of a Cortex definition, for the core SQL stage: every sql step's
// statement, given as many arguments as its args lists, and every branch step's
// expression. An empty statement or expression is the schema's finding (minLength 1):
// it is one fact, reported once. Blanks, a lone ";" or only a comment pass the schema
// and are the SQL stage's.
func sqlSites(p *lint.Pass) []sqlcheck.Site {
	var sites []sqlcheck.Site
	for _, s := range stepsOf(p) {
		if s.params == nil {
			continue
		}
		switch s.typ {
		case "sql":
			if n := s.params.Get("statement"); n != nil && n.Kind == source.String && n.Text != "" {
				args := -1
				if a := s.params.Get("args"); a != nil && a.Kind == source.Array {
					args = len(a.Items)
				}
				sites = append(sites, sqlcheck.Site{Text: n, Pointer: s.sitePtr, Args: args})
			}
		case "branch":
			if n := s.params.Get("expression"); n != nil && n.Kind == source.String && n.Text != "" {
				sites = append(sites, sqlcheck.Site{Text: n, Pointer: s.sitePtr, Expression: true})
			}
		}
	}
	return sites
}

// sqlExample is a Cortex definition whose one step holds ex: a sql step given one
// argument, or a branch step.
func sqlExample(ex sqlcheck.Example) lint.Example {
	if ex.Expression {
		return lint.Example{Name: ex.Name + ".json", Text: `{
  "schemaVersion": "1.0", "name": "branch-example", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": ` + jsonString(ex.SQL) + ` } }
  ]
}
`}
	}
	return lint.Example{Name: ex.Name + ".json", Text: `{
  "schemaVersion": "1.0", "name": "sql-example", "version": "v1.0",
  "steps": [
    { "id": "update", "type": "sql", "params": { "statement": ` + jsonString(ex.SQL) + `, "args": ["approved"] } }
  ]
}
`}
}

// jsonString is s as a JSON string, as a reader would write it (no \u escapes of <, >, &).
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
