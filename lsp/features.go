package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/internal/printable"
	"github.com/dwsdev/dws/internal/suggest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/schema"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// ---- hover -------------------------------------------------------------------------

// Hover explains the finding under the cursor (as dws explain does), or summarises the
// node an edge's target names.
func (s *Server) Hover(_ context.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := a.text.offset(params.Position)
	var parts []string
	for i, d := range a.diags {
		from, to := a.text.offset(d.Range.Start), a.text.offset(d.Range.End)
		if off < from || off > to {
			continue
		}
		if r, ok := s.reg.Lookup(a.findings[i].Rule); ok {
			parts = append(parts, explain(r))
		}
	}
	in := a.inspection()
	if h, ok := at(in, off); ok && h.node >= 0 {
		parts = append(parts, summary(in, h))
	}
	if len(parts) == 0 {
		return nil, nil //nolint:nilnil // LSP: no hover here is a null result
	}
	return &protocol.Hover{Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")}}, nil
}

// explain is dws explain RULE in Markdown.
func explain(r lint.Rule) string {
	dialect := r.Dialect
	if dialect == "" {
		dialect = "every dialect"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (%s, %s): %s.\n\n%s", r.ID, r.Severity, dialect, r.Summary, r.Doc)
	for _, ex := range []struct {
		title string
		e     lint.Example
	}{{"Fails", r.Fail}, {"Passes", r.Pass}} {
		if ex.e.Text == "" {
			continue
		}
		lang := "json"
		if strings.HasSuffix(ex.e.Name, ".yaml") || strings.HasSuffix(ex.e.Name, ".yml") {
			lang = "yaml"
		}
		fmt.Fprintf(&b, "\n\n%s (`%s`):\n```%s\n%s```", ex.title, ex.e.Name, lang, ex.e.Text)
	}
	fmt.Fprintf(&b, "\n\n[dws explain %s](https://dws.dev/rules/%s)", r.ID, r.ID)
	return b.String()
}

// summary describes a node: its kind and where its edges lead.
func summary(in *lint.Inspection, h hit) string {
	n := h.g.Nodes[h.node]
	var b strings.Builder
	kind, text := "node", ""
	if in.Dialect != nil && in.Dialect.Describe != nil {
		k, t := in.Dialect.Describe(in.Doc, n)
		if k != "" {
			kind = k
		}
		text = t
	}
	fmt.Fprintf(&b, "**%s** (%s)", n.ID, kind)
	if text != "" {
		fmt.Fprintf(&b, "\n\n%s", clipText(text, 200))
	}
	var outs []string
	for _, e := range h.g.Edges {
		if e.From == h.node {
			outs = append(outs, fmt.Sprintf("- %s → `%s`", e.Kind, e.Target))
		}
	}
	if len(outs) > 0 {
		b.WriteString("\n\n" + strings.Join(outs, "\n"))
	}
	switch k := len(uses(h.g, n.ID)); k {
	case 0:
	case 1:
		b.WriteString("\n\n1 edge leads here.")
	default:
		fmt.Fprintf(&b, "\n\n%d edges lead here.", k)
	}
	return b.String()
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ---- completion --------------------------------------------------------------------

// The completion contexts, compiled on a completion's first need: a validate run
// never completes, and compiling them was most of this package's start-up.
var (
	// A JSON or YAML value being typed after its key: "key": "par, key: par, key: [a, par.
	valueCtx = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:"([\w.$-]+)"|([\w.$-]+))\s*:\s*(?:\[(?:[^\]]*,)?\s*)?["']?([^"',\[\]{}:]*)$`)
	})
	// A YAML block list item under a key on an earlier line.
	itemCtx    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)-\s+["']?([^"',]*)$`) })
	ignoreCtx  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`dws:ignore\s+(?:[\w-]+,)*([\w-]*)$`) })
	keyCtx     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s+)["']?([\w-]*)$`) })
	flowKeyCtx = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?:^|\s)rules:\s*[\[{](?:[^\]}]*,)?\s*["']?([\w-]*)$`)
	})
)

// Completion offers node ids in the fields the dialect says name a node, rule ids in dws:ignore comments and in
// .dws.yaml's rules, and the enum values the dialect's schema allows for a field.
func (s *Server) Completion(_ context.Context, params *protocol.CompletionParams) (protocol.CompletionResult, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := a.text.offset(params.Position)
	lineNo := int(params.Position.Line)
	before := a.raw[a.text.lines[min(lineNo, len(a.text.lines)-1)]:off]
	items := protocol.CompletionItemSlice{}
	add := func(labels []string, kind protocol.CompletionItemKind, detail string) {
		for _, l := range labels {
			items = append(items, protocol.CompletionItem{Label: l, Kind: kind, Detail: protocol.NewOptional(detail)})
		}
	}
	ruleIDs := func() []string {
		var out []string
		for _, r := range s.reg.Rules() {
			out = append(out, r.ID)
		}
		sort.Strings(out)
		return out
	}
	if ignoreCtx().MatchString(before) {
		add(ruleIDs(), protocol.CompletionItemKindKeyword, "dws rule")
		return items, nil
	}
	if isConfig(a.path) {
		if flowKeyCtx().MatchString(before) || (keyCtx().MatchString(before) && parentKey(a, lineNo) == "rules") {
			add(ruleIDs(), protocol.CompletionItemKindKeyword, "dws rule")
		} else if m := valueCtx().FindStringSubmatch(before); m != nil && m[1]+m[2] == "rules" {
			add(ruleIDs(), protocol.CompletionItemKindKeyword, "dws rule")
		}
		return items, nil
	}
	key := ""
	if m := valueCtx().FindStringSubmatch(before); m != nil {
		key = m[1] + m[2]
	} else if m := itemCtx().FindStringSubmatch(before); m != nil {
		key = parentKey(a, lineNo)
	}
	if key == "" {
		return items, nil
	}
	in := s.lastGood(params.TextDocument.URI, a)
	if in != nil && in.Dialect != nil && slices.Contains(in.Dialect.EdgeFields, key) {
		var ids []string
		for _, gc := range in.Graphs {
			for _, n := range gc.Graph.Nodes {
				if !slices.Contains(ids, n.ID) {
					ids = append(ids, n.ID)
				}
			}
		}
		add(ids, protocol.CompletionItemKindReference, "node id")
	}
	dialect := ""
	if in != nil && in.Dialect != nil {
		dialect = in.Dialect.ID
	}
	if vals := enumValues(dialect, key); len(vals) > 0 {
		add(vals, protocol.CompletionItemKindEnumMember, "allowed by the "+dialect+" schema")
	}
	return items, nil
}

// parentKey is the key of the mapping that line lies in: the nearest earlier line
// indented less that ends in "key:".
func parentKey(a *analysis, line int) string {
	cur := a.text.line(line)
	indent := len(cur) - len(strings.TrimLeft(cur, " "))
	re := regexp.MustCompile(`^\s*["']?([\w.$-]+)["']?\s*:\s*$`)
	for n := line - 1; n >= 0; n-- {
		l := a.text.line(n)
		if strings.TrimSpace(l) == "" {
			continue
		}
		if in := len(l) - len(strings.TrimLeft(l, " ")); in < indent || (in == indent && strings.HasPrefix(strings.TrimSpace(cur), "-")) {
			if m := re.FindStringSubmatch(l); m != nil {
				return m[1]
			}
			if in < indent {
				return ""
			}
		}
	}
	return ""
}

// lastGood is the newest inspection of the document that parsed: completion happens
// while the text is half typed.
func (s *Server) lastGood(u uri.URI, a *analysis) *lint.Inspection {
	if in := a.inspection(); in.Doc != nil {
		return in
	}
	d := s.doc(u)
	if d == nil {
		return nil
	}
	d.mu.Lock()
	good := d.good
	d.mu.Unlock()
	if good == nil {
		return nil
	}
	return good.inspection()
}

// enumValues are the values the dialect's schema allows for properties named key,
// wherever they are.
func enumValues(dialect, key string) []string {
	if dialect == "" {
		return nil
	}
	src, ok := schema.Source(dialect)
	if !ok {
		return nil
	}
	var root any
	if json.Unmarshal(src, &root) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if props, ok := x["properties"].(map[string]any); ok {
				if p, ok := props[key].(map[string]any); ok {
					collectEnum(p, &out)
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(root)
	return out
}

func collectEnum(p map[string]any, out *[]string) {
	vals, _ := p["enum"].([]any)
	if c, ok := p["const"]; ok {
		vals = append(vals, c)
	}
	for _, v := range vals {
		if s, ok := v.(string); ok && !slices.Contains(*out, s) {
			*out = append(*out, s)
		}
	}
	if items, ok := p["items"].(map[string]any); ok {
		collectEnum(items, out)
	}
}

// ---- code actions ------------------------------------------------------------------

// CodeAction offers the quick fixes whose result is certain, and for every finding a
// way to ignore it with a reason.
func (s *Server) CodeAction(_ context.Context, params *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	u := params.TextDocument.URI
	from, to := a.text.offset(params.Range.Start), a.text.offset(params.Range.End)
	out := []protocol.CommandOrCodeAction{}
	quickfix := protocol.CodeActionKindQuickFix
	for i, d := range a.diags {
		dFrom, dTo := a.text.offset(d.Range.Start), a.text.offset(d.Range.End)
		if dTo < from || dFrom > to {
			continue
		}
		f := a.findings[i]
		action := func(title string, edit *protocol.WorkspaceEdit, preferred bool) {
			out = append(out, &protocol.CodeAction{Title: title, Kind: &quickfix, Diagnostics: []protocol.Diagnostic{d},
				IsPreferred: ptr(preferred), Edit: edit})
		}
		switch f.Rule {
		case "dangling-edge":
			if title, edit := a.fixDangling(u, f); edit != nil {
				action(title, edit, true)
			}
		case "checksum-mismatch", "checksum-missing":
			if title, edit := a.fixLock(); edit != nil {
				action(title, edit, true)
			}
		default:
			if title, edit := a.dialectFix(u, f); edit != nil {
				action(title, edit, true)
			}
		}
		if title, edit := a.ignore(u, f); edit != nil {
			action(title, edit, false)
		}
	}
	return out, nil
}

// fixDangling changes a dangling edge's target to the nearest node id.
func (a *analysis) fixDangling(u uri.URI, f lint.Diagnostic) (string, *protocol.WorkspaceEdit) {
	in := a.inspection()
	if in.Doc == nil {
		return "", nil
	}
	v := in.Doc.Lookup(f.Pointer)
	if v == nil || v.Kind != source.String {
		return "", nil
	}
	for _, gc := range in.Graphs {
		var ids []string
		edge := false
		for _, e := range gc.Graph.Edges {
			edge = edge || e.Pointer == f.Pointer
		}
		if !edge {
			continue
		}
		for _, n := range gc.Graph.Nodes {
			ids = append(ids, n.ID)
		}
		near, ok := suggest.Nearest(v.Text, ids)
		if !ok {
			return "", nil
		}
		from, to := inner(a.raw, v)
		return fmt.Sprintf("Change %q to %q", v.Text, near), &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			u: {{Range: a.text.span(from, to), NewText: near}}}}
	}
	return "", nil
}

// dialectFix is the quick fix the file's dialect offers for f (Dialect.Fix).
func (a *analysis) dialectFix(u uri.URI, f lint.Diagnostic) (string, *protocol.WorkspaceEdit) {
	in := a.inspection()
	if in.Doc == nil || in.Dialect == nil || in.Dialect.Fix == nil {
		return "", nil
	}
	fix, ok := in.Dialect.Fix(in.Doc, f)
	if !ok {
		return "", nil
	}
	edit, ok := a.insertRaw(in.Doc, in.Doc.Lookup(fix.Object), fix.Key, fix.Value)
	if !ok {
		return "", nil
	}
	return fix.Title, &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{u: {edit}}}
}

// insertRaw is the edit that adds key: value (a JSON literal, which YAML reads alike)
// as the first member of the object obj, in the document's own syntax.
func (a *analysis) insertRaw(doc *source.Document, obj *source.Node, key, value string) (protocol.TextEdit, bool) {
	if obj == nil || obj.Kind != source.Object {
		return protocol.TextEdit{}, false
	}
	start := int(obj.Span.Start.Offset)
	if start < len(a.raw) && a.raw[start] == '{' {
		// A JSON object or a YAML flow mapping: the member goes right after the brace.
		text := strconv.Quote(key) + ": " + value
		if doc.Format != source.JSON {
			text = key + ": " + value
		}
		if len(obj.Members) > 0 {
			text = " " + text + ","
		}
		p := a.text.position(start + 1)
		return protocol.TextEdit{Range: protocol.Range{Start: p, End: p}, NewText: text}, true
	}
	if len(obj.Members) == 0 {
		return protocol.TextEdit{}, false
	}
	// A YAML block mapping: a line of its own before the first member, indented alike.
	first := obj.Members[0].KeySpan.Start
	lineStart := a.text.lines[first.Line-1]
	indent := a.raw[lineStart : lineStart+countSpaces(a.raw[lineStart:])]
	p := a.text.position(lineStart)
	return protocol.TextEdit{Range: protocol.Range{Start: p, End: p}, NewText: indent + key + ": " + value + "\n"}, true
}

func countSpaces(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }

// ignore waives a finding with a reason: in YAML an inline comment on the line above,
// elsewhere an entry in .dws.yaml's ignore list. Rules that refuse inline waivers get
// the config entry. The reason is lint.PlaceholderReason, for the user to replace: until
// then the waiver hides nothing and says so, so a placeholder never passes for a reason.
func (a *analysis) ignore(u uri.URI, f lint.Diagnostic) (string, *protocol.WorkspaceEdit) {
	const reason = lint.PlaceholderReason
	r, known := a.ws.linter.Registry.Lookup(f.Rule)
	if !known || f.Rule == "parse" || f.Rule == "read" {
		return "", nil
	}
	yaml := strings.HasSuffix(a.path, ".yaml") || strings.HasSuffix(a.path, ".yml")
	if yaml && r.Inline == lint.InlineAllowed && f.Line >= 1 {
		lineStart := a.text.lines[min(f.Line-1, len(a.text.lines)-1)]
		indent := a.raw[lineStart : lineStart+countSpaces(a.raw[lineStart:])]
		p := a.text.position(lineStart)
		return fmt.Sprintf("Ignore %s on this line, with a reason", f.Rule), &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
			u: {{Range: protocol.Range{Start: p, End: p}, NewText: indent + "# dws:ignore " + f.Rule + " -- " + reason + "\n"}}}}
	}
	cfg := a.ws.path
	if cfg == "" {
		return "", nil
	}
	data, err := source.ReadFile(cfg)
	if err != nil {
		return "", nil
	}
	rel, err := filepath.Rel(filepath.Dir(cfg), a.path)
	if err != nil {
		return "", nil
	}
	entry := fmt.Sprintf("  - { path: %s, rules: [%s], pointer: %s, reason: %s }\n",
		strconv.Quote(filepath.ToSlash(rel)), f.Rule, strconv.Quote(f.Pointer), strconv.Quote(reason))
	t := newText(string(data))
	var edit protocol.TextEdit
	if i := regexp.MustCompile(`(?m)^ignore:[ \t]*\n`).FindStringIndex(string(data)); i != nil {
		p := t.position(i[1])
		edit = protocol.TextEdit{Range: protocol.Range{Start: p, End: p}, NewText: entry}
	} else if regexp.MustCompile(`(?m)^ignore:`).Match(data) {
		return "", nil // a flow-style ignore list: not rewritten
	} else {
		p := t.position(len(data))
		prefix := ""
		if len(data) > 0 && data[len(data)-1] != '\n' {
			prefix = "\n"
		}
		edit = protocol.TextEdit{Range: protocol.Range{Start: p, End: p}, NewText: prefix + "ignore:\n" + entry}
	}
	return fmt.Sprintf("Ignore %s here in %s, with a reason", f.Rule, filepath.Base(cfg)),
		&protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.File(cfg): {edit}}}
}

// ---- code lens ---------------------------------------------------------------------

// CodeLens shows each definition's path counts from the simulator, above the
// definition: "12 paths · 9 succeed · 3 fail". Clicking it runs dws.simulate.
// The simulation is shared and bounded as simulation says: one per document version,
// one at a time per document, and a cancelled request returns at once. A simulation
// that a bound stops (or that fails) is said, never a silent absence (SPEC §8.4,
// giving up is said): one lens at the top of the document, in dws simulate's words,
// "not simulated: workflow "w": stopped at the time bound (1m0s): …".
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	a, d, err := s.currentDoc(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	for _, f := range a.findings {
		if f.Severity == lint.Error {
			return []protocol.CodeLens{}, nil // a definition with errors is not simulated
		}
	}
	v, err := s.simulation(ctx, d, &d.lens, a.key(), func(ctx context.Context) (any, error) {
		return a.inspection().Simulate(sim.Options{MaxSteps: 10000, EdgesOnly: true, MaxTime: lensTime, Ctx: ctx})
	})
	if errors.Is(err, protocol.ErrRequestCancelled) || errors.Is(err, protocol.ErrContentModified) {
		return nil, err
	}
	defs, _ := v.([]sim.Definition)
	in := a.inspection()
	if in.Doc == nil {
		return []protocol.CodeLens{}, nil
	}
	simulate := []protocol.LSPAny{jsonValue(string(params.TextDocument.URI))}
	if err != nil {
		p := a.text.position(int(in.Doc.Root.Span.Start.Offset))
		return []protocol.CodeLens{{Range: protocol.Range{Start: p, End: p}, Command: protocol.Command{
			Title: "not simulated: " + printable.String(err.Error()), Command: "dws.simulate", Arguments: simulate}}}, nil
	}
	out := []protocol.CodeLens{}
	for _, d := range defs {
		sp, ok := in.Doc.PointerSpan(d.Pointer)
		if !ok {
			continue
		}
		p := a.text.position(int(sp.Start.Offset))
		c := d.Result.Counts
		title := fmt.Sprintf("%s · %s succeed · %s fail", plural(c.Total(), "path"), c.Of(sim.Succeeded), c.Of(sim.Failed))
		for _, st := range []sim.Status{sim.Escalated, sim.Aborted, sim.Cut} {
			if c.Of(st).Sign() > 0 {
				title += fmt.Sprintf(" · %s %s", c.Of(st), st)
			}
		}
		args := slices.Clone(simulate)
		if d.Workflow != "" {
			args = append(args, jsonValue(d.Workflow))
		}
		out = append(out, protocol.CodeLens{Range: protocol.Range{Start: p, End: p},
			Command: protocol.Command{Title: title, Command: "dws.simulate", Arguments: args}})
	}
	return out, nil
}

func plural(n *big.Int, word string) string {
	if n.Cmp(big.NewInt(1)) == 0 {
		return "1 " + word
	}
	return n.String() + " " + word + "s"
}

func jsonValue(v any) protocol.LSPAny {
	b, err := json.Marshal(v)
	if err != nil {
		return protocol.LSPAny("null")
	}
	return protocol.LSPAny(b)
}

// ExecuteCommand runs dws.simulate [URI]: the text report of dws simulate on the
// document as it is in the editor (its covering paths), as a string.
func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	if params.Command != "dws.simulate" || len(params.Arguments) == 0 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "dws lsp: the command is dws.simulate URI")
	}
	var u string
	if err := json.Unmarshal(params.Arguments[0], &u); err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "dws lsp: dws.simulate takes a document URI")
	}
	a, d, err := s.currentDoc(uri.URI(u))
	if err != nil {
		return nil, err
	}
	overlay := s.overlay()
	v, err := s.simulation(ctx, d, &d.report, a.key(), func(ctx context.Context) (any, error) {
		l := *a.ws.linter
		l.Overlay = overlay
		l.Overlay[a.path] = []byte(a.raw)
		l.Simulation = &lint.SimulationOptions{Options: sim.Options{MaxSteps: 10000, MaxTime: lensTime, Ctx: ctx}, MaxPaths: 100}
		res := l.Run([]lint.Input{{Path: a.path}})
		var b strings.Builder
		if err := report.WriteSimulation(&b, "text", res, report.Options{Registry: s.reg}); err != nil {
			return nil, err
		}
		return b.String(), nil
	})
	if err != nil {
		return nil, err
	}
	return jsonValue(v), nil
}

// fixLock records the document's checksum as it is now in the lockfile.
func (a *analysis) fixLock() (string, *protocol.WorkspaceEdit) {
	lockPath := a.ws.linter.Config.Lock
	if lockPath == "" || a.checksum == "" {
		return "", nil
	}
	data, err := source.ReadFile(lockPath)
	if err != nil {
		return "", nil
	}
	l, err := canonical.ParseLock(data)
	if err != nil {
		return "", nil
	}
	rel, err := filepath.Rel(filepath.Dir(lockPath), a.path)
	if err != nil {
		return "", nil
	}
	if l.Files == nil {
		l.Files = map[string]string{}
	}
	l.Files[filepath.ToSlash(rel)] = a.checksum
	out, err := canonical.EncodeLock(l)
	if err != nil {
		return "", nil
	}
	t := newText(string(data))
	whole := t.span(0, len(data))
	return fmt.Sprintf("Record this file's checksum in %s", filepath.Base(lockPath)),
		&protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{uri.File(lockPath): {{Range: whole, NewText: string(out)}}}}
}
