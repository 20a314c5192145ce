package scenario

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every stub worker process and its directory are registered while they exist, so that
// no way out of dws leaves them behind: a stub's own run ends with its processes killed
// and its directory removed; a panic in a goroutine running scenarios, and a SIGINT,
// SIGTERM or SIGHUP while Run runs, kill every stub and remove every directory first
// (the process then dies of the panic or the signal as it would have). What Go cannot
// intercept (SIGKILL, running out of memory) can still leave them.

// tokenVar is the environment variable each stub process gets, holding a token of its
// own: its descendants inherit it, so that those which left its process group (setsid)
// are found and killed when it ends (sweep).
const tokenVar = "DWS_STUB_RUN"

// errStopping refuses a stub once dws has begun dying.
var errStopping = errors.New("dws is stopping: no more stub processes start")

// worker is one stub process's run: its directory, token and process group.
type worker struct {
	dir   string
	real  string // dir's real path, as made
	token string
	pgid  int         // 0 until it started
	born  uint64      // when it started, in clock ticks after boot (Linux; else 0)
	cg    *cgroup     // its control group (Linux), nil when none holds it
	mech  containment // how it is held (contain_linux.go)
	swept bool
}

var live = struct {
	sync.Mutex
	workers  map[*worker]bool
	stopping bool
	watchers int
	unwatch  func()
}{workers: map[*worker]bool{}}

// newWorker makes a stub's directory and registers it.
func newWorker() (*worker, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "dws-stub-")
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(dir) // TMPDIR may be a link
	if err != nil {
		_ = removeAll(dir)
		return nil, err
	}
	w := &worker{dir: dir, real: real, token: hex.EncodeToString(b[:])}
	live.Lock()
	defer live.Unlock()
	if live.stopping {
		_ = removeAll(dir)
		return nil, errStopping
	}
	live.workers[w] = true
	return w, nil
}

// start starts cmd as w's process, in a process group of its own, held as
// startContained holds it (on Linux, a control group of its own where it can); it
// returns the command that runs. The registry is held while it starts, so that a
// dying dws kills every process that started.
func (w *worker) start(cmd *exec.Cmd) (*exec.Cmd, error) {
	env := []string{tokenVar + "=" + w.token}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, tokenVar+"=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	live.Lock()
	defer live.Unlock()
	if live.stopping {
		return cmd, errStopping
	}
	cmd, err := w.startContained(cmd)
	if err != nil {
		return cmd, err
	}
	w.pgid = cmd.Process.Pid
	w.born = startTick(w.pgid)
	return cmd, nil
}

// finish kills what is left of w's processes once its process has exited, and the
// orphans of ended stubs no running stub may own (reapOrphans).
func (w *worker) finish() {
	sweep(w)
	live.Lock()
	w.swept = true
	reapOrphans(w, false)
	live.Unlock()
}

// close kills what is left of w's processes, removes its directory and control group,
// and unregisters it.
func (w *worker) close() {
	if !w.swept {
		w.finish()
	}
	if w.cg != nil {
		w.cg.remove()
	}
	_ = removeAll(w.dir)
	live.Lock()
	delete(live.workers, w)
	live.Unlock()
}

// abandon kills every stub's processes and removes every stub's directory, for good: no
// stub starts after it.
func abandon() {
	live.Lock()
	defer live.Unlock()
	live.stopping = true
	for w := range live.workers {
		sweep(w)
	}
	reapOrphans(nil, true)
	for w := range live.workers {
		if w.cg != nil {
			w.cg.remove()
		}
		_ = removeAll(w.dir)
		delete(live.workers, w)
	}
}

// stopping reports whether dws is dying of a signal or a panic.
func stopping() bool {
	live.Lock()
	defer live.Unlock()
	return live.stopping
}

// watch makes SIGINT, SIGTERM and SIGHUP (those not ignored when dws started) abandon
// every stub and then end dws by the same signal, until the returned function is called.
// Calls nest.
func watch() (unwatch func()) {
	live.Lock()
	defer live.Unlock()
	live.watchers++
	if live.watchers == 1 {
		var sigs []os.Signal
		for _, s := range []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
			if !signal.Ignored(s) {
				sigs = append(sigs, s)
			}
		}
		ch := make(chan os.Signal, 1)
		done := make(chan struct{})
		signal.Notify(ch, sigs...)
		go func() {
			select {
			case s := <-ch:
				abandon()
				signal.Reset(sigs...)
				n := s.(syscall.Signal)
				_ = syscall.Kill(os.Getpid(), n)
				// The signal's default action ends dws; should it be held up, end
				// as a shell reports a process killed by it.
				time.Sleep(time.Second)
				os.Exit(128 + int(n))
			case <-done:
			}
		}()
		live.unwatch = func() {
			signal.Stop(ch)
			close(done)
		}
	}
	return func() {
		live.Lock()
		defer live.Unlock()
		live.watchers--
		if live.watchers == 0 {
			live.unwatch()
			live.unwatch = nil
		}
	}
}

// removeAll removes dir and everything under it, also what a stub made unreadable or
// unwritable (chmod 000): its own files, which dws may make writable again.
func removeAll(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	var open func(p string)
	open = func(p string) {
		_ = os.Chmod(p, 0o700)
		entries, _ := os.ReadDir(p)
		for _, e := range entries {
			if e.IsDir() {
				open(filepath.Join(p, e.Name()))
			}
		}
	}
	open(dir)
	return os.RemoveAll(dir)
}
