// Package pgparse parses SQL with PostgreSQL's own parser into the tree pg_query_go's
// Parse returns, at a fraction of its cost (bench/pgfloor). pg_query_go packs the
// protobuf-c messages pg_query's code builds into protobuf bytes, with a packer that
// walks every subtree once per level above it (on PostgreSQL's deep trees, over ten
// times the grammar), and decodes the bytes into Go with reflection. Parse builds the
// Go tree straight from those protobuf-c messages (tree_gen.go, generated from
// pg_query_go's types by internal/pggen), with no bytes between; ParseToProtobuf packs
// the same messages in one linear pass into the bytes pg_query_go packs. Arena.Parse
// builds the tree in memory reused from one parse to the next, for a caller that drops
// each tree before parsing again. The tests hold all three to pg_query_go.
//
// It must not know what the tree is for: sqlallow and pgeval decide that.
package pgparse

//go:generate ./vendor.sh
//go:generate go run ../pggen/gen tree pgparse tree_gen.go

/*
#cgo CFLAGS: -I${SRCDIR}/pgquery -I${SRCDIR}/pgquery/include -I${SRCDIR}/pgquery/include/postgres -g -std=gnu99 -Wno-unknown-warning-option
#include <stdlib.h>
#include "parse.h"
#include "protobuf/pg_query.pb-c.h"
*/
import "C"

import (
	"errors"
	"runtime"
	"unicode/utf8"
	"unsafe"

	pg "github.com/pganalyze/pg_query_go/v5"
	"github.com/pganalyze/pg_query_go/v5/parser"
)

// errNoMemory is the C side's malloc failing.
var errNoMemory = errors.New("pgparse: out of memory")

// maxDepth is proto.Unmarshal's default recursion limit, which pg_query_go's Parse
// meets on a tree nested deeper (a long chain of "1 + 1 + …"): Parse refuses it too.
const maxDepth = 10000

var (
	errDepth = errors.New("the parse tree nests deeper than 10,000 levels")
	errUTF8  = errors.New("string field contains invalid UTF-8")
)

// goString copies a C string of the tree, which must be UTF-8 (as proto.Unmarshal
// requires of pg_query_go's).
func goString(s *C.char) string {
	g := C.GoString(s)
	if !utf8.ValidString(g) {
		panic(errUTF8)
	}
	return g
}

// Parse parses input into the tree pg_query_go's Parse returns; a syntax error is
// the *parser.Error it returns. The Go tree is built straight from the protobuf-c
// messages pg_query's code makes (tree_gen.go), with no protobuf bytes between.
func Parse(input string) (*pg.ParseResult, error) { return parse(input, nil) }

// parse is Parse with the tree in a's memory (nil: the heap's).
func parse(input string, a *Arena) (tree *pg.ParseResult, err error) {
	cs := C.CString(input)
	defer C.free(unsafe.Pointer(cs))
	// The messages live in a memory context of pg_query's, which is per thread:
	// made, read and freed on one.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	r := C.dws_parse_tree(cs)
	if r.error != nil {
		return nil, parseError(r.error)
	}
	defer C.dws_free_tree(r.ctx)
	defer func() {
		if p := recover(); p != nil {
			e, ok := p.(error)
			if !ok || e != errDepth && e != errUTF8 { //nolint:errorlint // the very values panicked
				panic(p)
			}
			tree, err = nil, e
		}
	}()
	return treeParseResult((*C.PgQuery__ParseResult)(unsafe.Pointer(r.tree)), 1, a), nil
}

// parseError turns pg_query's error into the one pg_query_go returns, and frees it.
func parseError(pe *C.PgQueryError) error {
	defer C.pg_query_free_error(pe)
	e := &parser.Error{
		Message:   C.GoString(pe.message),
		Lineno:    int(pe.lineno),
		Cursorpos: int(pe.cursorpos),
	}
	if pe.funcname != nil {
		e.Funcname = C.GoString(pe.funcname)
	}
	if pe.filename != nil {
		e.Filename = C.GoString(pe.filename)
	}
	if pe.context != nil {
		e.Context = C.GoString(pe.context)
	}
	return e
}

// ParseToProtobuf returns the bytes parser.ParseToProtobuf returns for input.
func ParseToProtobuf(input string) ([]byte, error) {
	cs := C.CString(input)
	defer C.free(unsafe.Pointer(cs))
	r := C.dws_parse(cs)
	if r.error != nil {
		return nil, parseError(r.error)
	}
	if r.data == nil {
		return nil, errNoMemory
	}
	defer C.free(unsafe.Pointer(r.data))
	return C.GoBytes(unsafe.Pointer(r.data), C.int(r.len)), nil
}
