#!/bin/bash
# Runs inside the QEMU guest (see run-guest): the Linux kernel's NFSv4.0,
# 4.1 and 4.2 client against usernfsd, one boot for the whole battery.
#   kernel-v4.sh USERNFSD LOCKTOOL USERNFSCTL
# The server lives in network, mount and UTS namespaces of its own, joined
# to the guest's by a veth pair, behind an nftables wall that lets in TCP
# 2049 and nothing else: no rpcbind, no MOUNT, no NLM, no NSM. What works
# through it is what a v4 client really needs.
#   server  v4server 192.168.78.1   usernfsd --nfs-versions 3,4
#   client  v4client 192.168.78.2   the guest's root namespace
# Checks: a mount with no vers= picks 4.2; vers=4.1 mounts; the pseudo
# file system from "/" down to the export; reading the tree back (OPEN,
# READ, CLOSE, READDIR of 2000 names, symlinks); the POSIX workout (create,
# append, truncate, rename, link, symlink, mkdir/rmdir, chmod, chown, utime,
# mkfifo, unlink) with the server's file system checked after, over 4.1 and
# again over 4.0 and 4.2; a 24 MB file
# written and read back; tar extracted and compared; rm -rf; the server's
# v3 and MOUNT ports unreachable through the wall; byte-range locks
# (LOCK, LOCKT, LOCKU) between two guest processes, against a process on
# the server host, a waiter that polls its way in, and flock; a server
# killed (SIGKILL) and started again while the guest holds a file open
# and a lock on it: the client reclaims both in the grace period (the
# lock keeps a server process out again), and the grace period ends as
# soon as that client said RECLAIM_COMPLETE; NFSv4.0 (RFC 7530) beside
# the 4.1 mount, a client of its own (SETCLIENTID, OPEN_CONFIRM, open and
# lock owner seqids): its locks, 4.1's and a server process's exclude
# each other both ways, read locks share, a second 4.0 lock owner locks
# beside the first, a 4.0 waiter polls its way in (DENIED, then
# granted), and a second SIGKILL and restart while a 4.0 process
# holds a file open for writing and another a lock: both reclaimed, the
# writes go on in the grace period, which runs its full length (a 4.0
# client never says RECLAIM_COMPLETE: a new 4.1 lock waits it out); the
# server counts SETCLIENTID, SETCLIENTID_CONFIRM, OPEN_CONFIRM and, once
# the 4.0 client sat idle, RENEW; NFSv4.2's SEEK_DATA/SEEK_HOLE, fallocate, hole
# punching and copy_file_range reaching the server as SEEK, ALLOCATE,
# DEALLOCATE and COPY (its statistics say so); with the wall lowered, a v3
# mount's NLM locks and a v4.1 mount's, and a v4.0 mount's, exclude each
# other both ways; a 4.1 and a 4.0 client cut off from the server (at
# once, one wait) lose their locks once their lease (--lease-time 10) is
# over. Read delegations: a v4.1 read open gets one (the statistics say
# so); a v4.0 client's write, a v3 client's write and a process on the
# server that opens the file for writing each recall it, go on once it is
# returned (well before the kernel's 45 s lease-break time), and the v4.1
# client then reads what they wrote; so do a v3 chmod and a v4.0 rename
# and remove of a delegated file; a v4.0 client gets one too, recalled on
# its callback address; a client that falls silent loses its
# delegation after the lease, and the writer it held back goes on.
set -u
daemon=$1
# Every lock call gives up after 30 s (status 142).
LTT=("$2" -t 30)
ctl=$3
work=/tmp/kv4
exp=$work/export
mnt=$work/mnt
log=$work/usernfsd.log
SRV=192.168.78.1
# The grace period after a restart: only clients with records have one.
GRACE=10
# A short lease, so that a client that vanishes loses its locks within the test.
LEASE=10

. "$(dirname "$0")/guest-lib.sh"
counted_checks kernel-v4
diag() {
	echo "---- daemon log"
	tail -n 40 "$log" 2>/dev/null
	dmesg | tail -n 20
}
snooze_setup

modprobe nfs && modprobe nfsv4 || fatal "no nfsv4 module"
mkdir -p "$exp" "$mnt" "$work/state" "$work/root"

step "building the export"
mkdir -p "$exp/a/b" "$exp/big"
head -c 1 /dev/urandom >"$exp/one"
head -c 4097 /dev/urandom >"$exp/page-plus-one"
head -c 3000000 /dev/urandom >"$exp/a/b/three-megs"
printf '' >"$exp/empty"
ln -s three-megs "$exp/a/b/rel-link"
(cd "$exp/big" && seq -f 'entry-%05g' 1 2000 | xargs touch)
(cd "$exp" && find . -path ./big -prune -o -type f -print0 | sort -z | xargs -0 sha256sum) >"$work/want.sum"
echo "$exp 192.168.78.2(rw,no_root_squash,insecure)" >"$work/exports"
# An ext4 export too, for NFSv4.2's extended attributes: this kernel's
# tmpfs keeps no user. attributes (tmpfs has them from Linux 6.6). The
# host made it (integ_kernel_v4.sh): the first virtio disk.
xexp=$work/xexp
mkdir -p "$xexp"
if modprobe virtio_blk && sleep 0.5 && mount -t ext4 /dev/vda "$xexp" 2>"$work/mkfs.out"; then
	echo "$xexp 192.168.78.2(rw,no_root_squash,insecure)" >>"$work/exports"
else
	bad "no ext4 export for the extended attributes (/dev/vda)" "$work/mkfs.out"
fi

step "the server behind a wall that admits TCP 2049 only"
server_netns v4 v4client v4server 192.168.78.2 "$SRV"
srv nft -f - <<'EOF' || fatal "nftables"
table inet wall {
	chain input {
		type filter hook input priority 0; policy drop;
		iif lo accept
		ct state established,related accept
		tcp dport 2049 accept
	}
}
EOF
srv_daemon "$work/pid" "$log" 10 --state-dir "$work/state" --nfs-versions 3,4 \
	--lease-time "$LEASE" || fatal "usernfsd did not start"

# mnt_opts DIR: the options /proc/mounts shows for DIR
mnt_opts() { awk -v d="$1" '$2 == d { print $4 }' /proc/mounts; }
# op_count OP: OP's calls in $work/stats (usernfsctl stats), 0 when it has none
op_count() { awk -v op="$1" '$1 == op { n = $2 } END { print n + 0 }' "$work/stats"; }

# posix_workout DIR TAG: the POSIX calls a program makes, in DIR (made here,
# left for what follows), each checked; on the server as $exp/DIR's name
posix_workout() {
	local w=$1 t=$2
	step "POSIX workout ($t)"
	mkdir "$w"
	expect 0 $? "$t: mkdir"
	{ echo hello >"$w/f" && echo more >>"$w/f"; } 2>"$work/err"
	expect 0 $? "$t: create and append" "$work/err"
	[ "$(cat "$w/f")" = "$(printf 'hello\nmore')" ]
	expect 0 $? "$t: content"
	truncate -s 3 "$w/f" && [ "$(cat "$w/f")" = hel ]
	expect 0 $? "$t: truncate down"
	truncate -s 100000 "$w/f" && [ "$(stat -c %s "$w/f")" -eq 100000 ]
	expect 0 $? "$t: truncate up"
	mv "$w/f" "$w/g" && [ ! -e "$w/f" ] && [ -f "$w/g" ]
	expect 0 $? "$t: rename"
	ln "$w/g" "$w/h" && [ "$(stat -c %h "$w/g")" -eq 2 ]
	expect 0 $? "$t: hard link"
	ln -s g "$w/s" && [ "$(readlink "$w/s")" = g ] && [ "$(head -c 3 "$w/s")" = hel ]
	expect 0 $? "$t: symlink"
	mkdir -p "$w/d/e/f" && rmdir "$w/d/e/f" "$w/d/e" "$w/d" && [ ! -e "$w/d" ]
	expect 0 $? "$t: mkdir -p, rmdir"
	mkdir "$w/full" && touch "$w/full/x" && ! rmdir "$w/full" 2>/dev/null
	expect 0 $? "$t: rmdir of a directory that is not empty fails"
	chmod 640 "$w/g" && [ "$(stat -c %a "$w/g")" = 640 ]
	expect 0 $? "$t: chmod"
	chown 1234:5678 "$w/g" && [ "$(stat -c %u:%g "$w/g")" = 1234:5678 ]
	expect 0 $? "$t: chown (numeric owner strings)"
	touch -d '2001-02-03 04:05:06 UTC' "$w/g" && [ "$(stat -c %Y "$w/g")" = 981173106 ]
	expect 0 $? "$t: utime"
	mkfifo "$w/fifo" && [ -p "$w/fifo" ]
	expect 0 $? "$t: mkfifo"
	rm "$w/h" "$w/s" "$w/fifo" && [ "$(stat -c %h "$w/g")" -eq 1 ]
	expect 0 $? "$t: unlink"
	[ "$(stat -c %u:%g:%a:%s "$exp/${w##*/}/g")" = 1234:5678:640:100000 ]
	expect 0 $? "$t: the server's file system holds what the client did"
}

step "a mount with no vers= takes the newest version"
if timeout 60 mount -t nfs "$SRV:$exp" "$mnt" 2>"$work/err"; then
	case ,$(mnt_opts "$mnt"), in
	*,vers=4.2,*) ok "mounted as NFSv4.2" ;;
	*) bad "mounted, but not as 4.2: $(mnt_opts "$mnt")" ;;
	esac
	umount "$mnt"
else
	bad "mount with no vers=" "$work/err"
fi

step "vers=4.1"
timeout 60 mount -t nfs -o vers=4.1,noac,lookupcache=none "$SRV:$exp" "$mnt" 2>"$work/err" ||
	{ bad "mount vers=4.1" "$work/err"; fatal "no v4.1 mount"; }
case ,$(mnt_opts "$mnt"), in
*,vers=4.1,*) ok "mounted as NFSv4.1" ;;
*) bad "not 4.1: $(mnt_opts "$mnt")" ;;
esac

step "reading the tree back"
drop_caches
(cd "$mnt" && timeout 120 sha256sum -c --quiet "$work/want.sum") >"$work/out" 2>&1
expect 0 $? "every file reads back as written" "$work/out"
[ "$(readlink "$mnt/a/b/rel-link")" = three-megs ]
expect 0 $? "READLINK"
cmp -s "$mnt/a/b/rel-link" "$exp/a/b/three-megs"
expect 0 $? "read through a symlink"
timeout 60 ls "$mnt/big" >"$work/listing" 2>&1
[ "$(wc -l <"$work/listing")" -eq 2000 ] && [ "$(sort -u "$work/listing" | wc -l)" -eq 2000 ]
expect 0 $? "READDIR: 2000 names, each once" "$work/listing"
[ "$(stat -c %s "$mnt/a/b/three-megs")" -eq 3000000 ]
expect 0 $? "size"
[ "$(stat -c %F "$mnt/a")" = directory ] && [ "$(stat -c %F "$mnt/empty")" = "regular empty file" ]
expect 0 $? "types"

posix_workout "$mnt/work" v4.1
w=$mnt/work

step "a 24 MB file written and read back"
head -c 24000000 /dev/urandom >"$work/large"
timeout 300 cp "$work/large" "$w/large" && sync
expect 0 $? "write"
drop_caches
cmp -s "$work/large" "$w/large"
expect 0 $? "read back through the client"
cmp -s "$work/large" "$exp/work/large"
expect 0 $? "the file on the server"

step "tar extract and compare"
tar -C /usr/include -cf "$work/src.tar" tirpc rpcsvc
mkdir "$w/tree" && timeout 300 tar -C "$w/tree" -xf "$work/src.tar"
expect 0 $? "tar extract"
drop_caches
diff -r /usr/include/tirpc "$w/tree/tirpc" >"$work/out" 2>&1 &&
	diff -r /usr/include/rpcsvc "$w/tree/rpcsvc" >>"$work/out" 2>&1
expect 0 $? "extracted tree matches" "$work/out"

step "byte-range locks"
lf=$w/lockfile
echo data >"$lf"
bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$lf"
apid=$!
wait_line locked "$work/a.out" 30
expect 0 $? "a guest process takes a write lock (LOCK)" "$work/a.out"
"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
expect 3 $? "another guest process's F_SETLK: EAGAIN (DENIED)" "$work/b.out"
"${LTT[@]}" getlk "$lf" >"$work/b.out" 2>&1
expect 3 $? "its F_GETLK reports the lock (LOCKT)" "$work/b.out"
srv "${LTT[@]}" setlk "$exp/work/lockfile" >"$work/h.out" 2>&1
expect 3 $? "a process on the server host is kept out too" "$work/h.out"
kill "$apid"; wait "$apid"
"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
expect 0 $? "once released (LOCKU), the other process gets it" "$work/b.out"
bg "$work/h.out" "${SRV_NS[@]}" "${LTT[@]}" -h -1 setlk "$exp/work/lockfile"
hpid=$!
wait_line locked "$work/h.out" 10
"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
expect 3 $? "a server process's fcntl lock keeps the guest out" "$work/b.out"
kill "$hpid"; wait "$hpid"
bg "$work/a.out" "${LTT[@]}" -h 2000 setlk "$lf"
apid=$!
wait_line locked "$work/a.out" 30
"${LTT[@]}" setlkw "$lf" >"$work/c.out" 2>&1
expect 0 $? "a waiting F_SETLKW gets the lock once the holder lets go (the client polls)" "$work/c.out"
wait "$apid"
"${LTT[@]}" -r -s 0 -l 10 setlk "$lf" >"$work/b.out" 2>&1
expect 0 $? "a read lock" "$work/b.out"
bg "$work/a.out" "${LTT[@]}" -h -1 flock "$lf"
apid=$!
wait_line locked "$work/a.out" 30
"${LTT[@]}" flock "$lf" >"$work/b.out" 2>&1
expect 3 $? "flock excludes flock (whole-file locks over v4)" "$work/b.out"
kill "$apid"; wait "$apid"

step "a server restart: the client reclaims its open and its lock"
[ "$(wc -l <"$work/state/nfs4-clients" 2>/dev/null)" = 1 ]
expect 0 $? "the client's record is on disk (STATEDIR/nfs4-clients)"
echo "held across a restart" >"$w/held"
exec 3<"$w/held"
bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$lf"
apid=$!
wait_line locked "$work/a.out" 30
kill -KILL "$SRV_PID"; wait "$SRV_PID" 2>/dev/null
# (fd 3 stays the guest's: a daemon holding it would keep the mount busy)
srv_daemon "$work/pid" "$log" 10 --state-dir "$work/state" --nfs-versions 3,4 \
	--lease-time "$LEASE" 3<&- || fatal "usernfsd did not start again"
t0=${EPOCHREALTIME/./}
timeout 60 stat "$mnt" >/dev/null 2>&1	# the client notices, and recovers
[ "$(cat /proc/self/fd/3)" = "held across a restart" ]
expect 0 $? "the file held open reads on (its open reclaimed)"
srv "${LTT[@]}" setlk "$exp/work/lockfile" >"$work/h.out" 2>&1
expect 3 $? "the reclaimed lock keeps a server process out again" "$work/h.out"
timeout 60 sh -c 'echo new >"$1"' sh "$w/after" 2>"$work/err"
expect 0 $? "a new file opened after the restart" "$work/err"
# The only recorded client said RECLAIM_COMPLETE: no need to wait for the rest (8.4.2.1).
if grep -q 'has reclaimed: the grace period ends' "$log"; then
	ok "the grace period ended once the one recorded client had reclaimed ($(( (${EPOCHREALTIME/./} - t0) / 1000000 )) s)"
else
	bad "the grace period did not end early" "$log"
fi
kill "$apid"; wait "$apid"
exec 3<&-
srv "${LTT[@]}" setlk "$exp/work/lockfile" >"$work/h.out" 2>&1
expect 0 $? "released, the lock lets the server process in" "$work/h.out"

# NFSv4.0 (RFC 7530) comes after the 4.1 restart: a recorded 4.0 client
# (it never says RECLAIM_COMPLETE) would keep that grace period from ending
# early. Its mount stays up to the end (the NLM and lease steps use it).
step "vers=4.0 beside the 4.1 mount: a client of its own (SETCLIENTID)"
m40=$work/mnt40
l40=$m40/work/lockfile
v40=
mkdir -p "$m40"
# (noac: writes are synchronous, as on the 4.1 mount)
if timeout 60 mount -t nfs -o vers=4.0,noac,lookupcache=none "$SRV:$exp" "$m40" 2>"$work/err"; then
	case ,$(mnt_opts "$m40"), in
	*,vers=4.0,*) ok "mounted as NFSv4.0"; v40=1 ;;
	*) bad "not 4.0: $(mnt_opts "$m40")"; umount "$m40" ;;
	esac
else
	bad "mount vers=4.0 (the rest of the 4.0 checks are skipped)" "$work/err"
fi

if [ -n "$v40" ]; then
	posix_workout "$m40/work40" v4.0
	timeout 60 rm -rf "$m40/work40" && [ ! -e "$exp/work40" ]
	expect 0 $? "v4.0: rm -rf of the workout"

	step "NFSv4.0 locks against 4.1's, the server host's and a second 4.0 lock owner's"
	bg "$work/a.out" "${LTT[@]}" -s 0 -l 10 -h -1 setlk "$l40"
	apid=$!
	wait_line locked "$work/a.out" 30
	expect 0 $? "a v4.0 process takes a write lock (OPEN, OPEN_CONFIRM, LOCK: a new lock owner)" "$work/a.out"
	# (A conflict between two processes of one client never reaches the server: the client sees it first.)
	"${LTT[@]}" -s 10 -l 10 setlk "$l40" >"$work/b.out" 2>&1
	expect 0 $? "a second v4.0 process (another lock owner, same open owner) locks the next bytes" "$work/b.out"
	"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
	expect 3 $? "it keeps a v4.1 LOCK out (DENIED)" "$work/b.out"
	"${LTT[@]}" getlk "$lf" >"$work/b.out" 2>&1
	expect 3 $? "v4.1's F_GETLK reports it (LOCKT)" "$work/b.out"
	srv "${LTT[@]}" setlk "$exp/work/lockfile" >"$work/h.out" 2>&1
	expect 3 $? "it keeps a process on the server host out" "$work/h.out"
	kill "$apid"; wait "$apid"
	"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
	expect 0 $? "released over v4.0 (LOCKU), v4.1 gets it" "$work/b.out"
	bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$lf"
	apid=$!
	wait_line locked "$work/a.out" 30
	"${LTT[@]}" setlk "$l40" >"$work/b.out" 2>&1
	expect 3 $? "a v4.1 lock keeps a v4.0 LOCK out (DENIED)" "$work/b.out"
	"${LTT[@]}" getlk "$l40" >"$work/b.out" 2>&1
	expect 3 $? "v4.0's F_GETLK reports it (LOCKT)" "$work/b.out"
	kill "$apid"; wait "$apid"
	bg "$work/h.out" "${SRV_NS[@]}" "${LTT[@]}" -h -1 setlk "$exp/work/lockfile"
	hpid=$!
	wait_line locked "$work/h.out" 10
	"${LTT[@]}" setlk "$l40" >"$work/b.out" 2>&1
	expect 3 $? "a server process's fcntl lock keeps a v4.0 LOCK out" "$work/b.out"
	kill "$hpid"; wait "$hpid"
	bg "$work/a.out" "${LTT[@]}" -r -h -1 setlk "$l40"
	apid=$!
	wait_line locked "$work/a.out" 30
	"${LTT[@]}" -r setlk "$lf" >"$work/b.out" 2>&1
	expect 0 $? "a v4.0 read lock and a v4.1 read lock share" "$work/b.out"
	"${LTT[@]}" setlk "$lf" >"$work/b.out" 2>&1
	expect 3 $? "a v4.1 write lock is kept out by the v4.0 read lock" "$work/b.out"
	kill "$apid"; wait "$apid"
	bg "$work/a.out" "${LTT[@]}" -h 2000 setlk "$lf"
	apid=$!
	wait_line locked "$work/a.out" 30
	"${LTT[@]}" setlkw "$l40" >"$work/c.out" 2>&1
	expect 0 $? "a waiting v4.0 F_SETLKW gets the lock once the v4.1 holder lets go (DENIED, retried: the seqids move on)" "$work/c.out"
	wait "$apid"
	srv "$ctl" stats >"$work/stats" 2>&1
	for op in SETCLIENTID SETCLIENTID_CONFIRM OPEN_CONFIRM; do
		n=$(op_count "$op")
		[ "$n" -gt 0 ]
		expect 0 $? "the server counted $op ($n)"
	done

	step "a second restart: a v4.0 client reclaims an open it writes through and a lock, in a full grace period"
	[ "$(wc -l <"$work/state/nfs4-clients" 2>/dev/null)" = 2 ]
	expect 0 $? "two client records on disk, 4.1's and 4.0's (STATEDIR/nfs4-clients)"
	echo "written before the restart" >"$m40/work/held40"
	touch "$w/grace-lock"
	bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$l40"
	apid=$!
	wait_line locked "$work/a.out" 30
	expect 0 $? "a v4.0 lock to hold across the restart" "$work/a.out"
	exec 4>>"$m40/work/held40"
	ends=$(grep -c 'has reclaimed: the grace period ends' "$log")
	kill -KILL "$SRV_PID"; wait "$SRV_PID" 2>/dev/null
	srv_daemon "$work/pid" "$log" 10 --state-dir "$work/state" --nfs-versions 3,4 \
		--lease-time "$LEASE" 4<&- || fatal "usernfsd did not start again"
	t0=${EPOCHREALTIME/./}
	# In ms of CLOCK_BOOTTIME, which is locktool's CLOCK_MONOTONIC in a guest that never sleeps
	read -r up _ </proc/uptime
	up0=$(( ${up/./} * 10 ))
	# A new lock (and its OPEN) from the 4.1 client: refused with GRACE until the grace period is over.
	bg "$work/g.out" timeout 60 "${LTT[@]}" setlk "$w/grace-lock" 4<&-
	gpid=$!
	timeout 60 sh -c 'echo "written in the grace period" >&4 && sync' 2>"$work/err"
	expect 0 $? "the v4.0 process writes on through its open (reclaimed: SETCLIENTID, OPEN CLAIM_PREVIOUS)" "$work/err"
	[ "$(tail -n 1 "$exp/work/held40")" = "written in the grace period" ]
	expect 0 $? "the server's file has what it wrote"
	check_reclaimed "v4.0:" "$exp/work/lockfile" "$apid" "$work/a.out" "$t0" 30
	wait "$gpid"
	grc=$?
	lt=$(sed -n 's/^locked t=\([0-9]*\).*/\1/p' "$work/g.out")
	if [ "$grc" -eq 0 ] && [ -n "$lt" ] && [ $((lt - up0)) -ge $((GRACE * 1000 - 1500)) ]; then
		ok "a new v4.1 lock waited the grace period out: granted $((lt - up0)) ms after the restart (grace $GRACE s)"
	else
		bad "a new v4.1 lock after the restart: exit $grc, granted ${lt:+$((lt - up0)) ms after the restart}${lt:-never} (grace $GRACE s: not before $((GRACE * 1000 - 1500)) ms)" "$work/g.out"
	fi
	[ "$(grep -c 'has reclaimed: the grace period ends' "$log")" = "$ends" ]
	expect 0 $? "the grace period was not cut short (a v4.0 client never says RECLAIM_COMPLETE)"
	kill "$apid"; wait "$apid"
	exec 4>&-
	srv "${LTT[@]}" setlk "$exp/work/lockfile" >"$work/h.out" 2>&1
	expect 0 $? "released over v4.0, the lock lets the server process in" "$work/h.out"
	[ "$(cat "$exp/work/held40")" = "$(printf 'written before the restart\nwritten in the grace period')" ]
	expect 0 $? "closed, the server's file holds both writes" "$exp/work/held40"
fi

step "NFSv4.2: SEEK, ALLOCATE, DEALLOCATE, COPY"
umount "$mnt" 2>/dev/null || umount -l "$mnt"
timeout 60 mount -t nfs -o vers=4.2 "$SRV:$exp" "$mnt" 2>"$work/err" || fatal "no v4.2 mount"
posix_workout "$mnt/work42" v4.2
timeout 60 rm -rf "$mnt/work42" && [ ! -e "$exp/work42" ]
expect 0 $? "v4.2: rm -rf of the workout"
w=$mnt/work
# (python3: the calls themselves, not what a utility makes of them)
python3 - "$w/sparse" >"$work/out" 2>&1 <<'PY'
import os, sys
f = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
os.ftruncate(f, 8 << 20)
os.pwrite(f, b"x" * 65536, 4 << 20)
os.fsync(f)
print("data", os.lseek(f, 0, os.SEEK_DATA), "hole", os.lseek(f, 4 << 20, os.SEEK_HOLE))
PY
grep -q "^data $((4 << 20)) hole $(((4 << 20) + 65536))\$" "$work/out"
expect 0 $? "SEEK_DATA and SEEK_HOLE find the data and the hole after it" "$work/out"
fallocate -o 0 -l 1048576 "$w/alloc" && [ "$(stat -c %s "$exp/work/alloc")" = 1048576 ] &&
	[ "$(stat -c %b "$exp/work/alloc")" -ge 2048 ]
expect 0 $? "fallocate: the server's file has its blocks (ALLOCATE)"
head -c 1048576 /dev/urandom >"$w/punch" && sync && fallocate -p -o 0 -l 524288 "$w/punch" &&
	[ "$(head -c 524288 "$exp/work/punch" | tr -d '\0' | wc -c)" = 0 ] &&
	[ "$(stat -c %s "$exp/work/punch")" = 1048576 ]
expect 0 $? "fallocate --punch-hole: zeros on the server, size kept (DEALLOCATE)"
head -c 5000000 /dev/urandom >"$w/src" && sync
python3 - "$w/src" "$w/dst" >"$work/out" 2>&1 <<'PY'
import os, sys
s = os.open(sys.argv[1], os.O_RDONLY)
d = os.open(sys.argv[2], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
n = 0
while n < 5000000:
    c = os.copy_file_range(s, d, 5000000 - n)
    if c == 0:
        break
    n += c
print("copied", n)
PY
grep -q '^copied 5000000$' "$work/out" && cmp -s "$exp/work/src" "$exp/work/dst"
expect 0 $? "copy_file_range: the copy on the server is the same (COPY)" "$work/out"
srv "$ctl" stats >"$work/stats" 2>&1
for op in SEEK ALLOCATE DEALLOCATE COPY; do
	awk -v op="$op" '$1 == op && $2 > 0 { found = 1 } END { exit !found }' "$work/stats"
	expect 0 $? "the server counted $op" "$work/stats"
done
# The back channel: each session's CB_NULL probe went out on the client's
# own connection and was answered (nothing failed, nothing timed out).
[ "$(op_count callbacks_answered)" -gt 0 ] && [ "$(op_count callbacks_failed)" = 0 ] &&
	[ "$(op_count callbacks_timed_out)" = 0 ]
expect 0 $? "the back channel answers: callbacks answered $(op_count callbacks_answered), failed $(op_count callbacks_failed), timed out $(op_count callbacks_timed_out)" "$work/stats"
[ "$(op_count BIND_CONN_TO_SESSION)" -lt 5 ]
expect 0 $? "no BIND_CONN_TO_SESSION storm ($(op_count BIND_CONN_TO_SESSION))" "$work/stats"

step "NFSv4.2: extended attributes (RFC 8276) with setfattr and getfattr"
touch "$w/plain"
# The tmpfs export: as its file system does (xattr_support), refused or kept.
if setfattr -n user.probe -v 1 "$exp/work/plain" 2>/dev/null; then want=0; else want=1; fi
setfattr -n user.color -v blue "$w/plain" 2>"$work/out"
expect "$want" $? "setfattr on the tmpfs export: as its file system does (exit $want)" "$work/out"
xm=$work/xmnt
mkdir -p "$xm"
if timeout 60 mount -t nfs -o vers=4.2 "$SRV:$xexp" "$xm" 2>"$work/err"; then
	touch "$xm/f" && setfattr -n user.color -v blue "$xm/f" && setfattr -n user.size -v 42 "$xm/f"
	expect 0 $? "setfattr user.color and user.size over v4.2 (SETXATTR)"
	[ "$(getfattr --absolute-names --only-values -n user.color "$xm/f" 2>/dev/null)" = blue ]
	expect 0 $? "getfattr reads it back (GETXATTR)"
	[ "$(getfattr --absolute-names --only-values -n user.color "$xexp/f" 2>/dev/null)" = blue ]
	expect 0 $? "the server's file has user.color=blue"
	getfattr --absolute-names -d "$xm/f" 2>/dev/null | grep -c '^user\.' >"$work/out"
	[ "$(cat "$work/out")" = 2 ]
	expect 0 $? "getfattr -d lists both (LISTXATTRS)" "$work/out"
	setfattr -x user.size "$xm/f" && ! getfattr --absolute-names -n user.size "$xexp/f" >/dev/null 2>&1
	expect 0 $? "setfattr -x removes it on the server (REMOVEXATTR)"
	setfattr -n user.color -v red "$xexp/f"
	[ "$(getfattr --absolute-names --only-values -n user.color "$xm/f" 2>/dev/null)" = red ]
	expect 0 $? "a change made on the server is seen through the mount"
	su -s /bin/sh nobody -c "setfattr -n user.x -v 1 $xm/f" 2>"$work/out"
	expect 1 $? "another user may not set an attribute of a file it cannot write" "$work/out"
	srv "$ctl" stats >"$work/stats" 2>&1
	for op in SETXATTR GETXATTR LISTXATTRS REMOVEXATTR; do
		awk -v op="$op" '$1 == op && $2 > 0 { found = 1 } END { exit !found }' "$work/stats"
		expect 0 $? "the server counted $op" "$work/stats"
	done
	umount "$xm"
else
	bad "no v4.2 mount of the ext4 export" "$work/err"
fi

step "cleaning up through the client"
timeout 120 rm -rf "$w" && [ ! -e "$exp/work" ]
expect 0 $? "rm -rf"
umount "$mnt"
expect 0 $? "umount"

step "the pseudo file system"
timeout 60 mount -t nfs -o vers=4.2 "$SRV:/" "$mnt" 2>"$work/err"
expect 0 $? "mount of /" "$work/err"
[ "$(ls "$mnt")" = tmp ] && [ "$(ls "$mnt/tmp")" = kv4 ] &&
	[ "$(ls "$mnt/tmp/kv4" | tr '\n' ' ')" = "export xexp " ]
expect 0 $? "only the paths to the exports show"
[ -f "$mnt$exp/one" ] && cmp -s "$mnt$exp/one" "$exp/one"
expect 0 $? "the export reached through it"
! touch "$mnt/tmp/new" 2>/dev/null
expect 0 $? "the pseudo directories are read-only"
umount "$mnt" 2>/dev/null || umount -l "$mnt"

step "the wall"
! timeout 20 mount -t nfs -o vers=3,soft,retrans=1,timeo=20 "$SRV:$exp" "$mnt" 2>/dev/null
expect 0 $? "a v3 mount cannot pass it (no MOUNT, no rpcbind)"
umount "$mnt" 2>/dev/null

step "one lock manager: NFSv4.1 and 4.0 against NLM (a v3 mount of the same export), both ways"
srv nft flush ruleset || fatal "lowering the wall"
echo data >"$exp/shared-lock"
mkdir -p "$work/mnt3"
timeout 60 mount -t nfs -o vers=3,proto=tcp,mountproto=tcp "$SRV:$exp" "$work/mnt3" 2>"$work/err"
expect 0 $? "a v3 mount with locking (NLM, NSM through rpcbind)" "$work/err"
timeout 60 mount -t nfs -o vers=4.1 "$SRV:$exp" "$mnt" 2>"$work/err"
expect 0 $? "and a v4.1 mount beside it" "$work/err"
bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$work/mnt3/shared-lock"
apid=$!
wait_line locked "$work/a.out" 30
expect 0 $? "a lock over NLM" "$work/a.out"
"${LTT[@]}" setlk "$mnt/shared-lock" >"$work/b.out" 2>&1
expect 3 $? "keeps a v4.1 LOCK out (DENIED)" "$work/b.out"
kill "$apid"; wait "$apid"
bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$mnt/shared-lock"
apid=$!
wait_line locked "$work/a.out" 30
expect 0 $? "a lock over v4.1" "$work/a.out"
"${LTT[@]}" setlk "$work/mnt3/shared-lock" >"$work/b.out" 2>&1
expect 3 $? "keeps an NLM lock out (DENIED)" "$work/b.out"
kill "$apid"; wait "$apid"
"${LTT[@]}" setlk "$work/mnt3/shared-lock" >"$work/b.out" 2>&1
expect 0 $? "released over v4.1, NLM gets it" "$work/b.out"
if [ -n "$v40" ]; then
	bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$work/mnt3/shared-lock"
	apid=$!
	wait_line locked "$work/a.out" 30
	"${LTT[@]}" setlk "$m40/shared-lock" >"$work/b.out" 2>&1
	expect 3 $? "an NLM lock keeps a v4.0 LOCK out (DENIED)" "$work/b.out"
	kill "$apid"; wait "$apid"
	bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$m40/shared-lock"
	apid=$!
	wait_line locked "$work/a.out" 30
	expect 0 $? "a lock over v4.0" "$work/a.out"
	"${LTT[@]}" setlk "$work/mnt3/shared-lock" >"$work/b.out" 2>&1
	expect 3 $? "keeps an NLM lock out (DENIED)" "$work/b.out"
	kill "$apid"; wait "$apid"
	"${LTT[@]}" setlk "$work/mnt3/shared-lock" >"$work/b.out" 2>&1
	expect 0 $? "released over v4.0, NLM gets it" "$work/b.out"
fi

step "read delegations: granted on a read open, recalled by every kind of writer"
# deleg EVENT: the server's delegations_EVENT counter now
deleg() { srv "$ctl" stats >"$work/stats" 2>&1; op_count "delegations_$1"; }
# ms_since T0: milliseconds since T0 (${EPOCHREALTIME/./})
ms_since() { echo $(( (${EPOCHREALTIME/./} - $1) / 1000 )); }
# granted_to_41 FILE: the v4.1 mount reads FILE (new, "v1"); did a delegation come with it?
granted_to_41() {
	local g0
	echo v1 >"$exp/$1"
	g0=$(deleg granted)
	[ "$(cat "$mnt/$1")" = v1 ] && [ "$(deleg granted)" -gt "$g0" ]
}
granted_to_41 deleg-a
expect 0 $? "a v4.1 open for reading gets a read delegation (delegations granted: $(op_count delegations_granted))" "$work/stats"
r0=$(deleg recalled) n0=$(op_count delegations_returned)
t0=${EPOCHREALTIME/./}
if [ -n "$v40" ]; then
	echo v2 >"$m40/deleg-a"
	ms=$(ms_since "$t0")
	[ "$(cat "$exp/deleg-a")" = v2 ] && [ "$ms" -lt 10000 ]
	expect 0 $? "another client (v4.0) writes it: the delegation is recalled, the write goes on after $ms ms"
	[ "$(deleg recalled)" -gt "$r0" ] && [ "$(op_count delegations_returned)" -gt "$n0" ]
	expect 0 $? "recalled and returned (CB_RECALL, DELEGRETURN)" "$work/stats"
	[ "$(cat "$mnt/deleg-a")" = v2 ]
	expect 0 $? "the first client then reads the new data"
fi
granted_to_41 deleg-b
expect 0 $? "a second read delegation" "$work/stats"
r0=$(deleg recalled)
t0=${EPOCHREALTIME/./}
echo v3 >"$work/mnt3/deleg-b"
ms=$(ms_since "$t0")
[ "$(cat "$exp/deleg-b")" = v3 ] && [ "$ms" -lt 20000 ] && [ "$(deleg recalled)" -gt "$r0" ]
expect 0 $? "a v3 client's write (JUKEBOX meanwhile) recalls it and goes on after $ms ms" "$work/stats"
granted_to_41 deleg-c
expect 0 $? "a third read delegation" "$work/stats"
r0=$(deleg recalled)
t0=${EPOCHREALTIME/./}
srv sh -c "echo local >'$exp/deleg-c'"
ms=$(ms_since "$t0")
[ "$(cat "$exp/deleg-c")" = local ] && [ "$ms" -lt 10000 ] && [ "$(deleg recalled)" -gt "$r0" ]
expect 0 $? "a process on the server opening it for writing waits for the recall (kernel lease), $ms ms, well before the kernel's own 45 s" "$work/stats"
[ "$(cat "$mnt/deleg-c")" = local ]
expect 0 $? "the v4.1 client reads what the local process wrote"
# Changes of attributes and names: kernel leases do not see them, the server's hook does.
granted_to_41 deleg-e
r0=$(deleg recalled)
t0=${EPOCHREALTIME/./}
chmod 600 "$work/mnt3/deleg-e"
ms=$(ms_since "$t0")
[ "$(stat -c %a "$exp/deleg-e")" = 600 ] && [ "$(deleg recalled)" -gt "$r0" ]
expect 0 $? "a v3 client's chmod (SETATTR) recalls it and goes on after $ms ms" "$work/stats"
if [ -n "$v40" ]; then
	granted_to_41 deleg-f
	r0=$(deleg recalled)
	mv "$m40/deleg-f" "$m40/deleg-f2" && [ -f "$exp/deleg-f2" ] && [ "$(deleg recalled)" -gt "$r0" ]
	expect 0 $? "another client's RENAME of it recalls it first" "$work/stats"
	granted_to_41 deleg-g
	r0=$(deleg recalled)
	rm "$m40/deleg-g" && [ ! -e "$exp/deleg-g" ] && [ "$(deleg recalled)" -gt "$r0" ]
	expect 0 $? "another client's REMOVE of it recalls it first" "$work/stats"
	# NFSv4.0: the callback is a connection of the server's to the client's callback port.
	echo v1 >"$exp/deleg-h"
	g0=$(deleg granted)
	[ "$(cat "$m40/deleg-h")" = v1 ] && [ "$(deleg granted)" -gt "$g0" ]
	expect 0 $? "a v4.0 read open gets one too (its callback answered CB_NULL)" "$work/stats"
	r0=$(deleg recalled) n0=$(op_count delegations_returned)
	t0=${EPOCHREALTIME/./}
	echo v2 >"$mnt/deleg-h"
	ms=$(ms_since "$t0")
	[ "$(cat "$exp/deleg-h")" = v2 ] && [ "$ms" -lt 10000 ] && [ "$(deleg recalled)" -gt "$r0" ] &&
		[ "$(op_count delegations_returned)" -gt "$n0" ]
	expect 0 $? "a v4.1 write recalls the v4.0 client's (CB_RECALL to its callback address), goes on after $ms ms" "$work/stats"
fi
srv "$ctl" stats >"$work/stats" 2>&1
[ "$(op_count callbacks_failed)" = 0 ] && [ "$(op_count callbacks_timed_out)" = 0 ]
expect 0 $? "every callback answered (sent $(op_count callbacks_sent), answered $(op_count callbacks_answered))" "$work/stats"
umount "$work/mnt3"

step "clients that vanish lose their locks once their lease is over (v4.1 and v4.0, one wait)"
bg "$work/a.out" "${LTT[@]}" -h -1 setlk "$mnt/shared-lock"
apid=$!
wait_line locked "$work/a.out" 30
expect 0 $? "a v4.1 lock" "$work/a.out"
# And a delegation: a client that cannot answer the recall loses it after the lease.
granted_to_41 deleg-d
expect 0 $? "a read delegation before the client falls silent" "$work/stats"
cpid=
got40=skipped
if [ -n "$v40" ]; then
	got40=
	echo data >"$exp/lease40"
	bg "$work/c.out" "${LTT[@]}" -h -1 setlk "$m40/lease40"
	cpid=$!
	wait_line locked "$work/c.out" 30
	expect 0 $? "a v4.0 lock" "$work/c.out"
fi
ip link set v4-cli down
t0=${EPOCHREALTIME/./}
# A writer on the server, held back by the delegation's lease until it is revoked.
(srv sh -c "echo revoked >'$exp/deleg-d'"; echo "wrote $(ms_since "$t0")") >"$work/d.out" 2>&1 &
dpid=$!
got=
for _ in $(seq 60); do
	if [ -z "$got" ] && srv "${LTT[@]}" setlk "$exp/shared-lock" >"$work/h.out" 2>&1; then
		got=$(( (${EPOCHREALTIME/./} - t0) / 1000000 ))
	fi
	if [ -z "$got40" ] && srv "${LTT[@]}" setlk "$exp/lease40" >"$work/h40.out" 2>&1; then
		got40=$(( (${EPOCHREALTIME/./} - t0) / 1000000 ))
	fi
	[ -n "$got" ] && [ -n "$got40" ] && break
	snooze 1
done
took=$(( (${EPOCHREALTIME/./} - t0) / 1000000 ))
if [ -n "$got" ] && [ "$got" -ge "$LEASE" ]; then
	ok "a server process gets the v4.1 client's lock ${got} s after the client fell silent (lease $LEASE s)"
else
	bad "the vanished v4.1 client's lock: got ${got:+it after $got s}${got:-none in $took s} (lease $LEASE s)" "$work/h.out"
fi
if [ -n "$v40" ]; then
	if [ -n "$got40" ] && [ "$got40" -ge "$LEASE" ]; then
		ok "a server process gets the v4.0 client's lock ${got40} s after the client stopped renewing (lease $LEASE s)"
	else
		bad "the vanished v4.0 client's lock: got ${got40:+it after $got40 s}${got40:-none in $took s} (lease $LEASE s)" "$work/h40.out"
	fi
fi
wait "$dpid"
ms=$(awk '$1 == "wrote" { print $2 }' "$work/d.out")
[ "$(cat "$exp/deleg-d")" = revoked ] && [ -n "$ms" ] && [ "$ms" -ge $(( (LEASE - 1) * 1000 )) ] &&
	[ "$ms" -lt 40000 ] && [ "$(deleg revoked)" -gt 0 ]
expect 0 $? "the silent client's delegation is revoked after the lease: the writer went on after ${ms:-?} ms (revoked: $(op_count delegations_revoked))" "$work/d.out"
ip link set v4-cli up
kill -KILL "$apid" $cpid 2>/dev/null; wait "$apid" $cpid 2>/dev/null
umount -f -l "$mnt" 2>/dev/null
if [ -n "$v40" ]; then
	umount -f -l "$m40" 2>/dev/null
	# Since the second restart: the 4.0 client sat idle (the 4.2 part, the wall) and renewed its lease.
	srv "$ctl" stats >"$work/stats" 2>&1
	n=$(op_count RENEW)
	[ "$n" -gt 0 ]
	expect 0 $? "the server counted RENEW ($n): the idle v4.0 client kept its lease"
	n=
	for op in SETCLIENTID SETCLIENTID_CONFIRM OPEN_CONFIRM RENEW RELEASE_LOCKOWNER; do n="$n${n:+, }$op $(op_count "$op")"; done
	echo "kernel-v4:   (v4.0 calls since the second restart: $n)"
fi

kill -0 "$SRV_PID" 2>/dev/null
expect 0 $? "the server is still running"
# A leak report comes at exit: stop it first, then read its log.
kill -TERM "$SRV_PID"; wait "$SRV_PID"
expect 0 $? "the server stops cleanly on SIGTERM"
check_sanitizer_reports
echo "kernel-v4: $PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
