//go:build linux

package scenario_test

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwsdev/dws/scenario"
)

// detachers are stubs whose child leaves every trace of the stub behind: the token
// (DWS_STUB_RUN, dropped by env -i, unset, or a fresh environment), the process group
// and session (setsid), and the parent (setsid -f forks, then its parent exits; Python
// exits after Popen). Each child writes its pid to a file named after the stub in the
// directory the stub is given, and the stub answers once it is there.
func detachers(t *testing.T) map[string]string {
	t.Helper()
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("setsid (util-linux) is not installed")
	}
	child := func(name, sleep string) string {
		return `/bin/sh -c 'echo $$ > "$1/` + name + `.tmp" && /bin/mv "$1/` + name + `.tmp" "$1/` + name + `"; exec /bin/sleep ` + sleep + `' sh "$1" </dev/null >/dev/null 2>&1`
	}
	wait := func(name string) string {
		return `while [ ! -f "$1/` + name + `" ]; do sleep 0.01; done` + "\necho '{\"ok\": true}'\n"
	}
	stubs := map[string]string{
		"envi":  "#!/bin/sh\ncat >/dev/null\nenv -i " + setsid + " -f " + child("envi", "305") + "\n" + wait("envi"),
		"unset": "#!/bin/sh\ncat >/dev/null\nunset DWS_STUB_RUN\n" + setsid + " -f " + child("unset", "306") + "\n" + wait("unset"),
	}
	if py, err := exec.LookPath("python3"); err == nil {
		stubs["python"] = "#!/bin/sh\ncat >/dev/null\nexec " + py + ` -c '
import os, subprocess, sys
p = subprocess.Popen(["sleep", "307"], env={"PATH": os.environ["PATH"]}, start_new_session=True,
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with open(sys.argv[1] + "/python.tmp", "w") as f:
    f.write(str(p.pid))
os.rename(sys.argv[1] + "/python.tmp", sys.argv[1] + "/python")
print("{\"ok\": true}")
' "$1"` + "\n"
	} else {
		t.Log("python3 is not installed: its detaching child is not tried")
	}
	return stubs
}

// runDetachers runs a scenario for each detaching stub and checks that each child is
// gone once dws test is done with it, and is not left a zombie of dws either.
func runDetachers(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pids := t.TempDir()
	files := map[string]string{"hello.json": hello}
	want := map[string]string{}
	var names []string
	for name, body := range detachers(t) {
		files[name+".sh"] = body
		files[name+".scenario.yaml"] = "definition: hello.json\nstubs: { greet: [{ run: [./" + name + ".sh, " + strconv.Quote(pids) + "] }] }\nexpect: { status: succeeded }\n"
		want[name] = ""
		names = append(names, name)
	}
	s := runSuite(t, project(t, files), 10*time.Minute)
	expectOutcomes(t, s, want)
	pidsGone(t, pids, names...)
	notOurZombies(t, pids, names...)
	noneLeft(t, tmp)
}

// notOurZombies checks that none of the processes whose ids the files in dir hold is a
// zombie child of this process (one dws killed, or that ended, and never reaped).
func notOurZombies(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, f := range names {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid := strings.TrimSpace(string(b))
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i >= 0 {
			if fields := strings.Fields(s[i+1:]); len(fields) > 1 && fields[1] == strconv.Itoa(os.Getpid()) {
				t.Errorf("process %s (%s) is a child of dws it never reaped: %s", f, pid, s)
			}
		}
	}
}

// A stub's child that drops the token, leaves the session and loses its parent is
// killed when the stub ends all the same: env -i setsid -f, unset DWS_STUB_RUN and
// setsid -f, Python's Popen with a fresh environment and start_new_session.
func TestStubDetachedKilled(t *testing.T) {
	runDetachers(t)
}

// Each way dws holds a stub's processes kills the detached children: a cgroup v2 group
// of its own (cgroup.kill), a cgroup v1 freezer group (frozen, then killed), and, with
// neither, dws as the child subreaper, which finds the orphans among its own children.
// Where this machine offers a control group hierarchy to root, it is used (CI runs as
// root, so CI always runs the strongest).
func TestStubContainments(t *testing.T) {
	for _, mode := range scenario.Containments {
		t.Run(mode, func(t *testing.T) {
			restore := scenario.ForceContainment(mode)
			defer restore()
			if !containmentOffered(mode) {
				t.Skipf("this machine offers no %s to this user", mode)
			}
			runDetachers(t)
			if got := scenario.LastContainment(); got != mode {
				t.Errorf("the stubs were held by %s, want %s", got, mode)
			}
		})
	}
	// Not forced, dws takes the strongest this machine offers.
	t.Run("auto", func(t *testing.T) {
		runDetachers(t)
		want := "subreaper"
		for _, m := range scenario.Containments {
			if containmentOffered(m) {
				want = m
				break
			}
		}
		if got := scenario.LastContainment(); got != want {
			t.Errorf("the stubs were held by %s, want %s, the strongest offered", got, want)
		}
	})
}

// containmentOffered reports whether this machine offers mode to this process: root
// with the hierarchy mounted read-write (a cgroup2 file system; a cgroup one with the
// freezer controller). The subreaper is always offered on Linux.
func containmentOffered(mode string) bool {
	if mode == "subreaper" {
		return true
	}
	if os.Geteuid() != 0 {
		return false
	}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		fields, after := strings.Fields(pre), strings.Fields(post)
		if len(fields) < 6 || len(after) < 3 || !strings.HasPrefix(fields[5], "rw") {
			continue
		}
		switch {
		case mode == "cgroup2" && after[0] == "cgroup2":
			return true
		case mode == "freezer" && after[0] == "cgroup" && strings.Contains(","+after[2]+",", ",freezer,"):
			return true
		}
	}
	return false
}

// Stubs running side by side: when one ends, what another still running detached keeps
// running (its stub may still talk to it), and what the one that ended detached is
// killed, whichever way dws holds them; then the other's go when it ends.
func TestParallelStubsDetached(t *testing.T) {
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("setsid (util-linux) is not installed")
	}
	for _, mode := range append(scenario.Containments[:len(scenario.Containments):len(scenario.Containments)], "auto") {
		t.Run(mode, func(t *testing.T) {
			if mode != "auto" {
				defer scenario.ForceContainment(mode)()
				if !containmentOffered(mode) {
					t.Skipf("this machine offers no %s to this user", mode)
				}
			}
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			pids := t.TempDir()
			// Each stub detaches a child (pid file NAME), then answers once the file
			// release-NAME exists.
			stub := `#!/bin/sh
cat >/dev/null
unset DWS_STUB_RUN
` + setsid + ` -f /bin/sh -c 'echo $$ > "$1/$2.tmp" && /bin/mv "$1/$2.tmp" "$1/$2"; exec /bin/sleep 308' sh "$1" "$2" </dev/null >/dev/null 2>&1
while [ ! -f "$1/$2" ] || [ ! -f "$1/release-$2" ]; do sleep 0.01; done
echo '{"ok": true}'
`
			dir := project(t, map[string]string{"detach.sh": stub})
			wait := func(name string) int {
				t.Helper()
				deadline := time.Now().Add(time.Minute)
				for time.Now().Before(deadline) {
					if b, err := os.ReadFile(filepath.Join(pids, name)); err == nil {
						pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
						return pid
					}
					time.Sleep(10 * time.Millisecond)
				}
				t.Fatalf("%s never wrote its pid", name)
				return 0
			}
			release := func(name string) {
				if err := os.WriteFile(filepath.Join(pids, "release-"+name), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			done := map[string]chan error{}
			start := func(name string) {
				ch := make(chan error, 1)
				done[name] = ch
				go func() { ch <- scenario.RunStub(dir, "./detach.sh", pids, name) }()
			}
			t.Cleanup(func() {
				for _, name := range []string{"first", "second"} {
					if b, err := os.ReadFile(filepath.Join(pids, name)); err == nil {
						if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 0 && alive(pid) {
							_ = syscall.Kill(pid, syscall.SIGKILL)
						}
					}
				}
			})
			start("first")
			first := wait("first")
			// The second starts in a later clock tick than the first's child, as a
			// stub started any later would: the tick is how the subreaper tells whose
			// an orphan is.
			scenario.AfterTickOf(first)
			start("second")
			second := wait("second")
			release("first")
			if err := <-done["first"]; err != nil {
				t.Fatalf("the first stub: %v", err)
			}
			if alive(first) {
				t.Errorf("the first stub's detached child (%d) still runs after it ended", first)
			}
			if !alive(second) {
				t.Errorf("the second stub's detached child (%d) was killed while the second still runs", second)
			}
			release("second")
			if err := <-done["second"]; err != nil {
				t.Fatalf("the second stub: %v", err)
			}
			if alive(second) {
				t.Errorf("the second stub's detached child (%d) still runs after it ended", second)
			}
			noneLeft(t, tmp)
		})
	}
}
