package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/dwsdev/dws/dialect"
	"github.com/dwsdev/dws/internal/lsptest"
	"github.com/dwsdev/dws/lint"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// recorder is the test's editor: it keeps what the server publishes.
type recorder struct {
	protocol.UnimplementedClient
	pub chan *protocol.PublishDiagnosticsParams
}

func (r *recorder) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	r.pub <- p
	return nil
}

// session is a server and a client over an in-memory pipe.
type session struct {
	t      *testing.T
	server protocol.Server
	rec    *recorder
	ctx    context.Context
	s      *Server
}

func start(t *testing.T) *session {
	t.Helper()
	return startWith(t, nil)
}

// startWith is start with the server set up by setup (its test hooks) first.
func startWith(t *testing.T, setup func(*Server)) *session {
	t.Helper()
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := New(dialect.Registry(), "test")
	if setup != nil {
		setup(s)
	}
	done := make(chan struct{})
	go func() {
		_ = Serve(ctx, s, a, a)
		close(done)
	}()
	rec := &recorder{pub: make(chan *protocol.PublishDiagnosticsParams, 1000)}
	_, _, server := protocol.NewClient(ctx, rec, lsptest.Stream(b))
	t.Cleanup(func() {
		cancel()
		_ = a.Close()
		_ = b.Close()
		<-done
	})
	se := &session{t: t, server: server, rec: rec, ctx: ctx, s: s}
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	return se
}

// write puts files into a fresh directory (with a .dws.yaml unless given) and returns it.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if _, ok := files[".dws.yaml"]; !ok {
		files[".dws.yaml"] = "version: 1\n"
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func (se *session) open(path, content string) uri.URI {
	se.t.Helper()
	u := uri.File(path)
	err := se.server.DidOpen(se.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "json", Version: 1, Text: content}})
	if err != nil {
		se.t.Fatal(err)
	}
	return u
}

func (se *session) change(u uri.URI, version int32, content string) {
	se.t.Helper()
	err := se.server.DidChange(se.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: content}},
	})
	if err != nil {
		se.t.Fatal(err)
	}
}

// published waits for the diagnostics of u at version (any version when 0).
func (se *session) published(u uri.URI, version int32) []protocol.Diagnostic {
	se.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case p := <-se.rec.pub:
			v, _ := p.Version.Get()
			if p.URI == u && (version == 0 || v == version) {
				return p.Diagnostics
			}
		case <-timeout:
			se.t.Fatalf("no diagnostics for %s version %d", u, version)
		}
	}
}

// until waits for a publication of u at version (any version when 0) whose diagnostics
// ok accepts, and returns them; what names that state when none comes. A change to a
// file a check reads (a config, a lockfile) leaves the documents' versions as they are,
// and the server handles it beside their own changes, not in order with them: a
// document opened or changed just after it may be published first as checked without
// it, then again with it.
func (se *session) until(u uri.URI, version int32, what string, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	se.t.Helper()
	timeout := time.After(10 * time.Second)
	last := "none"
	for {
		select {
		case p := <-se.rec.pub:
			v, _ := p.Version.Get()
			if p.URI != u || (version != 0 && v != version) {
				continue
			}
			if ok(p.Diagnostics) {
				return p.Diagnostics
			}
			last = fmt.Sprint(codes(p.Diagnostics))
		case <-timeout:
			se.t.Fatalf("no diagnostics for %s version %d with %s (the last published: %s)", u, version, what, last)
		}
	}
}

// with and without are states for until: a finding of rule among the diagnostics, or none.
func with(rule string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return slices.Contains(codes(ds), rule) }
}

func without(rule string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return !slices.Contains(codes(ds), rule) }
}

func codes(ds []protocol.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if c, ok := d.Code.(protocol.String); ok {
			out = append(out, string(c))
		}
	}
	return out
}

const expense = `{
  "schemaVersion": "1.0",
  "name": "expense-basic",
  "version": "v1.3",
  "steps": [
    { "id": "fraud-score", "type": "ai", "params": { "promptTemplate": "expense_fraud", "model": "gpt-4o", "schema": "fraudScore" }, "onSuccess": "branch-approve", "onFailure": "mark-fail" },
    { "id": "branch-approve", "type": "branch", "params": { "expression": "{{fraudScore}} < 0.7 AND {{amount}} <= 1000" }, "onSuccess": "auto-approve", "onFailure": "manager-approve" },
    { "id": "auto-approve", "type": "sql", "params": { "statement": "UPDATE expense SET status='approved' WHERE id={{expenseId}}", "args": [] }, "onSuccess": null, "onFailure": "mark-fail", "retry": { "count": 2, "delaySeconds": 5 } },
    { "id": "manager-approve", "type": "http", "params": { "method": "POST", "url": "https://slack.com/api/chat.postMessage", "headers": { "Authorization": "Bearer ...", "idempotencyKey": "{{expenseId}}" }, "bodyTemplate": "slack_approval" }, "onSuccess": null, "onFailure": "mark-fail" },
    { "id": "mark-fail", "type": "sql", "params": { "statement": "UPDATE expense SET status='failed' WHERE id={{expenseId}}", "args": [] }, "onSuccess": null, "onFailure": null }
  ],
  "signature": ""
}
`

// The seed's expense example with its registry and DDL: clean.
func expenseProject(t *testing.T) string {
	t.Helper()
	templates, err := os.ReadFile("../fixtures/cortex/prompt_templates.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ddl, err := os.ReadFile("../fixtures/cortex/schema.sql")
	if err != nil {
		t.Fatal(err)
	}
	return write(t, map[string]string{
		".dws.yaml":             "version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\nsql: { from_ddl: schema.sql }\n",
		"prompt_templates.yaml": string(templates),
		"schema.sql":            string(ddl),
	})
}

func TestDiagnosticsOnOpenChangeClose(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	path := filepath.Join(dir, "expense.json")
	u := se.open(path, expense)
	if ds := se.published(u, 1); len(ds) != 0 {
		t.Fatalf("the seed's example has findings: %v", codes(ds))
	}
	// Typing a new onSuccess target that names no step.
	broken := strings.Replace(expense, `"onSuccess": "auto-approve"`, `"onSuccess": "auto-aprove"`, 1)
	se.change(u, 2, broken)
	ds := se.published(u, 2)
	// As dws validate says: the edge dangles, once; auto-approve, which it meant, is the
	// edge's finding, not also a second entry.
	if got := strings.Join(codes(ds), " "); got != "dangling-edge" {
		t.Fatalf("findings %v, want dangling-edge alone", got)
	}
	d := ds[0]
	// Line 7 (0-based 6), on the quoted target.
	line := strings.Split(broken, "\n")[6]
	col := strings.Index(line, `"auto-aprove"`)
	if d.Range.Start.Line != 6 || int(d.Range.Start.Character) != col || int(d.Range.End.Character) != col+len(`"auto-aprove"`) {
		t.Errorf("range %+v, want line 6 characters %d-%d", d.Range, col, col+len(`"auto-aprove"`))
	}
	if d.Severity != protocol.DiagnosticSeverityError || string(d.CodeDescription.Href) != "https://dws.dev/rules/dangling-edge" {
		t.Errorf("severity %v, href %v", d.Severity, d.CodeDescription.Href)
	}
	if err := se.server.DidClose(se.ctx, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
	}
	if ds := se.published(u, 0); len(ds) != 0 {
		t.Errorf("closing left %v", codes(ds))
	}
}

// pos is the LSP position of the n-th occurrence (0-based) of sub in text, plus skip
// characters.
func pos(t *testing.T, content, sub string, n, skip int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		k := strings.Index(content[off+1:], sub)
		if k < 0 {
			t.Fatalf("%q occurs fewer than %d times", sub, n+1)
		}
		off += 1 + k
	}
	return newText(content).position(off + skip)
}

func tdp(u uri.URI, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p}
}

// apply applies one document's edits to its text.
func apply(content string, edits []protocol.TextEdit) string {
	t := newText(content)
	parts := make([]struct {
		from, to int
		s        string
	}, len(edits))
	for i, e := range edits {
		parts[i].from, parts[i].to, parts[i].s = t.offset(e.Range.Start), t.offset(e.Range.End), e.NewText
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].from > parts[j].from })
	for _, e := range parts {
		content = content[:e.from] + e.s + content[e.to:]
	}
	return content
}

func TestNavigation(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)

	// Definition: from the onFailure target "mark-fail" of fraud-score to the step.
	loc, err := se.server.Definition(se.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp(u, pos(t, expense, `"mark-fail"`, 0, 3))})
	if err != nil {
		t.Fatal(err)
	}
	l, ok := loc.(*protocol.Location)
	want := pos(t, expense, `"id": "mark-fail"`, 0, len(`"id": "`))
	if !ok || l.Range.Start != want {
		t.Fatalf("definition %+v, want %+v", loc, want)
	}

	// References of mark-fail: three edges name it, plus its id.
	refs, err := se.server.References(se.ctx, &protocol.ReferenceParams{TextDocumentPositionParams: tdp(u, want),
		Context: protocol.ReferenceContext{IncludeDeclaration: true}})
	if err != nil || len(refs) != 4 {
		t.Fatalf("references %v %v", refs, err)
	}

	// Rename mark-fail: its id and the three edges.
	edit, err := se.server.Rename(se.ctx, &protocol.RenameParams{TextDocumentPositionParams: tdp(u, want), NewName: "flag-failed"})
	if err != nil {
		t.Fatal(err)
	}
	renamed := apply(expense, edit.Changes[u])
	if strings.Contains(renamed, "mark-fail") || strings.Count(renamed, `"flag-failed"`) != 4 {
		t.Fatalf("renamed text:\n%s", renamed)
	}
	se.change(u, 2, renamed)
	if ds := se.published(u, 2); len(ds) != 0 {
		t.Errorf("after the rename: %v", codes(ds))
	}
	// Renaming onto an existing id is refused.
	if _, err := se.server.Rename(se.ctx, &protocol.RenameParams{TextDocumentPositionParams: tdp(u, pos(t, renamed, `"flag-failed"`, 0, 2)), NewName: "auto-approve"}); err == nil {
		t.Error("rename onto auto-approve was accepted")
	}

	// Outline: the five steps.
	syms, err := se.server.DocumentSymbol(se.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	ds, _ := syms.(protocol.DocumentSymbolSlice)
	var names []string
	for _, s := range ds {
		names = append(names, s.Name)
	}
	if strings.Join(names, " ") != "fraud-score branch-approve auto-approve manager-approve flag-failed" {
		t.Errorf("symbols %v", names)
	}

	// Hover on an edge target summarises the step.
	h, err := se.server.Hover(se.ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp(u, pos(t, renamed, `"auto-approve"`, 0, 2))})
	if err != nil || h == nil {
		t.Fatalf("hover %v %v", h, err)
	}
	if mc, ok := h.Contents.(*protocol.MarkupContent); !ok || !strings.Contains(mc.Value, "**auto-approve** (sql)") || !strings.Contains(mc.Value, "failure → `flag-failed`") {
		t.Errorf("hover %+v", h.Contents)
	}
}

func TestQuickFixDanglingEdge(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	broken := strings.Replace(expense, `"onSuccess": "auto-approve"`, `"onSuccess": "auto-aprove"`, 1)
	se.change(u, 2, broken)
	ds := se.published(u, 2)
	acts, err := se.server.CodeAction(se.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: ds[0].Range, Context: protocol.CodeActionContext{Diagnostics: ds[:1]}})
	if err != nil {
		t.Fatal(err)
	}
	var fix *protocol.CodeAction
	for _, a := range acts {
		if ca, ok := a.(*protocol.CodeAction); ok && ca.IsPreferred != nil && *ca.IsPreferred {
			fix = ca
		}
	}
	if fix == nil || fix.Title != `Change "auto-aprove" to "auto-approve"` {
		t.Fatalf("actions %+v", acts)
	}
	se.change(u, 3, apply(broken, fix.Edit.Changes[u]))
	if ds := se.published(u, 3); len(ds) != 0 {
		t.Errorf("after the fix: %v", codes(ds))
	}
}

// Columns are UTF-16 code units: an emoji is two, a CJK character one.
func TestUTF16Columns(t *testing.T) {
	dir := write(t, map[string]string{})
	se := start(t)
	content := "schemaVersion: \"1.0\"\nname: \"😀 経費\"\nversion: v1.0\nsteps:\n  - { id: a, type: sleep, params: { seconds: 1 }, description: \"😀😀 経費\", onSuccess: nowhere }\n"
	u := se.open(filepath.Join(dir, "flow.yaml"), content)
	ds := se.published(u, 1)
	var d *protocol.Diagnostic
	for i := range ds {
		if c, _ := ds[i].Code.(protocol.String); c == "dangling-edge" {
			d = &ds[i]
		}
	}
	if d == nil {
		t.Fatalf("no dangling-edge in %v", codes(ds))
	}
	line := strings.Split(content, "\n")[4]
	k := strings.Index(line, "nowhere")
	if k < 0 {
		t.Fatal("no nowhere")
	}
	units := len(utf16.Encode([]rune(line[:k])))
	if d.Range.Start.Line != 4 || int(d.Range.Start.Character) != units || int(d.Range.End.Character) != units+len("nowhere") {
		t.Errorf("range %+v, want line 4, characters %d-%d", d.Range, units, units+7)
	}
}

func labels(t *testing.T, r protocol.CompletionResult, err error) []string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	items, _ := r.(protocol.CompletionItemSlice)
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func TestCompletion(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	complete := func(u uri.URI, p protocol.Position) []string {
		r, err := se.server.Completion(se.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp(u, p)})
		return labels(t, r, err)
	}
	// Half-typed: an onSuccess target being written, the JSON no longer whole.
	half := strings.Replace(expense, `"onSuccess": "auto-approve", "onFailure": "manager-approve" },`, `"onSuccess": "au`, 1)
	se.change(u, 2, half)
	se.published(u, 2)
	got := complete(u, pos(t, half, `"onSuccess": "au`, 0, len(`"onSuccess": "au`)))
	if !slices.Contains(got, "auto-approve") || !slices.Contains(got, "mark-fail") {
		t.Errorf("edge completion %v", got)
	}
	// An enum from the schema: a step's type.
	typed := strings.Replace(expense, `"type": "sql", "params": { "statement": "UPDATE expense SET status='failed'`, `"type": "s`, 1)
	se.change(u, 3, typed)
	se.published(u, 3)
	got = complete(u, pos(t, typed, `"type": "s`, 0, len(`"type": "s`)))
	for _, w := range []string{"sql", "http", "branch", "sleep"} {
		if !slices.Contains(got, w) {
			t.Errorf("type completion %v lacks %s", got, w)
		}
	}
	// Rule ids in a YAML dws:ignore comment, and in .dws.yaml's rules.
	y := se.open(filepath.Join(dir, "flow.yaml"), "# dws:ignore dangl\nschemaVersion: \"1.0\"\n")
	se.published(y, 1)
	if got := complete(y, protocol.Position{Line: 0, Character: 18}); !slices.Contains(got, "dangling-edge") {
		t.Errorf("ignore completion %v", got)
	}
	cfg := "version: 1\nrules:\n  missing-\n"
	c := se.open(filepath.Join(dir, ".dws.yaml"), cfg)
	if got := complete(c, protocol.Position{Line: 2, Character: 10}); !slices.Contains(got, "missing-verification-gate") {
		t.Errorf("config rule completion %v", got)
	}
}

// Half-typed JSON on every keystroke, a 4 MiB paste and requests for documents the
// server does not know: diagnostics or errors, never a crash.
func TestHostileInput(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), "")
	se.published(u, 1)
	for i := 1; i <= len(expense); i += 7 {
		se.change(u, int32(i+1), expense[:i])
	}
	last := int32(len(expense) + 2)
	se.change(u, last, expense)
	if ds := se.published(u, last); len(ds) != 0 {
		t.Errorf("the whole text at last: %v", codes(ds))
	}
	big := "[" + strings.Repeat("0,", 2<<20) + "0]"
	se.change(u, last+1, big)
	if ds := se.published(u, last+1); len(ds) == 0 || codes(ds)[0] != "size-limit" {
		t.Errorf("a 4 MiB paste: %v", codes(ds))
	}
	other := uri.File(filepath.Join(dir, "never-opened.json"))
	if _, err := se.server.Hover(se.ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp(other, protocol.Position{})}); err == nil {
		t.Error("hover on an unknown document answered")
	}
	if _, err := se.server.Definition(se.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp(other, protocol.Position{})}); err == nil {
		t.Error("definition on an unknown document answered")
	}
	// The server still works.
	se.change(u, last+2, expense)
	if ds := se.published(u, last+2); len(ds) != 0 {
		t.Errorf("after all that: %v", codes(ds))
	}
}

// Changes made faster than they are checked: the publications come in version order,
// and the last is the newest text.
func TestSupersededChanges(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	broken := strings.Replace(expense, `"onSuccess": "auto-approve"`, `"onSuccess": "nowhere"`, 1)
	for v := int32(2); v <= 60; v++ {
		text := expense
		if v%2 == 0 {
			text = broken
		}
		se.change(u, v, text)
	}
	seen := int32(1)
	for seen < 60 {
		select {
		case p := <-se.rec.pub:
			v, _ := p.Version.Get()
			if v <= seen {
				t.Fatalf("version %d published after %d", v, seen)
			}
			seen = v
			if v == 60 && len(p.Diagnostics) != 2 {
				t.Errorf("version 60 (broken): %v", codes(p.Diagnostics))
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("stuck at version %d", seen)
		}
	}
}

// Editing the config re-checks open documents; a broken config is a diagnostic on it.
func TestConfigChange(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	cfgPath := filepath.Join(dir, ".dws.yaml")
	if err := os.WriteFile(cfgPath, []byte("version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\nsql: { from_ddl: schema.sql }\nrules: { sql-table: off, retry-not-applicable: error, entry: off }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	watched := &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(cfgPath), Type: protocol.FileChangeTypeChanged}}}
	if err := se.server.DidChangeWatchedFiles(se.ctx, watched); err != nil {
		t.Fatal(err)
	}
	if ds := se.published(u, 1); len(ds) != 0 {
		t.Errorf("after a harmless config change: %v", codes(ds))
	}
	if err := os.WriteFile(cfgPath, []byte("version: 1\nrules: { dangling-edg: off }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := se.server.DidChangeWatchedFiles(se.ctx, watched); err != nil {
		t.Fatal(err)
	}
	cfgURI := uri.File(cfgPath)
	ds := se.published(cfgURI, 0)
	if len(ds) != 1 || !strings.Contains(fmt.Sprint(ds[0].Message), "dangling-edg") || ds[0].Range.Start.Line != 1 {
		t.Fatalf("broken config: %+v", ds)
	}
	// Meanwhile the document is checked with the default config (no registry: ai-schema).
	if got := codes(se.published(u, 1)); !slices.Contains(got, "ai-schema") {
		t.Errorf("with the default config: %v", got)
	}
}

// A config saved while a check is reading the old one: the old text, read before the
// change was told, is not kept, so the check that follows the change (the document's
// next publication) reads the new config, and so does every later one.
func TestConfigChangedWhileRead(t *testing.T) {
	dir := expenseProject(t)
	cfgPath := filepath.Join(dir, ".dws.yaml")
	var once sync.Once
	se := startWith(t, func(s *Server) {
		s.configRead = func(path string) {
			once.Do(func() {
				// Without sql:, no table is allowed: the expense example's statements are findings.
				if err := os.WriteFile(cfgPath, []byte("version: 1\ncortex: { prompt_templates: prompt_templates.yaml }\n"), 0o644); err != nil {
					t.Error(err)
				}
				watched := &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(cfgPath), Type: protocol.FileChangeTypeChanged}}}
				if err := s.DidChangeWatchedFiles(context.Background(), watched); err != nil {
					t.Error(err)
				}
			})
		}
	})
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	if got := codes(se.published(u, 1)); !slices.Contains(got, "sql-table") {
		t.Fatalf("checked with the config read before it changed: %v, want sql-table", got)
	}
	se.change(u, 2, expense+"\n")
	if got := codes(se.published(u, 2)); !slices.Contains(got, "sql-table") {
		t.Errorf("the next change: %v, want sql-table", got)
	}
}

func TestCodeLens(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	lenses, err := se.server.CodeLens(se.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil || len(lenses) != 1 {
		t.Fatalf("lenses %v %v", lenses, err)
	}
	if got := lenses[0].Command.Title; got != "8 paths · 5 succeed · 3 fail" {
		t.Errorf("lens %q", got)
	}
	res, err := se.server.ExecuteCommand(se.ctx, &protocol.ExecuteCommandParams{Command: "dws.simulate", Arguments: lenses[0].Command.Arguments})
	if err != nil {
		t.Fatal(err)
	}
	var out string
	if err := json.Unmarshal(res, &out); err != nil || !strings.Contains(out, "5 paths cover all 10 edges") {
		t.Errorf("dws.simulate: %q %v", out, err)
	}
}

// A job spec's cross-file findings come from the open buffers: renaming a workflow in
// the editor (unsaved) settles the jobspec.json reference to it.
func TestJobSpecFromBuffers(t *testing.T) {
	files := map[string]string{}
	root := "../fixtures/dws/err/ref-spec"
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := write(t, files)
	se := start(t)
	spec := filepath.Join(dir, "jobspec.json")
	su := se.open(spec, files["jobspec.json"])
	if got := codes(se.published(su, 1)); !slices.Contains(got, "ref") {
		t.Fatalf("jobspec.json: %v, want its workflow_ref finding", got)
	}
	wf := filepath.Join(dir, "workflows", "contract-review.json")
	wu := se.open(wf, files["workflows/contract-review.json"])
	se.published(wu, 1)
	// The fixture's jobspec.json names the workflow with a deliberate typo.
	typo := "contract-re" + "veiw"
	renamed := strings.Replace(files["workflows/contract-review.json"], `"name": "contract-review"`, `"name": "`+typo+`"`, 1)
	se.change(wu, 2, renamed)
	se.until(su, 1, "no ref finding (re-checked with the buffer's workflow name)", without("ref"))
	if b, _ := os.ReadFile(wf); strings.Contains(string(b), typo) {
		t.Fatal("the test wrote the disk")
	}
}

// fixOnce asks for the code actions at the first finding of rule, applies the preferred
// one (writing edits to other files to disk) and returns the document's new text.
func (se *session) fixOnce(u uri.URI, content string, ds []protocol.Diagnostic, rule, title string) string {
	se.t.Helper()
	var d *protocol.Diagnostic
	for i := range ds {
		if c, _ := ds[i].Code.(protocol.String); string(c) == rule {
			d = &ds[i]
			break
		}
	}
	if d == nil {
		se.t.Fatalf("no %s finding in %v", rule, codes(ds))
	}
	acts, err := se.server.CodeAction(se.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{*d}}})
	if err != nil {
		se.t.Fatal(err)
	}
	for _, a := range acts {
		ca, ok := a.(*protocol.CodeAction)
		if !ok || ca.IsPreferred == nil || !*ca.IsPreferred {
			continue
		}
		if ca.Title != title {
			se.t.Fatalf("fix %q, want %q", ca.Title, title)
		}
		for target, edits := range ca.Edit.Changes {
			if target == u {
				content = apply(content, edits)
				continue
			}
			b, err := os.ReadFile(target.FsPath())
			if err != nil {
				se.t.Fatal(err)
			}
			if err := os.WriteFile(target.FsPath(), []byte(apply(string(b), edits)), 0o644); err != nil {
				se.t.Fatal(err)
			}
		}
		return content
	}
	se.t.Fatalf("no quick fix for %s among %+v", rule, acts)
	return ""
}

func TestQuickFixes(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	dir := expenseProject(t)
	se := start(t)

	// A loop without max_iterations.
	wf := strings.Replace(read("../fixtures/sim/design-implement-verify.json"), `"max_iterations": 2,`, ``, 1)
	u := se.open(filepath.Join(dir, "wf.json"), wf)
	fixed := se.fixOnce(u, wf, se.published(u, 1), "schema", "Add max_iterations: 3")
	se.change(u, 2, fixed)
	if got := codes(se.published(u, 2)); slices.Contains(got, "schema") {
		t.Errorf("after adding max_iterations: %v", got)
	}

	// A DireClaw output with no output_files entry.
	dc := strings.Replace(read("../fixtures/sim/direclaw-review.yaml"), "outputs: [summary]\n        output_files:\n          summary: gather/", "outputs: [summary, notes]\n        output_files:\n          summary: gather/", 1)
	du := se.open(filepath.Join(dir, "orchestrator.yaml"), dc)
	fixed = se.fixOnce(du, dc, se.published(du, 1), "output-files", "Add output_files entry notes: gather/notes.md")
	se.change(du, 2, fixed)
	if got := codes(se.published(du, 2)); slices.Contains(got, "output-files") {
		t.Errorf("after adding the output_files entry: %v", got)
	}

	// A definition changed since the lockfile recorded it.
	cfg := filepath.Join(dir, ".dws.yaml")
	if err := os.WriteFile(cfg, []byte(read(cfg)+"lock: dws.lock\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "dws.lock"), []byte("{\n  \"version\": 1,\n  \"files\": {\n    \"expense.json\": \"sha256:0000000000000000000000000000000000000000000000000000000000000000\"\n  }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := se.server.DidChangeWatchedFiles(se.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: uri.File(cfg), Type: protocol.FileChangeTypeChanged}}}); err != nil {
		t.Fatal(err)
	}
	eu := se.open(filepath.Join(dir, "expense.json"), expense)
	ds := se.until(eu, 1, "checksum-mismatch (the config naming dws.lock read)", with("checksum-mismatch"))
	se.fixOnce(eu, expense, ds, "checksum-mismatch", "Record this file's checksum in dws.lock")
	if err := se.server.DidChangeWatchedFiles(se.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{
		{URI: uri.File(filepath.Join(dir, "dws.lock")), Type: protocol.FileChangeTypeChanged}}}); err != nil {
		t.Fatal(err)
	}
	ds = se.until(eu, 1, "no checksum-mismatch (the recorded checksum read)", without("checksum-mismatch"))
	if len(ds) != 0 {
		t.Errorf("after recording the checksum: %v", codes(ds))
	}
}

// Any finding can be waived with a reason: in YAML by a comment above its line, in
// JSON by an ignore entry in .dws.yaml. The quick fix writes a placeholder reason, which
// hides nothing and is itself a warning until the user writes the reason.
func TestIgnoreWithAReason(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	y := "schemaVersion: \"1.0\"\nname: flow\nversion: v1.0\nsteps:\n  - id: a\n    type: sleep\n    params: { seconds: 1 }\n    onSuccess: nowhere\n"
	yu := se.open(filepath.Join(dir, "flow.yaml"), y)
	ds := se.published(yu, 1)
	waive := func(u uri.URI, ds []protocol.Diagnostic, rule string) *protocol.CodeAction {
		for _, d := range ds {
			if c, _ := d.Code.(protocol.String); string(c) != rule {
				continue
			}
			acts, err := se.server.CodeAction(se.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
				Range: d.Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}}})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range acts {
				if ca, ok := a.(*protocol.CodeAction); ok && strings.HasPrefix(ca.Title, "Ignore "+rule) {
					return ca
				}
			}
		}
		t.Fatalf("no ignore action for %s in %v", rule, codes(ds))
		return nil
	}
	ca := waive(yu, ds, "dangling-edge")
	y2 := apply(y, ca.Edit.Changes[yu])
	if !strings.Contains(y2, "    # dws:ignore dangling-edge -- "+lint.PlaceholderReason+"\n    onSuccess: nowhere") {
		t.Fatalf("waived YAML:\n%s", y2)
	}
	se.change(yu, 2, y2)
	ds = se.published(yu, 2)
	if got := codes(ds); !slices.Contains(got, "dangling-edge") || !slices.Contains(got, "unused-suppression") ||
		!strings.Contains(fmt.Sprint(ds), "the reason is still the placeholder") {
		t.Errorf("with the placeholder reason: %v", ds)
	}
	se.change(yu, 3, strings.Replace(y2, lint.PlaceholderReason, "the next step is added later", 1))
	if got := codes(se.published(yu, 3)); slices.Contains(got, "dangling-edge") || slices.Contains(got, "unused-suppression") {
		t.Errorf("after writing the reason: %v", got)
	}

	broken := strings.Replace(expense, `"onSuccess": "auto-approve"`, `"onSuccess": "nowhere"`, 1)
	ju := se.open(filepath.Join(dir, "expense.json"), broken)
	ca = waive(ju, se.published(ju, 1), "dangling-edge")
	cfg := filepath.Join(dir, ".dws.yaml")
	edits := ca.Edit.Changes[uri.File(cfg)]
	b, _ := os.ReadFile(cfg)
	waived := apply(string(b), edits)
	if !strings.Contains(waived, `ignore:`+"\n"+`  - { path: "expense.json", rules: [dangling-edge], pointer: "/steps/1/onSuccess", reason: "`+lint.PlaceholderReason+`" }`) {
		t.Fatalf("waived config:\n%s", waived)
	}
	// With the placeholder the finding stays; with a reason written it goes.
	write := func(text string) {
		if err := os.WriteFile(cfg, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := se.server.DidChangeWatchedFiles(se.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(cfg), Type: protocol.FileChangeTypeChanged}}}); err != nil {
			t.Fatal(err)
		}
	}
	write(waived)
	if got := codes(se.published(ju, 1)); !slices.Contains(got, "dangling-edge") {
		t.Errorf("with the placeholder reason in .dws.yaml: %v", got)
	}
	write(strings.Replace(waived, lint.PlaceholderReason, "the vendor routes it", 1))
	se.until(ju, 1, "no dangling-edge (the ignore entry with a reason read)", without("dangling-edge"))
}

// Scenario files are served too: a node the definition lacks is a finding at its line.
func TestScenarioFile(t *testing.T) {
	dir := expenseProject(t)
	if err := os.WriteFile(filepath.Join(dir, "expense.json"), []byte(expense), 0o644); err != nil {
		t.Fatal(err)
	}
	se := start(t)
	text := "definition: expense.json\nstubs:\n  frud-score: [{ ok: true }]\n"
	u := se.open(filepath.Join(dir, "high.scenario.yaml"), text)
	ds := se.published(u, 1)
	if len(ds) != 1 || !strings.Contains(fmt.Sprint(ds[0].Message), `did you mean "fraud-score"`) || ds[0].Range.Start.Line != 2 {
		t.Fatalf("scenario findings %+v", ds)
	}
	se.change(u, 2, strings.Replace(text, "frud", "fraud", 1))
	if ds := se.published(u, 2); len(ds) != 0 {
		t.Errorf("fixed scenario: %v", codes(ds))
	}
}

// Renaming a DireClaw step rewrites its id, the routes that name it and the template
// references to its outputs ({{steps.plan.outputs.plan}}) in its workflow. The fixture
// takes an on_blocked route, so it is checked as the seed format.
func TestRenameDireClawStep(t *testing.T) {
	dir := write(t, map[string]string{".dws.yaml": "version: 1\ndireclaw: { release: seed }\n"})
	b, err := os.ReadFile("../fixtures/sim/direclaw-review.yaml")
	if err != nil {
		t.Fatal(err)
	}
	se := start(t)
	u := se.open(filepath.Join(dir, "orchestrator.yaml"), string(b))
	if ds := se.published(u, 1); len(ds) != 0 {
		t.Fatalf("the fixture: %v", codes(ds))
	}
	edit, err := se.server.Rename(se.ctx, &protocol.RenameParams{
		TextDocumentPositionParams: tdp(u, pos(t, string(b), "on_reject: plan", 0, len("on_reject: p"))), NewName: "draft"})
	if err != nil {
		t.Fatal(err)
	}
	out := apply(string(b), edit.Changes[u])
	if len(edit.Changes[u]) != 4 || !strings.Contains(out, "{{steps.draft.outputs.plan}}") || !strings.Contains(out, "on_reject: draft") {
		t.Fatalf("%d edits:\n%s", len(edit.Changes[u]), out)
	}
	se.change(u, 2, out)
	if ds := se.published(u, 2); len(ds) != 0 {
		t.Errorf("after the rename: %v", codes(ds))
	}
}

// lensTitle is the code lens of u as the client gets it, or the error.
func (se *session) lensTitle(u uri.URI) (string, error) {
	lenses, err := se.server.CodeLens(se.ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		return "", err
	}
	if len(lenses) != 1 {
		return "", fmt.Errorf("%d lenses", len(lenses))
	}
	return lenses[0].Command.Title, nil
}

// simRecorder records the simulations a server starts; the first one waits for gate
// (when set) before it runs.
type simRecorder struct {
	mu       sync.Mutex
	versions []int32
	gate     chan struct{}
}

func (r *simRecorder) hook(_ uri.URI, version int32) {
	r.mu.Lock()
	r.versions = append(r.versions, version)
	first := len(r.versions) == 1
	r.mu.Unlock()
	if first && r.gate != nil {
		<-r.gate
	}
}

func (r *simRecorder) runs() []int32 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.versions)
}

// The code lens simulates a document once per version: requests that arrive while the
// simulation runs wait for it, later ones are answered from it, and a new version is
// simulated anew.
func TestCodeLensSimulatesOncePerVersion(t *testing.T) {
	dir := expenseProject(t)
	rec := &simRecorder{gate: make(chan struct{})}
	se := startWith(t, func(s *Server) { s.simulating = rec.hook })
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	const want = "8 paths · 5 succeed · 3 fail"
	titles := make(chan string, 4)
	for range 4 {
		go func() {
			title, err := se.lensTitle(u)
			if err != nil {
				title = err.Error()
			}
			titles <- title
		}()
	}
	// The first simulation waits at the gate until every request is being served.
	deadline := time.After(10 * time.Second)
	for len(rec.runs()) == 0 {
		select {
		case <-deadline:
			t.Fatal("no simulation started")
		case <-time.After(time.Millisecond):
		}
	}
	close(rec.gate)
	for range 4 {
		if title := <-titles; title != want {
			t.Errorf("lens %q, want %q", title, want)
		}
	}
	if title, err := se.lensTitle(u); err != nil || title != want {
		t.Errorf("lens %q %v, want %q", title, err, want)
	}
	if runs := rec.runs(); !slices.Equal(runs, []int32{1}) {
		t.Fatalf("five code lens requests on version 1 ran simulations of versions %v, want one", runs)
	}
	changed := strings.Replace(expense, `"retry": { "count": 2, "delaySeconds": 5 }`, `"retry": { "count": 3, "delaySeconds": 5 }`, 1)
	se.change(u, 2, changed)
	if title, err := se.lensTitle(u); err != nil || title != want {
		t.Errorf("lens %q %v, want %q", title, err, want)
	}
	if runs := rec.runs(); !slices.Equal(runs, []int32{1, 2}) {
		t.Fatalf("after a change: simulations of versions %v, want 1 and 2", runs)
	}
}

// A document runs one simulation at a time: while one runs, a request for a newer
// version waits for it; the running one, superseded, is stopped, and a version
// superseded while waiting is never simulated (both requests are told ContentModified).
func TestCodeLensOneSimulationAtATime(t *testing.T) {
	dir := expenseProject(t)
	rec := &simRecorder{gate: make(chan struct{})}
	se := startWith(t, func(s *Server) { s.simulating = rec.hook })
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	se.published(u, 1)
	type answer struct {
		title string
		err   error
	}
	answers := map[int32]chan answer{}
	ask := func(version int32) {
		ch := make(chan answer, 1)
		answers[version] = ch
		go func() {
			title, err := se.lensTitle(u)
			ch <- answer{title, err}
		}()
		// Wait until the server has taken the request on: the document's newest
		// simulation is for this version.
		deadline := time.After(10 * time.Second)
		for {
			d := se.s.doc(u)
			d.mu.Lock()
			at := int32(-1)
			if d.lens != nil {
				at = d.lens.key.version
			}
			d.mu.Unlock()
			if at == version {
				return
			}
			select {
			case <-deadline:
				t.Fatalf("the request for version %d was not taken on", version)
			case <-time.After(time.Millisecond):
			}
		}
	}
	ask(1)
	for v := int32(2); v <= 3; v++ {
		se.change(u, v, expense+strings.Repeat("\n", int(v)))
		ask(v)
	}
	close(rec.gate)
	if a := <-answers[1]; !errors.Is(a.err, protocol.ErrContentModified) {
		t.Errorf("version 1, superseded while it ran: %q %v, want ContentModified", a.title, a.err)
	}
	if a := <-answers[2]; !errors.Is(a.err, protocol.ErrContentModified) {
		t.Errorf("version 2, superseded before it ran: %q %v, want ContentModified", a.title, a.err)
	}
	if a := <-answers[3]; a.err != nil || a.title != "8 paths · 5 succeed · 3 fail" {
		t.Errorf("version 3: %q %v", a.title, a.err)
	}
	if runs := rec.runs(); !slices.Equal(runs, []int32{1, 3}) {
		t.Errorf("simulations of versions %v, want 1 then 3", runs)
	}
}

// A rename writes the name as each place's syntax needs, template references inside
// quoted strings included, and refuses what a reference cannot hold: a DireClaw
// template reference names a step with letters, digits, "_" and "-" only, so "it's"
// is refused, though a single-quoted YAML string could hold it (its quote doubled).
func TestRenameQuotesOrRefuses(t *testing.T) {
	dir := write(t, map[string]string{})
	b, err := os.ReadFile("../fixtures/sim/direclaw-review.yaml")
	if err != nil {
		t.Fatal(err)
	}
	y := strings.Replace(string(b), `prompt: "Approve or reject {{steps.plan.outputs.plan}}"`, `prompt: 'Approve or reject {{steps.plan.outputs.plan}}'`, 1)
	se := start(t)
	u := se.open(filepath.Join(dir, "orchestrator.yaml"), y)
	se.published(u, 1)
	rename := func(name string) (string, error) {
		edit, err := se.server.Rename(se.ctx, &protocol.RenameParams{
			TextDocumentPositionParams: tdp(u, pos(t, y, "on_reject: plan", 0, len("on_reject: p"))), NewName: name})
		if err != nil {
			return "", err
		}
		return apply(y, edit.Changes[u]), nil
	}
	out, err := rename("plan_2-b")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"- id: plan_2-b\n", "on_reject: plan_2-b\n", `'Approve or reject {{steps.plan_2-b.outputs.plan}}'`, `"Build {{steps.plan_2-b.outputs.plan}}"`} {
		if !strings.Contains(out, want) {
			t.Errorf("renamed to plan_2-b: no %s in\n%s", want, out)
		}
	}
	for _, name := range []string{"it's", "a\x01b", "a.b", "a b", "x}}", "é"} {
		out, err := rename(name)
		if !errors.Is(err, jsonrpc2.ErrInvalidParams) || !strings.Contains(err.Error(), `{{steps.plan.outputs.…}}`) {
			t.Errorf("renamed to %q, which a template reference cannot hold: %v\n%s", name, err, out)
		}
	}
}

// A rename that would add an error finding is refused with it: a Cortex step id is 3
// to 40 of a-z, 0-9, _ and -, which the schema checks.
func TestRenameRefusesAnAddedError(t *testing.T) {
	dir := expenseProject(t)
	se := start(t)
	u := se.open(filepath.Join(dir, "expense.json"), expense)
	if ds := se.published(u, 1); len(ds) != 0 {
		t.Fatalf("the seed example: %v", codes(ds))
	}
	at := tdp(u, pos(t, expense, `"id": "mark-fail"`, 0, len(`"id": "m`)))
	_, err := se.server.Rename(se.ctx, &protocol.RenameParams{TextDocumentPositionParams: at, NewName: "Mark Fail"})
	if !errors.Is(err, jsonrpc2.ErrInvalidParams) || !strings.Contains(err.Error(), `would add an error`) || !strings.Contains(err.Error(), "[schema]") {
		t.Errorf("renamed mark-fail to \"Mark Fail\": %v", err)
	}
	if _, err := se.server.Rename(se.ctx, &protocol.RenameParams{TextDocumentPositionParams: at, NewName: "flag-failed"}); err != nil {
		t.Errorf("renamed mark-fail to flag-failed: %v", err)
	}
}
