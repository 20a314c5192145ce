package sqlallow

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

func testPolicy() *Policy {
	p := DefaultPolicy()
	p.Allow = map[string][]string{
		"expense":         {"id", "status", "amount"},
		"expense_audit":   {"*"},
		"billing.invoice": {"id", "total"},
		`"MixedCase"`:     {`"Id"`},
		"employee":        {"id", "name"},
		"payroll_pub":     {"id"},
	}
	return &p
}

// ruleOf is the rule each kind is reported as (package sqlcheck), so that
// expectations read as users see them.
var ruleOf = map[Kind]string{
	Syntax: "sql-syntax", Statement: "sql-statement", Table: "sql-table", Column: "sql-column",
	Function: "sql-function", Nondeterministic: "sql-nondeterministic", Args: "sql-args",
	Expression: "branch-expression",
}

func render(r Result) string {
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s@%d+%d: %s\n", ruleOf[f.Kind], f.Offset, f.Length, f.Message)
	}
	return b.String()
}

func TestCheckStatement(t *testing.T) {
	ddl, err := FromDDL(`CREATE TABLE expense (id int, status text, amount numeric, salary numeric);
		CREATE TABLE employee (id int, name text, salary numeric);
		CREATE TABLE billing.invoice (id int, total numeric);`)
	if err != nil {
		t.Fatal(err)
	}
	withDDL := testPolicy()
	withDDL.DDL = ddl
	tests := []struct {
		name string
		sql  string
		args int
		pol  *Policy
		want string
	}{
		{"seed update", "UPDATE expense SET status='approved' WHERE id={{expenseId}}", 0, nil, ""},
		{"table", "SELECT id FROM payroll", -1, nil, "sql-table@15+7: table \"payroll\" is not on the allow-list\n"},
		{"column", "SELECT salary FROM expense", -1, nil, "sql-column@7+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"qualified column via alias", "SELECT e.salary FROM expense e", -1, nil, "sql-column@7+8: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"star without ddl", "SELECT * FROM expense", -1, nil, "sql-column@7+1: * uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\n"},
		{"star with ddl", "SELECT * FROM expense", -1, withDDL, "sql-column@7+1: * reads columns of \"expense\" that are not allowed: salary (allowed: amount, id, status)\n"},
		{"star on star grant", "SELECT * FROM expense_audit", -1, nil, ""},
		{"t.star", "SELECT a.*, e.id FROM expense_audit a JOIN expense e ON e.id = a.expense_id", -1, nil, ""},
		{"whole row", "SELECT e FROM expense e", -1, nil, "sql-column@7+1: whole-row reference \"e\" uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\n"},
		{"ambiguous", "SELECT name FROM employee, expense", -1, nil, "sql-column@7+4: unqualified column \"name\" could come from \"employee\" or \"expense\"; qualify it\n"},
		{"ambiguous resolved by ddl", "SELECT name FROM employee, expense", -1, withDDL, ""},
		{"subquery column is not a table column", "SELECT s.salary FROM (SELECT amount AS salary FROM expense) s", -1, nil, ""},
		{"cte column", "WITH x AS (SELECT amount AS salary FROM expense) SELECT salary FROM x", -1, nil, ""},
		{"cte shadows", "WITH payroll AS (SELECT id FROM expense) SELECT id FROM payroll", -1, nil, ""},
		{"cte self name reads real table", "WITH expense AS (SELECT * FROM payroll) SELECT * FROM expense", -1, nil, "sql-table@31+7: table \"payroll\" is not on the allow-list\n"},
		{"cte forward reference is a table", "WITH a AS (SELECT * FROM payroll), payroll AS (SELECT 1) SELECT * FROM a, payroll", -1, nil, "sql-table@25+7: table \"payroll\" is not on the allow-list\n"},
		{"cte scope per level", "SELECT (WITH payroll AS (SELECT 1) SELECT count(*) FROM payroll), (SELECT count(*) FROM payroll)", -1, nil, "sql-table@88+7: table \"payroll\" is not on the allow-list\n"},
		{"schema qualified", "SELECT total FROM billing.invoice", -1, nil, ""},
		{"other schema same name", "SELECT id FROM billing.expense", -1, nil, "sql-table@15+15: table \"billing.expense\" is not on the allow-list\n"},
		{"quoted mixed case", `SELECT "Id" FROM "MixedCase"`, -1, nil, ""},
		{"unquoted folds", `SELECT id FROM MixedCase`, -1, nil, "sql-table@15+9: table \"mixedcase\" is not on the allow-list; did you mean \"MixedCase\", written in double quotes (unquoted names are folded to lower case)?\n"},
		{"table slip", `SELECT id FROM expnse`, -1, nil, "sql-table@15+6: table \"expnse\" is not on the allow-list; did you mean \"expense\"?\n"},
		{"column slip", `SELECT amout FROM expense`, -1, nil, "sql-column@7+5: column \"amout\" of \"expense\" is not allowed (allowed: amount, id, status); did you mean \"amount\"?\n"},
		{"column slip ddl", `SELECT amout FROM expense`, -1, withDDL, "sql-column@7+5: column \"amout\" is not a column of any relation in scope; did you mean \"amount\"?\n"},
		{"qualified column slip ddl", `SELECT e.amout FROM expense e`, -1, withDDL, "sql-column@7+7: column \"amout\" does not exist in \"expense\" (sql.from_ddl); did you mean \"amount\"?\n"},
		{"catalog", "SELECT * FROM pg_class", -1, nil, "sql-table@14+8: table \"pg_class\" is not on the allow-list\n"},
		{"information_schema", "SELECT 1 FROM information_schema.tables", -1, nil, "sql-table@14+25: table \"information_schema.tables\" is not on the allow-list\n"},
		{"deep subquery", "SELECT 1 WHERE EXISTS (SELECT 1 FROM (SELECT 1 FROM (SELECT 1 FROM payroll) a) b)", -1, nil, "sql-table@67+7: table \"payroll\" is not on the allow-list\n"},
		{"insert select", "INSERT INTO expense_audit (status) SELECT salary FROM expense", -1, nil, "sql-column@42+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"insert without columns", "INSERT INTO expense VALUES (1, 'x', 2)", -1, nil, "sql-column@12+7: INSERT without a column list uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\n"},
		{"insert without columns ddl", "INSERT INTO expense VALUES (1, 'x', 2)", -1, withDDL, ""},
		{"update set column", "UPDATE expense SET salary = 0", -1, nil, "sql-column@19+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"update from", "UPDATE expense e SET amount = p.x FROM payroll p", -1, nil, "sql-table@39+7: table \"payroll\" is not on the allow-list\n"},
		{"delete using", "DELETE FROM expense USING billing.expense b WHERE b.id = expense.id", -1, nil, "sql-table@26+15: table \"billing.expense\" is not on the allow-list\n"},
		{"returning", "DELETE FROM expense RETURNING salary", -1, nil, "sql-column@30+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"on conflict", "INSERT INTO expense (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET salary = excluded.amount", -1, nil, "sql-column@67+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"data modifying cte", "WITH d AS (DELETE FROM expense RETURNING id) SELECT * FROM d", -1, &Policy{Allow: map[string][]string{"expense": {"*"}}, Statements: []string{"select"}}, "sql-statement@23+7: DELETE in a WITH clause changes data, and DELETE statements are not allowed\n"},
		{"merge not allowed", "MERGE INTO expense e USING expense_audit a ON a.id = e.id WHEN MATCHED THEN DELETE", -1, nil, "sql-statement@0+5: MERGE statements are not allowed (allowed: delete, insert, select, update)\n"},
		// The table a statement creates is the statement kind's fact, never sql-table's.
		{"select into", "SELECT id INTO copy FROM expense", -1, nil, "sql-statement@0+6: SELECT INTO statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"select into allowed creates any table", "SELECT id INTO copy FROM expense", -1, &Policy{Allow: map[string][]string{"expense": {"*"}}, Statements: []string{"select into"}}, ""},
		{"select into still checks what it reads", "SELECT * INTO copy FROM payroll", -1, &Policy{Allow: map[string][]string{"expense": {"*"}}, Statements: []string{"select into"}}, "sql-table@24+7: table \"payroll\" is not on the allow-list\n"},
		{"create table as", "CREATE TABLE copy AS SELECT id FROM payroll", -1, nil, "sql-statement@0+6: CREATE TABLE AS statements are not allowed (allowed: delete, insert, select, update)\nsql-table@36+7: table \"payroll\" is not on the allow-list\n"},
		{"create table inherits reads its parent", "CREATE TABLE archive (note text) INHERITS (payroll)", -1, nil, "sql-statement@0+6: CREATE TABLE statements are not allowed (allowed: delete, insert, select, update)\nsql-table@43+7: table \"payroll\" is not on the allow-list\n"},
		{"create view", "CREATE VIEW v AS SELECT id FROM expense", -1, nil, "sql-statement@0+6: CREATE VIEW statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"create sequence", "CREATE SEQUENCE s", -1, nil, "sql-statement@0+6: CREATE SEQ statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"two statements", "SELECT 1; SELECT 2", -1, nil, "sql-statement@10+8: 2 statements: a sql step runs exactly one\n"},
		{"copy", "COPY expense TO '/tmp/x'", -1, nil, "sql-statement@0+4: COPY statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"do", "DO $$ BEGIN END $$", -1, nil, "sql-statement@0+2: DO statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"set", "SET search_path = billing", -1, nil, "sql-statement@0+3: SET statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"syntax", "SELEC 1", -1, nil, "sql-syntax@0+1: syntax error at or near \"SELEC\"\n"},
		{"syntax multibyte", "SELECT 'é' FROM FROM", -1, nil, "sql-syntax@17+1: syntax error at or near \"FROM\"\n"},
		{"denied function", "SELECT pg_catalog.PG_SLEEP(1)", -1, nil, "sql-function@7+19: function pg_catalog.pg_sleep is denied: it acts on the server, other sessions, locks or files\n"},
		{"denied prefix", "SELECT dblink_exec('x', 'y')", -1, nil, "sql-function@7+11: function dblink_exec is denied\n"},
		{"query_to_xml", "SELECT query_to_xml('select * from payroll', true, true, '')", -1, nil, "sql-function@7+12: function query_to_xml is denied: it runs SQL given as text, or reads every table of a schema or database\n"},
		{"user deny", "SELECT lower(status) FROM expense", -1, &Policy{Allow: map[string][]string{"expense": {"*"}}, DenyFunctions: []string{"lower"}}, "sql-function@7+5: function lower is denied\n"},
		{"denied table function", "SELECT * FROM pg_ls_dir('.')", -1, nil, "sql-function@14+9: function pg_ls_dir is denied: PostgreSQL lets only superusers and specially granted roles run it\n"},
		{"volatile", "UPDATE expense SET status = 'x' WHERE amount > random()", -1, nil, "sql-nondeterministic@47+6: random() is volatile: pass the value as an argument\n"},
		{"current_timestamp", "SELECT id FROM expense WHERE amount < extract(epoch FROM CURRENT_TIMESTAMP)", -1, nil, "sql-nondeterministic@57+17: CURRENT_TIMESTAMP is volatile: pass the value as an argument\n"},
		{"now literal", "SELECT 'now'::timestamptz", -1, nil, "sql-nondeterministic@7+5: 'now' is read when the statement runs: pass the value as an argument\n"},
		{"nextval", "INSERT INTO expense_audit (id) VALUES (nextval('s'))", -1, nil, "sql-nondeterministic@39+7: nextval() is volatile: pass the value as an argument\n"},
		{"tablesample", "SELECT id FROM expense TABLESAMPLE BERNOULLI (5)", -1, nil, "sql-nondeterministic@35+9: TABLESAMPLE picks rows at random: the statement is not repeatable\n"},
		{"args missing", "SELECT id FROM expense WHERE id = $2", 1, nil, "sql-args@0+36: args[0] is never used\nsql-args@34+2: $2 has no entry in args (1 given)\n"},
		{"args unused", "SELECT id FROM expense WHERE id = $1", 2, nil, "sql-args@0+36: args[1] is never used\n"},
		{"args exact", "SELECT id FROM expense WHERE id = $1 AND status = $2", 2, nil, ""},
		{"template not an arg", "SELECT id FROM expense WHERE id = {{id}} AND status = $1", 1, nil, ""},
		{"template as table", "SELECT id FROM {{table}}", -1, nil, "sql-table@15+9: {{table}} is used as a table: a template value cannot choose a table; the allow-list cannot check it\n"},
		{"template in name", "SELECT id FROM expense_{{n}}", -1, nil, "sql-table@23+5: {{n}} is used as a table: a template value cannot choose a table; the allow-list cannot check it\n"},
		{"template as column", "SELECT e.{{col}} FROM expense e", -1, nil, "sql-column@9+7: {{col}} is used as a column: a template value cannot choose a column; the allow-list cannot check it\n"},
		{"template in string", "SELECT id FROM expense WHERE status = '{{s}}'", -1, nil, ""},
		{"lateral", "SELECT * FROM expense_audit a, LATERAL (SELECT salary FROM expense e WHERE e.id = a.expense_id) l", -1, nil, "sql-column@47+6: unqualified column \"salary\" could come from \"e\" or \"a\"; qualify it\n"},
		{"correlated outer column", "SELECT (SELECT count(*) FROM expense_audit a WHERE a.status = e.salary) FROM expense e", -1, nil, "sql-column@62+8: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"union", "SELECT id FROM expense UNION SELECT id FROM payroll", -1, nil, "sql-table@44+7: table \"payroll\" is not on the allow-list\n"},
		{"join using", "SELECT 1 FROM expense JOIN employee USING (name)", -1, nil, "sql-column@0+6: column \"name\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"natural join without ddl", "SELECT 1 FROM expense NATURAL JOIN employee", -1, nil, "sql-column@0+6: NATURAL JOIN uses every column of \"employee\", but only some are granted (allowed: id, name); name the columns\nsql-column@0+6: NATURAL JOIN uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\n"},
		{"natural join with ddl", "SELECT 1 FROM expense NATURAL JOIN employee", -1, withDDL, "sql-column@0+6: column \"salary\" of \"employee\" is not allowed (allowed: id, name)\nsql-column@0+6: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"order by output alias", "SELECT amount AS salary FROM expense ORDER BY salary", -1, nil, ""},
		{"system column", "SELECT ctid FROM expense", -1, nil, "sql-column@7+4: column \"ctid\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"column alias list hides columns", "SELECT e.a FROM expense e (a)", -1, nil, "sql-column@7+3: a column alias uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\nsql-column@16+7: column aliases on \"expense\" hide which columns are read; without DDL dws cannot tell: name the columns instead\n"},
		{"column alias list with ddl", "SELECT e.a FROM expense e (a, b, c, d)", -1, withDDL, ""},
		{"column alias list with ddl reads salary", "SELECT e.d FROM expense e (a, b, c, d)", -1, withDDL, "sql-column@7+3: column \"salary\" of \"expense\" is not allowed (allowed: amount, id, status)\n"},
		{"composite field", "SELECT (e).salary FROM expense e", -1, nil, "sql-column@8+1: whole-row reference \"e\" uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\n"},
		{"empty", " -- nothing\n", -1, nil, "sql-statement@0+12: no statement: a sql step runs exactly one\n"},
		{"long identifier truncated", "SELECT id FROM " + strings.Repeat("x", 70), -1, &Policy{Allow: map[string][]string{strings.Repeat("x", 64): {"*"}}}, ""},
		{"for update of alias", "SELECT e.id FROM expense e FOR UPDATE OF e", -1, nil, ""},
		{"function in from", "SELECT u FROM unnest(ARRAY[1]) u", -1, nil, ""},
		{"rows from", "SELECT * FROM ROWS FROM (generate_series(1, 2), pg_sleep(1)) r", -1, nil, "sql-function@48+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files\n"},
		{"call refused", "CALL do_stuff()", -1, nil, "sql-statement@0+4: CALL statements are not allowed (allowed: delete, insert, select, update)\n"},
		{"call refused checks its arguments", "CALL do_stuff(secret_fn(1), (SELECT id FROM payroll))", -1, nil, "sql-statement@0+4: CALL statements are not allowed (allowed: delete, insert, select, update)\nsql-function@14+9: function secret_fn is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\nsql-table@44+7: table \"payroll\" is not on the allow-list\n"},
		{"call allowed checks its procedure", "CALL do_stuff()", -1, &Policy{Statements: []string{"call"}}, "sql-function@5+8: function do_stuff is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\n"},
		{"explain", "EXPLAIN SELECT * FROM payroll", -1, nil, "sql-statement@0+7: EXPLAIN statements are not allowed (allowed: delete, insert, select, update)\nsql-table@22+7: table \"payroll\" is not on the allow-list\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pol
			if p == nil {
				p = testPolicy()
			}
			got := render(CheckStatement(tc.sql, tc.args, p))
			if got != tc.want {
				t.Errorf("%s\n got:\n%s want:\n%s", tc.sql, got, tc.want)
			}
		})
	}
}

func TestCheckExpression(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"{{fraudScore}} < 0.7 AND {{amount}} <= 1000", ""},
		{"{{status}} IN ('a', 'b') OR {{n}} IS NULL", ""},
		{"true); DROP TABLE x; --", "branch-expression@4+1: not one boolean expression: this \")\" closes a parenthesis the expression never opened\n"},
		{"1) FROM payroll WHERE (true", "branch-expression@0+27: not one boolean expression\n"},
		{"true, false", "branch-expression@0+11: not one boolean expression\n"},
		{"EXISTS (SELECT 1 FROM expense)", "branch-expression@22+7: reads table \"expense\": a branch expression may not read a relation\n"},
		{"(SELECT count(*) FROM payroll) > 0", "branch-expression@22+7: reads table \"payroll\": a branch expression may not read a relation\n"},
		{"status = 'x'", "branch-expression@0+6: column \"status\" has nothing to come from: a branch expression sees only {{variables}} and constants\n"},
		{"random() > 0.5", "sql-nondeterministic@0+6: random() is volatile: pass the value as an argument\n"},
		{"pg_sleep(1) IS NULL", "sql-function@0+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files\n"},
		{"42", "branch-expression@0+2: not a boolean expression: a constant that is not true or false\n"},
		{"$1 > 2", "branch-expression@0+2: $1 has nothing to bind to in a branch expression; use {{name}}\n"},
		{"", "branch-expression@0+1: not one boolean expression: syntax error at or near \")\"\n"},
	}
	for _, tc := range tests {
		got := render(CheckExpression(tc.expr, testPolicy()))
		if got != tc.want {
			t.Errorf("%q\n got:\n%s want:\n%s", tc.expr, got, tc.want)
		}
	}
}

func TestRelations(t *testing.T) {
	r := CheckStatement(`WITH x AS (SELECT id FROM expense) SELECT i.total, x.id FROM billing.invoice i JOIN x ON x.id = i.id JOIN "MixedCase" m ON m."Id" = 1`, -1, testPolicy())
	got := fmt.Sprint(r.Relations)
	want := `[{public.expense [id] 26} {billing.invoice [id total] 61} {public.MixedCase [Id] 106}]`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestFromDDL(t *testing.T) {
	s, err := FromDDL(`CREATE TABLE a (id int, "Name" text);
		CREATE TABLE billing."Inv" (x int);
		CREATE TABLE c (LIKE a);
		CREATE TABLE d (extra int) INHERITS (a);
		ALTER TABLE a ADD COLUMN z int;
		ALTER TABLE a DROP COLUMN id;
		CREATE INDEX ON a (z);`)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(s.Tables)
	want := `map[billing.Inv:[x] public.a:[Name z] public.c:[id Name] public.d:[id Name extra]]`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	p := DefaultPolicy()
	p.DDL = s
	if r := CheckStatement(`SELECT x FROM billing."Inv"`, -1, &p); len(r.Findings) != 0 {
		t.Errorf("DDL allow-list rejects its own table: %v", r.Findings)
	}
	_, err = FromDDL("CREATE TABLE é (id int,, x int)")
	var se *SyntaxError
	ok := errors.As(err, &se)
	if !ok || se.Offset != 24 {
		t.Errorf("FromDDL syntax error = %#v, want offset 24", err)
	}
}

func TestPolicyNames(t *testing.T) {
	p := Policy{Allow: map[string][]string{"Expense": {"ID"}, `billing."Inv"`: {"*"}}, SearchPath: []string{"Billing", "public"}}
	if r := CheckStatement(`SELECT id FROM expense`, -1, &p); len(r.Findings) != 0 || r.Relations[0].Relation != "billing.expense" {
		t.Errorf("unqualified allow key should be in search_path[0]: %+v", r)
	}
	if r := CheckStatement(`SELECT 1 FROM public.expense`, -1, &p); len(r.Findings) != 1 {
		t.Errorf("public.expense is not billing.expense: %+v", r)
	}
	if r := CheckStatement(`SELECT 1 FROM billing.inv`, -1, &p); len(r.Findings) != 1 {
		t.Errorf("quoted key keeps its case: %+v", r)
	}
}

func TestConcurrent(t *testing.T) {
	p := testPolicy()
	want := render(CheckStatement(reportQuery, -1, p))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if got := render(CheckStatement(reportQuery, -1, p)); got != want {
					t.Errorf("concurrent result differs")
					return
				}
				CheckStatement(updateQuery, 1, p)
				CheckExpression("{{a}} > 1", p)
			}
		}()
	}
	wg.Wait()
}

const updateQuery = `UPDATE expense SET status = 'approved', amount = $1 WHERE id = {{expenseId}} AND status <> 'approved'`

var reportQuery = `WITH monthly AS (
  SELECT e.id, e.status, e.amount, date_trunc('month', a.at) AS month
  FROM expense e
  JOIN expense_audit a ON a.expense_id = e.id
  WHERE e.status IN ('approved', 'paid') AND a.status = 'approved'
), totals AS (
  SELECT month, status, sum(amount) AS total, count(*) AS n
  FROM monthly
  GROUP BY month, status
), invoiced AS (
  SELECT i.id, i.total FROM billing.invoice i
  WHERE i.total > (SELECT avg(total) FROM billing.invoice)
)
SELECT t.month, t.status, t.total, t.n,
       (SELECT count(*) FROM invoiced) AS invoices,
       coalesce((SELECT max(total) FROM invoiced v WHERE v.id = t.n), 0) AS top_invoice,
       CASE WHEN t.total > 1000 THEN 'large' WHEN t.total > 100 THEN 'medium' ELSE 'small' END AS size,
       rank() OVER (PARTITION BY t.status ORDER BY t.total DESC) AS rnk
FROM totals t
LEFT JOIN LATERAL (
  SELECT e2.id, e2.amount FROM expense e2
  WHERE e2.status = t.status AND e2.amount > (SELECT avg(amount) FROM expense)
  ORDER BY e2.amount DESC LIMIT 1
) best ON true
WHERE t.n > 0 AND EXISTS (
  SELECT 1 FROM expense_audit x WHERE x.status = t.status AND x.expense_id IN (SELECT id FROM expense WHERE amount > 10)
)
GROUP BY t.month, t.status, t.total, t.n
HAVING sum(t.n) > 1
ORDER BY t.month DESC, rnk
LIMIT 100`

func BenchmarkCheckStatementUpdate(b *testing.B) {
	p := testPolicy()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CheckStatement(updateQuery, 1, p)
	}
}

func BenchmarkCheckStatementReport(b *testing.B) {
	p := testPolicy()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CheckStatement(reportQuery, -1, p)
	}
}

// TestDDLColumnsExist: with from_ddl, a column no table in scope has is a finding, as
// PostgreSQL would refuse the statement; columns of the DDL pass.
func TestDDLColumnsExist(t *testing.T) {
	ddl, err := FromDDL("CREATE TABLE expense (id bigint, status text, amount numeric);")
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultPolicy()
	p.DDL = ddl
	tests := []struct{ stmt, want string }{
		{"UPDATE expense SET approver = $1 WHERE id = 1", `column "approver" does not exist in "expense" (sql.from_ddl)`},
		{"UPDATE expense SET status = approver WHERE id = $1", `column "approver" is not a column of any relation in scope`},
		{"SELECT e.nope FROM expense e WHERE id = $1", `column "nope" does not exist in "expense" (sql.from_ddl)`},
		{"SELECT * FROM expense WHERE id = $1 AND amount > 0", ""},
	}
	for _, tt := range tests {
		r := CheckStatement(tt.stmt, 1, &p)
		var got string
		for _, f := range r.Findings {
			got += f.Message
		}
		if got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.stmt, got, tt.want)
		}
	}
}

// TestExpressionEscape: an expression that closes the wrapper's parenthesis to smuggle
// in statements is pointed out at the stray ")", not at the end of the string.
func TestExpressionEscape(t *testing.T) {
	p := DefaultPolicy()
	for expr, off := range map[string]int{
		"{{amount}} > 0); DROP TABLE expense; --": 14,
		"(1 = 1)); SELECT 1; --":                  7,
	} {
		r := CheckExpression(expr, &p)
		if len(r.Findings) != 1 || r.Findings[0].Kind != Expression || r.Findings[0].Offset != off {
			t.Errorf("%q: got %+v, want one branch-expression at %d", expr, r.Findings, off)
		}
	}
	// A ")" inside a string literal is not stray.
	if r := CheckExpression("{{name}} = ')'", &p); len(r.Findings) != 0 {
		t.Errorf("string literal: %+v", r.Findings)
	}
}

// TestKnownKind: every kind a statement can have is nameable in sql.statements, and a typo
// is not (the config refuses it with exit 2 instead of rejecting every statement later).
func TestKnownKind(t *testing.T) {
	for _, k := range []string{"select", "insert", "update", "delete", "merge", "select into", "copy", "do", "call", "drop", "alter table", "explain", "create table"} {
		if !KnownKind(k) {
			t.Errorf("%q is not known", k)
		}
	}
	for _, k := range []string{"selec", "", "SELECT", "drop table x"} {
		if KnownKind(k) {
			t.Errorf("%q is known", k)
		}
	}
}

// TestDDLGrants: from_ddl allows every table and column the DDL creates, but an
// explicit allow entry for the same table wins, however either spells its name
// (quoting, case, schema, search_path). An unqualified table of the DDL is in the
// first search_path schema, as an unqualified allow key is.
func TestDDLGrants(t *testing.T) {
	ddl, err := FromDDL(`CREATE TABLE expense (id int, status text, description text, amount numeric);
		CREATE TABLE audit (id int, note text);
		CREATE TABLE billing.invoice (id int, total numeric, secret text);`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		allow      map[string][]string
		searchPath []string
		stmt, want string
	}{
		{nil, nil, "SELECT note FROM audit", ""},
		{nil, nil, "SELECT total, secret FROM billing.invoice", ""},
		{nil, nil, "SELECT x FROM payroll", `sql-table@14+7: table "payroll" is not on the allow-list` + "\n"},
		{map[string][]string{"expense": {"id", "status"}}, nil, "SELECT description, amount FROM expense",
			`sql-column@7+11: column "description" of "expense" is not allowed (allowed: id, status)` + "\n" +
				`sql-column@20+6: column "amount" of "expense" is not allowed (allowed: id, status)` + "\n"},
		{map[string][]string{"PUBLIC.Expense": {"id"}}, nil, "SELECT amount FROM public.expense",
			`sql-column@7+6: column "amount" of "public.expense" is not allowed (allowed: id)` + "\n"},
		{map[string][]string{`"public"."expense"`: {"id"}}, nil, "SELECT e.amount FROM expense e",
			`sql-column@7+8: column "amount" of "expense" is not allowed (allowed: id)` + "\n"},
		{map[string][]string{"billing.invoice": {"id", "total"}}, nil, "SELECT * FROM billing.invoice",
			`sql-column@7+1: * reads columns of "billing.invoice" that are not allowed: secret (allowed: id, total)` + "\n"},
		{map[string][]string{"expense": {"id"}}, []string{"app", "public"}, "SELECT amount FROM expense",
			`sql-column@7+6: column "amount" of "expense" is not allowed (allowed: id)` + "\n"},
		{map[string][]string{"expense": {"id"}}, []string{"app", "public"}, "SELECT amount FROM public.expense",
			`sql-table@19+14: table "public.expense" is not on the allow-list` + "\n"},
		{map[string][]string{"expense": {"*"}}, nil, "SELECT description FROM expense", ""},
	}
	for _, tt := range tests {
		p := DefaultPolicy()
		if tt.allow != nil {
			p.Allow = tt.allow
		}
		if tt.searchPath != nil {
			p.SearchPath = tt.searchPath
		}
		p.DDL = ddl
		if got := render(CheckStatement(tt.stmt, -1, &p)); got != tt.want {
			t.Errorf("allow %v, search_path %v: %s\n got:\n%s want:\n%s", tt.allow, tt.searchPath, tt.stmt, got, tt.want)
		}
	}
}

// TestPlaceholders: only {{name}} (a name, dots for a path, spaces around) is a
// template placeholder. Anything else that opens {{ is refused where it starts:
// the template engine may replace it whatever it holds, so the text that reaches
// PostgreSQL is not the text dws parsed.
func TestPlaceholders(t *testing.T) {
	p := testPolicy()
	statements := []struct{ sql, want string }{
		{"SELECT id FROM expense WHERE id = {{expenseId}}", ""},
		{"SELECT id FROM expense WHERE id = {{ expense.id }} AND status = {{s_2.x.0}}", ""},
		{"SELECT id FROM expense WHERE status = '{{' UNION SELECT id FROM secret --}}'",
			"sql-syntax@39+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"},
		{"SELECT id FROM expense WHERE status = '{{a b}}'",
			"sql-syntax@39+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"},
		{"SELECT '{{1,2},{3,4}}'::int[]",
			"sql-syntax@8+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"},
		{"SELECT id FROM expense -- {{",
			"sql-syntax@26+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"},
		{"SELECT id FROM expense WHERE id = {{x.}}",
			"sql-syntax@34+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"},
		{"SELECT '{ {1,2},{3,4} }'::int[]", ""},
	}
	for _, tt := range statements {
		if got := render(CheckStatement(tt.sql, -1, p)); got != tt.want {
			t.Errorf("%s\n got:\n%s want:\n%s", tt.sql, got, tt.want)
		}
	}
	expr := "{{amount}} > 0 OR '{{' = '' OR (SELECT true FROM payroll LIMIT 1) OR '}}' = ''"
	want := "branch-expression@19+2: {{ opens a template placeholder, but what follows is not {{name}}: the template engine may replace it, and PostgreSQL would run other text than dws checked\n"
	if got := render(CheckExpression(expr, p)); got != want {
		t.Errorf("%s\n got:\n%s want:\n%s", expr, got, want)
	}
}

// TestDeniedBuiltins: the deny-list comes from PostgreSQL's catalog, so the
// functions behind the system views that are denied as tables, the statistics and
// control functions and those that read a relation named by an argument are
// denied, with the reason.
func TestDeniedBuiltins(t *testing.T) {
	tests := []struct{ sql, want string }{
		{"SELECT pid, query FROM pg_stat_get_activity(NULL)", "sql-function@23+20: function pg_stat_get_activity is denied: it is what the system view pg_stat_activity reads\n"},
		{"SELECT name, setting FROM pg_show_all_settings()", "sql-function@26+20: function pg_show_all_settings is denied: it is what the system view pg_settings reads\n"},
		{"SELECT * FROM pg_hba_file_rules()", "sql-function@14+17: function pg_hba_file_rules is denied: PostgreSQL lets only superusers and specially granted roles run it\n"},
		{"SELECT pg_sequence_last_value('secret_seq')", "sql-function@7+22: function pg_sequence_last_value is denied: it is what the system view pg_sequences reads\n"},
		{"SELECT pg_stat_reset()", "sql-function@7+13: function pg_stat_reset is denied: PostgreSQL lets only superusers and specially granted roles run it\n"},
		{"SELECT pg_relation_size('payroll')", "sql-function@7+16: function pg_relation_size is denied: it reads or changes the relation or catalog object that its argument names\n"},
		{"SELECT date_in('now')", "sql-function@7+7: function date_in is denied: it is a type's input or output function\nsql-nondeterministic@15+5: 'now' is read when the statement runs: pass the value as an argument\n"},
		{"SELECT pg_catalog.PG_SLEEP(1)", "sql-function@7+19: function pg_catalog.pg_sleep is denied: it acts on the server, other sessions, locks or files\n"},
		{"SELECT current_setting('data_directory')", "sql-function@7+15: function current_setting is denied: it reads or changes server settings\n"},
		{"SELECT query_to_xml('select * from payroll', true, true, '')", "sql-function@7+12: function query_to_xml is denied: it runs SQL given as text, or reads every table of a schema or database\n"},
		{"SELECT pg_frobnicate()", "sql-function@7+13: function pg_frobnicate is denied: pg_ names belong to PostgreSQL, and this is not one of its built-in functions\n"},
		{"SELECT dblink_exec('x', 'y')", "sql-function@7+11: function dblink_exec is denied\n"},
		{"SELECT lower(status), pg_typeof(id), pg_size_pretty(amount::bigint), jsonb_build_object('a', 1) FROM expense", ""},
	}
	for _, tt := range tests {
		if got := render(CheckStatement(tt.sql, -1, testPolicy())); got != tt.want {
			t.Errorf("%s\n got:\n%s want:\n%s", tt.sql, got, tt.want)
		}
	}
	// SPEC §4.3 names these as denied by default, and these as nondeterministic.
	for _, call := range []string{"pg_read_file('x')", "pg_ls_dir('.')", "lo_import('x')", "lo_export(1, 'x')", "dblink('a', 'b')",
		"pg_sleep(1)", "pg_sleep_for('1s')", "pg_sleep_until('tomorrow')", "set_config('a', 'b', true)", "pg_terminate_backend(1)", "pg_cancel_backend(1)"} {
		if r := CheckStatement("SELECT "+call, -1, testPolicy()); !hasKind(r, Function) {
			t.Errorf("%s is not denied: %v", call, r.Findings)
		}
	}
	for _, call := range []string{"now()", "random()", "clock_timestamp()", "gen_random_uuid()", "nextval('s')", "CURRENT_TIMESTAMP"} {
		if r := CheckStatement("SELECT "+call, -1, testPolicy()); !hasKind(r, Nondeterministic) || hasKind(r, Function) {
			t.Errorf("%s is not nondeterministic (only): %v", call, r.Findings)
		}
	}
}

// TestNondeterministic: whether a call can give another value on a retry comes
// from PostgreSQL's catalog (provolatile, and stable functions that read the
// clock), a function that is no built-in may be volatile, and text that reaches a
// date/time type is read when the statement runs.
func TestNondeterministic(t *testing.T) {
	ddl, err := FromDDL(`CREATE TABLE expense (id int, status text, amount numeric, at timestamptz, due date, note text);
		CREATE DOMAIN deadline AS date;
		CREATE FUNCTION norm(text) RETURNS text IMMUTABLE LANGUAGE sql AS 'SELECT lower($1)';
		CREATE FUNCTION billing.tax(numeric, numeric DEFAULT 0.2) RETURNS numeric STABLE LANGUAGE sql AS 'SELECT $1 * $2';
		CREATE FUNCTION stamp(text) RETURNS text LANGUAGE sql AS 'SELECT $1';`)
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultPolicy()
	p.DDL = ddl
	const (
		now   = "'now' is read when the statement runs: pass the value as an argument"
		today = "'today' is read when the statement runs: pass the value as an argument"
	)
	tests := []struct{ sql, want string }{
		{"SELECT 'now'::text::timestamptz", "sql-nondeterministic@7+5: " + now + "\n"},
		{"SELECT ('n'||'ow')::timestamptz", "sql-nondeterministic@20+11: text computed by the statement is cast to timestamptz: PostgreSQL reads 'now', 'today', … in it when the statement runs; pass the value as an argument\n"},
		{"SELECT CAST(lower('NOW') AS timestamp)", "sql-nondeterministic@18+5: 'NOW' is read when the statement runs: pass the value as an argument\nsql-nondeterministic@28+9: text computed by the statement is cast to timestamp: PostgreSQL reads 'now', 'today', … in it when the statement runs; pass the value as an argument\n"},
		{"SELECT note::date FROM expense", "sql-nondeterministic@13+4: text computed by the statement is cast to date: PostgreSQL reads 'now', 'today', … in it when the statement runs; pass the value as an argument\n"},
		{"SELECT timestamptz('now')", "sql-nondeterministic@19+5: " + now + "\n"},
		{"SELECT date('today')", "sql-nondeterministic@12+7: " + today + "\n"},
		{"SELECT 'today'::deadline", "sql-nondeterministic@7+7: " + today + "\n"},
		{"SELECT '{now,today}'::timestamptz[], '[tomorrow,)'::daterange", "sql-nondeterministic@7+13: '{now,today}' is read when the statement runs: pass the value as an argument\nsql-nondeterministic@37+13: '[tomorrow,)' is read when the statement runs: pass the value as an argument\n"},
		{"SELECT id FROM expense WHERE due < 'today'", "sql-nondeterministic@35+7: " + today + "\n"},
		{"SELECT id FROM expense WHERE at > 'yesterday 10:00'", "sql-nondeterministic@34+17: 'yesterday 10:00' is read when the statement runs: pass the value as an argument\n"},
		{"SELECT '10:00'::timetz", "sql-nondeterministic@7+7: '10:00' as timetz takes the zone offset of the day the statement runs: write the offset (+02) or pass the value as an argument\n"},
		{"SELECT age(at) FROM expense", "sql-nondeterministic@7+3: age() changes from one run of the statement to the next: pass the value as an argument\n"},
		{"SELECT now(), transaction_timestamp()", "sql-nondeterministic@7+3: now() changes from one run of the statement to the next: pass the value as an argument\nsql-nondeterministic@14+21: transaction_timestamp() changes from one run of the statement to the next: pass the value as an argument\n"},
		{"SELECT public.uuid_generate_v4()", "sql-function@7+23: function public.uuid_generate_v4 is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\n"},
		{"SELECT uuid_generate_v4()", "sql-function@7+16: function uuid_generate_v4 is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\n"},
		{"SELECT stamp(status) FROM expense", "sql-nondeterministic@7+5: stamp() is volatile: pass the value as an argument\n"},
		{"SELECT norm(status), billing.tax(amount), billing.tax(amount, 0.1) FROM expense", ""},
		{"SELECT age(at, '2025-01-01'), date_trunc('month', at), at AT TIME ZONE 'UTC', to_char(at, 'YYYY-MM-DD') FROM expense", ""},
		{"SELECT 'now'::text, 'epoch'::timestamptz, 'infinity'::date, '2025-01-01'::date, '10:00+02'::timetz, $1::timestamptz, {{d}}::date", ""},
		{"UPDATE expense SET note = 'approve now', status = 'now'::text WHERE due = {{due}}", ""},
		{"SELECT count(*), percentile_cont(0.5) WITHIN GROUP (ORDER BY amount), string_agg(status, ',') FROM expense", ""},
		{"SELECT * FROM unnest(ARRAY[1], ARRAY['a'])", ""},
	}
	for _, tt := range tests {
		if got := render(CheckStatement(tt.sql, -1, &p)); got != tt.want {
			t.Errorf("%s\n got:\n%s want:\n%s", tt.sql, got, tt.want)
		}
	}
	for expr, want := range map[string]string{
		"{{due}} < 'today'::date":       "sql-nondeterministic@10+7: " + today + "\n",
		"{{due}} < date('tomorrow')":    "sql-nondeterministic@15+10: 'tomorrow' is read when the statement runs: pass the value as an argument\n",
		"{{amount}} > public.random2()": "sql-function@13+14: function public.random2 is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\n",
	} {
		if got := render(CheckExpression(expr, &p)); got != want {
			t.Errorf("%s\n got:\n%s want:\n%s", expr, got, want)
		}
	}
}

// TestAttributeCalls: PostgreSQL reads a field selection (value).name on a value
// that is not a row with that field as the call name(value), and t.name on a FROM
// item without that column as name(t). Such calls get every function rule; a
// field dws cannot tell from a call is refused unless the DDL says what the value
// is.
func TestAttributeCalls(t *testing.T) {
	ddl, err := FromDDL(`CREATE TYPE address AS (street text, city text);
		CREATE TABLE person (id int, addr address, note text);`)
	if err != nil {
		t.Fatal(err)
	}
	withDDL := testPolicy()
	withDDL.DDL = ddl
	tests := []struct {
		sql  string
		pol  *Policy
		want string
	}{
		{"SELECT ('select to_tsvector(pw) from secret'::text).ts_stat", nil, "sql-function@52+7: function ts_stat is denied: it runs SQL given as text, or reads every table of a schema or database (PostgreSQL reads (value).ts_stat as ts_stat(value))\n"},
		{"SELECT ('/etc/passwd'::text).pg_read_file", nil, "sql-function@29+12: function pg_read_file is denied: PostgreSQL lets only superusers and specially granted roles run it (PostgreSQL reads (value).pg_read_file as pg_read_file(value))\n"},
		{"SELECT (5::float8).pg_sleep", nil, "sql-function@19+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads (value).pg_sleep as pg_sleep(value))\n"},
		{"SELECT ('seq'::regclass).nextval", nil, "sql-nondeterministic@25+7: nextval() is volatile: pass the value as an argument (PostgreSQL reads (value).nextval as nextval(value))\n"},
		{"SELECT ('x'::text).upper, (4::float8).sqrt, (('x'::text).lower).upper", nil, ""},
		{"SELECT ('x'::text).frobnicate", nil, "sql-function@19+10: function frobnicate is not a PostgreSQL built-in and is not on the allow-list (sql.functions) (PostgreSQL reads (value).frobnicate as frobnicate(value))\n"},
		{"SELECT ({{x}}).pg_sleep, ($1).upper", nil, "sql-function@15+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads (value).pg_sleep as pg_sleep(value))\n"},
		{"SELECT (ARRAY['a'])[1].pg_sleep", nil, "sql-function@23+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads (value).pg_sleep as pg_sleep(value))\n"},
		{"SELECT (ROW(1, 2)).f2, (json_each('{}'::json)).key", nil, ""},
		{"SELECT (ROW(1, 2)).f3", nil, "sql-function@19+2: function f3 is not a PostgreSQL built-in and is not on the allow-list (sql.functions) (PostgreSQL reads (value).f3 as f3(value))\n"},
		{"SELECT (p.addr).street, (addr).city FROM person p", withDDL, ""},
		{"SELECT (p.addr).pg_sleep FROM person p", withDDL, "sql-function@16+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads (value).pg_sleep as pg_sleep(value))\n"},
		{"SELECT (p.addr).zip FROM person p", withDDL, "sql-function@16+3: function zip is not a PostgreSQL built-in and is not on the allow-list (sql.functions) (PostgreSQL reads (value).zip as zip(value))\n"},
		{"SELECT (p.note).ts_stat FROM person p", withDDL, "sql-function@16+7: function ts_stat is denied: it runs SQL given as text, or reads every table of a schema or database (PostgreSQL reads (value).ts_stat as ts_stat(value))\n"},
		{"SELECT (e.status).street FROM expense e", nil, "sql-nondeterministic@18+6: dws cannot tell whether (value).street reads a field or calls street(value), which is not a PostgreSQL built-in and may be volatile: give the value's type in sql.from_ddl\n"},
		{"SELECT (e).pg_sleep FROM expense e", nil, "sql-column@8+1: whole-row reference \"e\" uses every column of \"expense\", but only some are granted (allowed: amount, id, status); name the columns\nsql-function@11+8: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads (value).pg_sleep as pg_sleep(value))\n"},
		{"SELECT a.pg_sleep FROM expense_audit a", nil, "sql-function@7+10: function pg_sleep is denied: it acts on the server, other sessions, locks or files (PostgreSQL reads t.pg_sleep as pg_sleep(t) when t has no such column)\n"},
		{"SELECT s.ts_stat FROM (SELECT 'select 1'::text AS q) s", nil, "sql-function@7+9: function ts_stat is denied: it runs SQL given as text, or reads every table of a schema or database (PostgreSQL reads t.ts_stat as ts_stat(t) when t has no such column)\n"},
		{"SELECT p.row_to_json, p.frobnicate FROM person p", &Policy{Allow: map[string][]string{"person": {"*"}}, DDL: ddl}, "sql-column@22+12: column \"frobnicate\" does not exist in \"person\" (sql.from_ddl)\n"},
		{"SELECT (note).pg_read_file, (note).nextval FROM expense, (SELECT 1 AS pg_read_file, 2 AS nextval) note", nil, "sql-column@8+4: column \"note\" of \"expense\" is not allowed (allowed: amount, id, status)\nsql-function@14+12: function pg_read_file is denied: PostgreSQL lets only superusers and specially granted roles run it (PostgreSQL reads (value).pg_read_file as pg_read_file(value))\nsql-column@29+4: column \"note\" of \"expense\" is not allowed (allowed: amount, id, status)\nsql-nondeterministic@35+7: nextval() is volatile: pass the value as an argument (PostgreSQL reads (value).nextval as nextval(value))\n"},
		{"SELECT (s).pg_read_file FROM (SELECT 1 AS pg_read_file) s", nil, ""},
		{"SELECT (x).{{f}} FROM expense_audit x", nil, "sql-function@11+5: {{f}} is used as a function: a template value cannot choose a function; the allow-list cannot check it\n"},
	}
	for _, tt := range tests {
		p := tt.pol
		if p == nil {
			p = testPolicy()
		}
		if got := render(CheckStatement(tt.sql, -1, p)); got != tt.want {
			t.Errorf("%s\n got:\n%s want:\n%s", tt.sql, got, tt.want)
		}
	}
	expr := "(('select word from secret'::text).ts_stat).word = 'x'"
	want := "sql-function@35+7: function ts_stat is denied: it runs SQL given as text, or reads every table of a schema or database (PostgreSQL reads (value).ts_stat as ts_stat(value))\n"
	if got := render(CheckExpression(expr, testPolicy())); got != want {
		t.Errorf("%s\n got:\n%s want:\n%s", expr, got, want)
	}
}

// TestAttributeChain: a long chain of field selections is checked once per link
// (it took minutes when each link rescanned the ones inside it), and each field is
// found where it is written, whatever brackets, casts and subscripts surround it.
func TestAttributeChain(t *testing.T) {
	const n = 3000
	stmt := "SELECT " + strings.Repeat("(", n) + "'x'::text" + strings.Repeat(").pg_sleep", n)
	r := CheckStatement(stmt, -1, testPolicy())
	if len(r.Findings) != n || r.Findings[n-1].Offset != len(stmt)-len("pg_sleep") {
		t.Errorf("%d findings, last %+v; want %d, the last at %d", len(r.Findings), r.Findings[len(r.Findings)-1], n, len(stmt)-len("pg_sleep"))
	}
	for _, s := range []string{
		"SELECT (((x).y)::text).pg_sleep FROM expense_audit x",
		"SELECT (lower((x).y)).pg_sleep FROM expense_audit x",
		"SELECT x.arr[1].pg_sleep FROM expense_audit x",
		"SELECT (x.arr[1]).pg_sleep FROM expense_audit x",
		"SELECT ('{a}'::pg_catalog.text[])[1].pg_sleep",
		"SELECT ((SELECT 'a'::text)).pg_sleep",
		"SELECT (x).y[1].pg_sleep FROM expense_audit x",
		"SELECT ( x . y ) . pg_sleep FROM expense_audit x",
	} {
		r := CheckStatement(s, -1, testPolicy())
		if len(r.Findings) != 1 || r.Findings[0].Kind != Function || s[r.Findings[0].Offset:r.Findings[0].Offset+r.Findings[0].Length] != "pg_sleep" {
			t.Errorf("%s: %+v", s, r.Findings)
		}
	}
}

// A function that is no built-in runs only when sql.functions allows it, or when the
// DDL defines it in SQL: then what its body touches counts at the call.
func TestUserFunctions(t *testing.T) {
	ddl, err := FromDDL("CREATE TABLE expense (id int, amount int);\n\n" +
		"CREATE FUNCTION get_users() RETURNS SETOF record STABLE LANGUAGE sql AS 'SELECT * FROM users';\n" +
		"CREATE FUNCTION total() RETURNS bigint STABLE LANGUAGE sql BEGIN ATOMIC SELECT sum(amount) FROM expense; END;\n" +
		"CREATE FUNCTION outer_users() RETURNS bigint STABLE LANGUAGE sql AS $$ SELECT count(*) FROM get_users() AS u(id int) $$;\n" +
		"CREATE FUNCTION loop_a() RETURNS int STABLE LANGUAGE sql AS 'SELECT loop_b()';\n" +
		"CREATE FUNCTION loop_b() RETURNS int STABLE LANGUAGE sql AS 'SELECT loop_a()';\n" +
		"CREATE FUNCTION pl() RETURNS int STABLE LANGUAGE plpgsql AS $$ BEGIN RETURN 1; END $$;\n" +
		"CREATE FUNCTION pl_users(p_id int) RETURNS int STABLE LANGUAGE plpgsql AS $$\nDECLARE n int;\nBEGIN\n  SELECT count(*) INTO n FROM expense WHERE id = p_id;\n  n := (SELECT max(id) FROM users);\n  RETURN n;\nEND $$;\n" +
		"CREATE FUNCTION pl_dyn() RETURNS int STABLE LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'SELECT 1'; RETURN 1; END $$;\n" +
		"CREATE FUNCTION c_fn() RETURNS int STABLE LANGUAGE c AS 'lib', 'sym';\n")
	if err != nil {
		t.Fatal(err)
	}
	allow := map[string][]string{"expense": {"*"}}
	cases := []struct {
		stmt string
		pol  Policy
		want string
	}{
		{"SELECT * FROM get_users()", Policy{}, "sql-function@14+9: function get_users is not a PostgreSQL built-in and is not on the allow-list (sql.functions)\n"},
		{"SELECT * FROM get_users()", Policy{Functions: []string{"get_users"}}, "sql-nondeterministic@14+9: get_users() is not a PostgreSQL built-in, so it may be volatile: pass the value as an argument, or declare the function IMMUTABLE or STABLE in sql.from_ddl\n"},
		{"SELECT * FROM public.get_users()", Policy{Functions: []string{"public.get_users"}, DDL: ddl}, ""},
		{"SELECT * FROM get_users()", Policy{Functions: []string{"*"}, DDL: ddl}, ""},
		{"SELECT * FROM get_users()", Policy{Allow: allow, DDL: ddl}, "sql-table@14+9: function get_users (sql.from_ddl line 3): table \"users\" is not on the allow-list\n"},
		{"SELECT total()", Policy{Allow: allow, DDL: ddl}, ""},
		{"SELECT total()", Policy{Allow: map[string][]string{"expense": {"id"}}, DDL: ddl}, "sql-column@7+5: function total (sql.from_ddl line 4): column \"amount\" of \"expense\" is not allowed (allowed: id)\n"},
		{"SELECT outer_users()", Policy{Allow: allow, DDL: ddl}, "sql-table@7+11: function outer_users (sql.from_ddl line 5): function get_users (sql.from_ddl line 3): table \"users\" is not on the allow-list\n"},
		{"SELECT loop_a()", Policy{Allow: allow, DDL: ddl}, ""},
		{"SELECT pl()", Policy{Allow: allow, DDL: ddl}, ""},
		{"SELECT pl_users(1)", Policy{Allow: allow, DDL: ddl}, "sql-table@7+8: function pl_users (sql.from_ddl line 9): table \"users\" is not on the allow-list\n"},
		{"SELECT pl_dyn()", Policy{Allow: allow, DDL: ddl}, "sql-function@7+6: function pl_dyn (sql.from_ddl line 16) runs SQL dws cannot read (EXECUTE of a string, or SQL the parser rejects): add it to sql.functions if it may run\n"},
		{"SELECT pl_dyn()", Policy{Allow: allow, DDL: ddl, Functions: []string{"pl_dyn"}}, ""},
		{"SELECT c_fn()", Policy{Allow: allow, DDL: ddl}, "sql-function@7+4: function c_fn is written in c (sql.from_ddl line 17), so dws cannot see what it reads or writes: add it to sql.functions if it may run\n"},
	}
	for _, c := range cases {
		if got := render(CheckStatement(c.stmt, -1, &c.pol)); got != c.want {
			t.Errorf("%s with %+v\n got: %s want: %s", c.stmt, c.pol.Functions, got, c.want)
		}
	}
}

// EXECUTE (alone, or in CREATE TABLE … AS EXECUTE) runs a prepared statement: refused,
// unless the DDL prepares it, and then what the prepared statement reads counts.
func TestExecutePrepared(t *testing.T) {
	ddl, err := FromDDL("CREATE TABLE expense (id int);\nPREPARE p1 AS SELECT * FROM users;\nPREPARE p2 AS SELECT id FROM expense;")
	if err != nil {
		t.Fatal(err)
	}
	pol := Policy{Allow: map[string][]string{"expense": {"*"}}, DDL: ddl, Statements: []string{"select", "create table as", "execute"}}
	for stmt, want := range map[string]string{
		"CREATE TABLE t AS EXECUTE p1(1)":           "sql-table@18+7: prepared statement p1 (sql.from_ddl line 2): table \"users\" is not on the allow-list\n",
		"CREATE TABLE t AS EXECUTE p2 WITH NO DATA": "",
		"CREATE TABLE t AS EXECUTE nope":            "sql-statement@18+7: EXECUTE nope runs a prepared statement whose SQL dws cannot see, so it may read any table: write the statement itself, or PREPARE it in sql.from_ddl\n",
		"EXECUTE p1":                                "sql-table@0+7: prepared statement p1 (sql.from_ddl line 2): table \"users\" is not on the allow-list\n",
	} {
		if got := render(CheckStatement(stmt, -1, &pol)); got != want {
			t.Errorf("%s\n got: %s want: %s", stmt, got, want)
		}
	}
	// Without the DDL, nothing is known of the prepared statement.
	if got := render(CheckStatement("CREATE TABLE t AS EXECUTE p2", -1, &Policy{Statements: []string{"create table as"}})); !strings.Contains(got, "sql-statement@18+7: EXECUTE p2 runs a prepared statement") {
		t.Errorf("without the DDL: %s", got)
	}
}

// What the DDL attaches to a relation counts: a view's base relations (an allow-listed
// view does not hide a forbidden table), the actions of the rules that fire on a write,
// and the expressions of the policies on the table.
func TestDDLViewsRulesPolicies(t *testing.T) {
	ddl, err := FromDDL(`CREATE TABLE expense (id int, amount numeric);
CREATE TABLE audit (id int, note text);
CREATE VIEW expense_view AS SELECT e.id, s.id AS sid FROM expense e JOIN secret s ON s.id = e.id;
CREATE RULE log_update AS ON UPDATE TO audit DO ALSO INSERT INTO changes (id) VALUES (new.id);
CREATE POLICY own ON expense USING (id IN (SELECT id FROM owners));
`)
	if err != nil {
		t.Fatal(err)
	}
	pol := Policy{Allow: map[string][]string{"expense_view": {"*"}, "owners": {"*"}}, DDL: ddl}
	for stmt, want := range map[string]string{
		"SELECT id FROM expense_view": "sql-table@15+12: view expense_view (sql.from_ddl line 3): table \"secret\" is not on the allow-list\n",
		"UPDATE audit SET note = 'x'": "sql-table@7+5: rule log_update on audit (sql.from_ddl line 4): table \"changes\" is not on the allow-list\n",
		"SELECT note FROM audit":      "",
		"DELETE FROM audit":           "",
		"SELECT amount FROM expense":  "",
	} {
		if got := render(CheckStatement(stmt, -1, &pol)); got != want {
			t.Errorf("%s\n got: %s want: %s", stmt, got, want)
		}
	}
	pol.Allow = map[string][]string{}
	if got := render(CheckStatement("SELECT amount FROM expense", -1, &pol)); got != "sql-table@19+7: policy own on expense (sql.from_ddl line 5): table \"owners\" is not on the allow-list\n" {
		t.Errorf("policy: %s", got)
	}
}

// TestPreparedShared: one Prepared policy, used by several goroutines at once (as a
// validate run uses it), finds what a policy compiled for each statement finds; and
// it is a snapshot: a change to the Policy after Prepare does not reach it.
func TestPreparedShared(t *testing.T) {
	ddl, err := FromDDL(testDDL)
	if err != nil {
		t.Fatal(err)
	}
	p := testPolicy()
	p.DDL = ddl
	texts := fullCorpus()
	want := make([]Result, len(texts))
	for i, s := range texts {
		want[i] = CheckStatement(s, -1, p)
	}
	pp := Prepare(p)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range texts {
				i := (i + g*len(texts)/4) % len(texts)
				if got := pp.Statement(texts[i], -1); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("%q: prepared %v, compiled for it %v", texts[i], got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	p.Allow, p.DDL = map[string][]string{}, nil
	if fresh := CheckStatement("SELECT id FROM expense", -1, p); len(fresh.Findings) == 0 {
		t.Fatal("the changed policy still allows expense: the snapshot is not tested")
	}
	if got := pp.Statement("SELECT id FROM expense", -1); len(got.Findings) != 0 {
		t.Errorf("a change to the policy reached the prepared one: %v", got.Findings)
	}
}

// TestFindingsOnly: a FindingsOnly check finds exactly what a full one finds, for
// every statement and expression of the corpora (with and without the DDL, whose
// functions' bodies are checked as if written at the call), and makes no Relations.
func TestFindingsOnly(t *testing.T) {
	ddl, err := FromDDL(testDDL)
	if err != nil {
		t.Fatal(err)
	}
	withDDL := testPolicy()
	withDDL.DDL = ddl
	relations := 0
	for _, p := range []*Policy{testPolicy(), withDDL} {
		full := Prepare(p)
		only := full.FindingsOnly()
		for _, s := range fullCorpus() {
			for _, pair := range [][2]Result{
				{full.Statement(s, 1), only.Statement(s, 1)},
				{full.Expression(s), only.Expression(s)},
			} {
				want, got := pair[0], pair[1]
				if !reflect.DeepEqual(want.Findings, got.Findings) {
					t.Fatalf("%q: FindingsOnly finds\n%v\nbut a full check\n%v", s, got.Findings, want.Findings)
				}
				if got.Relations != nil {
					t.Fatalf("%q: FindingsOnly made Relations %v", s, got.Relations)
				}
				relations += len(want.Relations)
			}
		}
	}
	if relations < 500 {
		t.Fatalf("the full checks made only %d relation uses: the corpus went missing", relations)
	}
}
