package pgeval

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/dwsdev/dws/internal/scratchpg"
)

// server is the scratch PostgreSQL server of the differential test.
var server = scratchpg.NewShared(func(c *scratchpg.Cluster) error {
	if _, _, err := c.Psql("postgres", "CREATE DATABASE dws"); err != nil {
		return err
	}
	if _, stderr, err := c.Psql("dws", evalFunction); err != nil || bytes.Contains(stderr, []byte("ERROR")) {
		return fmt.Errorf("creating ev(): %w %s", err, stderr)
	}
	return nil
})

func TestMain(m *testing.M) { server.Main(m) }

// evalFunction evaluates an expression given as text and returns "V:" and its value as
// text, "N" for NULL, or "E:" and the SQLSTATE of the error it raises, so that a whole
// batch of expressions runs in one query whatever each of them does.
const evalFunction = `
CREATE FUNCTION ev(e text) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE r text;
BEGIN
  EXECUTE 'SELECT (' || e || E'\n)::text' INTO r;
  RETURN coalesce('V:' || r, 'N');
EXCEPTION WHEN others THEN
  RETURN 'E:' || SQLSTATE;
END
$fn$;
`
