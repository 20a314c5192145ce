#!/bin/sh
# Installs the PostgreSQL server binaries that the sqlallow differential test
# (go test ./sqlallow) starts a scratch cluster with. Idempotent; quiet when
# PostgreSQL is already installed. The test itself runs initdb/pg_ctl as the
# "postgres" user in a temporary directory; nothing here starts a server.
set -eu

if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v psql >/dev/null 2>&1; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "postgres.sh: PostgreSQL is not installed; run this script as root (apt-get)" >&2
	exit 1
fi

echo "postgres.sh: installing PostgreSQL" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql >/dev/null
# Debian starts a cluster on install; the tests use their own, so stop it.
if command -v pg_ctlcluster >/dev/null 2>&1; then
	for v in /usr/lib/postgresql/*; do
		pg_ctlcluster "$(basename "$v")" main stop 2>/dev/null || true
	done
fi
ls /usr/lib/postgresql/*/bin/initdb >/dev/null
