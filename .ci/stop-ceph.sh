#!/bin/bash
# Stops the throwaway cluster started by start-ceph.sh (same CEPH_DIR): kills by pid file only, never by
# process name, so other clusters on the machine are untouched, and waits until each process has exited.
D=${CEPH_DIR:-/tmp/ceph-test}
pids=""
for n in client.rgw.test osd.0 mon.a; do
  f="$D/run/$n.pid"; [ -f "$f" ] || continue; p=$(cat "$f"); kill "$p" 2>/dev/null && pids="$pids $p"
done
for p in $pids; do for i in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done; done
