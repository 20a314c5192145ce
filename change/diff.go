package change

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"

	"github.com/dwsdev/dws/sim"
)

// Rename is one rename declared in .dws.yaml: a unit's (Unit empty; From and To are
// unit ids without version, "cortex:expense") or a node's within the unit Unit (named
// by its NEW id; From and To are node ids).
type Rename struct {
	Unit, From, To string
}

// Kind is the kind of a change.
type Kind string

// The kinds of change.
const (
	UnitAdded       Kind = "unit-added"
	UnitRemoved     Kind = "unit-removed"
	EntryChanged    Kind = "entry-changed"
	NodeAdded       Kind = "node-added"
	NodeRemoved     Kind = "node-removed"
	NodeRenamed     Kind = "node-renamed"
	NodeTypeChanged Kind = "node-type-changed"
	FieldAdded      Kind = "field-added"
	FieldRemoved    Kind = "field-removed"
	FieldChanged    Kind = "field-changed"
	EdgeAdded       Kind = "edge-added"
	EdgeRemoved     Kind = "edge-removed"
	EdgeRetargeted  Kind = "edge-retargeted"
	ReadUnproduced  Kind = "read-unproduced"
	PathsLost       Kind = "paths-lost"
)

// Change is one difference between OLD and NEW of a unit.
type Change struct {
	Kind  Kind
	Class Class
	// Node is the node the change is about (its NEW id when it has one); "" for the
	// unit itself.
	Node string
	// Where is the field path, the edge's label or the output read; "" when the node
	// or unit itself is meant.
	Where string
	// Old and New are the change's two sides; nil for the side that has none.
	Old, New *Side
	// Why explains the class where the kind alone does not ("limit tightened").
	Why string
	// Fingerprint identifies the change across runs: see Fingerprint.
	Fingerprint string
	// Acknowledged is the reason an acknowledgement file gives for approving the
	// change ("" when none does): it then does not count for --fail-on.
	Acknowledged string
}

// Acknowledge marks the changes whose fingerprints ack lists (fingerprint → reason)
// and returns the fingerprints that matched none.
func (r *Report) Acknowledge(ack map[string]string) (unused []string) {
	used := map[string]bool{}
	for i := range r.Units {
		for j := range r.Units[i].Changes {
			c := &r.Units[i].Changes[j]
			if why, ok := ack[c.Fingerprint]; ok {
				c.Acknowledged = why
				used[c.Fingerprint] = true
			}
		}
	}
	for fp := range ack {
		if !used[fp] {
			unused = append(unused, fp)
		}
	}
	slices.Sort(unused)
	return unused
}

// Unacknowledged is the highest class of the unit's changes no acknowledgement approved.
func (d *UnitDiff) Unacknowledged() Class {
	c := NoChange
	for _, ch := range d.Changes {
		if ch.Acknowledged == "" {
			c = max(c, ch.Class)
		}
	}
	return c
}

// Side is one side of a change: a value and where it is written.
type Side struct {
	Value     string
	Line, Col int
}

// Fingerprint is the stable id of a change: the first 16 hex digits of the SHA-256 of
// the unit id (without version), the change kind, the node and where, each followed by
// a newline. It names what changed, never how or where in the file, so that an
// acknowledgement survives edits elsewhere and a re-run.
func Fingerprint(unit string, k Kind, node, where string) string {
	h := sha256.Sum256([]byte(unit + "\n" + string(k) + "\n" + node + "\n" + where + "\n"))
	return hex.EncodeToString(h[:8])
}

// PathDelta is the path counts of one end state on OLD and NEW: Kept are the paths both
// have (the same (node, outcome) sequence, node renames applied), Lost those only OLD
// has, Gained those only NEW has.
type PathDelta struct {
	Status                       sim.Status
	Old, New, Kept, Lost, Gained *big.Int
}

// Verdicts of in-flight compatibility.
const (
	Continues        = "continues"
	ContinuesChanged = "continues-changed"
	NeedsMapping     = "needs-mapping"
	Incompatible     = "incompatible"
)

// Position is the in-flight verdict for runs persisted at one node of OLD.
type Position struct {
	Node    string // OLD's id
	NewNode string // NEW's id ("" when it has none)
	Verdict string
	Why     string
}

// UnitDiff is the comparison of one unit.
type UnitDiff struct {
	// ID is the unit's id (NEW's, OLD's for a removed unit).
	ID string
	// Old and New are the two versions; one is nil for an added or removed unit.
	Old, New *Unit
	Changes  []Change
	// Class is the highest class of the changes.
	Class Class
	// Verdict is the version rules' judgement; nil without a version scheme, or when
	// VersionNote says why not.
	Verdict     *Verdict
	VersionNote string
	// Paths are the path counts per end state, when both versions were simulated
	// (PathsNote says why not otherwise).
	Paths     []PathDelta
	PathsNote string
	// InFlight are the verdicts per persisted position of OLD.
	InFlight []Position
	// ReRun are the nodes of NEW whose key changed: what a runtime reusing OLD's
	// results must run again.
	ReRun []ReRun
	// Scenarios is what NEW's scenario files say of the change (set by the caller);
	// nil when none names the unit.
	Scenarios *Scenarios
}

// Scenarios are the scenario files of a unit run on OLD and on NEW.
type Scenarios struct {
	Count int
	// Stale are the scenarios that passed on OLD and fail on NEW: they no longer apply.
	Stale []StaleScenario
	// The edges their runs took, of those some path can take, on each side.
	OldCovered, OldCoverable, NewCovered, NewCoverable int
}

// StaleScenario is a scenario that no longer applies, and its first failure on NEW.
type StaleScenario struct {
	Path, Why string
}

// Report is the comparison of two sets of units.
type Report struct {
	Units []UnitDiff
	// Problems are what kept units from being compared: a file that does not parse, a
	// unit defined twice.
	Problems []Problem
}

// Problem is one thing that kept a file or a unit from being compared, at its place.
type Problem struct {
	Path      string
	Line, Col int // 0 when the problem has no place in the file
	Rule      string
	Message   string
}

// String is the problem as dws validate writes a finding: path:line:col: error: message
// [rule].
func (p Problem) String() string {
	at := p.Path
	if p.Line > 0 {
		at = fmt.Sprintf("%s:%d:%d", p.Path, p.Line, p.Col)
	}
	return fmt.Sprintf("%s: error: %s [%s]", at, p.Message, p.Rule)
}

// Diff compares the units of OLD and NEW, paired by id (after the declared unit
// renames). opts bound the path counting.
func Diff(old, new []*Unit, renames []Rename, opts sim.Options) *Report {
	rep := &Report{}
	unitTo := map[string]string{}
	nodeTo := map[string]map[string]string{}
	for _, r := range renames {
		if r.Unit == "" {
			unitTo[r.From] = r.To
			continue
		}
		if nodeTo[r.Unit] == nil {
			nodeTo[r.Unit] = map[string]string{}
		}
		nodeTo[r.Unit][r.From] = r.To
	}
	index := func(us []*Unit, side string, key func(*Unit) string) map[string]*Unit {
		m := map[string]*Unit{}
		for _, u := range us {
			k := key(u)
			if first, dup := m[k]; dup {
				msg := fmt.Sprintf("%s: %s is defined in %s and again here; this one is not compared", side, k, first.Path)
				if u.ID() != k || first.ID() != k {
					msg = fmt.Sprintf("%s: renames: makes %s of both %s (%s) and %s (here); this one is not compared", side, k, first.ID(), first.Path, u.ID())
				}
				rep.Problems = append(rep.Problems, Problem{Path: u.Path, Line: int(u.Span.Start.Line), Col: int(u.Span.Start.Col), Rule: "duplicate-id", Message: msg})
				continue
			}
			m[k] = u
		}
		return m
	}
	olds := index(old, "OLD", func(u *Unit) string {
		if to, ok := unitTo[u.ID()]; ok {
			return to
		}
		return u.ID()
	})
	news := index(new, "NEW", (*Unit).ID)
	var ids []string
	for id := range olds {
		ids = append(ids, id)
	}
	for id := range news {
		if _, ok := olds[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		o, n := olds[id], news[id]
		d := UnitDiff{ID: id, Old: o, New: n}
		switch {
		case o == nil:
			d.add(Change{Kind: UnitAdded, Class: Feature, New: &Side{Value: n.Ref(), Line: int(n.Span.Start.Line), Col: int(n.Span.Start.Col)}})
		case n == nil:
			d.add(Change{Kind: UnitRemoved, Class: Breaking, Old: &Side{Value: o.Ref(), Line: int(o.Span.Start.Line), Col: int(o.Span.Start.Col)}})
		default:
			compare(&d, o, n, rep.nodeRenames(id, o, nodeTo[id]), opts)
		}
		rep.Units = append(rep.Units, d)
	}
	return rep
}

// nodeRenames are the declared node renames of unit id that can be applied to its OLD
// side o: a rename to an id o still has for a node of its own (one not renamed away)
// would make two of o's nodes one; it is a problem, at that node, and is left out.
func (rep *Report) nodeRenames(id string, o *Unit, to map[string]string) map[string]string {
	if len(to) == 0 {
		return to
	}
	has := map[string]*Node{}
	for i := range o.Nodes {
		if _, dup := has[o.Nodes[i].ID]; !dup {
			has[o.Nodes[i].ID] = &o.Nodes[i]
		}
	}
	out := make(map[string]string, len(to))
	for _, from := range slices.Sorted(maps.Keys(to)) {
		dst := to[from]
		if n := has[dst]; n != nil && has[from] != nil {
			if _, away := to[dst]; !away {
				rep.Problems = append(rep.Problems, Problem{Path: o.Path, Line: int(n.Span.Start.Line), Col: int(n.Span.Start.Col), Rule: "duplicate-id",
					Message: fmt.Sprintf("renames: %s → %s in %s collides with OLD's own node %s (rename that one too, or drop the entry); not applied", from, dst, id, dst)})
				continue
			}
		}
		out[from] = dst
	}
	return out
}

func (d *UnitDiff) add(c Change) {
	c.Fingerprint = Fingerprint(d.ID, c.Kind, c.Node, c.Where)
	d.Changes = append(d.Changes, c)
	d.Class = max(d.Class, c.Class)
}

func sideOf(value string, line, col int) *Side { return &Side{Value: value, Line: line, Col: col} }

// pairing is one pair of units being compared: the node renames and the lookups.
type pairing struct {
	o, n    *Unit
	to      map[string]string // OLD node id → NEW node id, renames only
	oldNode map[string]*Node
	newNode map[string]*Node
	back    map[string]string // NEW node id → OLD node id
	// touched are NEW nodes whose behaviour changed, with why (in-flight verdicts).
	touched map[string]string
	// unitChanged says why the unit's own values changed what every run does.
	unitChanged string
}

func (p *pairing) newID(old string) string {
	if to, ok := p.to[old]; ok {
		return to
	}
	return old
}

func (p *pairing) oldID(nw string) string {
	if b, ok := p.back[nw]; ok {
		return b
	}
	if _, renamed := p.to[nw]; renamed {
		return "" // the NEW id was an OLD node's that is now called something else
	}
	return nw
}

func compare(d *UnitDiff, o, n *Unit, renames map[string]string, opts sim.Options) {
	p := &pairing{o: o, n: n, to: renames, oldNode: map[string]*Node{}, newNode: map[string]*Node{}, back: map[string]string{}, touched: map[string]string{}}
	for i := range o.Nodes {
		if _, dup := p.oldNode[o.Nodes[i].ID]; !dup {
			p.oldNode[o.Nodes[i].ID] = &o.Nodes[i]
		}
	}
	for i := range n.Nodes {
		if _, dup := p.newNode[n.Nodes[i].ID]; !dup {
			p.newNode[n.Nodes[i].ID] = &n.Nodes[i]
		}
	}
	for from, to := range renames {
		p.back[to] = from
	}
	if p.newID(o.Entry) != n.Entry {
		d.add(Change{Kind: EntryChanged, Class: Breaking, Old: sideOf(o.Entry, 0, 0), New: sideOf(n.Entry, 0, 0)})
	}
	p.fields(d, "", o.Fields, n.Fields)
	p.nodes(d)
	p.edges(d)
	p.reads(d)
	p.paths(d, opts)
	d.Verdict, d.VersionNote = verdict(o, n, d.Class)
	p.inFlight(d)
	d.ReRun = p.reRuns()
}

func (p *pairing) nodes(d *UnitDiff) {
	for i := range p.o.Nodes {
		on := &p.o.Nodes[i]
		if p.oldNode[on.ID] != on {
			continue
		}
		id := p.newID(on.ID)
		nn := p.newNode[id]
		if nn == nil {
			d.add(Change{Kind: NodeRemoved, Class: Breaking, Node: on.ID, Old: sideOf(on.Type, int(on.Span.Start.Line), int(on.Span.Start.Col))})
			continue
		}
		if id != on.ID {
			d.add(Change{Kind: NodeRenamed, Class: Cosmetic, Node: id,
				Old: sideOf(on.ID, int(on.Span.Start.Line), int(on.Span.Start.Col)), New: sideOf(id, int(nn.Span.Start.Line), int(nn.Span.Start.Col))})
		}
		if on.Type != nn.Type {
			d.add(Change{Kind: NodeTypeChanged, Class: Breaking, Node: id,
				Old: sideOf(on.Type, int(on.Span.Start.Line), int(on.Span.Start.Col)), New: sideOf(nn.Type, int(nn.Span.Start.Line), int(nn.Span.Start.Col))})
			p.touched[id] = "its type changed"
		}
		p.fields(d, id, on.Fields, nn.Fields)
	}
	for i := range p.n.Nodes {
		nn := &p.n.Nodes[i]
		if p.newNode[nn.ID] != nn {
			continue
		}
		if old := p.oldID(nn.ID); old == "" || p.oldNode[old] == nil {
			d.add(Change{Kind: NodeAdded, Class: Feature, Node: nn.ID, New: sideOf(nn.Type, int(nn.Span.Start.Line), int(nn.Span.Start.Col))})
			p.touched[nn.ID] = "it is new"
		}
	}
}

// fields compares the fields of a node (node "") or of the unit.
func (p *pairing) fields(d *UnitDiff, node string, old, new []Field) {
	byPath := make(map[string]*Field, len(new))
	for i := range new {
		byPath[new[i].Path] = &new[i]
	}
	seen := map[string]bool{}
	touch := func(c Class, why string) {
		if c <= Cosmetic {
			return
		}
		if node == "" {
			if p.unitChanged == "" {
				p.unitChanged = why
			}
		} else if p.touched[node] == "" {
			p.touched[node] = why
		}
	}
	for i := range old {
		of := &old[i]
		seen[of.Path] = true
		nf := byPath[of.Path]
		if nf == nil {
			c := classOf(of.Class)
			d.add(Change{Kind: FieldRemoved, Class: c, Node: node, Where: of.Path, Old: sideOf(of.Value, int(of.Span.Start.Line), int(of.Span.Start.Col))})
			touch(c, of.Path+" was removed")
			continue
		}
		if of.Value == nf.Value {
			continue
		}
		c, why := classOf(nf.Class), ""
		if (nf.Class == LimitField || nf.Class == FloorField) && numbers(of.Value, nf.Value) {
			switch lower := tighter(of.Value, nf.Value); {
			case nf.Class == LimitField && lower:
				c, why = Breaking, "limit tightened"
			case nf.Class == LimitField:
				why = "limit loosened"
			case lower:
				why = "minimum lowered"
			default:
				c, why = Breaking, "minimum raised"
			}
		}
		d.add(Change{Kind: FieldChanged, Class: c, Node: node, Where: of.Path, Why: why,
			Old: sideOf(of.Value, int(of.Span.Start.Line), int(of.Span.Start.Col)), New: sideOf(nf.Value, int(nf.Span.Start.Line), int(nf.Span.Start.Col))})
		touch(c, of.Path+" changed")
	}
	for i := range new {
		nf := &new[i]
		if seen[nf.Path] {
			continue
		}
		c := classOf(nf.Class)
		d.add(Change{Kind: FieldAdded, Class: c, Node: node, Where: nf.Path, New: sideOf(nf.Value, int(nf.Span.Start.Line), int(nf.Span.Start.Col))})
		touch(c, nf.Path+" was added")
	}
}

// classOf is the class of adding, removing or changing a field of class fc; a limit's
// tightening is judged by the caller.
func classOf(fc FieldClass) Class {
	if fc == CosmeticField {
		return Cosmetic
	}
	return Feature
}

// tighter reports whether the limit new is lower than old; values that are not both
// numbers are never tighter.
func tighter(old, new string) bool {
	a, ok1 := new2rat(old)
	b, ok2 := new2rat(new)
	return ok1 && ok2 && b.Cmp(a) < 0
}

// numbers reports whether both values are numbers (a limit written as a duration is
// not compared: its change is a feature).
func numbers(a, b string) bool {
	_, ok1 := new2rat(a)
	_, ok2 := new2rat(b)
	return ok1 && ok2
}

func new2rat(s string) (*big.Rat, bool) { return new(big.Rat).SetString(s) }

// edgeKey names an edge by where it leaves from and its label.
type edgeKey struct{ from, label string }

func (p *pairing) edges(d *UnitDiff) {
	group := func(es []Edge, rename func(string) string) (map[edgeKey][]*Edge, []edgeKey) {
		m := map[edgeKey][]*Edge{}
		var order []edgeKey
		for i := range es {
			k := edgeKey{rename(es[i].From), es[i].Label}
			if _, ok := m[k]; !ok {
				order = append(order, k)
			}
			m[k] = append(m[k], &es[i])
		}
		return m, order
	}
	olds, oldOrder := group(p.o.Edges, p.newID)
	news, newOrder := group(p.n.Edges, func(s string) string { return s })
	// Edges of nodes added or removed are told by the node's own change.
	gone := func(from string) bool { return p.newNode[from] == nil }
	added := func(from string) bool {
		old := p.oldID(from)
		return old == "" || p.oldNode[old] == nil
	}
	where := func(k edgeKey) string { return k.label }
	for _, k := range oldOrder {
		if gone(k.from) {
			continue
		}
		oe, ne := olds[k], news[k]
		if len(oe) == 1 && len(ne) == 1 {
			if to := p.newID(oe[0].To); to != ne[0].To {
				d.add(Change{Kind: EdgeRetargeted, Class: Breaking, Node: k.from, Where: where(k),
					Old: sideOf(oe[0].To, int(oe[0].Span.Start.Line), int(oe[0].Span.Start.Col)), New: sideOf(ne[0].To, int(ne[0].Span.Start.Line), int(ne[0].Span.Start.Col))})
				p.touchEdge(k.from)
			}
			continue
		}
		for _, e := range oe {
			to := p.newID(e.To)
			if !slices.ContainsFunc(ne, func(x *Edge) bool { return x.To == to }) {
				d.add(Change{Kind: EdgeRemoved, Class: Breaking, Node: k.from, Where: where(k) + " " + to,
					Old: sideOf(e.To, int(e.Span.Start.Line), int(e.Span.Start.Col))})
				p.touchEdge(k.from)
			}
		}
	}
	for _, k := range newOrder {
		if added(k.from) {
			continue
		}
		oe, ne := olds[k], news[k]
		if len(oe) == 1 && len(ne) == 1 {
			continue // compared above
		}
		for _, e := range ne {
			if !slices.ContainsFunc(oe, func(x *Edge) bool { return p.newID(x.To) == e.To }) {
				w := where(k)
				if len(oe) > 0 || len(ne) > 1 {
					w += " " + e.To
				}
				d.add(Change{Kind: EdgeAdded, Class: Feature, Node: k.from, Where: w,
					New: sideOf(e.To, int(e.Span.Start.Line), int(e.Span.Start.Col))})
				p.touchEdge(k.from)
			}
		}
	}
}

func (p *pairing) touchEdge(from string) {
	if p.touched[from] == "" {
		p.touched[from] = "its routing changed"
	}
}

// reads finds the nodes of NEW that read an output no node before them produces, where
// OLD's node did not (it read the output and some node before it produced it, or did
// not read it).
func (p *pairing) reads(d *UnitDiff) {
	newMissing := unproduced(p.n)
	if len(newMissing) == 0 {
		return
	}
	oldMissing := unproduced(p.o)
	for i := range p.n.Nodes {
		nn := &p.n.Nodes[i]
		for _, r := range newMissing[nn.ID] {
			old := p.oldID(nn.ID)
			if on := p.oldNode[old]; on != nil && slices.Contains(oldMissing[old], r) {
				continue
			}
			d.add(Change{Kind: ReadUnproduced, Class: Breaking, Node: nn.ID, Where: r,
				New: sideOf(r, int(nn.Span.Start.Line), int(nn.Span.Start.Col))})
		}
	}
}

// unproduced lists, per node, what it reads that no node on a path to it produces.
func unproduced(u *Unit) map[string][]string {
	g := graphOf(u)
	out := map[string][]string{}
	for i := range u.Nodes {
		nd := &u.Nodes[i]
		if len(nd.Reads) == 0 {
			continue
		}
		for _, r := range nd.Reads {
			if !g.producedBefore(nd.ID, r) {
				out[nd.ID] = append(out[nd.ID], r)
			}
		}
	}
	return out
}

func (p *pairing) paths(d *UnitDiff, opts sim.Options) {
	if p.o.Paths == nil || p.n.Paths == nil {
		var notes []string
		for _, u := range []*Unit{p.o, p.n} {
			if u.Paths == nil && u.PathsNote != "" {
				notes = append(notes, u.PathsNote)
			}
		}
		d.PathsNote = strings.Join(notes, "; ")
		return
	}
	var same func(sim.Edge) sim.Edge
	if len(p.to) > 0 {
		same = func(e sim.Edge) sim.Edge {
			e.Node = p.newID(e.Node)
			return e
		}
	}
	kept, err := sim.Common(p.o.Paths, p.n.Paths, same, opts)
	if err != nil {
		d.PathsNote = "path counts not compared: " + err.Error()
		return
	}
	for _, s := range sim.Statuses() {
		pd := PathDelta{Status: s, Old: p.o.Paths.Counts.Of(s), New: p.n.Paths.Counts.Of(s), Kept: kept.Of(s)}
		pd.Lost = new(big.Int).Sub(pd.Old, pd.Kept)
		pd.Gained = new(big.Int).Sub(pd.New, pd.Kept)
		d.Paths = append(d.Paths, pd)
		if s != sim.Cut && pd.New.Cmp(pd.Old) < 0 {
			why := "fewer paths end " + s.String()
			if pd.New.Sign() == 0 {
				why = "no path ends " + s.String() + " any more"
			}
			d.add(Change{Kind: PathsLost, Class: Breaking, Where: s.String(), Why: why,
				Old: &Side{Value: pd.Old.String()}, New: &Side{Value: pd.New.String()}})
		}
	}
}
