package main

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwsdev/dws/internal/printable"
)

// An output file dws cannot write is the user's error, in every command that writes
// one: exit 2, one line naming the flag, the path and why, nothing on standard output,
// and no temporary file left behind. Given empty, an output flag is a usage error too.
// (As root every directory is writable: the unwritable places here are ones no user can
// write, /proc and names the system refuses.)
func TestUnwritableOutputs(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for name, text := range map[string]string{
		"def.yaml":                 direclawWith("main"),
		"notadir":                  "a file\n",
		"sc/main.scenario.yaml":    "definition: ../def.yaml\nstubs: { answer: [{ ok: true }] }\nexpect: { status: succeeded }\n",
		"keep/placeholder.txt":     "",
		"pair.key/placeholder.txt": "",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/nonexistent/dws-target", "dangling"); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("n", 300)
	// Each command with its output flag; %s is where the path goes.
	commands := []struct {
		flag string
		args []string
	}{
		{"--output", []string{"validate", "--no-cache", "-o", "%s", "def.yaml"}},
		{"--write-baseline", []string{"validate", "--write-baseline", "%s", "def.yaml"}},
		{"--output", []string{"graph", "-o", "%s", "def.yaml"}},
		{"--output", []string{"test", "-o", "%s", "sc"}},
		{"--coverage-report", []string{"test", "--coverage-report", "%s", "sc"}},
		{"--write", []string{"checksum", "--write", "%s", "def.yaml"}},
		{"--out", []string{"keygen", "--out", "%s"}},
		{"--emit-scenarios", []string{"simulate", "--emit-scenarios", "%s", "def.yaml"}},
	}
	// Each unwritable path, and what the message says of it.
	paths := []struct{ path, why string }{
		{"notadir/x", "not a directory"},
		{"missing/x", "missing does not exist"},
		{long, "file name too long"},
		{long + "/x", "file name too long"},
	}
	if runtime.GOOS == "linux" {
		paths = append(paths, struct{ path, why string }{"/proc/self/x", "no such file or directory"})
	}
	for _, cmd := range commands {
		cases := paths
		switch cmd.flag {
		case "--emit-scenarios": // a directory that does not exist is made
			cases = []struct{ path, why string }{paths[0], paths[2], paths[3],
				{"dangling", "a symbolic link to /nonexistent/dws-target, which does not exist"},
				{"notadir", "not a directory"}}
			if runtime.GOOS == "linux" {
				cases = append(cases, paths[4])
			}
		case "--out": // --out NAME writes NAME.key and NAME.pub
			cases = append(cases[:len(cases):len(cases)], struct{ path, why string }{"pair", "it is a directory"})
		default:
			cases = append(cases[:len(cases):len(cases)], struct{ path, why string }{"keep", "it is a directory"})
		}
		for _, c := range cases {
			args := []string{"dws"}
			for _, a := range cmd.args {
				args = append(args, strings.ReplaceAll(a, "%s", c.path))
			}
			var out, errb bytes.Buffer
			code := run(args, nil, &out, &errb)
			msg := errb.String()
			shown := strings.TrimSuffix(printable.String(c.path), "/")
			if code != exitUsage || !strings.HasPrefix(msg, "dws: "+cmd.flag+": ") || !strings.Contains(msg, shown) ||
				!strings.Contains(msg, c.why) || strings.Count(msg, "\n") != 1 || out.Len() > 0 {
				t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and one line naming %s, the path and %q",
					args[1:], code, out.String(), msg, cmd.flag, c.why)
			}
		}
		// Given empty.
		args := []string{"dws"}
		for _, a := range cmd.args {
			args = append(args, strings.ReplaceAll(a, "%s", ""))
		}
		var out, errb bytes.Buffer
		if code := run(args, nil, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), cmd.flag) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and a message naming %s", args[1:], code, errb.String(), cmd.flag)
		}
	}
	// Nothing was written anywhere, not even a temporary file.
	written := []string{"def.yaml", "notadir", "sc/main.scenario.yaml", "keep/placeholder.txt", "pair.key/placeholder.txt"}
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case p == "." || p == "dangling":
		case d.IsDir() && (p == "sc" || p == "keep" || p == "pair.key"):
		case strings.Contains(p, "tmp") || strings.HasSuffix(p, ".lock") || !d.IsDir() && !slices.Contains(written, p):
			t.Errorf("%s was left behind", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Files the command itself names are the user's too: sign's file, init's .dws.yaml.
func TestUnwritableCommandFiles(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc")
	}
	// /proc/self/cwd is a directory no one may create a file in.
	t.Chdir("/proc/self")
	var out, errb bytes.Buffer
	if code := run([]string{"dws", "init"}, nil, &out, &errb); code != exitUsage || !strings.HasPrefix(errb.String(), "dws: init: cannot write .dws.yaml: ") {
		t.Errorf("dws init in /proc/self: exit %d, stderr %q; want exit 2 and a message naming .dws.yaml", code, errb.String())
	}
}

// simulate --path N beyond the paths a definition has is a usage error naming how many
// there are, and prints no path.
func TestSimulatePathBeyond(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("def.yaml", []byte(direclawWith("main", "second")), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"dws", "simulate", "--path", "4", "def.yaml"}, nil, &out, &errb)
	want := "dws: --path 4: no such path; def.yaml (workflow main) has 3 paths; def.yaml (workflow second) has 3 paths\n"
	if code != exitUsage || errb.String() != want || out.Len() > 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, %q", code, out.String(), errb.String(), want)
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"dws", "simulate", "--path", "3", "def.yaml"}, nil, &out, &errb); code != 0 || !strings.Contains(out.String(), "def.yaml (workflow second): path 3 of 3") {
		t.Errorf("--path 3: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// An output named onto a device, a pipe or a link is never replaced by a file: a report
// is written through it as a shell's > would (-o /dev/null, a FIFO, a link to a file,
// whose target gets the report and which stays a link); /dev/full's "no space" is the
// user's error; a file dws keeps (the lockfile) is refused on anything but a regular
// file.
func TestOutputsOntoDevicesAndLinks(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("def.yaml", []byte(direclawWith("main")), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("real.txt", []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// /dev/null and /dev/full through links of the test's own: a dws that replaced what
	// it writes to replaces the link, never the machine's devices.
	for _, l := range [][2]string{{"real.txt", "link"}, {"/nonexistent/dws-target", "dangling"}, {"/dev/null", "null"}, {"/dev/full", "full"}} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo("fifo", 0o644); err != nil {
		t.Fatal(err)
	}
	dws := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(append([]string{"dws"}, args...), nil, &out, &errb)
		return code, out.String(), errb.String()
	}
	kind := func(p string) fs.FileMode {
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Type()
	}

	if code, _, errs := dws("validate", "--no-cache", "-o", "null", "def.yaml"); code != 0 || kind("null") != fs.ModeSymlink {
		t.Errorf("-o null (a link to /dev/null): exit %d %q; the link is now %v", code, errs, kind("null"))
	}
	if code, _, errs := dws("validate", "--no-cache", "-o", "full", "def.yaml"); code != exitUsage ||
		!strings.Contains(errs, "cannot write full: no space left on device") || kind("full") != fs.ModeSymlink {
		t.Errorf("-o full (a link to /dev/full): exit %d %q; the link is now %v; want exit 2 and no space left", code, errs, kind("full"))
	}
	if code, _, errs := dws("validate", "--no-cache", "-o", "link", "def.yaml"); code != 0 || kind("link") != fs.ModeSymlink {
		t.Errorf("-o link: exit %d %q; link is now %v", code, errs, kind("link"))
	}
	if b, _ := os.ReadFile("real.txt"); !strings.Contains(string(b), "in 1 of 1 file") {
		t.Errorf("the link's target holds %q, want the report", b)
	}
	got := make(chan string, 1)
	go func() {
		// Opened for reading, so that the writer's open returns; without blocking, so that
		// a dws that replaced the pipe leaves no reader waiting for ever.
		f, err := os.OpenFile("fifo", os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		var b bytes.Buffer
		deadline := time.Now().Add(20 * time.Second)
		buf := make([]byte, 4096)
		for time.Now().Before(deadline) {
			n, err := f.Read(buf)
			b.Write(buf[:n])
			if n == 0 && err == io.EOF && b.Len() > 0 {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		got <- b.String()
	}()
	if code, _, errs := dws("graph", "-o", "fifo", "def.yaml"); code != 0 || kind("fifo") != fs.ModeNamedPipe {
		t.Errorf("graph -o fifo: exit %d %q; fifo is now %v", code, errs, kind("fifo"))
	}
	if g := <-got; !strings.Contains(g, "flowchart") && !strings.Contains(g, "graph") {
		t.Errorf("the pipe's reader got %q, want the graph", g)
	}
	if code, _, errs := dws("validate", "--no-cache", "-o", "dangling", "def.yaml"); code != exitUsage ||
		!strings.Contains(errs, "a symbolic link to /nonexistent/dws-target, which does not exist") || kind("dangling") != fs.ModeSymlink {
		t.Errorf("-o dangling: exit %d %q", code, errs)
	}
	if code, _, errs := dws("checksum", "--write", "fifo", "def.yaml"); code != exitUsage ||
		!strings.Contains(errs, "not a regular file") || kind("fifo") != fs.ModeNamedPipe {
		t.Errorf("checksum --write fifo: exit %d %q; fifo is now %v; want exit 2, not a regular file", code, errs, kind("fifo"))
	}
}
