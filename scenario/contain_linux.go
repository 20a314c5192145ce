package scenario

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// How dws holds a stub's processes together on Linux, so that all of them die with the
// stub, also those that left its process group and session (setsid), dropped its token
// (env -i) and lost their parent (setsid -f, a daemon's double fork). The strongest the
// system offers, tried in this order for each stub:
//
//   - cgroup2: a control group of the stub's own, made under dws's own cgroup v2 group
//     (the unified hierarchy, /sys/fs/cgroup or /sys/fs/cgroup/unified); the stub starts
//     in it (clone3 with CLONE_INTO_CGROUP, so that nothing it starts is outside), and
//     when it ends cgroup.kill kills every process in it at once (Linux 5.14). It needs
//     a group dws may make subgroups in: root, or a delegated subtree (a systemd user
//     session's).
//   - freezer: a group of the stub's own in the cgroup v1 freezer hierarchy: the thread
//     that starts the stub moves into it for the fork, so the stub starts inside; when
//     it ends the group is frozen, every process in it killed, and thawed.
//   - subreaper: with neither, dws makes itself the child subreaper
//     (PR_SET_CHILD_SUBREAPER), so an orphan of a stub's process tree becomes dws's
//     child instead of init's. When a stub ends, dws kills (and reaps) each such orphan
//     that started before every stub still running did: it can be no running stub's.
//     One that started later waits for those stubs to end, so that a stub still running
//     never loses what it detached; when the last stub ends, none is left. dws's own
//     children that are not orphans of stubs are told apart by their process group
//     (a plain child of dws is in dws's; a stub and all it starts are not).
//
// Whatever holds them, the stub's process group is killed too, and without a control
// group the processes that carry the stub's token are (sweep). A stub that cannot be
// started in a control group that dws made (an old kernel without clone3's
// CLONE_INTO_CGROUP) is started again without it, and no more control groups of that
// kind are tried.

var contain = struct {
	sync.Mutex
	forced    containment // tests: start the search here (containNone: not forced)
	found     bool        // the hierarchies were looked for
	v2, v1    string      // dws's own cgroup v2 group and freezer group, "" when none
	disabled  map[containment]bool
	subreaper bool // dws made itself the child subreaper
	last      containment
}{disabled: map[containment]bool{}}

// cgroup is a stub's own control group.
type cgroup struct {
	dir string
	v1  bool // in the freezer hierarchy, else cgroup v2
}

// startContained starts cmd as w's process, held the strongest way this system offers
// (contain says which); it returns the command that runs (another one when cmd failed
// to start in a control group, and is started again without). The registry lock is
// held.
func (w *worker) startContained(cmd *exec.Cmd) (*exec.Cmd, error) {
	contain.Lock()
	defer contain.Unlock()
	if !contain.found {
		contain.v2, contain.v1 = ownCgroups()
		contain.found = true
	}
	order := containmentOrder
	if i := slices.Index(order, contain.forced); i >= 0 {
		order = order[i:]
	}
	suspect := containNone // a control group cmd failed to start in
	start := func(c containment, cmd *exec.Cmd, err error) (*exec.Cmd, error) {
		if err == nil {
			w.mech, contain.last = c, c
		} else if suspect != containNone {
			contain.disabled[suspect] = false // it was not the group
		}
		return cmd, err
	}
	for _, c := range order {
		if contain.disabled[c] {
			continue
		}
		switch c {
		case containCgroup2:
			if contain.v2 == "" {
				continue
			}
			again := cloneCmd(cmd)
			err := w.startInCgroup2(cmd)
			switch {
			case errors.Is(err, errNoCgroup):
				contain.disabled[c] = true
				continue
			case err != nil && cmd.Err == nil:
				// Was it the group? Start it again, another way; if that fails too,
				// it was not.
				contain.disabled[c], suspect, cmd = true, c, again
				continue
			}
			return start(c, cmd, err)
		case containFreezer:
			if contain.v1 == "" {
				continue
			}
			err := w.startInFreezer(cmd)
			if errors.Is(err, errNoCgroup) {
				contain.disabled[c] = true
				continue
			}
			return start(c, cmd, err)
		case containSubreaper:
			if !contain.subreaper {
				if setSubreaper(true) != nil {
					contain.disabled[c] = true
					continue
				}
				contain.subreaper = true
			}
			return start(c, cmd, cmd.Start())
		}
	}
	return start(containNone, cmd, cmd.Start())
}

// errNoCgroup is a control group that could not be made or used.
var errNoCgroup = errors.New("no control group")

// startInCgroup2 makes w's cgroup v2 group and starts cmd in it: errNoCgroup when the
// group cannot be made (cmd is not started), else how cmd's start went.
func (w *worker) startInCgroup2(cmd *exec.Cmd) error {
	dir := filepath.Join(contain.v2, "dws-stub-"+w.token)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return errNoCgroup
	}
	if _, err := os.Stat(filepath.Join(dir, "cgroup.kill")); err != nil { // before Linux 5.14
		_ = os.Remove(dir)
		return errNoCgroup
	}
	fd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		_ = os.Remove(dir)
		return errNoCgroup
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, fd
	err = cmd.Start()
	_ = syscall.Close(fd)
	if err != nil {
		_ = os.Remove(dir)
		return err
	}
	w.cg = &cgroup{dir: dir}
	return nil
}

// cloneCmd is a command not yet started that starts what cmd starts, as cmd would.
func cloneCmd(cmd *exec.Cmd) *exec.Cmd {
	attr := *cmd.SysProcAttr
	return &exec.Cmd{Path: cmd.Path, Args: cmd.Args, Env: cmd.Env, Dir: cmd.Dir,
		Stdin: cmd.Stdin, Stdout: cmd.Stdout, Stderr: cmd.Stderr, SysProcAttr: &attr}
}

// startInFreezer makes w's freezer group and starts cmd in it: the thread that forks
// joins the group for the fork (a cgroup v1 group holds threads), so the stub is inside
// from its first instruction; errNoCgroup when the group cannot be made or joined
// (then nothing was started).
func (w *worker) startInFreezer(cmd *exec.Cmd) error {
	dir := filepath.Join(contain.v1, "dws-stub-"+w.token)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return errNoCgroup
	}
	home := contain.v1
	done := make(chan error, 1)
	go func() {
		// Threads the runtime starts while this one is locked are not forked from it
		// (Go asks its template thread), so only the stub joins the group.
		runtime.LockOSThread()
		tid := []byte(strconv.Itoa(syscall.Gettid()))
		if writeCgroupFile(filepath.Join(dir, "tasks"), tid) != nil {
			runtime.UnlockOSThread()
			done <- errNoCgroup
			return
		}
		err := cmd.Start()
		if writeCgroupFile(filepath.Join(home, "tasks"), tid) != nil {
			// The thread is still in the stub's group: it ends with this goroutine
			// (a goroutine that exits locked takes its thread with it).
			done <- err
			return
		}
		runtime.UnlockOSThread()
		done <- err
	}()
	err := <-done
	if err != nil {
		_ = os.Remove(dir)
		return err
	}
	w.cg = &cgroup{dir: dir, v1: true}
	return nil
}

// writeCgroupFile writes data to a control file of a control group.
func writeCgroupFile(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// pids lists the processes in the group, never dws itself (a thread of dws that could
// not leave a freezer group after a fork is ending, and lists dws there meanwhile).
func (cg *cgroup) pids() []int {
	b, err := os.ReadFile(filepath.Join(cg.dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil && pid != os.Getpid() {
			out = append(out, pid)
		}
	}
	return out
}

// signal kills what is in the group now, without waiting (a timeout, a cap).
func (cg *cgroup) signal() {
	if !cg.v1 && writeCgroupFile(filepath.Join(cg.dir, "cgroup.kill"), []byte("1")) == nil {
		return
	}
	for _, pid := range cg.pids() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// kill kills every process in the group and waits (a few seconds at most) until none
// is left. cgroup v2's cgroup.kill is atomic against forks; a v1 group is frozen first,
// so that none forks between being listed and killed.
func (cg *cgroup) kill() {
	deadline := time.Now().Add(5 * time.Second)
	if cg.v1 {
		state := filepath.Join(cg.dir, "freezer.state")
		if writeCgroupFile(state, []byte("FROZEN")) == nil {
			for time.Now().Before(deadline) {
				if b, err := os.ReadFile(state); err != nil || strings.TrimSpace(string(b)) == "FROZEN" {
					break
				}
				time.Sleep(time.Millisecond)
			}
		}
		for _, pid := range cg.pids() {
			_ = syscall.Kill(pid, syscall.SIGKILL) // delivered when thawed
		}
		_ = writeCgroupFile(state, []byte("THAWED"))
	} else {
		cg.signal()
	}
	for time.Now().Before(deadline) {
		left := cg.pids()
		if len(left) == 0 {
			return
		}
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(time.Millisecond)
	}
}

// remove removes the (empty) group.
func (cg *cgroup) remove() {
	for range 100 {
		if err := os.Remove(cg.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(time.Millisecond) // a killed process may still be leaving it
	}
}

// ownCgroups finds the directories of dws's own cgroup v2 group and cgroup v1 freezer
// group, where the stubs' groups go ("" for one that is not mounted or not writable).
func ownCgroups() (v2, v1 string) {
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", ""
	}
	var v2path, v1path string
	for _, line := range strings.Split(string(own), "\n") {
		// hierarchy-ID:controller-list:path
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			v2path = parts[2]
		case hasWord(parts[1], "freezer"):
			v1path = parts[2]
		}
	}
	mounts, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", ""
	}
	defer func() { _ = mounts.Close() }()
	sc := bufio.NewScanner(mounts)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		// id parent major:minor root mount-point options [optional…] - type source super-options
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok {
			continue
		}
		f, g := strings.Fields(pre), strings.Fields(post)
		if len(f) < 6 || len(g) < 3 || !hasWord(f[5], "rw") {
			continue
		}
		root, point := unescapeMount(f[3]), unescapeMount(f[4])
		switch {
		case g[0] == "cgroup2" && v2 == "" && v2path != "":
			v2 = under(point, root, v2path)
		case g[0] == "cgroup" && v1 == "" && v1path != "" && hasWord(g[2], "freezer"):
			v1 = under(point, root, v1path)
		}
	}
	return v2, v1
}

// under is where the group path of a hierarchy whose root is mounted at point shows,
// "" when the mount does not show it.
func under(point, root, path string) string {
	rel, ok := strings.CutPrefix(path, root)
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/") && root != "/") {
		return ""
	}
	dir := filepath.Join(point, rel)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// hasWord reports whether the comma-separated list holds word.
func hasWord(list, word string) bool {
	for _, w := range strings.Split(list, ",") {
		if w == word {
			return true
		}
	}
	return false
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a blank).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

const (
	prSetChildSubreaper = 36
	prGetChildSubreaper = 37
)

// setSubreaper makes dws the child subreaper (or not).
func setSubreaper(on bool) error {
	v := uintptr(0)
	if on {
		v = 1
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, v, 0); e != 0 {
		return e
	}
	return nil
}

// reapOrphans kills, and reaps, the orphans of ended stubs that have become dws's
// children (dws is the child subreaper): every such process, and all it started, that
// started before every stub still running (but except) did, or all of them. Zombies
// among them are reaped whenever they started. The registry lock is held.
func reapOrphans(except *worker, all bool) {
	contain.Lock()
	on := contain.subreaper
	contain.Unlock()
	if !on {
		return
	}
	self, group := os.Getpid(), syscall.Getpgrp()
	stubs := map[int]bool{}
	first := ^uint64(0) // when the earliest stub still running started
	for w := range live.workers {
		if w.pgid == 0 {
			continue
		}
		stubs[w.pgid] = true // never reaped here: its exec.Cmd waits for it
		if w != except && !w.swept {
			first = min(first, w.born)
		}
	}
	if all {
		first = ^uint64(0)
	}
	deadline := time.Now().Add(5 * time.Second)
	for round := 0; round < 10000 && time.Now().Before(deadline); round++ {
		procs := allProcs()
		children := map[int][]int{}
		for pid, p := range procs {
			children[p.ppid] = append(children[p.ppid], pid)
		}
		acted := false
		for _, pid := range children[self] {
			p := procs[pid]
			if stubs[pid] || p.pgrp == group {
				continue // a stub, or a child of dws's own
			}
			if p.zombie {
				var ws syscall.WaitStatus
				if got, _ := syscall.Wait4(pid, &ws, syscall.WNOHANG, nil); got == pid {
					acted = true
				}
				continue
			}
			if p.start >= first {
				continue // it may be a running stub's
			}
			// It and all it started.
			for todo := []int{pid}; len(todo) > 0; {
				q := todo[len(todo)-1]
				todo = append(todo[:len(todo)-1], children[q]...)
				if !procs[q].zombie {
					_ = syscall.Kill(q, syscall.SIGKILL)
					acted = true
				}
			}
		}
		if !acted {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// procInfo is what /proc/PID/stat says of a process, zombies included.
type procInfo struct {
	ppid, pgrp int
	start      uint64
	zombie     bool
}

// allProcs reads every process's stat.
func allProcs() map[int]procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]procInfo, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		if p, ok := parseStat(b); ok {
			out[pid] = p
		}
	}
	return out
}

// parseStat reads the fields of /proc/PID/stat dws needs.
func parseStat(b []byte) (procInfo, bool) {
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	// utime stime cutime cstime priority nice threads itrealvalue starttime …; comm may
	// hold spaces and parentheses.
	var p procInfo
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return p, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || f[0][0] == 'X' {
		return p, false
	}
	p.zombie = f[0][0] == 'Z'
	var err1, err2, err3 error
	p.ppid, err1 = strconv.Atoi(string(f[1]))
	p.pgrp, err2 = strconv.Atoi(string(f[2]))
	p.start, err3 = strconv.ParseUint(string(f[19]), 10, 64)
	return p, err1 == nil && err2 == nil && err3 == nil
}
