//go:build !linux

package scenario

import "syscall"

// sweep kills what is left of a stub: its process group. (Only Linux has /proc to find
// the descendants that left the group.)
func sweep(w *worker) {
	if w.pgid > 0 {
		_ = syscall.Kill(-w.pgid, syscall.SIGKILL)
	}
}

// startTick is when a process started; unknown (0) here.
func startTick(int) uint64 { return 0 }
