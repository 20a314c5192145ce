package cache

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync/atomic"
)

// An index is a header, the entries, the stamps, the listings, the orders of the
// entries and of the stamps, and the heap of the entries' strings and the listings'
// names, all little-endian:
//
//	magic "dws-cache 6\n", 4 bytes zero, entry count, stamp count, listing count,
//	heap length (8 bytes each), the CRC-32C of the header without this field, 4
//	bytes zero; 256 4-byte fan-out counts of the entries (how many have a key whose
//	first byte is at most i), the same for the stamps
//	entry: key (32), last use (8), heap offset (4), dialect length (2), checksum
//	length (2), CRC-32C of the 48 bytes before it and of its strings (4)
//	stamp: path key (32), entry number (4), last use (8), device, inode, size,
//	modification and status-change time (8 each), CRC-32C of the 84 bytes before it
//	listing: path key of the directory (32), last use (8), the directory's device,
//	inode, size, modification and status-change time (8 each), heap offset,
//	length and name count (4 each), CRC-32C of the 92 bytes before it and of its
//	bytes in the heap (4); those bytes are the directory's absolute path and its
//	length (2), then per name its length (2), its type (1) and 1 + the number of
//	its file's stamp in the index, or 0 (4), then the names
//	order: the numbers of the entries (or stamps) in the order of their keys (4
//	bytes each)
//
// Records are laid out in the order a walk meets them: the stamps of each listing's
// files in its order (listings by path key), then the other stamps by path key; the
// entries of the stamps in that order, then the other entries by key; their strings
// in the same order. A warm walk reads them front to back. They are searched through
// the orders (each key at most once), whose fan-outs are in the header. Listings are
// sorted by path key. A stamp names its entry by its number, so that a stamped
// file's lookup is one search, and a listing names its files' stamps, so that a
// listed file's lookup is none. The file ends with the heap.
const (
	magic       = "dws-cache 6\n"
	fanout      = 256 * 4
	headerFixed = 56
	headerSize  = headerFixed + 2*fanout
	entrySize   = 52
	stampSize   = 88
	listingSize = 96
)

// castagnoli is the CRC-32C table, made on first use: a run without a cache (a cold
// start with --no-cache) does not pay for it, 0.1 ms of an 8 ms start.
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// table is an index, mapped (or read where there is no mapping).
type table struct {
	data             []byte
	unmap            func()
	entries, stamps  []byte
	listings         []byte
	eorder, sorder   []byte
	efan, sfan       []byte
	heap             []byte
	nEntries, nStamp int
	nListing         int
	// bad marks an index found damaged after it was opened (a record's checksum, or
	// a fault reading the mapping): from then on it reads as empty. The rest of a
	// table never changes once opened: lookups read it without a lock.
	bad atomic.Bool
	// dialects are the dialect names read so far, for lookups without a lock.
	dialects atomic.Pointer[[]string]
}

// openTable maps the index at path. A missing or refused file is an error (as
// source.ReadPrivate words it); one that is no index of this format, or is damaged
// in its header, is no error and no table.
func openTable(path string) (*table, error) {
	data, unmap, err := mapPrivate(path, maxIndexBytes)
	if err != nil {
		return nil, err
	}
	t := &table{data: data, unmap: unmap}
	if !t.safely(t.parse) {
		t.close()
		return nil, nil
	}
	return t, nil
}

// parse checks the header and slices the sections; false when it does not hold.
func (t *table) parse() bool {
	d := t.data
	if len(d) < headerSize || string(d[:len(magic)]) != magic {
		return false
	}
	le := binary.LittleEndian
	ne, ns, nl, nh := le.Uint64(d[16:]), le.Uint64(d[24:]), le.Uint64(d[32:]), le.Uint64(d[40:])
	if le.Uint32(d[48:]) != headerSum(d) {
		return false
	}
	limit := uint64(maxIndexBytes)
	if ne > limit/entrySize || ns > limit/stampSize || nl > limit/listingSize || nh > limit ||
		uint64(headerSize)+ne*(entrySize+4)+ns*(stampSize+4)+nl*listingSize+nh != uint64(len(d)) {
		return false
	}
	t.nEntries, t.nStamp, t.nListing = int(ne), int(ns), int(nl)
	t.efan, t.sfan = d[headerFixed:headerFixed+fanout], d[headerFixed+fanout:headerSize]
	if !fanoutHolds(t.efan, t.nEntries) || !fanoutHolds(t.sfan, t.nStamp) {
		return false
	}
	off := headerSize
	t.entries = d[off : off+t.nEntries*entrySize]
	off += len(t.entries)
	t.stamps = d[off : off+t.nStamp*stampSize]
	off += len(t.stamps)
	t.listings = d[off : off+t.nListing*listingSize]
	off += len(t.listings)
	t.eorder = d[off : off+4*t.nEntries]
	off += len(t.eorder)
	t.sorder = d[off : off+4*t.nStamp]
	off += len(t.sorder)
	t.heap = d[off:]
	return true
}

// headerSum is the checksum of an index's header, without its own field.
func headerSum(d []byte) uint32 {
	sum := crc32.Update(0, castagnoli(), d[:48])
	return crc32.Update(sum, castagnoli(), d[52:headerSize])
}

func fanoutHolds(fan []byte, n int) bool {
	prev := uint32(0)
	for i := 0; i < 256; i++ {
		v := binary.LittleEndian.Uint32(fan[i*4:])
		if v < prev {
			return false
		}
		prev = v
	}
	return int(prev) == n
}

// safely runs f, which reads the mapping; a fault (the file cut short under the
// mapping, an I/O error) makes the table bad and f's answer false.
func (t *table) safely(f func() bool) (ok bool) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if v := recover(); v != nil {
			if _, fault := v.(interface{ Addr() uintptr }); !fault {
				panic(v)
			}
			t.bad.Store(true)
			ok = false
		}
	}()
	return f()
}

func (t *table) close() {
	if t != nil && t.unmap != nil {
		t.unmap()
		t.unmap, t.data = nil, nil
		t.bad.Store(true)
	}
}

// sound says whether t is an index to append a journal to.
func (t *table) sound() bool { return t != nil && !t.bad.Load() }

func (t *table) entryCount() int {
	if t == nil {
		return 0
	}
	return t.nEntries
}

func (t *table) stampCount() int {
	if t == nil {
		return 0
	}
	return t.nStamp
}

// search finds k among the records of size size in recs through their order
// (record numbers sorted by key), whose fan-out is fan (checked to end at their
// count): the number of its record. An order that leads past the records is damage,
// and makes t bad.
func (t *table) search(recs, order, fan []byte, size int, k Key) (int, bool) {
	le := binary.LittleEndian
	lo := 0
	if k[0] > 0 {
		lo = int(le.Uint32(fan[(int(k[0])-1)*4:]))
	}
	hi := int(le.Uint32(fan[int(k[0])*4:]))
	n := uint32(len(recs) / size)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		i := le.Uint32(order[m*4:])
		if i >= n {
			t.bad.Store(true)
			return 0, false
		}
		switch bytes.Compare(recs[int(i)*size:int(i)*size+32], k[:]) {
		case 0:
			return int(i), true
		case -1:
			lo = m + 1
		default:
			hi = m
		}
	}
	return 0, false
}

// get returns the entry under k.
func (t *table) get(k Key, names map[string]string) (r record, ok bool) {
	if !t.sound() {
		return record{}, false
	}
	t.safely(func() bool {
		i, found := t.search(t.entries, t.eorder, t.efan, entrySize, k)
		if found {
			_, r, ok = t.entryAt(i, names)
		}
		return ok
	})
	return r, ok
}

// entryAt reads the i-th entry, checking it; a damaged one makes t bad.
func (t *table) entryAt(i int, names map[string]string) (Key, record, bool) {
	k, r, dial, ok := t.entryRaw(i)
	if ok {
		r.Dialect = intern(names, dial)
	}
	return k, r, ok
}

// entryRaw is entryAt, leaving the dialect as the mapping's bytes.
func (t *table) entryRaw(i int) (Key, record, []byte, bool) {
	rec := t.entries[i*entrySize : (i+1)*entrySize]
	le := binary.LittleEndian
	off, dl, cl := uint64(le.Uint32(rec[40:])), uint64(le.Uint16(rec[44:])), uint64(le.Uint16(rec[46:]))
	if off+dl+cl > uint64(len(t.heap)) {
		t.bad.Store(true)
		return Key{}, record{}, nil, false
	}
	strs := t.heap[off : off+dl+cl]
	if crc32.Update(crc32.Update(0, castagnoli(), rec[:48]), castagnoli(), strs) != le.Uint32(rec[48:]) {
		t.bad.Store(true)
		return Key{}, record{}, nil, false
	}
	var k Key
	copy(k[:], rec)
	return k, record{Entry: Entry{Checksum: string(strs[dl:])}, used: int64(le.Uint64(rec[32:]))}, strs[:dl], true
}

// intern returns b as a string, one string per name.
func intern(names map[string]string, b []byte) string {
	if s, ok := names[string(b)]; ok {
		return s
	}
	s := string(b)
	names[s] = s
	return s
}

// stamp returns the stamp under the path key pk, with its entry.
func (t *table) stamp(pk Key, names map[string]string) (sr stampRecord, r record, ok bool) {
	if !t.sound() {
		return stampRecord{}, record{}, false
	}
	t.safely(func() bool {
		i, found := t.search(t.stamps, t.sorder, t.sfan, stampSize, pk)
		if !found {
			return false
		}
		var e int
		if sr, e, ok = t.stampAt(i); ok {
			_, r, ok = t.entryAt(e, names)
		}
		return ok
	})
	return sr, r, ok
}

// stampAt reads the i-th stamp, checking it, with the key and number of its entry.
func (t *table) stampAt(i int) (stampRecord, int, bool) {
	rec := t.stamps[i*stampSize : (i+1)*stampSize]
	le := binary.LittleEndian
	if crc32.Checksum(rec[:84], castagnoli()) != le.Uint32(rec[84:]) {
		t.bad.Store(true)
		return stampRecord{}, 0, false
	}
	e := int(le.Uint32(rec[32:]))
	if e >= t.nEntries {
		t.bad.Store(true)
		return stampRecord{}, 0, false
	}
	sr := stampRecord{used: int64(le.Uint64(rec[36:])), Stamp: Stamp{
		Dev: le.Uint64(rec[44:]), Ino: le.Uint64(rec[52:]), Size: int64(le.Uint64(rec[60:])),
		Mtime: int64(le.Uint64(rec[68:])), Ctime: int64(le.Uint64(rec[76:])),
	}}
	copy(sr.key[:], t.entries[e*entrySize:])
	return sr, e, true
}

// mergedEntry and mergedStamp are an entry and a stamp of a new index.
type mergedEntry struct {
	key  Key
	used int64
	dial string
	sum  string
}

type mergedStamp struct {
	pk Key
	stampRecord
	number uint32 // of its entry in the new index
}

// all reads every entry and stamp of t, each checked, in key order; none when any is
// damaged or out of order (an order that is no permutation of its records cannot be
// strictly increasing): the index then counts for nothing.
func (t *table) all(names map[string]string) (es []mergedEntry, ss []mergedStamp) {
	if !t.sound() {
		return nil, nil
	}
	le := binary.LittleEndian
	ok := t.safely(func() bool {
		es = make([]mergedEntry, 0, t.nEntries)
		for m := range t.nEntries {
			i := int(le.Uint32(t.eorder[m*4:]))
			if i >= t.nEntries {
				return false
			}
			k, r, ok := t.entryAt(i, names)
			if !ok || (m > 0 && bytes.Compare(es[m-1].key[:], k[:]) >= 0) {
				return false
			}
			es = append(es, mergedEntry{k, r.used, r.Dialect, r.Checksum})
		}
		ss = make([]mergedStamp, 0, t.nStamp)
		for m := range t.nStamp {
			i := int(le.Uint32(t.sorder[m*4:]))
			if i >= t.nStamp {
				return false
			}
			sr, _, ok := t.stampAt(i)
			var pk Key
			copy(pk[:], t.stamps[i*stampSize:])
			if !ok || (m > 0 && bytes.Compare(ss[m-1].pk[:], pk[:]) >= 0) {
				return false
			}
			ss = append(ss, mergedStamp{pk: pk, stampRecord: sr})
		}
		return true
	})
	if !ok {
		return nil, nil
	}
	return es, ss
}

// writeIndex writes, over the index at path, the merge of old (when sound) with
// entries and stamps, which win: the maxEntries most recently used entries, and as
// many of the stamps whose entries are kept, keys breaking ties. Written to a
// temporary file and renamed.
func writeIndex(path string, old *table, entries map[Key]record, stamps map[Key]stampRecord, lists map[Key]listRecord) error {
	names := map[string]string{}
	oes, oss := old.all(names)
	ols := old.allListings()

	es := make([]mergedEntry, 0, len(entries))
	for k, r := range entries {
		es = append(es, mergedEntry{k, r.used, r.Dialect, r.Checksum})
	}
	slices.SortFunc(es, func(a, b mergedEntry) int { return bytes.Compare(a.key[:], b.key[:]) })
	es = mergeSorted(oes, es, func(a, b mergedEntry) int { return bytes.Compare(a.key[:], b.key[:]) },
		func(o, n mergedEntry) mergedEntry { n.used = max(n.used, o.used); return n })
	es = recent(es, func(e mergedEntry) int64 { return e.used }, func(a, b mergedEntry) int { return bytes.Compare(a.key[:], b.key[:]) })

	ss := make([]mergedStamp, 0, len(stamps))
	for pk, sr := range stamps {
		ss = append(ss, mergedStamp{pk: pk, stampRecord: sr})
	}
	cmpStamp := func(a, b mergedStamp) int { return bytes.Compare(a.pk[:], b.pk[:]) }
	slices.SortFunc(ss, cmpStamp)
	// A path's newer stamp replaces the index's: its file has changed since. A stamp
	// whose entry is not kept goes with it.
	ss = mergeSorted(oss, ss, cmpStamp, func(_, n mergedStamp) mergedStamp { return n })
	// Each stamp's entry is found through a map: a binary search per stamp missed the
	// cache at every probe, a third of a full merge.
	entryAt := make(map[Key]int, len(es))
	for i, e := range es {
		entryAt[e.key] = i
	}
	kept := ss[:0]
	for _, s := range ss {
		n, ok := entryAt[s.key]
		if ok {
			s.number = uint32(n)
			kept = append(kept, s)
		}
	}
	kept = recent(kept, func(s mergedStamp) int64 { return s.used }, cmpStamp)
	ls := keptListings(ols, lists)
	lay := layOut(es, kept, ls)
	return writeFile(path, func(w *bufio.Writer) error { return encodeIndex(w, es, kept, ls, lay) })
}

// layout is where the records of a new index go: the number of each entry and stamp
// (by its place in key order), and the places in key order in layout order.
type layout struct {
	epos, spos     []uint32
	eorder, sorder []int // places in key order, in layout order
}

// layOut lays es and ss (sorted by key) out in the order a walk meets them, and
// gives each listed name the hint of its file's stamp, when it has one.
func layOut(es []mergedEntry, ss []mergedStamp, ls []mergedListing) layout {
	var lay layout
	placed := make([]bool, len(ss))
	var stampAt map[Key]int
	if len(ls) > 0 {
		stampAt = make(map[Key]int, len(ss))
		for i, s := range ss {
			stampAt[s.pk] = i
		}
	}
	for _, l := range ls {
		for i, e := range l.ents {
			l.ents[i].Hint = 0
			if e.Type != 0 {
				continue // not a regular file: walked, never looked up
			}
			pk := pathKey(childPath(l.dir, e.Name))
			n, ok := stampAt[pk]
			if ok && !placed[n] {
				placed[n] = true
				lay.sorder = append(lay.sorder, n)
				l.ents[i].Hint = Hint(len(lay.sorder))
			}
		}
	}
	for n := range ss {
		if !placed[n] {
			lay.sorder = append(lay.sorder, n)
		}
	}
	eplaced := make([]bool, len(es))
	for _, n := range lay.sorder {
		if e := ss[n].number; !eplaced[e] {
			eplaced[e] = true
			lay.eorder = append(lay.eorder, int(e))
		}
	}
	for n := range es {
		if !eplaced[n] {
			lay.eorder = append(lay.eorder, n)
		}
	}
	lay.epos, lay.spos = make([]uint32, len(es)), make([]uint32, len(ss))
	for at, n := range lay.eorder {
		lay.epos[n] = uint32(at)
	}
	for at, n := range lay.sorder {
		lay.spos[n] = uint32(at)
	}
	return lay
}

// mergeSorted merges two lists sorted by cmp, each key at most once in each;
// a key in both is join(from a, from b).
func mergeSorted[T any](a, b []T, cmp func(x, y T) int, join func(x, y T) T) []T {
	if len(b) == 0 {
		return a
	}
	out := make([]T, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := cmp(a[i], b[j]); {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			out = append(out, join(a[i], b[j]))
			i++
			j++
		}
	}
	out = append(out, a[i:]...)
	return append(out, b[j:]...)
}

// recent keeps the maxEntries most recently used of list (cmp breaking ties), in
// list's order.
func recent[T any](list []T, used func(T) int64, cmp func(a, b T) int) []T {
	if len(list) <= maxEntries {
		return list
	}
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if ua, ub := used(list[a]), used(list[b]); ua != ub {
			if ua > ub {
				return -1
			}
			return 1
		}
		return cmp(list[a], list[b])
	})
	keep := make([]bool, len(list))
	for _, i := range order[:maxEntries] {
		keep[i] = true
	}
	out := list[:0]
	for i, x := range list {
		if keep[i] {
			out = append(out, x)
		}
	}
	return out
}

// encodeIndex writes an index of es and ss, each sorted.
func encodeIndex(w *bufio.Writer, es []mergedEntry, ss []mergedStamp, ls []mergedListing, lay layout) error {
	le := binary.LittleEndian
	var strs uint64
	for _, e := range es {
		strs += uint64(len(e.dial) + len(e.sum))
	}
	blobs := make([][]byte, len(ls))
	heap := strs
	for i, l := range ls {
		blobs[i] = appendListing(nil, l.listRecord, func(j int) Hint { return l.ents[j].Hint })
		heap += uint64(len(blobs[i]))
	}
	hdr := make([]byte, headerSize)
	copy(hdr, magic)
	le.PutUint64(hdr[16:], uint64(len(es)))
	le.PutUint64(hdr[24:], uint64(len(ss)))
	le.PutUint64(hdr[32:], uint64(len(ls)))
	le.PutUint64(hdr[40:], heap)
	countFan(hdr[headerFixed:headerFixed+fanout], len(es), func(i int) byte { return es[i].key[0] })
	countFan(hdr[headerFixed+fanout:], len(ss), func(i int) byte { return ss[i].pk[0] })
	le.PutUint32(hdr[48:], headerSum(hdr))
	if _, err := w.Write(hdr); err != nil {
		return err
	}
	var rec [stampSize]byte
	off := uint32(0)
	for _, n := range lay.eorder {
		e := es[n]
		copy(rec[:32], e.key[:])
		le.PutUint64(rec[32:], uint64(e.used))
		le.PutUint32(rec[40:], off)
		le.PutUint16(rec[44:], uint16(len(e.dial)))
		le.PutUint16(rec[46:], uint16(len(e.sum)))
		sum := crc32.Update(crc32.Update(crc32.Update(0, castagnoli(), rec[:48]), castagnoli(), []byte(e.dial)), castagnoli(), []byte(e.sum))
		le.PutUint32(rec[48:], sum)
		if _, err := w.Write(rec[:entrySize]); err != nil {
			return err
		}
		off += uint32(len(e.dial) + len(e.sum))
	}
	for _, n := range lay.sorder {
		s := ss[n]
		copy(rec[:32], s.pk[:])
		le.PutUint32(rec[32:], lay.epos[s.number])
		le.PutUint64(rec[36:], uint64(s.used))
		le.PutUint64(rec[44:], s.Dev)
		le.PutUint64(rec[52:], s.Ino)
		le.PutUint64(rec[60:], uint64(s.Size))
		le.PutUint64(rec[68:], uint64(s.Mtime))
		le.PutUint64(rec[76:], uint64(s.Ctime))
		le.PutUint32(rec[84:], crc32.Checksum(rec[:84], castagnoli()))
		if _, err := w.Write(rec[:stampSize]); err != nil {
			return err
		}
	}
	var lrec [listingSize]byte
	loff := uint32(strs)
	for i, l := range ls {
		copy(lrec[:32], l.pk[:])
		le.PutUint64(lrec[32:], uint64(l.used))
		le.PutUint64(lrec[40:], l.st.Dev)
		le.PutUint64(lrec[48:], l.st.Ino)
		le.PutUint64(lrec[56:], uint64(l.st.Size))
		le.PutUint64(lrec[64:], uint64(l.st.Mtime))
		le.PutUint64(lrec[72:], uint64(l.st.Ctime))
		le.PutUint32(lrec[80:], loff)
		le.PutUint32(lrec[84:], uint32(len(blobs[i])))
		le.PutUint32(lrec[88:], uint32(len(l.ents)))
		le.PutUint32(lrec[92:], crc32.Update(crc32.Update(0, castagnoli(), lrec[:92]), castagnoli(), blobs[i]))
		if _, err := w.Write(lrec[:]); err != nil {
			return err
		}
		loff += uint32(len(blobs[i]))
	}
	for _, order := range [][]uint32{lay.epos, lay.spos} {
		for _, at := range order {
			if _, err := w.Write(le.AppendUint32(rec[:0], at)); err != nil {
				return err
			}
		}
	}
	for _, n := range lay.eorder {
		e := es[n]
		if _, err := w.WriteString(e.dial); err != nil {
			return err
		}
		if _, err := w.WriteString(e.sum); err != nil {
			return err
		}
	}
	for _, b := range blobs {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// countFan fills fan with the cumulative counts of n sorted records by first byte.
func countFan(fan []byte, n int, first func(int) byte) {
	var counts [256]uint32
	for i := range n {
		counts[first(i)]++
	}
	total := uint32(0)
	for b := range 256 {
		total += counts[b]
		binary.LittleEndian.PutUint32(fan[b*4:], total)
	}
}

// writeFile writes a file at path through a temporary file renamed over it, so that
// a reader sees the old file or the new one, whole.
func writeFile(path string, write func(*bufio.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+tmpInfix+"*")
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 64<<10)
	werr := write(w)
	if werr == nil {
		werr = w.Flush()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name()) //nolint:errcheck // the write already failed
		return werr
	}
	return nil
}
