//go:build unix

package benchcpu

import "syscall"

// now is the process's CPU time so far, in nanoseconds.
func now() (int64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
