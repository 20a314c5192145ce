package cache

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// listed writes, in a new run of scope in dir, n files of the directory /repo/d
// with their entries and stamps and the directory's listing (under dirStamp), and
// returns the listing and the files' stamps.
func listed(t *testing.T, dir string, scope Key, n int, dirStamp Stamp) ([]Dirent, []Stamp) {
	t.Helper()
	c := Open(dir, scope)
	old := c.opened.Add(-time.Hour).UnixNano()
	ents := []Dirent{{Name: "sub", Type: fs.ModeDir}, {Name: "zlink", Type: fs.ModeSymlink}}
	var sts []Stamp
	for i := range n {
		name := fmt.Sprintf("f%03d.json", i)
		st := Stamp{Dev: 1, Ino: uint64(100 + i), Size: 10, Mtime: old, Ctime: old}
		c.Put(key(i), entryOf(i))
		c.PutStamp("/repo/d/"+name, st, key(i))
		ents = append(ents, Dirent{Name: name})
		sts = append(sts, st)
	}
	slices.SortFunc(ents, func(a, b Dirent) int { return strings.Compare(a.Name, b.Name) })
	c.PutListing("/repo/d", dirStamp, ents)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	return ents, sts
}

// checkListed says what a run of scope in dir finds: the listing of /repo/d under
// dirStamp, each name's type, and each file answered through its hint.
func checkListed(t *testing.T, dir string, scope Key, want []Dirent, dirStamp Stamp, sts []Stamp) {
	t.Helper()
	c := Open(dir, scope)
	defer c.Close()
	got, ok := c.Listing("/repo/d", dirStamp)
	if !ok {
		t.Fatal("the listing was not kept")
	}
	if len(got) != len(want) {
		t.Fatalf("the listing holds %d names, want %d", len(got), len(want))
	}
	files := 0
	for i, e := range got {
		if e.Name != want[i].Name || e.Type != want[i].Type {
			t.Fatalf("name %d: %q %v, want %q %v", i, e.Name, e.Type, want[i].Name, want[i].Type)
		}
		if e.Type != 0 {
			if e.Hint != 0 {
				t.Errorf("%s, no file, has a hint", e.Name)
			}
			continue
		}
		var n int
		fmt.Sscanf(e.Name, "f%03d.json", &n)
		if e.Hint == 0 {
			t.Errorf("%s has no hint", e.Name)
		} else if sr, _, ok := c.index.stampNumbered(int(e.Hint) - 1); !ok || sr.Stamp != sts[n] {
			t.Errorf("%s: its hint leads to the stamp %+v, not its own", e.Name, sr.Stamp)
		}
		entry, ok := c.StampedHint("/repo/d/"+e.Name, e.Hint, sts[n])
		if !ok || entry != entryOf(n) {
			t.Errorf("%s through its hint: %v %v", e.Name, entry, ok)
		}
		// Another stamp (the file changed since) is not answered, hint or none.
		other := sts[n]
		other.Ctime++
		if _, ok := c.StampedHint("/repo/d/"+e.Name, e.Hint, other); ok {
			t.Errorf("%s: a changed file answered through its hint", e.Name)
		}
		files++
	}
	if files != len(sts) {
		t.Fatalf("%d files listed, want %d", files, len(sts))
	}
}

// A listing is kept under its directory's stamp and read back whole, in order, with
// each file's hint leading to its stamp; another stamp of the directory (an entry
// added, removed or renamed since) finds nothing, nor does another directory.
func TestListing(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	dirStamp := Stamp{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old}
	want, sts := listed(t, dir, scope, 50, dirStamp)
	checkListed(t, dir, scope, want, dirStamp, sts)

	c := Open(dir, scope)
	defer c.Close()
	// The listed files' stamps, and their entries, are laid out in the listing's
	// order: a walk reads them front to back.
	got, _ := c.Listing("/repo/d", dirStamp)
	next := Hint(1)
	for _, e := range got {
		if e.Type != 0 {
			continue
		}
		if e.Hint != next {
			t.Fatalf("%s: hint %d, want %d (the stamps in the listing's order)", e.Name, e.Hint, next)
		}
		if _, n, ok := c.index.stampAt(int(e.Hint) - 1); !ok || n != int(e.Hint)-1 {
			t.Fatalf("%s: its stamp's entry is number %d, want %d", e.Name, n, e.Hint-1)
		}
		next++
	}
	for _, other := range []Stamp{
		{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old + 1},
		{Dev: 1, Ino: 7, Size: 4096, Mtime: old + 1, Ctime: old},
		{Dev: 1, Ino: 8, Size: 4096, Mtime: old, Ctime: old},
		{Dev: 1, Ino: 7, Size: 8192, Mtime: old, Ctime: old},
	} {
		if _, ok := c.Listing("/repo/d", other); ok {
			t.Errorf("the listing answered for the stamp %+v", other)
		}
	}
	if _, ok := c.Listing("/repo/e", dirStamp); ok {
		t.Error("the listing answered for another directory")
	}
}

// A directory changed within the racy window keeps no listing: a change made later in
// the same tick of the file system's clock would leave its stamp as it was.
func TestListingRacy(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	c := Open(dir, scope)
	recent := c.opened.Add(-RacyWindow / 2).UnixNano()
	old := c.opened.Add(-time.Hour).UnixNano()
	ents := []Dirent{{Name: "a.json"}}
	c.PutListing("/repo/m", Stamp{Dev: 1, Ino: 1, Mtime: recent, Ctime: old}, ents)
	c.PutListing("/repo/c", Stamp{Dev: 1, Ino: 2, Mtime: old, Ctime: recent}, ents)
	c.PutListing("/repo/unsorted", Stamp{Dev: 1, Ino: 3, Mtime: old, Ctime: old}, []Dirent{{Name: "b"}, {Name: "a"}})
	c.PutListing("/repo/dots", Stamp{Dev: 1, Ino: 4, Mtime: old, Ctime: old}, []Dirent{{Name: ".."}})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.path); err == nil {
		t.Fatal("an index was written, with nothing to keep")
	}
}

// Another run's writes merge the index again: the listing stays, and its hints lead
// to the stamps of the new index, including a stamp added since.
func TestListingSurvivesMerges(t *testing.T) {
	defer func(n int) { maxJournalBytes = n }(maxJournalBytes)
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	dirStamp := Stamp{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old}
	want, sts := listed(t, dir, scope, 20, dirStamp)

	// Stamps and entries of other files sort among the listed ones and shift their
	// numbers; f020.json is listed from now on too, its stamp added by a later run.
	c := Open(dir, scope)
	for i := 100; i < 300; i++ {
		c.Put(key(i), entryOf(i))
		c.PutStamp(fmt.Sprintf("/repo/other/%d.json", i), Stamp{Dev: 2, Ino: uint64(i), Mtime: old, Ctime: old}, key(i))
	}
	want = append(want, Dirent{Name: "f020.json"})
	slices.SortFunc(want, func(a, b Dirent) int { return strings.Compare(a.Name, b.Name) })
	c.PutListing("/repo/d", dirStamp, want)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	st := Stamp{Dev: 1, Ino: 120, Size: 10, Mtime: old, Ctime: old}
	c.Put(key(20), entryOf(20))
	c.PutStamp("/repo/d/f020.json", st, key(20))
	sts = append(sts, st)
	maxJournalBytes = 0 // merged into a new index at once
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	checkListed(t, dir, scope, want, dirStamp, sts)
}

// Listings are bounded: past MaxEntries names in all, the least recently kept go.
func TestListingsBounded(t *testing.T) {
	defer func(n, j int) { maxEntries, maxJournalBytes = n, j }(maxEntries, maxJournalBytes)
	maxEntries = 10
	maxJournalBytes = 0 // every run merges: the bounds hold in the index
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	ents := make([]Dirent, 4)
	for i := range ents {
		ents[i] = Dirent{Name: fmt.Sprintf("%d.json", i)}
	}
	for i := range 5 {
		c := Open(dir, scope)
		c.now += int64(i) // each run later than the one before
		c.PutListing(fmt.Sprintf("/repo/%d", i), Stamp{Dev: 1, Ino: uint64(i), Mtime: old, Ctime: old}, ents)
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	c := Open(dir, scope)
	defer c.Close()
	for i := range 5 {
		_, ok := c.Listing(fmt.Sprintf("/repo/%d", i), Stamp{Dev: 1, Ino: uint64(i), Mtime: old, Ctime: old})
		if want := i >= 3; ok != want {
			t.Errorf("listing %d kept: %v, want %v", i, ok, want)
		}
	}
}

// A damaged listing makes the whole index read as empty, as a damaged record does.
func TestDamagedListing(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	dirStamp := Stamp{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old}
	listed(t, dir, scope, 5, dirStamp)
	c := Open(dir, scope)
	data, err := os.ReadFile(c.path)
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("ok", func(t *testing.T) {
		if _, ok := Open(dir, scope).Listing("/repo/d", dirStamp); !ok {
			t.Fatal("the listing was not kept")
		}
	})
	tbl := &table{data: data}
	if !tbl.parse() || tbl.nListing != 1 {
		t.Fatal("the index does not parse")
	}
	listingAt := headerSize + tbl.nEntries*entrySize + tbl.nStamp*stampSize
	for name, at := range map[string]int{
		"its stamp":   listingAt + 50,
		"its offset":  listingAt + 81,
		"its count":   listingAt + 88,
		"a name":      len(data) - 3,
		"a hint":      len(data) - len(tbl.heap) + int(leUint32(tbl.listings[80:])) + 2 + len("/repo/d") + 4,
		"a type code": len(data) - len(tbl.heap) + int(leUint32(tbl.listings[80:])) + 2 + len("/repo/d") + 2,
	} {
		t.Run(name, func(t *testing.T) {
			d := slices.Clone(data)
			d[at] ^= 0x10
			sub := t.TempDir()
			c := Open(sub, scope)
			if err := os.WriteFile(c.path, d, 0o600); err != nil {
				t.Fatal(err)
			}
			c = Open(sub, scope)
			defer c.Close()
			if _, ok := c.Listing("/repo/d", dirStamp); ok {
				t.Error("a damaged listing was read")
			}
			if _, ok := c.Get(key(1)); ok {
				t.Error("the index of a damaged listing still answers")
			}
		})
	}
}

func leUint32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// A file answered through its hint records its use as a lookup does (when the index is
// full and the use is a day old), so that eviction keeps what warm walks use.
func TestHintRecordsUse(t *testing.T) {
	defer func(n, j int) { maxEntries, maxJournalBytes = n, j }(maxEntries, maxJournalBytes)
	maxEntries = 3
	maxJournalBytes = 0 // every run merges: the bounds hold in the index
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	dirStamp := Stamp{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old}
	c := Open(dir, scope)
	var sts []Stamp
	var ents []Dirent
	for i := range 3 {
		name := fmt.Sprintf("f%03d.json", i)
		sts = append(sts, Stamp{Dev: 1, Ino: uint64(100 + i), Size: 10, Mtime: old, Ctime: old})
		c.Put(key(i), entryOf(i))
		c.PutStamp("/repo/d/"+name, sts[i], key(i))
		ents = append(ents, Dirent{Name: name})
	}
	c.PutListing("/repo/d", dirStamp, ents)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for day, added := range []int{9, 8} {
		c := Open(dir, scope)
		c.now += int64(day+1) * useGrain
		ents, ok := c.Listing("/repo/d", dirStamp)
		if !ok {
			t.Fatalf("day %d: the listing was evicted", day)
		}
		for _, e := range ents {
			if e.Name == "f000.json" {
				if _, ok := c.StampedHint("/repo/d/f000.json", e.Hint, sts[0]); !ok {
					t.Fatalf("day %d: f000.json not answered", day)
				}
			}
		}
		c.Put(key(added), entryOf(added))
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := contents(Open(dir, scope))
	for _, i := range []int{0, 8, 9} {
		if _, ok := got[key(i)]; !ok {
			t.Errorf("entry %d, used on the last days, was evicted", i)
		}
	}
}

// A run that keeps a listing and little else appends it to the journal: the next run
// reads it from there (its names found no stamp yet: no hints, and its files are
// searched for), and the merge that follows gives it its hints.
func TestListingInTheJournal(t *testing.T) {
	defer func(j int) { maxJournalBytes = j }(maxJournalBytes)
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	old := time.Now().Add(-time.Hour).UnixNano()
	fill(t, dir, scope, 3) // an index, so that the next run may append
	c := Open(dir, scope)
	st := Stamp{Dev: 1, Ino: 100, Size: 10, Mtime: old, Ctime: old}
	c.PutStamp("/repo/d/f000.json", st, key(0))
	ents := []Dirent{{Name: "f000.json"}, {Name: "sub", Type: fs.ModeDir}}
	dirStamp := Stamp{Dev: 1, Ino: 7, Size: 4096, Mtime: old, Ctime: old}
	c.PutListing("/repo/d", dirStamp, ents)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.path + journalSuffix); err != nil {
		t.Fatalf("the listing was not appended to the journal: %v", err)
	}
	c = Open(dir, scope)
	got, ok := c.Listing("/repo/d", dirStamp)
	if !ok || len(got) != 2 || got[0] != ents[0] || got[1] != ents[1] {
		t.Fatalf("the journal's listing: %v %v", got, ok)
	}
	if e, ok := c.StampedHint("/repo/d/f000.json", got[0].Hint, st); !ok || e != entryOf(0) {
		t.Fatalf("f000.json, searched for: %v %v", e, ok)
	}
	c.Close()

	maxJournalBytes = 0
	c = Open(dir, scope)
	c.Put(key(9), entryOf(9))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	defer c.Close()
	if _, err := os.Stat(c.path + journalSuffix); !os.IsNotExist(err) {
		t.Fatalf("the journal was not merged: %v", err)
	}
	got, ok = c.Listing("/repo/d", dirStamp)
	if !ok || got[0].Hint == 0 {
		t.Fatalf("the merged listing: %v %v", got, ok)
	}
	if e, ok := c.StampedHint("/repo/d/f000.json", got[0].Hint, st); !ok || e != entryOf(0) {
		t.Fatalf("f000.json through its hint: %v %v", e, ok)
	}
}
