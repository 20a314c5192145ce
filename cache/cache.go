// Package cache remembers which files dws validate found clean, so that a run over
// an unchanged repository reads and hashes each file and checks nothing.
//
// A cache is one index file per scope: the scope is everything besides a file's
// bytes that decides what a run finds in it (the dws build, the config and every
// file it names, the forced dialect), hashed by the caller. Within a scope an entry
// is keyed by the file's path and bytes, and holds what a clean file's result is:
// its dialect and checksum. Only clean files are remembered (no finding, no inline
// ignore): a file with findings is checked again on every run, so its report, its
// source lines and what its waivers match are always today's.
//
// Writes are atomic (a temporary file renamed over the index), so a reader never
// sees half an index, whatever other processes do; writers of one scope take turns
// under a lock beside the index, each merging what the others wrote. An index keeps at most MaxEntries entries, the most recently used, and
// the directory at most MaxBytes of indexes, the most recently written.
//
// It knows nothing about definitions, rules or reports.
package cache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dwsdev/dws/internal/flock"
)

// Bounds of a cache directory.
const (
	MaxEntries = 200_000  // per index: about 25 MB
	MaxBytes   = 64 << 20 // all indexes of a directory together
)

// maxEntries is MaxEntries, lowered by tests.
var maxEntries = MaxEntries

// magic opens every index; a file that does not start with it is no index (and is
// read as empty).
const magic = "dws-cache 1\n"

// Key is the SHA-256 of the parts that identify an entry or a scope.
type Key [32]byte

// KeyOf hashes parts, each length-prefixed so that no two lists of parts collide.
func KeyOf(parts ...[]byte) Key {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	var k Key
	h.Sum(k[:0])
	return k
}

// Entry is what a clean file's result is.
type Entry struct {
	Dialect  string
	Checksum string
}

type record struct {
	Entry
	used int64 // unix seconds of the last run that read or wrote it
}

// Cache is one scope of a cache directory, open for one run. Its methods are safe
// for concurrent use.
type Cache struct {
	dir, path string
	now       int64

	mu      sync.Mutex
	entries map[Key]record
	changed bool
}

// Open opens the scope of dir that scope identifies, reading its index. A missing or
// unreadable index is an empty one: a cache can only make a run faster.
func Open(dir string, scope Key) *Cache {
	c := &Cache{
		dir:     dir,
		path:    filepath.Join(dir, hex.EncodeToString(scope[:16])+".idx"),
		now:     time.Now().Unix(),
		entries: map[Key]record{},
	}
	if data, err := os.ReadFile(c.path); err == nil {
		c.entries = decode(data)
	}
	return c
}

// Get returns the entry under k.
func (c *Cache) Get(k Key) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.entries[k]
	if ok && r.used != c.now {
		r.used = c.now
		c.entries[k] = r
		// Marking use only matters once it could change what eviction keeps.
		if len(c.entries) >= maxEntries {
			c.changed = true
		}
	}
	return r.Entry, ok
}

// Put records e under k.
func (c *Cache) Put(k Key, e Entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[k]; ok && old.Entry == e {
		return
	}
	c.entries[k] = record{Entry: e, used: c.now}
	c.changed = true
}

// Close writes the index if the run changed it, then trims the directory to
// MaxBytes. Its error is for the caller to mention, never to fail a run with.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.changed {
		return nil
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	// Writers of one scope take turns, each merging what the others wrote.
	unlock, err := flock.Lock(c.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	// What another process wrote since Open stays, unless this run has the key too.
	if data, err := os.ReadFile(c.path); err == nil {
		for k, r := range decode(data) {
			if _, ok := c.entries[k]; !ok {
				c.entries[k] = r
			}
		}
	}
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 64<<10)
	werr := encode(w, c.entries)
	if werr == nil {
		werr = w.Flush()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), c.path)
	}
	if werr != nil {
		os.Remove(tmp.Name()) //nolint:errcheck // the write already failed
		return werr
	}
	c.changed = false
	return trim(c.dir, c.path)
}

// encode writes the MaxEntries most recently used entries, newest first, keys
// breaking ties so that the bytes do not depend on map order.
func encode(w io.Writer, entries map[Key]record) error {
	keys := make([]Key, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		if ua, ub := entries[a].used, entries[b].used; ua != ub {
			if ua > ub {
				return -1
			}
			return 1
		}
		return bytes.Compare(a[:], b[:])
	})
	if len(keys) > maxEntries {
		keys = keys[:maxEntries]
	}
	var buf []byte
	buf = append(buf, magic...)
	for _, k := range keys {
		r := entries[k]
		buf = append(buf, k[:]...)
		buf = binary.AppendVarint(buf, r.used)
		buf = binary.AppendUvarint(buf, uint64(len(r.Dialect)))
		buf = append(buf, r.Dialect...)
		buf = binary.AppendUvarint(buf, uint64(len(r.Checksum)))
		buf = append(buf, r.Checksum...)
		if len(buf) > 32<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

var errCorrupt = errors.New("corrupt cache index")

// decode reads an index; from a damaged one it keeps the entries before the damage.
func decode(data []byte) map[Key]record {
	entries := map[Key]record{}
	if !bytes.HasPrefix(data, []byte(magic)) {
		return entries
	}
	data = data[len(magic):]
	str := func() (string, error) {
		n, w := binary.Uvarint(data)
		if w <= 0 || n > uint64(len(data)-w) {
			return "", errCorrupt
		}
		s := string(data[w : w+int(n)])
		data = data[w+int(n):]
		return s, nil
	}
	for len(data) > 0 {
		if len(data) < len(Key{}) {
			break
		}
		var k Key
		copy(k[:], data)
		data = data[len(k):]
		used, w := binary.Varint(data)
		if w <= 0 {
			break
		}
		data = data[w:]
		d, err := str()
		if err != nil {
			break
		}
		sum, err := str()
		if err != nil {
			break
		}
		entries[k] = record{Entry: Entry{Dialect: d, Checksum: sum}, used: used}
	}
	return entries
}

// trim removes the least recently written indexes of dir until they take MaxBytes
// or less, never keep (the one just written), and any temporary file a killed
// process left over an hour ago.
func trim(dir, keep string) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type file struct {
		path string
		size int64
		mod  time.Time
	}
	var files []file
	var total int64
	for _, de := range des {
		info, err := de.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(dir, de.Name())
		switch {
		case strings.HasPrefix(de.Name(), ".tmp-"):
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p) //nolint:errcheck // another run may have taken it
			}
		case strings.HasSuffix(de.Name(), ".idx.lock"):
			// Kept beside a live index (deleting it would let two writers lock two
			// files); removed with a trimmed one.
			if _, err := os.Stat(strings.TrimSuffix(p, ".lock")); errors.Is(err, os.ErrNotExist) {
				os.Remove(p) //nolint:errcheck // another run may have taken it
			}
		case strings.HasSuffix(de.Name(), ".idx"):
			files = append(files, file{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
	}
	slices.SortFunc(files, func(a, b file) int { return a.mod.Compare(b.mod) })
	for _, f := range files {
		if total <= MaxBytes {
			break
		}
		if f.path == keep {
			continue
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, os.ErrNotExist) {
			total -= f.size
		}
	}
	return nil
}
