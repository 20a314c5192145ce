// Package scenario reads scenario files (NAME.scenario.yaml, SPEC §8.3) and runs them:
// each pins one run of a definition (its starting context and the stubs' answers), and
// says what the run must do. It knows no dialect: the definition's dialect hands it the
// nodes a scenario may name and a Play function (sim.Definition), and the scenario
// answers the run's calls from its stubs.
//
// Decisions where SPEC leaves a choice open:
//   - A scenario file is never a definition: dws validate checks its shape against the
//     scenario schema (a directory walk takes *.scenario.yaml as the include globs allow),
//     dws test also what it names against its definition and runs it. dws simulate
//     and dws checksum leave scenarios out of a directory; simulate says so of one named.
//   - A bad scenario (not YAML, a value the scenario schema rejects, a stub or expected
//     node the definition lacks, an answer that does not fit its node) is reported as
//     positioned diagnostics with the rules read, parse, schema, ref (the definition or
//     workflow it names) and dangling-edge (a node it names), and the scenario fails.
//   - Answers: {ok: true}, {fail: REASON}, {decision: D}, {output: {…}} (ok with that
//     output, or with ok/decision), {run: CMD} (a stub worker process), each optionally
//     with times: N (1 to 2^30; beyond is a schema finding at the times: value, never
//     taken as 1). Node i's k-th invocation takes the answer whose times span k; after
//     the last answer's span, the last answer repeats.
//   - definition: is relative to the scenario file's directory, unless it is absolute.
//   - expect.path compares with the run's visits: consecutive steps at one node are one
//     visit (a DWS phase passes, then routes), written node=o1+o2 when shown; an expected
//     node=outcome matches a visit to node that took outcome. A node id may hold '=': an
//     entry that is a node id is that node; else it splits at the '=' that leaves the
//     longest node id before it.
//   - expect.context is a subset: every member given must be in the final context with an
//     equal value (numbers compare by value: 0.910 equals 0.91).
//   - Everything a stub worker process starts dies with it, on Linux also what left its
//     session, dropped its token and lost its parent: each stub runs in a control group
//     of its own (cgroup v2, else the v1 freezer) where dws may make one (root, or a
//     delegated subtree), else dws is the child subreaper and kills the stubs' orphans
//     (an orphan that started while another stub was running is killed once that stub
//     has ended too: contain_linux.go). Elsewhere the stub's process group is killed.
package scenario

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/schema"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Suffixes name scenario files.
var Suffixes = []string{".scenario.yaml", ".scenario.yml"}

// IsScenario reports whether path names a scenario file.
func IsScenario(path string) bool { return lint.IsScenario(path) }

// Name is a scenario's name: its file name without the suffix.
func Name(path string) string {
	base := filepath.Base(path)
	for _, s := range Suffixes {
		if strings.HasSuffix(base, s) {
			return strings.TrimSuffix(base, s)
		}
	}
	return base
}

// Scenario is one parsed scenario file.
type Scenario struct {
	Path string
	Name string
	Doc  *source.Document
	// Definition is the definition's path as the scenario resolves it (relative to the
	// scenario file's directory unless absolute, then cleaned).
	Definition string
	Workflow   string
	Checksum   string
	Context    map[string]any
	Stubs      map[string][]*Stub
	Expect     Expect
}

// Stub is one answer of a node's list.
type Stub struct {
	Answer sim.Answer
	// Run is a stub worker process's argv; nil for a declarative answer.
	Run   []string
	Times int // 0: one invocation (or every later one, for the last answer)
	Ptr   string
}

// Expect is what the run must do; zero fields are not checked.
type Expect struct {
	Status   string
	Path     []Visit
	PathPtr  string
	HasPath  bool
	Visits   map[string]int
	Context  map[string]any
	ptrs     map[string]string // pointer of each node an expectation names
	pathPtrs []string
	pathRaw  []string // expect.path's entries as written, for Check to split
}

// Visit is one node of a path, and the outcome taken there when one is named.
type Visit struct {
	Node     string
	Outcomes []string
}

func (v Visit) String() string {
	if len(v.Outcomes) == 0 {
		return v.Node
	}
	return v.Node + "=" + strings.Join(v.Outcomes, "+")
}

// pathPtr is the pointer of expect.path's i-th entry ("" for a scenario not read from
// a file).
func (e *Expect) pathPtr(i int) string {
	if i < len(e.pathPtrs) {
		return e.pathPtrs[i]
	}
	return ""
}

// Load reads and checks the shape of a scenario file. Its diagnostics are the file's;
// a scenario with an error diagnostic cannot run.
func Load(path string) (*Scenario, []lint.Diagnostic) {
	sc := &Scenario{Path: path, Name: Name(path)}
	data, err := source.ReadFile(path)
	if err != nil {
		return sc, []lint.Diagnostic{{Rule: "read", Severity: lint.Error, Message: err.Error(), File: path, Line: 1, Column: 1}}
	}
	return Parse(path, data)
}

// Parse reads a scenario from data, as Load does from the file at path.
func Parse(path string, data []byte) (*Scenario, []lint.Diagnostic) {
	sc := &Scenario{Path: path, Name: Name(path)}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		d := lint.Diagnostic{Rule: "parse", Severity: lint.Error, Message: err.Error(), File: path, Line: 1, Column: 1}
		var perr *source.Error
		if errors.As(err, &perr) {
			d.Message, d.Line, d.Column = perr.Msg, int(perr.Pos.Line), int(perr.Pos.Col)
		}
		return sc, []lint.Diagnostic{d}
	}
	sc.Doc = doc
	fails, err := schema.ValidateNode("scenario", doc.Root)
	if err != nil {
		return sc, []lint.Diagnostic{sc.diag("schema", "", err.Error())}
	}
	var ds []lint.Diagnostic
	for _, f := range fails {
		d := sc.diag("schema", f.Pointer, f.Message)
		if f.Key {
			if sp, ok := doc.KeySpan(f.Pointer); ok {
				d.Line, d.Column, d.EndLine, d.EndColumn = int(sp.Start.Line), int(sp.Start.Col), int(sp.End.Line), int(sp.End.Col)
			}
		}
		ds = append(ds, d)
	}
	if len(ds) > 0 {
		sortDiags(ds)
		return sc, ds
	}
	root := doc.Root
	def, _ := root.Get("definition").Str()
	if def = filepath.FromSlash(def); filepath.IsAbs(def) {
		sc.Definition = filepath.Clean(def)
	} else {
		sc.Definition = filepath.Clean(filepath.Join(filepath.Dir(path), def))
	}
	sc.Workflow, _ = root.Get("workflow").Str()
	sc.Checksum, _ = root.Get("checksum").Str()
	if ctx, ok := root.Get("context").Value().(map[string]any); ok {
		sc.Context = ctx
	}
	sc.Stubs = map[string][]*Stub{}
	for _, m := range root.Get("stubs").Entries() {
		for i, item := range m.Value.Items {
			ptr := source.Pointer("stubs", m.Key, fmt.Sprint(i))
			st, d := sc.stub(item, ptr)
			if d != nil {
				ds = append(ds, *d)
				continue
			}
			sc.Stubs[m.Key] = append(sc.Stubs[m.Key], st)
		}
	}
	ds = append(ds, sc.expect(root.Get("expect"))...)
	sortDiags(ds)
	return sc, ds
}

// sortDiags orders findings by position.
func sortDiags(ds []lint.Diagnostic) {
	slices.SortStableFunc(ds, func(a, b lint.Diagnostic) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
}

// stub reads one answer; a combination that means nothing (ok with fail) is a schema
// finding at the answer.
func (sc *Scenario) stub(n *source.Node, ptr string) (*Stub, *lint.Diagnostic) {
	st := &Stub{Ptr: ptr}
	var kinds []string
	for _, k := range []string{"ok", "fail", "decision", "run"} {
		if n.Get(k) != nil {
			kinds = append(kinds, k)
		}
	}
	out, hasOut := n.Get("output").Value().(map[string]any)
	switch {
	case len(kinds) > 1:
		d := sc.diag("schema", ptr, fmt.Sprintf("an answer is one of ok, fail, decision or run, not %s", strings.Join(kinds, " and ")))
		return nil, &d
	case len(kinds) == 0 && !hasOut:
		d := sc.diag("schema", ptr, "an answer needs ok, fail, decision, output or run")
		return nil, &d
	case len(kinds) == 0 || kinds[0] == "ok":
		st.Answer = sim.Answer{Kind: "ok", Output: out}
	case kinds[0] == "fail":
		if hasOut {
			d := sc.diag("schema", ptr+"/output", "a failed invocation has no output")
			return nil, &d
		}
		r, _ := n.Get("fail").Str()
		st.Answer = sim.Answer{Kind: "fail", Reason: r}
	case kinds[0] == "decision":
		dec, _ := n.Get("decision").Str()
		st.Answer = sim.Answer{Kind: "decision", Decision: dec, Output: out}
	case kinds[0] == "run":
		if hasOut {
			d := sc.diag("schema", ptr+"/output", "a stub process prints its own answer; output goes with ok or decision")
			return nil, &d
		}
		st.Run = argv(n.Get("run"))
		if len(st.Run) == 0 || st.Run[0] == "" {
			d := sc.diag("schema", ptr+"/run", "run needs a command")
			return nil, &d
		}
	}
	if t := n.Get("times"); t != nil {
		k, ok := new(big.Int).SetString(fmt.Sprint(t.Value()), 10)
		if !ok || k.Sign() < 1 || k.Cmp(big.NewInt(maxTimes)) > 0 {
			d := sc.diag("schema", ptr+"/times", fmt.Sprintf("times is a whole number from 1 to %d, written in digits", maxTimes))
			return nil, &d
		}
		st.Times = int(k.Int64())
	}
	return st, nil
}

// maxTimes bounds times: and expect.visits (2^30), so that counts fit an int anywhere.
const maxTimes = 1 << 30

// argv is a run: value as an argv: an array as given, a string split on blanks.
func argv(n *source.Node) []string {
	if s, ok := n.Str(); ok {
		return strings.Fields(s)
	}
	var out []string
	for _, it := range n.Items {
		s, _ := it.Str()
		out = append(out, s)
	}
	return out
}

func (sc *Scenario) expect(n *source.Node) []lint.Diagnostic {
	e := &sc.Expect
	e.ptrs = map[string]string{}
	if n == nil {
		return nil
	}
	e.Status, _ = n.Get("status").Str()
	if p := n.Get("path"); p != nil {
		e.HasPath, e.PathPtr = true, "/expect/path"
		for i, it := range p.Items {
			s, _ := it.Str()
			node, outcome, has := strings.Cut(s, "=")
			v := Visit{Node: node}
			if has {
				v.Outcomes = []string{outcome}
			}
			e.Path = append(e.Path, v)
			e.pathPtrs = append(e.pathPtrs, source.Pointer("expect", "path", fmt.Sprint(i)))
			e.pathRaw = append(e.pathRaw, s)
		}
	}
	if v := n.Get("visits"); v != nil {
		e.Visits = map[string]int{}
		for _, m := range v.Entries() {
			k, _ := new(big.Int).SetString(fmt.Sprint(m.Value.Value()), 10)
			if k == nil || k.Sign() < 0 || k.Cmp(big.NewInt(maxTimes)) > 0 {
				return []lint.Diagnostic{sc.diag("schema", source.Pointer("expect", "visits", m.Key), "a visit count is a whole number")}
			}
			e.Visits[m.Key] = int(k.Int64())
		}
	}
	if c, ok := n.Get("context").Value().(map[string]any); ok {
		e.Context = c
	}
	return nil
}

// Diag is a finding of rule at a pointer of the scenario file (its root when ptr is
// "").
func (sc *Scenario) Diag(rule, ptr, msg string) lint.Diagnostic { return sc.diag(rule, ptr, msg) }

// diag is a finding at a pointer of the scenario file (its root when ptr is "").
func (sc *Scenario) diag(rule, ptr, msg string) lint.Diagnostic {
	d := lint.Diagnostic{Rule: rule, Severity: lint.Error, Message: msg, File: sc.Path, Pointer: ptr, Line: 1, Column: 1}
	if sc.Doc != nil {
		if sp, ok := sc.Doc.PointerSpan(ptr); ok {
			d.Line, d.Column, d.EndLine, d.EndColumn = int(sp.Start.Line), int(sp.Start.Col), int(sp.End.Line), int(sp.End.Col)
		}
	}
	return d
}

// keyDiag is a finding at the key of the member at ptr.
func (sc *Scenario) keyDiag(rule, ptr, msg string) lint.Diagnostic {
	d := sc.diag(rule, ptr, msg)
	if sc.Doc != nil {
		if sp, ok := sc.Doc.KeySpan(ptr); ok {
			d.Line, d.Column, d.EndLine, d.EndColumn = int(sp.Start.Line), int(sp.Start.Col), int(sp.End.Line), int(sp.End.Col)
		}
	}
	return d
}

// Check checks the scenario against the definition it runs: every node it names exists
// and every answer fits its node. The outcomes an expected path may name are the node's
// own and those of the node's edges in r (nil: only the node's own).
func (sc *Scenario) Check(nodes map[string]sim.Node, r *sim.Result) []lint.Diagnostic {
	var ds []lint.Diagnostic
	outcomes := map[string][]string{}
	for id, n := range nodes {
		outcomes[id] = slices.Clone(n.Outcomes)
	}
	if r != nil {
		for _, e := range r.Edges {
			if _, ok := nodes[e.Node]; ok && !slices.Contains(outcomes[e.Node], e.Outcome) {
				outcomes[e.Node] = append(outcomes[e.Node], e.Outcome)
			}
		}
	}
	known := slices.Sorted(maps.Keys(nodes))
	unknown := func(name string) string {
		msg := fmt.Sprintf("the definition has no node %q", name)
		msg += suggest.Hint(name, known, "nodes")
		return msg
	}
	for _, id := range slices.Sorted(maps.Keys(sc.Stubs)) {
		ptr := source.Pointer("stubs", id)
		n, ok := nodes[id]
		if !ok {
			ds = append(ds, sc.keyDiag("dangling-edge", ptr, unknown(id)))
			continue
		}
		for _, st := range sc.Stubs[id] {
			if d := fits(st, id, n); d != "" {
				ds = append(ds, sc.diag("schema", st.Ptr, d))
			}
		}
	}
	for i := range sc.Expect.Path {
		if i < len(sc.Expect.pathRaw) {
			sc.Expect.Path[i] = splitVisit(sc.Expect.pathRaw[i], nodes)
		}
		v := sc.Expect.Path[i]
		n, ok := nodes[v.Node]
		switch {
		case !ok:
			ds = append(ds, sc.diag("dangling-edge", sc.Expect.pathPtr(i), unknown(v.Node)))
		case len(v.Outcomes) > 0 && !slices.Contains(outcomes[v.Node], v.Outcomes[0]):
			ds = append(ds, sc.diag("dangling-edge", sc.Expect.pathPtr(i), fmt.Sprintf("%s %q has no outcome %q (it has %s)",
				n.Kind, v.Node, v.Outcomes[0], strings.Join(outcomes[v.Node], ", "))))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(sc.Expect.Visits)) {
		if _, ok := nodes[id]; !ok {
			ds = append(ds, sc.keyDiag("dangling-edge", source.Pointer("expect", "visits", id), unknown(id)))
		}
	}
	sortDiags(ds)
	return ds
}

// splitVisit reads an expect.path entry, node or node=outcome, where a node id may hold
// '=' itself: the entry is the node when it names one, else it splits at the '=' that
// leaves the longest node id before it; when none does, at the first '='.
func splitVisit(s string, nodes map[string]sim.Node) Visit {
	if _, ok := nodes[s]; ok {
		return Visit{Node: s}
	}
	for i := len(s) - 1; i > 0; i-- {
		if s[i] != '=' {
			continue
		}
		if _, ok := nodes[s[:i]]; ok {
			return Visit{Node: s[:i], Outcomes: []string{s[i+1:]}}
		}
	}
	node, outcome, has := strings.Cut(s, "=")
	if !has {
		return Visit{Node: node}
	}
	return Visit{Node: node, Outcomes: []string{outcome}}
}

// fits says why an answer does not fit its node, "" when it does.
func fits(st *Stub, id string, n sim.Node) string {
	if len(n.Answers) == 0 {
		return fmt.Sprintf("%s %q takes no stub: %s", n.Kind, id, n.Decided)
	}
	if st.Run != nil {
		return ""
	}
	if !slices.Contains(n.Answers, st.Answer.Kind) {
		return fmt.Sprintf("%s %q answers %s, not %s", n.Kind, id, strings.Join(n.Answers, " or "), st.Answer.Kind)
	}
	if st.Answer.Kind == "decision" && !slices.Contains(n.Decisions, st.Answer.Decision) {
		return fmt.Sprintf("%s %q decides %s, not %q", n.Kind, id, strings.Join(n.Decisions, " or "), st.Answer.Decision)
	}
	return ""
}

// Resolve is sc.Definition as given on disk, for messages: relative when it can be.
func (sc *Scenario) Resolve() string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, sc.Definition); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return sc.Definition
}
