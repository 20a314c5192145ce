package lsp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.lsp.dev/protocol"
)

// Simulations (the code lens and its dws.simulate command) cost far more than a check:
// the simulator explores every run. So they are shared and bounded:
//   - a document's simulation is kept until its text, version or config changes: every
//     request for the same (version, text, config) is answered from the one simulation,
//     and requests that arrive while it runs wait for it;
//   - a document runs one simulation at a time: a simulation for a newer version waits
//     for the running one to end, and one that a newer request superseded while it
//     waited never starts (its requests get ContentModified);
//   - the server runs at most GOMAXPROCS-1 simulations at once (at least one), whatever
//     the documents, leaving a core to check what is being typed;
//   - a request that is cancelled ($/cancelRequest, or the session ending) returns
//     RequestCancelled at once. The simulation itself runs on, to its end or the
//     simulator's bounds (the states, the size of the exact counts and lensTime, the
//     same bounds as dws simulate), and is kept for the next request;
//   - a simulation that a newer text of its document replaces, or whose document is
//     closed, is stopped through its context: its requests get ContentModified.

// simKey is what a simulation ran on: one text of a document, under one config.
type simKey struct {
	version int32
	ws      *workspace
	raw     string
}

// simJob is one simulation of a document, shared by every request for its key.
type simJob struct {
	key    simKey
	ctx    context.Context // cancelled when the job is superseded or its document closed
	cancel context.CancelFunc
	done   chan struct{} // closed when val and err are set
	val    any
	err    error
}

// lensTime bounds one definition's simulation in the server, as --max-time does on the
// command line.
const lensTime = time.Minute

// errSuperseded is the error of a simulation that a newer one replaced before it started.
var errSuperseded = errors.New("superseded")

// simulation is run's result for d at key, from the simulation d already has for that
// key (done or running) or from a new one. slot is which of d's simulations this is
// (d.lens or d.report), guarded by d.mu.
func (s *Server) simulation(ctx context.Context, d *document, slot **simJob, key simKey, run func(context.Context) (any, error)) (any, error) {
	if ctx.Err() != nil {
		return nil, protocol.ErrRequestCancelled // cancelled before it began: start nothing
	}
	d.mu.Lock()
	j := *slot
	if j == nil || j.key != key {
		if j != nil {
			j.cancel() // superseded: stop it if it runs
		}
		j = &simJob{key: key, done: make(chan struct{})}
		j.ctx, j.cancel = context.WithCancel(context.Background())
		*slot = j
		go s.runSimulation(d, slot, j, run)
	}
	d.mu.Unlock()
	select {
	case <-j.done:
	case <-ctx.Done():
		return nil, protocol.ErrRequestCancelled
	}
	switch {
	case errors.Is(j.err, errSuperseded):
		return nil, protocol.ErrContentModified
	case j.err != nil:
		return nil, j.err
	}
	return j.val, nil
}

// runSimulation runs j once d's previous simulation has ended and a server-wide slot is
// free, unless a newer simulation has replaced it meanwhile.
func (s *Server) runSimulation(d *document, slot **simJob, j *simJob, run func(context.Context) (any, error)) {
	defer close(j.done)
	current := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return *slot == j && !d.closed
	}
	d.sim <- struct{}{}
	defer func() { <-d.sim }()
	if !current() {
		j.err = errSuperseded
		return
	}
	s.sims <- struct{}{}
	defer func() { <-s.sims }()
	if !current() {
		j.err = errSuperseded
		return
	}
	defer func() {
		if r := recover(); r != nil {
			j.val, j.err = nil, fmt.Errorf("dws lsp: the simulation failed (a bug; please report it): %v", r)
		}
	}()
	if s.simulating != nil {
		s.simulating(d.uri, j.key.version)
	}
	j.val, j.err = run(j.ctx)
	if j.ctx.Err() != nil {
		j.val, j.err = nil, errSuperseded
	}
}

// stopSimulations cancels d's running simulations; d.mu is held.
func (d *document) stopSimulations() {
	for _, j := range []*simJob{d.lens, d.report} {
		if j != nil {
			j.cancel()
		}
	}
}
