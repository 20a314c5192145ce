package pgeval

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"testing"
)

// cluster is a scratch PostgreSQL server for the differential test, started
// on first use and stopped by TestMain.
type cluster struct {
	bin, dir, sock string
	port           int
	asUser         string // run server commands through runuser as this user
}

var (
	pgOnce    sync.Once
	pgCluster *cluster
	pgErr     error
	pgMu      sync.Mutex
)

const notInstalled = "PostgreSQL not installed: run scripts/postgres.sh (scripts/test.sh does)"

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
	if pgCluster == nil {
		return
	}
	c := pgCluster
	pgCluster = nil
	_ = c.server("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop").Run()
	os.RemoveAll(c.dir)
}

// startCluster makes the scratch cluster; the test fails without it.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	pgOnce.Do(func() { pgErr = doStart() })
	if pgErr != nil {
		t.Fatal(pgErr)
	}
	return pgCluster
}

func doStart() error {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		return fmt.Errorf("%s", notInstalled)
	}
	sort.Strings(bins)
	c := &cluster{bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "pgeval-pg-")
	if err != nil {
		return err
	}
	c.dir, c.sock = dir, dir
	if os.Geteuid() == 0 {
		// The server refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			u, err = user.Lookup("nobody")
		}
		if err != nil {
			os.RemoveAll(dir)
			return fmt.Errorf("no postgres or nobody user to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return err
		}
		c.asUser = u.Username
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	data := filepath.Join(dir, "data")
	if out, err := c.server("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("initdb: %w\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", c.port, dir)
	if out, err := c.server("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	pgMu.Lock()
	pgCluster = c
	pgMu.Unlock()
	if _, _, err := c.psql("postgres", "CREATE DATABASE dws"); err != nil {
		return err
	}
	if _, stderr, err := c.psql("dws", evalFunction); err != nil || bytes.Contains(stderr, []byte("ERROR")) {
		return fmt.Errorf("creating ev(): %w %s", err, stderr)
	}
	return nil
}

func (c *cluster) server(name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.bin, name)
	if c.asUser != "" {
		return exec.Command("runuser", append([]string{"-u", c.asUser, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// psql runs a script in one psql process and returns stdout and stderr.
func (c *cluster) psql(db, script string) ([]byte, []byte, error) {
	cmd := exec.Command(filepath.Join(c.bin, "psql"), "-X", "-q", "-A", "-t", "-h", c.sock, "-p", strconv.Itoa(c.port), "-U", "postgres", "-d", db, "-f", "-")
	cmd.Stdin = bytes.NewBufferString(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("psql: %w\n%s", err, errb.Bytes())
	}
	return out.Bytes(), errb.Bytes(), err
}

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
