package pgparse

import (
	"errors"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v5"
)

//go:generate go run ../pggen/gen decode pgparse decode_gen.go

// maxDepth is proto.Unmarshal's default recursion limit: a tree nested deeper is
// refused as it refuses it.
const maxDepth = 10000

var (
	errWire  = errors.New("pgparse: malformed protobuf")
	errDepth = errors.New("pgparse: exceeded maximum recursion depth")
	errUTF8  = errors.New("pgparse: string field contains invalid UTF-8")
)

// utf8Valid is a function so that generated code needs no import of its own.
func utf8Valid(b []byte) bool { return utf8.Valid(b) }

// Decode reads what ParseToProtobuf returns into pg_query_go's types, as
// proto.Unmarshal does but with decoders generated from those types (decode_gen.go):
// the reflective decoder was a sixth of a validate run's CPU.
func Decode(data []byte) (*pg.ParseResult, error) {
	tree := &pg.ParseResult{}
	if err := decodeParseResult(data, tree, 1); err != nil {
		return nil, err
	}
	return tree, nil
}
