#!/bin/sh
# Installs the PostgreSQL server binaries that the sqlallow differential test
# (go test ./sqlallow) starts a scratch cluster with. Idempotent; quiet when
# PostgreSQL is already installed. The test itself runs initdb/pg_ctl as the
# "postgres" user in a temporary directory; nothing here starts a server.
#
# The test uses the newest installed major. pg_query_go v5 parses as PostgreSQL
# 16 does, so 16 is installed where Debian offers it (postgresql-16); where it
# does not (Debian 12 "bookworm" offers only 15), Debian's default postgresql is.
set -eu

want=16

# $1 is a major or * (any): unquoted, so that * globs.
installed() { ls /usr/lib/postgresql/$1/bin/initdb >/dev/null 2>&1; }
offered() { apt-cache show "postgresql-$want" 2>/dev/null | grep -q '^Package:'; }

if command -v psql >/dev/null 2>&1; then
	if installed "$want"; then
		exit 0
	fi
	if installed '*' && ! offered; then
		exit 0
	fi
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "postgres.sh: PostgreSQL $want is not installed; run this script as root (apt-get)" >&2
	if installed '*'; then
		exit 0 # the tests use the newest installed
	fi
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
pkg=postgresql
if offered; then
	pkg=postgresql-$want
fi
if [ "$pkg" = postgresql ] && installed '*' && command -v psql >/dev/null 2>&1; then
	exit 0
fi
echo "postgres.sh: installing $pkg" >&2
apt-get install -y -qq "$pkg" >/dev/null
# Debian starts a cluster on install; the tests use their own, so stop it.
if command -v pg_ctlcluster >/dev/null 2>&1; then
	for v in /usr/lib/postgresql/*; do
		pg_ctlcluster "$(basename "$v")" main stop 2>/dev/null || true
	done
fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
