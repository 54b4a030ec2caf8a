#!/bin/bash
# Starts a throwaway PostgreSQL (Debian's packages) in a temp dir on 127.0.0.1:$PGPORT as the
# 'postgres' OS user, and prints the temp dir. Stop it with .ci/stop-pg.sh <dir>.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "PostgreSQL is not installed: run 'apt-get install postgresql' (or set DATABASE_URL to a server)." >&2
  exit 1
fi
PGPORT=${PGPORT:-54329}
D=${PGTMP:-$(mktemp -d /tmp/cubby-pg.XXXXXX)}
mkdir -p "$D"
as_pg() { if [ "$(id -u)" = 0 ]; then chown postgres:postgres "$D"; runuser -u postgres -- "$@"; else "$@"; fi; }
as_pg "$PGBIN/initdb" -D "$D/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
as_pg "$PGBIN/pg_ctl" -D "$D/data" -l "$D/log" -w -o "-p $PGPORT -k $D -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null
echo "$D"
