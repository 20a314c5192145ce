package pgparse

/*
#include "postgres.h"
#include "nodes/parsenodes.h"

// Where a Bitmapset's words start (cgo has no field for a flexible array member).
enum { dws_bitmapset_words = offsetof(Bitmapset, words) };
*/
import "C"

import (
	"math/bits"
	"unicode/utf8"
	"unsafe"

	pg "github.com/pganalyze/pg_query_go/v5"
)

// The helpers raw_gen.go's functions share: reading PostgreSQL's List and Bitmapset,
// and a char field, as pg_query's WRITE_* macros read them.

// cells returns the cells of l (NIL: none) as the pointers they hold. Every List
// _out reads holds pointers: pg_query reads IntList and OidList cells so too.
func cells(l *C.List) []unsafe.Pointer {
	if l == nil || l.length <= 0 {
		return nil
	}
	return unsafe.Slice((*unsafe.Pointer)(unsafe.Pointer(l.elements)), l.length)
}

// rawNodes is WRITE_LIST_FIELD: a Node for each cell of l, an empty one for a NULL
// cell, at depth; nil for NIL.
func rawNodes(l *C.List, depth int, a *Arena) []*pg.Node {
	cs := cells(l)
	if len(cs) == 0 {
		return nil
	}
	var x []*pg.Node
	if a != nil {
		x = carve(&a.slabs.lNode, a.gen, len(cs))
	} else {
		x = make([]*pg.Node, len(cs))
	}
	for i, c := range cs {
		x[i] = rawNode(c, depth, a)
	}
	return x
}

// rawBitmapset is WRITE_BITMAPSET_FIELD: the members of b in increasing order, nil
// for none.
func rawBitmapset(b *C.Bitmapset) []uint64 {
	if b == nil {
		return nil
	}
	var x []uint64
	words := unsafe.Slice((*C.bitmapword)(unsafe.Add(unsafe.Pointer(b), C.dws_bitmapset_words)), b.nwords)
	const wordBits = int(unsafe.Sizeof(C.bitmapword(0))) * 8
	for i, w := range words {
		for v := uint64(w); v != 0; v &= v - 1 {
			x = append(x, uint64(i*wordBits+bits.TrailingZeros64(v)))
		}
	}
	return x
}

// ascii holds every one-byte string a char field can become, so that one costs no
// allocation.
const ascii = "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f" +
	"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f" +
	" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f"

// rawChar is WRITE_CHAR_FIELD's string of a char that is not 0: the char alone,
// which must be UTF-8 as goString's strings must.
func rawChar(c C.char) string {
	b := byte(c)
	if b >= utf8.RuneSelf {
		panic(errUTF8)
	}
	return ascii[b : b+1]
}
