package cortex

import "github.com/dwsdev/dws/lint"

// The sql-* rules (SPEC §4.3) and branch-expression: every sql step's statement and
// every branch step's expression go through PostgreSQL's own parser and the allow-list
// of the sql: section of .dws.yaml. Without a sql: section nothing is allowed.

const sqlConfig = "sql: { allow: { expense: [id, status, amount], expense_audit: \"*\" } }\n"

func sqlExample(name, statement string) lint.Example {
	return lint.Example{Name: name, Config: sqlConfig, Text: `{
  "schemaVersion": "1.0", "name": "sql-example", "version": "v1.0",
  "steps": [
    { "id": "update", "type": "sql", "params": { "statement": "` + statement + `", "args": ["approved"] } }
  ]
}
`}
}

func branchExample(name, expression string) lint.Example {
	return lint.Example{Name: name, Config: sqlConfig, Text: `{
  "schemaVersion": "1.0", "name": "branch-example", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": "` + expression + `" } }
  ]
}
`}
}

const passStatement = "UPDATE expense SET status = $1 WHERE id = {{expenseId}}"

var sqlRules = []lint.Rule{
	{
		ID: "sql-syntax", Severity: lint.Error, Dialect: ID,
		Summary: "PostgreSQL's parser rejects the statement",
		Doc: `Statements are parsed by PostgreSQL's own parser (libpg_query), so what dws accepts is
what the database accepts. The finding points at the character the parser stopped at,
inside the JSON or YAML string. {{name}} placeholders are replaced by parameters of the same
length first, so positions stay true. A "{{" that does not open a {{name}} placeholder (a
name, dots between path parts, spaces around) is refused where it starts: the template
engine may replace it whatever it holds, so PostgreSQL would run other text than dws checked.`,
		Fail: sqlExample("syntax.json", "UPDATE expense SET status = $1 WHER id = {{expenseId}}"),
		Pass: sqlExample("syntax.json", passStatement),
	},
	{
		ID: "sql-statement", Severity: lint.Error, Dialect: ID,
		Summary: "not exactly one statement, or a statement kind outside sql.statements",
		Doc: `A sql step runs exactly one statement, and only of the kinds sql.statements allows
(default: select, insert, update, delete). A second statement after a semicolon, DDL, COPY,
DO blocks, SET and the like are refused: they are where injection and privilege surprises live.`,
		Fail: sqlExample("two.json", "UPDATE expense SET status = $1; DROP TABLE expense"),
		Pass: sqlExample("two.json", passStatement),
	},
	{
		ID: "sql-table", Severity: lint.Error, Dialect: ID, Inline: lint.InlineIfConfigured,
		Summary: "the statement reads or writes a relation not on the allow-list",
		Doc: `Every relation a statement touches counts: FROM and JOIN items, subqueries at any depth,
INSERT/UPDATE/DELETE/MERGE targets, USING, RETURNING, CTE bodies, LATERAL, set operations,
SELECT INTO and table functions. A CTE's own name is not a table. Names follow PostgreSQL's
rules: unquoted names fold to lower case, unqualified ones resolve through sql.search_path.
What a function does counts too: a call of a LANGUAGE sql function that sql.from_ddl creates
(its body quoted or BEGIN ATOMIC) touches every relation its body touches, through the
functions it calls in turn, and the finding is at the call, naming the function and its line
in the DDL. So is EXECUTE of a statement the DDL PREPAREs. A view the DDL defines reads its
base relations, which are checked whether or not the allow-list names the view; the actions of
a DDL rule on a table count for every write the rule fires on, and the USING and WITH CHECK
expressions of a DDL policy for every statement that touches its table.`,
		Fail: sqlExample("payroll.json", "UPDATE expense SET status = $1 WHERE id IN (SELECT expense_id FROM payroll)"),
		Pass: sqlExample("payroll.json", "UPDATE expense SET status = $1 WHERE id IN (SELECT id FROM expense_audit)"),
	},
	{
		ID: "sql-column", Severity: lint.Error, Dialect: ID, Inline: lint.InlineIfConfigured,
		Summary: "the statement uses a column the allow-list does not grant on an allowed table",
		Doc: `Columns are resolved as PostgreSQL resolves them: through aliases, subquery and CTE output
names, USING and NATURAL joins. A * over a table granted column by column counts as every
column. An unqualified column that more than one table could supply passes only if every
candidate grants it; qualify it to say which one you mean.`,
		Fail: sqlExample("column.json", "UPDATE expense SET status = $1, approver = 'x' WHERE id = {{expenseId}}"),
		Pass: sqlExample("column.json", passStatement),
	},
	{
		ID: "sql-function", Severity: lint.Error, Dialect: ID, Inline: lint.InlineIfConfigured,
		Summary: "the statement calls a function on the deny-list, or one that is no built-in and not allowed",
		Doc: `Any function that is not one of PostgreSQL's built-ins can read or write any table, so a
call of one is refused unless sql.functions allows it (names, optionally schema-qualified;
"*" allows every such function) or sql.from_ddl creates it in LANGUAGE sql, whose body dws
then checks as if written at the call (sql-table, sql-column). A PL/pgSQL function's static
SQL is checked the same way (its relations and calls), as pg_query's PL/pgSQL parser gives it;
one that runs SQL from a string (EXECUTE), or is written in another language (C), needs a
sql.functions entry. What is built in is PostgreSQL
15's pg_catalog, by name and number of arguments, embedded in dws.

Some built-in functions reach outside the allowed tables or the statement itself. The
built-in deny-list is derived from PostgreSQL's own catalog (embedded in dws, from PostgreSQL
15): functions only superusers may run (pg_read_file, pg_ls_dir, …), the functions behind the
system views that the allow-list refuses as tables (pg_stat_get_activity, pg_show_all_settings,
…), statistics and control functions, functions that read a relation or catalog object named
by an argument (pg_relation_size, pg_sequence_last_value, …), type input functions, volatile
functions that act on the server, sessions, locks or files (pg_sleep, pg_advisory_lock, …),
settings (current_setting) and functions that run SQL given as text (query_to_xml, ts_stat).
The message says which. Extensions that reach outside (dblink, pageinspect) are denied by name,
and so is any pg_ name that is not a built-in; sql.deny_functions adds more. Every spelling of
a call counts: PostgreSQL reads (value).name as name(value) unless value is a row with that
field, and t.name as name(t) unless t has that column, so ('/etc/passwd'::text).pg_read_file
is a call of pg_read_file. A field selection that dws cannot tell from a call of a function
that is not built in is refused unless sql.from_ddl gives the value's type.`,
		Fail: sqlExample("sleep.json", "UPDATE expense SET status = $1 WHERE id = {{expenseId}} AND pg_sleep(10) IS NOT NULL"),
		Pass: sqlExample("sleep.json", passStatement),
	},
	{
		ID: "sql-nondeterministic", Severity: lint.Error, Dialect: ID,
		Summary: "the statement calls a volatile function instead of taking the value as an arg",
		Doc: `A Cortex sql step must be deterministic so that a retry repeats exactly the same change:
now(), random(), CURRENT_TIMESTAMP, gen_random_uuid(), nextval() and friends give a different
value on every run. Compute the value once and pass it in args. What is volatile comes from
PostgreSQL's own catalog (provolatile), plus the stable functions that read the clock, the
transaction or the backend (now(), age(ts), pg_backend_pid(), …). A function that is not a
built-in may be volatile: declare it IMMUTABLE or STABLE in the sql.from_ddl script to use it.
Date/time input reads 'now', 'today', 'tomorrow' and 'yesterday' when the statement runs, so
those literals are refused wherever a date or time can be read (cast them to text if they are
text), and so is text the statement computes and casts to a date/time type.`,
		Fail: sqlExample("now.json", "UPDATE expense SET status = $1, amount = amount WHERE id = {{expenseId}} AND now() > '2025-01-01'"),
		Pass: sqlExample("now.json", passStatement),
	},
	{
		ID: "sql-args", Severity: lint.Error, Dialect: ID,
		Summary: "a $N placeholder has no entry in args, or an arg is never used",
		Doc: `Positional parameters $1, $2, … are bound from the step's args array. A $N beyond the end
of args fails at run time; an arg no $N uses is usually a sign the statement and its args
drifted apart. {{name}} placeholders are template variables and do not count.`,
		Fail: sqlExample("args.json", "UPDATE expense SET status = $1 WHERE id = $2"),
		Pass: sqlExample("args.json", passStatement),
	},
	{
		ID: "branch-expression", Severity: lint.Error, Dialect: ID,
		Summary: "a branch expression is not one SQL boolean expression, or reads a table",
		Doc: `A branch step's expression is evaluated as SELECT (<expression>) over the run's
variables: it must be exactly one boolean expression of {{variables}} and constants. A
second statement smuggled in after a parenthesis, a FROM, or a subquery that reads a table
is refused, since branches must be pure functions of workflow state.`,
		Fail: branchExample("branch.json", "{{amount}} <= (SELECT max(amount) FROM expense)"),
		Pass: branchExample("branch.json", "{{fraudScore}} < 0.7 AND {{amount}} <= 1000"),
	},
}

// branchSimExample is a Cortex definition whose one branch step has the given
// expression, for the simulation rules' examples.
func branchSimExample(expression string) lint.Example {
	return lint.Example{Name: "branch.json", Config: sqlConfig, Text: `{
  "schemaVersion": "1.0", "name": "branch-sim", "version": "v1.0",
  "steps": [
    { "id": "check", "type": "branch", "params": { "expression": "` + expression + `" }, "onSuccess": "go-on", "onFailure": "stop-here" },
    { "id": "go-on", "type": "sleep", "params": { "seconds": 1 } },
    { "id": "stop-here", "type": "sleep", "params": { "seconds": 1 } }
  ]
}
`}
}

var simRules = []lint.Rule{
	{
		ID: "sim-constant-branch", Severity: lint.Warning, Dialect: ID, Sim: true,
		Summary: "a branch expression is true for every context, or for none",
		Doc: `dws simulate evaluates each branch expression with PostgreSQL's semantics. When no context
can make it true (or none can make it false or NULL), one of the branch's edges is dead and
the steps behind it never run. NULL counts: {{x}} > 5 OR {{x}} <= 5 is not constant, since a
missing x makes it NULL, which a branch treats as false. The finding is certain only when
every comparison is between one variable and constants, so that trying one value in every
region those constants make is a proof; a variable an ai step outputs is bounded by its
output schema. Reported once per branch step.`,
		Fail: branchSimExample(`{{x}} IS NULL OR {{x}} IS NOT NULL`),
		Pass: branchSimExample(`{{x}} > 5 OR {{x}} <= 5`),
	},
	{
		ID: "sim-branch-error", Severity: lint.Warning, Dialect: ID, Sim: true,
		Summary: "some context makes a branch expression raise an error",
		Doc: `A branch expression that raises an error (division by zero, a text value that is not a
number) sends the run along onFailure as if it were false, and the error is easy to miss.
dws simulate searches the values around the expression's constants for one that raises an
error, and names it. Guard the expression (NULLIF(x, 0), a CASE) or make sure the value
cannot occur.`,
		Fail: branchSimExample(`100 / {{count}} > 1`),
		Pass: branchSimExample(`100 / NULLIF({{count}}, 0) > 1`),
	},
	{
		ID: "sim-unsupported", Severity: lint.Info, Dialect: ID, Sim: true,
		Summary: "a branch expression uses something the simulator cannot evaluate",
		Doc: `The simulator evaluates the operators and functions that
docs/simulation.md#branch-expressions lists exactly as PostgreSQL does; anything else (other
functions, regular expressions, arrays, dates) it cannot, so it treats the branch as a free
choice: both edges are counted and covered, and no witness context or constant-branch
finding is given for it. Rewrite the expression with the supported
operators if you want it checked.`,
		Fail: branchSimExample(`position('a' in {{name}}) > 0`),
		Pass: branchSimExample(`{{name}} LIKE '%a%'`),
	},
}
