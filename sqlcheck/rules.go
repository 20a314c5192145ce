package sqlcheck

// Rule is the documentation of one SQL rule. lint registers the SQL rules, as errors by
// default, when a dialect's documents hold SQL, and runs Check for them.
type Rule struct {
	ID      string
	Summary string
	// Doc is the explanation: why the rule exists and what to do about a finding.
	Doc string
	// Security marks a rule that guards the database: an inline dws:ignore waives it
	// only when .dws.yaml allows inline security waivers.
	Security bool
	// Fail and Pass are the SQL of the rule's documented examples, which a dialect with
	// SQL writes a document around; each is validated with ExampleConfig.
	Fail, Pass Example
}

// Example is the SQL of one documented example.
type Example struct {
	// Name is the example file's name without its extension.
	Name string
	// SQL is a statement binding one argument ($1), or a boolean expression.
	SQL        string
	Expression bool
}

// ExampleConfig is the .dws.yaml the SQL rules' examples are validated with.
const ExampleConfig = "sql: { allow: { expense: [id, status, amount], expense_audit: \"*\" } }\n"

const passStatement = "UPDATE expense SET status = $1 WHERE id = {{expenseId}}"

// Rules are the SQL rules (SPEC §4.3): every statement and expression a document holds
// goes through PostgreSQL's own parser and the allow-list of the sql: section of
// .dws.yaml. Without a sql: section nothing is allowed.
var Rules = []Rule{
	{
		ID:      "sql-syntax",
		Summary: "PostgreSQL's parser rejects the statement",
		Doc: `Statements are parsed by PostgreSQL's own parser (libpg_query), so what dws accepts is
what the database accepts. The finding points at the character the parser stopped at,
inside the JSON or YAML string. {{name}} placeholders are replaced by parameters of the same
length first, so positions stay true. A "{{" that does not open a {{name}} placeholder (a
name, dots between path parts, spaces around) is refused where it starts: the template
engine may replace it whatever it holds, so PostgreSQL would run other text than dws checked.`,
		Fail: Example{Name: "syntax", SQL: "UPDATE expense SET status = $1 WHER id = {{expenseId}}"},
		Pass: Example{Name: "syntax", SQL: passStatement},
	},
	{
		ID:      "sql-statement",
		Summary: "not exactly one statement, or a statement kind outside sql.statements",
		Doc: `Each SQL statement a definition holds must be exactly one, of a kind sql.statements allows
(default: select, insert, update, delete). A second statement after a semicolon, DDL, COPY,
DO blocks, SET and the like are refused: they are where injection and privilege surprises live.`,
		Fail: Example{Name: "two", SQL: "UPDATE expense SET status = $1; DROP TABLE expense"},
		Pass: Example{Name: "two", SQL: passStatement},
	},
	{
		ID: "sql-table", Security: true,
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
		Fail: Example{Name: "payroll", SQL: "UPDATE expense SET status = $1 WHERE id IN (SELECT expense_id FROM payroll)"},
		Pass: Example{Name: "payroll", SQL: "UPDATE expense SET status = $1 WHERE id IN (SELECT id FROM expense_audit)"},
	},
	{
		ID: "sql-column", Security: true,
		Summary: "the statement uses a column the allow-list does not grant on an allowed table",
		Doc: `Columns are resolved as PostgreSQL resolves them: through aliases, subquery and CTE output
names, USING and NATURAL joins. A * over a table granted column by column counts as every
column. An unqualified column that more than one table could supply passes only if every
candidate grants it; qualify it to say which one you mean.`,
		Fail: Example{Name: "column", SQL: "UPDATE expense SET status = $1, approver = 'x' WHERE id = {{expenseId}}"},
		Pass: Example{Name: "column", SQL: passStatement},
	},
	{
		ID: "sql-function", Security: true,
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
		Fail: Example{Name: "sleep", SQL: "UPDATE expense SET status = $1 WHERE id = {{expenseId}} AND pg_sleep(10) IS NOT NULL"},
		Pass: Example{Name: "sleep", SQL: passStatement},
	},
	{
		ID:      "sql-nondeterministic",
		Summary: "the statement calls a volatile function instead of taking the value as an arg",
		Doc: `A statement must be deterministic so that a retry repeats exactly the same change:
now(), random(), CURRENT_TIMESTAMP, gen_random_uuid(), nextval() and friends give a different
value on every run. Compute the value once and pass it in args. What is volatile comes from
PostgreSQL's own catalog (provolatile), plus the stable functions that read the clock, the
transaction or the backend (now(), age(ts), pg_backend_pid(), …). A function that is not a
built-in may be volatile: declare it IMMUTABLE or STABLE in the sql.from_ddl script to use it.
Date/time input reads 'now', 'today', 'tomorrow' and 'yesterday' when the statement runs, so
those literals are refused wherever a date or time can be read (cast them to text if they are
text), and so is text the statement computes and casts to a date/time type.`,
		Fail: Example{Name: "now", SQL: "UPDATE expense SET status = $1, amount = amount WHERE id = {{expenseId}} AND now() > '2025-01-01'"},
		Pass: Example{Name: "now", SQL: passStatement},
	},
	{
		ID:      "sql-args",
		Summary: "a $N placeholder has no entry in args, or an arg is never used",
		Doc: `Positional parameters $1, $2, … are bound from the arguments the definition gives the
statement (its args). A $N beyond the end of args fails at run time; an arg no $N uses is
usually a sign the statement and its args drifted apart. {{name}} placeholders are template
variables and do not count.`,
		Fail: Example{Name: "args", SQL: "UPDATE expense SET status = $1 WHERE id = $2"},
		Pass: Example{Name: "args", SQL: passStatement},
	},
	{
		ID:      "branch-expression",
		Summary: "a branch expression is not one SQL boolean expression, or reads a table",
		Doc: `A branch expression (a condition a definition holds) is evaluated as
SELECT (<expression>) over the run's variables: it must be exactly one boolean expression of
{{variables}} and constants. A second statement smuggled in after a parenthesis, a FROM, or
a subquery that reads a table is refused, since branches must be pure functions of workflow
state.`,
		Fail: Example{Name: "branch", Expression: true, SQL: "{{amount}} <= (SELECT max(amount) FROM expense)"},
		Pass: Example{Name: "branch", Expression: true, SQL: "{{fraudScore}} < 0.7 AND {{amount}} <= 1000"},
	},
}
