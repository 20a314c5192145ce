package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
)

// WriteCoverageHTML writes the coverage page of a scenario run: one self-contained
// page (no script, no network) with, per definition, its graph drawn as inline SVG,
// each edge solid green when a scenario took it, dashed red when none did, dotted grey
// when no path can take it, and the numbers. The page is well-formed XML (XHTML
// syntax), so tools can read it; every edge is an element with data-edge="node:outcome".
func WriteCoverageHTML(w io.Writer, s *scenario.Suite, minCoverage float64) error {
	var b strings.Builder
	t := s.Total()
	b.WriteString(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>dws test coverage</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; } td, th { padding: .2em .8em; text-align: left; border-bottom: 1px solid #ddd; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.low { color: #b00; font-weight: bold; }
svg { border: 1px solid #eee; margin-top: .5em; }
.legend span { margin-right: 1.5em; }
.covered { stroke: #2a8a3a; } .uncovered { stroke: #c62828; stroke-dasharray: 6 4; } .dead { stroke: #999; stroke-dasharray: 2 3; }
.node rect { fill: #f5f7fa; stroke: #445; } .end circle { fill: #445; }
text { font: 12px system-ui, sans-serif; fill: #222; } .label { font-size: 11px; fill: #555; }
</style>
</head>
<body>
<h1>dws test coverage</h1>
`)
	fmt.Fprintf(&b, "<p>%d scenarios, %d passed. Edge coverage: <strong>%.1f%%</strong> (%d of %d edges some path can take)",
		len(s.Outcomes), s.Passed(), t.Percent(), t.Covered, t.Coverable)
	if minCoverage >= 0 {
		cls := ""
		if t.Percent() < minCoverage {
			cls = ` class="low"`
		}
		fmt.Fprintf(&b, `; the minimum is <span%s>%g%%</span>`, cls, minCoverage)
	}
	b.WriteString(".</p>\n")
	b.WriteString(`<p class="legend"><span><svg width="40" height="8"><line x1="0" y1="4" x2="40" y2="4" class="covered" stroke-width="2"/></svg> covered</span>` +
		`<span><svg width="40" height="8"><line x1="0" y1="4" x2="40" y2="4" class="uncovered" stroke-width="2"/></svg> not covered</span>` +
		`<span><svg width="40" height="8"><line x1="0" y1="4" x2="40" y2="4" class="dead" stroke-width="2"/></svg> no path can take it</span></p>` + "\n")
	b.WriteString("<table>\n<tr><th>definition</th><th>scenarios</th><th class=\"num\">covered</th><th class=\"num\">edges</th><th class=\"num\">coverage</th></tr>\n")
	for _, d := range s.Definitions {
		c := d.Coverage
		fmt.Fprintf(&b, "<tr><td><a href=\"#%s\">%s</a></td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%.1f%%</td></tr>\n",
			anchor(d.Name()), esc(d.Name()), d.Scenarios, c.Covered, c.Coverable, c.Percent())
	}
	b.WriteString("</table>\n")
	for _, d := range s.Definitions {
		fmt.Fprintf(&b, "<h2 id=\"%s\">%s (%s): %.1f%%, %d of %d edges</h2>\n", anchor(d.Name()), esc(d.Name()), esc(d.Dialect),
			d.Coverage.Percent(), d.Coverage.Covered, d.Coverage.Coverable)
		if len(d.Coverage.Uncovered) > 0 {
			fmt.Fprintf(&b, "<p>Not covered: %s</p>\n", esc(edgeList(d.Coverage.Uncovered)))
		}
		for _, e := range d.Coverage.Dead {
			fmt.Fprintf(&b, "<p>No path can take %s: %s</p>\n", esc(e.String()), esc(e.Why))
		}
		drawGraph(&b, d)
	}
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// esc is s as the page's text or an attribute's value: printable (XML forbids most
// control characters even as references), then HTML-escaped.
func esc(s string) string { return html.EscapeString(printable.String(s)) }

// anchor is an id for a definition's section.
func anchor(s string) string {
	var b strings.Builder
	b.WriteString("def-")
	for _, r := range s {
		if r < 128 && (r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, "_%x", r)
		}
	}
	return b.String()
}

const (
	nodeW, nodeH = 150, 30
	gapX, gapY   = 40, 70
)

// drawGraph draws a definition's nodes in layers (by their distance from the first
// node), and every edge with its outcome.
func drawGraph(b *strings.Builder, d *scenario.Covered) {
	r := d.Result
	var nodes []string
	index := map[string]int{}
	addNode := func(n string) {
		if _, ok := index[n]; !ok && n != "" {
			index[n] = len(nodes)
			nodes = append(nodes, n)
		}
	}
	for _, e := range r.Edges {
		addNode(e.Node)
	}
	for _, e := range r.Edges {
		addNode(e.To)
	}
	if len(nodes) == 0 {
		return
	}
	// Layers: breadth-first distance from the first node; nodes it never reaches follow.
	layer := make([]int, len(nodes))
	for i := range layer {
		layer[i] = -1
	}
	layer[0] = 0
	queue := []int{0}
	out := make([][]int, len(nodes))
	for _, e := range r.Edges {
		if to, ok := index[e.To]; ok {
			out[index[e.Node]] = append(out[index[e.Node]], to)
		}
	}
	deepest := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range out[v] {
			if layer[u] < 0 {
				layer[u] = layer[v] + 1
				deepest = max(deepest, layer[u])
				queue = append(queue, u)
			}
		}
	}
	for i := range layer {
		if layer[i] < 0 {
			deepest++
			layer[i] = deepest
		}
	}
	rows := make([][]int, deepest+1)
	for i, l := range layer {
		rows[l] = append(rows[l], i)
	}
	widest := 0
	for _, row := range rows {
		widest = max(widest, len(row))
	}
	width := max(widest*(nodeW+gapX)+gapX+nodeW, 400)
	height := len(rows)*(nodeH+gapY) + gapY
	x := make([]float64, len(nodes))
	y := make([]float64, len(nodes))
	for l, row := range rows {
		span := len(row)*(nodeW+gapX) - gapX
		left := float64(width-span) / 2
		for k, n := range row {
			x[n] = left + float64(k*(nodeW+gapX)) + nodeW/2
			y[n] = float64(gapY/2 + l*(nodeH+gapY) + nodeH/2)
		}
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img">`+"\n", width, height, width, height)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#555"/></marker></defs>` + "\n")
	taken := map[sim.Edge]bool{}
	for _, e := range d.Coverage.Uncovered {
		taken[e] = false
	}
	ends := map[int]int{} // end edges drawn so far per node, to fan them out
	for k, e := range r.Edges {
		from := index[e.Node]
		class := "covered"
		switch covered, listed := taken[e.Edge]; {
		case !e.Coverable:
			class = "dead"
		case listed && !covered:
			class = "uncovered"
		}
		x1, y1 := x[from], y[from]+nodeH/2
		var x2, y2 float64
		var path string
		to, toNode := index[e.To]
		switch {
		case !toNode:
			// An edge that ends the run: a short stroke to an end dot under the node.
			n := ends[from]
			ends[from]++
			x2, y2 = x1+float64(n*36)-18, y1+gapY/2
			path = fmt.Sprintf("M%.1f,%.1f L%.1f,%.1f", x1, y1, x2, y2-5)
			fmt.Fprintf(b, `<g class="end"><circle cx="%.1f" cy="%.1f" r="4"/></g>`+"\n", x2, y2)
		case layer[to] > layer[from]:
			x2, y2 = x[to], y[to]-nodeH/2
			path = fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x1, y1, x1, y1+gapY/2, x2, y2-gapY/2, x2, y2)
		default:
			// Back or sideways: around the right of both nodes.
			x1, y1 = x[from]+nodeW/2, y[from]
			x2, y2 = x[to]+nodeW/2, y[to]
			bend := 40 + 10*float64(k%4)
			path = fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", x1, y1, x1+bend, y1, x2+bend, y2, x2, y2)
		}
		fmt.Fprintf(b, `<g data-edge="%s" class="edge"><title>%s → %s (%s)</title>`, esc(e.String()), esc(e.String()), esc(orEnd(e.To)), class)
		fmt.Fprintf(b, `<path d="%s" class="%s" fill="none" stroke-width="2" marker-end="url(#arrow)"/>`, path, class)
		lx, ly := (x1+x2)/2, (y1+y2)/2
		if math.Abs(x2-x1) < 1 {
			lx += 6
		}
		fmt.Fprintf(b, `<text class="label" x="%.1f" y="%.1f">%s</text></g>`+"\n", lx+4, ly, esc(clipLabel(e.Outcome)))
	}
	for i, n := range nodes {
		fmt.Fprintf(b, `<g class="node" data-node="%s"><rect x="%.1f" y="%.1f" width="%d" height="%d" rx="5"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text></g>`+"\n",
			esc(n), x[i]-nodeW/2, y[i]-nodeH/2, nodeW, nodeH, x[i], y[i]+4, esc(clipLabel(n)))
	}
	b.WriteString("</svg>\n")
}

func orEnd(s string) string {
	if s == "" {
		return "end"
	}
	return s
}

func clipLabel(s string) string {
	if r := []rune(s); len(r) > 22 {
		return string(r[:21]) + "…"
	}
	return s
}
