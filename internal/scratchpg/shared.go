package scratchpg

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"testing"
)

// Shared is the one cluster of a test binary: started on first use, with setup run on
// it once, and stopped when the tests end, also when they are interrupted.
type Shared struct {
	setup func(*Cluster) error

	once sync.Once
	mu   sync.Mutex
	c    *Cluster
	err  error
}

// NewShared returns a shared cluster that runs setup (creating databases, functions)
// right after it starts.
func NewShared(setup func(*Cluster) error) *Shared { return &Shared{setup: setup} }

// Get returns the cluster, starting it on first use; the test fails without it, never
// skips.
func (s *Shared) Get(t testing.TB) *Cluster {
	t.Helper()
	s.once.Do(func() {
		c, err := Start()
		if err != nil {
			s.err = err
			return
		}
		s.mu.Lock()
		s.c = c
		s.mu.Unlock()
		if s.setup != nil {
			s.err = s.setup(c)
		}
	})
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.c
}

// Stop stops the cluster if it was started.
func (s *Shared) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.c != nil {
		s.c.Stop()
		s.c = nil
	}
}

// Main runs the tests of m and stops the cluster afterwards, or on an interrupt.
func (s *Shared) Main(m *testing.M) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		s.Stop()
		os.Exit(1)
	}()
	code := m.Run()
	s.Stop()
	os.Exit(code)
}
