// Package dws holds the Digital Worker Standard dialects: Spec 6 workflows
// (dws-workflow) and the Spec 7 coordination artifacts of a job spec (dws-contract,
// dws-team, dws-task, dws-worker) with the job-spec manifest (dws-jobspec).
//
// A workflow is a phase graph (graph.go). A job spec is a directory holding
// jobspec.json; the JobSpec dialect is the lint.Bundle that loads it whole and runs the
// cross-file rules (jobspec.go).
//
// Decisions where SPEC and the seeds are silent:
//   - Edges: sequential and handoff go from → to; conditional from → each branch's to and
//     from → default; parallel from → each branch and each branch → join.to (also when the
//     branch has transitions of its own); loop from → to, a bounded edge (a loop without
//     max_iterations is a schema finding, never a cycle); the failure fields of any
//     transition go from → the phase they name. delegation adds no edge. A branch that is
//     also its join target gets no edge to itself (the join rule reports it, once).
//   - Exit: a phase none of whose resolved outgoing edges is a non-loop, non-failure edge.
//     A delegation returns to its phase, so it does not keep a phase from being an exit;
//     failure edges are taken only when the phase fails, so they do not either.
//   - A transition whose from names no phase is dangling-edge at from; its edges are
//     dropped.
//   - missing-verification-gate, gate-order and failure-edge look at the phase's own
//     verification_gate; a sub-workflow phase is no exception.
//   - A phase whose sub_workflow is its own workflow is sub-workflow in any file; names
//     and cycles across workflows need the job spec.
//   - Durations follow RFC 3339 Appendix A exactly (no fractions, no skipped units such
//     as PT1H30S). To compare them, a year counts 365 days and a month 30 days.
//   - budget sums only the worker budgets in the cost ceiling's currency; each budget in
//     another currency is its own finding. A worker budget's alert_threshold must lie in
//     (0, 1] like the alert thresholds.
//   - JSONPath (condition): $ then .name, ..name, .*, [n], [*], ['name'], ["name"],
//     slices [a:b:c], unions [a,b] and filters [?…]; a name is letters, digits, _ and -.
//   - Job-spec reading, the role sets and which references are checked: see jobspec.go.
package dws

import (
	"path/filepath"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
)

// Dialect ids.
const (
	WorkflowID = "dws-workflow"
	ContractID = "dws-contract"
	TeamID     = "dws-team"
	TaskID     = "dws-task"
	WorkerID   = "dws-worker"
	JobSpecID  = "dws-jobspec"
)

// ManifestName is the file that makes a directory a job spec.
const ManifestName = "jobspec.json"

// Dialects returns the DWS dialects in detection order: the manifest is known by its
// name, so it goes first.
func Dialects() []lint.Dialect {
	return []lint.Dialect{JobSpec{}, Workflow{}, Contract{}, Task{}, Team{}, Worker{}}
}

// Workflow is the dws-workflow dialect (Spec 6).
type Workflow struct{}

// ID implements lint.Dialect.
func (Workflow) ID() string { return WorkflowID }

// Detect reports a document with top-level phases, transitions and entry_phase.
func (Workflow) Detect(doc *source.Document) bool {
	return hasAll(doc, "phases", "transitions", "entry_phase")
}

// Rules implements lint.Dialect.
func (Workflow) Rules() []lint.Rule {
	return []lint.Rule{loopBound, loopTarget, join, parallelStructure, condition, duration,
		timeoutExceeds, missingVerificationGate, gateOrder, failureEdge, budget, hook,
		selectionStrategy, subWorkflow}
}

// Lint implements lint.Dialect.
func (Workflow) Lint(f *lint.File) {
	w := decodeWorkflow(f.Doc.Root)
	checkDuplicateHooks(f, w)
	checkDanglingFrom(f, w)
	checkLoopBound(f, w)
	checkLoopTarget(f, w)
	checkJoin(f, w)
	checkParallelStructure(f, w)
	checkConditions(f, workflowConditions(w))
	checkDurations(f, workflowDurations(w))
	checkTimeoutExceeds(f, w)
	checkMissingVerificationGate(f, w)
	checkGateOrder(f, w)
	checkFailureEdge(f, w)
	checkBudget(f, w)
	checkHooks(f, w)
	checkSelectionStrategy(f, w)
	checkSelfSubWorkflow(f, w)
}

// Contract is the dws-contract dialect (a worker-to-worker contract of Spec 7).
type Contract struct{}

// ID implements lint.Dialect.
func (Contract) ID() string { return ContractID }

// Detect reports a document with top-level contract_id and parties.
func (Contract) Detect(doc *source.Document) bool { return hasAll(doc, "contract_id", "parties") }

// Rules implements lint.Dialect.
func (Contract) Rules() []lint.Rule {
	return []lint.Rule{contractParty, contractArtifact, qualityBaseline}
}

// Graphs implements lint.Dialect: a contract has no graph.
func (Contract) Graphs(*lint.File) []lint.GraphCheck { return nil }

// Lint implements lint.Dialect.
func (Contract) Lint(f *lint.File) {
	root := f.Doc.Root
	checkPartyObligations(f, root)
	checkQualityBaseline(f, root)
	checkDurations(f, []located{{root.Get("delivery_sla").Get("max_duration"), "/delivery_sla/max_duration"}})
}

// Team is the dws-team dialect (a Spec 7 team).
type Team struct{}

// ID implements lint.Dialect.
func (Team) ID() string { return TeamID }

// Detect reports a document with a top-level team.
func (Team) Detect(doc *source.Document) bool { return hasAll(doc, "team") }

// Rules implements lint.Dialect.
func (Team) Rules() []lint.Rule { return []lint.Rule{teamMember} }

// Graphs implements lint.Dialect: a team has no graph.
func (Team) Graphs(*lint.File) []lint.GraphCheck { return nil }

// Lint implements lint.Dialect: a team's rules need the job spec.
func (Team) Lint(*lint.File) {}

// Task is the dws-task dialect (a Spec 7 task).
type Task struct{}

// ID implements lint.Dialect.
func (Task) ID() string { return TaskID }

// Detect reports a document with a top-level task_id.
func (Task) Detect(doc *source.Document) bool { return hasAll(doc, "task_id") }

// Rules implements lint.Dialect.
func (Task) Rules() []lint.Rule { return []lint.Rule{taskRole} }

// Graphs implements lint.Dialect: the dependency graph spans the job spec's tasks and is
// checked with it.
func (Task) Graphs(*lint.File) []lint.GraphCheck { return nil }

// Lint implements lint.Dialect: a task's rules need the job spec.
func (Task) Lint(*lint.File) {}

// Worker is the dws-worker dialect: a worker of a job spec, read tolerantly.
type Worker struct{}

// ID implements lint.Dialect.
func (Worker) ID() string { return WorkerID }

// Detect reports a document with a top-level identity.
func (Worker) Detect(doc *source.Document) bool { return hasAll(doc, "identity") }

// Rules implements lint.Dialect.
func (Worker) Rules() []lint.Rule { return nil }

// Graphs implements lint.Dialect: a worker has no graph.
func (Worker) Graphs(*lint.File) []lint.GraphCheck { return nil }

// Lint implements lint.Dialect.
func (Worker) Lint(*lint.File) {}

// JobSpec is the dws-jobspec dialect: the jobspec.json manifest, and the bundle that
// loads the job spec around it.
type JobSpec struct{}

// ID implements lint.Dialect.
func (JobSpec) ID() string { return JobSpecID }

// Detect reports a file named jobspec.json.
func (JobSpec) Detect(doc *source.Document) bool {
	return filepath.Base(filepath.FromSlash(doc.Path)) == ManifestName
}

// Rules implements lint.Dialect. The job spec's cross-file rules are registered by the
// dialects of the files they land in; ref is registered by the DireClaw dialect.
func (JobSpec) Rules() []lint.Rule { return nil }

// Graphs implements lint.Dialect: the manifest has no graph.
func (JobSpec) Graphs(*lint.File) []lint.GraphCheck { return nil }

// Lint implements lint.Dialect.
func (JobSpec) Lint(*lint.File) {}

func hasAll(doc *source.Document, keys ...string) bool {
	r := doc.Root
	if r == nil || r.Kind != source.Object {
		return false
	}
	for _, k := range keys {
		if r.Member(k) == nil {
			return false
		}
	}
	return true
}
