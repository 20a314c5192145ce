package change

import (
	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/source"
)

// Entry is the lockfile's published entry of u, read from doc (dws checksum --publish):
// the canonical checksum of the unit's part of the file (all of it for a one-unit file,
// without its signature) and each node's own hash. path is where it was published
// from, as the lockfile records it.
func Entry(doc *source.Document, u *Unit, path string) (canonical.Published, error) {
	n := doc.Root
	if u.Pointer != "" {
		n = doc.Lookup(u.Pointer)
	}
	sum, err := canonical.ChecksumNode(n)
	if err != nil {
		return canonical.Published{}, err
	}
	p := canonical.Published{Checksum: sum, Nodes: map[string]string{}, Path: path}
	for _, h := range Hashes(u) {
		p.Nodes[h.Node] = h.Own
	}
	return p, nil
}

// Publishable reports whether u can be published: it has a version scheme and a version.
func Publishable(u *Unit) bool { return u.Scheme != None && u.Version != "" }
