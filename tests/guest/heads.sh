#!/bin/bash
# Runs inside the QEMU guest (see run-guest): several usernfsd heads over
# one file system, with the Linux kernel client (issue 16).
#   heads.sh USERNFSD LOCKTOOL
#
# The guest's /tmp (a tmpfs) stands in for the cluster file system: one
# kernel enforces locks between processes as a cluster file system does
# between nodes. The heads live in network namespaces of their own
# (with their own rpcbind and rpc.statd), joined to the client, the
# guest's root namespace, by a veth pair; the server side has two
# addresses:
#   192.168.78.1  "vip-a": the identity that fails over, state directory
#                 $shared/ids/vip-a (shared by whichever head runs it)
#   192.168.78.3  "vip-c": another head, always up, --no-rpcbind (the
#                 ports are the same as vip-a's registration says)
#   192.168.78.2  the client
# Every head has the same --handle-key and --grace-dir.
#
# 1. Failover of writes: the guest mounts vip-a (hard, TCP, nolock) and
#    one process streams 24 MiB into a file it keeps open; the head is
#    SIGKILLed mid-stream and another head starts on the same address and
#    port with the identity's state: the process finishes without an
#    error, and the file holds exactly what it wrote (sha256), read on the
#    server and through the client.
# 2. Locks: a lock through vip-a keeps the range from a process through
#    vip-c (and from one on the server); vip-a's head is SIGKILLed and
#    another takes its identity: the guest is told (SM_NOTIFY), reclaims
#    its lock in that head's grace period, a process on the server cannot
#    take it, and vip-c grants no new lock meanwhile (its record in the
#    grace directory holds it back), then does.
# 3. The same over NFSv4.1 (served by default with --grace-dir too): a v4
#    lock through vip-a keeps the range from vip-c and the server; vip-a's
#    head is SIGKILLed and another takes its identity: the guest reclaims
#    its open and lock there (the client records are in the identity's
#    state directory, the server scope is the shared key's), and a new v4
#    lock through vip-c waits (NFS4ERR_GRACE) for the grace period's end.
set -u
daemon=$1
LTT=("$2" -t 60)
work=/tmp/heads
exp=$work/export
shared=$work/shared
key=$work/handle-key
SRV=192.168.78.1
SRV_C=192.168.78.3
CLI=192.168.78.2
GRACE=20
. "$(dirname "$0")/guest-lib.sh"
counted_checks heads
diag() {
	local f
	for f in "$work"/head-*.log; do echo "---- $f"; tail -n 25 "$f"; done
	echo "---- /proc/locks"; cat /proc/locks
	echo "---- kernel"; dmesg --color=never | tail -n 20
}
snooze_setup

setup_namespaces() {
	server_netns hd client heads $CLI $SRV $SRV_C
}

# start_head NAME ADDRESS IDENTITY [ARGS...]: a head bound to ADDRESS with
# the state directory $shared/ids/IDENTITY; its pid in HEAD_PID (nsenter
# execs the daemon: a function in the background would have its own pid).
start_head() {
	local name=$1 addr=$2 id=$3 log=$work/head-$1.log
	shift 3
	mkdir -p "$work/run-$name"
	srv_daemon "$work/run-$name/pid" "$log" 20 --bind "$addr" \
		--state-dir "$shared/ids/$id" --handle-key "$key" --grace-dir "$shared/grace" \
		--control "$work/run-$name/sock" "$@" ||
		fatal "head $name did not start"
	HEAD_PID=$SRV_PID
}

# ---- 1. a head dies under a stream of writes ----

# The writer: one process, one open file, 384 chunks of 64 KiB, each
# line of progress flushed; "done SHA256" at the end, after close().
WRITER='
import hashlib, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
h = hashlib.sha256()
for i in range(384):
    chunk = hashlib.sha256(b"%d" % i).digest() * 2048
    h.update(chunk)
    n = os.write(fd, chunk)
    if n != len(chunk):
        print("short write", i, n, flush=True); sys.exit(1)
    print("wrote", i, flush=True)
    time.sleep(0.01)
os.close(fd)
print("done", h.hexdigest(), flush=True)
'

failover_writes() {
	local mnt=$work/mnt-w out=$work/writer.out wpid st sum_srv sum_cli want
	mkdir -p "$mnt"
	step "1. mounting $SRV:$exp (hard, tcp, nolock) from head A"
	nfs_mount 3 tcp "$SRV:$exp" "$mnt" hard,nolock,timeo=50 || { bad "mount $SRV:$exp"; return; }
	bg "$out" python3 -c "$WRITER" "$mnt/stream"
	wpid=$!
	wait_line "wrote 120" "$out" 120 || { bad "the writer did not get going" "$out"; kill "$wpid"; return; }
	step "1. writer at $(tail -n 1 "$out"); SIGKILL head A"
	kill -KILL "$head_a"
	wait "$head_a" 2>/dev/null
	snooze 1
	step "1. head B takes over $SRV with vip-a's state"
	start_head B $SRV vip-a
	head_b=$HEAD_PID
	wait "$wpid"
	st=$?
	expect 0 $st "1. the writer finished without an error across the failover" "$out"
	if grep -qiE "stale|error|Errno" "$out"; then bad "1. the writer saw an error" "$out"
	else ok "1. no ESTALE or other error in the writer's output"; fi
	want=$(sed -n 's/^done //p' "$out")
	sum_srv=$(srv sha256sum "$exp/stream" | cut -d' ' -f1)
	sum_cli=$(sha256sum "$mnt/stream" | cut -d' ' -f1)
	if [ -n "$want" ] && [ "$sum_srv" = "$want" ]; then
		ok "1. the file on the server holds exactly what was written (sha256 $want)"
	else bad "1. the file on the server: sha256 $sum_srv, written $want ($(srv stat -c %s "$exp/stream") bytes)"; fi
	if [ "$sum_cli" = "$want" ]; then ok "1. and reads back the same through the client"
	else bad "1. read through the client: sha256 $sum_cli, written $want"; fi
	if dmesg --color=never | grep -qi "stale"; then bad "1. the kernel logged a stale handle"
	else ok "1. the kernel logged no stale handle"; fi
	umount "$mnt" || bad "1. umount"
}

# ---- 2. and 3. locks across heads, and a takeover in grace ----

# takeover_locks N VERS: section N with mounts of NFS version VERS (3: NLM
# locks, 4.1: the protocol's own). The guest locks a file through vip-a;
# the head running vip-a (VIPA_PID) is SIGKILLed and a new one, head
# NEW_NAME, takes over its identity (VIPA_PID after); the guest reclaims in
# its grace period while vip-c holds a new lock back until it ends.
takeover_locks() {
	local n=$1 vers=$2 ma=$work/mnt-a$1 mc=$work/mnt-c$1 g=$work/g$1.out o=$work/o$1.out
	local nl=$work/n$1.out f=locked$1 gpid npid t0 w
	mkdir -p "$ma" "$mc"
	step "$n. mounting vip-a ($SRV) and vip-c ($SRV_C), NFS version $vers, with locking"
	if [ "$vers" = 3 ]; then
		nfs_mount 3 tcp "$SRV:$exp" "$ma" hard && nfs_mount 3 tcp "$SRV_C:$exp" "$mc" hard
	else
		# noac: a stat is a GETATTR, so the client can be made to call
		mount -t nfs -o "vers=$vers,hard,noac" "$SRV:$exp" "$ma" &&
			mount -t nfs -o "vers=$vers,hard,noac" "$SRV_C:$exp" "$mc"
	fi || { bad "$n. mounts with locking"; return; }
	: >"$exp/$f"
	bg "$g" "${LTT[@]}" -h -1 -s 0 -l 10 setlk "$ma/$f"
	gpid=$!
	wait_line locked "$g" 60 || { bad "$n. the guest's lock through vip-a" "$g"; kill "$gpid"; return; }
	ok "$n. the guest holds a lock through vip-a"
	"${LTT[@]}" -s 5 -l 1 setlk "$mc/$f" >"$o" 2>&1
	expect 3 $? "$n. the same range through vip-c: EAGAIN" "$o"
	"${LTT[@]}" -s 100 -l 1 setlk "$mc/$f" >"$o" 2>&1
	expect 0 $? "$n. another range through vip-c is granted" "$o"
	srv "${LTT[@]}" setlk "$exp/$f" >"$o" 2>&1
	expect 3 $? "$n. a process on the server cannot take it either" "$o"

	step "$n. SIGKILL vip-a's head; head $NEW_NAME takes over vip-a's identity"
	kill -KILL "$VIPA_PID"
	wait "$VIPA_PID" 2>/dev/null
	t0=${EPOCHREALTIME/./}
	start_head "$NEW_NAME" $SRV vip-a
	VIPA_PID=$HEAD_PID
	if [ -f "$shared/grace/vip-a" ]; then ok "$n. head $NEW_NAME wrote vip-a's grace record"
	else bad "$n. no grace record for vip-a: $(ls -la "$shared/grace")"; fi
	# NLM clients hear of the restart (SM_NOTIFY); a v4 client finds out at
	# its next call (its lease renewal could come after the grace period):
	# one call, and it recovers, reclaims included, before it returns.
	[ "$vers" = 3 ] || timeout 60 stat "$ma" >/dev/null 2>&1
	# A new lock through vip-c meanwhile waits for the grace period's end
	# (NLM: DENIED_GRACE_PERIOD, v4: NFS4ERR_GRACE; the client retries).
	bg "$nl" "${LTT[@]}" -t $((GRACE + 60)) -s 0 -l 1 setlk "$mc/other$n"
	npid=$!
	check_reclaimed "$n." "$exp/$f" "$gpid" "$g" "$t0" 60
	"${LTT[@]}" -s 5 -l 1 setlk "$mc/$f" >"$o" 2>&1
	expect 3 $? "$n. nor can a process through vip-c" "$o"
	wait "$npid"
	expect 0 $? "$n. a new lock through vip-c during vip-a's grace period" "$nl"
	w=$(sed -n 's/.*waited=//p' "$nl")
	if [ "${w:-0}" -ge 4000 ]; then ok "$n. ... waited $w ms: vip-c held new locks back in the grace period"
	else bad "$n. a new lock through vip-c was granted after ${w:-?} ms, in vip-a's grace period" "$nl"; fi
	kill "$gpid"
	wait "$gpid"
	expect 0 $? "$n. the guest unlocks the reclaimed lock" "$g"
	srv "${LTT[@]}" setlk "$exp/$f" >"$o" 2>&1
	expect 0 $? "$n. then a process on the server takes it" "$o"
	umount "$ma" && umount "$mc" || bad "$n. umount"
}

step "setting up"
mkdir -p "$exp" "$shared/ids" "$shared/grace"
chmod 777 "$exp"
(umask 077 && head -c 16 /dev/urandom >"$key")
echo "$exp 192.168.78.0/24(rw,no_root_squash,insecure)" >"$work/exports"
modprobe nfs && modprobe nfsv3 && modprobe nfsv4 || fatal "no NFS client modules"
setup_namespaces
start_head A $SRV vip-a
head_a=$HEAD_PID
start_head C $SRV_C vip-c --no-rpcbind
head_c=$HEAD_PID
step "heads A ($SRV) and C ($SRV_C) are up"

failover_writes
VIPA_PID=${head_b:-$head_a} NEW_NAME=D	# whichever head runs vip-a now
takeover_locks 2 3
NEW_NAME=E
takeover_locks 3 4.1

for p in "$VIPA_PID" "$head_c"; do kill -TERM "$p"; wait "$p"; expect 0 $? "a head exits 0 on SIGTERM"; done
step "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ] || diag
[ "$FAILED" -eq 0 ]
