package lint

import (
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// Limiter bounds all the concurrency of a run by --jobs: files, the statements of one
// file, checksums and dws checksum's workers all draw goroutines from it. The
// goroutine that asks for work always does some of it itself and borrows others only
// when a slot is free, so nested use (the statements of a file checked while other
// files are) never waits for a slot and never deadlocks.
//
// A panic in a borrowed goroutine is carried back to the goroutine that asked, so
// that the command can report it (exit 3) instead of the runtime killing the process.
type Limiter struct {
	free chan struct{}
}

// NewLimiter returns a limiter that runs at most jobs goroutines at once, counting
// the caller's own; jobs < 1 counts as 1.
func NewLimiter(jobs int) *Limiter {
	l := &Limiter{free: make(chan struct{}, max(jobs-1, 0))}
	for range cap(l.free) {
		l.free <- struct{}{}
	}
	return l
}

// Each calls fn(0)…fn(n-1) and returns when all have returned. It borrows at most one
// goroutine per grain items beyond the first grain (grain < 1 counts as 1), so that
// small amounts of work stay on the caller.
func (l *Limiter) Each(n, grain int, fn func(i int)) {
	grain = max(grain, 1)
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
			fn(i)
		}
	}
	var wg sync.WaitGroup
	var crash crashBox
	for range (n - 1) / grain {
		if !l.borrow() {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer l.give()
			defer crash.catch()
			work()
		}()
	}
	func() {
		// The caller's own share: a panic here must still wait for the borrowed
		// goroutines, which may be using what the caller is about to unwind.
		defer crash.catch()
		work()
	}()
	wg.Wait()
	crash.raise()
}

// Go starts fn on a borrowed goroutine when a slot is free and runs it on the caller
// otherwise. wait returns when fn has returned, re-raising its panic.
func (l *Limiter) Go(fn func()) (wait func()) {
	var crash crashBox
	if !l.borrow() {
		func() {
			defer crash.catch()
			fn()
		}()
		return crash.raise
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer l.give()
		defer crash.catch()
		fn()
	}()
	return func() {
		<-done
		crash.raise()
	}
}

func (l *Limiter) borrow() bool {
	if l == nil {
		return false // no limiter: everything runs on the caller
	}
	select {
	case <-l.free:
		return true
	default:
		return false
	}
}

func (l *Limiter) give() { l.free <- struct{}{} }

// crashBox keeps the first panic of a group of goroutines.
type crashBox struct {
	mu  sync.Mutex
	err *PanicError
}

func (c *crashBox) catch() {
	r := recover()
	if r == nil {
		return
	}
	pe, ok := r.(*PanicError)
	if !ok {
		pe = &PanicError{Value: r, Stack: debug.Stack()}
	}
	c.mu.Lock()
	if c.err == nil {
		c.err = pe
	}
	c.mu.Unlock()
}

func (c *crashBox) raise() {
	if c.err != nil {
		panic(c.err)
	}
}

// PanicError is a panic inside the pipeline, carried to the command so that it exits 3
// naming what dws was doing.
type PanicError struct {
	// File is the file being checked when it happened, "" when unknown.
	File  string
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("internal error while checking %s: %v", e.File, e.Value)
	}
	return fmt.Sprintf("internal error: %v", e.Value)
}
