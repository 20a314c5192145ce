package cortex

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlallow"
)

// sqlSettings is the `sql:` section of .dws.yaml: the allow-list policy.
type sqlSettings struct {
	policy sqlallow.Policy
	// ddl is the from_ddl file ("" when none).
	ddl string
	// memo remembers checks under policy when the config is Interactive (dws lsp).
	memo sqlallow.Memo
	// prepared is policy compiled once for the run's checks.
	prepared *sqlallow.Prepared
}

// policyOf returns the configured policy and whether one is configured. Without one,
// nothing is allowed: the allow-list fails closed.
func policyOf(c *lint.Config) (*sqlallow.Policy, bool) {
	if c != nil {
		if s, ok := c.Section("sql").(*sqlSettings); ok {
			return &s.policy, true
		}
	}
	p := sqlallow.DefaultPolicy()
	return &p, false
}

func parseSQLSettings(n *source.Node, dir string) (any, error) {
	if n.Kind != source.Object {
		return nil, lint.ConfigErrorAt(n, "sql: want a mapping {allow, search_path, statements, functions, deny_functions, from_ddl}")
	}
	bad := func(at *source.Node, format string, args ...any) error {
		return lint.ConfigErrorAt(at, "sql."+format, args...)
	}
	p := sqlallow.DefaultPolicy()
	ddl := ""
	for _, m := range n.Members {
		v := m.Value
		switch m.Key {
		case "allow":
			if v.Kind != source.Object {
				return nil, bad(v, "allow: want a mapping of relation to columns (or \"*\")")
			}
			for _, rel := range v.Members {
				cols := rel.Value
				if rel.Key == "" {
					return nil, &lint.ConfigError{Line: rel.KeySpan.Start.Line, Column: rel.KeySpan.Start.Col, Msg: "sql.allow: an empty relation name"}
				}
				switch {
				case cols.Kind == source.String && cols.Text == "*":
					p.Allow[rel.Key] = []string{"*"}
				case cols.Kind == source.Array:
					list, err := scalars(cols)
					if err != nil {
						return nil, bad(cols, "allow.%s: %v", rel.Key, err)
					}
					p.Allow[rel.Key] = list
				default:
					return nil, bad(cols, "allow.%s: want a list of columns or \"*\"", rel.Key)
				}
			}
		case "search_path", "statements", "deny_functions", "functions":
			list, err := scalars(v)
			if err != nil {
				return nil, bad(v, "%s: %v", m.Key, err)
			}
			switch m.Key {
			case "search_path":
				p.SearchPath = list
			case "statements":
				for i := range list {
					list[i] = strings.Join(strings.Fields(strings.ToLower(list[i])), " ")
					if !sqlallow.KnownKind(list[i]) {
						return nil, bad(v, "statements: %q is not a statement kind (select, insert, update, delete, merge, select into, copy, …)", list[i])
					}
				}
				p.Statements = list
			case "functions":
				p.Functions = list
			default:
				p.DenyFunctions = list
			}
		case "from_ddl":
			if v.Kind != source.String || v.Text == "" {
				return nil, bad(v, "from_ddl: want a file path")
			}
			ddl = lint.ConfigPath(dir, v.Text)
			schema, err := loadDDL(ddl, v.Text)
			if err != nil {
				return nil, bad(v, "from_ddl: %v", err)
			}
			p.DDL = schema
		default:
			return nil, &lint.ConfigError{Line: m.KeySpan.Start.Line, Column: m.KeySpan.Start.Col,
				Msg: fmt.Sprintf("sql: unknown key %q (want allow, search_path, statements, functions, deny_functions, from_ddl)", m.Key)}
		}
	}
	// from_ddl allows what the DDL creates; sqlallow merges it with allow, whose entries win.
	return &sqlSettings{policy: p, ddl: ddl, prepared: sqlallow.Prepare(&p).FindingsOnly()}, nil
}

// NamedFiles is the DDL file the section reads: a result depends on its bytes.
func (s *sqlSettings) NamedFiles() []string {
	if s.ddl == "" {
		return nil
	}
	return []string{s.ddl}
}

func loadDDL(path, shown string) (*sqlallow.Schema, error) {
	data, err := source.ReadFile(path)
	if err != nil {
		var re *source.ReadError
		if errors.As(err, &re) {
			return nil, fmt.Errorf("reading %s: %s", shown, re.Problem)
		}
		return nil, fmt.Errorf("reading %s: %w", shown, err)
	}
	s, err := sqlallow.FromDDL(string(data))
	var se *sqlallow.SyntaxError
	if errors.As(err, &se) {
		doc := &source.Document{Text: data}
		pos := doc.PosAt(se.Offset)
		return nil, fmt.Errorf("%s:%d:%d: %s", shown, pos.Line, pos.Col, se.Message)
	}
	return s, err
}

func scalars(n *source.Node) ([]string, error) {
	if n.Kind != source.Array {
		return nil, errors.New("want a list")
	}
	out := make([]string, 0, len(n.Items))
	for _, c := range n.Items {
		if (c.Kind != source.String && c.Kind != source.Number) || c.Text == "" {
			return nil, errors.New("want a list of names")
		}
		out = append(out, c.Text)
	}
	return out, nil
}

// checkSQL is the sql stage: every sql step's statement and every branch step's
// expression through the PostgreSQL parser and the allow-list. Findings are placed on
// the exact characters inside the JSON or YAML string.
func checkSQL(f *lint.File, steps []step) {
	policy, configured := policyOf(f.Config)
	type job struct {
		node *source.Node
		ptr  string // the step's; the text is at ptr/params/statement or /expression
		args int    // len(args), -1 when unknown
		expr bool   // a branch expression rather than a statement
		res  sqlallow.Result
	}
	var jobs []job
	// An empty statement or expression is the schema's finding (minLength 1): it is one
	// fact, reported once. Blanks, a lone ";" or only a comment pass the schema and are
	// sql-statement or branch-expression findings.
	for _, s := range steps {
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
				jobs = append(jobs, job{node: n, ptr: s.ptr, args: args})
			}
		case "branch":
			if n := s.params.Get("expression"); n != nil && n.Kind == source.String && n.Text != "" {
				jobs = append(jobs, job{node: n, ptr: s.ptr, expr: true})
			}
		}
	}
	// Parsing dominates a large definition (a 3,000-step file holds ~1,000 statements):
	// each distinct statement is checked once, on every CPU (pg_query is safe from many
	// goroutines), and results are reported in step order.
	// first[i] is the job whose result job i shares: the first with its text, argument
	// count and kind. A definition holds a handful of texts, so they are compared
	// rather than hashed; a large one's are hashed.
	first := make([]int, len(jobs))
	var unique []int
	same := func(a, b *job) bool { return a.node.Text == b.node.Text && a.args == b.args && a.expr == b.expr }
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
			k := key{j.node.Text, j.args, j.expr}
			u, ok := seen[k]
			if !ok {
				u = i
				seen[k] = i
				unique = append(unique, i)
			}
			first[i] = u
		}
	}
	var memo *sqlallow.Memo
	var prepared *sqlallow.Prepared
	if s, ok := f.Config.Section("sql").(*sqlSettings); ok {
		if f.Config.Interactive {
			memo = &s.memo
		}
		prepared = s.prepared
	}
	if prepared == nil {
		prepared = sqlallow.Prepare(policy).FindingsOnly()
	}
	f.Limiter.Each(len(unique), 16, func(i int) {
		j := &jobs[unique[i]]
		switch {
		case memo != nil && j.expr:
			j.res = memo.Expression(j.node.Text, policy)
		case memo != nil:
			j.res = memo.Statement(j.node.Text, j.args, policy)
		case j.expr:
			j.res = prepared.Expression(j.node.Text)
		default:
			j.res = prepared.Statement(j.node.Text, j.args)
		}
	})
	for i := range jobs {
		j := &jobs[i]
		j.res = jobs[first[i]].res
		if len(j.res.Findings) == 0 {
			continue
		}
		ptr := j.ptr + "/params/statement"
		if j.expr {
			ptr = j.ptr + "/params/expression"
		}
		for _, fd := range j.res.Findings {
			rule := sqlRule[fd.Kind]
			msg := fd.Message
			if fd.Kind == sqlallow.Table && !configured {
				msg += " (no sql: section is configured, so nothing is allowed)"
			}
			end := min(fd.Offset+max(fd.Length, 1), len(j.node.Text))
			span := source.Span{Start: f.Doc.StringPos(j.node, fd.Offset), End: f.Doc.StringPos(j.node, end)}
			f.ReportAt(rule, ptr, span, msg)
		}
	}
}

// sqlRule is the rule that reports each kind of allow-list finding.
var sqlRule = map[sqlallow.Kind]string{
	sqlallow.Syntax:           "sql-syntax",
	sqlallow.Statement:        "sql-statement",
	sqlallow.Table:            "sql-table",
	sqlallow.Column:           "sql-column",
	sqlallow.Function:         "sql-function",
	sqlallow.Nondeterministic: "sql-nondeterministic",
	sqlallow.Args:             "sql-args",
	sqlallow.Expression:       "branch-expression",
}
