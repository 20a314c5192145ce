package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// node is a parsed schema document that keeps object members in document order
// (encoding/json maps do not), so "allowed: id, type, …" reads as the schema is written.
type node struct {
	keys []string         // object member names, in order
	obj  map[string]*node // object members; nil unless an object
	arr  []*node          // array elements; nil unless an array
	val  any              // scalar: nil, bool, json.Number, string
}

func parseNode(src []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	n, err := decodeNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, fmt.Errorf("unexpected data after the top-level value")
	}
	return n, nil
}

func decodeNode(dec *json.Decoder) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &node{obj: map[string]*node{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k := kt.(string)
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				if _, dup := n.obj[k]; !dup {
					n.keys = append(n.keys, k)
				}
				n.obj[k] = v
			}
			_, err := dec.Token()
			return n, err
		case '[':
			n := &node{arr: []*node{}}
			for dec.More() {
				v, err := decodeNode(dec)
				if err != nil {
					return nil, err
				}
				n.arr = append(n.arr, v)
			}
			_, err := dec.Token()
			return n, err
		}
		return nil, fmt.Errorf("unexpected %v", t)
	default:
		return &node{val: t}, nil
	}
}

// get returns an object member; nil when n is nil, not an object, or lacks the member.
func (n *node) get(key string) *node {
	if n == nil || n.obj == nil {
		return nil
	}
	return n.obj[key]
}

// at follows unescaped JSON Pointer segments (object members or array indexes).
func (n *node) at(segs []string) *node {
	for _, s := range segs {
		if n == nil {
			return nil
		}
		if n.arr != nil {
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(n.arr) {
				return nil
			}
			n = n.arr[i]
			continue
		}
		n = n.get(s)
	}
	return n
}

func (n *node) str() (string, bool) {
	if n == nil {
		return "", false
	}
	s, ok := n.val.(string)
	return s, ok
}

// strs returns a string or an array of strings as a list (the two shapes of "type").
func (n *node) strs() []string {
	if s, ok := n.str(); ok {
		return []string{s}
	}
	if n == nil {
		return nil
	}
	var out []string
	for _, e := range n.arr {
		if s, ok := e.str(); ok {
			out = append(out, s)
		}
	}
	return out
}

// text renders a schema value for a message: strings bare when bare is set, else as JSON.
func (n *node) text(bare bool) string {
	if n == nil {
		return ""
	}
	if s, ok := n.val.(string); ok && bare {
		return s
	}
	if n.obj != nil || n.arr != nil {
		b, _ := json.Marshal(n.plain())
		return string(b)
	}
	b, _ := json.Marshal(n.val)
	return string(b)
}

func (n *node) plain() any {
	switch {
	case n.obj != nil:
		m := make(map[string]any, len(n.obj))
		for k, v := range n.obj {
			m[k] = v.plain()
		}
		return m
	case n.arr != nil:
		a := make([]any, len(n.arr))
		for i, v := range n.arr {
			a[i] = v.plain()
		}
		return a
	}
	return n.val
}
