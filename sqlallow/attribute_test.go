package sqlallow

import (
	"fmt"
	"strings"
	"testing"
)

// TestAttributeCallsAgainstServer runs attribute-notation calls on the scratch
// server: (value).name really calls name(value), reading a table through ts_stat,
// a file through pg_read_file, a sequence through nextval. dws must report each;
// a real composite field selection runs on the server and passes dws with DDL.
func TestAttributeCallsAgainstServer(t *testing.T) {
	c := startCluster(t)
	setup := `
DROP TABLE IF EXISTS attr_secret, attr_person;
DROP TYPE IF EXISTS attr_address;
CREATE TABLE attr_secret (pw text);
INSERT INTO attr_secret VALUES ('hunter2');
CREATE TYPE attr_address AS (street text, city text);
CREATE TABLE attr_person (id int, addr attr_address);
INSERT INTO attr_person VALUES (1, ROW('Main St', 'Springfield'));`
	if _, stderr, err := c.psql("dws", setup); err != nil || strings.Contains(string(stderr), "ERROR") {
		t.Fatalf("%v %s", err, stderr)
	}
	ddl, err := FromDDL(`CREATE TYPE attr_address AS (street text, city text); CREATE TABLE attr_person (id int, addr attr_address);`)
	if err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.DDL = ddl

	cases := []struct {
		stmt   string
		server string // what the server answers (prefix), or "ERROR: " and the start of its error
		kind   Kind   // what dws reports; 0: nothing
	}{
		// A single name is a column before it is a FROM item's row: pw is the
		// column, and the subquery's pg_read_file field is not what is selected.
		{"SELECT (pw).upper FROM attr_secret, (SELECT 1 AS upper) pw", "HUNTER2", 0},
		{"SELECT (pw).pg_read_file FROM attr_secret, (SELECT 1 AS pg_read_file) pw", `ERROR: could not open file "hunter2"`, Function},
		{"SELECT ('x'::text).upper", "X", 0},
		{"SELECT (4::float8).sqrt", "2", 0},
		{"SELECT (('select to_tsvector(''simple'', pw) from attr_secret'::text).ts_stat).word", "hunter2", Function},
		{"SELECT ('PG_VERSION'::text).pg_read_file", "1", Function},
		{"SELECT (0.01::float8).pg_sleep", "", Function},
		{"SELECT ('seq1'::regclass).nextval - ('seq1'::regclass).nextval", "-1", Nondeterministic},
		{"SELECT ('x'::text).md5 = md5('x')", "t", 0},
		{"SELECT (p.addr).street FROM attr_person p", "Main St", 0},
		{"SELECT (addr).city FROM attr_person", "Springfield", 0},
		{"SELECT p.row_to_json FROM attr_person p", `{"id":1`, 0},
	}
	var script strings.Builder
	for i, cs := range cases {
		fmt.Fprintf(&script, "\\echo @@@ %d\n%s;\n\\echo @@@END :ERROR :LAST_ERROR_MESSAGE\n", i, cs.stmt)
	}
	out, _, err := c.psql("dws", script.String())
	if err != nil {
		t.Fatal(err)
	}
	results, errs := splitNamed(string(out))
	for i, cs := range cases {
		key := fmt.Sprint(i)
		if want, isErr := strings.CutPrefix(cs.server, "ERROR: "); isErr {
			if !strings.HasPrefix(errs[key], want) {
				t.Errorf("server: %s gave %q %s, want the error %q…", cs.stmt, results[key], errs[key], want)
			}
		} else if errs[key] != "" || !strings.HasPrefix(results[key], cs.server) {
			t.Errorf("server: %s gave %q %s, want %q…", cs.stmt, results[key], errs[key], cs.server)
		}
		r := CheckStatement(cs.stmt, -1, &pol)
		var kinds []Kind
		for _, f := range r.Findings {
			if f.Kind == Function || f.Kind == Nondeterministic {
				kinds = append(kinds, f.Kind)
			}
		}
		switch {
		case cs.kind == 0 && len(kinds) > 0:
			t.Errorf("dws refuses a field selection or harmless call: %s: %v", cs.stmt, r.Findings)
		case cs.kind != 0 && !hasKind(r, cs.kind):
			t.Errorf("dws does not report %s as %s: %v", cs.stmt, cs.kind, r.Findings)
		}
	}
}
