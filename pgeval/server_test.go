package pgeval

import (
	"bytes"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"

	"github.com/dwsdev/dws/internal/scratchpg"
)

// cluster is the scratch PostgreSQL server of the differential test, started on first
// use and stopped by TestMain.
type cluster struct{ *scratchpg.Cluster }

var (
	pgOnce    sync.Once
	pgCluster *cluster
	pgErr     error
	pgMu      sync.Mutex
)

func TestMain(m *testing.M) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		stopCluster()
		os.Exit(1)
	}()
	code := m.Run()
	stopCluster()
	os.Exit(code)
}

func stopCluster() {
	pgMu.Lock()
	defer pgMu.Unlock()
	if pgCluster != nil {
		pgCluster.Stop()
		pgCluster = nil
	}
}

// startCluster makes the scratch cluster; the test fails without it, never skips.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	pgOnce.Do(func() { pgErr = doStart() })
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	return pgCluster
}

func doStart() error {
	sc, err := scratchpg.Start()
	if err != nil {
		return err
	}
	pgMu.Lock()
	pgCluster = &cluster{sc}
	pgMu.Unlock()
	if _, _, err := sc.Psql("postgres", "CREATE DATABASE dws"); err != nil {
		return err
	}
	if _, stderr, err := sc.Psql("dws", evalFunction); err != nil || bytes.Contains(stderr, []byte("ERROR")) {
		return fmt.Errorf("creating ev(): %w %s", err, stderr)
	}
	return nil
}

func (c *cluster) psql(db, script string) ([]byte, []byte, error) { return c.Psql(db, script) }

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
