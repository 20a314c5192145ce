package change

import (
	"slices"
	"strconv"
	"strings"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/sim"
	"github.com/dwsdev/dws/source"
)

// Unit is one versioned definition as its dialect describes it: what the diff engine
// compares. The dialect fills every field but Path and Paths, which the caller sets.
type Unit struct {
	// Kind and Name make the unit's id, Kind:Name ("cortex:expense",
	// "direclaw:engineering/fix-bug").
	Kind, Name string
	// Version is the version as written ("v1.2", "1.4.0", "3"); "" when the unit has
	// none (Scheme None) or the file does not give one.
	Version string
	Scheme  Scheme
	// VersionSpan is where the version is written (zero when it is not).
	VersionSpan source.Span
	// Pointer is where the unit lies in its file ("" for the whole file), as the
	// simulator's definitions name it.
	Pointer string
	// Span is where the unit starts (its id or name), for unit-level findings.
	Span source.Span
	// Entry is the node a run starts at; "" when the unit has several roots.
	Entry string
	Nodes []Node
	// Edges are the routing references between nodes; an edge that ends the run (a
	// route that is null) is no edge.
	Edges []Edge
	// Fields are the unit's own values: everything of its canonical form outside its
	// nodes.
	Fields []Field

	// Path is the file the unit was read from, as shown to the user (set by the caller).
	Path string
	// Paths is the simulator's exploration of the unit (set by the caller); nil when it
	// was not simulated. PathsNote says why, when it was tried and failed.
	Paths     *sim.Result
	PathsNote string
}

// ID is the unit's id without its version: what OLD and NEW are paired by.
func (u *Unit) ID() string { return u.Kind + ":" + u.Name }

// Ref is the unit's id with its version, as SPEC §17 writes it (cortex:expense@v1.2).
func (u *Unit) Ref() string {
	if u.Version == "" {
		return u.ID()
	}
	return u.ID() + "@" + u.Version
}

// Node is one step, phase or task.
type Node struct {
	ID string
	// Type is what the node does, in the dialect's words (a step's or a phase's kind); a
	// changed type is breaking.
	Type string
	Span source.Span // where its id is written
	// Fields are its values but for its id, its type and its routing fields, each
	// classified by the dialect.
	Fields []Field
	// Reads are the outputs of other nodes it reads; Produces the outputs it makes.
	// Names are the dialect's, compared as written ("steps.plan.outputs.summary").
	Reads, Produces []string
	// Persist says a run can be persisted (paused, resumed) at this node: the position
	// in-flight compatibility is judged at.
	Persist bool
	// Exit says a run may finish at this node.
	Exit bool
}

// Edge is one routing reference.
type Edge struct {
	From, To string
	// Label is the routing field or outcome, as the dialect names it; an edge is
	// known by From and Label.
	Label string
	Span  source.Span
}

// Field is one value of a node or unit: a scalar, an array of anything but objects
// only, or an empty object. An object is split into its members and an array of
// objects by index.
type Field struct {
	// Path is the JSON Pointer of the value below its node or unit ("/params/sql").
	Path string
	// Value is its canonical JSON (RFC 8785).
	Value string
	Class FieldClass
	Span  source.Span
}

// FieldClass is what a change of a field is worth.
type FieldClass uint8

// The field classes: a cosmetic field (a description, a tag), a field whose change is a
// feature (a prompt, a model, SQL), a limit (a bound, whose lowering is breaking and
// raising a feature) and a floor (a minimum, whose raising is breaking and lowering a
// feature).
const (
	FeatureField FieldClass = iota
	CosmeticField
	LimitField
	FloorField
)

// Scheme is how a unit's versions are written and compared.
type Scheme uint8

// The version schemes of SPEC §17.
const (
	// None: the unit has no version (an ensemble); only checksum checks apply.
	None Scheme = iota
	// Cortex: vMAJOR.MINOR.
	Cortex
	// Semver: MAJOR.MINOR.PATCH (DWS).
	Semver
	// Integer: 1, 2, 3 (DireClaw).
	Integer
)

// FieldsOf flattens the object obj into fields: an object's members recursively, any
// other value (arrays included) as one field. A value whose path skip accepts is left
// out, with all below it; classify gives each field's class by its path.
func FieldsOf(obj *source.Node, skip func(path string) bool, classify func(path string) FieldClass) []Field {
	var out []Field
	var walk func(n *source.Node, path string)
	walk = func(n *source.Node, path string) {
		if path != "" && skip != nil && skip(path) {
			return
		}
		if n.Kind == source.Object && len(n.Members) > 0 {
			for _, m := range n.Members {
				walk(m.Value, path+"/"+source.EscapeToken(m.Key))
			}
			return
		}
		if objects(n) {
			for i, it := range n.Items {
				walk(it, path+"/"+strconv.Itoa(i))
			}
			return
		}
		if path == "" {
			return
		}
		b, err := canonical.Bytes(n.Value())
		if err != nil {
			b = []byte(n.Text)
		}
		f := Field{Path: path, Value: string(b), Span: n.Span}
		if classify != nil {
			f.Class = classify(path)
		}
		out = append(out, f)
	}
	if obj != nil && obj.Kind == source.Object {
		walk(obj, "")
	}
	return out
}

// objects reports whether n is a non-empty array of objects only: such an array is
// split by index (a list of branches, of conditions), one of scalars is one value (tags,
// outputs).
func objects(n *source.Node) bool {
	if n.Kind != source.Array || len(n.Items) == 0 {
		return false
	}
	for _, it := range n.Items {
		if it.Kind != source.Object {
			return false
		}
	}
	return true
}

// Keys is a skip function for FieldsOf that leaves out these top-level members.
func Keys(keys ...string) func(path string) bool {
	return func(path string) bool {
		tok, ok := strings.CutPrefix(path, "/")
		if !ok || strings.Contains(tok, "/") {
			return false
		}
		tok, _ = source.UnescapeToken(tok)
		return slices.Contains(keys, tok)
	}
}

// Leaf is the last token of a field path ("/params/sql" → "sql").
func Leaf(path string) string {
	i := strings.LastIndexByte(path, '/')
	tok, _ := source.UnescapeToken(path[i+1:])
	return tok
}
