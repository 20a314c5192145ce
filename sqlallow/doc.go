// Package sqlallow checks one SQL statement against an allow-list: which
// relations, columns and functions it touches, and whether each is permitted.
//
// It parses with PostgreSQL's own parser (pg_query_go) and walks the whole
// tree: a typed walk for the nodes that carry meaning (relations, column
// references, functions, the scope of CTEs and query levels) falls back to a
// generic walk over every message field, so a node type this package does not
// know is still searched for relations, columns and functions (fail closed). A
// handler that reads a node's fields itself names the fields it takes, with
// constants generated from pg_query_go's types (walk_gen.go), and every field it
// does not name is walked generically: a field a newer pg_query_go adds is
// searched too, and one it removes or renames no longer compiles.
//
// It knows nothing about files, dialects or how diagnostics are printed: a
// caller gets Findings with byte offsets into the text it passed in.
//
// Decisions where PostgreSQL leaves room:
//   - An unqualified allow key ("expense") names the relation in the first
//     search_path schema. An unqualified reference resolves to the first
//     search_path schema that the DDL defines it in (without DDL: the first
//     schema). A reference whose unqualified name starts with "pg_" resolves to
//     pg_catalog, as PostgreSQL searches pg_catalog before search_path; such a
//     relation is allowed only when listed as pg_catalog.NAME.
//   - Policy.DDL allows each table it creates with exactly its columns. A table
//     the DDL does not qualify is in the first search_path schema, like an
//     unqualified allow key; names are compared normalised, and an Allow entry
//     for the same table replaces the DDL's grant (it never adds to it).
//   - Statement kinds (Policy.Statements) are lower case: select, insert,
//     update, delete, merge, "select into" (SELECT … INTO creates a table), and
//     for anything else the command name ("copy", "do", "call", "set",
//     "create table", "drop", "explain", "lock", …; see Kind). A data-modifying
//     statement inside a CTE must be an allowed kind too.
//   - The relation a statement creates (SELECT … INTO, CREATE TABLE [AS], CREATE
//     [MATERIALIZED] VIEW, CREATE SEQUENCE) is not one it reads or writes, so it is
//     never a Table finding: whether a step may create relations at all is the
//     statement kind's, one fact with one finding. Everything such a statement
//     reads (its query, INHERITS parents) is checked as usual.
//   - Likewise the procedure a CALL names is the statement: when the policy
//     refuses CALL, that is the one finding, and the procedure is not also a
//     Function finding (its arguments are checked as usual). When CALL is
//     allowed, the procedure gets every function rule.
//   - System columns (ctid, xmin, …) are columns like any other: granted by
//     "*" or by name.
//   - A function that is neither a built-in nor allowed by Policy.Functions is
//     seen through its body when Policy.DDL creates it: a LANGUAGE sql function's
//     statements (quoted or BEGIN ATOMIC), and a PL/pgSQL function's static SQL as
//     pg_query's PL/pgSQL parser gives it (its relations and calls; its variables
//     read as columns, so its columns are not judged), are checked as if written at
//     the call, and each finding is reported at the call, naming the function and
//     its DDL line; a function that calls itself is checked once. So are a
//     prepared statement the DDL PREPAREs (at EXECUTE), a view's query, a rule's
//     actions and a policy's expressions. A PL/pgSQL function that runs SQL from
//     a string, a function in another language, and one the DDL does not create
//     are refused; a function Policy.Functions allows is trusted unread. The
//     deny-list is the control for built-ins.
//   - Which built-in functions exist, which are volatile and which are denied
//     comes from PostgreSQL's own catalog, embedded (catalog_*.tsv, written by
//     `go generate` from a real server; see internal/pgcatalog). A call is
//     matched by name and number of arguments, not types: when overloads of one
//     arity disagree, the worst counts. An unqualified name is a built-in when
//     pg_catalog has it (PostgreSQL searches pg_catalog first); a function that
//     shadows a built-in from another schema is not seen.
//   - PostgreSQL reads (value).name as the call name(value) unless value is a row
//     with a field name, and t.name as name(t) unless the FROM item t has a
//     column name; neither is a function call in the parse tree. dws knows a
//     value is a row from its type (casts, the DDL's column and composite types,
//     ROW(…), a built-in's OUT parameters, a FROM item's columns) and applies the
//     function rules to everything else. When it cannot tell a field from a
//     function that is not a built-in, it reports it; a table whose columns it
//     does not know is assumed to have the column unless the name is a denied
//     function or a built-in that takes a row.
//   - A function that is neither a built-in nor created in Policy.DDL may be
//     volatile and is reported as nondeterministic; the DDL's declared volatility
//     (IMMUTABLE, STABLE, default VOLATILE) is trusted.
//   - A string literal that reads as a date/time input holding 'now', 'today',
//     'tomorrow' or 'yesterday' is reported wherever it stands, since an untyped
//     literal becomes a date wherever one is expected; a cast to text says it is
//     text. Text the statement computes and casts to a date/time type is reported
//     too; a parameter is the caller's value, and a column is data.
package sqlallow
