package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
)

// DiffFormats lists the formats WriteDiff accepts.
var DiffFormats = []string{"text", "json", "markdown", "github", "mermaid", "dot", "sarif", "junit", "codeclimate"}

// WriteDiff writes a dws diff report in format. The CI formats (sarif, junit,
// codeclimate) are validate's writers over DiffResult, with sev the rules' severities.
func WriteDiff(w io.Writer, format string, rep *change.Report, opts Options, sev func(rule string) lint.Severity) error {
	switch format {
	case "sarif", "junit", "codeclimate":
		cw, err := New(format, opts)
		if err != nil {
			return err
		}
		return cw.Write(w, DiffResult(rep, sev))
	}
	bw := bufio.NewWriter(w)
	switch format {
	case "json":
		if err := writeDiffJSON(bw, rep, opts); err != nil {
			return err
		}
	case "markdown":
		writeDiffMarkdown(bw, rep)
	case "github":
		writeDiffGitHub(bw, rep)
	case "mermaid":
		writeDiffMermaid(bw, rep)
	case "dot":
		writeDiffDOT(bw, rep)
	default:
		writeDiffText(bw, rep)
	}
	return bw.Flush()
}

// severity is a version finding's severity: error unless configured otherwise.
func severity(v *change.Verdict) string {
	if v.Severity == "" {
		return "error"
	}
	return v.Severity
}

func writeDiffText(w *bufio.Writer, rep *change.Report) {
	var added, changed, removed, same, findings int
	var classes [4]int
	for i := range rep.Units {
		d := &rep.Units[i]
		if len(d.Changes) == 0 && (d.Verdict == nil || d.Verdict.Rule == "") {
			same++
			continue
		}
		switch {
		case d.Old == nil:
			added++
		case d.New == nil:
			removed++
		default:
			changed++
		}
		for _, c := range d.Changes {
			classes[c.Class]++
		}
		if d.Verdict != nil && d.Verdict.Rule != "" {
			findings++
		}
		writeUnitText(w, d)
	}
	for _, p := range rep.Problems {
		textf(w, "! %s\n", p.String())
	}
	if added+changed+removed > 0 || len(rep.Problems) > 0 {
		fmt.Fprintln(w)
	}
	n := classes[change.Breaking] + classes[change.Feature] + classes[change.Cosmetic]
	textf(w, "Plan: %s to add, %d to change, %d to remove, %d unchanged; %s (%d breaking, %d feature, %d cosmetic); %s.\n",
		plural(added, "unit"), changed, removed, same, plural(n, "change"),
		classes[change.Breaking], classes[change.Feature], classes[change.Cosmetic], plural(findings, "version finding"))
}

func writeUnitText(w *bufio.Writer, d *change.UnitDiff) {
	switch {
	case d.Old == nil:
		textf(w, "+ %s (%s): %s\n", d.New.Ref(), d.New.Path, d.Class)
		return
	case d.New == nil:
		textf(w, "- %s (%s): %s\n", d.Old.Ref(), d.Old.Path, d.Class)
		return
	}
	head := d.ID
	if d.Old.Version != "" || d.New.Version != "" {
		head += " " + d.Old.Version + " → " + d.New.Version
	}
	if d.Old.ID() != d.New.ID() {
		head += " (renamed from " + d.Old.ID() + ")"
	}
	textf(w, "~ %s (%s → %s): %s\n", head, d.Old.Path, d.New.Path, d.Class)
	for _, c := range d.Changes {
		textf(w, "  %s [%s]", changeText(c), c.Class)
		if c.Why != "" {
			textf(w, " (%s)", c.Why)
		}
		if c.Acknowledged != "" {
			textf(w, " (acknowledged: %s)", c.Acknowledged)
		}
		if at := sidesAt(d, c); at != "" {
			textf(w, " %s", at)
		}
		fmt.Fprintln(w)
	}
	if len(d.Paths) > 0 {
		var parts []string
		for _, p := range d.Paths {
			if p.Old.Sign() == 0 && p.New.Sign() == 0 {
				continue
			}
			s := fmt.Sprintf("%s %s → %s (kept %s", p.Status, p.Old, p.New, p.Kept)
			if p.Lost.Sign() > 0 {
				s += ", lost " + p.Lost.String()
			}
			if p.Gained.Sign() > 0 {
				s += ", gained " + p.Gained.String()
			}
			parts = append(parts, s+")")
		}
		textf(w, "  paths: %s\n", strings.Join(parts, "; "))
	} else if d.PathsNote != "" {
		textf(w, "  paths: %s\n", d.PathsNote)
	}
	if len(d.InFlight) > 0 {
		fmt.Fprintln(w, "  in flight:")
		for _, p := range d.InFlight {
			textf(w, "    %s: %s", p.Node, verdictText(p.Verdict))
			if p.Why != "" {
				textf(w, " (%s)", p.Why)
			}
			fmt.Fprintln(w)
		}
	}
	if sc := d.Scenarios; sc != nil {
		textf(w, "  scenarios: %s\n", scenariosText(sc))
		for _, st := range sc.Stale {
			textf(w, "    - %s no longer applies: %s\n", st.Path, st.Why)
		}
	}
	if len(d.ReRun) > 0 {
		var parts []string
		for _, r := range d.ReRun {
			parts = append(parts, r.Node+" ("+reRunText(r)+")")
		}
		textf(w, "  re-run: %s\n", strings.Join(parts, "; "))
	}
	switch {
	case d.Verdict != nil && d.Verdict.Rule != "":
		textf(w, "  %s:%d:%d: %s: %s [%s]\n", d.New.Path, d.New.VersionSpan.Start.Line, d.New.VersionSpan.Start.Col,
			severity(d.Verdict), d.Verdict.Message, d.Verdict.Rule)
	case d.Verdict != nil && d.Verdict.Needed != change.NoBump:
		textf(w, "  version: %s → %s (%s), as %s changes need\n", d.Old.Version, d.New.Version, d.Verdict.Made, d.Class)
	case d.VersionNote != "":
		textf(w, "  version: %s\n", d.VersionNote)
	}
}

// textf is fmt.Fprintf for the text plan, with every string argument printable (as
// dws validate's text report writes them): an id, a path or a value from a definition
// can neither drive the terminal nor start a line of its own (a forged GitHub Actions
// command, in a CI log).
func textf(w io.Writer, format string, args ...any) {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = printable.String(s)
		}
	}
	fmt.Fprintf(w, format, args...)
}

// scenariosText is the scenario line: how many, how many no longer apply, and the
// coverage of their runs on each side.
func scenariosText(sc *change.Scenarios) string {
	pct := func(c, of int) string {
		if of == 0 {
			return "100%"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(c)/float64(of))
	}
	return fmt.Sprintf("%d, %d no longer %s; coverage %d/%d edges (%s) → %d/%d (%s)",
		sc.Count, len(sc.Stale), map[bool]string{true: "applies", false: "apply"}[len(sc.Stale) == 1],
		sc.OldCovered, sc.OldCoverable, pct(sc.OldCovered, sc.OldCoverable),
		sc.NewCovered, sc.NewCoverable, pct(sc.NewCovered, sc.NewCoverable))
}

func reRunText(r change.ReRun) string {
	switch r.Why {
	case "upstream":
		if r.Skipped > 0 && len(r.Chain) > 1 {
			h := len(r.Chain) / 2
			return fmt.Sprintf("upstream: %s → … %d more … → %s", strings.Join(r.Chain[:h], " → "), r.Skipped, strings.Join(r.Chain[h:], " → "))
		}
		return "upstream: " + strings.Join(r.Chain, " → ")
	case "inputs":
		return "what leads into it changed"
	}
	return r.Why
}

func verdictText(v string) string {
	switch v {
	case change.ContinuesChanged:
		return "continues with changed behaviour"
	case change.NeedsMapping:
		return "needs a mapping"
	}
	return v
}

// changeText is a change as one line of the plan: its sign, what and how.
func changeText(c change.Change) string {
	node := "node " + c.Node
	val := func(s *change.Side) string {
		if s == nil {
			return ""
		}
		return shorten(s.Value)
	}
	switch c.Kind {
	case change.UnitAdded:
		return "+ unit " + val(c.New)
	case change.UnitRemoved:
		return "- unit " + val(c.Old)
	case change.EntryChanged:
		return "~ entry: " + val(c.Old) + " → " + val(c.New)
	case change.NodeAdded:
		return "+ " + node + " (" + val(c.New) + ")"
	case change.NodeRemoved:
		return "- " + node + " (" + val(c.Old) + ")"
	case change.NodeRenamed:
		return "~ " + node + ": renamed from " + val(c.Old)
	case change.NodeTypeChanged:
		return "~ " + node + " type: " + val(c.Old) + " → " + val(c.New)
	case change.FieldAdded, change.FieldRemoved, change.FieldChanged:
		subject := node + " " + c.Where
		if c.Node == "" {
			subject = "unit " + c.Where
		}
		switch c.Kind {
		case change.FieldAdded:
			return "+ " + subject + ": " + val(c.New)
		case change.FieldRemoved:
			return "- " + subject + ": " + val(c.Old)
		}
		return "~ " + subject + ": " + val(c.Old) + " → " + val(c.New)
	case change.EdgeAdded:
		return "+ edge " + c.Node + " " + c.Where + " → " + val(c.New)
	case change.EdgeRemoved:
		label, _, _ := strings.Cut(c.Where, " ")
		return "- edge " + c.Node + " " + label + " → " + val(c.Old)
	case change.EdgeRetargeted:
		return "~ edge " + c.Node + " " + c.Where + ": " + val(c.Old) + " → " + val(c.New)
	case change.ReadUnproduced:
		return "~ " + node + " reads " + c.Where + ", which no node before it produces"
	case change.PathsLost:
		return "- paths ending " + c.Where + ": " + val(c.Old) + " → " + val(c.New)
	}
	return "~ " + string(c.Kind)
}

// sidesAt is where a change is written: old.json:3:5 → new.json:4:5, or one side.
func sidesAt(d *change.UnitDiff, c change.Change) string {
	at := func(u *change.Unit, s *change.Side) string {
		if u == nil || s == nil || s.Line == 0 {
			return ""
		}
		return fmt.Sprintf("%s:%d:%d", u.Path, s.Line, s.Col)
	}
	o, n := at(d.Old, c.Old), at(d.New, c.New)
	switch {
	case o != "" && n != "":
		return o + " → " + n
	case o != "":
		return o
	}
	return n
}

type jsonDiff struct {
	Tool     string          `json:"tool"`
	Version  string          `json:"version"`
	Units    []jsonUnit      `json:"units"`
	Problems []string        `json:"problems"`
	Summary  jsonDiffSummary `json:"summary"`
}

type jsonDiffSummary struct {
	Added    int `json:"added"`
	Changed  int `json:"changed"`
	Removed  int `json:"removed"`
	Breaking int `json:"breaking"`
	Feature  int `json:"feature"`
	Cosmetic int `json:"cosmetic"`
	Findings int `json:"version_findings"`
}

type jsonSideUnit struct {
	Ref  string `json:"ref"`
	Path string `json:"path"`
}

type jsonUnit struct {
	ID        string               `json:"id"`
	Old       *jsonSideUnit        `json:"old"`
	New       *jsonSideUnit        `json:"new"`
	Class     string               `json:"class"`
	Changes   []jsonChange         `json:"changes"`
	Version   *jsonVersion         `json:"version"`
	Paths     map[string]jsonPaths `json:"paths,omitempty"`
	PathNote  string               `json:"paths_note,omitempty"`
	InFlight  []jsonPosition       `json:"in_flight"`
	ReRun     []jsonReRun          `json:"re_run"`
	Scenarios *jsonScenarios       `json:"scenarios,omitempty"`
}

type jsonScenarios struct {
	Count    int              `json:"count"`
	Stale    []jsonStale      `json:"no_longer_apply"`
	Coverage jsonCoverageDiff `json:"coverage"`
}

type jsonStale struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

type jsonCoverageDiff struct {
	Old jsonEdgeCount `json:"old"`
	New jsonEdgeCount `json:"new"`
}

type jsonEdgeCount struct {
	Covered   int `json:"covered"`
	Coverable int `json:"coverable"`
}

type jsonReRun struct {
	Node  string   `json:"node"`
	Why   string   `json:"why"`
	Chain []string `json:"chain,omitempty"`
	// Skipped nodes of a long chain, left out of its middle.
	Skipped int `json:"chain_skipped,omitempty"`
}

type jsonChange struct {
	Fingerprint  string    `json:"fingerprint"`
	Kind         string    `json:"kind"`
	Class        string    `json:"class"`
	Node         string    `json:"node,omitempty"`
	Where        string    `json:"where,omitempty"`
	Why          string    `json:"why,omitempty"`
	Old          *jsonSide `json:"old,omitempty"`
	New          *jsonSide `json:"new,omitempty"`
	Acknowledged string    `json:"acknowledged,omitempty"`
}

type jsonSide struct {
	Value  string `json:"value"`
	Path   string `json:"path,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

type jsonVersion struct {
	Old      string `json:"old"`
	New      string `json:"new"`
	Needed   string `json:"needed,omitempty"`
	Made     string `json:"made,omitempty"`
	Rule     string `json:"rule,omitempty"`
	Severity string `json:"severity,omitempty"`
	Message  string `json:"message,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Note     string `json:"note,omitempty"`
}

type jsonPaths struct {
	Old    string `json:"old"`
	New    string `json:"new"`
	Kept   string `json:"kept"`
	Lost   string `json:"lost"`
	Gained string `json:"gained"`
}

type jsonPosition struct {
	Node    string `json:"node"`
	NewNode string `json:"new_node,omitempty"`
	Verdict string `json:"verdict"`
	Why     string `json:"why,omitempty"`
}

func writeDiffJSON(w io.Writer, rep *change.Report, opts Options) error {
	out := jsonDiff{Tool: "dws", Version: opts.Version, Units: []jsonUnit{}, Problems: []string{}}
	for _, p := range rep.Problems {
		out.Problems = append(out.Problems, p.String())
	}
	for i := range rep.Units {
		d := &rep.Units[i]
		ju := jsonUnit{ID: d.ID, Class: d.Class.String(), Changes: []jsonChange{}, InFlight: []jsonPosition{}, ReRun: []jsonReRun{}, PathNote: d.PathsNote}
		for _, r := range d.ReRun {
			ju.ReRun = append(ju.ReRun, jsonReRun(r))
		}
		if sc := d.Scenarios; sc != nil {
			js := &jsonScenarios{Count: sc.Count, Stale: []jsonStale{},
				Coverage: jsonCoverageDiff{Old: jsonEdgeCount{sc.OldCovered, sc.OldCoverable}, New: jsonEdgeCount{sc.NewCovered, sc.NewCoverable}}}
			for _, st := range sc.Stale {
				js.Stale = append(js.Stale, jsonStale(st))
			}
			ju.Scenarios = js
		}
		if d.Old != nil {
			ju.Old = &jsonSideUnit{Ref: d.Old.Ref(), Path: d.Old.Path}
		}
		if d.New != nil {
			ju.New = &jsonSideUnit{Ref: d.New.Ref(), Path: d.New.Path}
		}
		switch {
		case len(d.Changes) == 0:
		case d.Old == nil:
			out.Summary.Added++
		case d.New == nil:
			out.Summary.Removed++
		default:
			out.Summary.Changed++
		}
		for _, c := range d.Changes {
			jc := jsonChange{Fingerprint: c.Fingerprint, Kind: string(c.Kind), Class: c.Class.String(), Node: c.Node, Where: c.Where, Why: c.Why, Acknowledged: c.Acknowledged}
			if c.Old != nil {
				jc.Old = &jsonSide{Value: c.Old.Value, Line: c.Old.Line, Column: c.Old.Col}
				if c.Old.Line > 0 && d.Old != nil {
					jc.Old.Path = d.Old.Path
				}
			}
			if c.New != nil {
				jc.New = &jsonSide{Value: c.New.Value, Line: c.New.Line, Column: c.New.Col}
				if c.New.Line > 0 && d.New != nil {
					jc.New.Path = d.New.Path
				}
			}
			ju.Changes = append(ju.Changes, jc)
			switch c.Class {
			case change.Breaking:
				out.Summary.Breaking++
			case change.Feature:
				out.Summary.Feature++
			case change.Cosmetic:
				out.Summary.Cosmetic++
			}
		}
		if d.Old != nil && d.New != nil && (d.Verdict != nil || d.VersionNote != "") {
			v := &jsonVersion{Old: d.Old.Version, New: d.New.Version, Note: d.VersionNote}
			if d.Verdict != nil {
				v.Needed, v.Made, v.Rule, v.Message = d.Verdict.Needed.String(), d.Verdict.Made.String(), d.Verdict.Rule, d.Verdict.Message
				if v.Rule != "" {
					v.Severity = severity(d.Verdict)
					v.Line, v.Column = int(d.New.VersionSpan.Start.Line), int(d.New.VersionSpan.Start.Col)
					out.Summary.Findings++
				}
			}
			ju.Version = v
		}
		if len(d.Paths) > 0 {
			ju.Paths = map[string]jsonPaths{}
			for _, p := range d.Paths {
				ju.Paths[p.Status.String()] = jsonPaths{p.Old.String(), p.New.String(), p.Kept.String(), p.Lost.String(), p.Gained.String()}
			}
		}
		for _, p := range d.InFlight {
			ju.InFlight = append(ju.InFlight, jsonPosition(p))
		}
		out.Units = append(out.Units, ju)
	}
	return writeJSON(w, out, false)
}

// maxShown is how many characters of a value the text plan shows (JSON has them all).
const maxShown = 60

// shorten cuts a long value (a prompt, an SQL statement) for the plan.
func shorten(v string) string {
	r := []rune(v)
	if len(r) <= maxShown {
		return v
	}
	return string(r[:maxShown-1]) + "…"
}
