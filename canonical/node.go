package canonical

import (
	"fmt"
	"sync"

	"github.com/dwsdev/dws/source"
)

// ChecksumNode returns "sha256:" and the 64 lower-case hex digits of the SHA-256 of
// Bytes(root.Value()), written from the parsed document itself: without the value tree,
// which is built for nothing else when the file is valid. A parsed document is UTF-8
// throughout and nested at most source's limit deep, which Bytes's check would
// otherwise verify.
func ChecksumNode(root *source.Node) (string, error) {
	stack := stacks.Get().(*[]member)
	defer func() {
		*stack = (*stack)[:0]
		stacks.Put(stack)
	}()
	return withBuffer(func(buf *[]byte) (string, error) {
		var err error
		if *buf, err = appendNode(*buf, root, true, stack); err != nil {
			return "", fmt.Errorf("canonicalising: %w", err)
		}
		return canonicalSum(*buf), nil
	})
}

// stacks hold the members of the objects being written, outermost first: each object
// sorts its own members at the top of the stack and pops them when written.
var stacks = sync.Pool{New: func() any { return new([]member) }}

// appendNode appends n's canonical bytes to b; at the root, without the signature
// property.
func appendNode(b []byte, n *source.Node, root bool, stack *[]member) ([]byte, error) {
	if n == nil {
		return append(b, "null"...), nil
	}
	var err error
	switch n.Kind {
	case source.Bool:
		if n.Bool {
			return append(b, "true"...), nil
		}
		return append(b, "false"...), nil
	case source.Number:
		return appendNumber(b, n.Text)
	case source.String:
		return appendString(b, n.Text), nil
	case source.Array:
		b = append(b, '[')
		for i, e := range n.Items {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendNode(b, e, false, stack); err != nil {
				return b, err
			}
		}
		return append(b, ']'), nil
	case source.Object:
		mark := len(*stack)
		for i, m := range n.Members {
			if root && m.Key == SignatureProperty {
				continue
			}
			*stack = append(*stack, member{key: m.Key, at: i})
		}
		// Members pushed above these (by the values' own objects) may move the
		// stack: these are read by index, not through a slice of the old array.
		sortMembers((*stack)[mark:])
		b = append(b, '{')
		for i := mark; i < len(*stack); i++ {
			if i > mark {
				b = append(b, ',')
			}
			m := (*stack)[i]
			b = append(appendString(b, m.key), ':')
			if b, err = appendNode(b, n.Members[m.at].Value, false, stack); err != nil {
				return b, err
			}
		}
		*stack = (*stack)[:mark]
		return append(b, '}'), nil
	}
	return append(b, "null"...), nil
}
