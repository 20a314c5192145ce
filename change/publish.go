package change

import (
	"slices"
	"strings"

	"github.com/dwsdev/dws/canonical"
	"github.com/dwsdev/dws/source"
)

// Entry is the lockfile's published entry of u, read from doc (dws checksum --publish):
// the canonical checksum of the unit's part of the file (all of it for a one-unit file,
// without its signature), each node's own hash and, for a unit that is part of a file,
// the hash of its own values under UnitKey. path is where it was published from, as the
// lockfile records it.
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
	if u.Pointer != "" {
		// A unit that is part of a file can depend on values outside its part (a DireClaw
		// workflow on its orchestrator's settings): they are recorded too.
		p.Nodes[UnitKey] = fieldsHash(u)
	}
	return p, nil
}

// UnitKey is the key under which a published entry records the hash of the unit's own
// values, for a unit that is part of a file; no dialect's node id starts with #.
const UnitKey = "#unit"

// fieldsHash is the hash of all the unit's own values, cosmetic ones included.
func fieldsHash(u *Unit) string {
	fs := slices.Clone(u.Fields)
	slices.SortFunc(fs, func(a, b Field) int { return strings.Compare(a.Path, b.Path) })
	parts := []string{"unit-values"}
	for _, f := range fs {
		parts = append(parts, f.Path, f.Value)
	}
	return sum(parts...)
}

// Publishable reports whether u can be published: it has a version scheme and a version.
func Publishable(u *Unit) bool { return u.Scheme != None && u.Version != "" }
