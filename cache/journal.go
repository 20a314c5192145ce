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
//	entry count, stamp count (4 bytes each)
//	entry: key (32), last use (8), dialect length, checksum length (2 each), the
//	dialect, the checksum
//	stamp: path key (32), entry key (32), last use, device, inode, size,
//	modification and status-change time (8 each)
const (
	journalMagic    = "dws-cache 4 journal\n"
	batchHeader     = 8
	journalStamp    = 32 + 32 + 6*8
	journalEntryMin = 32 + 8 + 2 + 2
)

// journal is what a journal holds.
type journal struct {
	entries map[Key]record
	stamps  map[Key]stampRecord
	size    int  // bytes up to the end of the last whole batch: where to append
	whole   bool // the file is its magic and whole batches, nothing else
}

// readJournal reads the journal at path: only the user's own regular file, bounded
// (source.ReadPrivate). The error of a file that is not there wraps fs.ErrNotExist;
// the maps are never nil.
func readJournal(path string, names map[string]string) (journal, error) {
	j := journal{entries: map[Key]record{}, stamps: map[Key]stampRecord{}}
	data, err := source.ReadPrivate(path, journalReadBytes)
	if err != nil {
		return j, err
	}
	j.parse(data, names)
	return j, nil
}

// parse believes data's batches up to the first that is not whole: one being
// appended, or one a killed writer left torn.
func (j *journal) parse(data []byte, names map[string]string) {
	if !bytes.HasPrefix(data, []byte(journalMagic)) {
		return
	}
	le := binary.LittleEndian
	rest := data[len(journalMagic):]
	j.size = len(journalMagic)
	for len(rest) >= batchHeader {
		n := uint64(le.Uint32(rest))
		if n > uint64(len(rest)-batchHeader) {
			return
		}
		payload := rest[batchHeader : batchHeader+n]
		if crc32.Checksum(payload, castagnoli) != le.Uint32(rest[4:]) || !j.batch(payload, names) {
			return
		}
		rest = rest[batchHeader+n:]
		j.size += batchHeader + int(n)
	}
	j.whole = len(rest) == 0
}

// batch reads one batch's payload into j, all of it or (when it does not hold
// together) none.
func (j *journal) batch(p []byte, names map[string]string) bool {
	le := binary.LittleEndian
	if len(p) < 8 {
		return false
	}
	ne, ns := int(le.Uint32(p)), int(le.Uint32(p[4:]))
	p = p[8:]
	if ne > len(p)/journalEntryMin || ns > len(p)/journalStamp {
		return false
	}
	type entry struct {
		k Key
		r record
	}
	es := make([]entry, 0, ne)
	for range ne {
		if len(p) < journalEntryMin {
			return false
		}
		var e entry
		copy(e.k[:], p)
		e.r.used = int64(le.Uint64(p[32:]))
		dl, cl := int(le.Uint16(p[40:])), int(le.Uint16(p[42:]))
		p = p[journalEntryMin:]
		if dl+cl > len(p) {
			return false
		}
		e.r.Dialect, e.r.Checksum = intern(names, p[:dl]), string(p[dl:dl+cl])
		p = p[dl+cl:]
		es = append(es, e)
	}
	if len(p) != ns*journalStamp {
		return false
	}
	for _, e := range es {
		j.entries[e.k] = e.r
	}
	for ; len(p) > 0; p = p[journalStamp:] {
		var pk Key
		copy(pk[:], p)
		sr := stampRecord{used: int64(le.Uint64(p[64:])), Stamp: Stamp{
			Dev: le.Uint64(p[72:]), Ino: le.Uint64(p[80:]), Size: int64(le.Uint64(p[88:])),
			Mtime: int64(le.Uint64(p[96:])), Ctime: int64(le.Uint64(p[104:])),
		}}
		copy(sr.key[:], p[32:])
		j.stamps[pk] = sr
	}
	return true
}

// encodeBatch encodes entries and stamps as one batch, keys in order.
func encodeBatch(entries map[Key]record, stamps map[Key]stampRecord) []byte {
	le := binary.LittleEndian
	b := make([]byte, batchHeader+8, batchHeader+8+len(entries)*(journalEntryMin+80)+len(stamps)*journalStamp)
	le.PutUint32(b[batchHeader:], uint32(len(entries)))
	le.PutUint32(b[batchHeader+4:], uint32(len(stamps)))
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
	le.PutUint32(b, uint32(len(b)-batchHeader))
	le.PutUint32(b[4:], crc32.Checksum(b[batchHeader:], castagnoli))
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
