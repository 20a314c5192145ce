package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func key(i int) Key { return KeyOf([]byte(fmt.Sprint(i))) }

// entryOf is the entry the tests put under key(i).
func entryOf(i int) Entry { return Entry{Dialect: "cortex", Checksum: fmt.Sprintf("sha256:%064d", i)} }

// contents returns every entry and stamp c sees: its index's, its journal's and
// what it added.
func contents(c *Cache) (map[Key]record, map[Key]stampRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	entries, stamps := map[Key]record{}, map[Key]stampRecord{}
	es, ss := c.index.all(map[string]string{})
	for _, e := range es {
		entries[e.key] = record{Entry: Entry{Dialect: e.dial, Checksum: e.sum}, used: e.used}
	}
	for _, s := range ss {
		stamps[s.pk] = s.stampRecord
	}
	jentries, jstamps := c.journal.all(map[string]string{})
	for _, layer := range []map[Key]record{jentries, c.added} {
		for k, r := range layer {
			entries[k] = r
		}
	}
	for _, layer := range []map[Key]stampRecord{jstamps, c.astamps} {
		for k, r := range layer {
			stamps[k] = r
		}
	}
	return entries, stamps
}

// fill writes an index of scope in dir holding key(0) … key(n-1).
func fill(t *testing.T, dir string, scope Key, n int) {
	t.Helper()
	c := Open(dir, scope)
	for i := range n {
		c.Put(key(i), entryOf(i))
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

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
	// Written once as an index, once appended to its journal.
	for round := range 2 {
		c = Open(dir, scope)
		if e, ok := c.Get(key(2)); !ok || e != (Entry{Dialect: "ensemble", Checksum: "sha256:02"}) {
			t.Fatalf("round %d, after reopening: %v %v", round, e, ok)
		}
		if e, ok := c.Get(key(1)); !ok || e != (Entry{Dialect: "cortex", Checksum: "sha256:01"}) {
			t.Fatalf("round %d, after reopening: %v %v", round, e, ok)
		}
		if _, ok := c.Get(key(3 + round)); ok {
			t.Fatalf("round %d: an entry never put is there", round)
		}
		c.Put(key(10+round), entryOf(10+round))
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	c = Open(dir, scope)
	for _, i := range []int{10, 11} {
		if e, ok := c.Get(key(i)); !ok || e != entryOf(i) {
			t.Fatalf("entry %d after reopening: %v %v", i, e, ok)
		}
	}
	if _, ok := Open(dir, KeyOf([]byte("other scope"))).Get(key(1)); ok {
		t.Fatal("another scope sees this scope's entries")
	}
}

func TestKeyOfSeparatesParts(t *testing.T) {
	if KeyOf([]byte("ab"), []byte("c")) == KeyOf([]byte("a"), []byte("bc")) {
		t.Fatal("parts run together")
	}
	for _, p := range []string{"", "/a.json", strings.Repeat("/long", 200)} {
		if pathKey(p) != KeyOf([]byte(p)) {
			t.Fatalf("pathKey(%q) is not KeyOf's", p)
		}
	}
	// A file's text, hashed from its string through a buffer smaller than it, keys the
	// same entry as its bytes.
	long := strings.Repeat("0123456789", 3*hashBuf/10+7)
	for _, parts := range [][]string{{}, {""}, {"/a.json", "{}"}, {"/b.json", long}} {
		var bs [][]byte
		for _, p := range parts {
			bs = append(bs, []byte(p))
		}
		if KeyOfStrings(parts...) != KeyOf(bs...) {
			t.Fatalf("KeyOfStrings of %d parts is not KeyOf's", len(parts))
		}
	}
}

// A run that adds one entry to a large index writes that entry, not the index: the
// index file is the same file, untouched, and the journal grows by a few hundred
// bytes.
func TestOneRunWritesWhatItAdds(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	fill(t, dir, scope, 10_000)
	c := Open(dir, scope)
	before, err := os.Stat(c.path)
	if err != nil {
		t.Fatal(err)
	}
	journal := c.path + journalSuffix
	c.Put(key(-1), entryOf(-1))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(c.path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) || after.Size() != before.Size() {
		t.Errorf("the index of 10,000 entries was rewritten for one (%d bytes, then %d)", before.Size(), after.Size())
	}
	if st, err := os.Stat(journal); err != nil || st.Size() > 1024 {
		t.Errorf("the journal after one entry: %v", err)
	}
	if e, ok := Open(dir, scope).Get(key(-1)); !ok || e != entryOf(-1) {
		t.Fatalf("the entry added: %v %v", e, ok)
	}
}

// Opening a large index and looking one entry up reads next to nothing of it
// through read(2): the index is mapped and searched, not decoded.
func TestLookupReadsLittle(t *testing.T) {
	if _, err := os.ReadFile("/proc/self/io"); err != nil {
		t.Skip("no /proc/self/io to count the bytes read")
	}
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	fill(t, dir, scope, 10_000)
	st, _ := os.Stat(filepath.Join(dir, fmt.Sprintf("%x", scope[:16])+indexSuffix))
	read0 := readBytes(t)
	c := Open(dir, scope)
	e, ok := c.Get(key(4321))
	read := readBytes(t) - read0
	if !ok || e != entryOf(4321) {
		t.Fatalf("the entry: %v %v", e, ok)
	}
	if read > 16<<10 {
		t.Errorf("one lookup read %d bytes of a %d-byte index", read, st.Size())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// readBytes is how many bytes the process has read through read(2) and its kin.
func readBytes(t *testing.T) int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "rchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n - int64(len(data)) // not counting this read
		}
	}
	t.Fatal("no rchar in /proc/self/io")
	return 0
}

// A damaged index, whatever the damage, reads as empty: nothing of it is believed.
func TestDamagedIndex(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	fill(t, dir, scope, 10)
	files, _ := filepath.Glob(filepath.Join(dir, "*.idx"))
	if len(files) != 1 {
		t.Fatalf("want one index, have %v", files)
	}
	data, _ := os.ReadFile(files[0])
	if n, _ := contents(Open(dir, scope)); len(n) != 10 {
		t.Fatalf("the index read as %d entries, want 10", len(n))
	}
	flip := func(at int) []byte {
		d := slices.Clone(data)
		d[at] ^= 0x10
		return d
	}
	entries := headerSize
	strs := len(entryOf(0).Dialect + entryOf(0).Checksum)
	heap := len(data) - 10*strs
	for name, damaged := range map[string][]byte{
		"truncated":          data[:len(data)-5],
		"trailing garbage":   append(slices.Clone(data), 0),
		"garbage":            []byte("garbage"),
		"empty":              nil,
		"a count":            flip(17),
		"the fan-out":        flip(48 + 200),
		"a key":              flip(entries + 3*entrySize + 5),
		"an entry's use":     flip(entries + 3*entrySize + 33),
		"an entry's offset":  flip(entries + 3*entrySize + 40),
		"an entry's strings": flip(heap + 3*strs + 20),
		"the entries' order": flip(heap - 4*10 + 4*3),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			c := Open(dir, scope)
			if err := os.WriteFile(c.path, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			c = Open(dir, scope)
			// Every entry is looked up: the damaged one is never believed, and once
			// the damage is seen, nothing more is.
			for i := range 10 {
				if e, ok := c.Get(key(i)); ok && e != entryOf(i) {
					t.Errorf("entry %d read as %v", i, e)
				}
			}
			if n, _ := contents(c); len(n) != 0 {
				t.Errorf("the index reads as %d entries", len(n))
			}
			if err := c.Refused(); err != nil {
				t.Errorf("a damaged index of the user's own is no refusal: %v", err)
			}
			// The next writer replaces it with a sound one.
			c.Put(key(20), entryOf(20))
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			c = Open(dir, scope)
			if es, _ := c.index.all(map[string]string{}); len(es) != 1 {
				t.Errorf("not replaced: the index holds %d entries", len(es))
			}
			if e, ok := c.Get(key(20)); !ok || e != entryOf(20) {
				t.Errorf("the new entry: %v %v", e, ok)
			}
		})
	}
}

// An index of dws's previous formats (3, which decoded the whole file; 4, without
// listings) reads as empty, as no error, and the first run that writes replaces it.
func TestPreviousFormatReadsAsEmpty(t *testing.T) {
	for _, name := range []string{"format3.idx", "format4.idx"} {
		t.Run(name, func(t *testing.T) {
			old, err := os.ReadFile(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			scope := KeyOf([]byte("s")) // the scope the files were written for
			c := Open(dir, scope)
			if err := os.WriteFile(c.path, old, 0o600); err != nil {
				t.Fatal(err)
			}
			c = Open(dir, scope)
			if _, ok := c.Get(key(1)); ok {
				t.Error("an entry was read from an index of an older format")
			}
			if err := c.Refused(); err != nil {
				t.Errorf("an index of an older format is no refusal: %v", err)
			}
			c.Put(key(3), entryOf(3))
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(c.path)
			if !bytes.HasPrefix(data, []byte(magic)) {
				t.Fatalf("the index was not replaced: %q", data[:min(len(data), 16)])
			}
			if e, ok := Open(dir, scope).Get(key(3)); !ok || e != entryOf(3) {
				t.Fatalf("the new entry: %v %v", e, ok)
			}
		})
	}
}

// A journal is believed up to its first batch that is not whole: one being written,
// or one a killed writer left torn. The next writer merges what was whole into a new
// index instead of appending after the torn batch.
func TestTornJournal(t *testing.T) {
	torn := encodeBatch(map[Key]record{key(5): {Entry: entryOf(5)}}, nil, nil)
	for name, tail := range map[string][]byte{
		"cut short":         torn[:len(torn)-3],
		"a header only":     torn[:5],
		"a wrong sum":       append(slices.Clone(torn[:7]), append([]byte{torn[7] ^ 1}, torn[8:]...)...),
		"a bad count":       append(append(slices.Clone(torn[:batchHeader]), 9), torn[batchHeader+1:]...),
		"a whole one after": append(slices.Clone(torn[:len(torn)-3]), torn...),
		"not a journal":     nil,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			scope := KeyOf([]byte("s"))
			fill(t, dir, scope, 3)
			for i := 3; i < 5; i++ { // two batches
				c := Open(dir, scope)
				c.Put(key(i), entryOf(i))
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
			}
			journal := filepath.Join(dir, fmt.Sprintf("%x", scope[:16])+indexSuffix+journalSuffix)
			whole, err := os.ReadFile(journal)
			if err != nil {
				t.Fatal(err)
			}
			damaged := append(slices.Clone(whole), tail...)
			believed := 5
			if tail == nil {
				damaged, believed = append([]byte("dws-cache 9 journal\n"), whole[len(journalMagic):]...), 3
			}
			if err := os.WriteFile(journal, damaged, 0o600); err != nil {
				t.Fatal(err)
			}
			c := Open(dir, scope)
			for i := range 5 {
				if e, ok := c.Get(key(i)); ok != (i < believed) || ok && e != entryOf(i) {
					t.Errorf("entry %d: %v %v", i, e, ok)
				}
			}
			if _, ok := c.Get(key(5)); ok {
				t.Errorf("the torn batch was believed")
			}
			c.Put(key(6), entryOf(6))
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(journal); !os.IsNotExist(err) {
				t.Errorf("the writer appended after a torn batch: %v", err)
			}
			c = Open(dir, scope)
			for i := range 7 {
				if e, ok := c.Get(key(i)); ok != (i < believed || i == 6) || ok && e != entryOf(i) {
					t.Errorf("entry %d after the merge: %v %v", i, e, ok)
				}
			}
		})
	}
}

// A journal that outgrows its bound is merged into the index, and nothing is lost.
func TestJournalIsMerged(t *testing.T) {
	defer func(n int) { maxJournalBytes = n }(maxJournalBytes)
	maxJournalBytes = 1 << 10
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	fill(t, dir, scope, 100)
	merged := false
	for i := 100; i < 130; i++ {
		c := Open(dir, scope)
		c.Put(key(i), entryOf(i))
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(c.path + journalSuffix)
		if err == nil && st.Size() > int64(maxJournalBytes) {
			t.Fatalf("the journal grew to %d bytes, above its bound", st.Size())
		}
		merged = merged || os.IsNotExist(err)
	}
	if !merged {
		t.Error("the journal was never merged")
	}
	c := Open(dir, scope)
	for i := range 130 {
		if e, ok := c.Get(key(i)); !ok || e != entryOf(i) {
			t.Fatalf("entry %d: %v %v", i, e, ok)
		}
	}
}

// An index cut short under the run's mapping (a fault reading it) reads as empty:
// the run goes on.
func TestIndexCutShortUnderTheMapping(t *testing.T) {
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	fill(t, dir, scope, 10_000)
	c := Open(dir, scope)
	if _, ok := c.Get(key(1)); !ok {
		t.Fatal("no entry before the index was cut")
	}
	if err := os.Truncate(c.path, headerSize); err != nil {
		t.Fatal(err)
	}
	for i := range 100 {
		if _, ok := c.Get(key(i)); ok && i > 1 {
			t.Fatalf("entry %d was read from beyond the end of the file", i)
		}
	}
	if _, ok := c.Stamped("/a.json", Stamp{Dev: 1}); ok {
		t.Fatal("a stamp was read from beyond the end of the file")
	}
	c.Put(key(-1), entryOf(-1))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if e, ok := Open(dir, scope).Get(key(-1)); !ok || e != entryOf(-1) {
		t.Fatalf("the run's entry: %v %v", e, ok)
	}
}

// Processes writing one scope at once never leave a torn index, and what each wrote
// that the others did not touch stays.
func TestConcurrentWriters(t *testing.T) {
	defer func(n int) { maxJournalBytes = n }(maxJournalBytes)
	maxJournalBytes = 2 << 10 // a merge every few runs
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := range 10 {
				c := Open(dir, scope)
				c.Put(key(w*100+round), entryOf(w*100+round))
				if err := c.Close(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	entries, _ := contents(Open(dir, scope))
	for w := range 8 {
		for round := range 10 {
			if r, ok := entries[key(w*100+round)]; !ok || r.Entry != entryOf(w*100+round) {
				t.Errorf("writer %d's entry %d: %+v %v", w, round, r, ok)
			}
		}
	}
	if len(entries) != 80 {
		t.Errorf("%d entries, want 80", len(entries))
	}
}

// An index keeps the most recently used entries, and the stamps of those; the
// directory keeps its newest indexes within MaxBytes.
func TestBounded(t *testing.T) {
	defer func(n, j int) { maxEntries, maxJournalBytes = n, j }(maxEntries, maxJournalBytes)
	maxEntries = 3
	maxJournalBytes = 0 // every run merges: the bounds hold in the index
	dir := t.TempDir()
	scope := KeyOf([]byte("s"))
	c := Open(dir, scope)
	old := c.opened.Add(-time.Hour).UnixNano()
	for i := range 3 {
		c.Put(key(i), Entry{Checksum: "old"})
		c.PutStamp(fmt.Sprintf("/%d.json", i), Stamp{Ino: uint64(i), Mtime: old, Ctime: old}, key(i))
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	c.now += useGrain // a later day
	c.Get(key(0))
	c.Put(key(9), Entry{Checksum: "new"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	c.now += useGrain // a later day still: the journal is merged
	c.Put(key(8), Entry{Checksum: "newer"})
	c.Get(key(0))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	c = Open(dir, scope)
	got, stamps := contents(c)
	if len(got) != 3 {
		t.Fatalf("%d entries kept, want 3", len(got))
	}
	for _, k := range []Key{key(0), key(8), key(9)} {
		if _, ok := got[k]; !ok {
			t.Errorf("a recently used entry was evicted")
		}
	}
	if len(stamps) != 1 {
		t.Errorf("%d stamps kept, want the one whose entry was kept", len(stamps))
	}
	if _, ok := c.Stamped("/0.json", Stamp{Ino: 0, Mtime: old, Ctime: old}); !ok {
		t.Error("the stamp of a kept entry was lost")
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
	c.now += 3 * useGrain
	c.Put(key(10), Entry{Checksum: "newest"})
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	var total int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.idx*"))
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
	// A stamp of bytes with no entry: a stamp never answers without its entry.
	c.PutStamp("/d.json", st, key(4))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// The stamp of a file changed since: kept in the journal, over the index's.
	c = Open(dir, scope)
	changed := st
	changed.Ctime++
	c.Put(key(5), Entry{Dialect: "cortex", Checksum: "sha256:05"})
	c.PutStamp("/e.json", st, key(3))
	c.PutStamp("/e.json", changed, key(5))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	check := func(how string) {
		c := Open(dir, scope)
		defer c.Close()
		if e, ok := c.Stamped("/a.json", st); !ok || e.Checksum != "sha256:01" {
			t.Fatalf("%s, the stamp of /a.json: %v %v", how, e, ok)
		}
		if e, ok := c.Stamped("/e.json", changed); !ok || e.Checksum != "sha256:05" {
			t.Fatalf("%s, the stamp of /e.json: %v %v", how, e, ok)
		}
		if _, ok := c.Stamped("/e.json", st); ok {
			t.Fatalf("%s: /e.json's stamp before it changed answered", how)
		}
		if _, ok := c.Stamped("/b.json", recent); ok {
			t.Fatalf("%s: a stamp within the racy window was kept", how)
		}
		if _, ok := c.Stamped("/d.json", st); ok {
			t.Fatalf("%s: a stamp answered without its entry", how)
		}
		for _, other := range []Stamp{{Dev: 1, Ino: 2, Size: 4, Mtime: old, Ctime: old}, {Dev: 1, Ino: 9, Size: 3, Mtime: old, Ctime: old},
			{Dev: 1, Ino: 2, Size: 3, Mtime: old, Ctime: old + 1}, {Dev: 1, Ino: 2, Size: 3, Mtime: old + 1, Ctime: old}} {
			if _, ok := c.Stamped("/a.json", other); ok {
				t.Fatalf("%s: stamp %+v answered for %+v", how, other, st)
			}
		}
		if _, ok := c.Stamped("/c.json", st); ok {
			t.Fatalf("%s: a stamp answered for another path", how)
		}
	}
	check("from the index and its journal")
	defer func(n int) { maxJournalBytes = n }(maxJournalBytes)
	maxJournalBytes = 0
	c = Open(dir, scope)
	c.Put(key(99), entryOf(99))
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(c.path + journalSuffix); !os.IsNotExist(err) {
		t.Fatalf("the journal was not merged: %v", err)
	}
	check("from the index alone")
}

// Hook processes of one scope at once, each reading and adding entries: none reads
// an entry that is not what was put under its key, and what each added stays. Small
// journals make them merge often, so readers meet indexes being replaced and
// journals being appended to and removed.
func TestProcessesAtOnce(t *testing.T) {
	dir := t.TempDir()
	const writers, rounds = 6, 40
	procs := make([]*exec.Cmd, writers)
	for w := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$", "-test.v")
		cmd.Env = append(os.Environ(), "DWS_CACHE_TEST_DIR="+dir, fmt.Sprintf("DWS_CACHE_TEST_WRITER=%d", w),
			fmt.Sprintf("DWS_CACHE_TEST_ROUNDS=%d", rounds))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[w] = cmd
		t.Cleanup(func() {
			if t.Failed() {
				t.Logf("writer %d:\n%s", w, out.String())
			}
		})
	}
	for w, cmd := range procs {
		if err := cmd.Wait(); err != nil {
			t.Errorf("writer %d: %v", w, err)
		}
	}
	entries, _ := contents(Open(dir, KeyOf([]byte("s"))))
	for w := range writers {
		for round := range rounds {
			i := w*1000 + round
			if r, ok := entries[key(i)]; !ok || r.Entry != entryOf(i) {
				t.Errorf("writer %d's entry %d: %+v %v", w, round, r, ok)
			}
		}
	}
}

// TestWriterProcess is one process of TestProcessesAtOnce.
func TestWriterProcess(t *testing.T) {
	dir := os.Getenv("DWS_CACHE_TEST_DIR")
	if dir == "" {
		t.Skip("a process of TestProcessesAtOnce")
	}
	w, _ := strconv.Atoi(os.Getenv("DWS_CACHE_TEST_WRITER"))
	rounds, _ := strconv.Atoi(os.Getenv("DWS_CACHE_TEST_ROUNDS"))
	maxJournalBytes = 1 << 10
	for round := range rounds {
		c := Open(dir, KeyOf([]byte("s")))
		if err := c.Refused(); err != nil {
			t.Fatal(err)
		}
		entries, _ := contents(c)
		for k, r := range entries {
			i, err := strconv.Atoi(strings.TrimPrefix(r.Checksum, "sha256:"))
			if err != nil || key(i) != k || r.Entry != entryOf(i) {
				t.Fatalf("round %d: an entry read as %+v", round, r)
			}
			if got, ok := c.Get(k); !ok || got != r.Entry {
				t.Fatalf("round %d: entry %d looked up as %+v %v", round, i, got, ok)
			}
		}
		c.Put(key(w*1000+round), entryOf(w*1000+round))
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
