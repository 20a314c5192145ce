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
// A file whose metadata (device, inode, size, modification and status-change times)
// is what it was when its bytes were last found clean is taken as unchanged without
// being read: the stamp is kept with the entry, as git's index and ccache keep
// theirs. A status-change time cannot be set by a program, and every write moves
// it; a stamp is only kept when both times are RacyWindow older than the run that
// saw them, so that a second write in the same tick of the file system's clock
// cannot leave the stamp as it was. A fresh checkout (CI) has new times throughout:
// there, every file is read and hashed.
//
// Writes are atomic (a temporary file renamed over the index), so a reader never
// sees half an index, whatever other processes do; writers of one scope take turns
// under a lock beside the index, each merging what the others wrote. An index keeps
// at most MaxEntries entries, the most recently used, and the directory at most
// MaxBytes of indexes, the most recently written.
//
// An index is believed without checking it again, and its entries are SHA-256 sums
// of nothing secret: whoever can write it can make a file with errors pass. So a
// cache is only the user's own. The directory is created 0700; one that exists and
// is not the user's own (owned by another user, or writable by its group or others,
// as source.Private says; a link to a directory is followed and the directory
// checked) is not used at all, and an index that is not the user's own regular file
// is not read (source.ReadPrivate: no link, no pipe, no device, bounded), and is
// replaced when the run writes. Refused tells the caller which, once. An index
// damaged anywhere reads as empty. Trimming deletes only the files a cache writes
// (named as dwsFile names them, the user's own, an index starting as one does),
// since the directory may be one the user named and keeps other files in.
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
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dwsdev/dws/internal/flock"
	"github.com/dwsdev/dws/source"
)

// Bounds of a cache directory.
const (
	MaxEntries = 200_000  // per index: about 25 MB
	MaxBytes   = 64 << 20 // all indexes of a directory together
)

// maxEntries is MaxEntries, lowered by tests.
var maxEntries = MaxEntries

// maxIndexBytes bounds the read of an index: one index never takes more than the
// directory may hold.
const maxIndexBytes = MaxBytes

// magic opens every index; a file that does not start with it is no index (and is
// read as empty).
const magic = "dws-cache 3\n"

// RacyWindow is how much older than the run a file's times must be for its stamp to
// be kept: far more than any file system clock's tick.
var RacyWindow = 2 * time.Second

// Stamp is what a file's metadata says of its bytes.
type Stamp struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since 1970
}

type stampRecord struct {
	Stamp
	key  Key // the entry of the bytes the file had
	used int64
}

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
	opened    time.Time

	mu      sync.Mutex
	entries map[Key]record
	stamps  map[string]stampRecord // by absolute path
	changed bool
	off     bool  // the directory is refused: nothing is read or written
	refused error // the first reason something was not used, for Refused
}

// Open opens the scope of dir that scope identifies, reading its index. A missing,
// damaged or refused index is an empty one: a cache can only make a run faster. A
// directory that is not the user's own (Private) is not used at all; Refused says so.
func Open(dir string, scope Key) *Cache {
	c := &Cache{
		dir:     dir,
		path:    filepath.Join(dir, hex.EncodeToString(scope[:16])+indexSuffix),
		opened:  time.Now(),
		entries: map[Key]record{},
		stamps:  map[string]stampRecord{},
	}
	c.now = c.opened.Unix()
	switch there, err := checkDir(dir); {
	case err != nil:
		c.off = true
		c.refuse(err)
	case there:
		c.entries, c.stamps = c.read()
	}
	return c
}

// Refused returns why the run did not use the cache's directory or index ("cache
// not used: …", "cache index not read: …"), the first reason only, or nil: for the
// caller to say once.
func (c *Cache) Refused() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refused
}

func (c *Cache) refuse(err error) {
	if c.refused == nil {
		c.refused = err
	}
}

// checkDir says whether dir is a directory there to read, and refuses one that is
// not the user's own. What is not there (or no directory) is for Close to create,
// or to fail to.
func checkDir(dir string) (there bool, refused error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false, nil
	}
	if err := source.Private(dir, st); err != nil {
		return false, fmt.Errorf("cache not used: %w", err)
	}
	return true, nil
}

// read reads the index, or nothing: only a regular file of the user's own, through
// the bounded reader, so that no file put in its place can block the run or fill its
// memory. Any damage makes it empty. Why it was not read, if it exists, is kept for
// Refused.
func (c *Cache) read() (map[Key]record, map[string]stampRecord) {
	data, err := source.ReadPrivate(c.path, maxIndexBytes)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.refuse(fmt.Errorf("cache index not read: %w", err))
		}
		return map[Key]record{}, map[string]stampRecord{}
	}
	return decode(data)
}

// Stamped returns the entry of the file at the absolute path abs when its stamp is
// the one kept for it.
func (c *Cache) Stamped(abs string, st Stamp) (Entry, bool) {
	c.mu.Lock()
	sr, ok := c.stamps[abs]
	c.mu.Unlock()
	if !ok || sr.Stamp != st {
		return Entry{}, false
	}
	e, ok := c.Get(sr.key)
	if ok && sr.used != c.now {
		c.mu.Lock()
		sr.used = c.now
		c.stamps[abs] = sr
		if len(c.stamps) >= maxEntries {
			c.changed = true
		}
		c.mu.Unlock()
	}
	return e, ok
}

// PutStamp keeps st as the stamp of the file at abs, whose bytes are the entry k,
// unless its times are too recent to tell a later write apart (RacyWindow).
func (c *Cache) PutStamp(abs string, st Stamp, k Key) {
	limit := c.opened.Add(-RacyWindow).UnixNano()
	if st.Ctime >= limit || st.Mtime >= limit || st == (Stamp{}) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.stamps[abs]; ok && old.Stamp == st && old.key == k {
		return
	}
	c.stamps[abs] = stampRecord{Stamp: st, key: k, used: c.now}
	c.changed = true
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
// MaxBytes. Its error is for the caller to mention, never to fail a run with; a
// directory found not to be the user's own is not written to, and Refused says so.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.off || !c.changed {
		return nil
	}
	// Only the user may read what the index says of their files, or write what a run
	// will believe (an existing directory is checked below, as it is).
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return err
	}
	if _, err := checkDir(c.dir); err != nil {
		c.off = true
		c.refuse(err)
		return nil
	}
	// Writers of one scope take turns, each merging what the others wrote.
	unlock, err := flock.Lock(c.path + lockSuffix)
	if err != nil {
		return err
	}
	defer unlock()
	// What another process wrote since Open stays, unless this run has the key too.
	entries, stamps := c.read()
	for k, r := range entries {
		if _, ok := c.entries[k]; !ok {
			c.entries[k] = r
		}
	}
	for k, r := range stamps {
		if _, ok := c.stamps[k]; !ok {
			c.stamps[k] = r
		}
	}
	tmp, err := os.CreateTemp(c.dir, filepath.Base(c.path)+tmpInfix+"*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 64<<10)
	werr := encode(w, c.entries, c.stamps)
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

// encode writes the MaxEntries most recently used entries and stamps, newest
// first, keys breaking ties so that the bytes do not depend on map order: the
// count of entries, the entries, the count of stamps, the stamps.
func encode(w io.Writer, entries map[Key]record, stamps map[string]stampRecord) error {
	keys := recent(entries, func(r record) int64 { return r.used }, func(a, b Key) int { return bytes.Compare(a[:], b[:]) })
	skeys := recent(stamps, func(r stampRecord) int64 { return r.used }, strings.Compare)
	var buf []byte
	flush := func(force bool) error {
		if len(buf) > 32<<10 || force {
			_, err := w.Write(buf)
			buf = buf[:0]
			return err
		}
		return nil
	}
	buf = append(buf, magic...)
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		r := entries[k]
		buf = append(buf, k[:]...)
		buf = binary.AppendVarint(buf, r.used)
		buf = binary.AppendUvarint(buf, uint64(len(r.Dialect)))
		buf = append(buf, r.Dialect...)
		buf = binary.AppendUvarint(buf, uint64(len(r.Checksum)))
		buf = append(buf, r.Checksum...)
		if err := flush(false); err != nil {
			return err
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(skeys)))
	for _, k := range skeys {
		r := stamps[k]
		buf = binary.AppendUvarint(buf, uint64(len(k)))
		buf = append(buf, k...)
		buf = append(buf, r.key[:]...)
		buf = binary.AppendVarint(buf, r.used)
		buf = binary.AppendUvarint(buf, r.Dev)
		buf = binary.AppendUvarint(buf, r.Ino)
		buf = binary.AppendVarint(buf, r.Size)
		buf = binary.AppendVarint(buf, r.Mtime)
		buf = binary.AppendVarint(buf, r.Ctime)
		if err := flush(false); err != nil {
			return err
		}
	}
	return flush(true)
}

// recent returns the keys of m, most recently used first (cmp breaking ties), at most
// maxEntries.
func recent[K comparable, R any](m map[K]R, used func(R) int64, cmp func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int {
		if ua, ub := used(m[a]), used(m[b]); ua != ub {
			if ua > ub {
				return -1
			}
			return 1
		}
		return cmp(a, b)
	})
	if len(keys) > maxEntries {
		keys = keys[:maxEntries]
	}
	return keys
}

// decode reads an index. A damaged one, anything short of an index as encode writes
// it to its last byte, reads as empty: nothing of it is believed.
func decode(data []byte) (map[Key]record, map[string]stampRecord) {
	entries, stamps := map[Key]record{}, map[string]stampRecord{}
	if !bytes.HasPrefix(data, []byte(magic)) {
		return entries, stamps
	}
	data = data[len(magic):]
	bad := false
	uvarint := func() uint64 {
		n, w := binary.Uvarint(data)
		if w <= 0 {
			bad = true
			return 0
		}
		data = data[w:]
		return n
	}
	varint := func() int64 {
		n, w := binary.Varint(data)
		if w <= 0 {
			bad = true
			return 0
		}
		data = data[w:]
		return n
	}
	key := func() (k Key) {
		if len(data) < len(k) {
			bad = true
			return k
		}
		copy(k[:], data)
		data = data[len(k):]
		return k
	}
	str := func() string {
		n := uvarint()
		if bad || n > uint64(len(data)) {
			bad = true
			return ""
		}
		s := string(data[:n])
		data = data[n:]
		return s
	}
	n := uvarint()
	if n <= uint64(len(data)/len(Key{})) {
		entries = make(map[Key]record, n)
	}
	dialects := map[string]string{} // a few names, each kept once
	for ; n > 0 && !bad; n-- {
		k := key()
		used := varint()
		d := str()
		if same, ok := dialects[d]; ok {
			d = same
		} else {
			dialects[d] = d
		}
		sum := str()
		if bad {
			break
		}
		entries[k] = record{Entry: Entry{Dialect: d, Checksum: sum}, used: used}
	}
	n = uvarint()
	if n <= uint64(len(data)/len(Key{})) {
		stamps = make(map[string]stampRecord, n)
	}
	for ; n > 0 && !bad; n-- {
		pk := str()
		k := key()
		r := stampRecord{key: k, used: varint()}
		r.Dev, r.Ino = uvarint(), uvarint()
		r.Size, r.Mtime, r.Ctime = varint(), varint(), varint()
		if bad {
			break
		}
		stamps[pk] = r
	}
	if bad || len(data) > 0 {
		return map[Key]record{}, map[string]stampRecord{}
	}
	return entries, stamps
}

// The names of a scope's files: "<32 hex digits>.idx", the lock beside it, and the
// temporary files it is written to. trim deletes nothing else.
const (
	indexSuffix = ".idx"
	lockSuffix  = ".lock"
	tmpInfix    = ".tmp-"
)

// dwsFile says which of a scope's files name is (indexSuffix, lockSuffix, tmpInfix),
// or "" when dws did not name it.
func dwsFile(name string) string {
	const hexLen = 32
	if len(name) < hexLen+len(indexSuffix) || name[hexLen:hexLen+len(indexSuffix)] != indexSuffix {
		return ""
	}
	for _, r := range name[:hexLen] {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return ""
		}
	}
	switch rest := name[hexLen+len(indexSuffix):]; {
	case rest == "":
		return indexSuffix
	case rest == lockSuffix:
		return lockSuffix
	case strings.HasPrefix(rest, tmpInfix) && len(rest) > len(tmpInfix) &&
		strings.Trim(rest[len(tmpInfix):], "0123456789") == "":
		return tmpInfix
	}
	return ""
}

// isIndex says whether the file at path starts as every index dws wrote does, whatever
// its version.
func isIndex(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close() //nolint:errcheck // read-only
	const marker = "dws-cache "
	head := make([]byte, len(marker))
	_, err = io.ReadFull(f, head)
	return err == nil && string(head) == marker
}

// trim removes the least recently written indexes of dir until they take MaxBytes
// or less, never keep (the one just written), and any temporary file a killed
// process left over an hour ago. It deletes only the files dws wrote there: named as
// dwsFile names them, the user's own (Private), and for an index, one that starts as
// an index does; a cache directory may be one the user named, holding other files.
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
		kind := dwsFile(de.Name())
		if kind == "" {
			continue
		}
		info, err := de.Info()
		p := filepath.Join(dir, de.Name())
		if err != nil || !info.Mode().IsRegular() || source.Private(p, info) != nil {
			continue
		}
		switch kind {
		case tmpInfix:
			if time.Since(info.ModTime()) > time.Hour {
				os.Remove(p) //nolint:errcheck // another run may have taken it
			}
		case lockSuffix:
			// Kept beside a live index (deleting it would let two writers lock two
			// files); removed with a trimmed one.
			if _, err := os.Lstat(strings.TrimSuffix(p, lockSuffix)); errors.Is(err, os.ErrNotExist) && info.Size() == 0 {
				os.Remove(p) //nolint:errcheck // another run may have taken it
			}
		case indexSuffix:
			if p == keep || isIndex(p) {
				files = append(files, file{p, info.Size(), info.ModTime()})
				total += info.Size()
			}
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
