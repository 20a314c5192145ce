package lint

import (
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlcheck"
)

// Dialect is one workflow-definition format, as a value: the way a go/analysis
// Analyzer is one check. ID, Detect and the rules' documentation are all a dialect
// must have; every other part is optional, and an absent part means there is nothing
// of that kind to do (a contract has no graph, a worker no rules of its own).
//
// Each part receives the file's model, decoded once per run by Decode, the simulation
// part included.
type Dialect struct {
	// ID is the dialect id of SPEC §2 ("cortex", "dws-workflow", …).
	ID string
	// Detect reports whether an unlabelled document is of this dialect (SPEC §2).
	Detect func(doc *source.Document) bool
	// Decode reads the document into the dialect's model, once per file and run; the
	// model is Pass.Model for every later part. Nil: the model is nil, and the parts
	// read the document itself.
	Decode func(doc *source.Document) any
	// Graphs builds the definition's graphs for the graph stage (one per workflow;
	// none when the document is too broken to have one). It may itself report the
	// graph stage's rules (duplicate-id, dangling-edge) for what it drops while
	// building: ids of hooks, a transition from a phase that does not exist.
	Graphs func(p *Pass) []GraphCheck
	// Rules are the dialect's own rules. A rule with a Check runs on every file of the
	// dialect where it is not turned off.
	Rules []*Rule
	// Checks are checks that report rules other than one of their own: a family of
	// rules that one pass answers, or a core rule such as ref whose meaning is the
	// dialect's.
	Checks []Check
	// Config parses the top-level sections of .dws.yaml the dialect owns, by key. No
	// two dialects may own one key.
	Config map[string]SectionParser
	// ConfigDoc is the commented example of those sections that dws init writes.
	ConfigDoc string
	// Bundle makes the dialect's definitions span files checked together (a job
	// spec); nil for a dialect of single files.
	Bundle *Bundle
	// Simulate explores every run of a definition that validated (dws simulate): it
	// hands package sim the dialect's run-time semantics and reports the sim-* rules on
	// the file. Nil: the dialect is not simulated. Each sim.Definition's Play runs
	// scenarios (dws test) and its Pin writes paths as scenarios (--emit-scenarios).
	Simulate func(p *Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error)
	// SQLSites lists the SQL a document holds: the strings that are statements or
	// boolean expressions, where findings go, and how many arguments a statement is
	// given. The core SQL stage (package sqlcheck, which owns the sql: section and the
	// SQL rules) checks them. Nil: the dialect's documents hold no SQL.
	SQLSites func(p *Pass) []sqlcheck.Site
	// SQLExample writes a document of the dialect whose one SQL site holds ex, for the
	// SQL rules' documentation; optional. The first dialect with one documents them.
	SQLExample func(ex sqlcheck.Example) Example
	// Examples are the documentation examples the dialect gives for core rules (rules
	// of every dialect), by rule id: each core rule shows the first dialect's, in
	// registration order, that gives one.
	Examples map[string]Examples

	// The parts below serve the language server (dws lsp) and the drawings (dws
	// graph): what the graphs alone do not say, such as where the document names its
	// nodes and what its ends are called.

	// EdgeFields are the fields whose values name a node: the language server
	// completes node ids in them.
	EdgeFields []string
	// Describe is a node's kind and a line about it, for hover. Nil: "node", and no
	// line.
	Describe func(doc *source.Document, n graph.Node) (kind, text string)
	// References are the places inside strings, other than edges, where the document
	// names node id of graph g (a template that reads a step's outputs): a rename of
	// the node edits them too. Nil: a node is named by its edges only.
	References func(doc *source.Document, g *graph.Graph, id string) []Reference
	// EndLabels name the outcomes with which node n, an exit, ends a run, as dws
	// simulate names them. Nil: "end".
	EndLabels func(doc *source.Document, n graph.Node) []string
	// EdgeLabel names edge e, which leaves node from, as a reader of the dialect says
	// it. Nil, or "": the edge's kind.
	EdgeLabel func(doc *source.Document, from graph.Node, e graph.Edge) string
	// Fix is the quick fix the language server offers for finding f, when its result
	// is certain: a member to add to an object. Nil, or false: none.
	Fix func(doc *source.Document, f Diagnostic) (QuickFix, bool)
	// Units describes the file's versioned definitions for dws diff and the version
	// rules (SPEC §17): nodes, edges, classified fields, persisted positions. Nil: the
	// dialect has none.
	Units func(p *Pass) []*change.Unit
}

// QuickFix adds the member Key: Value (a JSON literal, which YAML reads alike) to the
// object at Object, as its first member, in the document's own syntax.
type QuickFix struct {
	Title      string
	Object     string
	Key, Value string
}

// Examples are a rule's documentation examples (see Rule).
type Examples struct {
	Fail, Pass Example
}

// Reference is where a string names a node inside its text, as a template does.
type Reference struct {
	// Pointer is the string; From and To delimit the node's id in its text (Go byte
	// offsets into the value, as source.Document.StringPos takes them).
	Pointer  string
	From, To int
	// Holds reports whether a reference of this kind can name a node name; Why says
	// to the user why it cannot (after "cannot be renamed to …: ").
	Holds func(name string) bool
	Why   string
}

// NodeObject is the pointer of the object that defines node n: the parent of where
// its id is written.
func NodeObject(n graph.Node) string {
	p := n.IDPointer
	if p == "" {
		p = n.Pointer
	}
	if k := strings.LastIndexByte(p, '/'); k >= 0 {
		return p[:k]
	}
	return p
}

// Check is code that reports the findings of the rules it names. It runs on a file
// when at least one of them is on for it, and reporting any other rule is a bug.
type Check struct {
	Rules []string
	Run   func(p *Pass)
}

// Pass is one file going through a dialect part: the file to report on and the model
// Decode made of it.
type Pass struct {
	*File
	Model any
}

// GraphCheck is one graph and how the core graph rules judge it.
type GraphCheck struct {
	Graph   *graph.Graph
	Options graph.Options
}

// Bundle is the cross-file part of a dialect whose definitions span several files,
// such as a DWS job spec: a directory of workers, contracts, teams, tasks and workflows.
type Bundle struct {
	// Root returns the root directory of the bundle that dir lies in or is.
	Root func(dir string) (root string, ok bool)
	// Files lists the files of the bundle at root: check files are validated like any
	// other file; context files are only read for the cross-file rules.
	Files func(root string) (check, context []string, err error)
	// Check runs the cross-file rules over the parsed files of one bundle (context
	// files have no Dialect). It may report any registered rule; findings on files
	// outside the run are dropped.
	Check func(root string, files []*File)
}

// graphRules are the rules the graph stage reports, by the kind of graph finding.
var graphRules = map[graph.Kind]string{
	graph.DuplicateID:  "duplicate-id",
	graph.DanglingEdge: "dangling-edge",
	graph.Entry:        "entry",
	graph.Unreachable:  "unreachable",
	graph.Cycle:        "cycle",
	graph.DeadEnd:      "dead-end",
	graph.StepLimit:    "step-limit",
}

// GraphRule is the rule that reports a kind of graph finding.
func GraphRule(k graph.Kind) string { return graphRules[k] }

// DescribeBy is a Describe that reads a node's object: its kind from the string field
// kind, its line from the first of the string fields text that says more than the id.
func DescribeBy(kind string, text ...string) func(doc *source.Document, n graph.Node) (string, string) {
	return func(doc *source.Document, n graph.Node) (string, string) {
		obj := NodeObject(n)
		k, _ := doc.Lookup(obj + "/" + kind).Str()
		for _, f := range text {
			if v, ok := doc.Lookup(obj + "/" + f).Str(); ok && v != n.ID {
				return k, v
			}
		}
		return k, ""
	}
}
