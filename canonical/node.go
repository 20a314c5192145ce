package canonical

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

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
	if err := writeNode(w, root, true); err != nil {
		return "", fmt.Errorf("canonicalising: %w", err)
	}
	if err := w.Flush(); err != nil {
		return "", fmt.Errorf("canonicalising: %w", err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// writeNode writes n's canonical bytes; at the root, without the signature property.
func writeNode(w *bufio.Writer, n *source.Node, root bool) error {
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
		return writeArray(w, len(n.Items), func(i int) error { return writeNode(w, n.Items[i], false) })
	case source.Object:
		members := make([]member, 0, len(n.Members))
		for i, m := range n.Members {
			if root && m.Key == SignatureProperty {
				continue
			}
			members = append(members, member{key: m.Key, at: i})
		}
		return writeObject(w, members, func(m member) error { return writeNode(w, n.Members[m.at].Value, false) })
	}
	_, err := w.WriteString("null")
	return err
}
