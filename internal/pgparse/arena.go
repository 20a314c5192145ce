//go:build cgo

package pgparse

import (
	pg "github.com/pganalyze/pg_query_go/v5"
)

// Arena is memory for one parse tree at a time, reused from one parse to the next.
// Building pg_query_go's tree allocates an object for every node, its oneof wrapper
// and every list; a checker that parses statement after statement, and drops each
// tree before the next, spends more on allocating and collecting those objects than
// on PostgreSQL's grammar. An Arena hands them out of slabs it keeps.
//
// Arena.Parse's tree is valid until the next Arena.Parse on the same Arena: after it,
// every node of the old tree may hold a node of the new one. Strings are not in the
// arena (they are ordinary Go strings) and may be kept. An Arena is not safe for
// concurrent use; the zero Arena is ready to use.
type Arena struct {
	gen   uint32
	slabs slabs
	input []byte // the text being parsed, NUL-terminated for C
}

// Parse is Parse(input) with the tree in a's memory, valid until a's next Parse.
func (a *Arena) Parse(input string) (*pg.ParseResult, error) {
	a.gen++
	if a.gen == 0 {
		// After 2^32 parses, a slab last used at generation 1 would otherwise
		// look current; start every slab afresh.
		a.slabs = slabs{}
		a.gen = 1
	}
	return parse(input, a)
}

// slab hands out values of one type: chunk after chunk, each twice the last (up to
// a limit), all reused from the first at a new generation.
type slab[T any] struct {
	gen    uint32
	chunks [][]T
	ci, n  int // the chunk in use, and how much of it is handed out
}

const (
	firstChunk = 8
	maxChunk   = 4096
)

// alloc returns a zeroed *T valid until the arena's next generation.
func alloc[T any](s *slab[T], gen uint32) *T {
	if s.gen != gen {
		s.gen, s.ci, s.n = gen, 0, 0
	}
	for s.ci < len(s.chunks) {
		if c := s.chunks[s.ci]; s.n < len(c) {
			p := &c[s.n]
			s.n++
			var zero T
			*p = zero
			return p
		}
		s.ci++
		s.n = 0
	}
	size := firstChunk << min(len(s.chunks), 9)
	s.chunks = append(s.chunks, make([]T, min(size, maxChunk)))
	s.n = 1
	return &s.chunks[s.ci][0]
}

// carve returns a slice of n values valid until the arena's next generation, for
// the caller to fill (its elements are not zeroed). Its capacity is n, so an
// append to it never writes into its neighbour's memory.
func carve[T any](s *slab[T], gen uint32, n int) []T {
	if s.gen != gen {
		s.gen, s.ci, s.n = gen, 0, 0
	}
	for s.ci < len(s.chunks) {
		if c := s.chunks[s.ci]; s.n+n <= len(c) {
			s.n += n
			return c[s.n-n : s.n : s.n]
		}
		s.ci++
		s.n = 0
	}
	size := firstChunk << min(len(s.chunks), 9)
	s.chunks = append(s.chunks, make([]T, max(min(size, maxChunk), n)))
	s.n = n
	return s.chunks[s.ci][:n:n]
}
