#!/bin/bash
# guest-bench.sh - runs inside the QEMU guest (tests/guest/run-guest):
# the Linux kernel NFS client against knfsd and against usernfsd, both
# serving the same tmpfs in the guest, over the guest's loopback.
#
#   guest-bench.sh USERNFSD [DD_MIB [BONNIE_ARGS...]]
#
# For each server: mount (vers=3, tcp, nolock, same options for both),
# dd a DD_MIB file (write + fsync, then read after dropping the caches),
# then bonnie++ with BONNIE_ARGS (default -s 512 -r 256 -n 0 -f).
# Prints human lines and key=value lines "guest.SERVER.KEY=VALUE";
# a server that cannot be started is reported (guest.SERVER.error=...)
# and the other one still runs.
set -u
daemon=$1
dd_mib=${2:-256}
shift $(($# > 2 ? 2 : $#))
bonnie_args=("$@")
[ ${#bonnie_args[@]} -gt 0 ] || bonnie_args=(-s 512 -r 256 -n 0 -f)

work=/tmp/gb
exp=$work/export       # one tmpfs for both servers (file handles work on tmpfs)
mnt=$work/mnt
U_NFS=42049 U_MNT=42048
K_NFS=2049 K_MNT=20048

say() { echo "guest-bench: $*"; }
kv() { echo "guest.$1=$2"; }

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# dd's "... copied, 3.2 s, ..." line -> MiB/s for BYTES
dd_rate() {   # dd_rate BYTES DD_STDERR
	local s
	s=$(sed -n 's/.* copied, \([0-9.]*\) s,.*/\1/p' <<<"$2" | tail -n 1)
	[ -n "$s" ] || return 1
	awk -v b="$1" -v s="$s" 'BEGIN { printf "%.1f", b / 1048576 / s }'
}

# ---- the servers ----

start_knfsd() {
	local log=$work/knfsd.log
	{
		modprobe nfsd && mkdir -p /proc/fs/nfsd && mount -t nfsd nfsd /proc/fs/nfsd &&
		mkdir -p /run/rpcbind /var/lib/nfs && rpcbind &&
		echo "$exp/k 127.0.0.1(rw,no_root_squash,no_subtree_check,insecure,fsid=77)" >/etc/exports &&
		exportfs -ra &&
		rpc.mountd --port $K_MNT --no-nfs-version 2 &&
		rpc.nfsd --port $K_NFS --no-nfs-version 4 8
	} >"$log" 2>&1 || { KNFSD_ERR=$(tail -n 3 "$log" | tr '\n' ' '); return 1; }
}

start_usernfsd() {
	echo "$exp/u 127.0.0.1(rw,no_root_squash,insecure)" >"$work/exports"
	"$daemon" --foreground --no-rpcbind --exports "$work/exports" --state-dir "$work/state" \
		--pidfile "$work/u.pid" --nfs-port $U_NFS --mount-port $U_MNT >"$work/usernfsd.log" 2>&1 &
	for _ in $(seq 100); do
		[ -s "$work/u.pid" ] && return 0
		sleep 0.1
	done
	return 1
}

# ---- one server's runs ----

mount_it() {   # mount_it EXPORT NFS_PORT MOUNT_PORT
	mount -t nfs -o "vers=3,proto=tcp,port=$2,mountport=$3,mountproto=tcp,nolock" \
		"127.0.0.1:$1" "$mnt" 2>&1
}

run_dd() {   # run_dd NAME
	local bytes=$((dd_mib * 1048576)) out r
	out=$(dd if=/dev/zero of="$mnt/dd.bin" bs=1M count="$dd_mib" conv=fsync 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "dd write failed: $(tail -n 1 <<<"$out")"; return 1; }
	say "$1: dd write (1 MiB blocks, fsync)  $r MiB/s"
	kv "$1.dd_write.mib_s" "$r"
	drop_caches
	out=$(dd if="$mnt/dd.bin" of=/dev/null bs=1M 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "dd read failed: $(tail -n 1 <<<"$out")"; return 1; }
	say "$1: dd read (1 MiB blocks, cold)    $r MiB/s"
	kv "$1.dd_read.mib_s" "$r"
	rm -f "$mnt/dd.bin"
}

# bonnie++'s CSV (format 1.98): 12 block output, 14 rewrite, 18 block
# input (KiB/s), 20 random seeks (/s); "+++++" means too fast to time.
run_bonnie() {   # run_bonnie NAME
	local csv
	csv=$(bonnie++ -d "$mnt" "${bonnie_args[@]}" -u root -q 2>"$work/bonnie.err" | grep ',' | tail -n 1)
	if [ -z "$csv" ]; then
		kv "$1.error" "bonnie++ failed: $(tail -n 2 "$work/bonnie.err" | tr '\n' ' ')"
		return 1
	fi
	say "$1: bonnie++ ${bonnie_args[*]}: $csv"
	awk -F, -v s="$1" '{
		printf "guest.%s.bonnie_block_write.kib_s=%s\n", s, $12
		printf "guest.%s.bonnie_rewrite.kib_s=%s\n", s, $14
		printf "guest.%s.bonnie_block_read.kib_s=%s\n", s, $18
		printf "guest.%s.bonnie_seeks.per_s=%s\n", s, $20
	}' <<<"$csv"
}

bench_server() {   # bench_server NAME EXPORT NFS_PORT MOUNT_PORT
	local out t0
	t0=$(date +%s)
	out=$(mount_it "$2" "$3" "$4") || { say "$1: mount failed: $out"; kv "$1.error" "mount failed: $out"; return 1; }
	say "$1: mounted: $(grep " $mnt " /proc/mounts | sed 's/.*\(rsize=[0-9]*\),\(wsize=[0-9]*\).*/\1 \2/')"
	run_dd "$1" && run_bonnie "$1"
	umount "$mnt" || say "$1: umount failed"
	say "$1: done in $(( $(date +%s) - t0 )) s"
}

# /tmp is half the guest's 1 GiB: too small for bonnie's 512 MiB file
mkdir -p "$exp" "$work/state" "$mnt"
mount -t tmpfs -o size=700m benchfs "$exp" || { say "cannot mount a tmpfs on $exp"; exit 1; }
mkdir -p "$exp/k" "$exp/u"
modprobe nfs && modprobe nfsv3 || { say "no NFS client in the guest kernel"; exit 1; }

say "knfsd on $exp/k (port $K_NFS), usernfsd on $exp/u (port $U_NFS); dd ${dd_mib} MiB; bonnie++ ${bonnie_args[*]}"
KNFSD_ERR=
if start_knfsd; then
	bench_server knfsd "$exp/k" $K_NFS $K_MNT
	rpc.nfsd 0 >/dev/null 2>&1
else
	say "knfsd could not be started here: $KNFSD_ERR (continuing with usernfsd)"
	kv knfsd.error "cannot start knfsd: $KNFSD_ERR"
fi
if start_usernfsd; then
	bench_server usernfsd "$exp/u" $U_NFS $U_MNT
	kill -TERM "$(cat "$work/u.pid")" 2>/dev/null
else
	say "usernfsd did not start: $(tail -n 3 "$work/usernfsd.log" | tr '\n' ' ')"
	kv usernfsd.error "usernfsd did not start"
fi
exit 0
