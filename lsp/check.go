package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"sync"

	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/scenario"
	"github.com/dwsdev/dws/sim"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// analysis is one checked version of a document: its text, findings and (built when a
// feature first asks) its inspection.
type analysis struct {
	path     string
	version  int32
	raw      string
	text     *text
	findings []lint.Diagnostic
	diags    []protocol.Diagnostic
	checksum string // the document's canonical checksum, "" when it has none
	ws       *workspace

	once sync.Once
	insp *lint.Inspection
}

// inspection parses the analysed text and builds its graphs, once.
func (a *analysis) inspection() *lint.Inspection {
	a.once.Do(func() {
		defer func() {
			if recover() != nil {
				a.insp = &lint.Inspection{}
			}
		}()
		a.insp = a.ws.linter.Inspect(a.path, []byte(a.raw))
	})
	return a.insp
}

// schedule checks d on its worker, starting one when none runs.
func (s *Server) schedule(ctx context.Context, d *document) {
	d.mu.Lock()
	if d.running || d.closed {
		d.mu.Unlock()
		return
	}
	d.running = true
	d.mu.Unlock()
	go s.worker(context.WithoutCancel(ctx), d)
}

// worker checks d's newest text until the result it has is for the newest version,
// and publishes that one.
func (s *Server) worker(ctx context.Context, d *document) {
	for {
		d.mu.Lock()
		if d.closed {
			d.running = false
			d.mu.Unlock()
			return
		}
		raw, gen, version := d.text, d.gen, d.version
		d.mu.Unlock()
		a := s.analyze(ctx, d.path, raw, version)
		d.mu.Lock()
		if d.closed {
			d.running = false
			d.mu.Unlock()
			return
		}
		if d.gen != gen {
			d.mu.Unlock()
			continue // superseded: check the newer text, publish nothing
		}
		d.last = a
		if !slices.ContainsFunc(a.findings, func(f lint.Diagnostic) bool { return f.Rule == "parse" }) {
			d.good = a
		}
		d.running = false
		_ = s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{
			URI: d.uri, Version: protocol.NewOptional(version), Diagnostics: a.diags,
		})
		d.mu.Unlock()
		if s.checked != nil {
			s.checked(d.uri, version)
		}
		return
	}
}

// analyze runs the validate pipeline on one document's text. dws failing on it (a
// bug) is one diagnostic, never a dead server.
func (s *Server) analyze(ctx context.Context, path, raw string, version int32) (a *analysis) {
	ws := s.workspaceFor(ctx, path)
	a = &analysis{path: path, version: version, raw: raw, text: newText(raw), ws: ws}
	defer func() {
		if r := recover(); r != nil {
			a.findings = nil
			a.diags = []protocol.Diagnostic{{
				Severity: protocol.DiagnosticSeverityError,
				Code:     protocol.String("internal"),
				Source:   protocol.NewOptional("dws"),
				Message:  protocol.String(fmt.Sprintf("dws failed on this document (a bug; please report it): %v", r)),
			}}
		}
	}()
	l := *ws.linter
	l.Overlay = s.overlay()
	l.Overlay[path] = []byte(raw)
	if lint.IsScenario(path) {
		a.findings = checkScenario(&l, path, raw)
		for _, f := range a.findings {
			a.diags = append(a.diags, a.diagnostic(f))
		}
		if a.diags == nil {
			a.diags = []protocol.Diagnostic{}
		}
		return a
	}
	res := l.Run([]lint.Input{{Path: path}})
	for _, f := range res.Files {
		if abs(f.Path) == path {
			a.findings = append(a.findings, f.Diagnostics...)
			a.checksum = f.Checksum
		}
	}
	a.diags = make([]protocol.Diagnostic, 0, len(a.findings))
	for _, f := range a.findings {
		a.diags = append(a.diags, a.diagnostic(f))
	}
	return a
}

// diagnostic is a dws finding as LSP shows it.
func (a *analysis) diagnostic(f lint.Diagnostic) protocol.Diagnostic {
	r := a.text.rangeOf(f.Line, f.Column, f.EndLine, f.EndColumn)
	d := protocol.Diagnostic{
		Range:           r,
		Severity:        severity(f.Severity),
		Code:            protocol.String(f.Rule),
		CodeDescription: protocol.CodeDescription{Href: uri.URI("https://dws.dev/rules/" + f.Rule)},
		Source:          protocol.NewOptional("dws"),
		Message:         protocol.String(f.Message),
	}
	for _, rel := range f.Related {
		loc := protocol.Location{URI: uri.File(abs(rel.File))}
		if abs(rel.File) == a.path {
			p := a.text.fromColumn(rel.Line, rel.Column)
			loc.Range = protocol.Range{Start: p, End: p}
		} else {
			p := protocol.Position{Line: uint32(max(rel.Line-1, 0)), Character: uint32(max(rel.Column-1, 0))}
			loc.Range = protocol.Range{Start: p, End: p}
		}
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: rel.Message})
	}
	return d
}

func severity(s lint.Severity) protocol.DiagnosticSeverity {
	switch s {
	case lint.Error:
		return protocol.DiagnosticSeverityError
	case lint.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// key is what a simulation of the analysed text depends on.
func (a *analysis) key() simKey { return simKey{version: a.version, ws: a.ws, raw: a.raw} }

// current is the newest checked analysis of an open document, or an error for a
// document the server does not know.
func (s *Server) current(u uri.URI) (*analysis, error) {
	a, _, err := s.currentDoc(u)
	return a, err
}

// currentDoc is current with the document.
func (s *Server) currentDoc(u uri.URI) (*analysis, *document, error) {
	d := s.doc(u)
	if d == nil {
		return nil, nil, errUnknown(u)
	}
	d.mu.Lock()
	a := d.last
	raw, version, path := d.text, d.version, d.path
	d.mu.Unlock()
	if a == nil || a.raw != raw {
		// Not checked yet (or a newer text is being checked): features answer from the
		// text as it is now, without its findings.
		ws := s.workspaceFor(context.Background(), path)
		a = &analysis{path: path, version: version, raw: raw, text: newText(raw), ws: ws}
	}
	return a, d, nil
}

// checkScenario is what dws test says of a scenario file before running it: its shape,
// and whether every node it names and every answer fits its definition.
func checkScenario(l *lint.Linter, path, raw string) []lint.Diagnostic {
	sc, ds := scenario.Parse(path, []byte(raw))
	if len(ds) > 0 {
		return ds
	}
	l.Simulation = &lint.SimulationOptions{Options: sim.Options{MaxSteps: 10000, EdgesOnly: true, MaxTime: lensTime}}
	res := l.Run([]lint.Input{{Path: sc.Definition}})
	for _, f := range res.Files {
		if abs(f.Path) != abs(sc.Definition) {
			continue
		}
		if f.Simulation == nil || f.Simulation.Skipped != "" || f.Simulation.Err != nil {
			return []lint.Diagnostic{sc.Diag("ref", "/definition", "definition "+f.Path+" cannot run: it does not validate, or is no definition dws runs")}
		}
		for _, d := range f.Simulation.Definitions {
			if d.Workflow == sc.Workflow {
				return sc.Check(d.Nodes, d.Result)
			}
		}
		return []lint.Diagnostic{sc.Diag("ref", "/workflow", "the definition has no workflow "+strconv.Quote(sc.Workflow))}
	}
	return nil
}
