package cache

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkStamped looks up every stamp of a 10,000-file index once per
// iteration, in the order a directory walk gives the files, from a fresh Open (a
// warm run's lookups).
func BenchmarkStamped(b *testing.B) {
	dir := b.TempDir()
	scope := KeyOf([]byte("bench"))
	const n = 10_000
	paths := make([]string, n)
	c := Open(dir, scope)
	old := c.opened.Add(-time.Hour).UnixNano()
	st := func(i int) Stamp { return Stamp{Dev: 1, Ino: uint64(i), Size: 3000, Mtime: old, Ctime: old} }
	for i := range n {
		paths[i] = fmt.Sprintf("/home/user/repo/corpus/flow-%05d.json", i)
		c.Put(key(i), entryOf(i))
		c.PutStamp(paths[i], st(i), key(i))
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		c := Open(dir, scope)
		for i, p := range paths {
			if _, ok := c.Stamped(p, st(i)); !ok {
				b.Fatal("a stamp did not answer")
			}
		}
		c.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/file")
}

// BenchmarkMerge merges a full index (200,000 entries and stamps, the files of 1,000
// listed directories) with one run's listing: what a run pays when its additions
// outgrow the journal (a cold run, a large directory changed).
func BenchmarkMerge(b *testing.B) {
	defer func(j int) { maxJournalBytes = j }(maxJournalBytes)
	dir := b.TempDir()
	scope := KeyOf([]byte("bench"))
	c := Open(dir, scope)
	old := c.opened.Add(-time.Hour).UnixNano()
	const dirs, per = 1000, MaxEntries / 1000
	for d := range dirs {
		ents := make([]Dirent, per)
		for f := range per {
			i := d*per + f
			ents[f] = Dirent{Name: fmt.Sprintf("flow-%05d.json", i)}
			c.Put(key(i), entryOf(i))
			c.PutStamp(fmt.Sprintf("/home/user/repo/d%03d/%s", d, ents[f].Name), Stamp{Dev: 1, Ino: uint64(i), Size: 3000, Mtime: old, Ctime: old}, key(i))
		}
		c.PutListing(fmt.Sprintf("/home/user/repo/d%03d", d), Stamp{Dev: 1, Ino: uint64(d), Mtime: old, Ctime: old}, ents)
	}
	if err := c.Close(); err != nil {
		b.Fatal(err)
	}
	maxJournalBytes = 0 // every run merges
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		c := Open(dir, scope)
		c.PutListing("/home/user/repo/new", Stamp{Dev: 1, Ino: uint64(dirs + i), Mtime: old, Ctime: old}, []Dirent{{Name: "a.json"}})
		if err := c.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
