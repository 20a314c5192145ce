package sqlallow

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/dwsdev/dws/internal/scratchpg"
)

// cluster is the scratch PostgreSQL server of the server-backed tests.
type cluster struct{ *scratchpg.Cluster }

var server = scratchpg.NewShared(func(c *scratchpg.Cluster) error {
	if _, _, err := c.Psql("postgres", "CREATE DATABASE dws"); err != nil {
		return err
	}
	if _, stderr, err := c.Psql("dws", testDDL); err != nil || bytes.Contains(stderr, []byte("ERROR")) {
		return fmt.Errorf("creating test tables: %w %s", err, stderr)
	}
	return nil
})

func TestMain(m *testing.M) { server.Main(m) }

// startCluster returns the scratch cluster; the test fails without it, never skips.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	return &cluster{server.Get(t)}
}

// psql runs a script in one psql process and returns stdout and stderr.
func (c *cluster) psql(db, script string) ([]byte, []byte, error) {
	return c.Psql(db, script)
}

// testDDL is the scratch database: tables in public and billing, a quoted
// mixed-case table beside its folded twin, a table name in two schemas,
// shared column names, a partitioned table and a view.
const testDDL = `
CREATE SCHEMA billing;
CREATE TABLE expense (id int PRIMARY KEY, status text, amount numeric, salary numeric, owner_id int, note text);
CREATE TABLE expense_audit (id serial PRIMARY KEY, expense_id int, status text, at timestamptz);
CREATE TABLE payroll (id int PRIMARY KEY, employee text, salary numeric, owner_id int);
CREATE TABLE employee (id int PRIMARY KEY, name text, manager_id int, status text);
CREATE TABLE billing.invoice (id int PRIMARY KEY, total numeric, expense_id int, status text);
CREATE TABLE billing.expense (id int PRIMARY KEY, amount numeric);
CREATE TABLE "MixedCase" ("Id" int, "Value" text, id int);
CREATE TABLE mixedcase (id int, value text);
CREATE TABLE invoice (id int, total numeric);
CREATE TABLE measure (id int, at date, v numeric) PARTITION BY RANGE (at);
CREATE TABLE measure_2024 PARTITION OF measure FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
CREATE TABLE measure_2025 PARTITION OF measure FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
CREATE VIEW expense_view AS SELECT id, status FROM expense;
CREATE SEQUENCE seq1;
-- SQL functions PostgreSQL inlines into the calling statement's plan, so the plan shows
-- the relations their bodies read: the differential test holds dws to them.
CREATE FUNCTION dws_payroll_rows() RETURNS SETOF payroll STABLE LANGUAGE sql AS 'SELECT * FROM payroll';
CREATE FUNCTION dws_open_invoices(min numeric) RETURNS SETOF billing.invoice STABLE LANGUAGE sql
  AS $$ SELECT * FROM billing.invoice WHERE total > min AND status = 'open' $$;
CREATE FUNCTION dws_staff() RETURNS SETOF employee STABLE LANGUAGE sql
BEGIN ATOMIC
  SELECT * FROM employee WHERE status = 'active';
END;
CREATE FUNCTION dws_nested() RETURNS SETOF payroll STABLE LANGUAGE sql AS 'SELECT * FROM dws_payroll_rows()';
-- A rule runs its actions with every write it fires on: the plan shows them.
-- (On tables of their own: the corpus's writes in WITH clauses cannot have rules.)
CREATE TABLE dws_changes (id int, at text);
CREATE TABLE dws_ruled (id int, status text);
CREATE TABLE dws_ruled2 (id int, total numeric);
CREATE RULE dws_log_update AS ON UPDATE TO dws_ruled DO ALSO INSERT INTO dws_changes (id, at) VALUES (new.id, 'update');
CREATE RULE dws_log_delete AS ON DELETE TO dws_ruled2 DO ALSO INSERT INTO dws_changes (id, at) VALUES (old.id, 'delete');
`
