package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

func key(i int) Key { return KeyOf([]byte(fmt.Sprint(i))) }

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("scope"))
	c := Open(dir, scope)
	if _, ok := c.Get(key(1)); ok {
		t.Fatal("an empty cache has an entry")
	}
	c.Put(key(1), Entry{Dialect: "cortex", Checksum: "sha256:01"})
	c.Put(key(2), Entry{Dialect: "ensemble", Checksum: "sha256:02"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	if e, ok := c.Get(key(2)); !ok || e != (Entry{Dialect: "ensemble", Checksum: "sha256:02"}) {
		t.Fatalf("after reopening: %v %v", e, ok)
	}
	if _, ok := Open(dir, KeyOf([]byte("other scope"))).Get(key(1)); ok {
		t.Fatal("another scope sees this scope's entries")
	}
}

func TestKeyOfSeparatesParts(t *testing.T) {
	if KeyOf([]byte("ab"), []byte("c")) == KeyOf([]byte("a"), []byte("bc")) {
		t.Fatal("parts run together")
	}
}

// A damaged index, whatever the damage, reads as empty: nothing of it is believed.
func TestDamagedIndex(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	c := Open(dir, scope)
	for i := range 10 {
		c.Put(key(i), Entry{Dialect: "cortex", Checksum: fmt.Sprint(i)})
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.idx"))
	if len(files) != 1 {
		t.Fatalf("want one index, have %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if n := len(Open(dir, scope).entries); n != 10 {
		t.Fatalf("the index read as %d entries, want 10", n)
	}
	for name, damaged := range map[string][]byte{
		"truncated":        data[:len(data)-5],
		"trailing garbage": append(slices.Clone(data), 0),
		"garbage":          []byte("garbage"),
	} {
		if err := os.WriteFile(files[0], damaged, 0o600); err != nil {
			t.Fatal(err)
		}
		c := Open(dir, scope)
		if n := len(c.entries) + len(c.stamps); n != 0 {
			t.Errorf("%s: read as %d entries", name, n)
		}
		if err := c.Refused(); err != nil {
			t.Errorf("%s: a damaged index of the user's own is no refusal: %v", name, err)
		}
	}
}

// Processes writing one scope at once never leave a torn index, and what each wrote
// that the others did not touch stays.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 5 {
				c := Open(dir, scope)
				c.Put(key(w*100+round), Entry{Dialect: "cortex", Checksum: "x"})
				if err := c.Close(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	c := Open(dir, scope)
	if len(c.entries) == 0 {
		t.Fatal("no entry survived")
	}
	for k, r := range c.entries {
		if r.Checksum != "x" {
			t.Fatalf("entry %x is torn: %+v", k, r)
		}
	}
	// The last writer of each goroutine merged what was on disk: its own last entry
	// is there.
	for w := range 8 {
		if _, ok := c.entries[key(w*100+4)]; !ok {
			t.Errorf("writer %d's last entry is lost", w)
		}
	}
}

// An index keeps the most recently used entries; the directory keeps its newest
// indexes within MaxBytes.
func TestBounded(t *testing.T) {
	defer func(n int) { maxEntries = n }(maxEntries)
	maxEntries = 3
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	c := Open(dir, scope)
	for i := range 3 {
		c.Put(key(i), Entry{Checksum: "old"})
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	c.now++ // a later run
	c.Get(key(0))
	c.Put(key(9), Entry{Checksum: "new"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	got := Open(dir, scope).entries
	if len(got) != 3 {
		t.Fatalf("%d entries kept, want 3", len(got))
	}
	for _, k := range []Key{key(0), key(9)} {
		if _, ok := got[k]; !ok {
			t.Errorf("a recently used entry was evicted")
		}
	}

	for i := range 3 {
		p := filepath.Join(dir, fmt.Sprintf("%032x.idx", i))
		if err := os.WriteFile(p, []byte(magic), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(p, MaxBytes/2+1); err != nil { // sparse: no 32 MiB written
			t.Fatal(err)
		}
	}
	c = Open(dir, scope)
	c.now += 2 // a later run still
	c.Put(key(10), Entry{Checksum: "newest"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	var total int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.idx"))
	for _, f := range files {
		st, _ := os.Stat(f)
		total += st.Size()
	}
	if total > MaxBytes {
		t.Fatalf("the directory holds %d bytes of indexes, more than %d", total, MaxBytes)
	}
	if _, ok := Open(dir, scope).Get(key(10)); !ok {
		t.Fatal("the index just written was trimmed")
	}
}

// A stamp is kept only for times older than the racy window, survives the index, and
// answers only for exactly the same stamp whose entry is still there.
func TestStamps(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	c := Open(dir, scope)
	old := c.opened.Add(-time.Hour).UnixNano()
	st := Stamp{Dev: 1, Ino: 2, Size: 3, Mtime: old, Ctime: old}
	c.Put(key(1), Entry{Dialect: "cortex", Checksum: "sha256:01"})
	c.PutStamp("/a.json", st, key(1))
	recent := st
	recent.Ctime = c.opened.Add(-RacyWindow / 2).UnixNano()
	c.PutStamp("/b.json", recent, key(1))
	c.Put(key(3), Entry{Dialect: "cortex", Checksum: "sha256:03"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	if e, ok := c.Stamped("/a.json", st); !ok || e.Checksum != "sha256:01" {
		t.Fatalf("the stamp of /a.json: %v %v", e, ok)
	}
	if _, ok := c.Stamped("/b.json", recent); ok {
		t.Fatal("a stamp within the racy window was kept")
	}
	for _, other := range []Stamp{{Dev: 1, Ino: 2, Size: 4, Mtime: old, Ctime: old}, {Dev: 1, Ino: 9, Size: 3, Mtime: old, Ctime: old},
		{Dev: 1, Ino: 2, Size: 3, Mtime: old, Ctime: old + 1}, {Dev: 1, Ino: 2, Size: 3, Mtime: old + 1, Ctime: old}} {
		if _, ok := c.Stamped("/a.json", other); ok {
			t.Fatalf("stamp %+v answered for %+v", other, st)
		}
	}
	if _, ok := c.Stamped("/c.json", st); ok {
		t.Fatal("a stamp answered for another path")
	}
	c.entries = map[Key]record{}
	if _, ok := c.Stamped("/a.json", st); ok {
		t.Fatal("a stamp answered without its entry")
	}
}
