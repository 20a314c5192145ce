package canonical

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

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
		if err := w.WriteByte('['); err != nil {
			return err
		}
		for i, it := range n.Items {
			if i > 0 {
				if err := w.WriteByte(','); err != nil {
					return err
				}
			}
			if err := writeNode(w, it, false); err != nil {
				return err
			}
		}
		return w.WriteByte(']')
	case source.Object:
		members := make([]*source.Member, 0, len(n.Members))
		for i := range n.Members {
			if root && n.Members[i].Key == SignatureProperty {
				continue
			}
			members = append(members, &n.Members[i])
		}
		slices.SortFunc(members, func(a, b *source.Member) int { return compareUTF16(a.Key, b.Key) })
		if err := w.WriteByte('{'); err != nil {
			return err
		}
		for i, m := range members {
			if i > 0 {
				if err := w.WriteByte(','); err != nil {
					return err
				}
			}
			if err := writeString(w, m.Key); err != nil {
				return err
			}
			if err := w.WriteByte(':'); err != nil {
				return err
			}
			if err := writeNode(w, m.Value, false); err != nil {
				return err
			}
		}
		return w.WriteByte('}')
	}
	_, err := w.WriteString("null")
	return err
}
