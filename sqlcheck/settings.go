package sqlcheck

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlallow"
)

// Section is the key of .dws.yaml that Parse reads.
const Section = "sql"

// ConfigDoc is the commented example of the sql: section that dws init writes.
const ConfigDoc = `# SQL allow-list for the SQL statements and expressions in definitions. Without a sql:
# section no table is allowed, and every table a statement reads or writes is an error.
# List tables with their columns ("*" for all), or let from_ddl allow each table of a
# CREATE TABLE script with exactly its columns (an allow entry for the same table wins). A
# function that is no PostgreSQL built-in may be called only when functions lists it, or
# when from_ddl creates it (its body is then checked like the statement).
# sql:
#   allow: { expense: [id, amount, status], expense_audit: ["*"] }
#   from_ddl: db/schema.sql
#   search_path: [public]
#   statements: [select, insert, update, delete]
#   functions: [audit.stamp]
#   deny_functions: [my_admin_fn]
`

// Settings is the sql: section of .dws.yaml: the allow-list policy.
type Settings struct {
	policy sqlallow.Policy
	// ddl is the from_ddl file ("" when none), at the value ddlAt in the config.
	ddl   string
	ddlAt *source.Node
	// memo remembers checks under policy for a run that asks for it (dws lsp).
	memo sqlallow.Memo
	// prepared is policy compiled once for the run's checks.
	prepared *sqlallow.Prepared
}

// NamedFiles is the DDL file the section reads: a result depends on its bytes.
func (s *Settings) NamedFiles() []string {
	if s.ddl == "" {
		return nil
	}
	return []string{s.ddl}
}

// ConfigError is a problem in the sql: section, at the position of the value (or key)
// at fault.
type ConfigError struct {
	Pos source.Pos
	Msg string
}

func (e *ConfigError) Error() string { return e.Msg }

func errorAt(n *source.Node, format string, args ...any) *ConfigError {
	return &ConfigError{Pos: n.Span.Start, Msg: fmt.Sprintf(format, args...)}
}

// Parse reads the sql: section n; dir is the config's directory, which the paths it names
// are relative to. Every error is a *ConfigError. The from_ddl file is read and parsed
// by Load, which must be called before the settings are used; the error Parse returns
// for a key after from_ddl is the DDL's, when it has one, as if read in order.
func Parse(n *source.Node, dir string) (*Settings, error) {
	s, err := parse(n, dir)
	if err != nil {
		if s != nil && s.ddl != "" {
			if lerr := s.Load(); lerr != nil {
				return nil, lerr
			}
		}
		return nil, err
	}
	return s, nil
}

// Load reads and parses the from_ddl file, and compiles the policy for the run's
// checks. Its error is a *ConfigError at the from_ddl value.
func (s *Settings) Load() error {
	if s.ddl != "" {
		schema, err := loadDDL(s.ddl, s.ddlAt.Text)
		if err != nil {
			return errorAt(s.ddlAt, "sql.from_ddl: %v", err)
		}
		s.policy.DDL = schema
	}
	s.prepared = sqlallow.Prepare(&s.policy).FindingsOnly()
	return nil
}

// parse is Parse without the loads; on an error it returns what it read before it.
func parse(n *source.Node, dir string) (*Settings, error) {
	if n.Kind != source.Object {
		return nil, errorAt(n, "sql: want a mapping {allow, search_path, statements, functions, deny_functions, from_ddl}")
	}
	bad := func(at *source.Node, format string, args ...any) error {
		return errorAt(at, "sql."+format, args...)
	}
	s := &Settings{policy: sqlallow.DefaultPolicy()}
	p := &s.policy
	for _, m := range n.Members {
		v := m.Value
		switch m.Key {
		case "allow":
			if v.Kind != source.Object {
				return s, bad(v, "allow: want a mapping of relation to columns (or \"*\")")
			}
			for _, rel := range v.Members {
				cols := rel.Value
				if rel.Key == "" {
					return s, &ConfigError{Pos: rel.KeySpan.Start, Msg: "sql.allow: an empty relation name"}
				}
				switch {
				case cols.Kind == source.String && cols.Text == "*":
					p.Allow[rel.Key] = []string{"*"}
				case cols.Kind == source.Array:
					list, err := scalars(cols)
					if err != nil {
						return s, bad(cols, "allow.%s: %v", rel.Key, err)
					}
					p.Allow[rel.Key] = list
				default:
					return s, bad(cols, "allow.%s: want a list of columns or \"*\"", rel.Key)
				}
			}
		case "search_path", "statements", "deny_functions", "functions":
			list, err := scalars(v)
			if err != nil {
				return s, bad(v, "%s: %v", m.Key, err)
			}
			switch m.Key {
			case "search_path":
				p.SearchPath = list
			case "statements":
				for i := range list {
					list[i] = strings.Join(strings.Fields(strings.ToLower(list[i])), " ")
					if !sqlallow.KnownKind(list[i]) {
						return s, bad(v, "statements: %q is not a statement kind (select, insert, update, delete, merge, select into, copy, …)", list[i])
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
				return s, bad(v, "from_ddl: want a file path")
			}
			s.ddl, s.ddlAt = configPath(dir, v.Text), v // read by Load
		default:
			return s, &ConfigError{Pos: m.KeySpan.Start,
				Msg: fmt.Sprintf("sql: unknown key %q (want allow, search_path, statements, functions, deny_functions, from_ddl)", m.Key)}
		}
	}
	// from_ddl allows what the DDL creates; sqlallow merges it with allow, whose entries win.
	return s, nil
}

// configPath resolves a path written in the config, relative to the config's directory
// (as lint.ConfigPath does for the core keys).
func configPath(dir, p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
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
		doc := &source.Document{Text: string(data)}
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
