// Command runstat runs a command and appends what it cost to a file, one line:
// its wall time, its CPU time (user and system, the command's and its children's) in
// nanoseconds, and its peak RSS in KiB. scripts/bench.sh times through it: the CPU time
// of a run is what it costs when other work shares the machine, beside the wall time,
// and the kernel's counters have microseconds where /usr/bin/time prints hundredths.
//
// Usage: runstat OUT CMD [ARG…]  (standard input, output and error are the command's;
// its exit code is runstat's; a command that ran and failed is measured too)
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: runstat OUT CMD [ARG…]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "runstat:", err)
		os.Exit(2)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	out, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		_, err = fmt.Fprintf(out, "%d %d %d\n", wall.Nanoseconds(), cpu.Nanoseconds(), ru.Maxrss)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "runstat:", err)
		os.Exit(2)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		os.Exit(max(code, 1)) // -1: killed by a signal
	}
}
