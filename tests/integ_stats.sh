#!/bin/bash
# integ_stats.sh - statistics, usernfsctl and the Prometheus listener:
#   - a known workload (rpcprobe: N GETATTRs, M WRITEs of K bytes, one
#     refused MNT; libnfs: one file read) shows exactly those counts and
#     bytes in `usernfsctl stats --json` and in the Prometheus exposition
#     (differences of snapshots taken before and after);
#   - `usernfsctl stats` (table) and `stats -i` (intervals) work;
#   - `clients` lists the client with its mount, `exports` the table;
#   - `reload` of a broken exports file reports file:line and fails, the
#     previous table staying in force; a good one succeeds;
#   - the control socket refuses another user (nobody), both by its
#     permissions and, when those are opened, by the daemon's uid check;
#   - `promtool check metrics` accepts the exposition, GET only (405),
#     one path (404);
#   - Debian's prometheus scrapes the daemon and returns a counter through
#     its HTTP API (/api/v1/query) equal to the daemon's own.
# Ports: NFS_PORT, MOUNT_PORT as every test; METRICS_PORT (default
# NFS_PORT+41) and PROM_PORT (default NFS_PORT+42) for the listeners.
. "$(dirname "$0")/lib.sh"

need_cmd jq curl setpriv
setup
[ -x "$USERNFSCTL" ] || skip "usernfsctl not built: $USERNFSCTL"

METRICS_PORT=${METRICS_PORT:-$((NFS_PORT + 41))}
PROM_PORT=${PROM_PORT:-$((NFS_PORT + 42))}
N=25		# GETATTRs
M=8		# WRITEs ...
K=4096		# ... of K bytes
READ_SIZE=100000	# the file libnfs reads

T=$WORKDIR
EXPORT=$T/export
mkdir -p "$EXPORT" "$T/other"
head -c "$READ_SIZE" /dev/urandom >"$EXPORT/readme"

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash)
$T/other 192.0.2.1(rw)" --no-rpcbind --metrics "127.0.0.1:$METRICS_PORT"

ctl() { "$USERNFSCTL" -s "$CTL_SOCK" "$@"; }
metrics() { curl -sf --max-time 10 "http://127.0.0.1:$METRICS_PORT/metrics"; }
# prom_value FILE 'NAME{LABELS}': the sample's value (0 when absent)
prom_value() {
	awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"
}
# jproc FILE PROGRAM VERSION PROCEDURE JQ-EXPR: a field of one procedure
jproc() {
	jq -r --arg p "$2" --argjson v "$3" --arg n "$4" \
		".procedures[] | select(.program == \$p and .version == \$v and .procedure == \$n) | $5 // 0" "$1"
}
jctr() { jq -r ".counters.$2" "$1"; }

# ---------------------------------------------------------------------------
# 1. the workload, between two snapshots

ROOT=$(mnt_fh tcp "$EXPORT") || fail "MNT $EXPORT failed"
out=$(nfs_probe tcp create "$ROOT" data unchecked 0644) || fail "CREATE failed: $out"
FH=$(field fh "$out")
[ -n "$FH" ] || fail "CREATE returned no handle: $out"

ctl stats --json >"$T/before.json" || fail "usernfsctl stats --json failed: $(cat "$T/before.json")"
metrics >"$T/before.prom" || fail "no metrics from 127.0.0.1:$METRICS_PORT"

args=()
for ((i = 0; i < N; i++)); do args+=(++ getattr-hex "$FH"); done
run_check "$N GETATTRs over one TCP connection" nfs_probe tcp "${args[@]:1}"
HEX=$(head -c "$K" /dev/zero | tr '\0' 'a' | od -An -v -tx1 | tr -d ' \n')
args=()
for ((i = 0; i < M; i++)); do args+=(++ write "$FH" $((i * K)) filesync "$HEX"); done
run_check "$M WRITEs of $K bytes" nfs_probe tcp "${args[@]:1}"
run_expect "MNT of an export for another host is refused" '^status=13' mnt_probe tcp mnt "$T/other"

ctl stats --json >"$T/after.json" || fail "usernfsctl stats --json failed"
metrics >"$T/after.prom" || fail "no metrics after the workload"

# d_json FILE-EXPR...: after minus before
d_proc() { echo $(($(jproc "$T/after.json" "$@") - $(jproc "$T/before.json" "$@"))); }
d_ctr() { echo $(($(jctr "$T/after.json" "$1") - $(jctr "$T/before.json" "$1"))); }
d_prom() { echo $(($(prom_value "$T/after.prom" "$1") - $(prom_value "$T/before.prom" "$1"))); }

expect_eq "json: GETATTR calls" "$(d_proc NFS 3 GETATTR .calls)" "$N"
expect_eq "json: GETATTR results NFS3_OK" "$(d_proc NFS 3 GETATTR '.status."0"')" "$N"
expect_eq "json: GETATTR bytes in (fixed-size calls: a multiple of $N)" \
	"$(($(d_proc NFS 3 GETATTR .bytes_in) % N))" 0
expect_eq "json: GETATTR queue-wait histogram counts each call" \
	"$(d_proc NFS 3 GETATTR .queue_wait.count)" "$N"
expect_eq "json: GETATTR service histogram counts each call" \
	"$(d_proc NFS 3 GETATTR .service.count)" "$N"
expect_eq "json: WRITE calls" "$(d_proc NFS 3 WRITE .calls)" "$M"
expect_eq "json: WRITE results NFS3_OK" "$(d_proc NFS 3 WRITE '.status."0"')" "$M"
bin=$(d_proc NFS 3 WRITE .bytes_in)
if [ "$bin" -ge $((M * K)) ] && [ "$bin" -le $((M * (K + 512))) ]; then
	ok "json: WRITE bytes in ($bin) carry the $((M * K)) data bytes"
else
	not_ok "json: WRITE bytes in $bin, want $((M * K))..$((M * (K + 512)))"
fi
expect_eq "json: file data written" "$(d_ctr write_bytes)" $((M * K))
expect_eq "json: one fsync per filesync WRITE" "$(d_ctr commits)" "$M"
expect_eq "json: MNT calls" "$(d_proc MOUNT 3 MNT .calls)" 1
expect_eq "json: MNT refused with MNT3ERR_ACCES" "$(d_proc MOUNT 3 MNT '.status."13"')" 1
expect_eq "json: rejected calls, access denied" "$(d_ctr rejected_access)" 1
[ "$(jq .gauges.clients "$T/after.json")" -ge 1 ] && ok "json: a client counted" ||
	not_ok "json: no client counted"

P='{method="GetAttr",proto="3"}'
expect_eq "prometheus: node_nfsd_requests_total$P" "$(d_prom "node_nfsd_requests_total$P")" "$N"
expect_eq "prometheus: node_nfsd_requests_total{method=\"Write\",proto=\"3\"}" \
	"$(d_prom 'node_nfsd_requests_total{method="Write",proto="3"}')" "$M"
expect_eq "prometheus: node_nfsd_disk_bytes_written_total" \
	"$(d_prom node_nfsd_disk_bytes_written_total)" $((M * K))
expect_eq "prometheus: refused MNT by status" \
	"$(d_prom 'usernfsd_rpc_status_total{program="MOUNT",version="3",procedure="MNT",status="13"}')" 1
expect_eq "prometheus: GETATTR service-time histogram count" \
	"$(d_prom 'usernfsd_rpc_service_seconds_count{program="NFS",version="3",procedure="GETATTR"}')" "$N"
expect_eq "prometheus: rejected calls, access denied" \
	"$(d_prom 'usernfsd_rejected_calls_total{reason="access_denied"}')" 1
# JSON and Prometheus agree on the same counter
expect_eq "json and prometheus agree on GETATTR calls" \
	"$(jproc "$T/after.json" NFS 3 GETATTR .calls)" "$(prom_value "$T/after.prom" "node_nfsd_requests_total$P")"

# libnfs (which mounts and looks around first): the bytes it read, exactly
if command -v nfs-cat >/dev/null 2>&1; then
	cp "$T/after.json" "$T/before.json"
	cp "$T/after.prom" "$T/before.prom"
	nfs-cat "$(nfsurl readme)" >"$T/readme.got" 2>"$T/nfscat.err"
	cmp -s "$T/readme.got" "$EXPORT/readme" && ok "libnfs read the file" ||
		not_ok "nfs-cat readme" "$(cat "$T/nfscat.err")"
	ctl stats --json >"$T/after.json" || fail "usernfsctl stats --json failed"
	metrics >"$T/after.prom" || fail "no metrics after libnfs"
	expect_eq "json: file data read by libnfs" "$(d_ctr read_bytes)" "$READ_SIZE"
	expect_eq "prometheus: node_nfsd_disk_bytes_read_total" \
		"$(d_prom node_nfsd_disk_bytes_read_total)" "$READ_SIZE"
	[ "$(d_proc NFS 3 READ .calls)" -ge 1 ] && ok "json: libnfs's READs counted" ||
		not_ok "json: no READ counted for libnfs"
fi

# ---------------------------------------------------------------------------
# 2. the other views

run_expect "stats: nfsstat-like table with GETATTR" '^GETATTR +[0-9]+' ctl stats
run_expect "stats -i 1 -c 1: a report since the start, then one interval" \
	'last interval' ctl stats -i 1 -c 1
run_expect "clients: 127.0.0.1 with its mount of $EXPORT" "^127\\.0\\.0\\.1 .*$EXPORT" ctl clients
run_expect "clients --json: the client, its calls" '"address":"127.0.0.1","calls":[1-9]' \
	ctl clients --json
run_expect "exports: the table in force, effective options" \
	"^$EXPORT	127\\.0\\.0\\.1\\(rw,sync,insecure,no_root_squash" ctl exports

# ---------------------------------------------------------------------------
# 3. reload

printf '%s\n' "# a comment" "$EXPORT 127.0.0.1(rw,bogus)" >"$EXPORTS_FILE"
OUT=$(ctl reload 2>&1)
rc=$?
[ $rc -ne 0 ] && ok "reload of a broken file exits non-zero" ||
	not_ok "reload of a broken file exited 0" "$OUT"
printf '%s\n' "$OUT" | grep -qF "$EXPORTS_FILE:2: unknown option 'bogus'" &&
	ok "reload reports file:line to the caller" ||
	not_ok "reload did not report $EXPORTS_FILE:2" "$OUT"
run_expect "the previous table stays in force" "^$EXPORT	127\\.0\\.0\\.1\\(rw" ctl exports
printf '%s\n' "$EXPORT 127.0.0.1(ro,insecure)" >"$EXPORTS_FILE"
run_check "reload of a good file exits 0" ctl reload
run_expect "the new table is in force" "^$EXPORT	127\\.0\\.0\\.1\\(ro" ctl exports

# ---------------------------------------------------------------------------
# 4. the control socket refuses other users

NB=$(mktemp -d /tmp/usernfsctl-nobody.XXXXXX)
at_exit "rm -rf '$NB'"
cp "$USERNFSCTL" "$NB/usernfsctl"
chmod 755 "$NB" "$NB/usernfsctl"
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$NB/usernfsctl" -s "$CTL_SOCK" "$@"; }
mode=$(stat -c %a "$CTL_SOCK")
expect_eq "control socket mode" "$mode" 600
OUT=$(as_nobody stats 2>&1) && not_ok "nobody read the statistics" "$OUT" ||
	ok "nobody cannot use the socket (permissions)"
# with the permissions opened, the daemon's own check must still refuse
chmod 711 "$WORKDIR" "$STATE_DIR"
chmod 666 "$CTL_SOCK"
OUT=$(as_nobody stats 2>&1)
rc=$?
chmod 600 "$CTL_SOCK"
chmod 700 "$WORKDIR" "$STATE_DIR"
if [ $rc -ne 0 ] && printf '%s\n' "$OUT" | grep -q "permission denied"; then
	ok "the daemon refuses uid nobody (SO_PEERCRED)"
else
	not_ok "nobody was not refused by the daemon (exit $rc)" "$OUT"
fi
run_check "root still may" ctl stats --json

# ---------------------------------------------------------------------------
# 5. the exposition: promtool, methods and paths

code() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@"; }
expect_eq "POST /metrics is 405" "$(code -X POST "http://127.0.0.1:$METRICS_PORT/metrics")" 405
expect_eq "GET /other is 404" "$(code "http://127.0.0.1:$METRICS_PORT/other")" 404
expect_eq "GET /metrics is 200" "$(code "http://127.0.0.1:$METRICS_PORT/metrics")" 200
if command -v promtool >/dev/null 2>&1; then
	metrics >"$T/check.prom"
	run_check "promtool check metrics accepts the exposition" \
		sh -c "promtool check metrics <'$T/check.prom'"
else
	not_ok "promtool not found (install the Debian package prometheus: tests/install-deps.sh test)"
fi

# ---------------------------------------------------------------------------
# 6. a real Prometheus scrapes it

if command -v prometheus >/dev/null 2>&1; then
	cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: usernfsd
    static_configs:
      - targets: ['127.0.0.1:$METRICS_PORT']
EOF
	prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
		--web.listen-address="127.0.0.1:$PROM_PORT" </dev/null >"$T/prometheus.log" 2>&1 9>&- &
	PROM_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $PROM_PID"
	want=$(metrics | awk -v k="node_nfsd_requests_total$P" '$1 == k { print $2 }')
	got=
	for _ in $(seq 60); do
		got=$(curl -s --max-time 2 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
			--data-urlencode "query=node_nfsd_requests_total$P" |
			jq -r '.data.result[0].value[1] // empty' 2>/dev/null)
		[ -n "$got" ] && break
		sleep 0.5
	done
	expect_eq "prometheus scraped node_nfsd_requests_total$P" "${got:-none}" "$want"
	up=$(curl -s --max-time 2 "http://127.0.0.1:$PROM_PORT/api/v1/query" \
		--data-urlencode 'query=up{job="usernfsd"}' | jq -r '.data.result[0].value[1] // empty')
	expect_eq "prometheus sees the target up" "${up:-none}" 1
	if [ -z "$got" ]; then
		echo "---- prometheus.log" >&2
		tail -n 20 "$T/prometheus.log" >&2
	fi
else
	not_ok "prometheus not found (install the Debian package prometheus: tests/install-deps.sh test)"
fi

check_daemon_alive "the statistics tests"
stop_daemon
finish
