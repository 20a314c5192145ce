package main

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/internal/browser"
)

// coverageTree copies the fixtures the scenarios use into a directory of their own,
// with one scenario more that fails (it expects the expense to fail, and it succeeds),
// and returns that directory.
func coverageTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree := func(from string) {
		err := filepath.WalkDir(filepath.Join(repoRoot, from), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(repoRoot, p)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dir, rel), 0o755)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, _ := d.Info()
			return os.WriteFile(filepath.Join(dir, rel), data, info.Mode().Perm())
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"fixtures/sim", "fixtures/scenarios", "fixtures/cortex/prompt_templates.yaml", "fixtures/cortex/schema.sql", ".dws.yaml"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		copyTree(p)
	}
	wrong := `# Expects the expense to be marked failed; mark-fail succeeds, so this scenario fails.
definition: ../../sim/expense.json
context: { amount: 420, expenseId: 9 }
stubs:
  fraud-score: [{ fail: model unavailable }]
expect:
  status: failed
  path: [fraud-score=fail, mark-fail=fail]
`
	if err := os.WriteFile(filepath.Join(dir, "fixtures/scenarios/expense/wrongly-expects-failure.scenario.yaml"), []byte(wrong), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The coverage page as a person sees it: the fixtures' report, a subset of scenarios
// so that edges stay uncovered, and one scenario that fails, rendered in headless
// Chromium. The page draws every definition with no network request; every edge is a
// curve of its own with a label no other label covers; covered, uncovered and dead
// edges are drawn in three styles, the numbers sit beside each picture, a DWS phase's
// pass leads on to its transition (not to the end), and the failed scenario is named.
// Screenshots go to $DWS_SCREENSHOTS when set (else a temporary directory) and are
// checked for ink in each style's colour.
func TestCoveragePageInChromium(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("Chromium is not installed: scripts/test.sh installs it (apt-get install chromium)")
	}
	dir := coverageTree(t)
	t.Chdir(dir)
	page := filepath.Join(dir, "coverage.html")
	var out, errb bytes.Buffer
	code := run([]string{"dws", "test", "--run", "fails|blocked|invalid|wrongly", "--coverage-report", page, "fixtures"}, nil, &out, &errb)
	if code != 1 || !strings.Contains(out.String(), "FAIL  fixtures/scenarios/expense/wrongly-expects-failure.scenario.yaml") {
		t.Fatalf("exit %d, want 1 with the one failed scenario\n%s%s", code, out.String(), errb.String())
	}
	shots := os.Getenv("DWS_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	b, err := browser.Start(chromium)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = b.Close() }()
	tab, err := b.NewPage(ctx, 1280, 900)
	if err != nil {
		t.Fatal(err)
	}
	if err := tab.Navigate(ctx, "file://"+filepath.ToSlash(page)); err != nil {
		t.Fatal(err)
	}
	var rendered struct {
		State string
		MS    float64
	}
	drawCtx, drawn := context.WithTimeout(ctx, 30*time.Second)
	defer drawn()
	err = tab.Eval(drawCtx, `new Promise(done => { const check = () => {
		const s = document.documentElement.getAttribute("data-rendered");
		if (s) done({State: s, MS: performance.now()}); else setTimeout(check, 20);
	}; check(); })`, &rendered)
	if err != nil {
		t.Fatalf("waiting for the pictures: %v\nconsole: %v", err, tab.Console())
	}
	if rendered.State != "yes" {
		var why []string
		_ = tab.Eval(ctx, `[...document.querySelectorAll("div.picture.error")].map(p => p.textContent)`, &why)
		t.Fatalf("the pictures were not drawn: data-rendered=%q\n%s\nconsole: %v", rendered.State, strings.Join(why, "\n"), tab.Console())
	}
	t.Logf("drawn %.0f ms after the page started loading", rendered.MS)

	// No request but the page itself: nothing from the network, not even a font.
	for _, u := range tab.Requests() {
		if u != "file://"+filepath.ToSlash(page) && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page requested %s", u)
		}
	}
	var resources []string
	if err := tab.Eval(ctx, `performance.getEntriesByType("resource").map(e => e.name)`, &resources); err != nil {
		t.Fatal(err)
	}
	if len(resources) > 0 {
		t.Errorf("the page loaded resources: %v", resources)
	}

	type curve struct {
		Edge, Class, Title, Label, D string
		Stroke, Dash                 string
	}
	type section struct {
		ID          string
		Rows        []struct{ Edge, Class string }
		Curves      []curve
		Labels      [][4]float64 // each edge label's glyphs' box, in its picture's units
		Places      map[string]string
		PictureBox  [4]float64
		NumbersBox  [4]float64
		NumbersText string
	}
	var sections []section
	err = tab.Eval(ctx, `[...document.querySelectorAll("section.definition")].map(sec => {
		const box = el => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
		const places = {};
		sec.querySelectorAll("g.node").forEach(n => {
			const text = n.querySelector("text");
			places[n.querySelector("title").textContent] = text ? text.textContent : "";
		});
		return {
			ID: sec.id,
			Rows: [...sec.querySelectorAll("tr[data-edge]")].map(r => ({Edge: r.dataset.edge, Class: r.className})),
			Curves: [...sec.querySelectorAll("g.edge")].map(g => {
				const p = g.querySelector("path"), s = getComputedStyle(p);
				return {Edge: g.dataset.edge || "", Class: g.getAttribute("class"), Title: g.querySelector("title").textContent,
					Label: [...g.querySelectorAll("text")].map(t => t.textContent).join(" "), D: p.getAttribute("d"),
					Stroke: s.stroke, Dash: s.strokeDasharray};
			}),
			Labels: [...sec.querySelectorAll("g.edge text")].map(t => {
				let b = null; // the glyphs' box, spaces left out
				for (let i = 0; i < t.getNumberOfChars(); i++) {
					if (t.textContent[i].trim() === "") continue;
					const r = t.getExtentOfChar(i);
					b = b ? [Math.min(b[0], r.x), Math.min(b[1], r.y), Math.max(b[2], r.x + r.width), Math.max(b[3], r.y + r.height)]
						: [r.x, r.y, r.x + r.width, r.y + r.height];
				}
				return b;
			}),
			Places: places,
			PictureBox: box(sec.querySelector("div.picture svg")),
			NumbersBox: box(sec.querySelector("aside.numbers")),
			NumbersText: sec.querySelector("aside.numbers").textContent,
		};
	})`, &sections)
	if err != nil {
		t.Fatal(err)
	}
	if len(sections) < 5 {
		t.Fatalf("%d definitions on the page, want the fixtures' 5 and more", len(sections))
	}
	styles := map[string]string{} // class -> stroke and dash pattern
	for _, s := range sections {
		byEdge := map[string][]curve{}
		for _, c := range s.Curves {
			if c.Edge == "" {
				t.Errorf("%s: curve %s is not tagged with its edge", s.ID, c.Title)
			}
			if strings.TrimSpace(c.Label) == "" {
				t.Errorf("%s: curve of %s has no label", s.ID, c.Edge)
			}
			byEdge[c.Edge] = append(byEdge[c.Edge], c)
		}
		for _, r := range s.Rows {
			cs := byEdge[r.Edge]
			if len(cs) == 0 {
				t.Errorf("%s: edge %s is not drawn", s.ID, r.Edge)
			}
			for _, c := range cs {
				if c.Class != "edge "+r.Class {
					t.Errorf("%s: edge %s is drawn as %q, its row says %q", s.ID, r.Edge, c.Class, r.Class)
				}
				style := c.Stroke + " " + c.Dash
				if prev, ok := styles[r.Class]; ok && prev != style {
					t.Errorf("%s edges drawn two ways: %s and %s", r.Class, prev, style)
				}
				styles[r.Class] = style
			}
		}
		// Parallel edges are separate curves, and no label lies on another.
		paths := map[string]string{}
		for _, c := range s.Curves {
			if other, ok := paths[c.D]; ok {
				t.Errorf("%s: %s and %s are drawn on one line", s.ID, other, c.Edge)
			}
			paths[c.D] = c.Edge
		}
		for i, a := range s.Labels {
			for _, b := range s.Labels[i+1:] {
				if a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] {
					t.Errorf("%s: two edge labels overlap: %v and %v", s.ID, a, b)
				}
			}
		}
		// The numbers beside the picture, not under it.
		if s.NumbersBox[0] < s.PictureBox[2] || s.NumbersBox[1] > s.PictureBox[3] {
			t.Errorf("%s: the numbers %v are not beside the picture %v", s.ID, s.NumbersBox, s.PictureBox)
		}
		if !strings.Contains(s.NumbersText, "covered") || !strings.Contains(s.NumbersText, "%") {
			t.Errorf("%s: the numbers say %q", s.ID, s.NumbersText)
		}
	}
	if len(styles) != 3 || styles["covered"] == styles["uncovered"] || styles["covered"] == styles["dead"] || styles["uncovered"] == styles["dead"] {
		t.Errorf("covered, uncovered and dead edges are not three styles: %v", styles)
	}
	// A DWS phase's pass leads on to its transition, not into the end.
	for _, s := range sections {
		if !strings.Contains(s.ID, "design-implement-verify") {
			continue
		}
		var pass, next *curve
		for i, c := range s.Curves {
			switch c.Edge {
			case "design:pass":
				pass = &s.Curves[i]
			case "design:sequential implement":
				next = &s.Curves[i]
			}
		}
		if pass == nil || next == nil {
			t.Fatalf("%s: design:pass or its transition is not drawn: %+v", s.ID, s.Curves)
		}
		_, passTo, _ := strings.Cut(pass.Title, "->")
		nextFrom, _, _ := strings.Cut(next.Title, "->")
		if s.Places[passTo] == "end" || passTo != nextFrom {
			t.Errorf("%s: design:pass leads to %q (%s), its transition leaves from %q", s.ID, passTo, s.Places[passTo], nextFrom)
		}
	}
	// The failed scenario is named, at the top and by its definition.
	var failed struct{ Top, ByDefinition string }
	err = tab.Eval(ctx, `({Top: (document.querySelector("section.failed") || {textContent: ""}).textContent,
		ByDefinition: [...document.querySelectorAll("aside.numbers li.failed")].map(l => l.textContent).join(" ")})`, &failed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(failed.Top, "fixtures/scenarios/expense/wrongly-expects-failure.scenario.yaml") || !strings.Contains(failed.Top, "1 failed scenario") {
		t.Errorf("the failed scenario is not named at the top: %q", failed.Top)
	}
	if !strings.Contains(failed.ByDefinition, "wrongly-expects-failure") {
		t.Errorf("the failed scenario is not named by its definition: %q", failed.ByDefinition)
	}

	// Screenshots: the whole page, and each definition; each has the ink of the styles
	// it shows.
	full, err := tab.Screenshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	writeShot(t, filepath.Join(shots, "coverage-page.png"), full)
	inkOf(t, "the whole page", full, "#2e7d32", "#c62828", "#8d8d8d")
	for i, s := range sections {
		shot, err := tab.ScreenshotOf(ctx, "#"+s.ID)
		if err != nil {
			t.Fatal(err)
		}
		writeShot(t, filepath.Join(shots, fmt.Sprintf("coverage-%d.png", i+1)), shot)
		var want []string
		for _, c := range s.Curves {
			switch {
			case strings.HasSuffix(c.Class, " covered"):
				want = append(want, "#2e7d32")
			case strings.HasSuffix(c.Class, " uncovered"):
				want = append(want, "#c62828")
			}
		}
		inkOf(t, s.ID, shot, want...)
	}
}

func writeShot(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// inkOf checks that a screenshot is no blank page and that it has pixels of each
// colour (within a small distance: the curves are anti-aliased).
func inkOf(t *testing.T, what string, data []byte, colours ...string) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: the screenshot is no PNG: %v", what, err)
	}
	want := map[[3]int]int{}
	for _, c := range colours {
		var r, g, b int
		if _, err := fmt.Sscanf(c, "#%02x%02x%02x", &r, &g, &b); err != nil {
			t.Fatal(err)
		}
		want[[3]int{r, g, b}] = 0
	}
	bounds := img.Bounds()
	inked := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, b := rgb(img, x, y)
			if r < 240 || g < 240 || b < 240 {
				inked++
			}
			for c := range want {
				if abs(r-c[0])+abs(g-c[1])+abs(b-c[2]) < 40 {
					want[c]++
				}
			}
		}
	}
	area := bounds.Dx() * bounds.Dy()
	if inked < area/200 {
		t.Errorf("%s: the screenshot is nearly blank (%d of %d pixels inked)", what, inked, area)
	}
	for c, n := range want {
		if n < 20 {
			t.Errorf("%s: the screenshot has %d pixels of #%02x%02x%02x", what, n, c[0], c[1], c[2])
		}
	}
}

func rgb(img image.Image, x, y int) (int, int, int) {
	r, g, b, _ := img.At(x, y).RGBA()
	return int(r >> 8), int(g >> 8), int(b >> 8)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// The page counts in words a person reads: one scenario is "1 scenario", and a failed
// scenario is named, with why it failed, even when nothing else fails.
func TestCoveragePageCounts(t *testing.T) {
	dir := coverageTree(t)
	t.Chdir(dir)
	page := filepath.Join(dir, "one.html")
	var out, errb bytes.Buffer
	if code := run([]string{"dws", "test", "--run", "straight-through", "--coverage-report", page, "fixtures"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
	}
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if strings.Contains(text, "1 scenarios") || !strings.Contains(text, "1 scenario, 1 passed") || !strings.Contains(text, "1 scenario, passed") {
		t.Errorf("one scenario is not counted as one: %s", summaryOf(text))
	}
	if strings.Contains(text, `class="failed"`) {
		t.Errorf("a run with no failure lists failed scenarios")
	}

	page = filepath.Join(dir, "failed.html")
	out.Reset()
	errb.Reset()
	if code := run([]string{"dws", "test", "--run", "wrongly", "--coverage-report", page, "fixtures"}, nil, &out, &errb); code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, out.String(), errb.String())
	}
	if data, err = os.ReadFile(page); err != nil {
		t.Fatal(err)
	}
	text = string(data)
	for _, want := range []string{"1 failed scenario", "fixtures/scenarios/expense/wrongly-expects-failure.scenario.yaml",
		"the run ended succeeded, expected failed", `<li class="failed"><code>wrongly-expects-failure</code></li>`} {
		if !strings.Contains(text, want) {
			t.Errorf("the page does not say %q: %s", want, summaryOf(text))
		}
	}
}

// summaryOf is the page's text up to its first definition, for a failure message.
func summaryOf(page string) string {
	if i := strings.Index(page, "<section class=\"definition\""); i > 0 {
		page = page[:i]
	}
	if i := strings.Index(page, "<body>"); i > 0 {
		page = page[i:]
	}
	if len(page) > 1500 {
		page = page[:1500] + "…"
	}
	return page
}
