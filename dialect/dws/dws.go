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
//     verification_gate; a sub-workflow phase is no exception. A phase written to
//     expect a gate (an approval gate placed after_verification, a transition leaving
//     it on_verification_fail) has its missing gate reported there, by gate-order or
//     failure-edge, and not also by missing-verification-gate (unless those are off).
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
func Dialects() []*lint.Dialect {
	return []*lint.Dialect{jobSpec(), workflowDialect(), contract(), task(), team(), worker()}
}

// workflowDialect is dws-workflow (Spec 6).
func workflowDialect() *lint.Dialect {
	return &lint.Dialect{
		ID: WorkflowID,
		// A document with top-level phases, transitions and entry_phase.
		Detect:   func(doc *source.Document) bool { return hasAll(doc, "phases", "transitions", "entry_phase") },
		Decode:   func(doc *source.Document) any { return decodeWorkflow(doc.Root) },
		Graphs:   workflowGraphs,
		Simulate: simulateWorkflow,
		Units:    workflowUnits,
		Rules: []*lint.Rule{&loopBound, &loopTarget, &join, &parallelStructure, &condition, &duration,
			&timeoutExceeds, &missingVerificationGate, &gateOrder, &failureEdge, &budget, &hook,
			&selectionStrategy, &subWorkflow, &infeasibleBranch, &joinUnsatisfiable, &loopExhausted},

		EdgeFields: workflowEdgeFields,
		Describe:   describePhase,
		EndLabels:  phaseEnds,
		EdgeLabel:  transitionLabel,
		Fix:        fix,
	}
}

// workflowModel is the workflow Decode made of the file.
func workflowModel(p *lint.Pass) *workflow {
	if w, ok := p.Model.(*workflow); ok {
		return w
	}
	return decodeWorkflow(p.Doc.Root)
}

// contract is dws-contract, a worker-to-worker contract of Spec 7.
func contract() *lint.Dialect {
	return &lint.Dialect{
		ID: ContractID,
		// A document with top-level contract_id and parties.
		Detect: func(doc *source.Document) bool { return hasAll(doc, "contract_id", "parties") },
		// contract-artifact needs the job spec's workers: the bundle reports it.
		Rules: []*lint.Rule{&contractParty, &contractArtifact, &qualityBaseline},
		Units: contractUnits,
		Checks: []lint.Check{{Rules: []string{duration.ID}, Run: func(p *lint.Pass) {
			checkDurations(p.File, []located{{p.Doc.Root.Get("delivery_sla").Get("max_duration"), "/delivery_sla/max_duration"}})
		}}},
	}
}

// team is dws-team, a Spec 7 team; its rule needs the job spec.
func team() *lint.Dialect {
	return &lint.Dialect{
		ID: TeamID,
		// A document with a top-level team.
		Detect: func(doc *source.Document) bool { return hasAll(doc, "team") },
		Rules:  []*lint.Rule{&teamMember},
	}
}

// task is dws-task, a Spec 7 task. Its rule and its dependency graph span the job
// spec's tasks and are checked with it.
func task() *lint.Dialect {
	return &lint.Dialect{
		ID: TaskID,
		// A document with a top-level task_id.
		Detect: func(doc *source.Document) bool { return hasAll(doc, "task_id") },
		Rules:  []*lint.Rule{&taskRole},

		EdgeFields: taskEdgeFields,
	}
}

// worker is dws-worker, a worker of a job spec, read tolerantly.
func worker() *lint.Dialect {
	return &lint.Dialect{
		ID: WorkerID,
		// A document with a top-level identity.
		Detect: func(doc *source.Document) bool { return hasAll(doc, "identity") },
	}
}

// jobSpec is dws-jobspec: the jobspec.json manifest, and the bundle that loads the job
// spec around it. The job spec's cross-file rules are registered by the dialects of the
// files they land in; ref is a core rule.
func jobSpec() *lint.Dialect {
	return &lint.Dialect{
		ID: JobSpecID,
		// A file named jobspec.json.
		Detect: func(doc *source.Document) bool {
			return filepath.Base(filepath.FromSlash(doc.Path)) == ManifestName
		},
		Bundle:   &lint.Bundle{Root: bundleRoot, Files: bundleFiles, Check: checkBundle},
		Simulate: simulateTasks,
	}
}

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
