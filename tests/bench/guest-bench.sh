#!/bin/bash
# guest-bench.sh - runs inside the QEMU guest (tests/guest/run-guest):
# the Linux kernel NFS client against knfsd and against usernfsd, both
# serving the same tmpfs in the guest, over the guest's loopback; and,
# with a disk (run-guest -d IMAGE, an ext4 made on the host), both
# serving that ext4 with a sync and with an async export.
#
#   guest-bench.sh [-r REPS] [-f FSMETA [-n FILES] [-k SMALLFILES]] USERNFSD [DD_MIB [BONNIE_ARGS...]]
#
# For each server: mount (vers=3, tcp, nolock, same options for both),
# dd a DD_MIB file (write + fsync, then read after dropping the caches),
# then bonnie++ with BONNIE_ARGS (default -s 512 -r 256 -n 0 -f); REPS
# times (3), the servers taking turns and alternating which goes first
# (knfsd, usernfsd; usernfsd, knfsd; ...), so that a drift of the host's
# load falls on both alike.  Each repetition's numbers are printed as
# guest.SERVER.repN.KEY, their median as guest.SERVER.KEY.
# With -f (tests/bench/fsmeta, built on the host) and /dev/vda: that disk
# is mounted as ext4 and each server exports two directories of it, one
# `sync` and one `async`; all four are mounted and one FSMETA process runs
# against them, taking turns (FILES creates, chmods, renames, removes,
# mkdirs and rmdirs, one after another, then SMALLFILES files of 64 KiB
# written and closed).  A tmpfs cannot show what a sync export costs:
# its fsync is free.
# Prints human lines and key=value lines "guest.SERVER.KEY=VALUE" (for
# the disk: SERVER is knfsd_sync, knfsd_async, usernfsd_sync,
# usernfsd_async and KEY PHASE.ops_s, smallcopy.files_s, smallcopy.mib_s);
# a server that cannot be started is reported (guest.SERVER.error=...)
# and the other one still runs.
# USERNFSD_MOUNT_OPTS, when set, is added to those mount options, and
# USERNFSD_DAEMON_ARGS to usernfsd's command line (for experiments:
# rsize=131072,wsize=131072; --threads 4 ...).
# Then locks: with USERNFSD_NFSBENCH set (the nfsbench binary), each
# server's tmpfs export is mounted again with locking on, and `nfsbench
# fcntl` times F_SETLK/F_UNLCK pairs through the kernel's NLM client, one
# owner and two processes passing the lock, USERNFSD_LOCK_SECS (3) each
# (guest.SERVER.fcntl_one.pairs_s, ...; guest.SERVER.lock_error=...).
#
# Locking needs rpcbind and rpc.statd beside the client, and the kernel's
# lockd (the client's, and knfsd's: one and the same) registers NLM with
# that rpcbind. usernfsd registers NLM too, so for the lock runs it is
# started again in a network namespace of its own, with its own /run,
# rpcbind and rpc.statd, reached over a veth pair (it is 10.201.0.1, the
# client 10.201.0.2); knfsd is reached over lo.
set -u
fsmeta='' meta_n=200 meta_k=100 reps=3
while getopts r:f:n:k: opt; do
	case $opt in
	r) reps=$OPTARG ;;
	f) fsmeta=$OPTARG ;;
	n) meta_n=$OPTARG ;;
	k) meta_k=$OPTARG ;;
	*) echo "guest-bench: usage: $0 [-r REPS] [-f FSMETA [-n FILES] [-k SMALLFILES]] USERNFSD [DD_MIB [BONNIE_ARGS...]]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
daemon=$1
dd_mib=${2:-256}
shift $(($# > 2 ? 2 : $#))
bonnie_args=("$@")
[ ${#bonnie_args[@]} -gt 0 ] || bonnie_args=(-s 512 -r 256 -n 0 -f)

work=/tmp/gb
exp=$work/export       # one tmpfs for both servers (file handles work on tmpfs)
disk=$work/disk        # the ext4 on /dev/vda, when there is one
mnt=$work/mnt
U_NFS=42049 U_MNT=42048
K_NFS=2049 K_MNT=20048
nfsbench=${USERNFSD_NFSBENCH:-}
lock_secs=${USERNFSD_LOCK_SECS:-3}

say() { echo "guest-bench: $*"; }
kv() { echo "guest.$1=$2"; }

# One repetition's number: printed as guest.SERVER.repN.KEY, and kept in
# $work/reps for the medians (report_medians).
rec() {   # rec SERVER REP KEY VALUE
	kv "$1.rep$2.$3" "$4"
	echo "$1 $3 $4" >>"$work/reps"
}

# guest.SERVER.KEY=the median of its repetitions (the numeric ones:
# bonnie++ writes +++++ for what was too fast to time)
report_medians() {
	[ -s "$work/reps" ] || return 0
	awk '$3 ~ /^[0-9]+(\.[0-9]+)?$/ { v[$1 "." $2] = v[$1 "." $2] " " $3 }
	END {
		for (k in v) {
			n = split(v[k], a, " ")
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			printf "guest.%s=%s\n", k, m == int(m) ? sprintf("%d", m) : sprintf("%.1f", m)
		}
	}' "$work/reps" | sort
}

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# dd's "... copied, 3.2 s, ..." line -> MiB/s for BYTES
dd_rate() {   # dd_rate BYTES DD_STDERR
	local s
	s=$(sed -n 's/.* copied, \([0-9.]*\) s,.*/\1/p' <<<"$2" | tail -n 1)
	[ -n "$s" ] || return 1
	awk -v b="$1" -v s="$s" 'BEGIN { printf "%.1f", b / 1048576 / s }'
}

# ---- the servers ----

# knfsd's exports: the tmpfs, and the disk's sync and async directories
knfsd_exports() {
	local o=rw,no_root_squash,no_subtree_check,insecure
	echo "$exp/k 127.0.0.1($o,fsid=77)"
	[ -z "$DISK" ] || printf '%s\n' "$disk/k-sync 127.0.0.1($o,sync,fsid=78)" \
		"$disk/k-async 127.0.0.1($o,async,fsid=79)"
}

start_knfsd() {
	local log=$work/knfsd.log
	{
		modprobe nfsd && mkdir -p /proc/fs/nfsd && mount -t nfsd nfsd /proc/fs/nfsd &&
		# the shortest grace periods there are (10 s): lock runs wait them out
		{ echo 10 >/proc/fs/nfsd/nfsv4leasetime; echo 10 >/proc/fs/nfsd/nfsv4gracetime;
		  echo 10 >/proc/sys/fs/nfs/nlm_grace_period; true; } 2>/dev/null &&
		mkdir -p /run/rpcbind /var/lib/nfs && rpcbind &&
		knfsd_exports >/etc/exports &&
		exportfs -ra &&
		rpc.mountd --port $K_MNT --no-nfs-version 2 &&
		rpc.nfsd --port $K_NFS --no-nfs-version 4 8
	} >"$log" 2>&1 || { KNFSD_ERR=$(tail -n 3 "$log" | tr '\n' ' '); return 1; }
}

start_usernfsd() {
	{
		echo "$exp/u 127.0.0.1(rw,no_root_squash,insecure)"
		[ -z "$DISK" ] || printf '%s\n' "$disk/u-sync 127.0.0.1(rw,no_root_squash,insecure,sync)" \
			"$disk/u-async 127.0.0.1(rw,no_root_squash,insecure,async)"
	} >"$work/exports"
	# shellcheck disable=SC2086 # USERNFSD_DAEMON_ARGS: words, for experiments
	"$daemon" --foreground --no-rpcbind --exports "$work/exports" --state-dir "$work/state" \
		--pidfile "$work/u.pid" --nfs-port $U_NFS --mount-port $U_MNT ${USERNFSD_DAEMON_ARGS:-} \
		>"$work/usernfsd.log" 2>&1 &
	for _ in $(seq 100); do
		[ -s "$work/u.pid" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- one server's runs ----

mount_it() {   # mount_it EXPORT NFS_PORT MOUNT_PORT [MOUNTPOINT]
	mount -t nfs -o "vers=3,proto=tcp,port=$2,mountport=$3,mountproto=tcp,nolock${USERNFSD_MOUNT_OPTS:+,$USERNFSD_MOUNT_OPTS}" \
		"127.0.0.1:$1" "${4:-$mnt}" 2>&1
}

run_dd() {   # run_dd NAME REP
	local bytes=$((dd_mib * 1048576)) out r
	out=$(dd if=/dev/zero of="$mnt/dd.bin" bs=1M count="$dd_mib" conv=fsync 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "repetition $2: dd write failed: $(tail -n 1 <<<"$out")"; return 1; }
	say "$1 ($2/$reps): dd write (1 MiB blocks, fsync)  $r MiB/s"
	rec "$1" "$2" dd_write.mib_s "$r"
	drop_caches
	out=$(dd if="$mnt/dd.bin" of=/dev/null bs=1M 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "repetition $2: dd read failed: $(tail -n 1 <<<"$out")"; return 1; }
	say "$1 ($2/$reps): dd read (1 MiB blocks, cold)    $r MiB/s"
	rec "$1" "$2" dd_read.mib_s "$r"
	rm -f "$mnt/dd.bin"
}

# bonnie++'s CSV (format 1.98): 12 block output, 14 rewrite, 18 block
# input (KiB/s), 20 random seeks (/s); "+++++" means too fast to time.
run_bonnie() {   # run_bonnie NAME REP
	local csv key v
	csv=$(bonnie++ -d "$mnt" "${bonnie_args[@]}" -u root -q 2>"$work/bonnie.err" | grep ',' | tail -n 1)
	if [ -z "$csv" ]; then
		kv "$1.error" "repetition $2: bonnie++ failed: $(tail -n 2 "$work/bonnie.err" | tr '\n' ' ')"
		return 1
	fi
	say "$1 ($2/$reps): bonnie++ ${bonnie_args[*]}: $csv"
	# usernfsd's memory is the client's page cache's loss in this small guest
	[ "$1" != usernfsd ] || [ ! -s "$work/u.pid" ] ||
		say "$1 ($2/$reps): resident $(awk '/^VmRSS/ {r=$2} /^VmHWM/ {h=$2} END {print r " KiB, peak " h " KiB"}' "/proc/$(cat "$work/u.pid")/status")"
	# (a here-string, not <(...): the guest has no /dev/fd)
	while read -r key v; do
		rec "$1" "$2" "$key" "$v"
	done <<<"$(awk -F, '{
		print "bonnie_block_write.kib_s", $12
		print "bonnie_rewrite.kib_s", $14
		print "bonnie_block_read.kib_s", $18
		print "bonnie_seeks.per_s", $20
	}' <<<"$csv")"
}

server_ports() {   # server_ports NAME: its NFS and MOUNT ports
	if [ "$1" = knfsd ]; then echo "$K_NFS $K_MNT"; else echo "$U_NFS $U_MNT"; fi
}

# The metadata loop and smallcopy on the ext4: the sync and the async
# export of each server that runs, all mounted at once, and one fsmeta
# that has them take turns (see fsmeta.c: the host's load drifts, and
# turns spread the drift over all four instead of one).
disk_runs() {
	local s m t0 out targets=() mounts=()
	[ -n "$DISK" ] || return 0
	t0=$(date +%s)
	for s in ${K_UP:+knfsd} ${U_UP:+usernfsd}; do
		for m in sync async; do
			mkdir -p "$mnt-${s}_$m"
			# shellcheck disable=SC2046
			if out=$(mount_it "$disk/${s:0:1}-$m" $(server_ports "$s") "$mnt-${s}_$m"); then
				targets+=("${s}_$m=$mnt-${s}_$m")
				mounts+=("$mnt-${s}_$m")
			else
				say "${s}_$m: mount failed: $out"
				kv "${s}_$m.error" "mount failed: $out"
			fi
		done
	done
	[ ${#targets[@]} -gt 0 ] || return 0
	sync        # what setting up left dirty is not the runs' cost
	if "$fsmeta" -n "$meta_n" -k "$meta_k" -p guest. "${targets[@]}" >"$work/fsmeta.out" 2>&1; then
		sed -n 's/^fsmeta: /guest-bench: ext4: /p' "$work/fsmeta.out"
		grep '^guest\.' "$work/fsmeta.out"
	else
		say "fsmeta failed: $(tail -n 1 "$work/fsmeta.out")"
		kv disk.error "fsmeta failed: $(tail -n 1 "$work/fsmeta.out")"
	fi
	for m in "${mounts[@]}"; do
		umount "$m" || say "umount $m failed"
	done
	say "ext4: sync and async exports done in $(( $(date +%s) - t0 )) s"
}

# /dev/vda (run-guest -d) as ext4; DISK stays empty without one.
setup_disk() {
	[ -n "$fsmeta" ] || return 0
	modprobe virtio_blk 2>/dev/null
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ -b /dev/vda ] && break
		sleep 0.2
	done
	if ! [ -b /dev/vda ]; then
		say "no /dev/vda (run-guest -d IMAGE): no sync/async runs on ext4"
		kv disk.error "no /dev/vda in the guest"
		return 0
	fi
	mkdir -p "$disk"
	if ! { modprobe ext4 && mount -t ext4 /dev/vda "$disk"; } >"$work/disk.log" 2>&1; then
		say "cannot mount /dev/vda as ext4: $(tail -n 2 "$work/disk.log" | tr '\n' ' ')"
		kv disk.error "cannot mount /dev/vda as ext4"
		return 0
	fi
	mkdir -p "$disk/k-sync" "$disk/k-async" "$disk/u-sync" "$disk/u-async"
	DISK=/dev/vda
	say "ext4 on /dev/vda ($(df -h --output=size "$disk" | tail -n 1 | tr -d ' ')): fsmeta -n $meta_n -k $meta_k against a sync and an async export of each server"
}

# ---- locks through the kernel's NLM client ----

# rpcbind and rpc.statd for the client side (knfsd's start made rpcbind)
client_lockd_prereqs() {
	rpcinfo -p 127.0.0.1 >/dev/null 2>&1 || rpcbind || return 1
	[ -s /run/rpc.statd.pid ] || rpc.statd --no-notify || return 1
	# the client's caller_name is its host name: one statd can resolve
	hostname nfsbench-guest
	grep -q nfsbench-guest /etc/hosts || echo "10.201.0.2 nfsbench-guest" >>/etc/hosts
}

run_locks() {   # run_locks NAME HOST EXPORT NFS_PORT MOUNT_PORT
	local out
	[ -n "$nfsbench" ] || return 0
	out=$(timeout 60 mount -t nfs -o "vers=3,proto=tcp,port=$4,mountport=$5,mountproto=tcp" "$2:$3" "$mnt" 2>&1) ||
		{ say "$1: mount with locks failed: $out"; kv "$1.lock_error" "mount with locks failed: $out"; return 1; }
	# bounded: a server without NLM leaves the kernel client retrying forever
	out=$(timeout -s KILL $((lock_secs * 2 + 60)) "$nfsbench" -D "$mnt" -t "$lock_secs" fcntl 2>&1) ||
		out="$out
FAILED: nfsbench fcntl exited with status $? (137: killed after $((lock_secs * 2 + 60)) s)"
	say "$1: locks: $(grep -E 'pairs/s|FAILED|error' <<<"$out" | sed 's/^ *//' | tr '\n' ';')"
	sed -n 's/^fcntl\.\([a-z]*\)\.\([a-z0-9_]*\)=/guest.'"$1"'.fcntl_\1.\2=/p' <<<"$out"
	grep -q '^FAILED' <<<"$out" && kv "$1.lock_error" "$(grep -m1 '^FAILED' <<<"$out")"
	umount "$mnt" || say "$1: umount failed"
}

# usernfsd for the lock runs: its own network namespace, /run, rpcbind, statd
start_usernfsd_ns() {
	local i log=$work/usernfsd-ns.log
	modprobe veth || return 1
	unshare --net --mount --propagation private sh -c \
		'mount -t tmpfs -o mode=0755 nsrun /run && mkdir -p /run/rpcbind && ip link set lo up &&
		 echo ready && exec sleep 100000' </dev/null >"$work/ns.out" 2>&1 &
	NS_PID=$!
	for i in $(seq 50); do grep -q ready "$work/ns.out" && break; sleep 0.1; done
	ip link add gbn0 type veth peer name gbn1 netns "$NS_PID" &&
		ip addr add 10.201.0.2/24 dev gbn0 && ip link set gbn0 up || return 1
	mkdir -p "$work/statd-u/sm" "$work/statd-u/sm.bak" "$work/state-l" "$exp/ul"
	echo "$exp/ul 10.201.0.0/24(rw,no_root_squash,insecure)" >"$work/exports-l"
	nsenter -t "$NS_PID" -n -m sh -c "ip addr add 10.201.0.1/24 dev gbn1 && ip link set gbn1 up &&
		rpcbind && rpc.statd --no-notify -P $work/statd-u" >"$log" 2>&1 || return 1
	nsenter -t "$NS_PID" -n -m "$daemon" --foreground --exports "$work/exports-l" --state-dir "$work/state-l" \
		--pidfile "$work/ul.pid" --nfs-port $U_NFS --mount-port $U_MNT >>"$log" 2>&1 &
	for i in $(seq 100); do
		[ -s "$work/ul.pid" ] && return 0
		sleep 0.1
	done
	return 1
}

bench_server() {   # bench_server NAME EXPORT NFS_PORT MOUNT_PORT REP
	local out t0
	t0=$(date +%s)
	out=$(mount_it "$2" "$3" "$4") || { say "$1: mount failed: $out"; kv "$1.error" "mount failed: $out"; return 1; }
	[ "$5" -gt 1 ] ||
		say "$1: mounted: $(grep " $mnt " /proc/mounts | sed 's/.*\(rsize=[0-9]*\),\(wsize=[0-9]*\).*/\1 \2/')"
	run_dd "$1" "$5" && run_bonnie "$1" "$5"
	umount "$mnt" || say "$1: umount failed"
	say "$1 ($5/$reps): done in $(( $(date +%s) - t0 )) s"
}

# dd and bonnie++ on the tmpfs: both servers up, taking turns, the first
# alternating; then each key's median.
tmpfs_runs() {
	local rep s order
	for rep in $(seq "$reps"); do
		order="knfsd usernfsd"
		[ $((rep % 2)) -eq 1 ] || order="usernfsd knfsd"
		for s in $order; do
			case $s in
			knfsd) [ -z "$K_UP" ] || bench_server knfsd "$exp/k" $K_NFS $K_MNT "$rep" ;;
			usernfsd) [ -z "$U_UP" ] || bench_server usernfsd "$exp/u" $U_NFS $U_MNT "$rep" ;;
			esac
		done
	done
	report_medians
}

# /tmp is half the guest's 1 GiB: too small for bonnie's 512 MiB file
mkdir -p "$exp" "$work/state" "$mnt"
: >"$work/reps"
mount -t tmpfs -o size=700m benchfs "$exp" || { say "cannot mount a tmpfs on $exp"; exit 1; }
mkdir -p "$exp/k" "$exp/u"
modprobe nfs && modprobe nfsv3 || { say "no NFS client in the guest kernel"; exit 1; }

DISK=
setup_disk
say "knfsd on $exp/k (port $K_NFS), usernfsd on $exp/u (port $U_NFS); dd ${dd_mib} MiB; bonnie++ ${bonnie_args[*]}; $reps repetitions"
KNFSD_ERR='' K_UP='' U_UP=''
if start_knfsd; then
	K_UP=1
else
	say "knfsd could not be started here: $KNFSD_ERR (continuing with usernfsd)"
	kv knfsd.error "cannot start knfsd: $KNFSD_ERR"
fi
# Both run from here on (on different ports), for the ext4 runs' turns and
# the tmpfs runs'; each stays idle while the other is measured.
if start_usernfsd; then
	U_UP=1
else
	say "usernfsd did not start: $(tail -n 3 "$work/usernfsd.log" | tr '\n' ' ')"
	kv usernfsd.error "usernfsd did not start"
fi
disk_runs
tmpfs_runs
if [ -n "$K_UP" ]; then
	[ -z "$nfsbench" ] || { client_lockd_prereqs && run_locks knfsd 127.0.0.1 "$exp/k" $K_NFS $K_MNT; } ||
		kv knfsd.lock_error "no rpcbind or rpc.statd for the client"
	rpc.nfsd 0 >/dev/null 2>&1
fi
if [ -n "$U_UP" ]; then
	kill -TERM "$(cat "$work/u.pid")" 2>/dev/null
	if [ -n "$nfsbench" ]; then
		if client_lockd_prereqs && start_usernfsd_ns; then
			run_locks usernfsd 10.201.0.1 "$exp/ul" $U_NFS $U_MNT
			kill -TERM "$(cat "$work/ul.pid")" 2>/dev/null
		else
			say "usernfsd for the lock runs did not start: $(tail -n 3 "$work/usernfsd-ns.log" 2>/dev/null | tr '\n' ' ')"
			kv usernfsd.lock_error "usernfsd in its namespace did not start"
		fi
	fi
fi
exit 0
