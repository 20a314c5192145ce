package cache

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"os"
	"testing"
	"time"
)

// fuzzSeeds are an index and a journal holding entries, stamps and a listing.
func fuzzSeeds(f *testing.F) (index, journalData []byte) {
	dir := f.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	c := Open(dir, scope)
	st := Stamp{Dev: 1, Ino: 100, Size: 10, Mtime: old, Ctime: old}
	c.Put(key(0), entryOf(0))
	c.PutStamp("/repo/d/f000.json", st, key(0))
	c.PutListing("/repo/d", st, []Dirent{{Name: "f000.json"}, {Name: "sub", Type: fs.ModeDir}})
	if err := c.Close(); err != nil {
		f.Fatal(err)
	}
	index, err := os.ReadFile(c.path)
	if err != nil {
		f.Fatal(err)
	}
	batch := encodeBatch(map[Key]record{key(1): {Entry: entryOf(1)}},
		map[Key]stampRecord{pathKey("/repo/e/a.json"): {Stamp: st, key: key(1)}},
		map[Key]listRecord{pathKey("/repo/e"): {dir: "/repo/e", st: st, ents: []Dirent{{Name: "a.json"}}}})
	return index, append([]byte(journalMagic), batch...)
}

// Whatever an index's bytes, reading it never panics: every lookup answers or not.
func FuzzIndex(f *testing.F) {
	index, _ := fuzzSeeds(f)
	f.Add(index, uint32(1))
	f.Fuzz(func(t *testing.T, data []byte, hint uint32) {
		if len(data) >= headerSize {
			// Past the header's own checksum, to what it guards.
			binary.LittleEndian.PutUint32(data[48:], headerSum(data))
		}
		tb := &table{data: data}
		if !tb.safely(tb.parse) {
			return
		}
		names := map[string]string{}
		tb.get(key(0), names)
		tb.stamp(pathKey("/repo/d/f000.json"), names)
		tb.stampNumbered(int(hint % 1024))
		if l, ok := tb.listing(pathKey("/repo/d")); ok {
			for _, e := range l.ents {
				if e.Hint != 0 {
					tb.stampNumbered(int(e.Hint) - 1)
				}
			}
		}
		tb.all(names)
		tb.allListings()
	})
}

// Whatever a journal's bytes, reading it never panics, and what it believes decodes.
func FuzzJournal(f *testing.F) {
	_, j := fuzzSeeds(f)
	f.Add(j)
	f.Fuzz(func(t *testing.T, data []byte) {
		var jr journal
		jr.parse(data)
		if !bytes.HasPrefix(data, []byte(journalMagic)) {
			return
		}
		names := map[string]string{}
		jr.all(names)
		for pk := range jr.listings {
			if l, ok := jr.listing(pk); !ok || l.dir == "" && len(l.ents) > 0 && l.ents[0].Name == "" {
				t.Fatalf("a believed listing does not decode: %+v", l)
			}
		}
		jr.allListings()
	})
}
