// Package sim explores every run of a workflow definition: it counts the distinct
// paths exactly, per end state, finds a small set of paths that takes every edge any
// path can take, and lists the edges none can. It knows choice points, outcomes and
// states, never a format: each dialect hands it its run-time semantics as a Machine,
// the way it hands lint its graph.
//
// A Machine's states must carry whatever bounds the run (a loop's iteration count, a
// run's visits so far), so that the states a run passes through never repeat: the state
// graph is then acyclic and every count is dynamic programming over it, never an
// enumeration of paths. sim adds one bound of its own, Options.MaxSteps: a run that has
// taken that many steps ends cut.
//
// An exploration is bounded three ways besides (SPEC §8.4, "giving up is said"): the
// states it explores (Options.MaxStates), the memory its exact counts take
// (Options.MaxCountBytes: a count is kept for every state, and a loop unrolled over
// thousands of visits makes counts of thousands of digits at each of a million states)
// and its time (Options.MaxTime per definition, and Options.Ctx: a request that was
// cancelled). A bound
// that stops it is a *BoundError naming the bound, never a partial count.
//
// Paths are structural. Every outcome a Machine offers is free, except one it marks
// Dead (a branch that can never be true): dead outcomes are not taken and their edges
// are listed as uncoverable with the proof. Correlations between choice points (two
// branches that need contradictory values) are not solved for the count.
package sim

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"time"
)

// Status is how a run ends.
type Status uint8

// The end states of SPEC §8.1, in report order.
const (
	Succeeded Status = iota
	Failed
	Escalated
	Aborted
	Cut
	numStatus
)

var statusNames = [...]string{"succeeded", "failed", "escalated", "aborted", "cut"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Statuses lists every end state in report order.
func Statuses() []Status { return []Status{Succeeded, Failed, Escalated, Aborted, Cut} }

// Edge names one outcome of one node of the definition: "fraud-score:fail". It is what
// coverage counts; several states may share one edge (a loop's body on each turn).
type Edge struct {
	Node    string
	Outcome string
}

func (e Edge) String() string { return e.Node + ":" + e.Outcome }

// Move is one outcome offered at a state: the edge it takes, and either the state it
// leads to or, when End is set, how the run ends there.
type Move[S comparable] struct {
	Edge Edge
	// To names the node the move leads to, for drawing; "" when it ends the run.
	To   string
	Next S
	// End, when set, ends the run with Status.
	End    bool
	Status Status
	// Dead marks an outcome that can never happen (a constant branch's other side);
	// Why is the proof, shown with the uncoverable edge.
	Dead bool
	Why  string
	// Finding, when set, is a rule the dialect reports (once per node) if some path
	// takes this move: sim-unhandled-failure on a failure nothing handles,
	// sim-max-iterations on the visit past an iteration limit.
	Finding string
}

// Machine is a dialect's run-time semantics. Moves must return the same moves for the
// same state every time, in a fixed order (the order outcomes are listed in reports).
type Machine[S comparable] interface {
	Start() S
	Moves(s S) []Move[S]
}

// Options bound the exploration.
type Options struct {
	// MaxSteps ends a run that has taken this many steps (status Cut); 0 means no bound
	// beyond the Machine's own.
	MaxSteps int
	// Context is the context every run starts with (dws simulate --context); the
	// dialect uses it to decide branches and find witnesses.
	Context map[string]any
	// EdgesOnly says the caller wants the counts, the edges and which are dead, and
	// nothing else (dws test's coverage): dialects may skip what only a report shows
	// and costs a search, such as the contexts that make a branch raise an error.
	EdgesOnly bool
	// MaxStates stops the exploration of a Machine whose bounds leave more states than
	// this (an error, never a silently partial count); 0 means DefaultMaxStates.
	MaxStates int
	// EdgeCounts asks for the number of paths through each edge (EdgeInfo.Paths, for
	// the JSON and Mermaid reports; dws simulate --path wants it too). It keeps every
	// state's exact count at once, which for a long definition whose counts have
	// thousands of digits is far more memory than the counts of each end state, which
	// keep only the states between the explored and the unexplored (MaxCountBytes
	// bounds both).
	EdgeCounts bool
	// MaxCountBytes stops the exploration when the exact path counts it keeps at once
	// would take more memory than this; 0 means DefaultMaxCountBytes.
	MaxCountBytes int64
	// MaxTime stops one exploration (one definition) that takes longer than this; 0
	// means no bound but Ctx's.
	MaxTime time.Duration
	// Ctx, when set, stops the exploration once it is done: a cancelled request (the
	// language server) or a deadline of the caller's. The dialects stop their own
	// searches (witness contexts) with it too.
	Ctx context.Context
}

// The default bounds.
const (
	DefaultMaxStates     = 1_000_000
	DefaultMaxCountBytes = 256 << 20
)

// ErrTooLarge is returned when the state graph exceeds Options.MaxStates.
var ErrTooLarge = errors.New("sim: the definition has more states than the limit")

// ErrCycle is returned when a Machine's states repeat: its bounds are not in its state.
var ErrCycle = errors.New("sim: a run can return to a state it was in; the machine's bounds must be part of its state")

// ErrCountsTooLarge is returned when the exact counts outgrow Options.MaxCountBytes.
var ErrCountsTooLarge = errors.New("sim: the exact path counts need more memory than the limit")

// BoundError is an exploration that a bound stopped before it was complete. It wraps
// ErrTooLarge (states), ErrCountsTooLarge (count size) or the context's error (time).
type BoundError struct {
	// Bound names the bound: "states", "count size" or "time".
	Bound string
	// Limit is its value ("1000000 states", "256 MiB"); "" for a cancellation.
	Limit string
	Err   error
}

func (e *BoundError) Error() string {
	what := "the " + e.Bound + " bound"
	if e.Limit != "" {
		what += " (" + e.Limit + ")"
	}
	switch {
	case errors.Is(e.Err, context.Canceled):
		return "stopped: the simulation was cancelled"
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "stopped at " + what + ": the simulation took longer than that"
	case errors.Is(e.Err, ErrTooLarge):
		return "stopped at " + what + ": the definition has more states than that"
	case errors.Is(e.Err, ErrCountsTooLarge):
		return "stopped at " + what + ": its exact path counts need more memory than that"
	}
	return "stopped at " + what + ": " + e.Err.Error()
}

func (e *BoundError) Unwrap() error { return e.Err }

// Stopped is the BoundError of a context that is done (the time bound), nil while it
// is not or when ctx is nil. A context's cause, when it has its own, names the limit.
func Stopped(ctx context.Context) error {
	if ctx == nil {
		return nil
	}
	err := ctx.Err()
	if err == nil {
		return nil
	}
	be := &BoundError{Bound: "time", Err: err}
	if c := context.Cause(ctx); c != nil && !errors.Is(c, err) {
		be.Limit = c.Error()
	}
	return be
}

// Counts are exact path counts per end state.
type Counts [numStatus]*big.Int

// Total is the number of paths.
func (c *Counts) Total() *big.Int {
	t := new(big.Int)
	for _, n := range c {
		if n != nil {
			t.Add(t, n)
		}
	}
	return t
}

// Of is the number of paths ending in s.
func (c *Counts) Of(s Status) *big.Int {
	if c[s] == nil {
		return new(big.Int)
	}
	return c[s]
}
