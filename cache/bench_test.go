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
