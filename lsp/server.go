// Package lsp is dws's language server (dws lsp, SPEC §10): the validate pipeline in a
// long-lived process, over the Language Server Protocol on stdio.
//
// Decisions where SPEC leaves a choice open:
//   - Every document change is checked in full (the pipeline is fast enough on the
//     files people write), on one goroutine per document: while a check runs, newer
//     changes only record the text, and when it ends the newest text is checked next.
//     A result is published only when it is for the document's newest version, so a
//     superseded change is never published and never after a newer one.
//   - A document is checked with the config of the nearest .dws.yaml above it (its
//     include and exclude globs do not apply to an open document: what the user opens
//     is checked). Open buffers win over the disk for every file a check reads, so a
//     job spec's cross-file findings come from what is being edited.
//   - A .dws.yaml that does not load is one diagnostic on that file, and its documents
//     are checked with the default config meanwhile.
//   - Changes to watched files (any .dws.yaml, and the registry, DDL, lockfile and
//     baseline a config names) and didChangeConfiguration reload the configs and
//     re-check every open document. They are handled beside the documents' own
//     changes, not in order with them: a document opened or changed just as one comes
//     may be published once as checked before it, and is then published again. A
//     config being read as the change is handled is not kept, so every check after
//     it reads the config anew.
//   - Positions are UTF-16 code units, as LSP's default position encoding says.
//   - The code lens's simulation (and dws.simulate's) is kept per document version,
//     runs one at a time per document and at most GOMAXPROCS-1 at once in all, and a
//     cancelled request is answered RequestCancelled at once (see simulate.go). One
//     that a bound stops (states, count size, time) is one lens at the top of the
//     document saying so, in dws simulate's words ("not simulated: … stopped at the
//     time bound (1m0s) …"), never a silent absence of lenses.
//   - A rename writes the new name as each place's syntax needs (JSON string; YAML
//     plain, single- or double-quoted, keeping the style where it can hold the name),
//     and is refused unless the edited text parses back to the new name everywhere,
//     every reference can hold the name in its own syntax (a template reference the
//     dialect finds may hold fewer names than a string) and the renamed document has
//     no error finding the document has not (see rename.go).
//   - A message the server cannot handle never ends the session (see guard): a
//     notification it does not know, or whose params do not decode, is ignored; an
//     unknown request is answered MethodNotFound, params that do not decode
//     InvalidParams, and a handler that panics (a bug) InternalError.
//   - dws reads the messages itself (see intake): one that is not JSON is answered
//     ParseError, one that is not JSON-RPC 2.0 (a batch included: LSP does not use
//     them) InvalidRequest, and the session goes on; LSP's lifecycle is kept (no
//     request before initialize, none after shutdown, exit code 1 for exit without
//     shutdown). Only a frame it cannot read past (a broken Content-Length, the input
//     ending inside a message) ends the session, with exit code 1 and a line on stderr.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// Server is one language-server session.
type Server struct {
	protocol.UnimplementedServer
	client  protocol.Client
	reg     *lint.Registry
	version string

	mu      sync.Mutex
	docs    map[uri.URI]*document
	configs map[string]*workspace // by config path; "" for documents with none
	exit    chan struct{}
	ready   chan struct{} // closed once client is set
	// watchDynamic is set when the client lets the server register file watchers.
	watchDynamic bool
	closed       bool  // exit was read
	exitErr      error // how the session ends, set before exit is closed
	// checked, when set, is told the version of each document published (tests and
	// the latency benchmark use the publications themselves).
	checked func(u uri.URI, version int32)
	// sims holds a token for each simulation running (see simulation).
	sims chan struct{}
	// simulating, when set, is called as each simulation starts (tests count them).
	simulating func(u uri.URI, version int32)
	// reloads counts reloads of the configs: a config read across one is not kept (see
	// workspaceFor).
	reloads uint64
	// configRead, when set, is called as a config has been read, before it is kept
	// (tests change the config there).
	configRead func(path string)
}

// document is one open document.
type document struct {
	uri  uri.URI
	path string

	mu      sync.Mutex // guards everything below
	text    string
	version int32
	gen     uint64 // bumped by every change
	running bool
	closed  bool
	// last is the newest checked state, published: its text, findings and analysis;
	// good is the newest that parsed (completion works on half-typed text).
	last, good *analysis
	// lens and report are the newest simulations for the code lens and for dws.simulate;
	// sim holds a token while one of them runs.
	lens, report *simJob
	sim          chan struct{}
}

// workspace is one loaded config and the linter built on it.
type workspace struct {
	path   string // the config file; "" for the default config
	linter *lint.Linter
	err    *lint.ConfigError // set when the config does not load
}

// New returns a server that uses reg's dialects and rules.
func New(reg *lint.Registry, version string) *Server {
	return &Server{reg: reg, version: version, docs: map[uri.URI]*document{}, configs: map[string]*workspace{},
		exit: make(chan struct{}), ready: make(chan struct{}), sims: make(chan struct{}, max(1, runtime.GOMAXPROCS(0)-1))}
}

// Serve runs a session over r and w until the client exits or the stream ends. It
// returns a *SessionError when the session ends as a failure: exit without shutdown
// first, or a frame that cannot be read (see intake).
func Serve(ctx context.Context, s *Server, r io.Reader, w io.Writer) error {
	in := newIntake(ctx, s, r, w)
	// As protocol.NewServer wires it, with intake under it and guard in front of
	// everything.
	conn := jsonrpc2.NewConn(in, jsonrpc2.WithCodec(codec{}))
	s.client = protocol.ClientDispatcher(conn)
	close(s.ready)
	conn.Go(ctx, guard(protocol.Handlers(protocol.ServerHandler(s, nil))))
	var err error
	select {
	case <-conn.Done():
		err = conn.Err()
	case <-s.exit:
	case <-ctx.Done():
	}
	// Not conn.Close(): it waits for a read of stdin that may never come.
	select {
	case <-s.exit:
		return s.exitErr
	default:
	}
	var se *SessionError
	if errors.As(err, &se) {
		return se
	}
	return nil
}

// end ends the session once exit is read; after shutdown it is a success.
func (s *Server) end(afterShutdown bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	if !afterShutdown {
		s.exitErr = &SessionError{"exit without shutdown first: LSP has the server exit with code 1"}
	}
	close(s.exit)
}

// DidOpen does nothing: intake applies didOpen, didChange and didClose as they are
// read, in order, and the protocol's own dispatch of them comes after.
func (s *Server) DidOpen(context.Context, *protocol.DidOpenTextDocumentParams) error { return nil }

// DidChange does nothing: see DidOpen.
func (s *Server) DidChange(context.Context, *protocol.DidChangeTextDocumentParams) error { return nil }

// DidClose does nothing: see DidOpen.
func (s *Server) DidClose(context.Context, *protocol.DidCloseTextDocumentParams) error { return nil }

// Initialize answers the client's capabilities with the server's.
func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	yes := protocol.Boolean(true)
	if w := params.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.mu.Lock()
		s.watchDynamic = *w.DidChangeWatchedFiles.DynamicRegistration
		s.mu.Unlock()
	}
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKindUTF16,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: ptr(true),
				Change:    ptr(protocol.TextDocumentSyncKindIncremental),
			},
			CompletionProvider:     &protocol.CompletionOptions{TriggerCharacters: []string{`"`, " ", ":", "[", ","}},
			HoverProvider:          yes,
			DefinitionProvider:     yes,
			ReferencesProvider:     yes,
			DocumentSymbolProvider: yes,
			CodeActionProvider:     yes,
			RenameProvider:         yes,
			CodeLensProvider:       &protocol.CodeLensOptions{},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: []string{"dws.simulate"}},
		},
		ServerInfo: protocol.ServerInfo{Name: "dws", Version: protocol.NewOptional(s.version)},
	}, nil
}

// Initialized is the client's go-ahead: dws asks to be told of changes to the files a
// check reads from disk (configs, registries, DDL, lockfiles, the other files of a job
// spec). A client that cannot register watchers still sends what it watches itself.
func (s *Server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	dynamic := s.watchDynamic
	s.mu.Unlock()
	if !dynamic {
		return nil
	}
	opts, err := json.Marshal(map[string]any{"watchers": []map[string]any{
		{"globPattern": "**/" + lint.ConfigName}, {"globPattern": "**/*.{json,yaml,yml,sql,lock}"},
	}})
	if err != nil {
		return err
	}
	go func() {
		_ = s.client.RegisterCapability(context.WithoutCancel(ctx), &protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID: "dws-watch", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: protocol.LSPAny(opts)}}})
	}()
	return nil
}

// Shutdown stops nothing: every check ends on its own.
func (s *Server) Shutdown(context.Context) error { return nil }

// Exit is never called: intake ends the session as it reads exit (see end).
func (s *Server) Exit(context.Context) error { return nil }

// SetTrace is accepted and ignored: dws writes no trace.
func (s *Server) SetTrace(context.Context, *protocol.SetTraceParams) error { return nil }

// didOpen starts tracking a document and checks it.
func (s *Server) didOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) {
	td := params.TextDocument
	d := &document{uri: td.URI, path: pathOf(td.URI), text: td.Text, version: td.Version, gen: 1, sim: make(chan struct{}, 1)}
	s.mu.Lock()
	if old := s.docs[td.URI]; old != nil {
		old.mu.Lock()
		old.closed = true
		old.stopSimulations()
		old.mu.Unlock()
	}
	s.docs[td.URI] = d
	s.mu.Unlock()
	s.schedule(ctx, d)
	if isConfig(d.path) {
		s.reload(ctx)
	}
}

// didChange applies the changes to the document's text and checks it.
func (s *Server) didChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) {
	d := s.doc(params.TextDocument.URI)
	if d == nil {
		return // a change to a document never opened: nothing to apply it to
	}
	d.mu.Lock()
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			d.text = c.Text
		case *protocol.TextDocumentContentChangePartial:
			t := newText(d.text)
			from, to := t.offset(c.Range.Start), t.offset(c.Range.End)
			if to < from {
				from, to = to, from
			}
			d.text = d.text[:from] + c.Text + d.text[to:]
		}
	}
	d.version = params.TextDocument.Version
	d.gen++
	d.mu.Unlock()
	s.schedule(ctx, d)
	s.recheckBundle(ctx, d)
}

// recheckBundle re-checks the other open documents of the bundle d lies in: their
// cross-file findings depend on d's text.
func (s *Server) recheckBundle(ctx context.Context, d *document) {
	root := s.bundleRoot(filepath.Dir(d.path))
	if root == "" {
		return
	}
	s.mu.Lock()
	var others []*document
	for _, o := range s.docs {
		if o != d && strings.HasPrefix(o.path, root+string(filepath.Separator)) {
			others = append(others, o)
		}
	}
	s.mu.Unlock()
	for _, o := range others {
		o.mu.Lock()
		o.gen++
		o.mu.Unlock()
		s.schedule(ctx, o)
	}
}

// bundleRoot is the root of the bundle (a dialect's definitions that span files, such
// as a DWS job spec) that dir lies in, as the first dialect with a bundle finds it; "".
func (s *Server) bundleRoot(dir string) string {
	for _, dl := range s.reg.Dialects() {
		if dl.Bundle == nil {
			continue
		}
		if root, ok := dl.Bundle.Root(dir); ok {
			return root
		}
	}
	return ""
}

// DidSave needs nothing: every change was checked already.
func (s *Server) DidSave(context.Context, *protocol.DidSaveTextDocumentParams) error { return nil }

// didClose forgets a document and clears its diagnostics.
func (s *Server) didClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) {
	u := params.TextDocument.URI
	s.mu.Lock()
	d := s.docs[u]
	delete(s.docs, u)
	s.mu.Unlock()
	if d == nil {
		return
	}
	d.mu.Lock()
	d.closed = true
	d.stopSimulations()
	d.gen++
	_ = s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
	d.mu.Unlock()
}

// DidChangeWatchedFiles reloads the configs when one of them, or a file one names,
// changed, and re-checks the open documents.
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	s.reload(ctx)
	return nil
}

// DidChangeConfiguration reloads the configs and re-checks the open documents.
func (s *Server) DidChangeConfiguration(ctx context.Context, _ *protocol.DidChangeConfigurationParams) error {
	s.reload(ctx)
	return nil
}

// reload drops every loaded config and re-checks every open document.
func (s *Server) reload(ctx context.Context) {
	s.mu.Lock()
	old := s.configs
	s.configs = map[string]*workspace{}
	s.reloads++
	docs := slices.Collect(maps.Values(s.docs))
	s.mu.Unlock()
	// A config that no longer fails loses its diagnostic (the next check of a document
	// under it publishes again if it still fails).
	for p, w := range old {
		if w.err != nil && p != "" {
			_ = s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: uri.File(p), Diagnostics: []protocol.Diagnostic{}})
		}
	}
	for _, d := range docs {
		d.mu.Lock()
		d.gen++
		d.mu.Unlock()
		s.schedule(ctx, d)
	}
}

func (s *Server) doc(u uri.URI) *document {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u]
}

// workspaceFor is the config a document at path is checked with, loaded once. A config
// read while the configs are reloaded may be the old text: it serves its caller, whose
// check the reload supersedes, but it is neither kept nor its error published, so the
// re-check reads the config anew.
func (s *Server) workspaceFor(ctx context.Context, path string) *workspace {
	cfgPath, _ := lint.FindConfig(filepath.Dir(path))
	s.mu.Lock()
	w, ok := s.configs[cfgPath]
	reloads := s.reloads
	s.mu.Unlock()
	if ok {
		return w
	}
	w = &workspace{path: cfgPath}
	var cfg *lint.Config
	if cfgPath != "" {
		c, err := lint.LoadConfig(cfgPath, s.reg)
		var ce *lint.ConfigError
		switch {
		case errors.As(err, &ce):
			w.err = ce
		case err != nil:
			w.err = &lint.ConfigError{Path: cfgPath, Msg: err.Error()}
		default:
			cfg = c
		}
	}
	if cfg == nil {
		cfg = lint.DefaultConfig(filepath.Dir(path))
	}
	cfg.Interactive = true
	l, err := lint.New(s.reg, cfg)
	if err != nil {
		// A baseline or lockfile that cannot be read: check without them, and say so.
		if w.err == nil {
			w.err = &lint.ConfigError{Path: cfgPath, Msg: err.Error()}
		}
		cfg.Baseline, cfg.Lock = "", ""
		l, _ = lint.New(s.reg, cfg)
	}
	w.linter = l
	if s.configRead != nil {
		s.configRead(cfgPath)
	}
	s.mu.Lock()
	current := s.reloads == reloads
	if current {
		s.configs[cfgPath] = w
	}
	s.mu.Unlock()
	if current && w.err != nil {
		s.publishConfigError(ctx, w.err)
	}
	return w
}

func (s *Server) publishConfigError(ctx context.Context, ce *lint.ConfigError) {
	p := ce.Path
	if p == "" {
		return
	}
	// The text places the diagnostic; a config that cannot be read (too large, not a
	// regular file: what the error says) puts it on the first line.
	t := newText("")
	if b, err := source.ReadFile(p); err == nil {
		t = newText(string(b))
	}
	r := t.rangeOf(max(ce.Line, 1), max(ce.Column, 1), 0, 0)
	r.End = t.fromColumn(max(ce.Line, 1), 1<<20)
	_ = s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: uri.File(p), Diagnostics: []protocol.Diagnostic{{
		Range:    r,
		Severity: protocol.DiagnosticSeverityError,
		Code:     protocol.String("config"),
		Source:   protocol.NewOptional("dws"),
		Message:  protocol.String(ce.Msg),
	}}})
}

// overlay is every open buffer, by absolute path.
func (s *Server) overlay() map[string][]byte {
	s.mu.Lock()
	docs := slices.Collect(maps.Values(s.docs))
	s.mu.Unlock()
	out := make(map[string][]byte, len(docs))
	for _, d := range docs {
		d.mu.Lock()
		out[d.path] = []byte(d.text)
		d.mu.Unlock()
	}
	return out
}

func pathOf(u uri.URI) string {
	if u.IsFile() {
		return filepath.Clean(u.FsPath())
	}
	// An untitled buffer: a path of its own, in the working directory.
	wd, _ := os.Getwd()
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == ':' || r == '\\' {
			return '_'
		}
		return r
	}, string(u))
	return filepath.Join(wd, name)
}

func isConfig(path string) bool { return filepath.Base(path) == lint.ConfigName }

func errUnknown(u uri.URI) error {
	return jsonrpc2.NewError(jsonrpc2.InvalidParams, "dws lsp: no open document "+string(u))
}

func ptr[T any](v T) *T { return &v }
