package report

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
)

// vizJS is Viz.js, Graphviz compiled to WebAssembly (assets/README.md says which and
// under what licences). The page carries it, so its pictures are laid out by a real
// layout engine with no network and nothing installed.
//
// Why this engine, measured on the fixtures' page (five definitions) in headless
// Chromium on this project's 2-core machine: with Viz.js the page is 2.2 MB (1.3 MB of
// it Viz.js, its control characters escaped) and drawn 0.3–0.6 s after it starts
// loading; Mermaid 11's own renderer inlined makes a 3.6 MB page drawn in 1.3–1.45 s,
// and its dagre layout still sets the labels of parallel edges on one another
// ("sequentireject"); Graphviz on wazero in the binary (goccy/go-graphviz 0.2.10) would
// write plain SVG, but merely linking it costs every dws command 1.4–2.1 s on a
// machine's first run (its package init compiles 1.5 MB of WebAssembly) and writes a
// 6 MB cache of native code into a shared $TMPDIR/go-graphviz, which dws would then
// load and run.
//
//go:embed assets/viz-global.js
var vizJS string

// vizScript is vizJS as the page's text: its WebAssembly is a string literal holding
// raw control characters, which XML forbids (and HTML calls a parse error), so each is
// written as the same string's \xNN escape. None follows an odd run of backslashes (an
// escape of its own), so the script means the same; the browser test runs it.
var vizScript = sync.OnceValue(func() string {
	var b strings.Builder
	b.Grow(len(vizJS) + len(vizJS)/2)
	for _, r := range vizJS {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
})

// WriteCoverageHTML writes the coverage page of a scenario run: one self-contained page
// that fetches nothing. For each definition it shows its graph, laid out by Graphviz in
// the page (Viz.js, embedded): every edge coverage counts is its own curve with its own
// label, solid green when a scenario took it, dashed red when none did, dotted grey
// when no path can take it; beside it the numbers, and below every edge in a table
// (the page without JavaScript still has those). The failed scenarios are named at the
// top. The page is well-formed XML (XHTML syntax), so tools can read it: each edge is a
// table row with data-edge="node:outcome" and its state as its class, and once drawn,
// each curve is an SVG group with the same data-edge and class. The root element's
// data-rendered says when the drawing is done ("yes") or failed ("error").
func WriteCoverageHTML(w io.Writer, s *scenario.Suite, minCoverage float64) error {
	var b strings.Builder
	t := s.Total()
	b.WriteString(`<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" lang="en">
<head>
<meta charset="utf-8"/>
<title>dws test coverage</title>
<style>` + coverageCSS + `</style>
</head>
<body>
<h1>dws test coverage</h1>
`)
	failed := len(s.Outcomes) - s.Passed()
	fmt.Fprintf(&b, "<p class=\"summary\">%s, %d passed", plural(len(s.Outcomes), "scenario"), s.Passed())
	if failed > 0 {
		fmt.Fprintf(&b, `, <span class="low">%d failed</span>`, failed)
	}
	fmt.Fprintf(&b, ". Edge coverage: <strong>%.1f%%</strong> (%d of %s some path can take)", t.Percent(), t.Covered, plural(t.Coverable, "edge"))
	if minCoverage >= 0 {
		cls := ""
		if t.Percent() < minCoverage {
			cls = ` class="low"`
		}
		fmt.Fprintf(&b, `; the minimum is <span%s>%g%%</span>`, cls, minCoverage)
	}
	b.WriteString(".</p>\n")
	if failed > 0 {
		b.WriteString("<section class=\"failed\">\n<h2>" + esc(plural(failed, "failed scenario")) + "</h2>\n<ul>\n")
		for _, o := range s.Outcomes {
			if !o.Passed {
				writeFailure(&b, o)
			}
		}
		b.WriteString("</ul>\n</section>\n")
	}
	b.WriteString(legendHTML)
	b.WriteString("<table class=\"definitions\">\n<tr><th>definition</th><th class=\"num\">scenarios</th><th class=\"num\">covered</th><th class=\"num\">edges</th><th class=\"num\">dead</th><th class=\"num\">coverage</th></tr>\n")
	for i, d := range s.Definitions {
		c := d.Coverage
		fmt.Fprintf(&b, "<tr><td><a href=\"#%s\">%s</a></td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%.1f%%</td></tr>\n",
			anchor(d.Name()), esc(d.Name()), len(scenariosOf(s, i)), c.Covered, c.Coverable, len(c.Dead), c.Percent())
	}
	b.WriteString("</table>\n")
	for i, d := range s.Definitions {
		writeDefinition(&b, s, i, d)
	}
	// The script last: the pictures' places are in the page by then. CDATA keeps the
	// page well-formed XML; in HTML the markers are JavaScript comments.
	b.WriteString("<script>//<![CDATA[\n" + vizScript() + "\n//]]></script>\n")
	b.WriteString("<script>//<![CDATA[\n" + drawJS + "//]]></script>\n")
	b.WriteString("</body>\n</html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeFailure names a failed scenario and says why it failed.
func writeFailure(b *strings.Builder, o *scenario.Outcome) {
	fmt.Fprintf(b, "<li><code>%s</code>", esc(o.Scenario.Path))
	var why []string
	why = append(why, o.Failures...)
	for _, d := range o.Diagnostics {
		why = append(why, d.String())
	}
	if o.FirstDiff >= 0 {
		why = append(why, "expected: "+strings.Join(visitStrings(o.Expected), ", "), "actual:   "+strings.Join(visitStrings(o.Actual), ", "))
	}
	if len(why) > 0 {
		for i, line := range why {
			why[i] = esc(line)
		}
		b.WriteString("<pre>" + strings.Join(why, "\n") + "</pre>")
	}
	b.WriteString("</li>\n")
}

// listedEdges is how many uncovered (or dead) edges the numbers name; the table of
// every edge has the rest.
const listedEdges = 12

// writeDefinition writes one definition's section: the picture, the numbers beside it,
// and every edge below.
func writeDefinition(b *strings.Builder, s *scenario.Suite, di int, d *scenario.Covered) {
	r := d.Result
	c := d.Coverage
	states := edgeStates(d)
	outcomes := scenariosOf(s, di)
	takers := make([]int, len(r.Edges))
	index := map[sim.Edge]int{}
	for i, e := range r.Edges {
		index[e.Edge] = i
	}
	for _, o := range outcomes {
		if o.Run == nil {
			continue
		}
		seen := map[int]bool{}
		for _, e := range o.Run.Steps {
			if i, ok := index[e]; ok && !seen[i] {
				seen[i] = true
				takers[i]++
			}
		}
	}
	prefix := fmt.Sprintf("d%d", di)
	var dot strings.Builder
	layout(r).writeDOT(&dot, prefix, r, states, takers)
	names := make([]string, len(r.Edges))
	for i, e := range r.Edges {
		names[i] = printable.String(e.String())
	}
	edgesJSON, _ := json.Marshal(names)

	fmt.Fprintf(b, "<section class=\"definition\" id=\"%s\">\n", anchor(d.Name()))
	fmt.Fprintf(b, "<h2>%s <span class=\"dialect\">%s</span></h2>\n", esc(d.Name()), esc(d.Dialect))
	b.WriteString("<div class=\"body\">\n")
	fmt.Fprintf(b, "<div class=\"picture\" id=\"%s-picture\" data-dot=\"%s\" data-edges=\"%s\" aria-label=\"%s\">", prefix,
		attr(dot.String()), attr(string(edgesJSON)), esc("the graph of "+d.Name()))
	b.WriteString("<p class=\"note\">The picture is drawn in the page by Graphviz (embedded: nothing is fetched); " +
		"it needs JavaScript. The numbers are beside it and every edge is listed below.</p></div>\n")

	b.WriteString("<aside class=\"numbers\">\n<dl>\n")
	cls := ""
	if c.Covered < c.Coverable {
		cls = " low"
	}
	fmt.Fprintf(b, "<dt>coverage</dt><dd class=\"percent%s\">%.1f%%</dd>\n", cls, c.Percent())
	fmt.Fprintf(b, "<dt>covered</dt><dd>%d of %s</dd>\n", c.Covered, plural(c.Coverable, "edge"))
	fmt.Fprintf(b, "<dt>not covered</dt><dd>%d", len(c.Uncovered))
	if len(c.Uncovered) > 0 {
		b.WriteString("<ul>")
		for i, e := range c.Uncovered {
			if i == listedEdges && len(c.Uncovered) > listedEdges+1 {
				fmt.Fprintf(b, "<li class=\"more\">and %d more, under every edge below</li>", len(c.Uncovered)-i)
				break
			}
			fmt.Fprintf(b, "<li class=\"uncovered\"><code>%s</code></li>", esc(e.String()))
		}
		b.WriteString("</ul>")
	}
	b.WriteString("</dd>\n")
	fmt.Fprintf(b, "<dt>dead</dt><dd>%d", len(c.Dead))
	if len(c.Dead) > 0 {
		b.WriteString("<ul>")
		for i, e := range c.Dead {
			if i == listedEdges && len(c.Dead) > listedEdges+1 {
				fmt.Fprintf(b, "<li class=\"more\">and %d more, under every edge below</li>", len(c.Dead)-i)
				break
			}
			fmt.Fprintf(b, "<li class=\"dead\"><code>%s</code>: %s</li>", esc(e.String()), esc(e.Why))
		}
		b.WriteString("</ul>")
	}
	b.WriteString("</dd>\n")
	nFailed := 0
	for _, o := range outcomes {
		if !o.Passed {
			nFailed++
		}
	}
	fmt.Fprintf(b, "<dt>scenarios</dt><dd>%s", plural(len(outcomes), "scenario"))
	switch {
	case nFailed > 0:
		fmt.Fprintf(b, ", <span class=\"low\">%d failed</span>:<ul>", nFailed)
		for _, o := range outcomes {
			if !o.Passed {
				fmt.Fprintf(b, "<li class=\"failed\"><code>%s</code></li>", esc(o.Scenario.Name))
			}
		}
		b.WriteString("</ul>")
	case len(outcomes) == 1:
		b.WriteString(", passed")
	case len(outcomes) > 1:
		b.WriteString(", all passed")
	}
	b.WriteString("</dd>\n</dl>\n</aside>\n</div>\n")

	b.WriteString("<details class=\"edges\"><summary>every edge</summary>\n<table>\n<tr><th>edge</th><th>leads to</th><th>state</th><th class=\"num\">scenarios</th></tr>\n")
	for i, e := range r.Edges {
		to := e.To
		if to == "" {
			to = "—"
		}
		state := stateWords(states[i], takers[i])
		if states[i] == dead {
			state += ": " + e.Why
		}
		fmt.Fprintf(b, "<tr data-edge=\"%s\" class=\"%s\"><td><code>%s</code></td><td>%s</td><td>%s</td><td class=\"num\">%d</td></tr>\n",
			esc(e.String()), states[i], esc(e.String()), esc(to), esc(state), takers[i])
	}
	b.WriteString("</table>\n</details>\n</section>\n")
}

// scenariosOf lists the outcomes of the scenarios that ran definition di.
func scenariosOf(s *scenario.Suite, di int) []*scenario.Outcome {
	d := s.Definitions[di]
	var out []*scenario.Outcome
	for _, o := range s.Outcomes {
		sc := o.Scenario
		if filepath.ToSlash(sc.Definition) != filepath.ToSlash(d.Path) || sc.Workflow != "" && sc.Workflow != d.Workflow {
			continue
		}
		if sc.Workflow == "" && d.Workflow != "" && slices.ContainsFunc(s.Definitions, func(o *scenario.Covered) bool {
			return o != d && o.Path == d.Path
		}) {
			continue // a file of several workflows: the scenario names the one it runs
		}
		out = append(out, o)
	}
	return out
}

// esc is s as the page's text or an attribute's value: printable (XML forbids most
// control characters even as references), then HTML-escaped.
func esc(s string) string { return html.EscapeString(printable.String(s)) }

// attr is text the page's script reads from an attribute (made of printable strings
// already): escaped, with its line ends as references, which HTML and XML alike read
// back as line ends.
func attr(s string) string { return strings.ReplaceAll(html.EscapeString(s), "\n", "&#10;") }

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

const coverageCSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 1.5em 2em; color: #222; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.15em; margin: 0 0 .5em; }
.dialect { font-weight: normal; color: #666; font-size: .85em; margin-left: .5em; }
table { border-collapse: collapse; } td, th { padding: .2em .8em; text-align: left; border-bottom: 1px solid #e3e3e3; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.low { color: #b71c1c; font-weight: bold; }
.failed pre { margin: .2em 0 .6em; padding: .4em .6em; background: #fff5f5; border-left: 3px solid #c62828; white-space: pre-wrap; }
.legend { display: flex; flex-wrap: wrap; gap: .4em 1.6em; align-items: center; margin: 1em 0; padding: .5em .8em; background: #fafafa; border: 1px solid #eee; }
.legend span { display: inline-flex; align-items: center; gap: .4em; }
section.definition { margin-top: 2em; padding-top: 1em; border-top: 1px solid #ddd; }
.body { display: flex; gap: 2em; align-items: flex-start; }
.picture { flex: 0 1 auto; min-width: 0; overflow-x: auto; }
.picture svg { display: block; height: auto; }
.picture .note { color: #666; font-style: italic; }
.picture.error { color: #b71c1c; }
.numbers { flex: 0 0 20em; background: #fafafa; border: 1px solid #eee; padding: .6em 1em; }
.numbers dl { margin: 0; display: grid; grid-template-columns: auto 1fr; gap: .25em .8em; }
.numbers dt { color: #555; } .numbers dd { margin: 0; }
.numbers ul { margin: .2em 0 0; padding-left: 1.1em; }
.numbers .percent { font-size: 1.4em; font-weight: bold; color: #1b5e20; line-height: 1.1; }
.numbers .percent.low { color: #b71c1c; }
li.uncovered code { color: #b71c1c; } li.dead code { color: #616161; }
details.edges { margin-top: .8em; } details.edges summary { cursor: pointer; color: #444; }
tr.uncovered td:nth-child(3) { color: #b71c1c; } tr.dead td:nth-child(3) { color: #616161; }
`

// legendHTML draws the three edge styles as the picture draws them, and its places.
var legendHTML = func() string {
	line := func(st edgeState) string {
		s := edgeStyles[st]
		dash := ""
		if s.dash != "" {
			dash = fmt.Sprintf(` stroke-dasharray="%s"`, s.dash)
		}
		return fmt.Sprintf(`<svg width="44" height="10" aria-hidden="true"><line x1="1" y1="5" x2="43" y2="5" stroke="%s" stroke-width="%s"%s/></svg>`, s.color, s.width, dash)
	}
	return `<p class="legend">` +
		`<span>` + line(covered) + ` covered: a scenario took it</span>` +
		`<span>` + line(uncovered) + ` not covered: no scenario took it</span>` +
		`<span>` + line(dead) + ` dead: no path can take it</span>` +
		`<span><svg width="30" height="16" aria-hidden="true"><rect x="1" y="1" width="28" height="14" rx="4" fill="#e3f2fd" stroke="#1565c0" stroke-width="2"/></svg> where the run starts</span>` +
		`<span><svg width="10" height="10" aria-hidden="true"><circle cx="5" cy="5" r="3.5" fill="#445566"/></svg> between two outcomes of a node (a phase's pass before its transition)</span>` +
		`<span><svg width="18" height="18" aria-hidden="true"><circle cx="9" cy="9" r="8" fill="#424242"/></svg> the run ends</span>` +
		"</p>\n"
}()

// drawJS lays out each picture with Viz.js and tags each curve with its edge.
const drawJS = `(function () {
  var root = document.documentElement;
  var pictures = document.querySelectorAll("div.picture[data-dot]");
  function fail(pic, why) {
    pic.className += " error";
    pic.textContent = "The picture could not be drawn: " + why;
  }
  if (typeof Viz === "undefined") {
    for (var i = 0; i !== pictures.length; i++) fail(pictures[i], "Graphviz did not load");
    root.setAttribute("data-rendered", "error");
    return;
  }
  Viz.instance().then(function (viz) {
    var failed = 0;
    for (var i = 0; i !== pictures.length; i++) {
      var pic = pictures[i];
      try {
        var svg = viz.renderSVGElement(pic.getAttribute("data-dot"));
        var names = JSON.parse(pic.getAttribute("data-edges"));
        var curves = svg.querySelectorAll("g.edge");
        for (var k = 0; k !== curves.length; k++) {
          var m = /-e(\d+)-\d+$/.exec(curves[k].id);
          if (m) curves[k].setAttribute("data-edge", names[Number(m[1])]);
        }
        svg.setAttribute("role", "img");
        svg.setAttribute("aria-label", pic.getAttribute("aria-label"));
        pic.textContent = "";
        pic.appendChild(svg);
      } catch (e) {
        failed++;
        fail(pic, e);
      }
    }
    root.setAttribute("data-rendered", failed ? "error" : "yes");
  }, function (e) {
    for (var i = 0; i !== pictures.length; i++) fail(pictures[i], e);
    root.setAttribute("data-rendered", "error");
  });
})();
`
