package sqlallow

import (
	"errors"
	"fmt"
	"sort"

	pg "github.com/pganalyze/pg_query_go/v5"
	pgparser "github.com/pganalyze/pg_query_go/v5/parser"
)

// Schema is the set of tables a DDL script creates, with their columns in
// order. Relations are keyed schema.name; an unqualified table is keyed in
// public here, and a Policy places it in the first schema of its SearchPath, as
// running the script with that search_path would.
type Schema struct {
	Tables map[string][]string
	bare   map[string]bool // keys of Tables the script does not qualify
}

// FromDDL reads CREATE TABLE (including INHERITS and PARTITION OF) and
// ALTER TABLE … ADD/DROP COLUMN statements; other statements are ignored.
// A syntax error is returned as a *SyntaxError with its byte offset.
func FromDDL(ddl string) (*Schema, error) {
	tree, err := pg.Parse(ddl)
	if err != nil {
		return nil, syntaxError(ddl, err)
	}
	s := &Schema{Tables: map[string][]string{}, bare: map[string]bool{}}
	key := func(rv *pg.RangeVar) string {
		schema := rv.Schemaname
		if schema == "" {
			schema = "public"
		}
		return schema + "." + rv.Relname
	}
	for _, raw := range tree.Stmts {
		switch st := raw.Stmt.Node.(type) {
		case *pg.Node_CreateStmt:
			cs := st.CreateStmt
			var cols []string
			for _, inh := range cs.InhRelations {
				if rv := inh.GetRangeVar(); rv != nil {
					cols = appendNew(cols, s.Tables[key(rv)]...)
				}
			}
			for _, e := range cs.TableElts {
				if cd := e.GetColumnDef(); cd != nil {
					cols = appendNew(cols, cd.Colname)
				}
				// LIKE copies the source table's columns, in place.
				if like := e.GetTableLikeClause(); like != nil && like.Relation != nil {
					cols = appendNew(cols, s.Tables[key(like.Relation)]...)
				}
			}
			k := key(cs.Relation)
			s.Tables[k] = cols
			s.bare[k] = cs.Relation.Schemaname == ""
		case *pg.Node_AlterTableStmt:
			k := key(st.AlterTableStmt.Relation)
			cols, ok := s.Tables[k]
			if !ok {
				continue
			}
			for _, c := range st.AlterTableStmt.Cmds {
				cmd := c.GetAlterTableCmd()
				if cmd == nil {
					continue
				}
				switch cmd.Subtype {
				case pg.AlterTableType_AT_AddColumn:
					if cd := cmd.Def.GetColumnDef(); cd != nil {
						cols = appendNew(cols, cd.Colname)
					}
				case pg.AlterTableType_AT_DropColumn:
					for i, n := range cols {
						if n == cmd.Name {
							cols = append(cols[:i:i], cols[i+1:]...)
							break
						}
					}
				}
			}
			s.Tables[k] = cols
		}
	}
	return s, nil
}

func appendNew(list []string, add ...string) []string {
outer:
	for _, a := range add {
		for _, l := range list {
			if l == a {
				continue outer
			}
		}
		list = append(list, a)
	}
	return list
}

func splitKey(k string) (schema, name string) {
	for i := 0; i < len(k); i++ {
		if k[i] == '.' {
			return k[:i], k[i+1:]
		}
	}
	return "", k
}

// SyntaxError is a parse error with the byte offset it points at.
type SyntaxError struct {
	Offset  int
	Message string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Message) }

func syntaxError(src string, err error) *SyntaxError {
	if pe := (*pgparser.Error)(nil); errors.As(err, &pe) {
		return &SyntaxError{Offset: charToByte(src, pe.Cursorpos-1), Message: pe.Message}
	}
	return &SyntaxError{Message: err.Error()}
}

// charToByte converts a 0-based character index, as the parser reports it,
// into a byte offset.
func charToByte(s string, ch int) int {
	if ch <= 0 {
		return 0
	}
	n := 0
	for i := range s {
		if n == ch {
			return i
		}
		n++
	}
	return len(s)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
