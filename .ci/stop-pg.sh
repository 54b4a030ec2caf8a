#!/bin/bash
# Stops a PostgreSQL started by start-pg.sh and removes its temp dir.
D=${1:?usage: stop-pg.sh <dir printed by start-pg.sh>}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$PGBIN/pg_ctl" -D "$D/data" -m immediate -w stop >/dev/null 2>&1
else "$PGBIN/pg_ctl" -D "$D/data" -m immediate -w stop >/dev/null 2>&1; fi
rm -rf "$D"
