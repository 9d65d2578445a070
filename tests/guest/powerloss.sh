#!/bin/bash
# Runs inside the QEMU guest (see run-guest) for tests/integ_powerloss.sh,
# with one ext4 image per kind of operation as /dev/vd*, each labelled
# with its kind's name (tests/powerloss kinds).
#   powerloss.sh run USERNFSD POWERLOSS VERS sync|async N
#       mount the images with commit=60 and dirty write-back held back,
#       lay out what the operations act on (durable: synced), export each
#       image's root `sync` or `async`, mount the exports over loopback TCP
#       with NFS version VERS and run `powerloss run` against them, which
#       writes a line to /dev/ttyS2 (a file on the host) for every
#       operation the client acknowledged.  Then "DONE" there, and wait:
#       the host kills QEMU.  A failure writes "FAIL ..." there and exits.
#   powerloss.sh verify POWERLOSS ACKLOG
#       mount the images (which replays their journals) and check every
#       acknowledged operation on them with `powerloss verify`; its status
#       (0: nothing lost, 1: something lost) is the script's.
# USERNFSD_PL_TRACE=1 traces every command with a time stamp.
set -eu
[ -z "${USERNFSD_PL_TRACE:-}" ] || { PS4='+[$EPOCHREALTIME] '; set -x; }
phase=$1
shift
ack=/dev/ttyS2
base=/run/pl/disk
mnt=/run/pl/nfs
work=/tmp/pl
log=$work/usernfsd.log
NFS_PORT=2049
MOUNT_PORT=20048
# The journal commits on its own every COMMIT seconds: the run must end
# (and the host kill us) well within that, or the async run loses nothing.
COMMIT=60

step() { echo "powerloss.sh: [$(uptime_s) s] $*"; }

# Tell the host, which waits for DONE or FAIL on the ack port.
fail() {
	echo "powerloss.sh: FAIL: $*"
	echo "FAIL guest: $*" >"$ack" || true
	if [ -f "$log" ]; then
		echo "---- daemon log"
		tail -n 20 "$log"
	fi
	echo "---- kernel"
	dmesg | tail -n 10
	exit 1
}

. "$(dirname "$0")/guest-lib.sh"

uptime_s() { local up _; read -r up _ </proc/uptime; echo "$up"; }

# wait_all WHAT PID...: wait for the mounts started in parallel (a mount
# costs 0.3 s in the guest, mostly waiting).
wait_all() {
	local what=$1 p
	shift
	for p in "$@"; do
		wait "$p" || fail "$what"
	done
}

# mount_disks [OPTIONS]: the i-th disk (/dev/vda, /dev/vdb, ...) on
# $base/KIND for the i-th kind; `powerloss setup|verify` check their labels
# (mounting by label would scan all the disks for every mount).
mount_disks() {
	local k i=0 pids=() letters=abcdefghijklmnopqrstuvwxyz
	mkdir -p "$base"
	(cd "$base" && mkdir $kinds)
	for k in $kinds; do
		mount -t ext4 ${1:+-o "$1"} "/dev/vd${letters:i:1}" "$base/$k" &
		pids+=($!)
		i=$((i + 1))
	done
	wait_all "mounting the disks" "${pids[@]}"
}

# As kernel-v2.sh: mount -i hands the options to the kernel, which talks
# MOUNT itself (mount.nfs refuses vers=2).
# NFSv4.1 needs neither MOUNT nor NLM: the export's path in the pseudo tree.
mount_nfs() {
	local v=$1 k mv=3 pids=() o
	[ "$v" = 2 ] && mv=1
	mkdir -p "$mnt"
	(cd "$mnt" && mkdir $kinds)
	for k in $kinds; do
		o="vers=$v,proto=tcp,addr=127.0.0.1,mountaddr=127.0.0.1,port=$NFS_PORT,mountport=$MOUNT_PORT,mountproto=tcp,mountvers=$mv,nolock"
		[ "$v" = 4.1 ] && o="vers=4.1,proto=tcp,addr=127.0.0.1,port=$NFS_PORT"
		mount -i -t nfs -o "$o" "127.0.0.1:$base/$k" "$mnt/$k" &
		pids+=($!)
	done
	wait_all "NFS mounts (vers=$v)" "${pids[@]}"
}

# What the client sent for the two kinds of write: "WRITE n COMMIT n".
rpc_counts() {
	awk -v m="$mnt/$1" '
		$1 == "device" { on = ($5 == m) }
		on && ($1 == "WRITE:" || $1 == "COMMIT:") { printf "%s %s ", $1, $2 }
	' /proc/self/mountstats
}

run() {
	daemon=$1 prog=$2 vers=$3 export_opt=$4 n=$5
	kinds=$("$prog" kinds)
	# Loading modules is slow under TCG (xz): two at a time.
	modprobe virtio_blk &
	modprobe -a ext4 nfs "nfsv${vers%%.*}" || fail "modprobe"
	wait $! || fail "modprobe virtio_blk"
	mkdir -p "$work/state"

	# Nothing reaches the disks unless something syncs: no periodic or
	# background write-back, a journal commit only every $COMMIT s;
	# noatime, so that reading does not start a transaction early.
	echo 0 >/proc/sys/vm/dirty_writeback_centisecs
	echo 360000 >/proc/sys/vm/dirty_expire_centisecs
	echo 90 >/proc/sys/vm/dirty_ratio
	echo 80 >/proc/sys/vm/dirty_background_ratio
	mount_disks "commit=$COMMIT,noatime"

	step "setup: $n of each kind laid out and synced"
	"$prog" setup "$base" "$n" || fail "powerloss setup"
	t0=$(uptime_s)

	# The state directory on tmpfs: the daemon's own files must not commit
	# a journal under test, and the second boot reads the disks directly.
	for k in $kinds; do
		echo "$base/$k 127.0.0.1(rw,no_root_squash,insecure,$export_opt)"
	done >"$work/exports"
	start_daemon --nfs-versions 2,3,4.1,4.2
	mount_nfs "$vers"

	step "run: NFSv$vers, $export_opt export"
	t1=$(uptime_s)
	# Bounded: a hard mount waits forever for a daemon that died.
	timeout -k 5 150 "$prog" run "$mnt" "$ack" "$n" || fail "powerloss run"
	t2=$(uptime_s)
	window=$(awk -v a="$t0" -v b="$t2" 'BEGIN { printf "%.1f", b - a }')
	step "$((n * $(echo "$kinds" | wc -l))) operations in $(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s, $window s after the setup's sync"
	step "write_sync sent $(rpc_counts write_sync); write_fsync sent $(rpc_counts write_fsync)"
	awk -v w="$window" -v c=$COMMIT 'BEGIN { exit !(w < c - 15) }' ||
		fail "the run took $window s, too close to the journal's commit interval ($COMMIT s)"
	# A daemon built with --enable-sanitizers reports into its log, which
	# dies with the guest: look now.
	check_sanitizer_reports
	echo "DONE $window" >"$ack"
	# The host cuts the power now.
	sleep infinity
}

verify() {
	prog=$1 acklog=$2
	kinds=$("$prog" kinds)
	modprobe virtio_blk &
	modprobe ext4 || fail "modprobe ext4"
	wait $! || fail "modprobe virtio_blk"
	mount_disks
	step "journals replayed on $(dmesg | grep -c 'EXT4-fs (vd[a-z]*): recovery complete') of $(echo "$kinds" | wc -l) file systems"
	set +e
	"$prog" verify "$base" "$acklog"
	rc=$?
	set -e
	(cd "$base" && umount $kinds)
	exit $rc
}

case $phase in
run) run "$@" ;;
verify) verify "$@" ;;
*) echo "usage: powerloss.sh run|verify ..." >&2; exit 2 ;;
esac
