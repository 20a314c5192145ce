package sim

import (
	"errors"
	"fmt"
	"maps"
)

// Scenarios (SPEC §8.3) pin one run: a stub answers each invocation of a node, and the
// run follows the dialect's semantics from there. Play drives a Machine through one such
// run; the dialect's Player decides each choice point from the stubs' answers and the
// run's context, so the edges a scenario takes are the edges exploration counts.

// Answer is what a stub says for one invocation of a node.
type Answer struct {
	// Kind is the answer's kind as a scenario writes it: "ok", "fail", or another
	// kind the node's Answers list.
	Kind string
	// Reason is why a fail failed (fail: timeout); a dialect may route on it.
	Reason string
	// Decision is what an answer of another kind says (the value a scenario gives
	// it); one of the node's Decisions.
	Decision string
	// Output is the step's output (merged into the context by dialects that do so).
	Output map[string]any
	// Files are what a stub worker process left in the call's Files, by name, once it
	// had exited: the dialect reads them (nil when the call had no Files or the stub
	// was no process).
	Files map[string]File
}

// File is one file a stub worker process had to write, as dws found it.
type File struct {
	// Problem says why there is no text, in words that follow the file's name:
	// "was not written", "is not a regular file", "is not readable", "is not UTF-8
	// text". Empty when Text holds the file.
	Problem string
	// Text is the file's first MaxFileRead bytes; Whole says they are all of it.
	Text  string
	Whole bool
}

// MaxFileRead is how much of each file a stub worker process wrote is read.
const MaxFileRead = 64 << 10

// Call is one invocation of a node, as a stub worker process reads it on stdin.
type Call struct {
	Node    string         `json:"node"`
	Attempt int            `json:"attempt"`
	Input   any            `json:"input"`
	Context map[string]any `json:"context"`
	// FilesRoot and Files are where the node must write files, by name (the outputs
	// the dialect reads back from Answer.Files). The dialect gives them relative, Files
	// relative to FilesRoot; a stub worker process gets them absolute, under its
	// working directory, and after it exits each is read.
	FilesRoot string            `json:"-"`
	Files     map[string]string `json:"output_paths,omitempty"`
}

// Stubs answer calls. pinned is false when the scenario pins nothing for the node: the
// dialect then takes its default (SPEC §8.3: the first outcome, an ai step's smallest
// output).
type Stubs interface {
	Answer(c Call) (a Answer, pinned bool, err error)
}

// StubError is a stub that could not answer (a worker process that hung, crashed or
// printed garbage): it fails the scenario with its message.
type StubError struct {
	Node string
	Err  error
}

func (e *StubError) Error() string { return fmt.Sprintf("stub for %q: %v", e.Node, e.Err) }

func (e *StubError) Unwrap() error { return e.Err }

// RuleError is a scenario that breaks one of the sim-* rules on its way (a pinned ai
// output its schema rejects: sim-stub-output): it fails the scenario.
type RuleError struct {
	Rule, Node, Message string
}

func (e *RuleError) Error() string { return e.Message }

// Node is what a scenario may pin at one node of a definition.
type Node struct {
	// Kind is the node's kind as the dialect names it.
	Kind string
	// Outcomes are every outcome the node has, in report order.
	Outcomes []string
	// Answers are the answer kinds a stub may give it (ok, fail, or another kind
	// whose value is one of Decisions); none for a node the definition decides
	// itself, and Decided then says how.
	Answers []string
	Decided string
	// Decisions are the values it accepts in an answer of a kind other than ok and
	// fail.
	Decisions []string
}

// Run is one concrete run.
type Run struct {
	Steps  []Edge
	Status Status
	// Context is the context at the end of the run.
	Context map[string]any
	// Visits counts how many times the run came to each node (retries of one visit
	// are one visit).
	Visits map[string]int
	// Notes are what the run noticed on the way, in order.
	Notes []string
	// Findings are sim-* findings the run met on its way without stopping (a branch
	// expression that raised an error, or that the evaluator could not evaluate), in
	// order: a scenario reports them and still passes.
	Findings []RuleError
}

// Player decides, at each state of a run, which move is taken. It is the dialect's:
// it asks the stubs, evaluates branches and keeps the context and visits in run.
type Player[S comparable] interface {
	Decide(s S, moves []Move[S], run *Run) (int, error)
}

// ErrNoMove is a Machine that offered no move at a state.
var ErrNoMove = errors.New("sim: no move at a state of the run")

// Play runs m from its start, each choice decided by p, for at most maxSteps steps (the
// run then ends cut). context is the starting context; it is copied.
func Play[S comparable](m Machine[S], p Player[S], context map[string]any, maxSteps int) (*Run, error) {
	run := &Run{Context: maps.Clone(context), Visits: map[string]int{}}
	if run.Context == nil {
		run.Context = map[string]any{}
	}
	s := m.Start()
	for {
		if maxSteps > 0 && len(run.Steps) >= maxSteps {
			run.Status = Cut
			return run, nil
		}
		moves := m.Moves(s)
		if len(moves) == 0 {
			return run, ErrNoMove
		}
		i, err := p.Decide(s, moves, run)
		if err != nil {
			return run, err
		}
		if i < 0 || i >= len(moves) {
			return run, fmt.Errorf("sim: the player chose move %d of %d", i, len(moves))
		}
		mv := moves[i]
		run.Steps = append(run.Steps, mv.Edge)
		if mv.End {
			run.Status = mv.Status
			return run, nil
		}
		s = mv.Next
	}
}

// Pick is the index of the first move whose outcome is one of outcomes (tried in order),
// among moves that are not dead; -1 when there is none.
func Pick[S comparable](moves []Move[S], outcomes ...string) int {
	for _, o := range outcomes {
		for i, mv := range moves {
			if mv.Edge.Outcome == o && !mv.Dead {
				return i
			}
		}
	}
	return -1
}

// Coverage is the share of edges some scenarios took, among the edges any path can take.
type Coverage struct {
	// Covered and Coverable count edges; Uncovered lists the coverable edges no run
	// took, and Dead the edges no path can take, each with why.
	Covered, Coverable int
	Uncovered          []Edge
	Dead               []EdgeInfo
}

// Percent is Covered/Coverable in percent; 100 when nothing is coverable.
func (c Coverage) Percent() float64 {
	if c.Coverable == 0 {
		return 100
	}
	return 100 * float64(c.Covered) / float64(c.Coverable)
}

// CoverageOf is the coverage of r's edges by the steps of runs.
func CoverageOf(r *Result, runs []*Run) Coverage {
	taken := map[Edge]bool{}
	for _, run := range runs {
		for _, e := range run.Steps {
			taken[e] = true
		}
	}
	var c Coverage
	for _, e := range r.Edges {
		switch {
		case !e.Coverable:
			c.Dead = append(c.Dead, e)
		case taken[e.Edge]:
			c.Coverable++
			c.Covered++
		default:
			c.Coverable++
			c.Uncovered = append(c.Uncovered, e.Edge)
		}
	}
	return c
}
