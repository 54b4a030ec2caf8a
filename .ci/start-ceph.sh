#!/bin/bash
# Starts a throwaway single-node Ceph cluster (mon + one memstore OSD + radosgw) on 127.0.0.1, without
# systemd, for the S3 driver contract suite. Everything lives in $CEPH_DIR (wiped first) and in RAM;
# nothing persists. Stop it with .ci/stop-ceph.sh (same CEPH_DIR).
#   env: CEPH_DIR (/tmp/ceph-test), RGW_PORT (7480), MON_PORT (3300), S3_AK / S3_SK (S3 user keys),
#        MEMSTORE_BYTES (OSD RAM cap, 4 GiB)
# Needs: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common
# Why the non-obvious settings: see docs/testing.md, "The throwaway S3 server" (auth none needs every
# `ms * mode = crc`, or rgw loops on get_initial_auth_request -13; 8 PGs per pool stay under
# mon_max_pg_per_osd without a mgr; a short paxos interval and pre-created pools make start-up and the first
# bucket ops fast).
set -euo pipefail
T0=$(( $(date +%s%N)/1000000 ))
D=${CEPH_DIR:-/tmp/ceph-test}
RGW_PORT=${RGW_PORT:-7480}
MON_PORT=${MON_PORT:-3300}
for bin in ceph-mon ceph-osd radosgw ceph radosgw-admin ceph-authtool monmaptool; do
  command -v "$bin" >/dev/null 2>&1 || {
    echo "$bin not found: apt-get install -y --no-install-recommends ceph-mon ceph-osd radosgw ceph-common" >&2
    exit 1
  }
done
rm -rf "$D"; mkdir -p "$D"/{mon,osd,log,run}
FSID=$(cat /proc/sys/kernel/random/uuid)
cat > "$D/ceph.conf" <<CONF
[global]
fsid = $FSID
mon host = v2:127.0.0.1:$MON_PORT
public addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
ms bind ipv6 = false
ms mon client mode = crc
ms client mode = crc
ms cluster mode = crc
ms service mode = crc
ms mon cluster mode = crc
ms mon service mode = crc
run dir = $D/run
admin socket = $D/run/\$name.asok
log file = $D/log/\$name.log
pid file = $D/run/\$name.pid
keyring = $D/keyring
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
mon data avail warn = 1
mon data avail crit = 1
paxos propose interval = 0.05
paxos min wait = 0.01
[mon]
mon data = $D/mon/\$name
mon cluster log file = $D/log/cluster.log
[osd]
osd data = $D/osd/\$name
osd objectstore = memstore
memstore device bytes = ${MEMSTORE_BYTES:-4294967296}
osd max object name len = 460
osd max object namespace len = 64
[client.rgw.test]
rgw frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw data = $D/rgw
rgw dns name = 127.0.0.1
rgw thread pool size = 64
# Deleted objects go back to the (RAM-backed) OSD within seconds, not radosgw's default 2 hours:
# suites that upload and delete gigabytes would otherwise fill it.
rgw gc obj min wait = 5
rgw gc processor period = 5
rgw gc processor max time = 5
CONF
C="-c $D/ceph.conf"
ceph-authtool --create-keyring "$D/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null
monmaptool --create --addv a "[v2:127.0.0.1:$MON_PORT]" --fsid "$FSID" "$D/monmap" >/dev/null
ceph-mon $C --mkfs -i a --monmap "$D/monmap" --keyring "$D/keyring"
ceph-mon $C -i a
OSD_UUID=$(cat /proc/sys/kernel/random/uuid)
ID=$(ceph $C osd new "$OSD_UUID")
mkdir -p "$D/osd/osd.$ID"
ceph-osd $C -i "$ID" --mkfs --osd-uuid "$OSD_UUID" 2>>"$D/log/osd-mkfs.log"
ceph-osd $C -i "$ID" 2>>"$D/log/osd-start.log"
for i in $(seq 60); do ceph $C osd stat 2>/dev/null | grep -q '1 up' && break; sleep 0.5; done
ceph $C osd stat | grep -q '1 up' || { echo "osd did not come up" >&2; tail -30 "$D/log/osd.$ID.log" >&2; exit 1; }
# pre-create the pools radosgw would otherwise create lazily on the first bucket/multipart op (~2 s each)
for p in .rgw.root default.rgw.log default.rgw.control default.rgw.meta default.rgw.buckets.index default.rgw.buckets.data default.rgw.buckets.non-ec; do
  ( ceph $C osd pool create "$p" 8 8 >/dev/null 2>&1 && ceph $C osd pool application enable "$p" rgw >/dev/null 2>&1 ) &
done
wait
mkdir -p "$D/rgw"
radosgw $C -n client.rgw.test
for i in $(seq 120); do curl -s -o /dev/null "http://127.0.0.1:$RGW_PORT/" && break; sleep 0.5; done
curl -s -o /dev/null "http://127.0.0.1:$RGW_PORT/" || { echo "radosgw did not come up" >&2; tail -30 "$D/log/client.rgw.test.log" >&2; exit 1; }
radosgw-admin $C user create --uid=test --display-name=test --access-key="${S3_AK:-TESTACCESSKEY}" --secret="${S3_SK:-TESTSECRETKEY}" >/dev/null
echo "ceph+rgw ready after $(( $(date +%s%N)/1000000 - T0 )) ms on http://127.0.0.1:$RGW_PORT (conf $D/ceph.conf)"
