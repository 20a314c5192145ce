package lsp

import (
	"context"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/source"
	"go.lsp.dev/protocol"
)

// Navigation works on the graphs the dialect builds for the graph rules, so it knows
// every dialect's edges: an edge's target names a node, and a node's id is what edges
// name. A cursor anywhere on a node's id or on an edge's target string is on that name.

// hit is the name under the cursor: a node's id or an edge's target, in one graph.
type hit struct {
	g      *graph.Graph
	id     string
	node   int // the node named; -1 when no node has the id
	isEdge bool
}

// at finds the name under the byte offset off.
func at(in *lint.Inspection, off int) (hit, bool) {
	if in.Doc == nil {
		return hit{}, false
	}
	for _, gc := range in.Graphs {
		g := gc.Graph
		for i, n := range g.Nodes {
			if v := in.Doc.Lookup(n.IDPointer); v != nil && contains(v.Span, off) {
				return hit{g: g, id: n.ID, node: i}, true
			}
		}
		for _, e := range g.Edges {
			if v := in.Doc.Lookup(e.Pointer); v != nil && v.Kind == source.String && contains(v.Span, off) {
				i, ok := g.Lookup(e.Target)
				if !ok {
					i = -1
				}
				return hit{g: g, id: e.Target, node: i, isEdge: true}, true
			}
		}
	}
	return hit{}, false
}

func contains(sp source.Span, off int) bool {
	return off >= int(sp.Start.Offset) && off <= int(sp.End.Offset)
}

// inner is the span of a string's content, without its quotes.
func inner(raw string, v *source.Node) (int, int) {
	from, to := int(v.Span.Start.Offset), int(v.Span.End.Offset)
	if to-from >= 2 && to <= len(raw) && (raw[from] == '"' || raw[from] == '\'') && raw[to-1] == raw[from] {
		return from + 1, to - 1
	}
	return from, to
}

// nameRange is the range of the name at pointer (its content, without quotes).
func (a *analysis) nameRange(in *lint.Inspection, pointer string) (protocol.Range, bool) {
	v := in.Doc.Lookup(pointer)
	if v == nil {
		return protocol.Range{}, false
	}
	from, to := inner(a.raw, v)
	return a.text.span(from, to), true
}

// uses are the pointers of every edge in g that names id.
func uses(g *graph.Graph, id string) []string {
	var out []string
	for _, e := range g.Edges {
		if e.Target == id {
			out = append(out, e.Pointer)
		}
	}
	return out
}

// Definition goes from an edge's target to the node it names.
func (s *Server) Definition(_ context.Context, params *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	in := a.inspection()
	h, ok := at(in, a.text.offset(params.Position))
	if !ok || h.node < 0 {
		return protocol.LocationSlice{}, nil
	}
	r, ok := a.nameRange(in, h.g.Nodes[h.node].IDPointer)
	if !ok {
		return protocol.LocationSlice{}, nil
	}
	return &protocol.Location{URI: params.TextDocument.URI, Range: r}, nil
}

// References lists every edge that names the node under the cursor (and its id, when
// the client asks for the declaration).
func (s *Server) References(_ context.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	in := a.inspection()
	h, ok := at(in, a.text.offset(params.Position))
	if !ok {
		return []protocol.Location{}, nil
	}
	out := []protocol.Location{}
	if params.Context.IncludeDeclaration && h.node >= 0 {
		if r, ok := a.nameRange(in, h.g.Nodes[h.node].IDPointer); ok {
			out = append(out, protocol.Location{URI: params.TextDocument.URI, Range: r})
		}
	}
	for _, p := range uses(h.g, h.id) {
		if r, ok := a.nameRange(in, p); ok {
			out = append(out, protocol.Location{URI: params.TextDocument.URI, Range: r})
		}
	}
	return out, nil
}

// DocumentSymbol is the outline: the nodes of each graph (under their workflow when a
// file has several).
func (s *Server) DocumentSymbol(_ context.Context, params *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	a, err := s.current(params.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	in := a.inspection()
	out := protocol.DocumentSymbolSlice{}
	if in.Doc == nil {
		return out, nil
	}
	for _, gc := range in.Graphs {
		g := gc.Graph
		var syms []protocol.DocumentSymbol
		for _, n := range g.Nodes {
			whole, ok1 := in.Doc.PointerSpan(lint.NodeObject(n))
			sel, ok2 := a.nameRange(in, n.IDPointer)
			if !ok1 || !ok2 {
				continue
			}
			syms = append(syms, protocol.DocumentSymbol{Name: n.ID, Kind: protocol.SymbolKindFunction,
				Range: a.text.span(int(whole.Start.Offset), int(whole.End.Offset)), SelectionRange: sel})
		}
		parent := g.Pointer()
		if k := strings.LastIndexByte(parent, '/'); k > 0 && len(in.Graphs) > 1 {
			owner := parent[:k]
			name := owner
			if id, ok := in.Doc.Lookup(owner + "/id").Str(); ok {
				name = id
			}
			whole, ok := in.Doc.PointerSpan(owner)
			if ok {
				r := a.text.span(int(whole.Start.Offset), int(whole.End.Offset))
				sel := r
				if nr, ok := a.nameRange(in, owner+"/id"); ok {
					sel = nr
				}
				out = append(out, protocol.DocumentSymbol{Name: name, Kind: protocol.SymbolKindModule, Range: r, SelectionRange: sel, Children: syms})
				continue
			}
		}
		out = append(out, syms...)
	}
	return out, nil
}
