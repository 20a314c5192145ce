package cache

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"slices"
	"strings"
)

// A listing is what a directory held when its stamp was taken: the names of its
// entries, sorted, with their types, as a walk reads them. A directory's stamp is
// its metadata, as a file's is; adding, removing or renaming an entry moves its
// modification and status-change times, so a listing kept under a stamp that is
// still the directory's is still its listing (git's untracked cache rests on the
// same fact). Like a file's stamp, a listing is only kept when both times are
// RacyWindow older than the run that read it.
//
// A listing in the index also leads from each name to its file's stamp (a Hint),
// found when the index was written: a warm run that reads the listing stats each
// file and compares, with no directory read, no sort and no search. A run appends
// the listings it keeps to the journal with what else it adds (no hints there: its
// files are searched for) until the journal is merged into a new index.

// Dirent is a name in a directory's listing.
type Dirent struct {
	Name string
	Type fs.FileMode // the type bits, as fs.DirEntry's Type gives them
	Hint Hint
}

// Hint leads from a listed name to its file's stamp in the index the listing was
// read from, for StampedHint; the zero Hint leads nowhere.
type Hint uint32

type listRecord struct {
	dir  string // the directory's absolute path
	st   Stamp
	used int64
	ents []Dirent
}

// maxListingBytes bounds the listings of an index together (their bytes in the
// heap); as many names as MaxEntries at most.
const maxListingBytes = 8 << 20

// Listing returns the listing kept for the directory at the absolute path abs
// when st is still its stamp.
func (c *Cache) Listing(abs string, st Stamp) ([]Dirent, bool) {
	pk := pathKey(abs)
	c.mu.Lock()
	defer c.mu.Unlock()
	if l, ok := c.alists[pk]; ok && l.st == st && l.dir == abs {
		return l.ents, true
	}
	if l, ok := c.journal.listing(pk); ok && l.st == st && l.dir == abs {
		return l.ents, true
	}
	if l, ok := c.index.listing(pk); ok && l.st == st && l.dir == abs {
		return l.ents, true
	}
	return nil, false
}

// PutListing keeps ents, sorted by name, as the listing of the directory at the
// absolute path abs whose stamp st was taken before they were read, unless its
// times are too recent to tell a later change apart (RacyWindow). Their hints are
// not kept: an index's writer finds them.
func (c *Cache) PutListing(abs string, st Stamp, ents []Dirent) {
	limit := c.opened.Add(-RacyWindow).UnixNano()
	if st.Ctime >= limit || st.Mtime >= limit || st == (Stamp{}) || len(abs) > 0xffff ||
		!slices.IsSortedFunc(ents, func(a, b Dirent) int { return strings.Compare(a.Name, b.Name) }) {
		return
	}
	for _, e := range ents {
		if len(e.Name) > 0xffff || !plainName(e.Name) {
			return
		}
		if _, ok := typeCode(e.Type); !ok {
			return
		}
	}
	pk := pathKey(abs)
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := make([]Dirent, len(ents))
	for i, e := range ents {
		kept[i] = Dirent{Name: e.Name, Type: e.Type}
	}
	c.alists[pk] = listRecord{dir: abs, st: st, used: c.now, ents: kept}
}

// StampedHint is Stamped of the file at abs, first through h, its listing's hint.
// The hint's stamp and entry are read without the lock (an index never changes
// once mapped), which is only taken when the use may be worth recording (see the
// package comment): the lookups of a walk's files run on every core at once, and
// a lock they all took was most of their cost.
func (c *Cache) StampedHint(abs string, h Hint, st Stamp) (Entry, bool) {
	if h == 0 {
		return c.Stamped(abs, st)
	}
	sr, r, ok := c.index.stampNumbered(int(h) - 1)
	if !ok || sr.Stamp != st {
		return c.Stamped(abs, st)
	}
	if c.mayRecord(r.used, false) || c.mayRecord(sr.used, true) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.use(sr.key, r)
		if c.stale(sr.used, true) {
			sr.used = c.now
			c.putStamp(pathKey(abs), sr)
		}
	}
	return r.Entry, true
}

// plainName says whether name can be a name in a directory: no separator, not "."
// or "..", not empty.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && strings.IndexByte(name, '/') < 0 && strings.IndexByte(name, 0) < 0
}

// childPath is the absolute path of the entry name of the directory at abs, as a
// walk joins it.
func childPath(abs, name string) string {
	if strings.HasSuffix(abs, "/") {
		return abs + name // the root
	}
	return abs + "/" + name
}

// Type codes of a listing's names.
var typeCodes = []fs.FileMode{0, fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeSocket,
	fs.ModeDevice, fs.ModeDevice | fs.ModeCharDevice, fs.ModeIrregular}

func typeCode(m fs.FileMode) (byte, bool) {
	i := slices.Index(typeCodes, m&fs.ModeType)
	return byte(i), i >= 0
}

// stampNumbered reads the i-th stamp and its entry, without a lock.
func (t *table) stampNumbered(i int) (sr stampRecord, r record, ok bool) {
	if !t.sound() {
		return stampRecord{}, record{}, false
	}
	if i >= t.nStamp {
		t.bad.Store(true) // a listing leads past the stamps: the index is not what was written
		return stampRecord{}, record{}, false
	}
	t.safely(func() bool {
		var e int
		var dial []byte
		if sr, e, ok = t.stampAt(i); ok {
			if _, r, dial, ok = t.entryRaw(e); ok {
				r.Dialect = t.dialect(dial)
			}
		}
		return ok
	})
	return sr, r, ok
}

// dialect returns b as a string, one string per name of the few an index holds,
// without a lock.
func (t *table) dialect(b []byte) string {
	old := t.dialects.Load()
	if old != nil {
		for _, s := range *old {
			if s == string(b) {
				return s
			}
		}
	}
	s := string(b)
	if old == nil || len(*old) < 16 {
		var list []string
		if old != nil {
			list = append(list, *old...)
		}
		list = append(list, s)
		t.dialects.CompareAndSwap(old, &list) // a lost race costs one more string
	}
	return s
}

// listing returns the listing under the path key pk.
func (t *table) listing(pk Key) (l listRecord, ok bool) {
	if !t.sound() {
		return listRecord{}, false
	}
	t.safely(func() bool {
		lo, hi := 0, t.nListing
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			switch bytes.Compare(t.listings[m*listingSize:m*listingSize+32], pk[:]) {
			case 0:
				_, l, ok = t.listingAt(m)
				return ok
			case -1:
				lo = m + 1
			default:
				hi = m
			}
		}
		return false
	})
	return l, ok
}

// listingAt reads the i-th listing, checking it; a damaged one makes t bad.
func (t *table) listingAt(i int) (Key, listRecord, bool) {
	rec := t.listings[i*listingSize : (i+1)*listingSize]
	le := binary.LittleEndian
	off, n, count := uint64(le.Uint32(rec[80:])), uint64(le.Uint32(rec[84:])), int(le.Uint32(rec[88:]))
	if off+n > uint64(len(t.heap)) {
		t.bad.Store(true)
		return Key{}, listRecord{}, false
	}
	blob := t.heap[off : off+n]
	l, ok := decodeListing(blob, count)
	if !ok || crc32.Update(crc32.Update(0, castagnoli(), rec[:92]), castagnoli(), blob) != le.Uint32(rec[92:]) {
		t.bad.Store(true)
		return Key{}, listRecord{}, false
	}
	var pk Key
	copy(pk[:], rec)
	l.used = int64(le.Uint64(rec[32:]))
	l.st = Stamp{Dev: le.Uint64(rec[40:]), Ino: le.Uint64(rec[48:]), Size: int64(le.Uint64(rec[56:])),
		Mtime: int64(le.Uint64(rec[64:])), Ctime: int64(le.Uint64(rec[72:]))}
	return pk, l, true
}

// decodeListing reads a listing's bytes in the heap: its directory and its names,
// which share one string.
func decodeListing(blob []byte, count int) (listRecord, bool) {
	le := binary.LittleEndian
	if len(blob) < 2 {
		return listRecord{}, false
	}
	dl := int(le.Uint16(blob))
	at := 2 + dl
	if count < 0 || len(blob) < at || (len(blob)-at)/7 < count {
		return listRecord{}, false
	}
	l := listRecord{dir: string(blob[2:at])}
	heads := blob[at : at+7*count]
	names := string(blob[at+7*count:])
	l.ents = make([]Dirent, count)
	pos := 0
	for i := range count {
		h := heads[i*7:]
		nl := int(le.Uint16(h))
		if int(h[2]) >= len(typeCodes) || nl > len(names)-pos {
			return listRecord{}, false
		}
		name := names[pos : pos+nl]
		if !plainName(name) {
			return listRecord{}, false
		}
		l.ents[i] = Dirent{Name: name, Type: typeCodes[h[2]], Hint: Hint(le.Uint32(h[3:]))}
		pos += nl
	}
	return l, pos == len(names)
}

// appendListing appends l's bytes in the heap to b, with hint(i) as the hint of its
// i-th name.
func appendListing(b []byte, l listRecord, hint func(i int) Hint) []byte {
	le := binary.LittleEndian
	b = le.AppendUint16(b, uint16(len(l.dir)))
	b = append(b, l.dir...)
	for i, e := range l.ents {
		code, _ := typeCode(e.Type)
		b = le.AppendUint16(b, uint16(len(e.Name)))
		b = append(b, code)
		b = le.AppendUint32(b, uint32(hint(i)))
	}
	for _, e := range l.ents {
		b = append(b, e.Name...)
	}
	return b
}

// listingBytes is the size of l's bytes in the heap.
func listingBytes(l listRecord) int {
	n := 2 + len(l.dir) + 7*len(l.ents)
	for _, e := range l.ents {
		n += len(e.Name)
	}
	return n
}

// mergedListing is a listing of a new index.
type mergedListing struct {
	pk Key
	listRecord
}

// allListings reads every listing of t, each checked, in key order; none when any is
// damaged or out of order.
func (t *table) allListings() (ls []mergedListing) {
	if !t.sound() {
		return nil
	}
	ok := t.safely(func() bool {
		ls = make([]mergedListing, 0, t.nListing)
		for i := range t.nListing {
			pk, l, ok := t.listingAt(i)
			if !ok || (i > 0 && bytes.Compare(ls[i-1].pk[:], pk[:]) >= 0) {
				return false
			}
			ls = append(ls, mergedListing{pk, l})
		}
		return true
	})
	if !ok {
		return nil
	}
	return ls
}

// keptListings merges old with added (which win), keeps the most recently used
// within maxEntries names and maxListingBytes, in key order.
func keptListings(old []mergedListing, added map[Key]listRecord) []mergedListing {
	ls := make([]mergedListing, 0, len(added))
	for pk, l := range added {
		ls = append(ls, mergedListing{pk, l})
	}
	cmp := func(a, b mergedListing) int { return bytes.Compare(a.pk[:], b.pk[:]) }
	slices.SortFunc(ls, cmp)
	ls = mergeSorted(old, ls, cmp, func(_, n mergedListing) mergedListing { return n })
	order := slices.Clone(ls)
	slices.SortFunc(order, func(a, b mergedListing) int {
		if a.used != b.used {
			if a.used > b.used {
				return -1
			}
			return 1
		}
		return cmp(a, b)
	})
	names, size := 0, 0
	keep := map[Key]bool{}
	for _, l := range order {
		names += len(l.ents)
		size += listingBytes(l.listRecord)
		if names > maxEntries || size > maxListingBytes {
			break
		}
		keep[l.pk] = true
	}
	return slices.DeleteFunc(ls, func(l mergedListing) bool { return !keep[l.pk] })
}
