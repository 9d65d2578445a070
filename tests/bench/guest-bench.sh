#!/bin/bash
# guest-bench.sh - runs inside the QEMU guest (tests/guest/run-guest):
# the Linux kernel NFS client against knfsd and against usernfsd, both
# serving the same tmpfs in the guest, over the guest's loopback; and,
# with a disk (run-guest -d IMAGE, an ext4 made on the host), both
# serving that ext4 with a sync and with an async export.
#
#   guest-bench.sh [-r REPS] [-f FSMETA [-n FILES] [-k SMALLFILES]] [-V VERSIONS [-L ENTRIES] [-O]]
#                  [-F FLAVORS -K STAGE:KDC_PORT] [-D FILES [-W SECONDS] [-R MS]] USERNFSD [DD_MIB [BONNIE_ARGS...]]
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
# With -V VERSIONS (e.g. "3 4.1"; and -f FSMETA), the NFS versions side by
# side: knfsd, a usernfsd of its own (--nfs-versions 3,4.1,4.2, ports
# 42149/42148) and nfs-ganesha (FSAL VFS, Protocols 3 and 4, ports
# 43049/43048, when ganesha.nfsd is installed) export a directory each of
# the same tmpfs, each mounted once per version (vers=3 as above; vers=4.1:
# no MOUNT, no NLM, the export's full path through the server's pseudo
# file system, vers=4.1,proto=tcp,port=PORT), all at once; REPS rounds of:
# one FSMETA -r -a -l over all of them, taking turns (the metadata mix,
# FILES each, as one number too: meta.ops_s; SMALLFILES files of 64 KiB
# written, smallcopy, and read back cold, smallread; then one after the
# other, each cold, ls -l of a directory of ENTRIES (-L, 2000) empty files
# made on the tmpfs beforehand, one per server and version, lsl.entries_s),
# then dd as above on each mount in turn; the first target rotates by round.
# Keys guest.SERVER_vV.repN.KEY and their medians guest.SERVER_vV.KEY, V
# the version without its dot (knfsd_v3, usernfsd_v41, ganesha_v41, ...);
# guest.SERVER_vV.error=... for a target that failed.  knfsd serves 4.x
# only when VERSIONS names it (rpc.nfsd -N 4.0 instead of -N 4), and the
# runs wait out its 10 s v4 grace period.  -O: only these runs (no dd and
# bonnie++ rounds, no ext4 disk, no locks).
# With -F FLAVORS (e.g. "sys krb5 krb5i krb5p"; and -f FSMETA, -K) the
# security flavors side by side instead, and nothing else (issue 28;
# run-bench boots the guest on bookworm-backports' kernel for it): the
# kernel client with rpc.gssd (tests/guest/guest-lib.sh's gss_client,
# beside this script), knfsd with rpc.svcgssd, a usernfsd of its own
# (--keytab, ports 42149/42148), each exporting a directory of one tmpfs
# with sec=FLAVORS; each server mounted once per flavor and version of -V
# (4.1 when -V is not given), all at once, as nfs-server.test.usernfsd
# (127.0.0.1 in /etc/hosts; rpc.gssd asks for nfs/ that name). The realm
# is tests/krb5-realm.sh's TEST.USERNFSD, its KDC on the host at
# 10.0.2.2:KDC_PORT; STAGE holds the keytabs krb5_guest_keytabs made
# (krb5.keytab: host/bench-client.test.usernfsd, the client's machine
# credential; daemon.keytab: daemon@, whose ticket uid 1 gets;
# nfs.keytab: nfs/nfs-server.test.usernfsd, both servers'). Every file
# operation runs as uid 1 (daemon on both servers): REPS rounds of one
# FSMETA -a over every mount (the metadata mix, FILES each, and
# SMALLFILES small files), then dd as above on each mount, the two
# servers' mounts of one flavor and version one after the other, which
# goes first alternating by round; the mounts are made afresh each round.
# Keys guest.SERVER_FLAVOR_vV.repN.KEY and medians guest.SERVER_FLAVOR_vV.KEY
# (usernfsd_krb5p_v41, knfsd_sys_v3, ...); rpc_retrans (the RPC
# retransmissions and major timeouts in the mount's mountstats, each
# round) among them; guest.flavors.usernfsd.KEY, usernfsd's RPCSEC_GSS
# counters at the end (usernfsctl stats), guest.flavors.SERVER.log_errors
# (GSS lines in usernfsd's log; rpc.svcgssd's errors for knfsd).
# With -D FILES, read delegations instead, and nothing else (issue 29):
# five modes over NFSv4.2 with the client's default caching (no noac, no
# lookupcache=none): usernfsd (the per-version runs' instance, ports
# 42149/42148) and a second usernfsd started with --no-delegations (ports
# 42249/42248, its own state and control socket), both exporting $exp/vu;
# knfsd (its v4 root $exp/vk, nfsv4leasetime 90, its default, where the
# other runs set 10: the client returns a delegation it has not used
# between two of its lease renewals, every 2/3 of a lease) with
# /proc/sys/fs/leases-enable 1 and with 0 (the kernel then grants it no
# lease, so no delegation: knfsd_deleg_off; set back to 1 after); and
# nfs-ganesha as the per-version runs start it (no Delegations line: its
# default, off). Each round, the modes one after the other (the first
# rotating by round), each: mount (vers=4.2, the mount alone), FILES files
# of 16 KiB made through it, 100 a directory (bash's printf into each,
# one process: create.s), -W SECONDS of nothing (0 by default: a file a
# server still holds open for writing cannot be leased),
# drop_caches, then pass 1: `find DIR -type f
# -exec cat {} +` (every file read, one cat) and `ls -lR DIR` (every
# file stat'ed, the count checked), timed; pass 2 the same, without
# drop_caches in between: what the client cached, and with a delegation
# need not revalidate. -R MS: every packet on lo delayed MS milliseconds
# (tc netem; a round trip twice that), for a network between client and
# server: in the TCG guest a call over lo costs little beside the client's
# own work. Keys guest.MODE.repN.KEY and medians
# guest.MODE.KEY (MODE usernfsd_deleg_on, usernfsd_deleg_off,
# knfsd_deleg_on, knfsd_deleg_off, ganesha): create.s, passP.s,
# passP.read_s, passP.stat_s, passP.ops_s (2 x FILES over the pass's
# seconds: a read and a stat per file), and the client's RPCs in the pass
# from its mountstats (passP.rpcs, all of them; passP.open, .close,
# .read, .getattr, .lookup, .access, .readdir, .delegreturn); the
# delegations: usernfsd's counters over the mode (deleg.granted, .recalled,
# .returned, .revoked from usernfsctl stats, up to after the umount;
# deleg.granted_pass2 and deleg.returned_early, before the umount, during
# the passes), knfsd's delegations held after each pass (deleg.held_pass1,
# deleg.held_pass2: "type: deleg" in /proc/fs/nfsd/clients/*/states);
# guest.MODE.error for a mode that failed (dropped for the later rounds).
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
fsmeta='' meta_n=200 meta_k=100 reps=3 versions='' lsl_n=2000 only_versions='' flavors='' krb5='' deleg_n='' deleg_wait=0 deleg_delay=0
while getopts r:f:n:k:V:L:OF:K:D:W:R: opt; do
	case $opt in
	r) reps=$OPTARG ;;
	f) fsmeta=$OPTARG ;;
	n) meta_n=$OPTARG ;;
	k) meta_k=$OPTARG ;;
	V) versions=${OPTARG//,/ } ;;
	L) lsl_n=$OPTARG ;;
	O) only_versions=1 ;;
	F) flavors=${OPTARG//,/ } only_versions=1 ;;
	K) krb5=$OPTARG ;;
	D) deleg_n=$OPTARG only_versions=1 ;;
	W) deleg_wait=$OPTARG ;;
	R) deleg_delay=$OPTARG ;;
	*) echo "guest-bench: usage: $0 [-r REPS] [-f FSMETA [-n FILES] [-k SMALLFILES]] [-V VERSIONS [-L ENTRIES] [-O]] [-F FLAVORS -K STAGE:KDC_PORT] [-D FILES [-W SECONDS] [-R MS]] USERNFSD [DD_MIB [BONNIE_ARGS...]]" >&2; exit 2 ;;
	esac
done
case $deleg_n in
'') ;;
*[!0-9]*|0) echo "guest-bench: -D: '$deleg_n' is not a number of files" >&2; exit 2 ;;
*) [ -z "$flavors" ] || { echo "guest-bench: -D and -F are two runs of their own" >&2; exit 2; }
   case $deleg_wait in ''|*[!0-9]*) echo "guest-bench: -W: '$deleg_wait' is not a number of seconds" >&2; exit 2 ;; esac
   [[ $deleg_delay =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "guest-bench: -R: '$deleg_delay' is not a number of milliseconds" >&2; exit 2; }
   versions=4.2 ;;   # the delegation runs mount NFSv4.2 (knfsd then serves 4.x)
esac
for f in $flavors; do
	case $f in
	sys|krb5|krb5i|krb5p) ;;
	*) echo "guest-bench: -F: flavor '$f' is not sys, krb5, krb5i or krb5p" >&2; exit 2 ;;
	esac
done
[ -z "$flavors" ] || [ -n "$krb5" ] || { echo "guest-bench: -F needs -K STAGE:KDC_PORT" >&2; exit 2; }
[ -z "$flavors" ] || [ -n "$versions" ] || versions=4.1
for v in $versions; do
	case $v in
	3|4.1|4.2) ;;
	*) echo "guest-bench: -V: version '$v' is not 3, 4.1 or 4.2" >&2; exit 2 ;;
	esac
done
# knfsd serves NFSv4 minor versions only when asked to
case " $versions " in *" 4."*) V4=1 ;; *) V4='' ;; esac
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
# the per-version runs' usernfsd and nfs-ganesha
V_NFS=42149 V_MNT=42148
# the delegation runs' second usernfsd (--no-delegations)
U_OFF_NFS=42249 U_OFF_MNT=42248
G_NFS=43049 G_MNT=43048
nfsbench=${USERNFSD_NFSBENCH:-}
# knfsd's NFSv4 lease (its default is 90 s): the shortest there is, but for
# the delegation runs, where the client returns what it has not used
# between two renewals (every 2/3 of a lease): 90 s as usernfsd's default
K_LEASE=10
[ -z "$deleg_n" ] || K_LEASE=90
lock_secs=${USERNFSD_LOCK_SECS:-3}

say() { echo "guest-bench: $*"; }
kv() { echo "guest.$1=$2"; }

# One repetition's number: printed as guest.SERVER.repN.KEY, and kept in
# $work/reps (the per-version runs: REPS_FILE) for the medians (report_medians).
rec() {   # rec SERVER REP KEY VALUE
	kv "$1.rep$2.$3" "$4"
	echo "$1 $3 $4" >>"${REPS_FILE:-$work/reps}"
}

# guest.SERVER.KEY=the median of its repetitions (the numeric ones:
# bonnie++ writes +++++ for what was too fast to time)
report_medians() {   # report_medians [FILE]
	local f=${1:-$work/reps}
	[ -s "$f" ] || return 0
	awk '$3 ~ /^[0-9]+(\.[0-9]+)?$/ { v[$1 "." $2] = v[$1 "." $2] " " $3 }
	END {
		for (k in v) {
			n = split(v[k], a, " ")
			for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
			m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
			printf "guest.%s=%s\n", k, m == int(m) ? sprintf("%d", m) : sprintf("%.1f", m)
		}
	}' "$f" | sort
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
	# (-F) every flavor on one export, the v4 root; sec= first: the
	# options after it apply to every flavor it names
	if [ -n "$flavors" ]; then
		echo "$exp/fk 127.0.0.1(sec=${flavors// /:},$o,fsid=$([ -n "$V4" ] && echo 0 || echo 81))"
		return
	fi
	# (-V) with v4: fsid=0, knfsd's v4 root.  Without one, mountd makes a
	# pseudo root of "/", which here is the guest's overlay: no file
	# handles, and v4 mounts of the full path fail (ENOENT).
	[ -z "$versions" ] || echo "$exp/vk 127.0.0.1($o,fsid=$([ -n "$V4" ] && echo 0 || echo 80))"
	[ -z "$DISK" ] || printf '%s\n' "$disk/k-sync 127.0.0.1($o,sync,fsid=78)" \
		"$disk/k-async 127.0.0.1($o,async,fsid=79)"
}

start_knfsd() {
	local log=$work/knfsd.log
	{
		modprobe nfsd && mkdir -p /proc/fs/nfsd && mount -t nfsd nfsd /proc/fs/nfsd &&
		# the shortest grace periods there are (10 s): lock runs wait them out;
		# the lease too (K_LEASE), but for the delegation runs (-D): 90 s
		{ echo "$K_LEASE" >/proc/fs/nfsd/nfsv4leasetime; echo 10 >/proc/fs/nfsd/nfsv4gracetime;
		  echo 10 >/proc/sys/fs/nfs/nlm_grace_period; true; } 2>/dev/null &&
		mkdir -p /run/rpcbind /var/lib/nfs && rpcbind &&
		knfsd_exports >/etc/exports &&
		exportfs -ra &&
		rpc.mountd --port $K_MNT --no-nfs-version 2 &&
		rpc.nfsd --port $K_NFS --no-nfs-version "$([ -n "$V4" ] && echo 4.0 || echo 4)" 8
	} >"$log" 2>&1 || { KNFSD_ERR=$(tail -n 3 "$log" | tr '\n' ' '); return 1; }
	K_T0=$(date +%s)
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

# ---- the NFS versions side by side (-V): knfsd, usernfsd, nfs-ganesha ----

# usernfsd for these runs: its own instance, serving v3 and v4.1/4.2, its
# own ports, state and control socket (the other one has the default).
# With SUFFIX (the delegation runs' second instance, -off), another one
# beside it: files, socket (uvSUFFIX.sock) and log (usernfsd-vSUFFIX.log)
# of its own, ports NFS_PORT and MOUNT_PORT, and DAEMON_ARGS; the same
# export. (Its state directory's name is its NFSv4 server owner: two
# instances must not share one, or the client takes them for one server.)
start_usernfsd_v() {   # start_usernfsd_v [SUFFIX NFS_PORT MOUNT_PORT [DAEMON_ARGS...]]
	local sfx=${1:-} np=${2:-$V_NFS} mp=${3:-$V_MNT}
	shift $(($# > 3 ? 3 : $#))
	echo "$exp/vu 127.0.0.1(rw,no_root_squash,insecure)" >"$work/exports-v$sfx"
	mkdir -p "$work/state-v$sfx"
	# shellcheck disable=SC2086 # USERNFSD_DAEMON_ARGS: words, for experiments
	"$daemon" --foreground --no-rpcbind --exports "$work/exports-v$sfx" --state-dir "$work/state-v$sfx" \
		--control "$work/uv$sfx.sock" --nfs-versions 3,4.1,4.2 --pidfile "$work/uv$sfx.pid" \
		--nfs-port "$np" --mount-port "$mp" "$@" ${USERNFSD_DAEMON_ARGS:-} >"$work/usernfsd-v$sfx.log" 2>&1 &
	for _ in $(seq 100); do
		[ -s "$work/uv$sfx.pid" ] && return 0
		sleep 0.1
	done
	return 1
}

# nfs-ganesha as on the host (FSAL VFS, TCP only, 1 MiB transfers), with
# NFSv4 too; no NLM (the v3 mounts are nolock, and the kernel's lockd has
# NLM in this rpcbind), numeric owners as knfsd and usernfsd send them.
# It gives up when it cannot register with rpcbind, where knfsd holds NFS
# and MOUNT: those entries go (every mount here names its ports; knfsd's
# NLM and statd's entries stay, for the lock runs).
start_ganesha() {
	local i p v
	command -v ganesha.nfsd >/dev/null 2>&1 || { GANESHA_ERR="ganesha.nfsd is not installed"; return 1; }
	rpcinfo -p 127.0.0.1 >/dev/null 2>&1 || rpcbind || { GANESHA_ERR="no rpcbind"; return 1; }
	for p in 100003 100005 100227; do
		for v in 1 2 3 4; do rpcinfo -d $p $v >/dev/null 2>&1; done
	done
	mkdir -p "$work/ganesha-recov" /run/ganesha
	cat >"$work/ganesha.conf" <<-EOF
	NFS_CORE_PARAM {
		Protocols = 3, 4;
		NFS_Port = $G_NFS;
		MNT_Port = $G_MNT;
		Enable_NLM = false;
		Enable_RQUOTA = false;
		Enable_UDP = false;
	}
	NFSV4 {
		Graceless = true;
		RecoveryRoot = $work/ganesha-recov;
		Only_Numeric_Owners = true;
	}
	EXPORT {
		Export_Id = 1;
		Path = $exp/vg;
		Pseudo = $exp/vg;
		Access_Type = RW;
		Squash = No_Root_Squash;
		Protocols = 3, 4;
		Transports = TCP;
		SecType = sys;
		MaxRead = 1048576;
		MaxWrite = 1048576;
		FSAL { Name = VFS; }
	}
	EOF
	ganesha.nfsd -F -L "$work/ganesha.log" -f "$work/ganesha.conf" -p /run/ganesha/ganesha.pid \
		-N NIV_EVENT </dev/null >"$work/ganesha.out" 2>&1 &
	G_PID=$!
	for i in $(seq 300); do
		kill -0 "$G_PID" 2>/dev/null || break
		(exec 3<>"/dev/tcp/127.0.0.1/$G_NFS") 2>/dev/null && return 0
		sleep 0.2
	done
	GANESHA_ERR="did not come up: $(tail -n 3 "$work/ganesha.log" "$work/ganesha.out" 2>/dev/null | tr '\n' ' ')"
	kill "$G_PID" 2>/dev/null
	return 1
}

vtag() { echo "${1}_v${2//./}"; }    # vtag SERVER VERSION: usernfsd_v41
# the tmpfs directory SERVER exports here (VPRE: v, the versions; f, the flavors)
vexport() { echo "$exp/${VPRE:-v}${1:0:1}"; }

vports() {   # vports SERVER: its NFS and MOUNT ports for these runs
	case $1 in
	knfsd) echo "$K_NFS $K_MNT" ;;
	usernfsd) echo "$V_NFS $V_MNT" ;;
	usernfsd_off) echo "$U_OFF_NFS $U_OFF_MNT" ;;   # the delegation runs' --no-delegations
	ganesha) echo "$G_NFS $G_MNT" ;;
	esac
}

# VHOST: the server's name in the mount command (127.0.0.1 by default)
vmount() {   # vmount SERVER VERSION MOUNTPOINT [OPTIONS]
	local p m o
	read -r p m <<<"$(vports "$1")"
	case $2 in
	3) o="vers=3,proto=tcp,port=$p,mountport=$m,mountproto=tcp,nolock" ;;
	*) o="vers=$2,proto=tcp,port=$p" ;;
	esac
	# knfsd's v4 path is relative to its fsid=0 export (knfsd_exports), the
	# others' the export's full path through their pseudo file system
	o=$o${4:+,$4}
	if [ "$1" = knfsd ] && [ "$2" != 3 ]; then set -- "$1" "$2" "$3" /; else set -- "$1" "$2" "$3" "$(vexport "$1")"; fi
	timeout 120 mount -t nfs -o "$o${USERNFSD_MOUNT_OPTS:+,$USERNFSD_MOUNT_OPTS}" "${VHOST:-127.0.0.1}:$4" "$3" 2>&1
}

# What a failed target's server logged last (the report wants it)
vdiag() {   # vdiag SERVER
	local f
	case $1 in
	usernfsd) f=${VU_LOG:-$work/usernfsd-v.log} ;;
	usernfsd_off) f=$work/usernfsd-v-off.log ;;
	ganesha) f=$work/ganesha.log ;;
	*) dmesg | tail -n 10 | sed 's/^/guest-bench:   dmesg: /'
	   [ ! -s "$work/svcgssd.log" ] || tail -n 10 "$work/svcgssd.log" | sed 's/^/guest-bench:   rpc.svcgssd: /'
	   return ;;
	esac
	tail -n 15 "$f" 2>/dev/null | sed "s/^/guest-bench:   $1 log: /"
}

vdd() {   # vdd TAG DIR REP: dd write + fsync, then read cold, on DIR (as RUNAS)
	local bytes=$((dd_mib * 1048576)) out r w
	out=$(timeout -s KILL 600 "${RUNAS[@]}" dd if=/dev/zero of="$2/dd.bin" bs=1M count="$dd_mib" conv=fsync 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "round $3: dd write failed: $(tail -n 1 <<<"$out")"; return 1; }
	rec "$1" "$3" dd_write.mib_s "$r"
	w=$r
	drop_caches
	out=$(timeout -s KILL 600 "${RUNAS[@]}" dd if="$2/dd.bin" of=/dev/null bs=1M 2>&1) &&
		r=$(dd_rate $bytes "$out") || { kv "$1.error" "round $3: dd read failed: $(tail -n 1 <<<"$out")"; return 1; }
	rec "$1" "$3" dd_read.mib_s "$r"
	say "$1 ($3/$reps): dd write (fsync) $w MiB/s, read (cold) $r MiB/s"
	"${RUNAS[@]}" rm -f "$2/dd.bin"
}

# One round's fsmeta over every mount of targets[] (NAME=DIR; tags[]:
# TAG:SERVER:MOUNT:DIR), with the options FSM_OPTS, as RUNAS; its lines
# say SECTION (versions, flavors). A target that fails (fsmeta names it)
# or hangs (its mount does not answer a stat in 10 s once fsmeta was
# killed) is reported with its server's log, dropped for the rest of the
# runs (DEAD), and the round run again without it.
RUNAS=() SECTION=versions
vfsmeta() {   # vfsmeta REP
	local rep=$1 i k val out bad t m tries=0 rt
	while [ ${#targets[@]} -gt 0 ] && [ $tries -lt 6 ]; do
		tries=$((tries + 1))
		# the first target rotates by round (the ls -l listings go one
		# after the other in this order)
		rt=()
		for ((i = 0; i < ${#targets[@]}; i++)); do rt+=("${targets[(i + rep - 1) % ${#targets[@]}]}"); done
		timeout -s KILL $((600 + meta_n + meta_k + lsl_n / 50)) "${RUNAS[@]}" "$fsmeta" "${FSM_OPTS[@]}" \
			-p v. "${rt[@]}" >"$work/vfsmeta.out" 2>&1
		i=$?
		if [ $i -eq 0 ]; then
			sed -n "s/^fsmeta: /guest-bench: $SECTION ($rep\/$reps): /p" "$work/vfsmeta.out"
			while IFS='=' read -r k val; do
				k=${k#v.}
				rec "${k%%.*}" "$rep" "${k#*.}" "$val"
			done <<<"$(grep '^v\.' "$work/vfsmeta.out")"
			return 0
		fi
		out=$(grep -v '^fsmeta: [a-z]* ' "$work/vfsmeta.out" | tail -n 2 | tr '\n' ' ')
		bad=''
		if [ $i -eq 137 ]; then
			out="killed after $((600 + meta_n + meta_k + lsl_n / 50)) s (a hang?) $out"
			for t in "${tags[@]}"; do
				IFS=: read -r _ _ m _ <<<"$t"
				timeout -s KILL 10 stat "$m/." >/dev/null 2>&1 || bad="$bad ${t%%:*}"
			done
		else
			bad=$(sed -n 's/^fsmeta: \([a-z0-9_]*\): .*/\1/p' "$work/vfsmeta.out" | head -n 1)
		fi
		say "$SECTION: fsmeta failed in round $rep (exit $i): $out"
		[ -n "$bad" ] || { kv "$SECTION.error" "round $rep: fsmeta failed (exit $i): $out"; return 1; }
		local nt=() ng=()
		for t in "${tags[@]}"; do
			if [[ " $bad " == *" ${t%%:*} "* ]]; then
				kv "${t%%:*}.error" "round $rep: fsmeta (exit $i): $out"
				say "${t%%:*}: dropped from the runs; its server's log:"
				vdiag "$(cut -d: -f2 <<<"$t")"
				DEAD="$DEAD ${t%%:*}"
			else
				ng+=("$t")
				nt+=("${t%%:*}=$(cut -d: -f4 <<<"$t")")
			fi
		done
		tags=("${ng[@]}") targets=("${nt[@]}")
	done
	return 1
}

version_runs() {
	local rep s v t m d out i order vservers=''
	targets=() tags=()
	[ -n "$versions" ] || return 0
	if [ -z "$fsmeta" ]; then
		say "versions: no fsmeta (-f): no per-version runs"
		kv versions.error "no fsmeta"
		return 0
	fi
	REPS_FILE=$work/vreps DEAD='' SECTION=versions
	FSM_OPTS=(-n "$meta_n" -k "$meta_k" -r -a -l big -L "$lsl_n")
	: >"$REPS_FILE"
	mkdir -p "$exp/vk" "$exp/vu" "$exp/vg"
	[ -z "$K_UP" ] || vservers=knfsd
	if start_usernfsd_v; then
		vservers="$vservers usernfsd"
	else
		say "versions: usernfsd did not start: $(tail -n 3 "$work/usernfsd-v.log" | tr '\n' ' ')"
		kv usernfsd_versions.error "usernfsd --nfs-versions 3,4.1,4.2 did not start"
	fi
	GANESHA_ERR='' G_PID=''
	if start_ganesha; then
		vservers="$vservers ganesha"
	else
		say "versions: nfs-ganesha could not be started: $GANESHA_ERR"
		kv ganesha.error "cannot start nfs-ganesha: $GANESHA_ERR"
	fi
	[ -z "$K_UP" ] || say "versions: knfsd serves $(cat /proc/fs/nfsd/versions 2>/dev/null)"
	# A directory per version in each server's export, for fsmeta's own
	# (one mount each), and in it the large directory for ls -l, made on
	# the tmpfs itself, not over NFS: one per version, so that no listing
	# finds the server's own cache (nfs-ganesha's, usernfsd's: drop_caches
	# does not reach them) warmed by the other version's.
	for s in $vservers; do
		for v in $versions; do
			m=$(vexport "$s")/v${v//./}
			mkdir -p "$m/big"
			(cd "$m/big" && seq -f 'e%06g' 1 "$lsl_n" | xargs touch) ||
				{ say "versions: cannot make $lsl_n files in $m/big"; return 1; }
		done
	done
	# knfsd's NFSv4 grace period (10 s from its start): OPENs wait it out
	if [ -n "$K_UP" ] && [ -n "$V4" ]; then
		i=$(( K_T0 + 15 - $(date +%s) ))
		[ "$i" -le 0 ] || { say "versions: waiting ${i} s for knfsd's grace period to end"; sleep "$i"; }
	fi
	say "versions: $versions; servers:$(for s in $vservers; do printf ' %s' "$s"; done); $reps rounds of fsmeta -n $meta_n -k $meta_k (read back) -l ($lsl_n entries), then dd $dd_mib MiB on each"
	for rep in $(seq "$reps"); do
		targets=() tags=()
		for s in $vservers; do
			for v in $versions; do
				t=$(vtag "$s" "$v")
				[[ " $DEAD " != *" $t "* ]] || continue
				m=$mnt-$t
				mkdir -p "$m"
				if out=$(vmount "$s" "$v" "$m"); then
					if ! grep -q " $m nfs4\\? .*vers=${v}," /proc/mounts; then
						say "$t: mounted, but not as version $v: $(grep " $m " /proc/mounts)"
						kv "$t.error" "round $rep: mounted, but not as version $v"
						umount "$m"
						continue
					fi
					[ "$rep" -gt 1 ] ||
						say "$t: mounted: $(grep " $m " /proc/mounts | sed 's/.*\(vers=[0-9.]*\).*\(rsize=[0-9]*\),\(wsize=[0-9]*\).*/\1 \2 \3/')"
					targets+=("$t=$m/v${v//./}")
					tags+=("$t:$s:$m:$m/v${v//./}")
				else
					say "$t: mount failed: $out"
					kv "$t.error" "round $rep: mount failed: $out"
					[ "$rep" -gt 1 ] || vdiag "$s"
				fi
			done
		done
		[ ${#targets[@]} -gt 0 ] || break
		sync
		vfsmeta "$rep"
		# dd on each mount in turn, the first rotating by round
		order=()
		for ((i = 0; i < ${#tags[@]}; i++)); do order+=("${tags[(i + rep - 1) % ${#tags[@]}]}"); done
		for i in "${order[@]}"; do
			IFS=: read -r t s m d <<<"$i"
			[[ " $DEAD " != *" $t "* ]] || continue
			vdd "$t" "$d" "$rep" || { DEAD="$DEAD $t"; vdiag "$s"; }
		done
		for i in "${tags[@]}"; do
			IFS=: read -r _ _ m _ <<<"$i"
			umount "$m" 2>/dev/null || umount -f -l "$m" || say "umount $m failed"
		done
	done
	report_medians "$REPS_FILE"
	REPS_FILE=
	# What the kernel client sent usernfsd, per operation, over all the
	# rounds (v3 and v4 both): calls and time, for whoever reads guest.out
	if [ -x "$(dirname "$daemon")/usernfsctl" ] && [ -S "$work/uv.sock" ]; then
		"$(dirname "$daemon")/usernfsctl" -s "$work/uv.sock" stats 2>&1 | sed 's/^/guest-bench: usernfsd stats: /'
	fi
	[ -z "$G_PID" ] || { kill -TERM "$G_PID" 2>/dev/null; wait "$G_PID" 2>/dev/null; }
	[ ! -s "$work/uv.pid" ] || kill -TERM "$(cat "$work/uv.pid")" 2>/dev/null
}

# ---- the security flavors side by side (-F): knfsd and usernfsd, each
# mounted once per flavor and version (issue 28) ----

# Both servers are F_SRV here (127.0.0.1 in /etc/hosts): rpc.gssd asks for
# nfs/F_SRV, whose key both have (STAGE/nfs.keytab). The realm is
# tests/krb5-realm.sh's.
F_SRV=nfs-server.test.usernfsd F_CLI=bench-client.test.usernfsd F_REALM=TEST.USERNFSD

ftag() { echo "${1}_${2}_v${3//./}"; }   # ftag SERVER FLAVOR VERSION: usernfsd_krb5p_v41

# knfsd's GSS contexts: rpc.svcgssd (the kernel's legacy upcall; no
# gssproxy here) with nfs/F_SRV's key; up when it holds the channel open
start_svcgssd() {
	KRB5_KTNAME=FILE:$kstage/nfs.keytab rpc.svcgssd -f -v -p "nfs/$F_SRV@$F_REALM" \
		>"$work/svcgssd.log" 2>&1 7<&- &
	SVCGSSD_PID=$!
	for _ in $(seq 50); do
		[ -z "$(find "/proc/$SVCGSSD_PID/fd" -lname '*/auth.rpcsec.init/channel' 2>/dev/null)" ] || return 0
		kill -0 "$SVCGSSD_PID" 2>/dev/null || return 1
		snooze 0.1
	done
	return 1
}

# usernfsd for these runs: every flavor on one export, the keytab with nfs/F_SRV
start_usernfsd_f() {
	echo "$exp/fu 127.0.0.1(sec=${flavors// /:},rw,no_root_squash,insecure)" >"$work/exports-f"
	mkdir -p "$work/state-f"
	# shellcheck disable=SC2086 # USERNFSD_DAEMON_ARGS: words, for experiments
	"$daemon" --foreground --no-rpcbind --exports "$work/exports-f" --state-dir "$work/state-f" \
		--control "$work/uf.sock" --nfs-versions 3,4.1,4.2 --keytab "$kstage/nfs.keytab" \
		--pidfile "$work/uf.pid" --nfs-port $V_NFS --mount-port $V_MNT ${USERNFSD_DAEMON_ARGS:-} \
		>"$VU_LOG" 2>&1 7<&- &
	for _ in $(seq 100); do
		[ -s "$work/uf.pid" ] && return 0
		snooze 0.1
	done
	return 1
}

# Before knfsd starts: the client's Kerberos (guest-lib.sh's gss_client,
# rpc.gssd), uid 1's ticket, rpc.svcgssd, the exported directories.
flavor_setup() {
	kstage=${krb5%:*} VPRE=f VHOST=$F_SRV VU_LOG=$work/usernfsd-f.log
	# shellcheck source=../guest/guest-lib.sh
	. "$(dirname "$0")/guest-lib.sh"
	snooze_setup
	mkdir -p "$exp/fk" "$exp/fu"
	if ! gss_client "$F_REALM" "10.0.2.2:${krb5##*:}" "$F_CLI" "$F_SRV" 127.0.0.1 "$kstage/krb5.keytab" \
		"$work/gssd.log"; then
		say "flavors: the client's Kerberos: $GSS_ERR"
		kv flavors.error "the client's Kerberos: $GSS_ERR"
		return 1
	fi
	# uid 1 runs fsmeta and reads daemon@'s keys: copies of its own here
	# (the stage's directory on the host need not be open to it)
	cp "$fsmeta" "$work/fsmeta" && cp "$kstage/daemon.keytab" "$work/daemon.keytab" &&
		chown 1:1 "$work/daemon.keytab" || { kv flavors.error "cannot copy fsmeta, daemon.keytab"; return 1; }
	fsmeta=$work/fsmeta
	if ! gss_kinit 1 "$work/daemon.keytab" "daemon@$F_REALM" "$work/kinit.out"; then
		say "flavors: uid 1 has no ticket: $(tr '\n' ' ' <"$work/kinit.out")"
		kv flavors.error "uid 1 has no ticket: $(tr '\n' ' ' <"$work/kinit.out")"
		return 1
	fi
	start_svcgssd || say "flavors: rpc.svcgssd is not up (knfsd's krb5 mounts will fail): $(tail -n 3 "$work/svcgssd.log" | tr '\n' ' ')"
}

# retrans_of MOUNTPOINT: the RPC retransmissions (transmissions less
# calls) and major timeouts of the mount so far, from mountstats
retrans_of() {
	awk -v m="$1" '$1 == "device" { on = ($5 == m) }
		on && $1 ~ /^[A-Z_0-9]+:$/ && NF >= 9 { r += $3 - $2; t += $4 }
		END { printf "%d %d\n", r, t }' /proc/self/mountstats
}

flavor_runs() {
	local rep s f v t m d out i r to fservers='' order
	REPS_FILE=$work/freps DEAD='' SECTION=flavors
	FSM_OPTS=(-n "$meta_n" -k "$meta_k" -a)
	# every file operation as uid 1, who has a ticket (daemon on both servers)
	RUNAS=(setpriv --reuid=1 --regid=1 --clear-groups)
	: >"$REPS_FILE"
	[ -z "$K_UP" ] || fservers=knfsd
	if start_usernfsd_f; then
		fservers="$fservers usernfsd"
	else
		say "flavors: usernfsd did not start: $(tail -n 3 "$VU_LOG" | tr '\n' ' ')"
		kv usernfsd_flavors.error "usernfsd --keytab did not start: $(tail -n 1 "$VU_LOG")"
	fi
	[ -z "$K_UP" ] || say "flavors: knfsd serves $(cat /proc/fs/nfsd/versions 2>/dev/null)"
	for s in $fservers; do
		for f in $flavors; do
			for v in $versions; do
				d=$(vexport "$s")/${f}_v${v//./}
				mkdir -p "$d" && chown 1:1 "$d" || { say "flavors: cannot make $d"; return 1; }
			done
		done
	done
	if [ -n "$K_UP" ] && [ -n "$V4" ]; then
		i=$(( K_T0 + 15 - $(date +%s) ))
		[ "$i" -le 0 ] || { say "flavors: waiting ${i} s for knfsd's grace period to end"; sleep "$i"; }
	fi
	kv flavors.dd_mib "$dd_mib"
	kv flavors.meta_files "$meta_n"
	say "flavors: $flavors over NFS $versions; servers:$(for s in $fservers; do printf ' %s' "$s"; done); $reps rounds of fsmeta -n $meta_n -k $meta_k, then dd $dd_mib MiB on each, as uid 1"
	for rep in $(seq "$reps"); do
		targets=() tags=()
		# a flavor's and version's two mounts side by side, which one
		# first alternating by round (dd goes in this order)
		order=$fservers
		[ $((rep % 2)) -eq 1 ] || order=$(tr ' ' '\n' <<<"$fservers" | tac | tr '\n' ' ')
		for f in $flavors; do
			for v in $versions; do
				for s in $order; do
					t=$(ftag "$s" "$f" "$v")
					[[ " $DEAD " != *" $t "* ]] || continue
					m=$mnt-$t
					mkdir -p "$m"
					if ! out=$(vmount "$s" "$v" "$m" "sec=$f"); then
						say "$t: mount failed: $out"
						kv "$t.error" "round $rep: mount failed: $out"
						[ "$rep" -gt 1 ] || vdiag "$s"
						continue
					fi
					if ! grep -q " $m nfs4\\? .*vers=${v},.*sec=$f," /proc/mounts; then
						say "$t: mounted, but not as version $v with sec=$f: $(grep " $m " /proc/mounts)"
						kv "$t.error" "round $rep: mounted, but not as version $v with sec=$f"
						umount "$m"
						continue
					fi
					[ "$rep" -gt 1 ] ||
						say "$t: mounted: $(grep " $m " /proc/mounts | sed 's/.*\(vers=[0-9.]*\).*\(rsize=[0-9]*\),\(wsize=[0-9]*\).*\(sec=[a-z0-9]*\).*/\1 \2 \3 \4/')"
					d=$m/${f}_v${v//./}
					targets+=("$t=$d")
					tags+=("$t:$s:$m:$d")
				done
			done
		done
		[ ${#targets[@]} -gt 0 ] || break
		sync
		vfsmeta "$rep"
		for i in "${tags[@]}"; do
			IFS=: read -r t s m d <<<"$i"
			[[ " $DEAD " != *" $t "* ]] || continue
			vdd "$t" "$d" "$rep" || { DEAD="$DEAD $t"; vdiag "$s"; }
		done
		for i in "${tags[@]}"; do
			IFS=: read -r t _ m _ <<<"$i"
			read -r r to <<<"$(retrans_of "$m")"
			rec "$t" "$rep" rpc_retrans "$r"
			[ "$r$to" = 00 ] || say "$t ($rep/$reps): $r RPC retransmissions, $to major timeouts"
			umount "$m" 2>/dev/null || umount -f -l "$m" || say "umount $m failed"
		done
	done
	report_medians "$REPS_FILE"
	REPS_FILE=
	flavor_logs
	[ ! -s "$work/uf.pid" ] || kill -TERM "$(cat "$work/uf.pid")" 2>/dev/null
}

# What the servers said of GSS over the whole run: usernfsd's counters
# (calls by flavor, contexts, failures by reason) and the GSS lines in its
# log; rpc.svcgssd's errors; the kernel's RPC and GSS messages.
flavor_logs() {
	local ctl k v n
	ctl=$(dirname "$daemon")/usernfsctl
	if [ -x "$ctl" ] && [ -S "$work/uf.sock" ]; then
		"$ctl" -s "$work/uf.sock" stats >"$work/uf.stats" 2>&1
		sed 's/^/guest-bench: usernfsd stats: /' "$work/uf.stats"
		while read -r k v; do
			case $k in
			calls_auth_sys|calls_krb5|calls_krb5i|calls_krb5p|gss_*) kv "flavors.usernfsd.$k" "$v" ;;
			esac
		done <"$work/uf.stats"
	fi
	n=$(grep -ciE 'gss|kerberos|krb5' "$VU_LOG")
	kv flavors.usernfsd.log_errors "$n"
	grep -iE 'gss|kerberos|krb5' "$VU_LOG" | tail -n 20 | sed 's/^/guest-bench: usernfsd log: /'
	if [ -s "$work/svcgssd.log" ]; then
		n=$(grep -ciE 'error|fail|unable|WARN' "$work/svcgssd.log")
		kv flavors.knfsd.log_errors "$n"
		grep -iE 'error|fail|unable|WARN' "$work/svcgssd.log" | tail -n 20 | sed 's/^/guest-bench: rpc.svcgssd: /'
		say "flavors: rpc.svcgssd logged $(wc -l <"$work/svcgssd.log") lines, $n of them errors"
	fi
	n=$(grep -ciE 'error|fail|unable' "$work/gssd.log")
	say "flavors: rpc.gssd logged $(wc -l <"$work/gssd.log") lines, $n with error, fail or unable"
	grep -iE 'error|fail|unable' "$work/gssd.log" | tail -n 10 | sed 's/^/guest-bench: rpc.gssd: /'
	dmesg | grep -iE 'rpc|gss|krb5|nfs' | grep -vE 'Registered|Registering|drop_caches|ommand line|Installing knfsd|NFSD: Using' |
		tail -n 20 | sed 's/^/guest-bench: dmesg: /'
}

# ---- read delegations (-D FILES): usernfsd with and without, knfsd with
# and without, nfs-ganesha, each mounted alone in its turn (issue 29) ----

deleg_kib=16 deleg_per_dir=100

deleg_server() {   # deleg_server MODE: the server as vports, vmount and vexport name it
	case $1 in
	usernfsd_deleg_on) echo usernfsd ;;
	usernfsd_deleg_off) echo usernfsd_off ;;
	knfsd_*) echo knfsd ;;
	*) echo ganesha ;;
	esac
}

# deleg_mktree DIR: deleg_n files of deleg_kib KiB, deleg_per_dir a
# directory, made through the mount with bash's builtins (no process per
# file: a process start costs ~0.1 s here). Run by a bash of its own,
# under timeout (export -f), with those three in its environment.
# shellcheck disable=SC2317 # (called by that bash)
deleg_mktree() {
	local d=$1 i j n=0 blk
	printf -v blk '%*s' $((deleg_kib * 1024)) ''
	mkdir "$d" || return 1
	for ((i = 0; n < deleg_n; i++)); do
		mkdir "$d/d$i" || return 1
		for ((j = 0; j < deleg_per_dir && n < deleg_n; j++, n++)); do
			printf '%s' "$blk" >"$d/d$i/f$j" || return 1
		done
	done
}

# dsecs T0 T1: seconds from one $EPOCHREALTIME to another, 3 decimals
dsecs() {
	local a=${1//[.,]/} b=${2//[.,]/} d
	d=$((10#$b - 10#$a))
	printf '%d.%03d' $((d / 1000000)) $((d % 1000000 / 1000))
}

# ops_of MOUNTPOINT: "N OP CALLS" for each operation the client counts on
# the mount (mountstats: the first number of each per-op line; N its place)
ops_of() {
	awk -v m="$1" '$1 == "device" { on = ($5 == m) }
		on && $1 ~ /^[A-Z_0-9]+:$/ && NF >= 9 { print ++n, substr($1, 1, length($1) - 1), $2 }' /proc/self/mountstats
}

# ops_diff BEFORE AFTER (ops_of's): "rpcs N" (every operation), then the
# ones a delegation spares or brings, lower case (open: OPEN and
# OPEN_NOATTR, the client's open by file handle); then "all OP=N,..."
# (those that changed)
ops_diff() {
	awk 'FILENAME == ARGV[1] { b[$1] = $3; next }
	{ d = $3 - b[$1]; t += d; c[$2 == "OPEN_NOATTR" ? "OPEN" : $2] += d; if (d) a = a (a == "" ? "" : ",") $2 "=" d }
	END {
		printf "rpcs %d\n", t
		n = split("OPEN CLOSE READ GETATTR LOOKUP ACCESS READDIR DELEGRETURN", o, " ")
		for (i = 1; i <= n; i++) printf "%s %d\n", tolower(o[i]), c[o[i]]
		printf "all %s\n", (a == "" ? "-" : a)
	}' "$1" "$2"
}

# deleg_counters SERVER: "KEY VALUE" lines: usernfsd's delegation and
# callback counters (usernfsctl stats); knfsd's delegations held now
deleg_counters() {
	local ctl
	ctl=$(dirname "$daemon")/usernfsctl
	case $1 in
	usernfsd|usernfsd_off)
		[ -x "$ctl" ] || return 0
		"$ctl" -s "$work/uv$([ "$1" = usernfsd_off ] && echo -off).sock" stats 2>/dev/null |
			awk '$1 ~ /^(delegations|callbacks)_/ && NF == 2 { print $1, $2 }' ;;
	knfsd)
		# (cat: each client's file; none is "0")
		echo "delegations_held $(cat /proc/fs/nfsd/clients/*/states 2>/dev/null | grep -c 'type: deleg')" ;;
	esac
}

cget() { awk -v k="$2" '$1 == k { v = $2 } END { print v + 0 }' "$1"; }   # cget FILE KEY
dval() { awk -v s="$1" -v k="$2" '$1 == s && $2 == k { v = $3 } END { print v }' "$REPS_FILE"; }   # dval MODE KEY

deleg_pass() {   # deleg_pass MODE REP PASS DIR MOUNTPOINT: read every file, then stat every file, timed
	local mode=$1 rep=$2 p=$3 dir=$4 m=$5 t0 t1 t2 out n k v s
	ops_of "$m" >"$work/ops0"
	t0=$EPOCHREALTIME
	if ! out=$(timeout -s KILL 900 find "$dir" -type f -exec cat {} + 2>&1 >/dev/null); then
		say "$mode ($rep/$reps): pass $p: reading the files failed: $out"
		kv "$mode.error" "round $rep: pass $p: reading the files failed: $(tail -n 1 <<<"$out")"
		return 1
	fi
	t1=$EPOCHREALTIME
	if ! out=$(timeout -s KILL 900 ls -lR "$dir" 2>&1 >"$work/ls.out"); then
		say "$mode ($rep/$reps): pass $p: ls -lR failed: $out"
		kv "$mode.error" "round $rep: pass $p: ls -lR failed: $(tail -n 1 <<<"$out")"
		return 1
	fi
	t2=$EPOCHREALTIME
	ops_of "$m" >"$work/ops1"
	n=$(grep -c '^-' "$work/ls.out")
	if [ "$n" != "$deleg_n" ]; then
		kv "$mode.error" "round $rep: pass $p: ls -lR listed $n files, not $deleg_n"
		return 1
	fi
	s=$(dsecs "$t0" "$t2")
	rec "$mode" "$rep" "pass$p.s" "$s"
	rec "$mode" "$rep" "pass$p.read_s" "$(dsecs "$t0" "$t1")"
	rec "$mode" "$rep" "pass$p.stat_s" "$(dsecs "$t1" "$t2")"
	rec "$mode" "$rep" "pass$p.ops_s" "$(awk -v n="$deleg_n" -v s="$s" 'BEGIN { printf "%.1f", (s > 0 ? 2 * n / s : 0) }')"
	while read -r k v; do
		if [ "$k" = all ]; then
			say "delegations round $rep/$reps: $mode: pass $p: the client's RPCs: $v"
		else
			rec "$mode" "$rep" "pass$p.$k" "$v"
		fi
	done <<<"$(ops_diff "$work/ops0" "$work/ops1")"
}

# deleg_end MOUNTPOINT LOCALDIR: umount, remove the tree on the tmpfs,
# leases back on
deleg_end() {
	timeout -s KILL 300 umount "$1" 2>/dev/null || umount -f -l "$1" || say "umount $1 failed"
	rm -rf "$2"
	echo 1 >/proc/sys/fs/leases-enable
}

deleg_one() {   # deleg_one MODE REP: mount, make the tree, drop_caches, pass 1, pass 2, umount
	local mode=$1 rep=$2 s m d l out t0 t1 k le=1 what
	s=$(deleg_server "$mode")
	m=$mnt-$mode
	d=$m/$mode.r$rep
	l=$(vexport "$s")/$mode.r$rep
	# knfsd's delegations are kernel leases: with leases off it grants none
	[ "$mode" != knfsd_deleg_off ] || le=0
	echo "$le" >/proc/sys/fs/leases-enable ||
		{ kv "$mode.error" "round $rep: cannot write /proc/sys/fs/leases-enable"; return 1; }
	mkdir -p "$m"
	if ! out=$(vmount "$s" 4.2 "$m"); then
		say "$mode: mount failed: $out"
		kv "$mode.error" "round $rep: mount failed: $out"
		echo 1 >/proc/sys/fs/leases-enable
		return 1
	fi
	if ! grep -q " $m nfs4 .*vers=4\\.2," /proc/mounts; then
		say "$mode: mounted, but not as version 4.2: $(grep " $m " /proc/mounts)"
		kv "$mode.error" "round $rep: mounted, but not as version 4.2"
		deleg_end "$m" "$l"
		return 1
	fi
	[ "$rep" -gt 1 ] || say "$mode: mounted: $(grep " $m " /proc/mounts | cut -d' ' -f4)"
	deleg_counters "$s" >"$work/dc0"
	t0=$EPOCHREALTIME
	# shellcheck disable=SC2016 # "$1" is that bash's
	if ! out=$(deleg_n=$deleg_n deleg_kib=$deleg_kib deleg_per_dir=$deleg_per_dir \
		timeout -s KILL 900 bash -c 'deleg_mktree "$1"' _ "$d" 2>&1); then
		say "$mode ($rep/$reps): making the files failed: $out"
		kv "$mode.error" "round $rep: making the files failed: $(tail -n 1 <<<"$out")"
		deleg_end "$m" "$l"
		return 1
	fi
	t1=$EPOCHREALTIME
	rec "$mode" "$rep" create.s "$(dsecs "$t0" "$t1")"
	[ "$deleg_wait" -eq 0 ] || sleep "$deleg_wait"
	# cold for pass 1 (the client's pages, attributes and names); not
	# again before pass 2
	drop_caches
	deleg_pass "$mode" "$rep" 1 "$d" "$m" || { deleg_end "$m" "$l"; return 1; }
	deleg_counters "$s" >"$work/dc1"
	deleg_pass "$mode" "$rep" 2 "$d" "$m" || { deleg_end "$m" "$l"; return 1; }
	deleg_counters "$s" >"$work/dc2"
	deleg_end "$m" "$l"
	deleg_counters "$s" >"$work/dc3"
	case $s in
	usernfsd|usernfsd_off)
		# over the mode, up to after the umount (the client returns what it holds)
		for k in granted recalled returned revoked; do
			rec "$mode" "$rep" "deleg.$k" $(( $(cget "$work/dc3" "delegations_$k") - $(cget "$work/dc0" "delegations_$k") ))
		done
		rec "$mode" "$rep" deleg.granted_pass2 $(( $(cget "$work/dc2" delegations_granted) - $(cget "$work/dc1" delegations_granted) ))
		rec "$mode" "$rep" deleg.returned_early $(( $(cget "$work/dc2" delegations_returned) - $(cget "$work/dc0" delegations_returned) ))
		rec "$mode" "$rep" callbacks.sent $(( $(cget "$work/dc3" callbacks_sent) - $(cget "$work/dc0" callbacks_sent) ))
		what="granted $(dval "$mode" deleg.granted) (pass 2: $(dval "$mode" deleg.granted_pass2)), returned $(dval "$mode" deleg.returned) ($(dval "$mode" deleg.returned_early) before the umount), recalled $(dval "$mode" deleg.recalled), revoked $(dval "$mode" deleg.revoked)" ;;
	knfsd)
		rec "$mode" "$rep" deleg.held_pass1 "$(cget "$work/dc1" delegations_held)"
		rec "$mode" "$rep" deleg.held_pass2 "$(cget "$work/dc2" delegations_held)"
		what="held after pass 1 $(dval "$mode" deleg.held_pass1), after pass 2 $(dval "$mode" deleg.held_pass2)" ;;
	*) what="not counted (the server's side)" ;;
	esac
	say "delegations round $rep/$reps: $mode: create $(dval "$mode" create.s) s;" \
		"pass 1 $(dval "$mode" pass1.s) s (read $(dval "$mode" pass1.read_s), stat $(dval "$mode" pass1.stat_s));" \
		"pass 2 $(dval "$mode" pass2.s) s (read $(dval "$mode" pass2.read_s), stat $(dval "$mode" pass2.stat_s)), $(dval "$mode" pass2.ops_s) ops/s;" \
		"RPCs pass 1 $(dval "$mode" pass1.rpcs) (OPEN $(dval "$mode" pass1.open), GETATTR $(dval "$mode" pass1.getattr), READ $(dval "$mode" pass1.read)), pass 2 $(dval "$mode" pass2.rpcs) (OPEN $(dval "$mode" pass2.open), GETATTR $(dval "$mode" pass2.getattr), READ $(dval "$mode" pass2.read));" \
		"delegations: $what"
}

# What the servers said over the whole part: usernfsd's counters (both
# instances) and log lines, knfsd's and the client's kernel messages
deleg_logs() {
	local ctl sfx t k v
	ctl=$(dirname "$daemon")/usernfsctl
	for sfx in '' -off; do
		t=usernfsd_deleg_on
		[ -z "$sfx" ] || t=usernfsd_deleg_off
		if [ -x "$ctl" ] && [ -S "$work/uv$sfx.sock" ]; then
			"$ctl" -s "$work/uv$sfx.sock" stats >"$work/uv$sfx.stats" 2>&1
			sed "s/^/guest-bench: usernfsd stats ($t): /" "$work/uv$sfx.stats"
			while read -r k v; do
				case $k in
				delegations_*|callbacks_*) kv "delegations.$t.$k" "$v" ;;
				esac
			done <"$work/uv$sfx.stats"
		fi
		[ -f "$work/usernfsd-v$sfx.log" ] || continue
		kv "delegations.$t.log_lines" "$(wc -l <"$work/usernfsd-v$sfx.log")"
		tail -n 20 "$work/usernfsd-v$sfx.log" | sed "s/^/guest-bench: usernfsd log ($t): /"
	done
	dmesg | grep -iE 'nfs|rpc|deleg|lease' | grep -vE 'Registered|Registering|drop_caches|ommand line|Installing knfsd|NFSD: Using' |
		tail -n 20 | sed 's/^/guest-bench: dmesg: /'
}

deleg_runs() {
	local rep i mode modes=() leases0 n
	REPS_FILE=$work/dreps DEAD='' SECTION=delegations
	: >"$REPS_FILE"
	export -f deleg_mktree
	if ! leases0=$(cat /proc/sys/fs/leases-enable 2>/dev/null); then
		say "delegations: no /proc/sys/fs/leases-enable"
		kv delegations.error "no /proc/sys/fs/leases-enable in the guest"
		return 1
	fi
	mkdir -p "$exp/vk" "$exp/vu" "$exp/vg"
	if start_usernfsd_v; then
		modes+=(usernfsd_deleg_on)
	else
		say "delegations: usernfsd did not start: $(tail -n 3 "$work/usernfsd-v.log" | tr '\n' ' ')"
		kv usernfsd_deleg_on.error "usernfsd --nfs-versions 3,4.1,4.2 did not start"
	fi
	if start_usernfsd_v -off $U_OFF_NFS $U_OFF_MNT --no-delegations; then
		modes+=(usernfsd_deleg_off)
	else
		say "delegations: usernfsd --no-delegations did not start: $(tail -n 3 "$work/usernfsd-v-off.log" | tr '\n' ' ')"
		kv usernfsd_deleg_off.error "usernfsd --no-delegations did not start"
	fi
	[ -z "$K_UP" ] || modes+=(knfsd_deleg_on knfsd_deleg_off)
	GANESHA_ERR='' G_PID=''
	if start_ganesha; then
		modes+=(ganesha)
	else
		say "delegations: nfs-ganesha could not be started: $GANESHA_ERR"
		kv ganesha.error "cannot start nfs-ganesha: $GANESHA_ERR"
	fi
	if [ -n "$K_UP" ]; then
		say "delegations: knfsd serves $(cat /proc/fs/nfsd/versions 2>/dev/null), lease $(cat /proc/fs/nfsd/nfsv4leasetime 2>/dev/null) s"
		kv delegations.knfsd_lease_s "$(cat /proc/fs/nfsd/nfsv4leasetime 2>/dev/null)"
		# its NFSv4 grace period (10 s from its start): OPENs wait it out
		i=$(( K_T0 + 15 - $(date +%s) ))
		[ "$i" -le 0 ] || { say "delegations: waiting ${i} s for knfsd's grace period to end"; sleep "$i"; }
	fi
	n=$(( (deleg_n + deleg_per_dir - 1) / deleg_per_dir ))
	kv delegations.files "$deleg_n"
	kv delegations.file_kib "$deleg_kib"
	kv delegations.dirs "$n"
	kv delegations.wait_s "$deleg_wait"
	kv delegations.lo_delay_ms "$deleg_delay"
	if [ "$deleg_delay" != 0 ]; then
		if ! { modprobe sch_netem && tc qdisc add dev lo root netem delay "${deleg_delay}ms"; } >"$work/tc.out" 2>&1; then
			say "delegations: cannot delay lo by $deleg_delay ms: $(tr '\n' ' ' <"$work/tc.out")"
			kv delegations.error "cannot delay lo (tc netem): $(tr '\n' ' ' <"$work/tc.out")"
			return 1
		fi
		say "delegations: every packet on lo delayed $deleg_delay ms (netem; $(tc qdisc show dev lo | head -n 1))"
	fi
	say "delegations: $deleg_n files of $deleg_kib KiB in $n directories, NFSv4.2, default caching; ${deleg_wait} s between making them and pass 1; modes: ${modes[*]}; $reps rounds (the modes one after the other, the first rotating)"
	for rep in $(seq "$reps"); do
		for ((i = 0; i < ${#modes[@]}; i++)); do
			mode=${modes[(i + rep - 1) % ${#modes[@]}]}
			[[ " $DEAD " != *" $mode "* ]] || continue
			if ! deleg_one "$mode" "$rep"; then
				DEAD="$DEAD $mode"
				say "$mode: dropped from the runs; its server's log:"
				vdiag "$(deleg_server "$mode")"
			fi
		done
	done
	echo "$leases0" >/proc/sys/fs/leases-enable
	[ "$deleg_delay" = 0 ] || tc qdisc del dev lo root 2>/dev/null
	report_medians "$REPS_FILE"
	REPS_FILE=
	deleg_logs
	[ -z "$G_PID" ] || { kill -TERM "$G_PID" 2>/dev/null; wait "$G_PID" 2>/dev/null; }
	for i in "$work/uv.pid" "$work/uv-off.pid"; do
		[ ! -s "$i" ] || kill -TERM "$(cat "$i")" 2>/dev/null
	done
}

# /tmp is half the guest's 1 GiB: too small for bonnie's 512 MiB file
mkdir -p "$exp" "$work/state" "$mnt"
: >"$work/reps"
mount -t tmpfs -o size=700m benchfs "$exp" || { say "cannot mount a tmpfs on $exp"; exit 1; }
mkdir -p "$exp/k" "$exp/u"
[ -z "$versions" ] || mkdir -p "$exp/vk" "$exp/vu" "$exp/vg"   # before knfsd exports them
modprobe nfs && modprobe nfsv3 || { say "no NFS client in the guest kernel"; exit 1; }

DISK=
[ -n "$only_versions" ] || setup_disk
[ -n "$only_versions" ] ||
say "knfsd on $exp/k (port $K_NFS), usernfsd on $exp/u (port $U_NFS); dd ${dd_mib} MiB; bonnie++ ${bonnie_args[*]}; $reps repetitions"
[ -z "$versions" ] || modprobe nfsv4 || say "no nfsv4 module in the guest kernel"
KNFSD_ERR='' K_UP='' U_UP=''
# (-F) rpc.gssd and rpc.svcgssd before knfsd
[ -z "$flavors" ] || flavor_setup || exit 0
if start_knfsd; then
	K_UP=1
else
	say "knfsd could not be started here: $KNFSD_ERR (continuing with usernfsd)"
	kv knfsd.error "cannot start knfsd: $KNFSD_ERR"
fi
# Both run from here on (on different ports), for the ext4 runs' turns and
# the tmpfs runs'; each stays idle while the other is measured.
if [ -n "$only_versions" ]; then
	if [ -n "$deleg_n" ]; then deleg_runs; elif [ -n "$flavors" ]; then flavor_runs; else version_runs; fi
	[ -z "$K_UP" ] || rpc.nfsd 0 >/dev/null 2>&1
	exit 0
fi
if start_usernfsd; then
	U_UP=1
else
	say "usernfsd did not start: $(tail -n 3 "$work/usernfsd.log" | tr '\n' ' ')"
	kv usernfsd.error "usernfsd did not start"
fi
disk_runs
tmpfs_runs
version_runs
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
