package sqlcheck

import (
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlallow"
)

// Site is one piece of SQL a document holds in a string: a statement, or a boolean
// expression (checked as SELECT (<expression>)). A dialect lists its documents' sites;
// what a site means at run time is the dialect's.
type Site struct {
	// Text is the string node that holds the SQL. Findings are placed on its own
	// characters, so they land inside the JSON or YAML string; a site whose Text is not
	// a string is skipped.
	Text *source.Node
	// Pointer is the JSON Pointer findings on the site are reported at: Text's.
	Pointer string
	// Args is how many positional parameters ($1, $2, …) a statement is given at run
	// time; -1 when unknown, which leaves sql-args unchecked. Expressions take none.
	Args int
	// Expression marks a boolean expression rather than a statement.
	Expression bool
}

// Finding is one rule's finding on a site.
type Finding struct {
	Rule    string
	Pointer string
	Span    source.Span
	Message string
}

// Options are what a run gives Check besides the sites.
type Options struct {
	// Settings is the sql: section; nil when none is configured, and then nothing is
	// allowed: the allow-list fails closed.
	Settings *Settings
	// Remember keeps each result for later runs under the same settings (dws lsp, which
	// checks the same files again and again).
	Remember bool
	// Each calls fn(0)…fn(n-1), as many at once as the run allows, borrowing a goroutine
	// per grain items; nil calls them in order.
	Each func(n, grain int, fn func(i int))
}

// Check checks every site of doc through PostgreSQL's parser and the allow-list, and
// returns the findings in the order of the sites. Findings are placed on the exact
// characters inside the JSON or YAML string.
func Check(doc *source.Document, sites []Site, o Options) []Finding {
	var policy *sqlallow.Policy
	var memo *sqlallow.Memo
	var prepared *sqlallow.Prepared
	if s := o.Settings; s != nil {
		policy, prepared = &s.policy, s.prepared
		if o.Remember {
			memo = &s.memo
		}
	} else {
		p := sqlallow.DefaultPolicy()
		policy, prepared = &p, sqlallow.Prepare(&p).FindingsOnly()
	}
	type job struct {
		*Site
		res sqlallow.Result
	}
	jobs := make([]job, 0, len(sites))
	for i := range sites {
		if s := &sites[i]; s.Text != nil && s.Text.Kind == source.String {
			jobs = append(jobs, job{Site: s})
		}
	}
	// Parsing dominates a large definition (a 3,000-step file holds ~1,000 statements):
	// each distinct statement is checked once, on every CPU (pg_query is safe from many
	// goroutines), and results are reported in site order.
	// first[i] is the job whose result job i shares: the first with its text, argument
	// count and kind. A definition holds a handful of texts, so they are compared
	// rather than hashed; a large one's are hashed.
	first := make([]int, len(jobs))
	var unique []int
	same := func(a, b *job) bool {
		return a.Text.Text == b.Text.Text && a.Args == b.Args && a.Expression == b.Expression
	}
	if len(jobs) <= 32 {
		for i := range jobs {
			first[i] = i
			for _, u := range unique {
				if same(&jobs[u], &jobs[i]) {
					first[i] = u
					break
				}
			}
			if first[i] == i {
				unique = append(unique, i)
			}
		}
	} else {
		type key struct {
			text string
			args int
			expr bool
		}
		seen := make(map[key]int, len(jobs))
		for i, j := range jobs {
			k := key{j.Text.Text, j.Args, j.Expression}
			u, ok := seen[k]
			if !ok {
				u = i
				seen[k] = i
				unique = append(unique, i)
			}
			first[i] = u
		}
	}
	each := o.Each
	if each == nil {
		each = func(n, _ int, fn func(i int)) {
			for i := range n {
				fn(i)
			}
		}
	}
	each(len(unique), 16, func(i int) {
		j := &jobs[unique[i]]
		switch {
		case memo != nil && j.Expression:
			j.res = memo.Expression(j.Text.Text, policy)
		case memo != nil:
			j.res = memo.Statement(j.Text.Text, j.Args, policy)
		case j.Expression:
			j.res = prepared.Expression(j.Text.Text)
		default:
			j.res = prepared.Statement(j.Text.Text, j.Args)
		}
	})
	var out []Finding
	for i := range jobs {
		j := &jobs[i]
		j.res = jobs[first[i]].res
		for _, fd := range j.res.Findings {
			msg := fd.Message
			if fd.Kind == sqlallow.Table && o.Settings == nil {
				msg += " (no sql: section is configured, so nothing is allowed)"
			}
			end := min(fd.Offset+max(fd.Length, 1), len(j.Text.Text))
			span := source.Span{Start: doc.StringPos(j.Text, fd.Offset), End: doc.StringPos(j.Text, end)}
			out = append(out, Finding{Rule: ruleOf[fd.Kind], Pointer: j.Pointer, Span: span, Message: msg})
		}
	}
	return out
}

// ruleOf is the rule that reports each kind of allow-list finding.
var ruleOf = map[sqlallow.Kind]string{
	sqlallow.Syntax:           "sql-syntax",
	sqlallow.Statement:        "sql-statement",
	sqlallow.Table:            "sql-table",
	sqlallow.Column:           "sql-column",
	sqlallow.Function:         "sql-function",
	sqlallow.Nondeterministic: "sql-nondeterministic",
	sqlallow.Args:             "sql-args",
	sqlallow.Expression:       "branch-expression",
}
