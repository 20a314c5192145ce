package canonical

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"github.com/dwsdev/dws/internal/flock"
	"github.com/dwsdev/dws/source"
)

// Published is one published version of a unit in the lockfile's published section:
//
//	"published": {
//	  "cortex:expense@v1.4": {
//	    "checksum": "sha256:…",
//	    "nodes": { "fraud-score": "sha256:…" },
//	    "path": "flows/expense.json"
//	  }
//	}
//
// Checksum is the canonical checksum of the unit's own part of its file (the whole file
// for a one-unit file), Nodes each node's own hash, Path where it was published from
// (relative to the lockfile, for people: a unit is known by its id, not its path). An
// entry, once written, is never changed (UpdatePublished).
type Published struct {
	Checksum string            `json:"checksum"`
	Nodes    map[string]string `json:"nodes"`
	Path     string            `json:"path"`
}

// Equal reports whether two entries record the same content (the path aside: a unit
// published from one file and moved to another is still the same version).
func (p Published) Equal(q Published) bool {
	return p.Checksum == q.Checksum && maps.Equal(p.Nodes, q.Nodes)
}

func parsePublished(n *source.Node) (map[string]Published, error) {
	if n.Kind != source.Object {
		return nil, errors.New(`not a lockfile: "published" is not an object`)
	}
	out := make(map[string]Published, len(n.Members))
	for _, m := range n.Members {
		e := m.Value
		if e.Kind != source.Object {
			return nil, fmt.Errorf("not a lockfile: published %q: want an object {checksum, nodes, path}", m.Key)
		}
		var p Published
		for _, f := range e.Members {
			switch f.Key {
			case "checksum", "path":
				// A value that is no string would be read as "", and the next write
				// would put "" in an entry that never changes.
				v, ok := f.Value.Str()
				if !ok {
					return nil, fmt.Errorf("not a lockfile: published %q: %s is not a string", m.Key, f.Key)
				}
				if f.Key == "checksum" {
					p.Checksum = v
				} else {
					p.Path = v
				}
			case "nodes":
				if f.Value.Kind != source.Object {
					return nil, fmt.Errorf("not a lockfile: published %q: nodes is not an object", m.Key)
				}
				p.Nodes = map[string]string{}
				for _, nm := range f.Value.Members {
					h, ok := nm.Value.Str()
					if !ok {
						return nil, fmt.Errorf("not a lockfile: published %q: node %q: want a hash string", m.Key, nm.Key)
					}
					p.Nodes[nm.Key] = h
				}
			default:
				return nil, fmt.Errorf("not a lockfile: published %q: unknown key %q (want checksum, nodes, path)", m.Key, f.Key)
			}
		}
		if p.Nodes == nil {
			p.Nodes = map[string]string{}
		}
		out[m.Key] = p
	}
	if err := checkPublished(out); err != nil {
		return nil, err
	}
	return out, nil
}

// checkPublished reports the first bad entry in key order.
func checkPublished(pub map[string]Published) error {
	for _, k := range slices.Sorted(maps.Keys(pub)) {
		p := pub[k]
		if !strings.Contains(k, "@") || !strings.Contains(k, ":") {
			return fmt.Errorf("published entry %q: want a key unit@version", k)
		}
		if !validSum(p.Checksum) {
			return fmt.Errorf("published entry %q: %q is not a checksum (want sha256: and 64 lower-case hex digits)", k, p.Checksum)
		}
		for _, id := range slices.Sorted(maps.Keys(p.Nodes)) {
			if !validSum(p.Nodes[id]) {
				return fmt.Errorf("published entry %q: node %q: %q is not a hash", k, id, p.Nodes[id])
			}
		}
	}
	return nil
}

// Conflict is a published entry that a write would have changed: the version was
// published with other content.
type Conflict struct {
	Key      string
	Old, New Published
}

// UpdatePublished adds entries to the published section of the lockfile at path,
// creating the lockfile if it does not exist, under the same lock as UpdateLock. An
// entry already there with the same content is left as it is (its path too); one with
// other content is a Conflict, and then nothing is written at all: a published version
// never changes. It returns the keys it added.
func UpdatePublished(path string, entries map[string]Published) (added []string, conflicts []Conflict, err error) {
	if err := checkPublished(entries); err != nil {
		return nil, nil, fmt.Errorf("updating lockfile %s: %w", path, err)
	}
	unlock, err := flock.Path(path)
	if err != nil {
		return nil, nil, fmt.Errorf("locking %s: %w", path, pathless(err))
	}
	defer unlock()

	l, err := ReadLock(path)
	if errors.Is(err, fs.ErrNotExist) {
		l, err = &Lock{Files: map[string]string{}}, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("updating lockfile: %w", err)
	}
	if l.Published == nil {
		l.Published = map[string]Published{}
	}
	for _, k := range slices.Sorted(maps.Keys(entries)) {
		e := entries[k]
		old, ok := l.Published[k]
		switch {
		case !ok:
			added = append(added, k)
		case !old.Equal(e):
			conflicts = append(conflicts, Conflict{Key: k, Old: old, New: e})
		}
	}
	if len(conflicts) > 0 || len(added) == 0 {
		return added[:0:0], conflicts, nil
	}
	for _, k := range added {
		l.Published[k] = entries[k]
	}
	return added, nil, WriteLock(path, l)
}
