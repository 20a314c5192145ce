package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
)

// SimulationFormats are the formats of dws simulate.
var SimulationFormats = []string{"text", "json", "mermaid"}

// WriteSimulation prints the result of dws simulate: for every definition the exact
// path counts, the covering paths, the edges no path takes and the findings.
func WriteSimulation(w io.Writer, format string, res *lint.Result, opts Options) error {
	switch format {
	case "json":
		return simJSON(w, res, opts)
	case "mermaid":
		return simMermaid(w, res)
	}
	return simText(w, res, opts)
}

// simEntry is one definition of the report, or a file that was not simulated.
type simEntry struct {
	file lint.FileResult
	def  *sim.Definition
	why  string // why the file was not simulated
	err  error  // the simulator's failure, when that is why
}

func simEntries(res *lint.Result) []simEntry {
	var out []simEntry
	for _, f := range res.Files {
		sm := f.Simulation
		switch {
		case sm == nil:
			if len(f.Diagnostics) > 0 {
				out = append(out, simEntry{file: f, why: "it was not simulated"})
			}
		case sm.Err != nil:
			out = append(out, simEntry{file: f, why: sm.Err.Error(), err: sm.Err})
		case sm.Skipped != "":
			out = append(out, simEntry{file: f, why: sm.Skipped})
		default:
			for i := range sm.Definitions {
				out = append(out, simEntry{file: f, def: &sm.Definitions[i]})
			}
		}
	}
	return out
}

// findings are the file's findings that concern the entry's definition: those within
// it, and those within none of the file's definitions (the file's own settings). A
// definition that is the whole file has them all.
func (e simEntry) findings() []lint.Diagnostic {
	if e.def == nil || e.def.Pointer == "" {
		return e.file.Diagnostics
	}
	within := func(d lint.Diagnostic, ptr string) bool {
		return ptr != "" && (d.Pointer == ptr || strings.HasPrefix(d.Pointer, ptr+"/"))
	}
	out := []lint.Diagnostic{}
	for _, d := range e.file.Diagnostics {
		mine, other := within(d, e.def.Pointer), false
		for _, o := range e.file.Simulation.Definitions {
			other = other || within(d, o.Pointer)
		}
		if mine || !other {
			out = append(out, d)
		}
	}
	return out
}

// Summary is the one line that opens a definition's report:
// "8 paths: 5 succeeded, 3 failed; 5 paths cover all 10 edges".
func simSummary(r *sim.Result) string {
	var ends []string
	for _, s := range sim.Statuses() {
		if n := r.Counts.Of(s); n.Sign() > 0 {
			ends = append(ends, n.String()+" "+s.String())
		}
	}
	total := r.Counts.Total()
	line := fmt.Sprintf("%s %s", total, pluralWord(total.String() == "1", "path", "paths"))
	if len(ends) > 0 {
		line += ": " + strings.Join(ends, ", ")
	}
	edges := len(r.Edges)
	cover := fmt.Sprintf("%d %s", r.CoverSize, pluralWord(r.CoverSize == 1, "path covers", "paths cover"))
	if c := r.Coverable(); c == edges {
		line += fmt.Sprintf("; %s all %d edges", cover, edges)
	} else {
		line += fmt.Sprintf("; %s the %d edges any path takes (%d of %d)", cover, c, c, edges)
	}
	return line
}

func pluralWord(one bool, singular, plural string) string {
	if one {
		return singular
	}
	return plural
}

func simText(w io.Writer, res *lint.Result, opts Options) error {
	bw := bufio.NewWriter(w)
	// Files whose dialect has no runs (a job spec's parts beside its manifest) are said
	// once, at the end, by dialect: a directory of them is not a line each.
	noRuns := map[string]int{}
	for _, e := range simEntries(res) {
		if e.def == nil && e.file.Simulation != nil && e.file.Simulation.NoRuns != "" {
			noRuns[e.file.Simulation.NoRuns]++
			continue
		}
		name := printable.String(e.file.Path)
		if e.def != nil && e.def.Workflow != "" {
			name += " (workflow " + printable.String(e.def.Workflow) + ")"
		}
		if e.def == nil {
			fmt.Fprintf(bw, "%s: not simulated: %s\n", name, printable.String(e.why))
		} else {
			r := e.def.Result
			fmt.Fprintf(bw, "%s: %s; %s\n", name, simSummary(r), plural(len(e.findings()), "finding"))
			writeTree(bw, r, e.def.Fold)
			if len(r.Cover) < r.CoverSize {
				fmt.Fprintf(bw, "  … %d more covering paths (--max-paths)\n", r.CoverSize-len(r.Cover))
			}
			for _, ed := range r.Edges {
				if !ed.Coverable {
					fmt.Fprintf(bw, "  no path takes %s: %s\n", printable.String(ed.String()), printable.String(ed.Why))
				}
			}
		}
	}
	if len(noRuns) > 0 {
		ids := make([]string, 0, len(noRuns))
		n := 0
		for id, k := range noRuns {
			ids = append(ids, fmt.Sprintf("%s: %d", id, k))
			n += k
		}
		slices.Sort(ids)
		fmt.Fprintf(bw, "not simulated: %s whose dialects have no runs (%s)\n",
			plural(n, "file"), strings.Join(ids, ", "))
	}
	bw.Flush() //nolint:errcheck // the findings' writer reports a failed write
	// The findings, as dws validate prints them.
	t := &text{opts: opts}
	return t.Write(w, res)
}

// writeTree prints the covering paths as a tree: outcomes written node=outcome (a
// dialect may fold several steps into one, as a DWS phase's pass and the transition
// it takes), the outcomes paths share printed once, a stretch without branching on one
// line, each path ending in its end state, number and witness context.
func writeTree(w io.Writer, r *sim.Result, fold func([]sim.Edge) []sim.Outcome) {
	type trie struct {
		key, label string
		children   []*trie
		ends       []int // the paths that end here
	}
	root := &trie{}
	for n, p := range r.Cover {
		at := root
		for _, o := range outcomesOf(p.Steps, fold) {
			// Keyed by the steps, so that two outcomes shown alike stay apart.
			key := o.Node
			for _, st := range o.Steps {
				key += "\x00" + st.Outcome
			}
			var next *trie
			for _, c := range at.children {
				if c.key == key {
					next = c
					break
				}
			}
			if next == nil {
				next = &trie{key: key, label: printable.String(o.Node + "=" + o.Label)}
				at.children = append(at.children, next)
			}
			at = next
		}
		at.ends = append(at.ends, n)
	}
	var print func(t *trie, depth int)
	print = func(t *trie, depth int) {
		chain := []string{t.label}
		for len(t.ends) == 0 && len(t.children) == 1 {
			t = t.children[0]
			chain = append(chain, t.label)
		}
		indent := strings.Repeat("  ", depth)
		line := indent + strings.Join(chain, ", ")
		for k, n := range t.ends {
			p := r.Cover[n]
			if k > 0 {
				line = indent + "  (again)"
			}
			fmt.Fprintf(w, "%s → %s  [path %d]\n", line, p.Status, n+1)
			if p.Context != nil {
				b, _ := json.Marshal(p.Context)
				fmt.Fprintf(w, "%s  context %s\n", indent, printable.String(string(b)))
			}
			if p.Note != "" {
				fmt.Fprintf(w, "%s  %s\n", indent, printable.String(p.Note))
			}
		}
		if len(t.ends) == 0 {
			fmt.Fprintln(w, line)
		}
		for _, c := range t.children {
			print(c, depth+1)
		}
	}
	for _, n := range root.ends {
		fmt.Fprintf(w, "  → %s  [path %d]\n", r.Cover[n].Status, n+1)
	}
	for _, c := range root.children {
		print(c, 1)
	}
}

// outcomesOf is a path's steps as the outcomes a report shows: the dialect's fold, or
// one a step.
func outcomesOf(steps []sim.Edge, fold func([]sim.Edge) []sim.Outcome) []sim.Outcome {
	if fold != nil {
		return fold(steps)
	}
	out := make([]sim.Outcome, len(steps))
	for i, st := range steps {
		out[i] = sim.Outcome{Node: st.Node, Label: st.Outcome, Steps: steps[i : i+1]}
	}
	return out
}

type simJSONReport struct {
	Tool        string         `json:"tool"`
	Version     string         `json:"version"`
	Definitions []simJSONDef   `json:"definitions"`
	Summary     simJSONSummary `json:"summary"`
}

type simJSONSummary struct {
	Definitions int `json:"definitions"`
	Simulated   int `json:"simulated"`
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Infos       int `json:"infos"`
}

type simJSONDef struct {
	Path      string            `json:"path"`
	Dialect   string            `json:"dialect"`
	Workflow  string            `json:"workflow"`
	Simulated bool              `json:"simulated"`
	Skipped   string            `json:"skipped,omitempty"`
	Bound     string            `json:"bound,omitempty"` // the bound that stopped it
	Paths     map[string]string `json:"paths,omitempty"`
	Edges     *simJSONEdges     `json:"edges,omitempty"`
	Cover     []simJSONPath     `json:"cover,omitempty"`
	CoverSize int               `json:"cover_size"`
	Minimal   bool              `json:"cover_minimal"`
	Findings  []lint.Diagnostic `json:"findings"`
}

type simJSONEdges struct {
	Total       int                  `json:"total"`
	Coverable   int                  `json:"coverable"`
	Uncoverable []simJSONUncoverable `json:"uncoverable"`
	Paths       map[string]string    `json:"paths"`
}

type simJSONUncoverable struct {
	Edge string `json:"edge"`
	Why  string `json:"why"`
}

type simJSONPath struct {
	Steps   []simJSONStep  `json:"steps"`
	Status  string         `json:"status"`
	Context map[string]any `json:"context,omitempty"`
	Note    string         `json:"note,omitempty"`
}

type simJSONStep struct {
	Node    string `json:"node"`
	Outcome string `json:"outcome"`
}

func simJSON(w io.Writer, res *lint.Result, opts Options) error {
	out := simJSONReport{Tool: "dws", Version: opts.Version, Definitions: []simJSONDef{}}
	for _, e := range simEntries(res) {
		d := simJSONDef{Path: e.file.Path, Dialect: e.file.Dialect, Skipped: e.why, Findings: e.findings()}
		var be *sim.BoundError
		if errors.As(e.err, &be) {
			d.Bound = be.Bound
		}
		if d.Findings == nil {
			d.Findings = []lint.Diagnostic{}
		}
		if e.def != nil {
			r := e.def.Result
			d.Workflow, d.Simulated, d.CoverSize, d.Minimal = e.def.Workflow, true, r.CoverSize, r.Minimal
			d.Paths = map[string]string{"total": r.Counts.Total().String()}
			for _, s := range sim.Statuses() {
				d.Paths[s.String()] = r.Counts.Of(s).String()
			}
			d.Edges = &simJSONEdges{Total: len(r.Edges), Coverable: r.Coverable(), Uncoverable: []simJSONUncoverable{}, Paths: map[string]string{}}
			for _, ed := range r.Edges {
				if ed.Paths != nil {
					d.Edges.Paths[ed.String()] = ed.Paths.String()
				}
				if !ed.Coverable {
					d.Edges.Uncoverable = append(d.Edges.Uncoverable, simJSONUncoverable{ed.String(), ed.Why})
				}
			}
			d.Cover = []simJSONPath{}
			for _, p := range r.Cover {
				jp := simJSONPath{Steps: []simJSONStep{}, Status: p.Status.String(), Context: p.Context, Note: p.Note}
				for _, s := range p.Steps {
					jp.Steps = append(jp.Steps, simJSONStep{s.Node, s.Outcome})
				}
				d.Cover = append(d.Cover, jp)
			}
			out.Summary.Simulated++
		}
		out.Definitions = append(out.Definitions, d)
	}
	out.Summary.Definitions = len(out.Definitions)
	s := Summarize(res)
	out.Summary.Errors, out.Summary.Warnings, out.Summary.Infos = s.Errors, s.Warnings, s.Infos
	return writeJSON(w, out, false)
}

// simMermaid draws each simulated definition as a Mermaid flowchart whose edges are
// labelled with their outcome and how many paths take them.
func simMermaid(w io.Writer, res *lint.Result) error {
	bw := bufio.NewWriter(w)
	for _, e := range simEntries(res) {
		if e.def == nil {
			continue
		}
		r := e.def.Result
		title := e.file.Path
		if e.def.Workflow != "" {
			title += " " + e.def.Workflow
		}
		fmt.Fprintf(bw, "---\n%s---\nflowchart TD\n", mermaidTitle(title))
		ids := map[string]string{}
		id := func(node string) string {
			if v, ok := ids[node]; ok {
				return v
			}
			v := fmt.Sprintf("n%d", len(ids))
			ids[node] = v
			fmt.Fprintf(bw, "  %s[\"%s\"]\n", v, mermaidText(node))
			return v
		}
		ends := map[string]bool{}
		for _, ed := range r.Edges {
			from := id(ed.Node)
			to := ed.To
			if to == "" {
				to = "end"
			}
			var target string
			if ed.To == "" {
				target = "end_" + from + "_" + mermaidID(ed.Outcome)
				if !ends[target] {
					ends[target] = true
					fmt.Fprintf(bw, "  %s((\"end\"))\n", target)
				}
			} else {
				target = id(to)
			}
			arrow := "-->"
			if !ed.Coverable {
				arrow = "-.->"
			}
			label := mermaidText(ed.Outcome)
			if ed.Paths != nil {
				label += ": " + ed.Paths.String()
			}
			fmt.Fprintf(bw, "  %s %s|\"%s\"| %s\n", from, arrow, label, target)
		}
	}
	return bw.Flush()
}

func mermaidID(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 128 && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
