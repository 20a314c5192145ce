package scenario

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strconv"
	"syscall"
	"time"
)

// sweep kills what is left of a stub: its process group, and everything in its control
// group when it has one (contain_linux.go), which holds every process it started. Without
// one, every process that carries the stub's token in its environment, or descends from
// one that does (a child that called setsid has left the group, not the environment; one
// that also cleared its environment is found while its parent lives, and once orphaned
// by reapOrphans, dws being the child subreaper then).
//
// It scans /proc until a scan finds no process it has not yet killed. A process in the
// middle of exec shows an empty environment for a moment: while one that started after
// the stub does, it scans again (a little later, a bounded number of times). Then it
// waits (a few seconds at most) for those it killed to be gone, so that none still runs
// when it returns.
func sweep(w *worker) {
	if w.pgid > 0 {
		_ = syscall.Kill(-w.pgid, syscall.SIGKILL)
	}
	if w.cg != nil {
		w.cg.kill()
		return
	}
	needle := []byte(tokenVar + "=" + w.token)
	killed := map[int]bool{}
	for round := 0; round < 200; round++ {
		found, unsure := scanTree(w, needle, killed)
		if len(found) == 0 && !unsure {
			break
		}
		for _, pid := range found {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			killed[pid] = true
		}
		if len(found) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	// A killed process ends as soon as the kernel schedules it; one stuck in an
	// uninterruptible wait is not waited for past the deadline.
	deadline := time.Now().Add(5 * time.Second)
	for pid := range killed {
		for running(pid) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}
}

// proc is what /proc/PID/stat says of a live process.
type proc struct {
	ppid, pgrp int
	start      uint64 // clock ticks after boot
}

// procStat reads /proc/PID/stat; ok is false when the process is gone or a zombie.
func procStat(pid int) (p proc, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return p, false
	}
	// pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
	// utime stime cutime cstime priority nice threads itrealvalue starttime …; comm may
	// hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return p, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 || f[0][0] == 'Z' || f[0][0] == 'X' {
		return p, false
	}
	var err1, err2, err3 error
	p.ppid, err1 = strconv.Atoi(string(f[1]))
	p.pgrp, err2 = strconv.Atoi(string(f[2]))
	p.start, err3 = strconv.ParseUint(string(f[19]), 10, 64)
	return p, err1 == nil && err2 == nil && err3 == nil
}

// running reports whether process pid exists and is not a zombie.
func running(pid int) bool {
	_, ok := procStat(pid)
	return ok
}

// startTick is when process pid started (clock ticks after boot), 0 when unknown.
func startTick(pid int) uint64 {
	p, _ := procStat(pid)
	return p.start
}

// scanTree lists the live processes (not yet killed) that are in w's process group,
// carry needle in their environment, or descend from such a process. unsure is set
// when a process that started after w's shows an empty environment (it may be
// exec'ing).
func scanTree(w *worker, needle []byte, killed map[int]bool) (found []int, unsure bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, false
	}
	self := os.Getpid()
	children := map[int][]int{}
	var seeds []int
	buf := make([]byte, 32<<10)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		p, ok := procStat(pid)
		if !ok {
			continue // gone, or a zombie: nothing left to kill
		}
		children[p.ppid] = append(children[p.ppid], pid)
		if w.pgid > 0 && p.pgrp == w.pgid {
			seeds = append(seeds, pid)
			continue
		}
		switch has, blank := environHas(pid, needle, buf); {
		case has:
			seeds = append(seeds, pid)
		case blank && !killed[pid] && p.start >= w.born && pid != 2 && p.ppid != 2: // not a kernel thread
			unsure = true
		}
	}
	seen := map[int]bool{}
	for len(seeds) > 0 {
		pid := seeds[len(seeds)-1]
		seeds = seeds[:len(seeds)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if !killed[pid] {
			found = append(found, pid)
		}
		seeds = append(seeds, children[pid]...)
	}
	return found, unsure
}

// environHas reports whether the environment of process pid holds the variable needle
// (NAME=VALUE) as a whole entry, reading it in pieces through buf; blank is set when the
// environment reads empty.
func environHas(pid int, needle, buf []byte) (has, blank bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false, false
	}
	defer func() { _ = f.Close() }()
	keep := 0 // the end of the previous piece, so that a match may span two
	for first := true; ; first = false {
		n, err := f.Read(buf[keep:])
		end := err != nil || n == 0
		if hasVar(buf[:keep+n], needle, first, end) {
			return true, false
		}
		if end {
			return false, first && n == 0 && (err == nil || errors.Is(err, io.EOF))
		}
		data := buf[:keep+n]
		keep = min(len(needle)+1, len(data))
		copy(buf, data[len(data)-keep:])
	}
}

// hasVar reports whether data, a piece of NUL-separated NAME=VALUE entries, holds needle
// as a whole entry; start and end say whether data begins and ends the environment.
func hasVar(data, needle []byte, start, end bool) bool {
	for off := 0; ; {
		i := bytes.Index(data[off:], needle)
		if i < 0 {
			return false
		}
		at, to := off+i, off+i+len(needle)
		if ((at == 0 && start) || (at > 0 && data[at-1] == 0)) && ((to == len(data) && end) || (to < len(data) && data[to] == 0)) {
			return true
		}
		off = at + 1
	}
}
