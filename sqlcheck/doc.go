// Package sqlcheck is the SQL stage of dws validate (SPEC §3 stage 7, §4.3, §6) for
// every dialect whose documents hold SQL: it owns the sql: section of .dws.yaml (Parse),
// the SQL rules (Rules: sql-syntax, sql-statement, sql-table, sql-column, sql-function,
// sql-nondeterministic, sql-args and branch-expression) and the check that runs them
// over the SQL sites a dialect lists (Check). Package sqlallow does the checking of one
// statement; this package adds where the statements are, the policy the config sets,
// and placing each finding on the characters of the JSON or YAML string.
//
// It knows no dialect and no file format: a dialect hands lint its documents' sites
// (lint.Dialect.SQLSites), and lint registers the rules and the section and runs Check
// for every dialect that has sites. What a site means at run time (which step runs it,
// where its arguments come from) is the dialect's.
//
// Decisions where the spec is silent:
//   - The SQL rules and the sql: section exist in a registry only when one of its
//     dialects has SQL sites: a binary whose dialects hold no SQL knows no SQL rules,
//     and a sql: section is then an unknown key.
//   - A SQL rule belongs to the dialects that have SQL sites: dws rules and dws explain
//     name them, comma-separated in detection order ("cortex" today).
//   - The rules' documented examples are written by the first dialect, in detection
//     order, that can write one (lint.Dialect.SQLExample).
//   - Without a sql: section nothing is allowed; a table finding then says so.
package sqlcheck
