#!/bin/bash
# integ_metrics_hostile.sh - the metrics listener and the control socket
# under hostile clients (tests/metrics_hostile.py), while NFS must go on:
#   - garbage: 200 connections of random bytes;
#   - a 1 MiB request line: refused (431) after 8 KiB, never buffered;
#   - slowloris: 40 connections dribbling a header are closed by the
#     per-connection deadline (5 s), beyond the cap of 16 at once;
#   - 1,000 connections at once: all but 16 closed at once, the daemon's
#     descriptors stay bounded;
#   - a control-socket client that says nothing holds up neither NFS nor,
#     after its 2 s deadline, the next usernfsctl;
# after each, a GETATTR still answers and /metrics still serves, and over
# all of it the daemon's VmRSS grows by less than 32 MiB.
# Ports: NFS_PORT, MOUNT_PORT as every test; METRICS_PORT (default NFS_PORT+41).
. "$(dirname "$0")/lib.sh"

need_cmd python3 curl
setup
[ -x "$USERNFSCTL" ] || skip "usernfsctl not built: $USERNFSCTL"

METRICS_PORT=${METRICS_PORT:-$((NFS_PORT + 41))}
HOSTILE_PY=$TESTS_SRCDIR/metrics_hostile.py
T=$WORKDIR
mkdir -p "$T/export"
echo data >"$T/export/file"

start_daemon "$T/export 127.0.0.1(rw,insecure,no_root_squash)" --no-rpcbind \
	--metrics "127.0.0.1:$METRICS_PORT"
ROOT=$(mnt_fh tcp "$T/export") || fail "MNT failed"
FH=$(fh_of tcp "$ROOT" file) || fail "LOOKUP failed"

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$(_daemon_real_pid)/status"; }
nfds() { ls "/proc/$(_daemon_real_pid)/fd" | wc -l; }
metrics_ok() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$METRICS_PORT/metrics")" = 200 ]; }
# nfs_answers DESC: a GETATTR over TCP and one over UDP answer within 2 s
nfs_answers() {
	if nfs_probe tcp -t 2 getattr-hex "$FH" | grep -q '^status=0$' &&
		nfs_probe udp -t 2 getattr-hex "$FH" | grep -q '^status=0$'; then
		ok "GETATTR answers $1"
	else
		not_ok "GETATTR did not answer $1"
	fi
}
hostile() { timeout 60 python3 "$HOSTILE_PY" "$METRICS_PORT" "$@"; }

metrics_ok || fail "no metrics before the attacks"
RSS0=$(rss_kb)
FD0=$(nfds)

# 1. garbage
OUT=$(hostile garbage 200)
printf '%s\n' "$OUT" | grep -q 'garbage_sent=200' && ok "200 connections of garbage sent" ||
	not_ok "garbage client" "$OUT"
nfs_answers "after garbage"
metrics_ok && ok "metrics served after garbage" || not_ok "metrics not served after garbage"

# 2. a 1 MiB request line
run_expect "a 1 MiB request line is refused (431) or cut off" \
	'reply=(HTTP/1.1_431|closed|error:ConnectionResetError)' hostile bigline
nfs_answers "after a 1 MiB request line"

# 3. slowloris, with NFS calls while it runs
hostile slowloris 40 9 >"$T/slowloris.out" &
SLOW=$!
sleep 1
nfs_answers "during slowloris"
wait "$SLOW"
OUT=$(cat "$T/slowloris.out")
closed=$(printf '%s\n' "$OUT" | sed -n 's/.*closed_by_server=\([0-9]*\).*/\1/p')
latest=$(printf '%s\n' "$OUT" | sed -n 's/.*latest_close=\([0-9.-]*\).*/\1/p')
if [ "${closed:-0}" -eq 40 ] && awk -v l="$latest" 'BEGIN { exit !(l >= 0 && l <= 7.5) }'; then
	ok "slowloris: every connection closed by the server within its deadline ($OUT)"
else
	not_ok "slowloris connections not all closed in time" "$OUT"
fi
metrics_ok && ok "metrics served after slowloris" || not_ok "metrics not served after slowloris"

# 4. 1,000 connections at once
hostile many 1000 4 >"$T/many.out" &
MANY=$!
sleep 2
nfs_answers "with 1000 metrics connections open"
fds=$(nfds)
if [ "$fds" -le $((FD0 + 16 + 8)) ]; then
	ok "descriptors bounded with 1000 metrics connections ($FD0 -> $fds)"
else
	not_ok "the daemon holds $fds descriptors (was $FD0) with 1000 metrics connections"
fi
wait "$MANY"
OUT=$(cat "$T/many.out")
opened=$(printf '%s\n' "$OUT" | sed -n 's/.*opened=\([0-9]*\).*/\1/p')
shut=$(printf '%s\n' "$OUT" | sed -n 's/.*closed_at_once=\([0-9]*\).*/\1/p')
if [ "${opened:-0}" -ge 1000 ] && [ "${shut:-0}" -ge $((opened - 16)) ]; then
	ok "beyond the cap, connections are closed at once ($OUT)"
else
	not_ok "1000 connections: not closed as expected" "$OUT"
fi
sleep 0.5
metrics_ok && ok "metrics served after 1000 connections" ||
	not_ok "metrics not served after 1000 connections"

# 5. a control-socket client that says nothing
python3 "$HOSTILE_PY" "$CTL_SOCK" stuckctl 6 >"$T/stuck.out" &
STUCK=$!
sleep 0.3
nfs_answers "while a control client is stuck"
t0=$(now_ms)
run_check "usernfsctl answers despite a stuck control client" \
	timeout 10 "$USERNFSCTL" -s "$CTL_SOCK" stats --json
t1=$(now_ms)
[ $((t1 - t0)) -le 5000 ] && ok "... within the stuck client's deadline ($((t1 - t0)) ms)" ||
	not_ok "usernfsctl took $((t1 - t0)) ms behind a stuck client"
wait "$STUCK"

# memory
RSS1=$(rss_kb)
if [ $((RSS1 - RSS0)) -lt 32768 ]; then
	ok "VmRSS bounded: $RSS0 kB -> $RSS1 kB"
else
	not_ok "VmRSS grew from $RSS0 kB to $RSS1 kB"
fi
check_daemon_alive "the hostile metrics clients"
stop_daemon
finish
