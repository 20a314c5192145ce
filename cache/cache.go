// Package cache remembers which files dws validate found clean, so that a run over
// an unchanged repository reads and hashes each file and checks nothing.
//
// A cache is one index per scope: the scope is everything besides a file's bytes
// that decides what a run finds in it (the dws build, the config and every file it
// names, the forced dialect), hashed by the caller. Within a scope an entry is keyed
// by the file's path and bytes, and holds what a clean file's result is: its dialect
// and checksum. Only clean files are remembered (no finding, no inline ignore): a
// file with findings is checked again on every run, so its report, its source lines
// and what its waivers match are always today's.
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
// A directory's listing is kept the same way, under the directory's stamp (adding,
// removing or renaming an entry moves its times): a warm walk reads the names from
// the index (or the journal) instead of the directory, and each file an index's
// listing names leads straight to its stamp, with no search (see listing.go).
//
// A lookup costs what it looks up, whatever the size of the index. The index is a
// file of fixed-width records sorted by key (a stamp's key is the SHA-256 of the
// file's absolute path), mapped into memory and searched, never decoded whole:
// a one-file run touches a few pages of it. What a run adds is appended to a small
// journal beside the index, one batch a run; the journal is read whole. Once it
// would outgrow maxJournalBytes (or the index is missing, damaged, of an older
// format or refused) the writer merges index, journal and its own additions into a
// new index, written to a temporary file and renamed over the old one, then removes
// the journal. Everything an index or journal says stays true (an entry is keyed by
// the bytes it describes, a stamp by the metadata it was taken from), so a reader
// that sees the new index with the old journal, or the old index without the
// journal, believes nothing false: at worst it checks a file again.
//
// Writers of one scope take turns under a lock beside the index; readers take no
// lock. A reader never believes half a write: an index is renamed into place whole,
// and a journal batch carries its length and checksum, so a batch being appended,
// or one a killed writer left torn, is not read (and the next writer merges the
// journal into a new index rather than appending after it). An index keeps at most
// MaxEntries entries and as many stamps, the most recently used ones; a use is
// recorded only when the index is full and the entry's last recorded use is more
// than useGrain old, so that a warm run over a full index does not rewrite it. The
// directory keeps at most MaxBytes of indexes and journals, the most recently
// written.
//
// Damage is never believed. An index whose header (format, counts, sizes, the
// checksum of the header) does not hold reads as empty; each record carries its own
// checksum, checked when a lookup reads it, and a record found damaged makes the
// whole index read as empty from then on (and be rewritten by the next writer). An
// index cut short under the mapping (a fault reading it) reads as empty too. In a
// journal, batches are believed up to the first that is not whole. An index of an
// older format reads as empty and is replaced by the first run that writes.
//
// An index is believed without checking it again, and its entries are SHA-256 sums
// of nothing secret: whoever can write it can make a file with errors pass. So a
// cache is only the user's own. The directory is created 0700; one that exists and
// is not the user's own (owned by another user, or writable by its group or others,
// as source.Private says; a link to a directory is followed and the directory
// checked) is not used at all. An index or journal that is not the user's own
// regular file is neither mapped nor read (opened without following a link and
// without waiting, then checked on the open file: its kind, source.Private, its
// size against a bound), and is replaced when the run writes. Refused tells the
// caller which, once. Trimming deletes only the files a cache writes (named as
// dwsFile names them, the user's own, an index or journal starting as one does),
// since the directory may be one the user named and keeps other files in.
//
// It knows nothing about definitions, rules or reports.
package cache

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwsdev/dws/internal/flock"
	"github.com/dwsdev/dws/source"
)

// Bounds of a cache directory.
const (
	MaxEntries = 200_000  // entries per index, and as many stamps: about 45 MB
	MaxBytes   = 64 << 20 // all indexes and journals of a directory together
)

// maxEntries is MaxEntries, lowered by tests.
var maxEntries = MaxEntries

// maxIndexBytes bounds an index: one index never takes more than the directory may
// hold.
const maxIndexBytes = MaxBytes

// maxJournalBytes bounds a journal, which every run reads whole: a writer whose
// batch would take it past this merges it into the index instead. About 500
// one-file runs' additions, read in a few tenths of a millisecond; a merge of a full
// index takes tens of milliseconds. Lowered by tests.
var maxJournalBytes = 128 << 10

// journalReadBytes bounds the read of a journal: above any journal a writer leaves.
const journalReadBytes = 4 << 20

// useGrain is how old an entry's recorded use must be for a run that uses it to
// record the use again (only when the index is full; see the package comment).
var useGrain int64 = 24 * 60 * 60

// RacyWindow is how much older than the run a file's times must be for its stamp to
// be kept: far more than any file system clock's tick.
var RacyWindow = 2 * time.Second

// Stamp is what a file's metadata says of its bytes.
type Stamp struct {
	Dev, Ino     uint64
	Size         int64
	Mtime, Ctime int64 // nanoseconds since 1970
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

// KeyOfStrings is KeyOf of parts held as strings, without a copy of each (a file's
// text is one): they reach the hash through a pooled buffer.
func KeyOfStrings(parts ...string) Key {
	h := sha256.New()
	buf := hashBufs.Get().(*[hashBuf]byte)
	defer hashBufs.Put(buf)
	for _, p := range parts {
		binary.LittleEndian.PutUint64(buf[:8], uint64(len(p)))
		h.Write(buf[:8])
		for len(p) > 0 {
			n := copy(buf[:], p)
			h.Write(buf[:n])
			p = p[n:]
		}
	}
	var k Key
	h.Sum(k[:0])
	return k
}

const hashBuf = 8 << 10

var hashBufs = sync.Pool{New: func() any { return new([hashBuf]byte) }}

// pathKey is KeyOf(abs), the key of the stamp of the file at abs, without KeyOf's
// allocations: it is computed for every file of a warm run.
func pathKey(abs string) Key {
	var buf [512]byte
	if len(abs)+8 > len(buf) {
		return KeyOf([]byte(abs))
	}
	binary.LittleEndian.PutUint64(buf[:8], uint64(len(abs)))
	n := copy(buf[8:], abs)
	return sha256.Sum256(buf[:8+n])
}

// Entry is what a clean file's result is.
type Entry struct {
	Dialect  string
	Checksum string
}

// maxField bounds an entry's dialect and checksum: a longer one is not remembered.
const maxField = 1 << 10

type record struct {
	Entry
	used int64 // unix seconds of the last run that recorded a use
}

type stampRecord struct {
	Stamp
	key  Key // the entry of the bytes the file had
	used int64
}

// Cache is one scope of a cache directory, open for one run. Its methods are safe
// for concurrent use.
type Cache struct {
	dir, path string
	now       int64
	opened    time.Time

	mu      sync.Mutex
	index   *table              // the index, mapped; nil when there is none to read
	journal journal             // the journal's entries and stamps (by path key)
	added   map[Key]record      // what this run adds, for Close to write
	astamps map[Key]stampRecord // by path key
	alists  map[Key]listRecord  // listings, by the directory's path key
	// nAdded and nAstamps are len(added) and len(astamps), for lookups that ask
	// whether the index is full without the lock.
	nAdded, nAstamps atomic.Int64
	names            map[string]string // dialect names, each kept once
	off              bool              // the directory is refused: nothing is read or written
	refused          error             // the first reason something was not used, for Refused
}

// Open opens the scope of dir that scope identifies: it maps the index and reads
// the journal. A missing, damaged or refused index is an empty one: a cache can only
// make a run faster. A directory that is not the user's own (Private) is not used at
// all; Refused says so.
func Open(dir string, scope Key) *Cache {
	c := &Cache{
		dir:     dir,
		path:    filepath.Join(dir, hex.EncodeToString(scope[:16])+indexSuffix),
		opened:  time.Now(),
		added:   map[Key]record{},
		astamps: map[Key]stampRecord{},
		alists:  map[Key]listRecord{},
		names:   map[string]string{},
	}
	c.now = c.opened.Unix()
	switch there, err := checkDir(dir); {
	case err != nil:
		c.off = true
		c.refuse(err)
	case there:
		t, err := openTable(c.path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.refuse(fmt.Errorf("cache index not read: %w", err))
		}
		c.index = t
		j, err := readJournal(c.path + journalSuffix)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.refuse(fmt.Errorf("cache index not read: %w", err))
		}
		c.journal = j
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

// full says whether the index holds as many entries (or stamps) as it may keep, so
// that recording a use can change what eviction keeps.
func (c *Cache) full(stamps bool) bool {
	if stamps {
		return c.index.stampCount()+len(c.journal.stamps)+len(c.astamps) >= maxEntries
	}
	return c.index.entryCount()+len(c.journal.entries)+len(c.added) >= maxEntries
}

// stale says whether a use recorded at used is worth recording again now.
func (c *Cache) stale(used int64, stamps bool) bool {
	return c.now-used >= useGrain && c.full(stamps)
}

// entry finds k in what this run added, the journal and the index, newest first.
// Called with c.mu held.
func (c *Cache) entry(k Key) (record, bool) {
	if r, ok := c.added[k]; ok {
		return r, true
	}
	if r, ok := c.journal.entry(k, c.names); ok {
		return r, true
	}
	return c.index.get(k, c.names)
}

// Stamped returns the entry of the file at the absolute path abs when its stamp is
// the one kept for it, and its entry is still there.
func (c *Cache) Stamped(abs string, st Stamp) (Entry, bool) {
	pk := pathKey(abs)
	c.mu.Lock()
	defer c.mu.Unlock()
	// Every stamp kept for the path is a fact about the file as it was; the newest
	// is the likeliest to be today's, and any that matches answers.
	if sr, ok := c.astamps[pk]; ok && sr.Stamp == st {
		if r, ok := c.entry(sr.key); ok {
			return c.stamped(pk, sr, r), true
		}
	}
	if sr, ok := c.journal.stamp(pk); ok && sr.Stamp == st {
		if r, ok := c.entry(sr.key); ok {
			return c.stamped(pk, sr, r), true
		}
	}
	// The index's stamp names its entry in the index: no second search.
	if sr, r, ok := c.index.stamp(pk, c.names); ok && sr.Stamp == st {
		return c.stamped(pk, sr, r), true
	}
	return Entry{}, false
}

// stamped returns the entry r of the stamp sr of the path key pk, recording their
// use. Called with c.mu held.
func (c *Cache) stamped(pk Key, sr stampRecord, r record) Entry {
	c.use(sr.key, r)
	if c.stale(sr.used, true) {
		sr.used = c.now
		c.putStamp(pk, sr)
	}
	return r.Entry
}

// putEntry and putStamp add to what the run adds. Called with c.mu held.
func (c *Cache) putEntry(k Key, r record) {
	if _, ok := c.added[k]; !ok {
		c.nAdded.Add(1)
	}
	c.added[k] = r
}

func (c *Cache) putStamp(pk Key, sr stampRecord) {
	if _, ok := c.astamps[pk]; !ok {
		c.nAstamps.Add(1)
	}
	c.astamps[pk] = sr
}

// mayRecord is stale without the lock: whether a use recorded at used may be worth
// recording again now. The counts only grow, so a false is as good as the lock's.
func (c *Cache) mayRecord(used int64, stamps bool) bool {
	if c.now-used < useGrain {
		return false
	}
	if stamps {
		return int64(c.index.stampCount()+len(c.journal.stamps))+c.nAstamps.Load() >= int64(maxEntries)
	}
	return int64(c.index.entryCount()+len(c.journal.entries))+c.nAdded.Load() >= int64(maxEntries)
}

// use records that the run used the entry r under k, when it is worth recording.
func (c *Cache) use(k Key, r record) {
	if c.stale(r.used, false) {
		r.used = c.now
		c.putEntry(k, r)
	}
}

// PutStamp keeps st as the stamp of the file at abs, whose bytes are the entry k,
// unless its times are too recent to tell a later write apart (RacyWindow).
func (c *Cache) PutStamp(abs string, st Stamp, k Key) {
	limit := c.opened.Add(-RacyWindow).UnixNano()
	if st.Ctime >= limit || st.Mtime >= limit || st == (Stamp{}) {
		return
	}
	pk := pathKey(abs)
	c.mu.Lock()
	defer c.mu.Unlock()
	if sr, ok := c.astamps[pk]; ok && sr.Stamp == st && sr.key == k {
		return
	}
	if sr, ok := c.journal.stamp(pk); ok && sr.Stamp == st && sr.key == k {
		return
	}
	if sr, _, ok := c.index.stamp(pk, c.names); ok && sr.Stamp == st && sr.key == k {
		return
	}
	c.putStamp(pk, stampRecord{Stamp: st, key: k, used: c.now})
}

// Get returns the entry under k.
func (c *Cache) Get(k Key) (Entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.entry(k)
	if ok {
		c.use(k, r)
	}
	return r.Entry, ok
}

// Put records e under k.
func (c *Cache) Put(k Key, e Entry) {
	if len(e.Dialect) > maxField || len(e.Checksum) > maxField {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entry(k); ok && old.Entry == e {
		return
	}
	c.putEntry(k, record{Entry: e, used: c.now})
}

// Close writes what the run added, if anything: appended to the journal, or merged
// with the index and journal into a new index (see the package comment); then trims
// the directory to MaxBytes. Its error is for the caller to mention, never to fail a
// run with; a directory found not to be the user's own is not written to, and
// Refused says so.
func (c *Cache) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	// Damage a lookup found in the index (a record's checksum, a fault) is for this
	// writer to replace, whatever the index looks like when opened again.
	damaged := c.index != nil && c.index.bad.Load()
	defer func() {
		c.index.close()
		c.index = nil
	}()
	if c.off || (len(c.added) == 0 && len(c.astamps) == 0 && len(c.alists) == 0) {
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
	// Writers of one scope take turns, each keeping what the others wrote.
	unlock, err := flock.Lock(c.path + lockSuffix)
	if err != nil {
		return err
	}
	defer unlock()
	// The index and journal as they are now: another writer may have replaced or
	// grown them since Open.
	index, ierr := openTable(c.path)
	defer index.close()
	jpath := c.path + journalSuffix
	j, jerr := readJournal(jpath)
	batch := encodeBatch(c.added, c.astamps, c.alists)
	appendable := !damaged && ierr == nil && index.sound() &&
		(jerr == nil && j.whole || errors.Is(jerr, fs.ErrNotExist)) &&
		j.size+len(batch) <= maxJournalBytes
	if appendable {
		if err := appendJournal(jpath, j.size, batch); err == nil {
			c.added, c.astamps, c.alists = map[Key]record{}, map[Key]stampRecord{}, map[Key]listRecord{}
			c.nAdded.Store(0)
			c.nAstamps.Store(0)
			return trim(c.dir, c.path)
		}
		// A journal that cannot be appended to is merged away below.
	}
	entries, stamps := j.all(c.names)
	lists := j.allListings()
	for k, r := range c.added {
		entries[k] = r
	}
	for k, r := range c.astamps {
		stamps[k] = r
	}
	for k, l := range c.alists {
		lists[k] = l
	}
	if err := writeIndex(c.path, index, entries, stamps, lists); err != nil {
		return err
	}
	// What the journal held is in the new index; a reader that still sees the
	// journal believes nothing false.
	if err := removeFile(jpath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	c.added, c.astamps, c.alists = map[Key]record{}, map[Key]stampRecord{}, map[Key]listRecord{}
	c.nAdded.Store(0)
	c.nAstamps.Store(0)
	return trim(c.dir, c.path)
}
