package source

import "encoding/json"

// Kind is the JSON type of a value.
type Kind uint8

// The kinds of the JSON data model.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the JSON Schema name of the type.
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	case Object:
		return "object"
	}
	return "invalid"
}

// Node is a value together with the text it was read from.
type Node struct {
	Kind    Kind
	style   style    // how a YAML scalar was written, for StringPos
	Bool    bool     // Bool (beside Kind: one word for the three, not two)
	Span    Span     // the value's text; for a quoted string, including its quotes
	Text    string   // String: the decoded value; Number: a JSON number literal
	Items   []*Node  // Array
	Members []Member // Object, in source order, keys unique
}

// Member is one key and value of an object.
type Member struct {
	Key     string
	KeySpan Span
	Value   *Node
}

// style records how a YAML scalar was written. JSON strings need no record:
// there is only one way to write them.
type style uint8

const (
	stylePlain style = iota
	styleSingle
	styleDouble
	styleLiteral
	styleFolded
	styleCopy // produced by alias expansion: the text is elsewhere
)

// Member returns the member with the given key, or nil. It is nil-safe so
// that lookups can be chained.
func (n *Node) Member(key string) *Member {
	if n == nil {
		return nil
	}
	for i := range n.Members {
		if n.Members[i].Key == key {
			return &n.Members[i]
		}
	}
	return nil
}

// Entries returns the members of an object node, nil for anything else (nil-safe).
func (n *Node) Entries() []Member {
	if n == nil || n.Kind != Object {
		return nil
	}
	return n.Members
}

// Has reports whether n is an object holding every one of keys (nil-safe): how
// dialects recognise a document by its top-level keys.
func (n *Node) Has(keys ...string) bool {
	if n == nil || n.Kind != Object {
		return false
	}
	for _, k := range keys {
		if n.Member(k) == nil {
			return false
		}
	}
	return true
}

// Get returns the value of the member with the given key, or nil.
func (n *Node) Get(key string) *Node {
	if m := n.Member(key); m != nil {
		return m.Value
	}
	return nil
}

// Index returns item i of an array, or nil.
func (n *Node) Index(i int) *Node {
	if n == nil || i < 0 || i >= len(n.Items) {
		return nil
	}
	return n.Items[i]
}

// Str returns the value of a string node.
func (n *Node) Str() (string, bool) {
	if n == nil || n.Kind != String {
		return "", false
	}
	return n.Text, true
}

// Value returns the value in the shape encoding/json produces with
// Decoder.UseNumber: nil, bool, json.Number, string, []any, map[string]any.
// JSON Schema validators and canonicalisers accept exactly that shape.
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Bool
	case Number:
		return json.Number(n.Text)
	case String:
		return n.Text
	case Array:
		out := make([]any, len(n.Items))
		for i, item := range n.Items {
			out[i] = item.Value()
		}
		return out
	case Object:
		out := make(map[string]any, len(n.Members))
		for _, m := range n.Members {
			out[m.Key] = m.Value.Value()
		}
		return out
	}
	return nil
}

// walkScalars calls key for every member of every object and scalar for every value
// that is neither an array nor an object, in document order.
func walkScalars(n *Node, key func(m Member), scalar func(n *Node)) {
	switch n.Kind {
	case Array:
		for _, it := range n.Items {
			walkScalars(it, key, scalar)
		}
	case Object:
		for _, m := range n.Members {
			key(m)
			walkScalars(m.Value, key, scalar)
		}
	default:
		scalar(n)
	}
}
