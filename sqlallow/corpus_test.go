package sqlallow

import (
	"fmt"
	"strings"
	"testing"

	pg "github.com/pganalyze/pg_query_go/v5"
	"google.golang.org/protobuf/proto"

	"github.com/dwsdev/dws/internal/pgparse"
)

// handCorpus is every construct of SPEC §6 and the corners around it, written
// against testDDL.
var handCorpus = []string{
	// plain reads, joins, USING, NATURAL
	`SELECT id, status FROM expense`,
	`SELECT * FROM expense e JOIN payroll p USING (id)`,
	`SELECT * FROM expense NATURAL JOIN payroll`,
	`SELECT * FROM expense e FULL JOIN billing.invoice i ON i.expense_id = e.id`,
	`SELECT * FROM expense e CROSS JOIN employee`,
	`SELECT * FROM (expense e JOIN payroll p USING (id)) AS j`,
	`SELECT j.id FROM expense JOIN payroll USING (id) AS j`,
	`SELECT e.* , p.salary FROM expense e, payroll p WHERE e.id = p.id`,
	`SELECT "Id", "Value" FROM "MixedCase"`,
	`SELECT id FROM MixedCase`,
	`SELECT * FROM public."MixedCase" m JOIN mixedcase n ON m.id = n.id`,
	`SELECT * FROM PUBLIC.EXPENSE`,
	`SELECT * FROM dws.public.expense`,
	`SELECT * FROM billing.expense be JOIN expense e USING (id)`,
	`TABLE expense`,
	`TABLE billing.invoice`,
	`SELECT * FROM expense_view`,
	`SELECT * FROM measure WHERE at > '2024-06-01'`,
	`SELECT * FROM ONLY expense`,
	`SELECT expense FROM expense`,
	`SELECT row_to_json(e) FROM expense e`,
	`SELECT ctid, xmin FROM expense`,
	// catalogs
	`SELECT relname FROM pg_class`,
	`SELECT * FROM pg_catalog.pg_authid`,
	`SELECT table_name FROM information_schema.tables`,
	`SELECT usename FROM pg_user`,
	`SELECT * FROM pg_settings`,
	// subqueries at depth
	`SELECT (SELECT max(salary) FROM payroll) FROM expense`,
	`SELECT * FROM expense WHERE id IN (SELECT id FROM payroll WHERE salary > (SELECT avg(total) FROM billing.invoice))`,
	`SELECT * FROM expense WHERE EXISTS (SELECT 1 FROM payroll p WHERE p.id = expense.id)`,
	`SELECT status, count(*) FROM expense GROUP BY status HAVING count(*) > (SELECT count(*) FROM employee)`,
	`SELECT * FROM expense ORDER BY (SELECT count(*) FROM payroll)`,
	`SELECT coalesce((SELECT salary FROM payroll LIMIT 1), 0)`,
	`SELECT CASE WHEN amount > 0 THEN (SELECT name FROM employee LIMIT 1) ELSE 'x' END FROM expense`,
	`VALUES (1, (SELECT max(id) FROM payroll))`,
	`SELECT * FROM (VALUES (1), ((SELECT max(id) FROM payroll))) v(x)`,
	`SELECT array(SELECT salary FROM payroll)`,
	`SELECT 1 = ANY (SELECT id FROM payroll)`,
	`SELECT * FROM expense LIMIT (SELECT count(*) FROM payroll) OFFSET (SELECT count(*) FROM employee)`,
	`SELECT sum(amount) FILTER (WHERE id IN (SELECT id FROM payroll)) FROM expense`,
	`SELECT rank() OVER (PARTITION BY (SELECT 1 FROM payroll LIMIT 1) ORDER BY id) FROM expense`,
	`SELECT * FROM expense e, LATERAL (SELECT salary FROM payroll p WHERE p.id = e.id) l`,
	`SELECT * FROM expense e LEFT JOIN LATERAL (SELECT * FROM billing.invoice i WHERE i.expense_id = e.id LIMIT 1) i ON true`,
	`SELECT * FROM expense e, LATERAL unnest(ARRAY[e.id, (SELECT 1 FROM payroll LIMIT 1)]) u`,
	`SELECT * FROM generate_series(1, (SELECT count(*) FROM payroll)::int) g`,
	`SELECT * FROM ROWS FROM (generate_series(1, 3), unnest(ARRAY(SELECT id FROM payroll))) r(a, b)`,
	`SELECT * FROM unnest(ARRAY(SELECT name FROM employee)) WITH ORDINALITY u(n, i)`,
	`SELECT * FROM expense TABLESAMPLE SYSTEM (10) REPEATABLE (1)`,
	`SELECT (SELECT (SELECT (SELECT (SELECT count(*) FROM payroll))))`,
	`SELECT * FROM expense WHERE amount > ALL (SELECT total FROM billing.invoice)`,
	`SELECT id FROM expense WHERE (id, status) IN (SELECT id, status FROM employee)`,
	`SELECT greatest(1, (SELECT max(id) FROM employee))`,
	`SELECT (SELECT count(*) FROM payroll)::text || 'x'`,
	`SELECT format('%s', (SELECT name FROM employee LIMIT 1))`,
	`SELECT * FROM expense WHERE note LIKE (SELECT name FROM employee LIMIT 1)`,
	`SELECT xmlelement(name x, (SELECT name FROM employee LIMIT 1))`,
	`SELECT jsonb_build_object('a', (SELECT salary FROM payroll LIMIT 1))`,
	`SELECT * FROM XMLTABLE('/r' PASSING (SELECT xmlelement(name r, name) FROM employee LIMIT 1) COLUMNS a text PATH 'a') x`,
	`SELECT (SELECT e FROM employee e LIMIT 1)`,
	`SELECT 1 WHERE (SELECT true FROM payroll LIMIT 1) IS TRUE`,
	`SELECT count(*) FROM expense GROUP BY GROUPING SETS ((status), ()) HAVING (SELECT true FROM payroll LIMIT 1)`,
	`SELECT DISTINCT ON ((SELECT 1 FROM payroll LIMIT 1)) id FROM expense`,
	`SELECT * FROM expense FOR UPDATE`,
	`SELECT * FROM expense e JOIN payroll p USING (id) FOR UPDATE OF e`,
	// set operations
	`SELECT id FROM expense UNION SELECT id FROM payroll`,
	`SELECT id FROM expense INTERSECT SELECT id FROM billing.invoice EXCEPT SELECT id FROM employee`,
	`(SELECT id FROM expense ORDER BY id LIMIT 1) UNION ALL (SELECT id FROM payroll) ORDER BY id`,
	`SELECT id FROM expense UNION SELECT id FROM (SELECT id FROM payroll UNION SELECT manager_id FROM employee) u`,
	// CTEs and their scope
	`WITH payroll AS (SELECT * FROM expense) SELECT * FROM payroll`,
	`WITH expense AS (SELECT * FROM expense) SELECT * FROM expense`,
	`WITH a AS (SELECT * FROM payroll), payroll AS (SELECT * FROM expense) SELECT * FROM a, payroll`,
	`WITH a AS (SELECT 1 AS x) SELECT * FROM a, (WITH a AS (SELECT * FROM payroll) SELECT * FROM a) b`,
	`SELECT (WITH payroll AS (SELECT 1 AS x) SELECT count(*) FROM payroll), (SELECT count(*) FROM payroll)`,
	`WITH a AS (WITH payroll AS (SELECT 1 AS x) SELECT * FROM payroll) SELECT * FROM a, payroll`,
	`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 10) SELECT * FROM r`,
	`WITH RECURSIVE t AS (SELECT id, manager_id FROM employee WHERE id = 1 UNION ALL SELECT e.id, e.manager_id FROM employee e JOIN t ON e.manager_id = t.id) SELECT * FROM t`,
	`WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a`,
	`WITH RECURSIVE payroll AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM payroll WHERE n < 3) SELECT * FROM payroll`,
	`WITH x AS MATERIALIZED (SELECT * FROM payroll) SELECT * FROM x`,
	`WITH x AS NOT MATERIALIZED (SELECT * FROM payroll) SELECT * FROM x WHERE id = 1`,
	`WITH d AS (DELETE FROM payroll WHERE id = 1 RETURNING *) SELECT * FROM d`,
	`WITH u AS (UPDATE expense SET status = 'x' WHERE id = 1 RETURNING id) INSERT INTO expense_audit (expense_id) SELECT id FROM u`,
	`WITH i AS (INSERT INTO employee (id) VALUES (1) RETURNING id) SELECT * FROM i, payroll`,
	`WITH x AS (SELECT * FROM payroll) SELECT * FROM expense WHERE id IN (SELECT id FROM x)`,
	`WITH x AS (SELECT 1) SELECT * FROM expense WHERE id IN (WITH y AS (SELECT id FROM payroll) SELECT id FROM y)`,
	`WITH RECURSIVE s AS (SELECT 1 AS id UNION ALL SELECT id + 1 FROM s WHERE id < 3) SEARCH DEPTH FIRST BY id SET ord SELECT * FROM s`,
	// DML
	`INSERT INTO expense_audit (expense_id, status) VALUES (1, 'approved')`,
	`INSERT INTO expense_audit (expense_id, status) SELECT id, status FROM expense`,
	`INSERT INTO expense_audit VALUES (1, 1, 'x', NULL)`,
	`INSERT INTO expense_audit (expense_id) SELECT id FROM payroll RETURNING *`,
	`INSERT INTO employee (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = excluded.name`,
	`INSERT INTO employee (id, name) VALUES (1, 'a') ON CONFLICT (id) DO UPDATE SET name = (SELECT employee FROM payroll LIMIT 1) WHERE employee.status <> 'x'`,
	`INSERT INTO employee (id) VALUES (1) ON CONFLICT DO NOTHING`,
	`INSERT INTO billing.invoice (id, total) VALUES (1, 2) RETURNING (SELECT max(salary) FROM payroll)`,
	`INSERT INTO measure (id, at, v) VALUES (1, '2024-02-02', 1)`,
	`INSERT INTO "MixedCase" ("Id") VALUES (1)`,
	`INSERT INTO employee (id) SELECT id FROM expense UNION SELECT id FROM payroll`,
	`INSERT INTO employee DEFAULT VALUES`,
	`UPDATE expense SET status = 'approved' WHERE id = 1`,
	`UPDATE expense e SET amount = p.salary FROM payroll p WHERE p.id = e.id`,
	`UPDATE expense SET amount = (SELECT max(total) FROM billing.invoice) WHERE id = 1`,
	`UPDATE expense SET (status, amount) = (SELECT status, total FROM billing.invoice LIMIT 1)`,
	`UPDATE expense SET status = 'x' WHERE id IN (SELECT id FROM payroll) RETURNING (SELECT name FROM employee LIMIT 1)`,
	`UPDATE billing.invoice SET total = 0 FROM expense e JOIN payroll p USING (id) WHERE e.id = invoice.expense_id`,
	`UPDATE ONLY expense SET note = NULL`,
	`DELETE FROM expense WHERE id = 1`,
	`DELETE FROM expense e USING payroll p WHERE p.id = e.id`,
	`DELETE FROM expense WHERE id IN (SELECT id FROM payroll) RETURNING *`,
	`DELETE FROM billing.expense RETURNING (SELECT count(*) FROM billing.invoice)`,
	`MERGE INTO expense e USING payroll p ON p.id = e.id WHEN MATCHED THEN UPDATE SET amount = p.salary WHEN NOT MATCHED THEN INSERT (id, amount) VALUES (p.id, p.salary)`,
	`MERGE INTO expense e USING (SELECT * FROM billing.invoice) i ON i.id = e.id WHEN MATCHED THEN DELETE`,
	`MERGE INTO expense e USING employee m ON m.id = e.id WHEN MATCHED AND EXISTS (SELECT 1 FROM payroll) THEN DO NOTHING`,
	`WITH src AS (SELECT * FROM payroll) MERGE INTO expense e USING src ON src.id = e.id WHEN NOT MATCHED THEN INSERT VALUES (src.id)`,
	// SELECT INTO and friends that write
	`SELECT * INTO newtable FROM payroll`,
	`CREATE TABLE t2 AS SELECT * FROM payroll`,
	// functions and volatility (relations only matter here)
	`SELECT nextval('seq1'), now(), random() FROM expense`,
	`SELECT * FROM expense WHERE amount > random()`,
	`SELECT CURRENT_TIMESTAMP, CURRENT_DATE, LOCALTIME FROM expense`,
	`SELECT pg_catalog.count(*) FROM expense`,
	// parameters
	`SELECT * FROM expense WHERE id = $1`,
	`UPDATE expense SET status = $2 WHERE id = $1`,
	`INSERT INTO expense_audit (expense_id, status) VALUES ($1, $2)`,
	`SELECT * FROM expense WHERE id = $1 AND EXISTS (SELECT 1 FROM payroll WHERE id = $1)`,
	// odd spellings
	`select ID from EXPENSE`,
	`SELECT/* c */ id FROM/* c */expense`,
	`SELECT id FROM "public"."expense"`,
	`SELECT "expense".id FROM expense`,
	`SELECT public.expense.id FROM public.expense`,
	`SELECT e.i, e.salary FROM expense AS e (i, s)`,
	`SELECT x.a FROM (SELECT salary AS a FROM payroll) x`,
	`SELECT a FROM (SELECT salary FROM payroll) x (a)`,
	`SELECT * FROM (SELECT * FROM (SELECT * FROM (SELECT * FROM payroll) a) b) c`,
	`SELECT * FROM expense e1 JOIN expense e2 ON e1.id = e2.owner_id JOIN expense e3 ON e3.id = e2.owner_id`,
	`SELECT * FROM expense WHERE false`,
	`SELECT * FROM expense LEFT JOIN payroll ON payroll.id = expense.id WHERE false`,
	`SELECT e.id FROM expense e LEFT JOIN employee m ON m.id = e.owner_id`,
	`SELECT 1 WHERE false AND EXISTS (SELECT 1 FROM payroll)`,
	`SELECT count(*) FROM measure WHERE at = '2030-01-01'`,
	// more expression positions
	`SELECT (TABLE payroll LIMIT 1)`,
	`SELECT * FROM (TABLE payroll) t`,
	`SELECT * FROM expense WHERE id = ANY (ARRAY(SELECT id FROM payroll))`,
	`SELECT 1 FROM expense JOIN LATERAL ROWS FROM (unnest((SELECT array_agg(id) FROM payroll))) r ON true`,
	`SELECT (SELECT payroll FROM payroll LIMIT 1)`,
	`INSERT INTO employee (id) OVERRIDING SYSTEM VALUE SELECT id FROM payroll`,
	`SELECT * FROM expense WHERE EXISTS (SELECT FROM payroll)`,
	`SELECT sum(id) OVER w FROM expense WINDOW w AS (ORDER BY (SELECT 1 FROM payroll LIMIT 1))`,
	`WITH RECURSIVE g(id, m) AS (SELECT id, manager_id FROM employee UNION ALL SELECT e.id, e.manager_id FROM employee e JOIN g ON e.id = g.m) CYCLE id SET is_cycle USING path SELECT * FROM g`,
	`SELECT * FROM expense WHERE id IN (VALUES ((SELECT 1 FROM payroll LIMIT 1)))`,
	`SELECT ARRAY[(SELECT 1 FROM payroll LIMIT 1)]`,
	`SELECT (SELECT employee FROM payroll LIMIT 1) COLLATE "C"`,
	`SELECT xmlserialize(content (SELECT xmlelement(name a) FROM payroll LIMIT 1) AS text)`,
	`SELECT * FROM expense FETCH FIRST (SELECT 1 FROM payroll LIMIT 1) ROWS ONLY`,
	`SELECT EXISTS (SELECT 1 FROM "billing".invoice)`,
	`SELECT 1 FROM expense e WHERE (e.id, e.amount) = (SELECT id, salary FROM payroll LIMIT 1)`,
	`SELECT nullif(1, (SELECT 1 FROM payroll LIMIT 1))`,
	`SELECT CAST((SELECT 1 FROM payroll LIMIT 1) AS text)`,
	`SELECT (SELECT 1 FROM payroll LIMIT 1) IS DISTINCT FROM 1`,
	`SELECT id FROM expense WHERE status SIMILAR TO (SELECT employee FROM payroll LIMIT 1)`,
	`SELECT 1 FROM expense WHERE id BETWEEN (SELECT 1 FROM payroll LIMIT 1) AND 3`,
	`SELECT string_agg(status, ',' ORDER BY (SELECT 1 FROM payroll LIMIT 1)) FROM expense`,
	`SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY (SELECT salary FROM payroll LIMIT 1)) FROM expense`,
	`SELECT * FROM expense WHERE id IN (SELECT id FROM payroll FOR UPDATE)`,
	`UPDATE expense SET amount = DEFAULT WHERE id = (SELECT 1 FROM payroll LIMIT 1)`,
	`INSERT INTO expense_audit (expense_id) VALUES (1), ((SELECT 2 FROM payroll LIMIT 1))`,
	`SELECT 1 FROM expense WHERE amount > SOME (SELECT salary FROM payroll)`,
	`SELECT (ARRAY(SELECT id FROM payroll))[1]`,
	`SELECT ((SELECT e FROM payroll e LIMIT 1)).salary`,
	`SELECT * FROM expense WHERE id IN (SELECT * FROM unnest(ARRAY(SELECT id FROM payroll)))`,
	`SELECT count(*) FROM expense GROUP BY CUBE (status, amount) HAVING max(id) > (SELECT 1 FROM payroll LIMIT 1)`,
	`MERGE INTO employee e USING expense x ON x.id = e.id WHEN NOT MATCHED THEN INSERT VALUES ((SELECT 1 FROM payroll LIMIT 1))`,
	`SELECT * FROM expense e WHERE e.amount > (WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r, payroll WHERE n < 2) SELECT max(n) FROM r)`,
	`SELECT (SELECT 1 FROM payroll LIMIT 1) + (SELECT 1 FROM billing.invoice LIMIT 1) * (SELECT 1 FROM "MixedCase" LIMIT 1)`,
	`SELECT 1 FROM expense e JOIN (payroll p JOIN billing.invoice i ON i.id = p.id) ON e.id = p.id`,
	`SELECT 1 FROM expense e JOIN (payroll p JOIN billing.invoice i USING (id)) j ON e.id = j.id`,
	`SELECT json_agg(x) FROM (SELECT * FROM payroll) x`,
	`SELECT * FROM expense WHERE id = (SELECT id FROM expense_audit WHERE expense_id = (SELECT id FROM payroll LIMIT 1) LIMIT 1)`,
	`SELECT 1 FROM expense WHERE note IS NOT DOCUMENT OR note ~ (SELECT employee FROM payroll LIMIT 1)`,
	`SELECT * FROM expense WHERE id = $1 AND amount > (SELECT salary FROM payroll WHERE id = $2)`,
}

// functionCorpus calls denied and volatile functions in every spelling, on
// columns so that the planner folds nothing: EXPLAIN VERBOSE shows each call.
var functionCorpus = []string{
	// Functions the DDL creates in SQL: what their bodies read counts at the call.
	`SELECT * FROM dws_payroll_rows()`,
	`SELECT id FROM expense WHERE owner_id IN (SELECT owner_id FROM dws_payroll_rows())`,
	`SELECT i.id FROM dws_open_invoices(10) AS i JOIN expense e ON e.id = i.expense_id`,
	`SELECT name FROM dws_staff()`,
	`SELECT count(*) FROM dws_nested()`,
	// Rules the DDL puts on a table: their actions run with the write.
	`UPDATE dws_ruled SET status = 'gone' WHERE id = 1`,
	`DELETE FROM dws_ruled2 WHERE total < 0`,
	`INSERT INTO dws_ruled (id, status) VALUES (1, 'new')`,
	`SELECT (status).upper, (note).md5 FROM expense`,
	`SELECT (note).ts_stat FROM expense`,
	`SELECT ((note).ts_stat).word FROM expense`,
	`SELECT (e.note).pg_read_file FROM expense e`,
	`SELECT (amount::float8).pg_sleep FROM expense`,
	`SELECT (note::regclass).nextval FROM expense`,
	`SELECT (note::regclass).pg_sequence_last_value FROM expense`,
	`SELECT (note::regclass).pg_relation_size FROM expense`,
	`SELECT (note).pg_stat_file FROM expense`,
	`SELECT (owner_id).pg_stat_get_activity FROM expense`,
	`SELECT (id).pg_stat_get_backend_pid FROM expense`,
	`SELECT e.row_to_json FROM expense e`,
	`SELECT (ARRAY[note])[1].pg_read_file FROM expense`,
	`SELECT (note).pg_read_file FROM expense, (SELECT 1 AS pg_read_file) note`,
	`SELECT * FROM pg_stat_get_activity(NULL)`,
	`SELECT name FROM pg_show_all_settings()`,
	`SELECT * FROM pg_hba_file_rules()`,
	`SELECT pg_sequence_last_value('seq1')`,
	`SELECT pg_stat_reset()`,
	`SELECT note::timestamptz FROM expense`,
	`SELECT ('n' || note)::timestamptz FROM expense`,
	`SELECT timestamptz(note), date(note) FROM expense`,
	`SELECT age(at) FROM expense_audit`,
	`SELECT age(at, at) FROM expense_audit`,
	`SELECT clock_timestamp(), statement_timestamp(), timeofday(), now() FROM expense`,
	`SELECT current_setting(note), set_config(note, note, true) FROM expense`,
	`SELECT query_to_xml(note, true, true, '') FROM expense`,
	`SELECT pg_catalog.random() + amount FROM expense`,
	`SELECT gen_random_uuid(), txid_current(), pg_backend_pid() FROM expense`,
	`UPDATE expense SET note = (note).pg_read_file WHERE id = 1`,
	`INSERT INTO expense_audit (expense_id, at) SELECT id, (amount::float8).pg_sleep::text::timestamptz FROM expense`,
}

// tableRefs are the ways of naming a relation that the generator combines.
var tableRefs = []string{
	`expense`, `public.expense`, `"expense"`, `PUBLIC.EXPENSE`, `"public"."expense"`,
	`billing.invoice`, `BILLING.Invoice`, `billing.expense`, `"billing"."expense"`,
	`"MixedCase"`, `public."MixedCase"`, `mixedcase`, `MixedCase`,
	`payroll`, `employee`, `measure`, `expense_view`,
	`pg_class`, `pg_catalog.pg_namespace`, `information_schema.schemata`,
}

// positions put one relation reference (%[1]s) into every clause a relation
// can hide in.
var positions = []string{
	`SELECT 1 FROM %[1]s t`,
	`SELECT 1 FROM %[1]s`,
	`SELECT (SELECT count(*) FROM %[1]s)`,
	`SELECT 1 WHERE EXISTS (SELECT 1 FROM %[1]s)`,
	`SELECT 1 FROM employee e JOIN %[1]s t ON true`,
	`SELECT 1 FROM employee e LEFT JOIN LATERAL (SELECT 1 AS x FROM %[1]s t LIMIT 1) l ON true`,
	`WITH c AS (SELECT 1 AS x FROM %[1]s) SELECT * FROM c`,
	`SELECT 1 UNION ALL SELECT 1 FROM %[1]s`,
	`SELECT 1 INTERSECT SELECT 1 FROM %[1]s`,
	`SELECT count(*) FROM employee GROUP BY status HAVING count(*) > (SELECT count(*) FROM %[1]s)`,
	`SELECT id FROM employee ORDER BY (SELECT count(*) FROM %[1]s)`,
	`SELECT coalesce((SELECT 1 FROM %[1]s LIMIT 1), 0)`,
	`SELECT CASE WHEN (SELECT count(*) FROM %[1]s) > 0 THEN 1 END`,
	`VALUES ((SELECT count(*) FROM %[1]s))`,
	`INSERT INTO expense_audit (expense_id) SELECT 1 FROM %[1]s`,
	`UPDATE employee SET status = 'x' FROM %[1]s t`,
	`DELETE FROM employee USING %[1]s t`,
	`UPDATE employee SET status = (SELECT 'x' FROM %[1]s LIMIT 1)`,
	`DELETE FROM employee WHERE id IN (SELECT 1 FROM %[1]s)`,
	`INSERT INTO employee (id) VALUES ((SELECT 1 FROM %[1]s LIMIT 1))`,
	`INSERT INTO employee (id) VALUES (1) RETURNING (SELECT count(*) FROM %[1]s)`,
	`SELECT 1 FROM (SELECT 1 FROM (SELECT 1 FROM %[1]s) a) b`,
	`SELECT 1 FROM employee e WHERE e.id = ANY (SELECT 1 FROM %[1]s)`,
	`SELECT array(SELECT 1 FROM %[1]s)`,
	`SELECT (SELECT (SELECT count(*) FROM %[1]s))`,
	`WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < (SELECT count(*) FROM %[1]s)) SELECT * FROM r`,
	`MERGE INTO employee e USING %[1]s t ON true WHEN MATCHED THEN DO NOTHING`,
	`WITH d AS (DELETE FROM employee RETURNING id) SELECT 1 FROM %[1]s, d`,
	`INSERT INTO employee (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET status = (SELECT 'x' FROM %[1]s LIMIT 1)`,
	`SELECT sum(id) FILTER (WHERE EXISTS (SELECT 1 FROM %[1]s)) FROM employee`,
	`SELECT 1 FROM generate_series(1, (SELECT count(*) FROM %[1]s)::int) g`,
	`TABLE %[1]s`,
	`SELECT 1 FROM employee e WHERE NOT EXISTS (SELECT 1 FROM %[1]s t WHERE e.id IS NULL)`,
	`SELECT 1 FROM employee LIMIT (SELECT count(*) FROM %[1]s)`,
	`SELECT row_number() OVER (ORDER BY (SELECT count(*) FROM %[1]s)) FROM employee`,
	`SELECT * FROM employee e, LATERAL (SELECT count(*) FROM %[1]s t) l`,
	`WITH a AS (SELECT 1 AS x), b AS (SELECT count(*) FROM %[1]s, a) SELECT * FROM b`,
	`SELECT 1 FROM employee WHERE status IN (SELECT 'x' FROM %[1]s) OR id > 2`,
}

// shadowNames are CTE names that shadow, or fail to shadow, real tables.
var shadowNames = []string{`payroll`, `expense`, `"expense"`, `billing`, `invoice`}

func generatedCorpus() []string {
	var out []string
	for _, p := range positions {
		for _, r := range tableRefs {
			out = append(out, fmt.Sprintf(p, r))
		}
	}
	// CTE shadowing × qualification × nesting
	for _, name := range shadowNames {
		for _, r := range []string{`payroll`, `public.payroll`, `billing.invoice`, `expense`, `public.expense`, `"expense"`} {
			out = append(out,
				fmt.Sprintf(`WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT * FROM %[1]s`, name, r),
				fmt.Sprintf(`WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT (SELECT count(*) FROM %[1]s)`, name, r),
				fmt.Sprintf(`WITH a AS (SELECT 1 AS x FROM %[1]s), %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT * FROM a, %[1]s`, name, r),
				fmt.Sprintf(`SELECT (WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT count(*) FROM %[1]s), (SELECT count(*) FROM %[1]s)`, name, r),
				fmt.Sprintf(`WITH RECURSIVE %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT * FROM %[1]s`, name, r),
				fmt.Sprintf(`WITH c AS (WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT * FROM %[1]s) SELECT * FROM c, %[1]s`, name, r),
				fmt.Sprintf(`UPDATE employee SET status = 'x' WHERE id IN (WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) SELECT x FROM %[1]s)`, name, r),
				fmt.Sprintf(`WITH %[1]s AS (SELECT 1 AS x FROM %[2]s) INSERT INTO expense_audit (expense_id) SELECT x FROM %[1]s`, name, r),
			)
		}
	}
	// nesting depth × statement kind
	kinds := []string{
		`SELECT 1 WHERE EXISTS (%s)`,
		`UPDATE employee SET status = 'x' WHERE EXISTS (%s)`,
		`DELETE FROM employee WHERE EXISTS (%s)`,
		`INSERT INTO employee (id) SELECT 1 WHERE EXISTS (%s)`,
	}
	for _, k := range kinds {
		for depth := 1; depth <= 4; depth++ {
			for _, r := range []string{`payroll`, `billing.invoice`, `"MixedCase"`} {
				inner := fmt.Sprintf(`SELECT 1 FROM %s`, r)
				for d := 1; d < depth; d++ {
					inner = fmt.Sprintf(`SELECT 1 FROM (%s) s%d`, inner, d)
				}
				out = append(out, fmt.Sprintf(k, inner))
			}
		}
	}
	return out
}

func fullCorpus() []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append(append([]string(nil), handCorpus...), functionCorpus...), generatedCorpus()...) {
		s = strings.TrimSpace(s)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// TestParseSameTree: the parser dws uses (internal/pgparse) builds pg_query_go's tree
// from every statement of the corpora.
func TestParseSameTree(t *testing.T) {
	texts := append(fullCorpus(), testDDL)
	for _, s := range texts {
		wantTree, werr := pg.Parse(s)
		gotTree, gerr := pgparse.Parse(s)
		if (werr == nil) != (gerr == nil) || werr == nil && !proto.Equal(wantTree, gotTree) {
			t.Errorf("%q: pgparse's tree is not pg_query_go's (%v, %v)", s, gerr, werr)
		}
	}
	if len(texts) < 500 {
		t.Fatalf("only %d texts: the corpus went missing", len(texts))
	}
}
