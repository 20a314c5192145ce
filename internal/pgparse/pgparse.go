// Package pgparse parses SQL with PostgreSQL's own parser, as pg_query_go's Parse
// does, in a fifth or less of the C time (bench/pgfloor): pg_query_go packs the tree
// with protobuf-c, whose packer walks every subtree once per level above it, so on
// PostgreSQL's deep trees it costs over ten times the grammar. Here the same
// protobuf-c messages, built by pg_query's own code, are packed in one linear pass
// into the same bytes (the tests compare them), and decoded into the same
// pg_query_go types.
//
// It must not know what the tree is for: sqlallow and pgeval decide that.
package pgparse

//go:generate ./vendor.sh

/*
#cgo CFLAGS: -I${SRCDIR}/pgquery -I${SRCDIR}/pgquery/include -I${SRCDIR}/pgquery/include/postgres -g -std=gnu99 -Wno-unknown-warning-option
#include <stdlib.h>
#include "parse.h"
*/
import "C"

import (
	"errors"
	"unsafe"

	pg "github.com/pganalyze/pg_query_go/v5"
	"github.com/pganalyze/pg_query_go/v5/parser"
)

// errNoMemory is the C side's malloc failing.
var errNoMemory = errors.New("pgparse: out of memory")

// Parse parses input into the tree pg_query_go's Parse returns; a syntax error is
// the *parser.Error it returns.
func Parse(input string) (*pg.ParseResult, error) {
	data, err := ParseToProtobuf(input)
	if err != nil {
		return nil, err
	}
	return Decode(data)
}

// ParseToProtobuf returns the bytes parser.ParseToProtobuf returns for input.
func ParseToProtobuf(input string) ([]byte, error) {
	cs := C.CString(input)
	defer C.free(unsafe.Pointer(cs))
	r := C.dws_parse(cs)
	if r.error != nil {
		defer C.pg_query_free_error(r.error)
		e := &parser.Error{
			Message:   C.GoString(r.error.message),
			Lineno:    int(r.error.lineno),
			Cursorpos: int(r.error.cursorpos),
		}
		if r.error.funcname != nil {
			e.Funcname = C.GoString(r.error.funcname)
		}
		if r.error.filename != nil {
			e.Filename = C.GoString(r.error.filename)
		}
		if r.error.context != nil {
			e.Context = C.GoString(r.error.context)
		}
		return nil, e
	}
	if r.data == nil {
		return nil, errNoMemory
	}
	defer C.free(unsafe.Pointer(r.data))
	return C.GoBytes(unsafe.Pointer(r.data), C.int(r.len)), nil
}
