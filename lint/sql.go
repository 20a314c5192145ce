package lint

import (
	"errors"
	"strings"

	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlcheck"
)

// The SQL stage (SPEC §3 stage 7): package sqlcheck's rules and sql: section, which a
// registry holds when one of its dialects has SQL sites, run on the files of those
// dialects.

// sqlRuleIDs are the SQL rules' ids.
var sqlRuleIDs = func() []string {
	ids := make([]string, len(sqlcheck.Rules))
	for i, r := range sqlcheck.Rules {
		ids[i] = r.ID
	}
	return ids
}()

// sqlRules are the SQL rules as a registry of dialects holds them: none when no dialect
// has SQL sites; else errors by default, belonging to the dialects with sites, and
// documented with the examples of the first that writes them.
func sqlRules(dialects []*Dialect) []Rule {
	var ids []string
	var example func(sqlcheck.Example) Example
	for _, d := range dialects {
		if d.SQLSites != nil {
			ids = append(ids, d.ID)
			if example == nil {
				example = d.SQLExample
			}
		}
	}
	if ids == nil {
		return nil
	}
	rules := make([]Rule, len(sqlcheck.Rules))
	for i, sr := range sqlcheck.Rules {
		r := Rule{ID: sr.ID, Severity: Error, Dialect: strings.Join(ids, ","), Summary: sr.Summary, Doc: sr.Doc}
		if sr.Security {
			r.Inline = InlineIfConfigured
		}
		if example != nil {
			r.Fail, r.Pass = example(sr.Fail), example(sr.Pass)
			r.Fail.Config = sqlcheck.ExampleConfig + r.Fail.Config
			r.Pass.Config = sqlcheck.ExampleConfig + r.Pass.Config
		}
		rules[i] = r
	}
	return rules
}

// parseSQLSection parses the sql: section; its from_ddl is read by its Load
// (SectionLoader).
func parseSQLSection(n *source.Node, dir string) (any, error) {
	s, err := sqlcheck.Parse(n, dir)
	if err != nil {
		return nil, sqlConfigError(err)
	}
	return s, nil
}

// sqlConfigError is a sql: section's error (a *sqlcheck.ConfigError) as a *ConfigError.
func sqlConfigError(err error) error {
	if ce := (*sqlcheck.ConfigError)(nil); errors.As(err, &ce) {
		return &ConfigError{Line: int(ce.Pos.Line), Column: int(ce.Pos.Col), Msg: ce.Msg}
	}
	return err
}

// checkSQL is the SQL stage on one file: the sites its dialect lists, under the sql:
// section.
func checkSQL(p *Pass, sites []sqlcheck.Site) {
	f := p.File
	s, _ := f.Config.Section(sqlcheck.Section).(*sqlcheck.Settings)
	opts := sqlcheck.Options{Settings: s, Remember: f.Config.Interactive, Each: f.Limiter.Each}
	for _, fd := range sqlcheck.Check(f.Doc, sites, opts) {
		f.ReportAt(fd.Rule, fd.Pointer, fd.Span, fd.Message)
	}
}
