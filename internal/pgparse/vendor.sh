#!/usr/bin/env bash
# Copies from pg_query_go's module the C sources and headers parse.c compiles against
# (exactly the files the preprocessor opens, found with gcc -M), into pgquery/.
# Run by go generate whenever go.mod moves pg_query_go: parse.c's structs must be
# the ones its parser was built with, and TestSameBytes checks that they are.
set -euo pipefail
cd "$(dirname "$0")"
src=$(go list -m -f '{{.Dir}}' github.com/pganalyze/pg_query_go/v5)/parser
rm -rf pgquery
mkdir -p pgquery
gcc -std=gnu99 -I"$src" -I"$src/include" -I"$src/include/postgres" -M parse.c -MT x \
  | tr ' \\' '\n\n' | grep "^$src/" | sort -u | while read -r f; do
  rel=${f#"$src"/}
  mkdir -p "pgquery/$(dirname "$rel")"
  cp "$f" "pgquery/$rel"
done
cp "$src/../LICENSE" pgquery/LICENSE
cp "$src/../LICENSE.POSTGRESQL" pgquery/LICENSE.POSTGRESQL
chmod -R u+w pgquery
