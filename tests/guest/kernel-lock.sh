#!/bin/bash
# Runs inside the QEMU guest (see run-guest): NLM locking through the Linux
# kernel NFS client, mounted without nolock, against usernfsd or knfsd.
#   kernel-lock.sh SERVER LOCKTOOL [USERNFSD [UDP_MODULE_DIR]]
# SERVER: usernfsd (USERNFSD is the daemon) or knfsd (the guest kernel's own
# server and lockd: the same checks against the reference).  LOCKTOOL is
# tests/locktool.  UDP_MODULE_DIR holds nfs.ko/nfsv2.ko/nfsv3.ko rebuilt with
# UDP (build-nfs-udp); without it only TCP is tested.
#
# Locking needs two parties that reach each other: the server calls the
# client back (NLM GRANTED, SM_NOTIFY), and a kernel's lockd and a
# user-space NLM must not share one rpcbind.  So the server lives in
# namespaces of its own (network, mount, UTS), joined to the guest's root
# namespace by a veth pair:
#   server  klserver 192.168.77.1  own /run (rpcbind), own /var/lib/nfs (statd)
#   client  klclient 192.168.77.2  the root namespace: rpcbind, rpc.statd, the
#                                  kernel NFS client and its lockd
# The export is a directory on the guest's /tmp (a tmpfs: file handles),
# which both see; "a process on the server host" is locktool run in the
# server's namespaces on the exported file itself.
#
# Checks, for each mount (v3/TCP, v2/TCP, and with the rebuilt modules
# v3/UDP and v2/UDP; the client speaks NLM v4 for v3 and v1 for v2): two
# guest processes contend for a byte range (the waiter is granted within
# 1 s of the unlock, F_SETLK meanwhile gets EAGAIN, a disjoint range is
# free), and fcntl locks on the server host and in the guest exclude each
# other (F_GETLK in the guest sees the server's).  On v3/TCP also flock(),
# a waiter killed while it waits, read locks, unlocking part of a lock,
# and a server crash: SIGKILL usernfsd while the guest holds a lock and
# start it again (knfsd: drop its locks, restart nfsd, run sm-notify); the
# guest's lock must come back (reclaimed in the grace period, in which a
# new lock waits) and keep a server process out.  knfsd has no NFSv2 in
# Debian's kernel, so v2 is tested against usernfsd only.  usernfsd serves
# NLM on its NFS port for v3/TCP and on a port of its own (--nlm-port, a
# fresh start) for the rest.
set -u
server=$1
# Every lock call gives up after 30 s (status 142): a server that never
# answers must not hang the guest until run-guest's timeout.
LTT=("$2" -t 30)
daemon=${3:-}
udpmods=${4:-}
work=/tmp/klk
exp=$work/export
mnt=$work/mnt
log=$work/server.log
SRV=192.168.77.1
CLI=192.168.77.2
GRACE=15	# usernfsd --grace: long enough for the reclaim, short for the test
NLM_PORT=4045	# usernfsd --nlm-port, for the second half
state=$work/state
daemon_args=()
first_lock=1
. "$(dirname "$0")/guest-lib.sh"
counted_checks kernel-lock
diag() {
	echo "---- server log ($server)"
	if [ -n "${USERNFSD_LOCK_DEBUG:-}" ]; then cat "$log"; else tail -n 40 "$log"; fi 2>/dev/null
	echo "---- /proc/locks"; cat /proc/locks
	if [ -n "${USERNFSD_LOCK_DEBUG:-}" ]; then
		echo "---- kernel"; dmesg --color=never
	else
		echo "---- kernel"; dmesg --color=never | tail -n 15
	fi
}

# A lock call that timed out costs 30 s; after the third, stop (expect
# calls this on a status of 142).
TIMEOUTS=0
timed_out() {
	TIMEOUTS=$((TIMEOUTS + 1))
	[ "$TIMEOUTS" -lt 3 ] || fatal "three lock calls timed out: does $server answer NLM?"
}

snooze_setup

# tval WORD FILE: the t= of the locktool line that starts with WORD
tval() {
	local w rest
	while read -r w rest; do
		[ "$w" = "$1" ] || continue
		rest=${rest#t=}
		echo "${rest%% *}"
		return 0
	done <"$2"
	echo -1
}

# ---- the two sides ----

setup_namespaces() {
	printf '%s klserver\n%s klclient\n' $SRV $CLI >>/etc/hosts
	server_netns kl klclient klserver $CLI $SRV
}

# ---- the server under test ----

start_usernfsd() {
	local dbg=
	[ -z "${USERNFSD_LOCK_DEBUG:-}" ] || dbg=--debug
	srv_daemon "$work/pid" "$log" 10 --state-dir "$state" "${daemon_args[@]}" $dbg ||
		fatal "usernfsd did not start"
	dpid=$SRV_PID
}

start_knfsd() {
	modprobe nfsd && modprobe lockd || fatal "modprobe nfsd"
	# Grace periods after a start block new locks: lockd's (default 50 s)
	# and NFSv4's (90 s; it holds NLM back too, even with v4 off): 10 s is
	# the shortest either takes.
	echo 10 >/proc/sys/fs/nfs/nlm_grace_period
	srv bash -c "mount -t nfsd nfsd /proc/fs/nfsd &&
		echo 10 >/proc/fs/nfsd/nfsv4gracetime && echo 10 >/proc/fs/nfsd/nfsv4leasetime &&
		exportfs -o rw,no_root_squash,no_subtree_check,insecure,fsid=77 192.168.77.0/24:$exp &&
		rpc.mountd && rpc.nfsd -u -N 4 4" >>"$log" 2>&1 || fatal "knfsd did not start"
	knfsd_grace_end=$(( ${EPOCHREALTIME/./} + 11000000 ))
}

# check_nlm_registered [PORT]: clients find lockd through rpcbind only:
# the server's must list NLM (100021) versions 1, 3 and 4 over UDP and TCP,
# as knfsd registers them (on PORT, if given).
check_nlm_registered() {
	local prog v proto port rest missing='' have=''
	while read -r prog v proto port rest; do
		[ "$prog" = 100021 ] && have="$have v$v/$proto:$port"
	done <<<"$(rpcinfo -p $SRV 2>&1)"	# (no /dev/fd in the guest for <(...))
	for v in 1 3 4; do
		for proto in udp tcp; do
			[[ $have == *" v$v/$proto:${1:-}"* ]] || missing="$missing v$v/$proto${1:+:$1}"
		done
	done
	[ -n "$have" ] || fatal "NLM (100021) is not registered with the server's rpcbind"
	if [ -n "$missing" ]; then
		bad "NLM registered as$have; missing$missing"
	else
		ok "NLM registered with the server's rpcbind:$have"
	fi
}

start_server() {
	echo "$exp 192.168.77.0/24(rw,no_root_squash,insecure)" >"$work/exports"
	case $server in
	usernfsd) start_usernfsd ;;
	knfsd) start_knfsd ;;
	*) fatal "unknown server $server" ;;
	esac
}

# The server loses every lock, as in a crash.
crash_server() {
	case $server in
	usernfsd)
		kill -KILL "$dpid"
		wait "$dpid" 2>/dev/null ;;
	knfsd)
		# The kernel's lockd cannot be killed alone.  Keep statd's monitor
		# list as a crash leaves it (stopping nfsd unmonitors the client),
		# drop the locks taken through the server's address, stop nfsd.
		srv bash -c "cp -p /var/lib/nfs/sm/* /var/lib/nfs/sm.bak/ &&
			echo $SRV >/proc/fs/nfsd/unlock_ip && rpc.nfsd 0" >>"$log" 2>&1 ||
			bad "stopping knfsd" ;;
	esac
}

# Back up: usernfsd sends SM_NOTIFY itself (its state directory lists the
# client); knfsd starts a grace period and sm-notify tells the clients in
# statd's list, naming the server as the client knows it.
restart_server() {
	case $server in
	usernfsd) start_usernfsd ;;
	knfsd) srv bash -c "rpc.nfsd -u -N 4 4 && sm-notify -f -d -v $SRV" >>"$log" 2>&1 ||
		bad "restarting knfsd" ;;
	esac
}

# ---- mounts ----

# mount_nfs VERS PROTO: without nolock; no ports given, so the client asks
# the server's rpcbind, as for NLM.
mount_nfs() {
	nfs_mount "$1" "$2" "$SRV:$exp" "$mnt" || { bad "mount vers=$1 proto=$2"; return 1; }
	local m
	m=$(grep " $mnt nfs " /proc/mounts)
	[[ $m == *vers=$1,*proto=$2,* && $m != *nolock* && $m != *local_lock=[fpa]* ]] ||
		{ bad "vers=$1 proto=$2 not in /proc/mounts, or with local locks: $m"; return 1; }
	[ -z "${USERNFSD_LOCK_DEBUG:-}" ] || step "mounted: $m"
}

# ---- the checks ----

# contend TAG NAME WAITOP NBOP: process A holds a lock for 3 s; C asks for
# an overlapping one and waits; meanwhile B's non-blocking try gets EAGAIN
# (and, for fcntl, a disjoint range is granted).  C must be granted within
# 1 s of A's unlock: the server's GRANTED callback, not the client's 30 s
# re-poll.
contend() {
	local tag=$1 f=$mnt/$2 wop=$3 nbop=$4 a=$work/a.out b=$work/b.out c=$work/c.out
	local ra=() rb=() rc=() apid cpid st ta tc tcs
	if [ "$wop" = setlkw ]; then ra=(-s 0 -l 100) rb=(-s 50 -l 10) rc=(-s 10 -l 10); fi
	bg "$a" "${LTT[@]}" "${ra[@]}" -h 3000 "$wop" "$f"
	apid=$!
	if ! wait_line locked "$a" 30; then
		bad "$tag: $wop in an idle file" "$a"
		kill "$apid" 2>/dev/null
		timed_out
		return
	fi
	# The very first lock: no grace period holds it back, the server's
	# state lists no client to reclaim (usernfsd), or it is over (knfsd).
	if [ -n "$first_lock" ]; then
		first_lock=
		local w
		w=$(sed -n 's/.*waited=//p' "$a")
		if [ "${w:-99999}" -lt 4000 ]; then ok "$tag: the first lock took $w ms"
		else bad "$tag: the first lock took ${w:-?} ms (a grace period?)" "$a"; fi
	fi
	bg "$c" "${LTT[@]}" "${rc[@]}" "$wop" "$f"
	cpid=$!
	wait_line start "$c" 5 && snooze 0.3	# C's request is at the server
	"${LTT[@]}" "${rb[@]}" "$nbop" "$f" >"$b" 2>&1
	expect 3 $? "$tag: $nbop on a held range while another process waits: EAGAIN" "$b"
	if [ "$wop" = setlkw ]; then
		"${LTT[@]}" -s 200 -l 10 "$nbop" "$f" >"$b" 2>&1
		expect 0 $? "$tag: $nbop on a disjoint range is granted" "$b"
	fi
	wait "$apid"
	expect 0 $? "$tag: the holder unlocks" "$a"
	wait "$cpid"
	st=$?
	ta=$(tval unlock "$a") tc=$(tval locked "$c") tcs=$(tval start "$c")
	if [ "$st" -ne 0 ] || [ "$tc" -lt 0 ]; then
		bad "$tag: the waiting $wop failed" "$c"
	elif [ "$tcs" -ge "$ta" ]; then
		bad "$tag: the waiter only asked after the unlock (test too slow?)" "$c"
	elif [ $((tc - ta)) -ge 1000 ]; then
		bad "$tag: the waiting $wop was granted $((tc - ta)) ms after the unlock (>= 1 s)" "$c"
	else
		ok "$tag: the waiting $wop was granted $((tc - ta)) ms after the unlock"
	fi
}

# host_vs_guest TAG NAME OP: a server-side fcntl lock on the exported file
# keeps the guest's OP out, and the guest's OP lock keeps a server process
# out until the guest unlocks.
host_vs_guest() {
	local tag=$1 name=$2 op=$3 h=$work/h.out g=$work/g.out hpid gpid
	bg "$h" "${SRV_NS[@]}" "${LTT[@]}" -h -1 setlk "$exp/$name"
	hpid=$!
	wait_line locked "$h" 10 || bad "$tag: the server process's lock" "$h"
	"${LTT[@]}" "$op" "$mnt/$name" >"$g" 2>&1
	expect 3 $? "$tag: guest $op against a server process's fcntl lock: EAGAIN" "$g"
	if [ "$op" = setlk ]; then
		"${LTT[@]}" getlk "$mnt/$name" >"$g" 2>&1
		expect 3 $? "$tag: guest F_GETLK reports the server process's lock" "$g"
	fi
	kill "$hpid"
	wait "$hpid"
	bg "$g" "${LTT[@]}" -h -1 "$op" "$mnt/$name"
	gpid=$!
	if ! wait_line locked "$g" 30; then
		bad "$tag: guest $op once the server process unlocked" "$g"
		kill "$gpid" 2>/dev/null
		timed_out
		return
	fi
	srv "${LTT[@]}" setlk "$exp/$name" >"$h" 2>&1
	expect 3 $? "$tag: server process's fcntl against the guest's $op lock: EAGAIN" "$h"
	kill "$gpid"
	wait "$gpid"
	expect 0 $? "$tag: the guest unlocks" "$g"
	srv "${LTT[@]}" setlk "$exp/$name" >"$h" 2>&1
	expect 0 $? "$tag: server process's fcntl once the guest unlocked" "$h"
}

# cancelled TAG NAME: a waiter killed while it waits must not end up holding
# the lock once the holder unlocks (the client sends CANCEL, and denies a
# GRANTED callback nobody waits for any more).
cancelled() {
	local tag=$1 f=$mnt/$2 a=$work/a.out c=$work/c.out o=$work/o.out apid cpid
	bg "$a" "${LTT[@]}" -h 2000 setlkw "$f"
	apid=$!
	wait_line locked "$a" 30 || { bad "$tag: the holder's lock" "$a"; kill "$apid"; timed_out; return; }
	bg "$c" "${LTT[@]}" setlkw "$f"
	cpid=$!
	wait_line start "$c" 5 && snooze 0.3
	kill -KILL "$cpid"
	wait "$cpid" 2>/dev/null	# (bash's "Killed" notice)
	wait "$apid"
	expect 0 $? "$tag: the holder unlocks" "$a"
	snooze 0.5
	srv "${LTT[@]}" setlk "$exp/$2" >"$o" 2>&1
	expect 0 $? "$tag: no lock left behind by a waiter killed while it waited" "$o"
}

# shared TAG NAME: read locks from two guest processes coexist; a server
# process's read lock joins them, its write lock is refused.
shared() {
	local tag=$1 f=$mnt/$2 g=$work/g.out o=$work/o.out gpid
	bg "$g" "${LTT[@]}" -r -h -1 setlk "$f"
	gpid=$!
	wait_line locked "$g" 30 || { bad "$tag: a read lock" "$g"; kill "$gpid"; timed_out; return; }
	"${LTT[@]}" -r setlk "$f" >"$o" 2>&1
	expect 0 $? "$tag: a second guest read lock beside the first" "$o"
	srv "${LTT[@]}" -r setlk "$exp/$2" >"$o" 2>&1
	expect 0 $? "$tag: a server process's read lock beside the guest's" "$o"
	srv "${LTT[@]}" setlk "$exp/$2" >"$o" 2>&1
	expect 3 $? "$tag: a server process's write lock against the guest's read lock: EAGAIN" "$o"
	kill "$gpid"
	wait "$gpid"
}

# split TAG NAME: the guest locks bytes 0-99 and unlocks 40-59; a server
# process gets 40-59 and neither of the two parts left.
split() {
	local tag=$1 f=$mnt/$2 g=$work/g.out o=$work/o.out gpid
	bg "$g" "${LTT[@]}" -s 0 -l 100 -u 40,20 -h -1 setlk "$f"
	gpid=$!
	wait_line split "$g" 30 || { bad "$tag: lock and unlock a part" "$g"; kill "$gpid"; timed_out; return; }
	srv "${LTT[@]}" -s 40 -l 20 setlk "$exp/$2" >"$o" 2>&1
	expect 0 $? "$tag: a server process locks the part the guest unlocked" "$o"
	srv "${LTT[@]}" -s 39 -l 1 setlk "$exp/$2" >"$o" 2>&1
	expect 3 $? "$tag: the part before stays locked" "$o"
	srv "${LTT[@]}" -s 60 -l 1 setlk "$exp/$2" >"$o" 2>&1
	expect 3 $? "$tag: the part after stays locked" "$o"
	kill "$gpid"
	wait "$gpid"
	srv "${LTT[@]}" -s 0 -l 100 setlk "$exp/$2" >"$o" 2>&1
	expect 0 $? "$tag: all free once the guest unlocked" "$o"
}

# The server crashes while a guest process holds a lock and comes back:
# the client reclaims the lock in the grace period, and afterwards a
# server process cannot take it.
crash_and_reclaim() {
	local tag=$1 f=restart g=$work/r.out o=$work/o.out gpid t0
	bg "$g" "${LTT[@]}" -h -1 -s 0 -l 10 setlk "$mnt/$f"
	gpid=$!
	wait_line locked "$g" 30 || { bad "$tag: the guest's lock" "$g"; kill "$gpid"; timed_out; return; }
	crash_server
	srv "${LTT[@]}" getlk "$exp/$f" >"$o" 2>&1
	expect 0 $? "$tag: the crash dropped the server's lock" "$o"
	t0=${EPOCHREALTIME/./}
	restart_server
	check_reclaimed "$tag:" "$exp/$f" "$gpid" "$g" "$t0" 30
	# A new lock in the grace period waits for its end (the client retries
	# 5 s after each DENIED_GRACE_PERIOD).
	"${LTT[@]}" -t $((GRACE + 30)) setlk "$mnt/$f-new" >"$o" 2>&1
	expect 0 $? "$tag: a new lock after the restart" "$o"
	local waited
	waited=$(sed -n 's/.*waited=//p' "$o")
	if [ "${waited:-0}" -ge 4000 ]; then
		ok "$tag: a new lock during the grace period waited $waited ms"
	else
		bad "$tag: a new lock during the grace period was granted after ${waited:-?} ms" "$o"
	fi
	"${LTT[@]}" -s 5 -l 1 setlk "$mnt/$f" >"$o" 2>&1
	expect 3 $? "$tag: another guest process cannot take the reclaimed lock" "$o"
	kill "$gpid"
	wait "$gpid"
	expect 0 $? "$tag: the guest unlocks the reclaimed lock" "$g"
	srv "${LTT[@]}" setlk "$exp/$f" >"$o" 2>&1
	expect 0 $? "$tag: a server process takes it once the guest unlocked" "$o"
}

# locks_on VERS PROTO [flock] [crash]
locks_on() {
	local tag="v$1/$2"
	step "$tag: mounting $SRV:$exp"
	mount_nfs "$1" "$2" || return
	step "$tag: two guest processes, fcntl"
	contend "$tag fcntl" "f-$1-$2" setlkw setlk
	step "$tag: server process against guest, fcntl"
	host_vs_guest "$tag fcntl" "h-$1-$2" setlk
	if [ "${3:-}" = flock ]; then
		step "$tag: two guest processes, flock"
		contend "$tag flock" "fl-$1-$2" flockw flock
		step "$tag: server process against guest, flock"
		host_vs_guest "$tag flock" "hl-$1-$2" flock
	fi
	if [ "${3:-}" = flock ]; then
		step "$tag: a cancelled wait, shared locks, a split lock"
		cancelled "$tag cancel" "c-$1-$2"
		shared "$tag read" "r-$1-$2"
		split "$tag split" "s-$1-$2"
	fi
	if [ "${4:-}" = crash ]; then
		step "$tag: $server crashes while the guest holds a lock"
		crash_and_reclaim "$tag restart"
	fi
	umount "$mnt" || bad "$tag: umount"
}

step "server $server; setting up"
mkdir -p "$exp" "$mnt" "$work/state" "$work/state2"
chmod 777 "$exp"
modprobe nfs && modprobe nfsv2 && modprobe nfsv3 || fatal "no NFS client modules"
# USERNFSD_LOCK_DEBUG=1: lockd's debugging messages (client and knfsd side)
# into the kernel log, shown at the end, and usernfsd --debug.
[ -z "${USERNFSD_LOCK_DEBUG:-}" ] || rpcdebug -m nlm -s all >/dev/null
setup_namespaces
step "namespaces, rpcbind and statd ready"
start_server
step "$server is up"
check_nlm_registered
if [ "$server" = knfsd ]; then
	# Its lockd grants no new locks in its grace period.
	while [ "${EPOCHREALTIME/./}" -lt "$knfsd_grace_end" ]; do snooze 0.5; done
fi

locks_on 3 tcp flock crash
if [ "$server" = usernfsd ]; then
	# The rest with NLM on a port of its own.  A fresh state directory:
	# no client to wait for (no grace period); new handles, new mounts.
	step "usernfsd again: a fresh state directory, --nlm-port $NLM_PORT"
	kill -TERM "$dpid"
	wait "$dpid"
	expect 0 $? "usernfsd exits 0 on SIGTERM"
	state=$work/state2
	daemon_args=(--nlm-port "$NLM_PORT")
	start_usernfsd
	check_nlm_registered $NLM_PORT
fi
# Debian's kernel is built without NFSv2 in knfsd (CONFIG_NFSD_V2).
if [ "$server" = knfsd ]; then
	step "knfsd: no NFSv2 server in this kernel, v2 not tested"
else
	locks_on 2 tcp
fi
if [ -n "$udpmods" ]; then
	step "replacing the stock NFS client with the one rebuilt with UDP ($udpmods)"
	if rmmod nfsv2 nfsv3 nfs && insmod "$udpmods/nfs.ko" && insmod "$udpmods/nfsv2.ko" &&
		insmod "$udpmods/nfsv3.ko"; then
		locks_on 3 udp
		[ "$server" = knfsd ] || locks_on 2 udp
	else
		bad "loading the rebuilt modules: $(lsmod | grep nfs)"
	fi
else
	step "no rebuilt modules given: UDP not tested"
fi

if [ "$server" = usernfsd ]; then
	kill -TERM "$dpid"
	wait "$dpid"
	expect 0 $? "usernfsd exits 0 on SIGTERM"
	if grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" >/dev/null; then
		grep -E -A 30 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$log" | head -n 60
		bad "sanitizer report in the daemon log"
	fi
fi
step "$PASSED passed, $FAILED failed"
if [ "$FAILED" -ne 0 ] || [ -n "${USERNFSD_LOCK_DEBUG:-}" ]; then
	diag
fi
[ "$FAILED" -eq 0 ]
