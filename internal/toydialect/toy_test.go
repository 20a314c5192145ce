package toydialect_test

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/dwsdev/dws/graph"
	"github.com/dwsdev/dws/lint"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
	"github.com/dwsdev/dws/sqlcheck"
)

// The toy format: a JSON document with a top-level "toy" and a list of nodes. A node
// routes on "then" when it succeeds and on "otherwise" when it fails; a route that is
// absent or null ends the run (succeeded, failed). A node's "note" may name another
// node as <<ID>>, where an id is lowercase letters and "-". A node's "query" is SQL.
// The graph must be acyclic: the toy's simulation has no bound of its own.

// toy is the toy dialect. Every part but ID and Detect is optional; it has them all.
func toy() *lint.Dialect {
	return &lint.Dialect{
		ID:         "toy",
		Detect:     func(doc *source.Document) bool { return doc.Root.Has("toy") },
		Decode:     func(doc *source.Document) any { return decode(doc) },
		Graphs:     graphs,
		Simulate:   simulate,
		EdgeFields: []string{"then", "otherwise"},
		Describe:   lint.DescribeBy("kind", "note"),
		References: references,
		EndLabels:  endLabels,
		EdgeLabel:  edgeLabel,
		SQLSites:   func(p *lint.Pass) []sqlcheck.Site { return sqlSites(p.Doc) },
	}
}

// node is one entry of nodes.
type node struct {
	id, ptr         string
	then, otherwise route
	query           *source.Node
}

// route is a then or otherwise field: present says it names a node.
type route struct {
	target, ptr string
	present     bool
}

func decode(doc *source.Document) []node {
	var out []node
	for i, n := range doc.Root.Get("nodes").Items {
		ptr := fmt.Sprintf("/nodes/%d", i)
		id, _ := n.Get("id").Str()
		nd := node{id: id, ptr: ptr, query: n.Get("query")}
		for _, f := range []struct {
			key string
			r   *route
		}{{"then", &nd.then}, {"otherwise", &nd.otherwise}} {
			if t, ok := n.Get(f.key).Str(); ok {
				*f.r = route{target: t, ptr: ptr + "/" + f.key, present: true}
			}
		}
		out = append(out, nd)
	}
	return out
}

func nodesOf(p *lint.Pass) []node {
	nodes, _ := p.Model.([]node)
	return nodes
}

func graphs(p *lint.Pass) []lint.GraphCheck {
	nodes := nodesOf(p)
	if len(nodes) == 0 {
		return nil
	}
	g := graph.New("/nodes")
	for _, n := range nodes {
		g.AddNode(graph.Node{ID: n.id, Pointer: n.ptr, IDPointer: n.ptr + "/id", Exit: !n.then.present || !n.otherwise.present})
	}
	for i, n := range nodes {
		if n.then.present {
			g.AddEdge(i, n.then.target, graph.Success, n.then.ptr, false)
		}
		if n.otherwise.present {
			g.AddEdge(i, n.otherwise.target, graph.Failure, n.otherwise.ptr, false)
		}
	}
	return []lint.GraphCheck{{Graph: g, Options: graph.Options{Cycles: graph.ForbidAll, Noun: "node"}}}
}

// endLabels: a node without then ends the run "finished", one without otherwise
// "gave up".
func endLabels(doc *source.Document, n graph.Node) []string {
	obj := doc.Lookup(lint.NodeObject(n))
	var out []string
	for _, f := range [][2]string{{"then", "finished"}, {"otherwise", "gave up"}} {
		if v := obj.Get(f[0]); v == nil || v.Kind == source.Null {
			out = append(out, f[1])
		}
	}
	return out
}

// edgeLabel names an edge by its field.
func edgeLabel(_ *source.Document, _ graph.Node, e graph.Edge) string {
	return e.Pointer[strings.LastIndexByte(e.Pointer, '/')+1:]
}

var toyID = regexp.MustCompile(`^[a-z-]+$`)

// references are the <<ID>> in notes.
func references(doc *source.Document, _ *graph.Graph, id string) []lint.Reference {
	var out []lint.Reference
	why := fmt.Sprintf("a note names it (<<%s>>), and a note names a node with lowercase letters and \"-\" only", id)
	for i, n := range doc.Root.Get("nodes").Items {
		note := n.Get("note")
		if note == nil || note.Kind != source.String {
			continue
		}
		for from := 0; ; {
			k := strings.Index(note.Text[from:], "<<"+id+">>")
			if k < 0 {
				break
			}
			at := from + k + 2
			out = append(out, lint.Reference{Pointer: fmt.Sprintf("/nodes/%d/note", i), From: at, To: at + len(id),
				Holds: toyID.MatchString, Why: why})
			from = at + len(id)
		}
	}
	return out
}

// sqlSites are the queries of the nodes: statements given no arguments.
func sqlSites(doc *source.Document) []sqlcheck.Site {
	var out []sqlcheck.Site
	for i, n := range doc.Root.Get("nodes").Items {
		if q := n.Get("query"); q != nil {
			out = append(out, sqlcheck.Site{Text: q, Pointer: fmt.Sprintf("/nodes/%d/query", i)})
		}
	}
	return out
}

// machine runs a toy definition: its state is the node the run is at.
type machine struct {
	nodes []node
	index map[string]int
}

func (m *machine) Start() int { return 0 }

func (m *machine) Moves(s int) []sim.Move[int] {
	n := m.nodes[s]
	var out []sim.Move[int]
	for _, f := range []struct {
		r       route
		outcome string
		end     sim.Status
	}{{n.then, "then", sim.Succeeded}, {n.otherwise, "otherwise", sim.Failed}} {
		e := sim.Edge{Node: n.id, Outcome: f.outcome}
		if i, ok := m.index[f.r.target]; f.r.present && ok {
			out = append(out, sim.Move[int]{Edge: e, To: f.r.target, Next: i})
		} else {
			out = append(out, sim.Move[int]{Edge: e, End: true, Status: f.end})
		}
	}
	return out
}

func simulate(p *lint.Pass, opts sim.Options, maxPaths int) ([]sim.Definition, error) {
	nodes := nodesOf(p)
	if len(nodes) == 0 {
		return nil, nil
	}
	m := &machine{nodes: nodes, index: map[string]int{}}
	var edges []sim.Edge
	nodeInfo := map[string]sim.Node{}
	for i, n := range nodes {
		if _, dup := m.index[n.id]; !dup {
			m.index[n.id] = i
		}
		edges = append(edges, sim.Edge{Node: n.id, Outcome: "then"}, sim.Edge{Node: n.id, Outcome: "otherwise"})
		nodeInfo[n.id] = sim.Node{Kind: "node", Outcomes: []string{"then", "otherwise"}, Answers: []string{"ok", "fail"}}
	}
	r, err := sim.Explore[int](m, opts, maxPaths, edges)
	if err != nil {
		return nil, err
	}
	return []sim.Definition{{Result: r, Nodes: nodeInfo}}, nil
}
