// Package scratchpg starts a throw-away PostgreSQL cluster (initdb, pg_ctl) in a
// temporary directory: the server that sqlallow's tests compare against and that
// the catalog generator reads pg_proc from. It never touches a cluster it did not
// create.
package scratchpg

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ErrNotInstalled is the error when no PostgreSQL server binaries are found.
var ErrNotInstalled = errors.New("PostgreSQL not installed: run scripts/postgres.sh (scripts/test.sh does)")

// Cluster is a running scratch server.
type Cluster struct {
	Bin     string // the bin directory of the PostgreSQL installation
	Version string // server version, e.g. "15.18"
	dir     string
	port    int
	asUser  string // run server commands through runuser as this user
}

// Start makes and starts a cluster with the newest installed PostgreSQL.
func Start() (*Cluster, error) {
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(bins) == 0 {
		return nil, ErrNotInstalled
	}
	sort.Slice(bins, func(i, j int) bool { return major(bins[i]) < major(bins[j]) })
	c := &Cluster{Bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "sqlallow-pg-")
	if err != nil {
		return nil, err
	}
	c.dir = dir
	if os.Geteuid() == 0 {
		// The server refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			u, err = user.Lookup("nobody")
		}
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("no postgres or nobody user to run the server as: %w", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			_ = os.RemoveAll(dir)
			return nil, err
		}
		c.asUser = u.Username
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	data := filepath.Join(dir, "data")
	if out, err := c.server("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off", c.port, dir)
	if out, err := c.server("pg_ctl", "-D", data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	out, _, err := c.Psql("postgres", "SHOW server_version")
	if err != nil {
		c.Stop()
		return nil, err
	}
	c.Version = strings.Fields(string(out) + " ?")[0]
	return c, nil
}

func major(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Stop stops the server and removes its directory.
func (c *Cluster) Stop() {
	_ = c.server("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop").Run()
	_ = os.RemoveAll(c.dir)
}

func (c *Cluster) server(name string, args ...string) *exec.Cmd {
	path := filepath.Join(c.Bin, name)
	if c.asUser != "" {
		return exec.Command("runuser", append([]string{"-u", c.asUser, "--", path}, args...)...)
	}
	return exec.Command(path, args...)
}

// Psql runs a script in one psql process (unaligned, tuples only, as the
// superuser) and returns stdout and stderr.
func (c *Cluster) Psql(db, script string) ([]byte, []byte, error) {
	return c.PsqlAs("postgres", db, script)
}

// PsqlAs is Psql as another role.
func (c *Cluster) PsqlAs(role, db, script string) ([]byte, []byte, error) {
	cmd := exec.Command(filepath.Join(c.Bin, "psql"), "-X", "-q", "-A", "-t", "-h", c.dir, "-p", strconv.Itoa(c.port), "-U", role, "-d", db, "-f", "-")
	cmd.Stdin = bytes.NewBufferString(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("psql: %w\n%s", err, errb.Bytes())
	}
	return out.Bytes(), errb.Bytes(), err
}
