package canonical

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/dwsdev/dws/source"
)

// ChecksumNode is Checksum(root.Value()), written from the parsed document itself:
// without the value tree, which is built for nothing else when the file is valid. A
// parsed document is UTF-8 throughout and nested at most source's limit deep, which
// Checksum's check would otherwise verify.
func ChecksumNode(root *source.Node) (string, error) {
	h := sha256.New()
	w := writers.Get().(*bufio.Writer)
	w.Reset(h)
	defer func() {
		w.Reset(nil)
		writers.Put(w)
	}()
	stack := stacks.Get().(*[]member)
	defer func() {
		*stack = (*stack)[:0]
		stacks.Put(stack)
	}()
	if err := writeNode(w, root, true, stack); err != nil {
		return "", fmt.Errorf("canonicalising: %w", err)
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("canonicalising: %w", err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// stacks hold the members of the objects being written, outermost first: each object
// sorts its own members at the top of the stack and pops them when written.
var stacks = sync.Pool{New: func() any { return new([]member) }}

// writeNode writes n's canonical bytes; at the root, without the signature property.
func writeNode(w *bufio.Writer, n *source.Node, root bool, stack *[]member) error {
	if n == nil {
		_, err := w.WriteString("null")
		return err
	}
	switch n.Kind {
	case source.Bool:
		s := "false"
		if n.Bool {
			s = "true"
		}
		_, err := w.WriteString(s)
		return err
	case source.Number:
		return writeNumber(w, n.Text)
	case source.String:
		return writeString(w, n.Text)
	case source.Array:
		return writeArray(w, len(n.Items), func(i int) error { return writeNode(w, n.Items[i], false, stack) })
	case source.Object:
		mark := len(*stack)
		for i, m := range n.Members {
			if root && m.Key == SignatureProperty {
				continue
			}
			*stack = append(*stack, member{key: m.Key, at: i})
		}
		// Members pushed above these (by the values' own objects) may move the
		// stack; these stay where they are in the array they were written to.
		members := (*stack)[mark:len(*stack):len(*stack)]
		err := writeObject(w, members, func(m member) error { return writeNode(w, n.Members[m.at].Value, false, stack) })
		*stack = (*stack)[:mark]
		return err
	}
	_, err := w.WriteString("null")
	return err
}
