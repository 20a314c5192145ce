package toydialect_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwsdev/dws/internal/lsptest"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/lsp"
	"github.com/dwsdev/dws/report"
	"github.com/dwsdev/dws/source"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// flow is a toy definition: start routes to check, or on failure to give-up; check
// to done; notes name start and check.
const flow = `{
  "toy": 1,
  "nodes": [
    { "id": "start", "kind": "task", "then": "check", "otherwise": "give-up" },
    { "id": "check", "kind": "gate", "note": "looks at what start made", "then": "done", "query": "SELECT 1" },
    { "id": "give-up", "kind": "task", "note": "after <<start>> failed" },
    { "id": "done", "kind": "task", "note": "reports <<check>> and <<check>> again" }
  ]
}
`

// config turns off the schema rule: the toy has no schema in package schema.
const config = "version: 1\nrules: { schema: off }\n"

// setup writes flow.json and .dws.yaml into a fresh directory.
func setup(t *testing.T) (dir, path string) {
	t.Helper()
	dir = t.TempDir()
	path = filepath.Join(dir, "flow.json")
	for name, text := range map[string]string{"flow.json": flow, lint.ConfigName: config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, path
}

func linter(t *testing.T, dir string) *lint.Linter {
	t.Helper()
	reg := lint.NewRegistry(toy())
	cfg, err := lint.LoadConfig(filepath.Join(dir, lint.ConfigName), reg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New(reg, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// The toy validates clean, and finds the SQL site the SQL part will be handed.
func TestToyValidates(t *testing.T) {
	dir, path := setup(t)
	res := linter(t, dir).Run([]lint.Input{{Path: path}})
	if ds := res.Diagnostics(); len(ds) != 0 {
		t.Fatalf("the toy flow has findings: %v", ds)
	}
	doc, err := source.Parse(path, []byte(flow), source.JSON)
	if err != nil {
		t.Fatal(err)
	}
	var ptrs []string
	for _, s := range sqlSites(doc) {
		ptrs = append(ptrs, s.Pointer)
	}
	if !slices.Equal(ptrs, []string{"/nodes/1/query"}) {
		t.Errorf("SQL sites %v", ptrs)
	}
}

// The core SQL stage checks the toy's query and reports inside its string: a second
// statement is sql-statement, a table no sql: section allows is sql-table.
func TestToySQL(t *testing.T) {
	dir, path := setup(t)
	bad := strings.Replace(flow, `"SELECT 1"`, `"SELECT 1; DELETE FROM audit"`, 1)
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range linter(t, dir).Run([]lint.Input{{Path: path}}).Diagnostics() {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Line, d.Column, d.Rule, d.Pointer))
	}
	slices.Sort(got)
	// Each finding lands on its own characters inside the string, on line 5: the
	// second statement at DELETE, the table at audit.
	line := strings.Split(bad, "\n")[4]
	want := []string{
		fmt.Sprintf("5:%d sql-statement /nodes/1/query", strings.Index(line, "DELETE")+1),
		fmt.Sprintf("5:%d sql-table /nodes/1/query", strings.Index(line, "audit")+1),
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}

// dws graph's drawing labels the toy's edges and ends with the toy's words.
func TestToyDrawing(t *testing.T) {
	dir, path := setup(t)
	in := linter(t, dir).Inspect(path, []byte(flow))
	var b strings.Builder
	if err := report.WriteGraph(&b, "mermaid", "flow.json", report.Drawings(in)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`g0n0 -->|"then"| g0n1`,      // start then check
		`g0n0 -->|"otherwise"| g0n2`, // start otherwise give-up
		`g0n1 -->|"gave up"| g0end`,  // check has no otherwise
		`g0n2 -->|"finished"| g0end`, // give-up ends both ways
		`g0n2 -->|"gave up"| g0end`,  //
		`g0n3 -->|"finished"| g0end`, // done
		`g0n0["start"]:::entry`,      // the entry
		`g0end(("end")):::endnode`,   // the end terminal
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the drawing lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, `|"end"|`) {
		t.Errorf("an end is labelled with the default, not the toy's words:\n%s", out)
	}
}

// dws simulate counts the toy's paths through the real pipeline and report.
func TestToySimulation(t *testing.T) {
	dir, path := setup(t)
	l := linter(t, dir)
	l.Simulation = &lint.SimulationOptions{MaxPaths: 100}
	res := l.Run([]lint.Input{{Path: path}})
	var b strings.Builder
	if err := report.WriteSimulation(&b, "text", res, report.Options{Registry: l.Registry}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, path+": 5 paths: 2 succeeded, 3 failed; ") {
		t.Errorf("simulation report:\n%s", out)
	}
}

// ---- the language server, over a pipe, as an editor drives it ----------------------

type editor struct {
	protocol.UnimplementedClient
	pub chan *protocol.PublishDiagnosticsParams
}

func (e *editor) PublishDiagnostics(_ context.Context, p *protocol.PublishDiagnosticsParams) error {
	e.pub <- p
	return nil
}

// serve starts dws lsp with only the toy registered and opens flow.json in it.
func serve(t *testing.T) (context.Context, protocol.Server, uri.URI) {
	t.Helper()
	_, path := setup(t)
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	s := lsp.New(lint.NewRegistry(toy()), "test")
	done := make(chan struct{})
	go func() {
		_ = lsp.Serve(ctx, s, a, a)
		close(done)
	}()
	ed := &editor{pub: make(chan *protocol.PublishDiagnosticsParams, 100)}
	_, _, server := protocol.NewClient(ctx, ed, lsptest.Stream(b))
	t.Cleanup(func() {
		cancel()
		_ = a.Close()
		_ = b.Close()
		<-done
	})
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	u := uri.File(path)
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "json", Version: 1, Text: flow}}); err != nil {
		t.Fatal(err)
	}
	// The first check is published before the requests below read its result.
	for {
		select {
		case p := <-ed.pub:
			if p.URI == u {
				if len(p.Diagnostics) != 0 {
					t.Fatalf("the toy flow has findings in the editor: %v", p.Diagnostics)
				}
				return ctx, server, u
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no diagnostics for flow.json")
		}
	}
}

// at is the position just after the n-th (from 0) occurrence of mark in flow.
func at(t *testing.T, mark string, n int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		k := strings.Index(flow[off+1:], mark)
		if k < 0 {
			t.Fatalf("%q occurs fewer than %d times", mark, n+1)
		}
		off += 1 + k
	}
	end := off + len(mark)
	line := strings.Count(flow[:end], "\n")
	return protocol.Position{Line: uint32(line), Character: uint32(end - strings.LastIndex(flow[:end], "\n") - 1)}
}

func tdp(u uri.URI, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p}
}

// Completion offers node ids in the toy's edge fields, and only there.
func TestToyCompletion(t *testing.T) {
	ctx, server, u := serve(t)
	labels := func(p protocol.Position) []string {
		r, err := server.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp(u, p)})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		if items, ok := r.(*protocol.CompletionItemSlice); ok {
			for _, it := range *items {
				out = append(out, it.Label)
			}
		} else if items, ok := r.(protocol.CompletionItemSlice); ok {
			for _, it := range items {
				out = append(out, it.Label)
			}
		}
		slices.Sort(out)
		return out
	}
	ids := []string{"check", "done", "give-up", "start"}
	if got := labels(at(t, `"otherwise": "`, 0)); !slices.Equal(got, ids) {
		t.Errorf("completion in otherwise: %v, want %v", got, ids)
	}
	if got := labels(at(t, `"then": "`, 1)); !slices.Equal(got, ids) {
		t.Errorf("completion in then: %v, want %v", got, ids)
	}
	if got := labels(at(t, `"kind": "`, 0)); len(got) != 0 {
		t.Errorf("completion in kind, which names no node: %v", got)
	}
}

// Hover on an edge's target describes the node with the toy's kind and note.
func TestToyHover(t *testing.T) {
	ctx, server, u := serve(t)
	h, err := server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp(u, at(t, `"then": "ch`, 0))})
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		t.Fatal("no hover on an edge's target")
	}
	if mc, ok := h.Contents.(*protocol.MarkupContent); !ok || !strings.Contains(mc.Value, "**check** (gate)\n\nlooks at what start made") {
		t.Errorf("hover: %+v", h.Contents)
	}
}

// Rename renames a node's id, the edges that name it and the notes' references to it;
// a name a reference cannot hold is refused with the toy's words.
func TestToyRename(t *testing.T) {
	ctx, server, u := serve(t)
	edit, err := server.Rename(ctx, &protocol.RenameParams{TextDocumentPositionParams: tdp(u, at(t, `"id": "ch`, 0)), NewName: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range edit.Changes[u] {
		got = append(got, fmt.Sprintf("%d:%d-%d %s", e.Range.Start.Line, e.Range.Start.Character, e.Range.End.Character, e.NewText))
	}
	slices.Sort(got)
	want := []string{
		editAt(t, `"id": `, 1, `"check"`, `"verify"`),   // check's id, a JSON string
		editAt(t, `"then": `, 0, `"check"`, `"verify"`), // start's then
		editAt(t, `reports <<`, 0, "check", "verify"),   // the notes' two references
		editAt(t, `and <<`, 0, "check", "verify"),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("rename edits %v, want %v", got, want)
	}
	_, err = server.Rename(ctx, &protocol.RenameParams{TextDocumentPositionParams: tdp(u, at(t, `"id": "ch`, 0)), NewName: "Verify"})
	if err == nil || !strings.Contains(err.Error(), `"check" cannot be renamed to "Verify": a note names it (<<check>>), and a note names a node with lowercase letters`) {
		t.Errorf("renaming to a name a note cannot hold: %v", err)
	}
}

// editAt is the edit that writes text over old right after the n-th mark, as
// "line:from-to text".
func editAt(t *testing.T, mark string, n int, old, text string) string {
	p := at(t, mark, n)
	return fmt.Sprintf("%d:%d-%d %s", p.Line, p.Character, p.Character+uint32(len(old)), text)
}

// The code lens counts the toy's paths with the toy's simulation.
func TestToyCodeLens(t *testing.T) {
	ctx, server, u := serve(t)
	lenses, err := server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 1 || lenses[0].Command.Title != "5 paths · 2 succeed · 3 fail" {
		t.Errorf("lenses %+v", lenses)
	}
}
