package lint

import (
	"github.com/dwsdev/dws/change"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Inspection is what an editor needs of a document besides its findings: the parsed
// document, its dialect, the dialect's model and its graphs. Any field may be nil: a
// document that does not parse has no tree, one of no dialect no graphs.
type Inspection struct {
	Doc     *source.Document
	Dialect *Dialect
	Model   any
	Graphs  []GraphCheck
	pass    *Pass
}

// Inspect parses data as the file at path and builds its graphs, without running the
// rules. It never fails: what it cannot build stays nil.
func (l *Linter) Inspect(path string, data []byte) *Inspection {
	r := l.newRun()
	f := &File{Path: path, Config: l.Config, Limiter: r.lim, reg: l.Registry, stdin: true}
	doc, err := source.Parse(path, data, source.FormatOf(path, data))
	if err != nil {
		return &Inspection{}
	}
	f.Doc = doc
	in := &Inspection{Doc: doc}
	d := r.dialectFor(f)
	if d == nil {
		return in
	}
	in.Dialect = d
	f.Dialect = d
	if d.Decode != nil {
		f.Model = d.Decode(doc)
	}
	in.Model = f.Model
	in.pass = &Pass{File: f, Model: f.Model}
	if d.Graphs != nil {
		in.Graphs = d.Graphs(in.pass)
	}
	return in
}

// Simulate explores the inspected definition's runs (for an editor's code lens): nil
// when its dialect is not simulated. Findings of the simulation are not kept.
func (in *Inspection) Simulate(opts sim.Options) ([]sim.Definition, error) {
	if in.Dialect == nil || in.Dialect.Simulate == nil || in.pass == nil {
		return nil, nil
	}
	return in.Dialect.Simulate(in.pass, opts, 0)
}

// Units describes the inspected file's versioned definitions (dws diff); nil when its
// dialect has none.
func (in *Inspection) Units() []*change.Unit {
	if in.Dialect == nil || in.Dialect.Units == nil || in.pass == nil {
		return nil
	}
	return in.Dialect.Units(in.pass)
}
