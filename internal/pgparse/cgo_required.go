//go:build !cgo

package pgparse

// dws parses SQL with the real PostgreSQL parser (libpg_query, through pg_query_go), which
// is C: it cannot be built with CGO_ENABLED=0. The name below is the build error users see
// first; build with CGO_ENABLED=1 and a C compiler (apt-get install gcc).
var _ = dws_needs_cgo_build_with_CGO_ENABLED_1_and_a_C_compiler_see_README
