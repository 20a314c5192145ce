package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"slices"

	"github.com/dwsdev/dws/source"
)

// A journal is its magic, then batches, one a run that appended: the payload's
// length and CRC-32C (4 bytes each), then the payload, little-endian:
//
//	entry count, stamp count, listing count (4 bytes each)
//	entry: key (32), last use (8), dialect length, checksum length (2 each), the
//	dialect, the checksum
//	stamp: path key (32), entry key (32), last use, device, inode, size,
//	modification and status-change time (8 each)
//	listing: path key of the directory (32), last use, device, inode, size,
//	modification and status-change time (8 each), length and name count of its
//	bytes (4 each), then its bytes as in an index, every hint 0 (the stamps it
//	would lead to are numbered when the journal is merged into an index)
const (
	journalMagic      = "dws-cache 6 journal\n"
	batchHeader       = 8
	journalStamp      = 32 + 32 + 6*8
	journalEntryMin   = 32 + 8 + 2 + 2
	journalListingMin = 32 + 6*8 + 4 + 4
)

// journal is what a journal holds: its bytes, and where each key's newest record
// is in them, decoded when looked up (a journal near its bound holds a thousand
// runs' additions, and a one-file run looks up one or two).
type journal struct {
	data     []byte
	entries  map[Key]int // the offset of the entry under a key
	stamps   map[Key]int // the offset of the stamp under a path key
	listings map[Key]int // the offset of the listing under a directory's path key
	size     int         // bytes up to the end of the last whole batch: where to append
	whole    bool        // the file is its magic and whole batches, nothing else
}

// readJournal reads the journal at path: only the user's own regular file, bounded
// (source.ReadPrivate). The error of a file that is not there wraps fs.ErrNotExist.
func readJournal(path string) (journal, error) {
	data, err := source.ReadPrivate(path, journalReadBytes)
	if err != nil {
		return journal{}, err
	}
	var j journal
	j.parse(data)
	return j, nil
}

// parse believes data's batches up to the first that is not whole: one being
// appended, or one a killed writer left torn.
func (j *journal) parse(data []byte) {
	if !bytes.HasPrefix(data, []byte(journalMagic)) {
		return
	}
	j.data = data
	le := binary.LittleEndian
	// First the batches that are whole, and how many records they hold.
	type batch struct{ at, n int }
	var batches []batch
	ne, ns, nl := 0, 0, 0
	at := len(journalMagic)
	for len(data)-at >= batchHeader {
		n := int(le.Uint32(data[at:]))
		if n > len(data)-at-batchHeader {
			break
		}
		payload := data[at+batchHeader : at+batchHeader+n]
		e, s, l, ok := batchHolds(payload)
		if !ok || crc32.Checksum(payload, castagnoli()) != le.Uint32(data[at+4:]) {
			break
		}
		batches = append(batches, batch{at + batchHeader, n})
		ne, ns, nl = ne+e, ns+s, nl+l
		at += batchHeader + n
	}
	j.size, j.whole = at, at == len(data)
	j.entries, j.stamps = make(map[Key]int, ne), make(map[Key]int, ns)
	j.listings = make(map[Key]int, nl)
	for _, b := range batches {
		p := data[b.at : b.at+b.n]
		ne, ns, nl := int(le.Uint32(p)), int(le.Uint32(p[4:])), int(le.Uint32(p[8:]))
		off := b.at + 12
		for range ne {
			j.entries[Key(data[off:off+32])] = off
			off += journalEntryMin + int(le.Uint16(data[off+40:])) + int(le.Uint16(data[off+42:]))
		}
		for range ns {
			j.stamps[Key(data[off:off+32])] = off
			off += journalStamp
		}
		for range nl {
			j.listings[Key(data[off:off+32])] = off
			off += journalListingMin + int(le.Uint32(data[off+80:]))
		}
	}
}

// batchHolds says whether the payload p holds together: its counts of entries,
// stamps and listings and the records they count, to its last byte, each listing's
// bytes as a listing's are.
func batchHolds(p []byte) (entries, stamps, listings int, ok bool) {
	le := binary.LittleEndian
	if len(p) < 12 {
		return 0, 0, 0, false
	}
	ne, ns, nl := int(le.Uint32(p)), int(le.Uint32(p[4:])), int(le.Uint32(p[8:]))
	p = p[12:]
	if ne > len(p)/journalEntryMin || ns > len(p)/journalStamp || nl > len(p)/journalListingMin {
		return 0, 0, 0, false
	}
	for range ne {
		if len(p) < journalEntryMin {
			return 0, 0, 0, false
		}
		n := journalEntryMin + int(le.Uint16(p[40:])) + int(le.Uint16(p[42:]))
		if n > len(p) {
			return 0, 0, 0, false
		}
		p = p[n:]
	}
	if len(p) < ns*journalStamp {
		return 0, 0, 0, false
	}
	p = p[ns*journalStamp:]
	for range nl {
		if len(p) < journalListingMin {
			return 0, 0, 0, false
		}
		n := int(le.Uint32(p[80:]))
		if n > len(p)-journalListingMin {
			return 0, 0, 0, false
		}
		if _, ok := decodeListing(p[journalListingMin:journalListingMin+n], int(le.Uint32(p[84:]))); !ok {
			return 0, 0, 0, false
		}
		p = p[journalListingMin+n:]
	}
	return ne, ns, nl, len(p) == 0
}

// listing returns the listing under the directory's path key pk.
func (j *journal) listing(pk Key) (listRecord, bool) {
	off, ok := j.listings[pk]
	if !ok {
		return listRecord{}, false
	}
	return j.listingAt(off), true
}

// listingAt decodes the listing at off, which batchHolds found sound.
func (j *journal) listingAt(off int) listRecord {
	le := binary.LittleEndian
	p := j.data[off:]
	n, count := int(le.Uint32(p[80:])), int(le.Uint32(p[84:]))
	l, _ := decodeListing(p[journalListingMin:journalListingMin+n], count)
	l.used = int64(le.Uint64(p[32:]))
	l.st = Stamp{Dev: le.Uint64(p[40:]), Ino: le.Uint64(p[48:]), Size: int64(le.Uint64(p[56:])),
		Mtime: int64(le.Uint64(p[64:])), Ctime: int64(le.Uint64(p[72:]))}
	return l
}

// allListings returns every listing of j, decoded.
func (j *journal) allListings() map[Key]listRecord {
	ls := make(map[Key]listRecord, len(j.listings))
	for pk, off := range j.listings {
		ls[pk] = j.listingAt(off)
	}
	return ls
}

// entry returns the entry under k.
func (j *journal) entry(k Key, names map[string]string) (record, bool) {
	off, ok := j.entries[k]
	if !ok {
		return record{}, false
	}
	return j.entryAt(off, names), true
}

func (j *journal) entryAt(off int, names map[string]string) record {
	le := binary.LittleEndian
	p := j.data[off:]
	dl, cl := int(le.Uint16(p[40:])), int(le.Uint16(p[42:]))
	strs := p[journalEntryMin : journalEntryMin+dl+cl]
	return record{used: int64(le.Uint64(p[32:])),
		Entry: Entry{Dialect: intern(names, strs[:dl]), Checksum: string(strs[dl:])}}
}

// stamp returns the stamp under the path key pk.
func (j *journal) stamp(pk Key) (stampRecord, bool) {
	off, ok := j.stamps[pk]
	if !ok {
		return stampRecord{}, false
	}
	return j.stampAt(off), true
}

func (j *journal) stampAt(off int) stampRecord {
	le := binary.LittleEndian
	p := j.data[off:]
	sr := stampRecord{used: int64(le.Uint64(p[64:])), Stamp: Stamp{
		Dev: le.Uint64(p[72:]), Ino: le.Uint64(p[80:]), Size: int64(le.Uint64(p[88:])),
		Mtime: int64(le.Uint64(p[96:])), Ctime: int64(le.Uint64(p[104:])),
	}}
	copy(sr.key[:], p[32:])
	return sr
}

// all returns every entry and stamp of j, decoded.
func (j *journal) all(names map[string]string) (map[Key]record, map[Key]stampRecord) {
	entries, stamps := make(map[Key]record, len(j.entries)), make(map[Key]stampRecord, len(j.stamps))
	for k, off := range j.entries {
		entries[k] = j.entryAt(off, names)
	}
	for pk, off := range j.stamps {
		stamps[pk] = j.stampAt(off)
	}
	return entries, stamps
}

// encodeBatch encodes entries, stamps and listings as one batch, keys in order.
func encodeBatch(entries map[Key]record, stamps map[Key]stampRecord, listings map[Key]listRecord) []byte {
	le := binary.LittleEndian
	b := make([]byte, batchHeader+12, batchHeader+12+len(entries)*(journalEntryMin+80)+len(stamps)*journalStamp)
	le.PutUint32(b[batchHeader:], uint32(len(entries)))
	le.PutUint32(b[batchHeader+4:], uint32(len(stamps)))
	le.PutUint32(b[batchHeader+8:], uint32(len(listings)))
	cmp := func(a, b Key) int { return bytes.Compare(a[:], b[:]) }
	for _, k := range sortedKeys(entries, cmp) {
		r := entries[k]
		b = append(b, k[:]...)
		b = le.AppendUint64(b, uint64(r.used))
		b = le.AppendUint16(b, uint16(len(r.Dialect)))
		b = le.AppendUint16(b, uint16(len(r.Checksum)))
		b = append(b, r.Dialect...)
		b = append(b, r.Checksum...)
	}
	for _, pk := range sortedKeys(stamps, cmp) {
		sr := stamps[pk]
		b = append(b, pk[:]...)
		b = append(b, sr.key[:]...)
		for _, v := range []uint64{uint64(sr.used), sr.Dev, sr.Ino, uint64(sr.Size), uint64(sr.Mtime), uint64(sr.Ctime)} {
			b = le.AppendUint64(b, v)
		}
	}
	for _, pk := range sortedKeys(listings, cmp) {
		l := listings[pk]
		b = append(b, pk[:]...)
		for _, v := range []uint64{uint64(l.used), l.st.Dev, l.st.Ino, uint64(l.st.Size), uint64(l.st.Mtime), uint64(l.st.Ctime)} {
			b = le.AppendUint64(b, v)
		}
		b = le.AppendUint32(b, uint32(listingBytes(l)))
		b = le.AppendUint32(b, uint32(len(l.ents)))
		b = appendListing(b, l, func(int) Hint { return 0 })
	}
	le.PutUint32(b, uint32(len(b)-batchHeader))
	le.PutUint32(b[4:], crc32.Checksum(b[batchHeader:], castagnoli()))
	return b
}

func sortedKeys[V any](m map[Key]V, cmp func(a, b Key) int) []Key {
	keys := make([]Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp)
	return keys
}

// errJournalMoved is a journal that is not as its writer just read it.
var errJournalMoved = errors.New("the journal changed under its lock")

// appendJournal appends batch to the journal at path, which was read under the
// writers' lock as size bytes of whole batches (0: there was none). It is opened
// without following a link or waiting, checked to be that same file of the user's
// own, and written in one write; a write cut short is cut off again, and were it
// left, the next writer would find the batch torn and merge the journal away.
func appendJournal(path string, size int, batch []byte) error {
	flags := os.O_WRONLY | os.O_APPEND | noFollow
	if size == 0 {
		flags |= os.O_CREATE | os.O_EXCL
		batch = append([]byte(journalMagic), batch...)
	}
	f, err := os.OpenFile(path, flags, 0o600)
	if err != nil {
		return err
	}
	defer f.Close() //nolint:errcheck // the write's own error is returned
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Size() != int64(size) {
		return errJournalMoved
	}
	if err := source.Private(path, st); err != nil {
		return err
	}
	if n, err := f.Write(batch); err != nil || n != len(batch) {
		f.Truncate(int64(size)) //nolint:errcheck // a torn batch left is never believed
		if err == nil {
			err = errJournalMoved
		}
		return err
	}
	return nil
}
