package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/lint"
)

// Drawings of a definition (dws graph, SPEC §16): its graphs as Mermaid or DOT, the
// entry and the ends marked, each edge labelled by its kind (ok, fail, true, false,
// loop ≤N, approve, reject, after, …), unreachable and dead-end nodes highlighted, and a
// legend. Both formats draw the same drawing.

// GraphFormats lists the formats of dws graph.
var GraphFormats = []string{"mermaid", "dot"}

// Drawing is one graph of a definition, ready to draw.
type Drawing struct {
	Name  string // the workflow's id when a file has several graphs; else ""
	Nodes []DrawNode
	Edges []DrawEdge
}

// DrawNode is one node; an end of the run is not a node but a terminal the drawing adds.
type DrawNode struct {
	ID                                string
	Entry, Exit, Unreachable, DeadEnd bool
	// Ends label the node's edges to the end of the run, one edge each.
	Ends []string
}

// DrawEdge is one edge; To is "" for a target that names no node (a dangling edge).
type DrawEdge struct {
	From, To, Label string
	Dangling        bool
	Failure         bool
}

// Drawings builds the drawings of an inspected definition.
func Drawings(in *lint.Inspection) []Drawing {
	var out []Drawing
	for _, gc := range in.Graphs {
		g := gc.Graph
		d := Drawing{}
		if len(in.Graphs) > 1 {
			owner := g.Pointer()
			if k := strings.LastIndexByte(owner, '/'); k > 0 {
				owner = owner[:k]
			}
			d.Name, _ = in.Doc.Lookup(owner + "/id").Str()
			if d.Name == "" {
				d.Name = owner
			}
		}
		flag := map[string]graph.Kind{}
		for _, f := range graph.Check(g, gc.Options) {
			if f.Kind == graph.Unreachable || f.Kind == graph.DeadEnd || f.Kind == graph.Entry {
				flag[f.Pointer] = f.Kind
			}
		}
		incoming := map[int]bool{}
		for _, e := range g.Edges {
			if i, ok := g.Lookup(e.Target); ok {
				incoming[i] = true
			}
		}
		// A graph that names no entry of its own and checks only cycles (an ensemble's
		// tasks, ordered by their context lists) starts, like a multi-root graph, at
		// every node nothing leads to.
		multiRoot := gc.Options.MultiRoot || gc.Options.CyclesOnly
		entry := -1
		switch {
		case multiRoot:
		case gc.Options.Entry != "":
			entry, _ = g.Lookup(gc.Options.Entry)
		case gc.Options.EntryPointer == "" && len(g.Nodes) > 0:
			entry = 0
		}
		for i, n := range g.Nodes {
			dn := DrawNode{ID: n.ID, Exit: n.Exit, Entry: i == entry || multiRoot && !incoming[i]}
			if n.Exit {
				dn.Ends = endLabels(in, n)
			}
			for _, p := range []string{n.Pointer, n.IDPointer} {
				switch flag[p] {
				case graph.Unreachable, graph.Entry:
					dn.Unreachable = dn.Unreachable || i != entry
				case graph.DeadEnd:
					dn.DeadEnd = true
				}
			}
			d.Nodes = append(d.Nodes, dn)
		}
		for _, e := range g.Edges {
			if e.From < 0 || e.From >= len(g.Nodes) {
				continue
			}
			de := DrawEdge{From: g.Nodes[e.From].ID, Label: edgeLabel(in, g.Nodes[e.From], e)}
			de.Failure = de.Label == "fail" || e.Kind == graph.Failed || e.Kind == graph.Blocked || e.Kind == graph.Reject
			if _, ok := g.Lookup(e.Target); ok {
				de.To = e.Target
			} else {
				de.Dangling, de.To = true, e.Target
			}
			d.Edges = append(d.Edges, de)
		}
		out = append(out, d)
	}
	return out
}

// endLabels are the outcomes with which node n ends the run, each named as the
// dialect's runs name it (dws simulate's outcomes, the dialect's EndLabels), so that
// every edge of a drawing has a label; "end" where the dialect does not say.
func endLabels(in *lint.Inspection, n graph.Node) []string {
	if in.Dialect != nil && in.Dialect.EndLabels != nil {
		if out := in.Dialect.EndLabels(in.Doc, n); len(out) > 0 {
			return out
		}
	}
	return []string{"end"}
}

// edgeLabel names an edge as a reader of the dialect says it (its EdgeLabel), else by
// its kind.
func edgeLabel(in *lint.Inspection, from graph.Node, e graph.Edge) string {
	if in.Dialect != nil && in.Dialect.EdgeLabel != nil {
		if l := in.Dialect.EdgeLabel(in.Doc, from, e); l != "" {
			return l
		}
	}
	switch e.Kind {
	case graph.Success:
		return "ok"
	case graph.Failure:
		return "fail"
	case graph.Dependency:
		return "depends on"
	}
	return string(e.Kind)
}

// WriteGraph writes drawings in format (mermaid or dot); title names the definition.
func WriteGraph(w io.Writer, format, title string, ds []Drawing) error {
	var b strings.Builder
	if format == "dot" {
		writeDOT(&b, title, ds)
	} else {
		writeMermaid(&b, title, ds)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidText is s inside a quoted Mermaid label ("…" or |"…"|): printable, and every
// character Mermaid or the HTML it renders to would read (a quote, <, &, a backtick
// that starts a Markdown label, #, which starts Mermaid's own entity codes) written as
// Mermaid's entity code, so the label shows s as it is.
func mermaidText(s string) string { return mermaidEscaper.Replace(printable.String(s)) }

var mermaidEscaper = strings.NewReplacer("#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;", "&", "#amp;", "|", "#124;", "`", "#96;")

// mermaidTitle is the front matter's title line: a YAML double-quoted string, so that a
// colon or a quote in a file name or workflow id is part of the title.
func mermaidTitle(s string) string {
	return "title: \"" + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(printable.String(s)) + "\"\n"
}

func writeMermaid(b *strings.Builder, title string, ds []Drawing) {
	b.WriteString("---\n" + mermaidTitle(title) + "---\nflowchart TD\n")
	for gi, d := range ds {
		indent := "  "
		if d.Name != "" {
			fmt.Fprintf(b, "  subgraph g%d[\"%s\"]\n", gi, mermaidText(d.Name))
			indent = "    "
		}
		ids := map[string]string{}
		for ni, n := range d.Nodes {
			id := fmt.Sprintf("g%dn%d", gi, ni)
			ids[n.ID] = id
			fmt.Fprintf(b, "%s%s[\"%s\"]%s\n", indent, id, mermaidText(n.ID), mermaidClass(n))
		}
		end := fmt.Sprintf("g%dend", gi)
		hasEnd := false
		for ni, n := range d.Nodes {
			for _, l := range n.Ends {
				hasEnd = true
				arrow := "-->"
				if l == "fail" {
					arrow = "-.->"
				}
				fmt.Fprintf(b, "%sg%dn%d %s|\"%s\"| %s\n", indent, gi, ni, arrow, mermaidText(l), end)
			}
		}
		for ei, e := range d.Edges {
			to, ok := ids[e.To]
			if !ok {
				to = fmt.Sprintf("g%dmissing%d", gi, ei)
				fmt.Fprintf(b, "%s%s[\"%s (no such node)\"]:::missing\n", indent, to, mermaidText(e.To))
			}
			arrow := "-->"
			if e.Failure {
				arrow = "-.->"
			}
			fmt.Fprintf(b, "%s%s %s|\"%s\"| %s\n", indent, ids[e.From], arrow, mermaidText(e.Label), to)
		}
		if hasEnd {
			fmt.Fprintf(b, "%s%s((\"end\")):::endnode\n", indent, end)
		}
		if d.Name != "" {
			b.WriteString("  end\n")
		}
	}
	b.WriteString(`  subgraph legend["legend"]
    legendEntry["entry"]:::entry
    legendEnd(("end")):::endnode
    legendUnreachable["unreachable"]:::unreachable
    legendDeadEnd["dead end"]:::deadend
    legendMissing["named, but no such node"]:::missing
  end
  classDef entry fill:#e3f2fd,stroke:#1565c0,stroke-width:3px
  classDef endnode fill:#424242,stroke:#424242,color:#fff
  classDef unreachable fill:#fff3e0,stroke:#ef6c00,stroke-dasharray:4 3
  classDef deadend fill:#ffebee,stroke:#c62828,stroke-width:2px
  classDef missing fill:#fff,stroke:#c62828,stroke-dasharray:2 2,color:#c62828
`)
}

func mermaidClass(n DrawNode) string {
	switch {
	case n.DeadEnd:
		return ":::deadend"
	case n.Unreachable:
		return ":::unreachable"
	case n.Entry:
		return ":::entry"
	}
	return ""
}

// dotText is s inside a quoted DOT string: printable, with the backslash (which starts
// Graphviz's \N, \l, … escapes), the quote and & (which starts an entity Graphviz
// decodes) escaped, so the label shows s as it is.
func dotText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "&", "&amp;").Replace(printable.String(s))
}

func writeDOT(b *strings.Builder, title string, ds []Drawing) {
	fmt.Fprintf(b, "digraph \"%s\" {\n  label=\"%s\";\n  labelloc=t;\n  rankdir=TB;\n", dotText(title), dotText(title))
	b.WriteString("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for gi, d := range ds {
		indent := "  "
		if d.Name != "" {
			fmt.Fprintf(b, "  subgraph \"cluster_%d\" {\n    label=\"%s\";\n", gi, dotText(d.Name))
			indent = "    "
		}
		ids := map[string]string{}
		for ni, n := range d.Nodes {
			id := fmt.Sprintf("g%dn%d", gi, ni)
			ids[n.ID] = id
			fmt.Fprintf(b, "%s%s [label=\"%s\"%s];\n", indent, id, dotText(n.ID), dotStyle(n))
		}
		hasEnd := false
		for ni, n := range d.Nodes {
			for _, l := range n.Ends {
				hasEnd = true
				attrs := fmt.Sprintf(" [label=\"%s\"]", dotText(l))
				if l == "fail" {
					attrs = fmt.Sprintf(" [label=\"%s\", style=dashed]", dotText(l))
				}
				fmt.Fprintf(b, "%sg%dn%d -> g%dend%s;\n", indent, gi, ni, gi, attrs)
			}
		}
		for ei, e := range d.Edges {
			to, ok := ids[e.To]
			if !ok {
				to = fmt.Sprintf("g%dmissing%d", gi, ei)
				fmt.Fprintf(b, "%s%s [label=\"%s (no such node)\", style=dashed, color=\"#c62828\", fontcolor=\"#c62828\"];\n", indent, to, dotText(e.To))
			}
			style := ""
			if e.Failure {
				style = ", style=dashed"
			}
			fmt.Fprintf(b, "%s%s -> %s [label=\"%s\"%s];\n", indent, ids[e.From], to, dotText(e.Label), style)
		}
		if hasEnd {
			fmt.Fprintf(b, "%sg%dend [label=\"end\", shape=doublecircle, style=filled, fillcolor=\"#424242\", fontcolor=\"#ffffff\", width=0.3];\n", indent, gi)
		}
		if d.Name != "" {
			b.WriteString("  }\n")
		}
	}
	b.WriteString(`  subgraph cluster_legend {
    label="legend"; fontsize=10;
    legend_entry [label="entry"` + dotStyle(DrawNode{Entry: true}) + `];
    legend_end [label="end", shape=doublecircle, style=filled, fillcolor="#424242", fontcolor="#ffffff", width=0.3];
    legend_unreachable [label="unreachable"` + dotStyle(DrawNode{Unreachable: true}) + `];
    legend_deadend [label="dead end"` + dotStyle(DrawNode{DeadEnd: true}) + `];
    legend_entry -> legend_end -> legend_unreachable -> legend_deadend [style=invis];
  }
}
`)
}

func dotStyle(n DrawNode) string {
	switch {
	case n.DeadEnd:
		return `, fillcolor="#ffebee", color="#c62828", penwidth=2`
	case n.Unreachable:
		return `, fillcolor="#fff3e0", color="#ef6c00", style="rounded,filled,dashed"`
	case n.Entry:
		return `, fillcolor="#e3f2fd", color="#1565c0", penwidth=3`
	}
	return ""
}
