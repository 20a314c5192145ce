package report

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/internal/printable"
)

// The formats of dws diff beyond text and JSON: markdown for a pull-request comment,
// GitHub workflow commands for annotations, and drawings of each changed unit (Mermaid,
// DOT) with added parts green, removed ones red and dashed, changed ones orange.

// writeDiffMarkdown writes the report as a pull-request comment: a summary line, then
// per changed unit a table of its changes, its path counts, in-flight verdicts, re-runs
// and version verdict.
func writeDiffMarkdown(w *bufio.Writer, rep *change.Report) {
	var changed []*change.UnitDiff
	var classes [4]int
	findings := 0
	for i := range rep.Units {
		d := &rep.Units[i]
		if len(d.Changes) == 0 && (d.Verdict == nil || d.Verdict.Rule == "") {
			continue
		}
		changed = append(changed, d)
		for _, c := range d.Changes {
			classes[c.Class]++
		}
		if d.Verdict != nil && d.Verdict.Rule != "" {
			findings++
		}
	}
	fmt.Fprintf(w, "### dws diff: %s changed; %d breaking, %d feature, %d cosmetic; %s\n",
		plural(len(changed), "definition"), classes[change.Breaking], classes[change.Feature], classes[change.Cosmetic], plural(findings, "version finding"))
	for _, p := range rep.Problems {
		fmt.Fprintf(w, "\n> [!WARNING]\n> %s\n", mdText(p.String()))
	}
	for _, d := range changed {
		fmt.Fprintln(w)
		switch {
		case d.Old == nil:
			fmt.Fprintf(w, "#### ➕ `%s` (%s): %s\n", mdCode(d.New.Ref()), mdText(d.New.Path), d.Class)
			continue
		case d.New == nil:
			fmt.Fprintf(w, "#### ➖ `%s` (%s): **%s**\n", mdCode(d.Old.Ref()), mdText(d.Old.Path), d.Class)
			continue
		}
		head := "`" + mdCode(d.ID) + "`"
		if d.Old.Version != "" || d.New.Version != "" {
			head += " " + mdText(d.Old.Version) + " → " + mdText(d.New.Version)
		}
		class := d.Class.String()
		if d.Class == change.Breaking {
			class = "**breaking**"
		}
		fmt.Fprintf(w, "#### %s: %s\n\n", head, class)
		if v := d.Verdict; v != nil && v.Rule != "" {
			fmt.Fprintf(w, "> [!CAUTION]\n> `%s` (%s, %s:%d:%d): %s\n\n", v.Rule, severity(v), mdText(d.New.Path),
				d.New.VersionSpan.Start.Line, d.New.VersionSpan.Start.Col, mdText(v.Message))
		}
		if len(d.Changes) > 0 {
			fmt.Fprintln(w, "| | change | class | where |")
			fmt.Fprintln(w, "|---|---|---|---|")
			for _, c := range d.Changes {
				text := changeText(c)
				sign, rest, _ := strings.Cut(text, " ")
				class := c.Class.String()
				if c.Why != "" {
					class += " (" + c.Why + ")"
				}
				if c.Acknowledged != "" {
					class += ", acknowledged: " + c.Acknowledged
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s |\n", sign, mdCell(rest), mdCell(class), mdCell(sidesAt(d, c)))
			}
			fmt.Fprintln(w)
		}
		if len(d.Paths) > 0 {
			var parts []string
			for _, p := range d.Paths {
				if p.Old.Sign() == 0 && p.New.Sign() == 0 {
					continue
				}
				parts = append(parts, fmt.Sprintf("%s %s → %s (kept %s, lost %s, gained %s)", p.Status, p.Old, p.New, p.Kept, p.Lost, p.Gained))
			}
			fmt.Fprintf(w, "**Paths:** %s\n\n", strings.Join(parts, "; "))
		}
		if len(d.InFlight) > 0 {
			fmt.Fprintln(w, "<details><summary>Runs in flight</summary>")
			fmt.Fprintln(w)
			for _, p := range d.InFlight {
				fmt.Fprintf(w, "- `%s`: %s", mdCode(p.Node), verdictText(p.Verdict))
				if p.Why != "" {
					fmt.Fprintf(w, " (%s)", mdText(p.Why))
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w)
			fmt.Fprintln(w, "</details>")
			fmt.Fprintln(w)
		}
		if sc := d.Scenarios; sc != nil {
			fmt.Fprintf(w, "**Scenarios:** %s\n\n", mdText(scenariosText(sc)))
			for _, st := range sc.Stale {
				fmt.Fprintf(w, "- `%s` no longer applies: %s\n", mdCode(st.Path), mdText(st.Why))
			}
			if len(sc.Stale) > 0 {
				fmt.Fprintln(w)
			}
		}
		if len(d.ReRun) > 0 {
			var parts []string
			for _, r := range d.ReRun {
				parts = append(parts, "`"+mdCode(r.Node)+"` ("+mdText(reRunText(r))+")")
			}
			fmt.Fprintf(w, "**Re-run:** %s\n", strings.Join(parts, ", "))
		}
	}
}

// mdText is s as Markdown text: printable, with the characters Markdown or HTML would
// read escaped.
func mdText(s string) string { return mdEscaper.Replace(printable.String(s)) }

var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "&", "&amp;", "[", `\[`, "]", `\]`, "|", `\|`, "\n", " ")

// mdCode is s inside a code span: printable, a backtick (which would end it) replaced.
func mdCode(s string) string { return strings.ReplaceAll(printable.String(s), "`", "'") }

// mdCell is s in a table cell: no line break, no pipe that would end the cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "<", "&lt;").Replace(printable.String(s))
}

// writeDiffGitHub writes GitHub workflow commands: the version findings as errors or
// warnings (their severity) at the new version, and each breaking change as a warning
// at its place in the new file (the unit's when the change has no place there).
func writeDiffGitHub(w *bufio.Writer, rep *change.Report) {
	for _, p := range rep.Problems {
		at := "file=" + ghProperty(p.Path)
		if p.Line > 0 {
			at += fmt.Sprintf(",line=%d,col=%d", p.Line, p.Col)
		}
		fmt.Fprintf(w, "::error %s,title=%s::%s\n", at, ghProperty(p.Rule), ghData(p.Message))
	}
	for i := range rep.Units {
		d := &rep.Units[i]
		if d.New == nil {
			continue // a removed unit has no file of the change's side to annotate
		}
		if v := d.Verdict; v != nil && v.Rule != "" {
			level := "error"
			switch severity(v) {
			case "warning":
				level = "warning"
			case "info":
				level = "notice"
			}
			fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n", level, ghProperty(d.New.Path),
				d.New.VersionSpan.Start.Line, d.New.VersionSpan.Start.Col, ghProperty(v.Rule), ghData(v.Message))
		}
		for _, c := range d.Changes {
			if c.Class != change.Breaking || c.Acknowledged != "" {
				continue
			}
			line, col := int(d.New.Span.Start.Line), int(d.New.Span.Start.Col)
			if c.New != nil && c.New.Line > 0 {
				line, col = c.New.Line, c.New.Col
			}
			msg := changeText(c)
			if c.Why != "" {
				msg += " (" + c.Why + ")"
			}
			fmt.Fprintf(w, "::warning file=%s,line=%d,col=%d,title=%s::%s\n", ghProperty(d.New.Path), line, col,
				ghProperty("breaking change "+c.Fingerprint), ghData(d.ID+": "+msg))
		}
	}
}

// diffDrawing is one changed unit as a drawing: NEW's nodes and edges with OLD's removed
// ones added back, each marked.
type diffDrawing struct {
	title string
	nodes []diffNode
	edges []diffEdge
}

type diffNode struct {
	id, label, state string // state: "", added, removed, changed
}

type diffEdge struct {
	from, to, label, state string
}

func drawingOf(d *change.UnitDiff) diffDrawing {
	dr := diffDrawing{title: d.ID}
	state := map[string]string{}
	renamed := map[string]string{} // OLD id → NEW id
	for _, c := range d.Changes {
		switch c.Kind {
		case change.NodeAdded:
			state[c.Node] = "added"
		case change.NodeRemoved:
			state[c.Node] = "removed"
		case change.NodeRenamed:
			renamed[c.Old.Value] = c.Node
			fallthrough
		case change.NodeTypeChanged, change.FieldAdded, change.FieldRemoved, change.FieldChanged, change.ReadUnproduced:
			if c.Node != "" && state[c.Node] == "" {
				state[c.Node] = "changed"
			}
		}
	}
	newID := func(old string) string {
		if n, ok := renamed[old]; ok {
			return n
		}
		return old
	}
	seen := map[string]bool{}
	if d.New != nil {
		for _, n := range d.New.Nodes {
			if !seen[n.ID] {
				seen[n.ID] = true
				dr.nodes = append(dr.nodes, diffNode{id: n.ID, label: n.ID, state: state[n.ID]})
			}
		}
	}
	if d.Old != nil {
		for _, n := range d.Old.Nodes {
			if id := newID(n.ID); !seen[id] {
				seen[id] = true
				dr.nodes = append(dr.nodes, diffNode{id: id, label: n.ID, state: "removed"})
			}
		}
	}
	type key struct{ from, label, to string }
	oldEdges := map[key]bool{}
	oldByLabel := map[[2]string]bool{}
	if d.Old != nil {
		for _, e := range d.Old.Edges {
			k := key{newID(e.From), e.Label, newID(e.To)}
			oldEdges[k] = true
			oldByLabel[[2]string{k.from, k.label}] = true
		}
	}
	newEdges := map[key]bool{}
	if d.New != nil {
		for _, e := range d.New.Edges {
			k := key{e.From, e.Label, e.To}
			if newEdges[k] || !seen[e.From] || !seen[e.To] {
				continue
			}
			newEdges[k] = true
			st := ""
			switch {
			case d.Old == nil:
				st = "added"
			case !oldEdges[k] && oldByLabel[[2]string{k.from, k.label}]:
				st = "changed"
			case !oldEdges[k]:
				st = "added"
			}
			dr.edges = append(dr.edges, diffEdge{from: e.From, to: e.To, label: e.Label, state: st})
		}
	}
	if d.Old != nil {
		for _, e := range d.Old.Edges {
			k := key{newID(e.From), e.Label, newID(e.To)}
			if newEdges[k] || !seen[k.from] || !seen[k.to] {
				continue
			}
			newEdges[k] = true
			dr.edges = append(dr.edges, diffEdge{from: k.from, to: k.to, label: k.label, state: "removed"})
		}
	}
	return dr
}

// changedDrawings are the drawings of every unit with a change.
func changedDrawings(rep *change.Report) []diffDrawing {
	var out []diffDrawing
	for i := range rep.Units {
		d := &rep.Units[i]
		if len(d.Changes) == 0 {
			continue
		}
		out = append(out, drawingOf(d))
	}
	return out
}

var diffColors = map[string][2]string{
	"added":   {"#d7f5d7", "#2e7d32"},
	"removed": {"#fbd5d5", "#c62828"},
	"changed": {"#ffe0b2", "#ef6c00"},
}

func writeDiffMermaid(w *bufio.Writer, rep *change.Report) {
	fmt.Fprintf(w, "---\n%s---\nflowchart TD\n", mermaidTitle("dws diff"))
	link := 0
	var styles []string
	for k, dr := range changedDrawings(rep) {
		fmt.Fprintf(w, "  subgraph u%d[\"%s\"]\n", k, mermaidText(dr.title))
		index := map[string]int{}
		for i, n := range dr.nodes {
			index[n.id] = i
			fmt.Fprintf(w, "    u%dn%d[\"%s\"]", k, i, mermaidText(n.label))
			if n.state != "" {
				fmt.Fprintf(w, ":::%s", n.state)
			}
			fmt.Fprintln(w)
		}
		for _, e := range dr.edges {
			arrow := "-->"
			if e.state == "removed" {
				arrow = "-.->"
			}
			fmt.Fprintf(w, "    u%dn%d %s|\"%s\"| u%dn%d\n", k, index[e.from], arrow, mermaidText(e.label), k, index[e.to])
			if c, ok := diffColors[e.state]; ok {
				style := "stroke:" + c[1] + ",stroke-width:2px"
				if e.state == "removed" {
					style += ",stroke-dasharray:5 5"
				}
				styles = append(styles, fmt.Sprintf("  linkStyle %d %s", link, style))
			}
			link++
		}
		fmt.Fprintln(w, "  end")
	}
	for _, s := range styles {
		fmt.Fprintln(w, s)
	}
	for _, st := range []string{"added", "removed", "changed"} {
		c := diffColors[st]
		extra := ""
		if st == "removed" {
			extra = ",stroke-dasharray:5 5"
		}
		fmt.Fprintf(w, "  classDef %s fill:%s,stroke:%s%s\n", st, c[0], c[1], extra)
	}
}

func writeDiffDOT(w *bufio.Writer, rep *change.Report) {
	fmt.Fprintln(w, "digraph \"dws diff\" {")
	fmt.Fprintln(w, "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\"];")
	for k, dr := range changedDrawings(rep) {
		fmt.Fprintf(w, "  subgraph \"cluster_%d\" {\n    label=\"%s\";\n", k, dotText(dr.title))
		index := map[string]int{}
		for i, n := range dr.nodes {
			index[n.id] = i
			attrs := fmt.Sprintf("label=\"%s\"", dotText(n.label))
			if c, ok := diffColors[n.state]; ok {
				attrs += fmt.Sprintf(", fillcolor=\"%s\", color=\"%s\"", c[0], c[1])
				if n.state == "removed" {
					attrs += ", style=\"rounded,filled,dashed\""
				}
			}
			fmt.Fprintf(w, "    \"u%dn%d\" [%s];\n", k, i, attrs)
		}
		for _, e := range dr.edges {
			attrs := fmt.Sprintf("label=\"%s\"", dotText(e.label))
			if c, ok := diffColors[e.state]; ok {
				attrs += fmt.Sprintf(", color=\"%s\", fontcolor=\"%s\"", c[1], c[1])
				if e.state == "removed" {
					attrs += ", style=dashed"
				}
			}
			fmt.Fprintf(w, "    \"u%dn%d\" -> \"u%dn%d\" [%s];\n", k, index[e.from], k, index[e.to], attrs)
		}
		fmt.Fprintln(w, "  }")
	}
	fmt.Fprintln(w, "}")
}
