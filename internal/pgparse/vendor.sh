#!/usr/bin/env bash
# Copies from pg_query_go's module the C sources and headers that parse.c compiles
# against and that internal/pggen reads to write raw_gen.go (pg_query's protobuf
# conversion, pg_query_outfuncs_protobuf.c, and what it includes): exactly the files the
# preprocessor opens, found with gcc -M, into pgquery/. Run by go generate whenever
# go.mod moves pg_query_go: raw_gen.go's structs must be the ones its parser was built
# with, and TestParseIsPgParse checks that they are.
set -euo pipefail
cd "$(dirname "$0")"
src=$(go list -m -f '{{.Dir}}' github.com/pganalyze/pg_query_go/v5)/parser
rm -rf pgquery
mkdir -p pgquery
for f in parse.c "$src/pg_query_outfuncs_protobuf.c"; do
  gcc -std=gnu99 -I"$src" -I"$src/include" -I"$src/include/postgres" -I. -M "$f" -MT x
done | tr ' \\' '\n\n' | grep "^$src/" | sort -u | while read -r f; do
  rel=${f#"$src"/}
  mkdir -p "pgquery/$(dirname "$rel")"
  cp "$f" "pgquery/$rel"
done
cp "$src/../LICENSE" pgquery/LICENSE
cp "$src/../LICENSE.POSTGRESQL" pgquery/LICENSE.POSTGRESQL
chmod -R u+w pgquery
