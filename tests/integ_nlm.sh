#!/bin/bash
# integ_nlm.sh - NLM locking (program 100021, versions 1, 3 and 4) and its
# status-monitor side, from tests/nlmprobe, a raw client on the XDR rpcgen
# generates:
#   1. TEST/LOCK/UNLOCK/CANCEL over udp, tcp, udp6 and tcp6 in v1 and v3
#      (the 32-byte handle of MOUNT v1) and v4 (the NFSv3 handle)
#   2. two owners (svid and oh), one owner upgrading, downgrading and
#      splitting its ranges, length 0 meaning to end of file
#   3. a process on the server holding an fcntl lock on the exported file
#      conflicts with NLM locks, and the other way round
#   4. blocking: LOCK answers BLOCKED, the GRANTED callback arrives within
#      1 s of the unlock (GRANTED_MSG for LOCK_MSG), CANCEL; the _MSG/_RES
#      forms; a client answering GRANTED with "denied", and one that never
#      answers, lose the lock to the next owner
#   5. SHARE/UNSHARE, NM_LOCK, FREE_ALL
#   6. a client reboot: SM_NOTIFY from a raw client to the server's
#      rpc.statd, whose callback (NLM procedure 16) releases exactly that
#      client's locks; the same callback forged from another host or an
#      unprivileged port releases nothing
#   7. hostile: forged, stale and oversized handles, caller names, owners
#      and cookies at and beyond their XDR limits (1024), truncated
#      arguments, unknown procedures, 10,000 blocked LOCKs from one client
#      (the daemon's VmRSS before and after): the daemon stays up, every
#      bad call gets an NLM error or GARBAGE_ARGS, and meanwhile another
#      client locks and reads normally
#   8. grace: after a restart with --grace 5, LOCK is DENIED_GRACE_PERIOD,
#      a reclaim is granted, and after 5 s LOCK works again
#   9. --nlm-port and --no-nlm
#
# Callbacks go to the client's own rpcbind, at the address the client
# called from, so the client side cannot share the server's rpcbind: the
# test re-runs itself in private network and mount namespaces (its own
# loopback, /run, rpcbind and rpc.statd: the server side) and makes one
# more pair for the clients, joined by a veth: the server is 10.200.0.1,
# the clients 10.200.0.2 to .4, each namespace with its own rpcbind. No
# other address is ever used.
#
# NLM_SERVER=ganesha runs the same checks against nfs-ganesha (NLM v4 only;
# its own grace handling), which is how the test itself was validated.
. "$(dirname "$0")/lib.sh"

NLMPROBE=${NLMPROBE:-$top_builddir/tests/nlmprobe}
NFS2PROBE=${NFS2PROBE:-$top_builddir/tests/nfs2probe}
SERVER=${NLM_SERVER:-usernfsd}
[ -x "$NLMPROBE" ] || skip "nlmprobe not built ($NLMPROBE): run make check"
[ -x "$NFS2PROBE" ] || skip "nfs2probe not built ($NFS2PROBE): run make check"
# absolute: nsenter into a mount namespace starts at its root directory
NLMPROBE=$(readlink -f "$NLMPROBE")
need_root
need_cmd ip unshare nsenter rpcbind rpcinfo rpc.statd
[ "$SERVER" != ganesha ] || need_cmd ganesha.nfsd
# Timing and memory bounds mean nothing under valgrind and the like.
[ -z "${USERNFSD_WRAPPER:-}" ] || skip "callback deadlines and memory bounds do not hold under $USERNFSD_WRAPPER"

# ---------------------------------------------------------------------------
# the server side: this script again, in its own network and mount namespace

if [ -z "${NLM_TEST_NS:-}" ]; then
	unshare --net --mount true 2>/dev/null || skip "cannot make network and mount namespaces (unshare)"
	export NLM_TEST_NS=1
	exec unshare --net --mount --propagation private bash "$0" "$@"
fi
ip link set lo up || skip "cannot bring up lo in a private network namespace"
mount -t tmpfs -o mode=0755 nlmtest /run || skip "cannot mount a private /run"
mkdir -p /run/rpcbind /run/ganesha

setup
T0=$(date +%s)
# Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
# default), which would fake growth in the flood's VmRSS: keep it small.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
# nlmprobe is a short-lived client that never frees what it parses, and
# its callback server leaves libtirpc's to the exit: leak checking is for
# the daemon. Every other sanitizer check still applies to the probe.
printf '#!/bin/sh\nASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" exec %s "$@"\n' \
	"$NLMPROBE" >"$WORKDIR/nlmprobe"
chmod +x "$WORKDIR/nlmprobe"
NLMPROBE=$WORKDIR/nlmprobe
SRV=10.200.0.1
C1=10.200.0.2 C2=10.200.0.3 C3=10.200.0.4
STATD_PORT=32765

# NLM statuses (v4 names; v1/v3 share 0..4)
GRANTED=0 DENIED=1 NOLOCKS=2 BLOCKED=3 GRACE=4 STALE_FH=7

say() { echo "$TEST_NAME: $*"; }

# ---------------------------------------------------------------------------
# the client namespace: its own loopback, /run and rpcbind

CNS=
# cns CMD...: run CMD in the client namespace. (Never `cns ... &`: that
# would background a subshell, and $! would not be the process to stop.)
cns() { nsenter -t "$CNS" -n -m "$@"; }

make_client_ns() {
	local i
	unshare --net --mount --propagation private sh -c \
		'mount -t tmpfs -o mode=0755 nlmclient /run && mkdir -p /run/rpcbind &&
		 ip link set lo up && echo ready && exec sleep 100000' \
		</dev/null >"$WORKDIR/clientns.out" 2>&1 9>&- &
	CNS=$!
	EXTRA_PIDS="$CNS $EXTRA_PIDS"
	for i in $(seq 50); do grep -q ready "$WORKDIR/clientns.out" && break; sleep 0.1; done
	grep -q ready "$WORKDIR/clientns.out" || fail "no client namespace: $(cat "$WORKDIR/clientns.out")"
	ip link add nlms0 type veth peer name nlmc0 netns "$CNS" || fail "cannot make a veth pair"
	ip addr add $SRV/24 dev nlms0 && ip link set nlms0 up || fail "cannot configure nlms0"
	for a in $C1 $C2 $C3; do cns ip addr add $a/24 dev nlmc0 || fail "cannot add $a"; done
	cns ip link set nlmc0 up || fail "cannot bring up nlmc0"
	nsenter -t "$CNS" -n -m rpcbind -f </dev/null >"$WORKDIR/rpcbind-client.log" 2>&1 9>&- &
	EXTRA_PIDS="$! $EXTRA_PIDS"
	for i in $(seq 50); do
		cns rpcinfo -p 127.0.0.1 >/dev/null 2>&1 && (exec 3<>/dev/tcp/$C1/111) 2>/dev/null && return 0
		sleep 0.1
	done
	fail "the client namespace's rpcbind did not come up"
}

# ---------------------------------------------------------------------------
# the servers: usernfsd (the default) or nfs-ganesha

start_statd() {
	local i
	mkdir -p "$WORKDIR/statd/sm" "$WORKDIR/statd/sm.bak"
	rpc.statd -F -d --no-notify -P "$WORKDIR/statd" -p $STATD_PORT -o $((STATD_PORT + 1)) \
		</dev/null >"$WORKDIR/statd.log" 2>&1 9>&- &
	STATD_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $STATD_PID"
	for i in $(seq 50); do
		rpcinfo -p 127.0.0.1 2>/dev/null | awk '$1 == 100024' | grep -q . && return 0
		sleep 0.1
	done
	fail "rpc.statd did not register: $(tail -n 5 "$WORKDIR/statd.log")"
}

EXPORT=$WORKDIR/export
EXPORTS="$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash) 10.200.0.0/24(rw,insecure,no_root_squash)"

G_NFS=33049 G_MNT=33048 G_NLM=33047
ganesha_conf() {   # ganesha_conf GRACE_SECONDS (0: graceless)
	local grace
	if [ "$1" -gt 0 ]; then
		grace="Graceless = false; Grace_Period = $1; Lease_Lifetime = $1;"
	else
		grace="Graceless = true;"
	fi
	cat >"$WORKDIR/ganesha.conf" <<-EOF
	NFS_CORE_PARAM {
		Protocols = 3; NFS_Port = $G_NFS; MNT_Port = $G_MNT; NLM_Port = $G_NLM;
		Enable_NLM = true; Enable_RQUOTA = false; Enable_UDP = true;
	}
	NFSV4 { $grace RecoveryRoot = $WORKDIR/ganesha-recov; }
	EXPORT {
		Export_Id = 1; Path = $EXPORT; Pseudo = $EXPORT; Access_Type = RW;
		Squash = No_Root_Squash; Protocols = 3; Transports = UDP, TCP; SecType = sys;
		FSAL { Name = VFS; }
	}
	EOF
}

start_server() {   # start_server [--grace N]
	if [ "$SERVER" = ganesha ]; then
		local i
		ganesha_conf "${2:-0}"
		mkdir -p "$WORKDIR/ganesha-recov"
		DAEMON_N=$((DAEMON_N + 1))
		DAEMON_LOG=$WORKDIR/ganesha.$DAEMON_N.log
		ganesha.nfsd -F -L "$DAEMON_LOG" -f "$WORKDIR/ganesha.conf" -p /run/ganesha/ganesha.pid \
			-N NIV_EVENT </dev/null >>"$DAEMON_LOG" 2>&1 9>&- &
		DAEMON_PID=$!
		for i in $(seq 100); do
			"$NLMPROBE" -t 1 127.0.0.1 $NLM_PORT tcp null >/dev/null 2>&1 && return 0
			sleep 0.1
		done
		fail "nfs-ganesha did not come up"
	fi
	start_daemon "$EXPORTS" "$@"
}

stop_server() {
	if [ "$SERVER" = ganesha ]; then
		kill -TERM "$DAEMON_PID"
		wait "$DAEMON_PID"
		DAEMON_PID=
		return
	fi
	stop_daemon
}

if [ "$SERVER" = ganesha ]; then
	NFS_PORT=$G_NFS MOUNT_PORT=$G_MNT NLM_PORT=$G_NLM
	VERSIONS="4"
else
	NLM_PORT=$NFS_PORT
	VERSIONS="1 3 4"
fi

# ---------------------------------------------------------------------------
# talking NLM

# nlm PROTO [NLMPROBE OPTIONS] COMMAND ARGS...: from this (the server's) namespace
nlm() {
	probe_argv "$NLMPROBE" PR vniokstaS - "$NLM_PORT" "$@"
	"${PROBE_ARGV[@]}"
}

# cnlm PROTO [OPTIONS] COMMAND ARGS...: from the client namespace, to 10.200.0.1
cnlm() {
	probe_argv "$NLMPROBE" PR vniokstaS "$SRV" "$NLM_PORT" "$@"
	cns "${PROBE_ARGV[@]}"
}

# expect_stat DESC STAT nlm|cnlm ARGS...: the reply has stat=STAT and echoes the cookie
expect_stat() {
	local desc=$1 want=$2 st; shift 2
	OUT=$("$@" 2>&1)
	st=$(field stat "$OUT")
	if [ "$(field rpc "$OUT")" = SUCCESS ] && [ "$st" = "$want" ] && [ "$(field cookie_ok "$OUT")" = 1 ]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc: expected stat=$want" "command: $*
$OUT"
	return 1
}

# expect_stat_in DESC ERE nlm|cnlm ARGS...: as expect_stat, for any stat matching ERE
expect_stat_in() {
	local desc=$1 want=$2 st; shift 2
	OUT=$("$@" 2>&1)
	st=$(field stat "$OUT")
	if [ "$(field rpc "$OUT")" = SUCCESS ] && printf '%s\n' "$st" | grep -Eqx -- "$want" &&
	    [ "$(field cookie_ok "$OUT")" = 1 ]; then
		ok "$desc (stat=$st)"
		return 0
	fi
	not_ok "$desc: expected stat $want" "command: $*
$OUT"
	return 1
}

# expect_refused DESC [v1] nlm|cnlm ARGS...: a bad call gets GARBAGE_ARGS or
# an NLM error (any stat but GRANTED), never silence or success
expect_refused() {
	local desc=$1 rpc st; shift
	OUT=$("$@" 2>&1)
	rpc=$(field rpc "$OUT")
	st=$(field stat "$OUT")
	if [ "$rpc" = GARBAGE_ARGS ] || { [ "$rpc" = SUCCESS ] && [ -n "$st" ] && [ "$st" != 0 ]; }; then
		ok "$desc (${st:+stat=$st }rpc=$rpc)"
		return 0
	fi
	not_ok "$desc: expected GARBAGE_ARGS or an NLM error" "command: $*
$OUT"
	return 1
}

# expect_rpc DESC RPC nlm|cnlm ARGS...: the call ends in rpc=RPC
expect_rpc() {
	local desc=$1 want=$2; shift 2
	OUT=$("$@" 2>&1)
	if [ "$(field rpc "$OUT")" = "$want" ]; then
		ok "$desc"
		return 0
	fi
	not_ok "$desc: expected rpc=$want" "command: $*
$OUT"
	return 1
}

# ---------------------------------------------------------------------------
# handles

# v3fh NAME: the NFSv3 handle of EXPORT/NAME (MOUNT v3, LOOKUP)
v3fh() {
	local root
	root=$(mnt_fh tcp "$EXPORT") && [ -n "$root" ] || return 1
	fh_of tcp "$root" "$1"
}

# v2fh NAME: the 32-byte handle of EXPORT/NAME (MOUNT v1, NFSv2 LOOKUP)
v2fh() {
	local out root
	out=$("$NFS2PROBE" -m 1 127.0.0.1 "$MOUNT_PORT" udp mnt "$EXPORT") || return 1
	root=$(field fh "$out")
	[ -n "$root" ] || return 1
	out=$("$NFS2PROBE" 127.0.0.1 "$NFS_PORT" udp lookup-path "$root" "$1") || return 1
	[ "$(field status "$out")" = 0 ] || return 1
	field fh "$out"
}

# fh_for VERS NAME: the handle NLM version VERS takes
fh_for() {
	if [ "$1" = 4 ]; then v3fh "$2"; else v2fh "$2"; fi
}

newfile() {   # newfile NAME: a file of 64 KiB in the export
	head -c 65536 /dev/urandom >"$EXPORT/$1"
	chmod 666 "$EXPORT/$1"
}

# ---------------------------------------------------------------------------
# the callback listener in the client namespace

LISTEN_PID= LISTEN_LOG= LISTEN_N=0
start_listener() {   # start_listener granted|denied|never
	local i
	stop_listener
	LISTEN_N=$((LISTEN_N + 1))
	LISTEN_LOG=$WORKDIR/listen.$LISTEN_N.log
	nsenter -t "$CNS" -n -m "$NLMPROBE" listen "$1" </dev/null >"$LISTEN_LOG" 2>&1 9>&- &
	LISTEN_PID=$!
	EXTRA_PIDS="$LISTEN_PID $EXTRA_PIDS"
	for i in $(seq 50); do grep -q '^listening=1' "$LISTEN_LOG" && return 0; sleep 0.1; done
	fail "the callback listener did not start: $(cat "$LISTEN_LOG")"
}
stop_listener() {
	stop_bg "$LISTEN_PID" TERM
	LISTEN_PID=
}

# wait_line FILE ERE SECONDS: until a line of FILE matches; the line in $LINE
wait_line() {
	local i n=$(($3 * 20))
	for i in $(seq $n); do
		LINE=$(grep -E -- "$2" "$1" | head -n 1)
		[ -z "$LINE" ] || return 0
		sleep 0.05
	done
	LINE=
	return 1
}

rss_kib() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$DAEMON_PID/status" 2>/dev/null; }

# ===========================================================================

mkdir -p "$EXPORT"
chmod 777 "$EXPORT"
make_client_ns
start_rpcbind
start_statd
start_server
say "server: $SERVER on port $NLM_PORT (NLM versions $VERSIONS), rpc.statd on $STATD_PORT"
if [ "$SERVER" = usernfsd ]; then
	run_expect "NLM v1, v3 and v4 registered with rpcbind on the NFS port (udp, tcp)" \
		"100021 +4 +tcp +$NFS_PORT" rpcinfo -p 127.0.0.1
	for v in 1 3 4; do
		for p in udp tcp; do
			printf '%s\n' "$OUT" | grep -Eq "^ +100021 +$v +$p +$NFS_PORT " ||
				not_ok "NLM v$v over $p is not registered on port $NFS_PORT" "$OUT"
		done
	done
fi

# ---------------------------------------------------------------------------
# 1. the basic calls, every version and transport

PROTOS="udp tcp"
if has_ipv6_lo; then PROTOS="$PROTOS udp6 tcp6"; else say "no IPv6 on lo: udp6/tcp6 left out"; fi
for v in $VERSIONS; do
	for p in $PROTOS; do
		f=basic.v$v.$p
		newfile "$f"
		fh=$(fh_for "$v" "$f") || { not_ok "v$v $p: no handle for $f"; continue; }
		A=(-v "$v" -n 127.0.0.1 -i 101 -o ownerA)
		B=(-v "$v" -n 127.0.0.1 -i 202 -o ownerB)
		expect_rpc "v$v $p: NULL" SUCCESS nlm "$p" -v "$v" null
		expect_stat "v$v $p: TEST of a free range" $GRANTED nlm "$p" "${A[@]}" test "$fh" 0 100
		expect_stat "v$v $p: LOCK" $GRANTED nlm "$p" "${A[@]}" lock "$fh" 0 100
		expect_stat "v$v $p: the same LOCK again (idempotent)" $GRANTED nlm "$p" "${A[@]}" lock "$fh" 0 100
		if expect_stat "v$v $p: TEST by another owner is denied" $DENIED nlm "$p" "${B[@]}" test "$fh" 50 10; then
			[ "$(field holder_svid "$OUT")" = 101 ] && [ "$(field holder_offset "$OUT")" = 0 ] &&
				[ "$(field holder_len "$OUT")" = 100 ] && [ "$(field holder_exclusive "$OUT")" = 1 ] &&
				ok "v$v $p: ...and names the holder" || not_ok "v$v $p: wrong holder" "$OUT"
		fi
		expect_stat "v$v $p: LOCK by another owner is denied" $DENIED nlm "$p" "${B[@]}" lock "$fh" 99 1
		expect_stat "v$v $p: LOCK of the next byte is granted" $GRANTED nlm "$p" "${B[@]}" lock "$fh" 100 1
		expect_stat_in "v$v $p: CANCEL of a request never made" "$GRANTED|$DENIED" nlm "$p" "${B[@]}" cancel "$fh" 0 10
		expect_stat "v$v $p: UNLOCK" $GRANTED nlm "$p" "${A[@]}" unlock "$fh" 0 100
		expect_stat "v$v $p: UNLOCK of nothing held is granted too" $GRANTED nlm "$p" "${A[@]}" unlock "$fh" 0 100
		expect_stat "v$v $p: the other owner's LOCK now works" $GRANTED nlm "$p" "${B[@]}" lock "$fh" 0 100
		expect_stat "v$v $p: the other owner unlocks" $GRANTED nlm "$p" "${B[@]}" unlock "$fh" 0 0
	done
done
say "1. basic calls: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 2. owners and ranges (v4 over TCP, and v1 for the 32-bit ranges)

newfile ranges
FH=$(v3fh ranges) || fail "no handle for ranges"
A=(-n 127.0.0.1 -i 1 -o ownerA) B=(-n 127.0.0.1 -i 2 -o ownerB)
holder_is() {   # holder_is DESC OFFSET LEN: of the TEST in $OUT
	if [ "$(field holder_offset "$OUT")" = "$2" ] && [ "$(field holder_len "$OUT")" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1: expected holder_offset=$2 holder_len=$3" "$OUT"
	fi
}
expect_stat "owners: A locks 0-99 exclusively" $GRANTED nlm tcp "${A[@]}" lock "$FH" 0 100
expect_stat "owners: the same svid with another owner handle is another owner" $DENIED \
	nlm tcp -n 127.0.0.1 -i 2 -o ownerA lock "$FH" 0 1
expect_stat "owners: the same svid and owner handle from another host is another owner" $DENIED \
	nlm tcp -n localhost -i 1 -o ownerA lock "$FH" 0 1
expect_stat "owners: A downgrades to shared" $GRANTED nlm tcp "${A[@]}" lock "$FH" 0 100 shared
expect_stat "owners: B gets a shared lock inside it" $GRANTED nlm tcp "${B[@]}" lock "$FH" 50 10 shared
expect_stat "owners: B's exclusive TEST is denied" $DENIED nlm tcp "${B[@]}" test "$FH" 0 10
expect_stat "owners: A cannot upgrade while B shares" $DENIED nlm tcp "${A[@]}" lock "$FH" 0 100
expect_stat "owners: ...but can upgrade the part B does not hold" $GRANTED nlm tcp "${A[@]}" lock "$FH" 0 50
expect_stat "owners: B's shared TEST of 0-9 is now denied" $DENIED nlm tcp "${B[@]}" test "$FH" 0 10 shared
expect_stat "owners: B's shared TEST of 60-69 is still granted" $GRANTED nlm tcp "${B[@]}" test "$FH" 60 10 shared
expect_stat "owners: B unlocks" $GRANTED nlm tcp "${B[@]}" unlock "$FH" 0 0
expect_stat "owners: A upgrades the rest" $GRANTED nlm tcp "${A[@]}" lock "$FH" 0 100
expect_stat "ranges: A unlocks 40-59 out of the middle" $GRANTED nlm tcp "${A[@]}" unlock "$FH" 40 20
expect_stat "ranges: B locks inside the hole" $GRANTED nlm tcp "${B[@]}" lock "$FH" 45 5
expect_stat "ranges: B's TEST below the hole" $DENIED nlm tcp "${B[@]}" test "$FH" 30 5 &&
	holder_is "ranges: the lower piece is 0-39" 0 40
expect_stat "ranges: B's TEST above the hole" $DENIED nlm tcp "${B[@]}" test "$FH" 70 5 &&
	holder_is "ranges: the upper piece is 60-99" 60 40
expect_stat "ranges: B's TEST across the hole sees A" $DENIED nlm tcp "${B[@]}" test "$FH" 35 30
expect_stat "ranges: B's TEST of 100+ is free" $GRANTED nlm tcp "${B[@]}" test "$FH" 100 1000
expect_stat "ranges: A cannot fill the hole while B is in it" $DENIED nlm tcp "${A[@]}" lock "$FH" 30 30
expect_stat "ranges: B unlocks" $GRANTED nlm tcp "${B[@]}" unlock "$FH" 0 0
expect_stat "ranges: A fills the hole, overlapping both pieces" $GRANTED nlm tcp "${A[@]}" lock "$FH" 30 40
expect_stat "ranges: a TEST sees one lock" $DENIED nlm tcp "${B[@]}" test "$FH" 45 1 &&
	holder_is "ranges: ...0-99, merged" 0 100
expect_stat "ranges: A unlocks everything with length 0" $GRANTED nlm tcp "${A[@]}" unlock "$FH" 0 0
expect_stat "ranges: ...all free" $GRANTED nlm tcp "${B[@]}" test "$FH" 0 0
# length 0: to end of file, whatever the file's size, with 64-bit offsets in v4
expect_stat "EOF: A locks from 1000 with length 0" $GRANTED nlm tcp "${A[@]}" lock "$FH" 1000 0
expect_stat "EOF: B's TEST at 2^40 is denied" $DENIED nlm tcp "${B[@]}" test "$FH" 1099511627776 1 &&
	holder_is "EOF: the holder's length is 0 (to end of file)" 1000 0
expect_stat "EOF: B's TEST of 0-999 is free" $GRANTED nlm tcp "${B[@]}" test "$FH" 0 1000
expect_stat "EOF: B's LOCK at 2^63-1 is denied" $DENIED nlm tcp "${B[@]}" lock "$FH" 9223372036854775806 1
expect_stat "EOF: A unlocks 1000-EOF" $GRANTED nlm tcp "${A[@]}" unlock "$FH" 1000 0
if [ "$SERVER" = usernfsd ]; then
	FH2=$(v2fh ranges) || fail "no v2 handle for ranges"
	expect_stat "v1 EOF: A locks from 4 GiB - 2 with length 0" $GRANTED nlm udp -v 1 "${A[@]}" lock "$FH2" 4294967294 0
	expect_stat "v1 EOF: ...B's TEST at 4 GiB - 1 is denied" $DENIED nlm udp -v 1 "${B[@]}" test "$FH2" 4294967295 1
	expect_stat "v4 sees the v1 lock on the same file" $DENIED nlm tcp "${B[@]}" test "$FH" 4294967295 1
	expect_stat "v1 EOF: A unlocks" $GRANTED nlm udp -v 1 "${A[@]}" unlock "$FH2" 0 0
fi
say "2. owners and ranges: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 3. local fcntl locks on the server against NLM locks

newfile local
FH=$(v3fh local) || fail "no handle for local"
"$NLMPROBE" local-lock "$EXPORT/local" 0 100 w </dev/null >"$WORKDIR/local.out" 2>&1 9>&- &
LOCAL_PID=$!
EXTRA_PIDS="$LOCAL_PID $EXTRA_PIDS"
wait_line "$WORKDIR/local.out" '^local=' 5
if [ "$LINE" = "local=locked pid=$LOCAL_PID" ]; then
	expect_stat "local lock held: NLM LOCK of an overlapping range is denied" $DENIED nlm tcp "${A[@]}" lock "$FH" 50 100
	expect_stat "local lock held: NLM TEST is denied" $DENIED nlm udp "${A[@]}" test "$FH" 99 1
	expect_stat "local lock held: NLM LOCK beside it is granted" $GRANTED nlm tcp "${A[@]}" lock "$FH" 100 10
	kill -TERM "$LOCAL_PID"
	wait "$LOCAL_PID" 2>/dev/null
	expect_stat "local lock released: the NLM LOCK works" $GRANTED nlm tcp "${A[@]}" lock "$FH" 50 10
else
	not_ok "could not take a local lock on $EXPORT/local" "$(cat "$WORKDIR/local.out")"
fi
run_expect "NLM lock held: a local F_GETLK sees it" '^local=conflict type=w' \
	"$NLMPROBE" local-test "$EXPORT/local" 100 1 w
run_expect "NLM lock held: a local F_SETLK fails" '^local=busy' \
	"$NLMPROBE" local-lock "$EXPORT/local" 105 1 r 0
run_expect "NLM lock held: a local read lock elsewhere works" '^local=locked' \
	"$NLMPROBE" local-lock "$EXPORT/local" 200 1 r 0
expect_stat "NLM UNLOCK" $GRANTED nlm tcp "${A[@]}" unlock "$FH" 0 0
run_expect "NLM lock released: a local F_GETLK finds the file free" '^local=free' \
	"$NLMPROBE" local-test "$EXPORT/local" 0 0 w
say "3. local locks: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 4. blocking locks and callbacks into the client namespace

newfile block
FH=$(v3fh block) || fail "no handle for block"
H=(-n 127.0.0.1 -i 7 -o holder)
start_listener granted

# blocked_then_granted DESC VERS PROTO CMD: the holder has the lock; the
# client's CMD (lock or lock-msg) waits; the holder's UNLOCK must bring a
# GRANTED (GRANTED_MSG for LOCK_MSG) within 1 s
blocked_then_granted() {
	local desc=$1 v=$2 p=$3 cmd=$4 fh svid t_unlock t_cb want=GRANTED
	[ "$cmd" = lock-msg ] && want=GRANTED_MSG
	fh=$(fh_for "$v" block) || { not_ok "$desc: no handle"; return; }
	BLOCK_N=$((BLOCK_N + 1))
	svid=$((300 + BLOCK_N))
	expect_stat "$desc: the holder locks" $GRANTED nlm tcp -v "$v" "${H[@]}" lock "$fh" 0 10 || return
	if [ "$cmd" = lock ]; then
		expect_stat "$desc: the client's blocking LOCK answers BLOCKED" $BLOCKED \
			cnlm "$p" -v "$v" -n $C1 -i $svid -k "blk$svid" lock "$fh" 0 10 block || return
	else
		expect_rpc "$desc: the client's LOCK_MSG is sent" SENT \
			cnlm "$p" -v "$v" -n $C1 -i $svid -k "blk$svid" lock-msg "$fh" 0 10 block
		if wait_line "$LISTEN_LOG" "^callback=LOCK_RES .*stat=$BLOCKED .*cookie=$(printf blk%s $svid | od -An -tx1 | tr -d ' \n')( |$)" 5; then
			ok "$desc: LOCK_RES says BLOCKED, with the cookie"
		else
			not_ok "$desc: no LOCK_RES with BLOCKED and the cookie" "$(cat "$LISTEN_LOG")"
		fi
	fi
	expect_stat "$desc: the client's TEST is still denied" $DENIED \
		cnlm "$p" -v "$v" -n $C1 -i $svid test "$fh" 0 10
	t_unlock=$(now_ms)
	expect_stat "$desc: the holder unlocks" $GRANTED nlm tcp -v "$v" "${H[@]}" unlock "$fh" 0 10
	if wait_line "$LISTEN_LOG" "^callback=$want vers=$v from=$SRV .* svid=$svid " 5; then
		t_cb=$(field t_ms "$LINE")
		if [ $((t_cb - t_unlock)) -le 1000 ]; then
			ok "$desc: $want within 1 s of the unlock ($((t_cb - t_unlock)) ms)"
		else
			not_ok "$desc: $want $((t_cb - t_unlock)) ms after the unlock (> 1 s)" "$LINE"
		fi
		[ "$(field offset "$LINE")" = 0 ] && [ "$(field len "$LINE")" = 10 ] && [ "$(field exclusive "$LINE")" = 1 ] &&
			ok "$desc: $want names the range" || not_ok "$desc: $want has the wrong range" "$LINE"
		if [ "$want" = GRANTED_MSG ]; then
			# the listener answered with GRANTED_RES; give the server a moment to read it
			sleep 0.3
		fi
		expect_stat "$desc: now the holder is denied" $DENIED nlm tcp -v "$v" "${H[@]}" test "$fh" 0 10
		[ "$(field holder_svid "$OUT")" = $svid ] && ok "$desc: ...by the client's lock" ||
			not_ok "$desc: the holder is not the client" "$OUT"
	else
		not_ok "$desc: no $want for svid $svid within 5 s of the unlock" "$(cat "$LISTEN_LOG")"
		grep -E "^callback=GRANTED(_MSG)? .* svid=$svid " "$LISTEN_LOG" | head -n 1 | sed "s/^/$TEST_NAME: instead: /"
	fi
	expect_stat "$desc: the client unlocks" $GRANTED cnlm "$p" -v "$v" -n $C1 -i $svid unlock "$fh" 0 10
}
BLOCK_N=0
for v in $VERSIONS; do
	blocked_then_granted "block v$v udp" "$v" udp lock
done
blocked_then_granted "block v4 tcp" 4 tcp lock
blocked_then_granted "block LOCK_MSG v4 udp" 4 udp lock-msg
blocked_then_granted "block LOCK_MSG v4 tcp" 4 tcp lock-msg
[ "$SERVER" = ganesha ] || blocked_then_granted "block LOCK_MSG v1 udp" 1 udp lock-msg

# CANCEL: a cancelled request is not granted later
expect_stat "cancel: the holder locks" $GRANTED nlm tcp "${H[@]}" lock "$FH" 0 10
expect_stat "cancel: the client blocks" $BLOCKED cnlm tcp -n $C1 -i 401 lock "$FH" 0 10 block
expect_stat "cancel: CANCEL of the blocked request" $GRANTED cnlm tcp -n $C1 -i 401 cancel "$FH" 0 10 block
expect_stat "cancel: the holder unlocks" $GRANTED nlm tcp "${H[@]}" unlock "$FH" 0 10
sleep 1
if grep -Eq '^callback=GRANTED(_MSG)? .* svid=401 ' "$LISTEN_LOG"; then
	not_ok "cancel: a GRANTED came for the cancelled request" "$(grep 'svid=401 ' "$LISTEN_LOG")"
else
	ok "cancel: no GRANTED for the cancelled request"
fi
expect_stat "cancel: a third owner gets the lock" $GRANTED nlm tcp -n 127.0.0.1 -i 402 lock "$FH" 0 10
expect_stat "cancel: and releases it" $GRANTED nlm tcp -n 127.0.0.1 -i 402 unlock "$FH" 0 10

# a LOCK blocked behind a process on the server is granted when it lets go
"$NLMPROBE" local-lock "$EXPORT/block" 0 10 w </dev/null >"$WORKDIR/local2.out" 2>&1 9>&- &
LOCAL_PID=$!
EXTRA_PIDS="$LOCAL_PID $EXTRA_PIDS"
if wait_line "$WORKDIR/local2.out" '^local=locked' 5; then
	expect_stat "local blocker: the client's LOCK answers BLOCKED" $BLOCKED \
		cnlm tcp -n $C1 -i 450 lock "$FH" 0 10 block
	t_unlock=$(now_ms)
	kill -TERM "$LOCAL_PID"
	wait "$LOCAL_PID" 2>/dev/null
	if wait_line "$LISTEN_LOG" "^callback=GRANTED(_MSG)? .* svid=450 " 10; then
		ok "local blocker: GRANTED $(($(field t_ms "$LINE") - t_unlock)) ms after the local process let go"
	else
		not_ok "local blocker: no GRANTED within 10 s of the local unlock" "$(tail -n 5 "$LISTEN_LOG")"
	fi
	cnlm tcp -n $C1 -i 450 cancel "$FH" 0 10 block >/dev/null 2>&1
	cnlm tcp -n $C1 -i 450 unlock "$FH" 0 10 >/dev/null 2>&1
else
	not_ok "local blocker: no local lock" "$(cat "$WORKDIR/local2.out")"
fi

# the other _MSG forms: answers come back as _RES calls
msg_res() {   # msg_res DESC RES STAT PROTO CMD ARGS...: CMD sent as a message, its _RES carries STAT
	local desc=$1 res=$2 st=$3 p=$4 k; shift 4
	k=msg$RANDOM
	expect_rpc "$desc: sent" SENT cnlm "$p" -n $C1 -i 501 -k "$k" "$@" || return
	if wait_line "$LISTEN_LOG" "^callback=$res .*stat=$st .*cookie=$(hex "$k")( |$)" 5; then
		ok "$desc: $res with stat=$st and the cookie"
	else
		not_ok "$desc: no $res with stat=$st and cookie $k" "$(tail -n 5 "$LISTEN_LOG")"
	fi
}
msg_res "LOCK_MSG over TCP" LOCK_RES $GRANTED tcp lock-msg "$FH" 0 10
# TEST_MSG by another owner: svid 501 holds it, so ask as 502
k=tm$RANDOM
expect_rpc "TEST_MSG by another owner: sent" SENT cnlm udp -n $C1 -i 502 -k "$k" test-msg "$FH" 5 1
if wait_line "$LISTEN_LOG" "^callback=TEST_RES .*stat=$DENIED .*cookie=$(hex "$k") .*holder_svid=501 " 5; then
	ok "TEST_MSG: TEST_RES denies, naming the holder"
else
	not_ok "TEST_MSG: no TEST_RES naming holder 501" "$(tail -n 5 "$LISTEN_LOG")"
fi
msg_res "UNLOCK_MSG over TCP" UNLOCK_RES $GRANTED tcp unlock-msg "$FH" 0 10
msg_res "CANCEL_MSG of nothing over UDP" CANCEL_RES "[01]" udp cancel-msg "$FH" 0 10
expect_stat "after UNLOCK_MSG the range is free" $GRANTED nlm tcp "${H[@]}" test "$FH" 0 10

# a client that answers GRANTED with "denied" does not get the lock
granted_refused() {   # granted_refused MODE DESC CLIENT WAIT_SECONDS
	local mode=$1 desc=$2 c=$3 secs=$4 svid=$((600 + LISTEN_N)) i t0
	start_listener "$mode"
	expect_stat "$desc: the holder locks" $GRANTED nlm tcp "${H[@]}" lock "$FH" 0 10
	expect_stat "$desc: the client blocks" $BLOCKED cnlm udp -S $c -n $c -i $svid lock "$FH" 0 10 block
	expect_stat "$desc: the holder unlocks" $GRANTED nlm tcp "${H[@]}" unlock "$FH" 0 10
	if wait_line "$LISTEN_LOG" "^callback=GRANTED(_MSG)? .* svid=$svid " 5; then
		ok "$desc: the GRANTED came"
	else
		not_ok "$desc: no GRANTED within 5 s" "$(cat "$LISTEN_LOG")"
	fi
	t0=$(date +%s)
	for i in $(seq "$secs"); do
		OUT=$(nlm tcp -n 127.0.0.1 -i 699 lock "$FH" 0 10 2>&1)
		[ "$(field stat "$OUT")" = $GRANTED ] && break
		sleep 1
	done
	if [ "$(field stat "$OUT")" = $GRANTED ]; then
		ok "$desc: a third owner gets the lock ($(($(date +%s) - t0)) s after the GRANTED)"
		say "$desc: the lock went to a third owner $(($(date +%s) - t0)) s after the GRANTED;" \
			"GRANTED calls the client saw: $(grep -c "^callback=GRANTED.* svid=$svid " "$LISTEN_LOG")"
	else
		not_ok "$desc: a third owner still cannot lock after $secs s" "$OUT
$(cat "$LISTEN_LOG")"
	fi
	nlm tcp -n 127.0.0.1 -i 699 unlock "$FH" 0 10 >/dev/null 2>&1
	cnlm udp -S $c -n $c -i $svid unlock "$FH" 0 10 >/dev/null 2>&1
}
# (a client address each: a server may remember how a client answered)
granted_refused denied "GRANTED answered denied" $C2 10
granted_refused never "GRANTED never answered" $C3 30
stop_listener
say "4. blocking and callbacks: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 5. SHARE/UNSHARE, NM_LOCK, FREE_ALL

newfile share
for v in $VERSIONS; do
	[ "$v" = 1 ] && continue	# SHARE is v3 and v4
	fh=$(fh_for "$v" share) || { not_ok "share v$v: no handle"; continue; }
	SA=(-v "$v" -n 127.0.0.1 -i 1 -o shareA) SB=(-v "$v" -n 127.0.0.1 -i 2 -o shareB)
	expect_stat "share v$v: A opens rw, denying writers" $GRANTED nlm udp "${SA[@]}" share "$fh" dw rw
	expect_stat "share v$v: B opening for writing is denied" $DENIED nlm udp "${SB[@]}" share "$fh" dn w
	expect_stat "share v$v: B opening for reading, denying readers, is denied" $DENIED nlm udp "${SB[@]}" share "$fh" dr r
	expect_stat "share v$v: B opening for reading works" $GRANTED nlm udp "${SB[@]}" share "$fh" dn r
	expect_stat "share v$v: A unshares" $GRANTED nlm udp "${SA[@]}" unshare "$fh" dw rw
	expect_stat "share v$v: B unshares" $GRANTED nlm udp "${SB[@]}" unshare "$fh" dn r
	expect_stat "share v$v: now B can open for writing" $GRANTED nlm udp "${SB[@]}" share "$fh" dn rw
	expect_stat "share v$v: A denying readers is refused while B reads" $DENIED nlm udp "${SA[@]}" share "$fh" dr none
	expect_stat "share v$v: B unshares" $GRANTED nlm udp "${SB[@]}" unshare "$fh" dn rw
	expect_stat "share v$v: A denying everything works on a closed file" $GRANTED nlm udp "${SA[@]}" share "$fh" drw r
	expect_stat "share v$v: A unshares again" $GRANTED nlm udp "${SA[@]}" unshare "$fh" drw r
done

newfile nmlock
FH=$(v3fh nmlock) || fail "no handle for nmlock"
expect_stat "NM_LOCK: a non-monitored client locks" $GRANTED nlm udp -n nmclient -i 1 nm-lock "$FH" 0 10
expect_stat "NM_LOCK: another owner is denied" $DENIED nlm udp -n 127.0.0.1 -i 2 lock "$FH" 5 1
if [ "$SERVER" = ganesha ]; then
	say "FREE_ALL left out: it crashes nfs-ganesha 4.3 (segfault in libc)"
	nlm udp -n nmclient -i 1 unlock "$FH" 0 0 >/dev/null 2>&1
else
	expect_stat "FREE_ALL: another client holds 20-29" $GRANTED nlm udp -n keeper -i 3 nm-lock "$FH" 20 10
	expect_rpc "FREE_ALL of nmclient" SUCCESS nlm udp free-all nmclient 0
	expect_stat "FREE_ALL: nmclient's lock is gone" $GRANTED nlm udp -n 127.0.0.1 -i 2 lock "$FH" 5 1
	expect_stat "FREE_ALL: keeper's lock stayed" $DENIED nlm udp -n 127.0.0.1 -i 2 test "$FH" 25 1
	expect_rpc "FREE_ALL v3 of keeper" SUCCESS nlm udp -v 3 free-all keeper 0
	expect_stat "FREE_ALL v3: keeper's lock is gone" $GRANTED nlm udp -n 127.0.0.1 -i 2 test "$FH" 25 1
	nlm udp -n 127.0.0.1 -i 2 unlock "$FH" 0 0 >/dev/null 2>&1
	# FREE_ALL frees the locks of the client that sends it, never another host's
	expect_stat "FREE_ALL: $C1 locks 40-49" $GRANTED cnlm udp -S $C1 -n $C1 -i 4 lock "$FH" 40 10
	expect_rpc "FREE_ALL naming $C1, sent from 127.0.0.1" SUCCESS nlm udp free-all $C1 0
	expect_stat "FREE_ALL: $C1's lock stayed" $DENIED nlm udp -n 127.0.0.1 -i 2 test "$FH" 45 1
	expect_rpc "FREE_ALL sent by $C1 itself" SUCCESS cnlm udp -S $C1 free-all $C1 0
	expect_stat "FREE_ALL: $C1's lock is gone" $GRANTED nlm udp -n 127.0.0.1 -i 2 test "$FH" 45 1
fi
say "5. SHARE, NM_LOCK, FREE_ALL: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 6. a client reboots: SM_NOTIFY to rpc.statd, its callback (procedure 16)

newfile reboot
FH=$(v3fh reboot) || fail "no handle for reboot"
start_listener granted
expect_stat "reboot: client $C1 locks 0-9" $GRANTED cnlm tcp -S $C1 -n $C1 -i 11 lock "$FH" 0 10
expect_stat "reboot: client $C2 locks 10-19" $GRANTED cnlm tcp -S $C2 -n $C2 -i 11 lock "$FH" 10 10
expect_stat "reboot: a local client locks 20-29" $GRANTED nlm tcp -n 127.0.0.1 -i 11 lock "$FH" 20 10
# forged callbacks: the same procedure from a remote host, or from an
# unprivileged loopback port, must release nothing
OUT=$(cnlm udp -S $C2 status $C2 9 2>&1)
say "reboot: a status callback forged from $C2 got rpc=$(field rpc "$OUT")"
OUT=$(nlm udp -P status $C2 9 2>&1)
say "reboot: a status callback forged from an unprivileged loopback port got rpc=$(field rpc "$OUT")"
sleep 0.5
expect_stat "reboot: the forged callbacks released nothing" $DENIED nlm tcp -n 127.0.0.1 -i 99 test "$FH" 10 1
run_expect "reboot: rpc.statd answers SM_STAT" '^res_stat=0 state=' \
	cns "$NLMPROBE" -S $C2 $SRV $STATD_PORT udp sm-stat $C2
# The rebooted client's statd: SM_NOTIFY straight to the server's statd port.
cns "$NLMPROBE" -S $C2 $SRV $STATD_PORT udp sm-notify $C2 3 >"$WORKDIR/notify.out" 2>&1
if grep -q '^rpc=SUCCESS' "$WORKDIR/notify.out"; then
	ok "reboot: SM_NOTIFY from $C2 accepted by rpc.statd"
else
	not_ok "reboot: SM_NOTIFY failed" "$(cat "$WORKDIR/notify.out")"
fi
released=
for i in $(seq 50); do
	OUT=$(nlm tcp -n 127.0.0.1 -i 99 test "$FH" 10 10 2>&1)
	[ "$(field stat "$OUT")" = $GRANTED ] && { released=1; break; }
	sleep 0.1
done
if [ -n "$released" ]; then
	ok "reboot: $C2's lock released through rpc.statd's callback (within $((i / 10)).$((i % 10)) s)"
else
	not_ok "reboot: $C2's lock still held 5 s after SM_NOTIFY" "$OUT
--- statd log ---
$(tail -n 15 "$WORKDIR/statd.log")"
fi
expect_stat "reboot: $C1's lock is untouched" $DENIED nlm tcp -n 127.0.0.1 -i 99 test "$FH" 0 10
expect_stat "reboot: the local client's lock is untouched" $DENIED nlm tcp -n 127.0.0.1 -i 99 test "$FH" 20 10
say "6. reboot: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 7. hostile clients

newfile hostile
FH=$(v3fh hostile) || fail "no handle for hostile"
# a real handle (of a file of its own) with the last bit flipped
newfile flip
FLIP=$(v3fh flip) || fail "no handle for flip"
FLIP=${FLIP%?}$(printf '%x' $((0x${FLIP: -1} ^ 1)))
expect_refused "hostile: a forged 32-byte handle (v4)" nlm tcp -i 1 lock len:32 0 1
expect_refused "hostile: a forged 64-byte handle (v4)" nlm udp -i 1 test len:64 0 1
expect_refused "hostile: an empty handle" nlm tcp -i 1 lock hex: 0 1
expect_refused "hostile: a handle with a flipped bit" nlm tcp -i 1 lock "$FLIP" 0 1
# a file removed on the server: its handle is stale at once (the inode
# cache still holds the file open until its next sweep)
newfile stale
STALE=$(v3fh stale) || fail "no handle for stale"
rm -f "$EXPORT/stale"
expect_refused "hostile: the handle of a file just removed" nlm tcp -i 1 lock "$STALE" 0 1
[ "$SERVER" = ganesha ] || {
	expect_refused "hostile: a forged 32-byte handle (v1)" nlm udp -v 1 -i 1 lock len:32 0 1
	expect_refused "hostile: a forged handle (v3 SHARE)" nlm udp -v 3 -i 1 share len:32 dn r
}
expect_refused "hostile: a 1024-byte handle" nlm tcp -i 1 lock len:1024 0 1
expect_refused "hostile: a 1025-byte handle" nlm tcp -i 1 lock len:1025 0 1
expect_refused "hostile: a 100,000-byte handle" nlm tcp -i 1 lock len:100000 0 1
# names, owners and cookies at the limit are fine; one byte more is garbage
# (each on a range of its own: a lock that should not have been granted
# must not turn the next check into a conflict)
expect_stat "hostile: a caller name of 1024 bytes" $GRANTED nlm tcp -n len:1024 -i 1 lock "$FH" 10 1
expect_stat "hostile: ...and its unlock" $GRANTED nlm tcp -n len:1024 -i 1 unlock "$FH" 10 1
expect_rpc "hostile: a caller name of 1025 bytes" GARBAGE_ARGS nlm tcp -n len:1025 -i 1 lock "$FH" 11 1
expect_rpc "hostile: a caller name of 60,000 bytes (UDP)" GARBAGE_ARGS nlm udp -n len:60000 -i 1 lock "$FH" 12 1
expect_refused "hostile: a caller name with a NUL inside" nlm tcp -n hex:61006263 -i 1 lock "$FH" 13 1
expect_stat "hostile: an owner handle of 1024 bytes" $GRANTED nlm tcp -o len:1024 -i 1 lock "$FH" 14 1
expect_stat "hostile: ...and its unlock" $GRANTED nlm tcp -o len:1024 -i 1 unlock "$FH" 14 1
expect_rpc "hostile: an owner handle of 1025 bytes" GARBAGE_ARGS nlm tcp -o len:1025 -i 1 lock "$FH" 15 1
expect_stat "hostile: a cookie of 1024 bytes, echoed" $GRANTED nlm tcp -k len:1024 -i 1 test "$FH" 0 1
expect_stat "hostile: an empty cookie" $GRANTED nlm tcp -k hex: -i 1 test "$FH" 0 1
expect_rpc "hostile: a cookie of 1025 bytes" GARBAGE_ARGS nlm tcp -k len:1025 -i 1 test "$FH" 0 1
# (FREE_ALL's name is a string<MAXNAMELEN>, LM_MAXSTRLEN + 1)
[ "$SERVER" = ganesha ] || {
	expect_rpc "hostile: FREE_ALL with a 1025-byte name" SUCCESS nlm udp free-all len:1025 0
	expect_rpc "hostile: FREE_ALL with a 1026-byte name" GARBAGE_ARGS nlm udp free-all len:1026 0
}
expect_rpc "hostile: SHARE with a 1025-byte caller" GARBAGE_ARGS nlm udp -n len:1025 share "$FH" dn r
expect_refused "hostile: SHARE with deny mode 7" nlm udp share "$FH" 7 r
expect_refused "hostile: SHARE with access 9" nlm udp share "$FH" dn 9
expect_refused "hostile: a range beyond 2^64 (offset 2^64-1, length 2)" nlm tcp -i 1 lock "$FH" 18446744073709551615 2
nlm tcp -i 1 unlock "$FH" 0 0 >/dev/null 2>&1
expect_rpc "hostile: LOCK arguments cut short" GARBAGE_ARGS nlm tcp raw 2 0000000401020304000000000000000100000004
expect_rpc "hostile: an empty TEST" GARBAGE_ARGS nlm udp raw 1 ""
expect_rpc "hostile: an empty LOCK over TCP" GARBAGE_ARGS nlm tcp raw 2 ""
expect_rpc "hostile: a string length of 2^32-1" GARBAGE_ARGS nlm tcp raw 2 00000004abcdabcd0000000000000001ffffffff
expect_rpc "hostile: procedure 17 does not exist" PROC_UNAVAIL nlm udp raw 17 ""
expect_rpc "hostile: procedure 24 does not exist" PROC_UNAVAIL nlm udp raw 24 ""
if [ "$SERVER" = usernfsd ]; then
	expect_rpc "hostile: SHARE is not in v1" PROC_UNAVAIL nlm udp -v 1 raw 20 ""
	OUT=$("$RPCPROBE" 127.0.0.1 "$NLM_PORT" udp expect-prog-mismatch 100021 2 2>&1) &&
		ok "hostile: NLM version 2 does not exist: PROG_MISMATCH" ||
		not_ok "hostile: NLM version 2: expected PROG_MISMATCH" "$OUT"
fi
OUT=$(nlm tcp -i 1 granted "$FH" 40 1 2>&1)
say "hostile: a GRANTED sent to the server got rpc=$(field rpc "$OUT") $(field name "$OUT")"
expect_stat "hostile: ...and made no lock" $GRANTED nlm tcp -i 2 test "$FH" 40 1
check_daemon_alive "the malformed calls" || fail "the daemon died"

# 10,000 blocked LOCKs from one client, while another client locks and reads
N=10000
expect_stat "flood: the holder locks" $GRANTED nlm tcp -n 127.0.0.1 -i 1 -o holder lock "$FH" 0 10
RSS0=$(rss_kib)
OUT=$(cns "$NLMPROBE" -t 10 -S $C3 -n $C3 -i 100000 $SRV "$NLM_PORT" tcp flood-block "$FH" $N 0 10 2>&1)
RSS1=$(rss_kib)
say "flood: $N blocking LOCKs from $C3: $(printf '%s\n' "$OUT" | grep '^sent=');" \
	"VmRSS $RSS0 kB before, $RSS1 kB after (+$((RSS1 - RSS0)) kB)"
blocked=$(field blocked "$OUT") nolocks=$(field denied_nolocks "$OUT") failed=$(field rpc_failed "$OUT")
if [ -n "$blocked" ] && [ $((blocked + nolocks)) -eq $N ] && [ "$failed" = 0 ]; then
	ok "flood: every blocked LOCK answered BLOCKED or DENIED_NOLOCKS ($blocked, $nolocks)"
else
	not_ok "flood: unexpected answers" "$OUT"
fi
check_daemon_alive "$N blocked LOCKs" || fail "the daemon died"
RSS_BOUND=$((32 * 1024))
grep -q libasan "/proc/$DAEMON_PID/maps" 2>/dev/null && RSS_BOUND=$((RSS_BOUND * 2))	# redzones, shadow
if [ $((RSS1 - RSS0)) -lt $RSS_BOUND ]; then
	ok "flood: VmRSS grew by less than $((RSS_BOUND / 1024)) MiB (+$((RSS1 - RSS0)) kB)"
else
	not_ok "flood: VmRSS grew by $((RSS1 - RSS0)) kB (bound $((RSS_BOUND / 1024)) MiB)"
fi
t0=$(now_ms)
expect_stat "flood: another client locks meanwhile" $GRANTED cnlm tcp -S $C1 -n $C1 -i 5 lock "$FH" 100 10
expect_stat "flood: ...and unlocks" $GRANTED cnlm tcp -S $C1 -n $C1 -i 5 unlock "$FH" 100 10
root=$(mnt_fh tcp "$EXPORT")
f=$(fh_of tcp "$root" hostile)
run_expect "flood: another client reads the file meanwhile" '^status=0 bytes=65536 ' \
	nfs_probe tcp read-file "$f" "$WORKDIR/hostile.read"
cmp -s "$WORKDIR/hostile.read" "$EXPORT/hostile" && ok "flood: ...every byte right" ||
	not_ok "flood: the file read differs"
say "flood: the other client's LOCK, UNLOCK, MNT, LOOKUP and READ took $(($(now_ms) - t0)) ms"
if [ "$SERVER" = ganesha ]; then
	run_check "flood: CANCEL of every waiting request" \
		cns "$NLMPROBE" -t 10 -S $C3 -n $C3 -i 100000 $SRV "$NLM_PORT" tcp flood-cancel "$FH" $N 0 10
else
	expect_rpc "flood: FREE_ALL from the flooding client" SUCCESS cnlm tcp -t 30 -S $C3 free-all $C3 0
fi
expect_stat "flood: the holder unlocks" $GRANTED nlm tcp -n 127.0.0.1 -i 1 -o holder unlock "$FH" 0 10
sleep 0.5
expect_stat "flood: the flooder's waiting requests are gone: a third owner locks" $GRANTED \
	nlm tcp -n 127.0.0.1 -i 3 lock "$FH" 0 10
nlm tcp -n 127.0.0.1 -i 3 unlock "$FH" 0 10 >/dev/null 2>&1
say "flood: VmRSS $(rss_kib) kB after FREE_ALL"
check_daemon_alive "the flood" || fail "the daemon died"
stop_listener
say "7. hostile: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 8. grace: restart after clients held locks

newfile grace
FH=$(v3fh grace) || fail "no handle for grace"
expect_stat "grace: a client holds a lock before the restart" $GRANTED nlm tcp -n 127.0.0.1 -i 21 lock "$FH" 0 10
stop_server
start_server --grace 5
T_START=$(date +%s%N)
expect_stat "grace: a new LOCK is DENIED_GRACE_PERIOD" $GRACE nlm tcp -n 127.0.0.1 -i 22 lock "$FH" 100 10
expect_stat "grace: the reclaim is granted" $GRANTED nlm tcp -n 127.0.0.1 -i 21 lock "$FH" 0 10 reclaim
expect_stat_in "grace: TEST is denied (the grace period or the reclaimed lock)" "$DENIED|$GRACE" \
	nlm tcp -n 127.0.0.1 -i 22 test "$FH" 0 10
[ "$SERVER" = ganesha ] || expect_stat "grace: v1 LOCK too is DENIED_GRACE_PERIOD" $GRACE \
	nlm udp -v 1 -n 127.0.0.1 -i 23 lock "$(v2fh grace)" 200 10
left=$(( (T_START + 5500000000 - $(date +%s%N)) / 1000000 ))
[ "$left" -le 0 ] || sleep "$((left / 1000)).$(printf %03d $((left % 1000)))"
if [ "$SERVER" = ganesha ]; then   # its grace period ends on its own schedule: how long?
	for i in $(seq 60); do
		OUT=$(nlm tcp -n 127.0.0.1 -i 22 lock "$FH" 100 10 2>&1)
		[ "$(field stat "$OUT")" = $GRACE ] || break
		sleep 1
	done
	say "grace: nfs-ganesha's grace period ended $(( ($(date +%s%N) - T_START) / 1000000000 )) s after the restart"
fi
expect_stat "grace: 5 s later a new LOCK works" $GRANTED nlm tcp -n 127.0.0.1 -i 22 lock "$FH" 100 10
expect_stat "grace: the reclaimed lock holds" $DENIED nlm tcp -n 127.0.0.1 -i 22 test "$FH" 0 10
nlm tcp -n 127.0.0.1 -i 22 unlock "$FH" 0 0 >/dev/null 2>&1
nlm tcp -n 127.0.0.1 -i 21 unlock "$FH" 0 0 >/dev/null 2>&1
say "8. grace: done ($(($(date +%s) - T0)) s)"

# ---------------------------------------------------------------------------
# 9. --nlm-port and --no-nlm

if [ "$SERVER" = usernfsd ]; then
	stop_server
	start_server --nlm-port 32047 --grace 0
	run_expect "--nlm-port: NLM registered on its own port" '100021 +4 +tcp +32047' rpcinfo -p 127.0.0.1
	OUT=$("$NLMPROBE" 127.0.0.1 32047 tcp null 2>&1) && ok "--nlm-port: NULL there" ||
		not_ok "--nlm-port: no NLM on 32047" "$OUT"
	stop_server
	start_server --no-nlm
	OUT=$(rpcinfo -p 127.0.0.1 2>&1)
	printf '%s\n' "$OUT" | grep -q ' 100021 ' && not_ok "--no-nlm: NLM still registered" "$OUT" ||
		ok "--no-nlm: NLM not registered"
	expect_rpc "--no-nlm: NLM calls get PROG_UNAVAIL" PROG_UNAVAIL nlm tcp null
fi
stop_server
ok "clean exit"
say "took $(($(date +%s) - T0)) s"
finish
