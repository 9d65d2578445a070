#!/bin/bash
# integ_durability.sh - WRITE stability, COMMIT and the write verifier,
# across a daemon killed with SIGKILL (rpcprobe over UDP and TCP):
#   - FILE_SYNC writes answer committed=FILE_SYNC(2), DATA_SYNC at least
#     DATA_SYNC(1); UNSTABLE answers UNSTABLE(0) on a sync export and
#     FILE_SYNC(2) on an `async` export
#   - one verifier for every WRITE and COMMIT of a daemon run, over UDP and
#     TCP, on every export
#   - UNSTABLE writes, SIGKILL before COMMIT, restart: COMMIT and WRITE now
#     return another verifier (which tells the client to resend); resending
#     and committing gives exactly the data written
#   - UNSTABLE writes + COMMIT, SIGKILL right after the COMMIT reply,
#     restart: the content is intact
#   - with strace (when it can attach): UNSTABLE writes do not sync, COMMIT
#     and FILE_SYNC / DATA_SYNC writes do, an async export does not
#   - with strace: on the sync export every call that changes metadata
#     (CREATE, MKDIR, SYMLINK, MKNOD, LINK, RENAME, REMOVE, RMDIR, SETATTR),
#     over NFSv3 and NFSv2, syncs before it answers; on the async export
#     none does (the power-loss test, integ_powerloss.sh, shows what that
#     buys)
. "$(dirname "$0")/lib.sh"

need_cmd sha256sum stat
setup

T=$WORKDIR
EXPORT=$T/sync
ASYNC=$T/async
mkdir -p "$EXPORT" "$ASYNC"

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash)
$ASYNC 127.0.0.1(rw,insecure,no_root_squash,async)" --no-rpcbind

# ---------------------------------------------------------------------------
# helpers

sha() {
	sha256sum <"$1" | cut -d' ' -f1
}

# kill_daemon: SIGKILL, no clean shutdown; the daemon must be gone after
kill_daemon() {
	# out of the job table first, or bash reports the job as "Killed"
	disown "$DAEMON_PID" 2>/dev/null
	kill -KILL "$(_daemon_real_pid)" 2>/dev/null
	if ! _wait_gone "$DAEMON_PID" 100 0.05; then
		kill -KILL "$DAEMON_PID" 2>/dev/null
		fail "the daemon survived SIGKILL"
	fi
	DAEMON_PID=
}

# start again with the same exports and arguments (and state dir: the
# handle key survives, so old handles stay valid)
start_again() {
	start_daemon "$DAEMON_EXPORTS" "${DAEMON_EXTRA[@]}"
}

# create_file PROTO ROOT NAME: prints the handle of a new empty file
create_file() {
	ok_field fh nfs_probe "$1" create "$2" "$3" guarded 0644
}

ROOT_udp=$(mnt_fh udp "$EXPORT")
ROOT_tcp=$(mnt_fh tcp "$EXPORT")
AROOT=$(mnt_fh tcp "$ASYNC")
[ -n "$ROOT_udp" ] && [ -n "$ROOT_tcp" ] && [ -n "$AROOT" ] || fail "MNT failed"

# ---------------------------------------------------------------------------
# 1. committed values and one verifier per run

VERF=
# same_verf DESC: the verf= of $OUT must be the run's verifier
same_verf() {
	local v
	v=$(field verf "$OUT")
	if [ -z "$v" ]; then
		not_ok "$1: no verifier in the reply" "$OUT"
	elif [ -z "$VERF" ]; then
		VERF=$v
		ok "$1: verifier $v"
	else
		expect_eq "$1: the run's verifier" "$v" "$VERF"
	fi
}

for p in udp tcp; do
	eval "root=\$ROOT_$p"
	F=$(create_file $p "$root" stab_$p) || fail "CREATE stab_$p over $p failed"
	expect_st "FILE_SYNC WRITE over $p" 0 $p write "$F" 0 filesync "$(hex filesync)"
	expect_eq "FILE_SYNC WRITE: committed=2 over $p" "$(field count "$OUT"):$(field committed "$OUT")" 8:2
	same_verf "FILE_SYNC WRITE over $p"
	expect_st "DATA_SYNC WRITE over $p" 0 $p write "$F" 8 datasync "$(hex datasync)"
	c=$(field committed "$OUT")
	[ "$c" = 1 ] || [ "$c" = 2 ] && ok "DATA_SYNC committed $c" ||
		not_ok "DATA_SYNC WRITE over $p: committed '$c', want 1 or 2" "$OUT"
	same_verf "DATA_SYNC WRITE over $p"
	expect_st "UNSTABLE WRITE over $p" 0 $p write "$F" 16 unstable "$(hex unstable)"
	expect_eq "UNSTABLE WRITE on a sync export: committed=0 over $p" "$(field committed "$OUT")" 0
	same_verf "UNSTABLE WRITE over $p"
	expect_st "COMMIT over $p" 0 $p commit "$F"
	same_verf "COMMIT over $p"
	expect_st "COMMIT of a range over $p" 0 $p commit "$F" 16 8
	same_verf "COMMIT of a range over $p"
	expect_eq "the three writes over $p" "$(cat "$EXPORT/stab_$p")" filesyncdatasyncunstable

	A=$(create_file $p "$AROOT" async_$p) || fail "CREATE async_$p failed"
	expect_st "UNSTABLE WRITE on the async export over $p" 0 $p write "$A" 0 unstable "$(hex async)"
	expect_eq "UNSTABLE WRITE on an async export: committed=2 over $p" "$(field committed "$OUT")" 2
	same_verf "UNSTABLE WRITE on the async export over $p"
	expect_st "FILE_SYNC WRITE on the async export over $p" 0 $p write "$A" 5 filesync "$(hex !)"
	expect_eq "FILE_SYNC WRITE on an async export: committed=2 over $p" "$(field committed "$OUT")" 2
	expect_st "COMMIT on the async export over $p" 0 $p commit "$A"
	same_verf "COMMIT on the async export over $p"
	expect_eq "the async writes over $p" "$(cat "$ASYNC/async_$p")" 'async!'
done
[ "$VERF" != 0000000000000000 ] && ok "the verifier is not zero" || not_ok "the write verifier is all zeros"
expect_st "COMMIT of a directory fails" '21|22' tcp commit "$ROOT_tcp"

# many writes in a row: one verifier, all UNSTABLE
head -c $((4 << 20)) /dev/urandom >"$T/src4m"
F=$(create_file tcp "$ROOT_tcp" many) || fail "CREATE many failed"
run_expect "4 MiB of UNSTABLE writes over tcp" '^status=0 bytes=4194304 ' \
	nfs_probe tcp -t 30 write-file "$F" "$T/src4m" unstable
expect_eq "4 MiB of UNSTABLE writes: committed 0, one verifier" \
	"$(field committed "$OUT"):$(field verf_changes "$OUT"):$(field verf "$OUT")" "0:0:$VERF"
expect_st "COMMIT after the 4 MiB" 0 tcp commit "$F"
expect_eq "COMMIT after the 4 MiB: the run's verifier" "$(field verf "$OUT")" "$VERF"
expect_eq "the 4 MiB on the server" "$(sha "$EXPORT/many")" "$(sha "$T/src4m")"
rm -f "$EXPORT/many"

# ---------------------------------------------------------------------------
# 2. UNSTABLE writes, SIGKILL before COMMIT, restart: a new verifier

head -c $((1 << 20)) /dev/urandom >"$T/src1m"
for p in udp tcp; do
	eval "root=\$ROOT_$p"
	F=$(create_file $p "$root" lost_$p) || fail "CREATE lost_$p failed"
	run_expect "1 MiB of UNSTABLE writes over $p" '^status=0 bytes=1048576 ' \
		nfs_probe $p -t 30 write-file "$F" "$T/src1m" unstable
	V1=$(field verf "$OUT")
	expect_eq "UNSTABLE before the kill over $p: committed 0" "$(field committed "$OUT")" 0
	kill_daemon
	ok "daemon killed with SIGKILL before COMMIT ($p)"
	start_again
	expect_st "COMMIT after the restart over $p" 0 $p commit "$F"
	V2=$(field verf "$OUT")
	if [ -n "$V2" ] && [ "$V2" != "$V1" ]; then
		ok "COMMIT after a crash returns a new verifier"
	else
		not_ok "COMMIT after SIGKILL + restart over $p returned the verifier '$V2' of the writes ('$V1'): the client would not resend" "$OUT"
	fi
	expect_st "WRITE after the restart over $p" 0 $p write "$F" 0 unstable "$(head -c 1 "$T/src1m" | od -An -tx1 | tr -d ' \n')"
	expect_eq "WRITE after the restart: the new verifier over $p" "$(field verf "$OUT")" "$V2"
	# the client resends everything since its last good COMMIT, then commits
	run_expect "resending the 1 MiB over $p" '^status=0 bytes=1048576 ' \
		nfs_probe $p -t 30 write-file "$F" "$T/src1m" unstable
	expect_eq "the resent writes carry the new verifier over $p" \
		"$(field verf "$OUT"):$(field verf_changes "$OUT")" "$V2:0"
	expect_st "COMMIT after resending over $p" 0 $p commit "$F"
	expect_eq "COMMIT after resending: the same verifier as the writes over $p" "$(field verf "$OUT")" "$V2"
	expect_eq "the file is exactly what was written over $p" \
		"$(stat -c %s "$EXPORT/lost_$p"):$(sha "$EXPORT/lost_$p")" "1048576:$(sha "$T/src1m")"
	VERF=$V2
done

# ---------------------------------------------------------------------------
# 3. UNSTABLE writes + COMMIT, SIGKILL right after the COMMIT reply

for p in udp tcp; do
	eval "root=\$ROOT_$p"
	F=$(create_file $p "$root" kept_$p) || fail "CREATE kept_$p failed"
	run_expect "1 MiB of UNSTABLE writes over $p" '^status=0 bytes=1048576 ' \
		nfs_probe $p -t 30 write-file "$F" "$T/src1m" unstable
	V1=$(field verf "$OUT")
	nfs_probe $p commit "$F" >"$T/commit.out" 2>&1
	kill_daemon
	OUT=$(cat "$T/commit.out")
	expect_eq "COMMIT answered OK with the writes' verifier before the kill over $p" \
		"$(field status "$OUT"):$(field verf "$OUT")" "0:$V1"
	start_again
	expect_eq "after COMMIT, SIGKILL and restart the content is intact over $p" \
		"$(stat -c %s "$EXPORT/kept_$p"):$(sha "$EXPORT/kept_$p")" "1048576:$(sha "$T/src1m")"
	call $p getattr-hex "$F"
	expect_eq "GETATTR of the committed file after the restart over $p" "$ST:$(field size "$OUT")" "0:1048576"
	rm -f "$T/out"
	run_expect "READ of the committed file after the restart over $p" '^status=0 bytes=1048576 ' \
		nfs_probe $p read-file "$F" "$T/out"
	cmp -s "$T/out" "$T/src1m" && ok "read back" || not_ok "READ after the restart over $p returned other bytes"
	expect_st "COMMIT in the new run over $p" 0 $p commit "$F"
	[ "$(field verf "$OUT")" != "$V1" ] && ok "new run, new verifier" ||
		not_ok "the verifier did not change across SIGKILL + restart over $p" "$OUT"
done
rm -f "$T/out" "$T/src4m"

# ---------------------------------------------------------------------------
# 4. which calls sync (strace on the daemon; informational if it cannot attach)

STRACE_PID=
strace_start() {
	: >"$T/strace.out"
	strace -f -qq -e trace=fsync,fdatasync,sync_file_range,syncfs,sync \
		-o "$T/strace.out" -p "$(_daemon_real_pid)" </dev/null >/dev/null 2>"$T/strace.err" 9>&- &
	STRACE_PID=$!
	EXTRA_PIDS="$EXTRA_PIDS $STRACE_PID"
	local i t all
	# attached when every thread of the daemon is traced by this strace
	# (not by a USERNFSD_WRAPPER that traces it already)
	for i in $(seq 50); do
		all=1
		for t in /proc/"$(_daemon_real_pid)"/task/*/status; do
			[ "$(awk '/^TracerPid:/ { print $2 }' "$t")" = "$STRACE_PID" ] || all=0
		done
		[ $all = 1 ] && return 0
		_pid_running "$STRACE_PID" || break
		sleep 0.1
	done
	return 1
}
strace_stop() {
	stop_bg "$STRACE_PID" INT
	STRACE_PID=
}
# syncs_after CMD...: run CMD; prints the sync calls the daemon made
# meanwhile, but for the inode cache's sweeper: it syncs and closes files
# idle for a while (fdcache.c) whenever it finds them, UNSTABLE data of an
# earlier check included, and is not part of any call
syncs_after() {
	local before sweeper t
	sweeper=none
	for t in /proc/"$(_daemon_real_pid)"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = icache-sweep ] && sweeper=${t##*/}
	done
	before=$(wc -l <"$T/strace.out")
	"$@" >"$T/cmd.out" 2>&1
	sleep 0.3
	tail -n +$((before + 1)) "$T/strace.out" | grep -v "^$sweeper " |
		grep -Eo '(fsync|fdatasync|sync_file_range|syncfs|sync)\(' | tr -d '(' | sort -u | tr '\n' ' '
}

NFS2PROBE=${NFS2PROBE:-$top_builddir/tests/nfs2probe}
# v2 COMMAND ARGS...: nfs2probe over UDP, the transport of v2's clients
v2() {
	"$NFS2PROBE" 127.0.0.1 "$NFS_PORT" udp "$@"
}
v2root() {
	local out
	out=$("$NFS2PROBE" 127.0.0.1 "$MOUNT_PORT" udp mnt "$1") || return 1
	[ "$(field status "$out")" = 0 ] || return 1
	field fh "$out"
}

# synced DESC WANT CMD...: CMD answers status 0, and the daemon synced
# meanwhile (WANT=yes) or did not (WANT=no)
synced() {
	local desc=$1 want=$2 s
	shift 2
	s=$(syncs_after "$@")
	OUT=$(cat "$T/cmd.out")
	if [ "$(field status "$OUT")" != 0 ]; then
		not_ok "$desc: status '$(field status "$OUT")'" "$OUT"
	elif [ "$want" = yes ] && [[ $s != *sync* ]]; then
		not_ok "$desc answered before any fsync: not durable" "$OUT"
	elif [ "$want" = no ] && [ -n "$s" ]; then
		not_ok "$desc synced ($s) on an async export" "$OUT"
	else
		ok "$desc (${s:-no sync})"
	fi
}

# metadata_ops WANT ROOT TAG: each v3 modifying call under ROOT
metadata_ops() {
	local want=$1 root=$2 tag=$3 f d
	synced "v3 CREATE on the $tag export" "$want" nfs_probe tcp create "$root" "m_$tag" guarded 0644
	f=$(field fh "$OUT")
	synced "v3 MKDIR on the $tag export" "$want" nfs_probe tcp mkdir "$root" "d_$tag" 0755
	d=$(field fh "$OUT")
	synced "v3 SYMLINK on the $tag export" "$want" nfs_probe tcp symlink "$root" "s_$tag" target
	synced "v3 MKNOD (FIFO) on the $tag export" "$want" nfs_probe tcp mknod "$root" "p_$tag" fifo
	synced "v3 LINK on the $tag export" "$want" nfs_probe tcp link "$f" "$d" "l_$tag"
	synced "v3 RENAME within a directory on the $tag export" "$want" \
		nfs_probe tcp rename "$root" "m_$tag" "$root" "n_$tag"
	synced "v3 RENAME across directories on the $tag export" "$want" \
		nfs_probe tcp rename "$root" "n_$tag" "$d" "m_$tag"
	synced "v3 SETATTR mode on the $tag export" "$want" nfs_probe tcp setattr "$f" mode=0600
	synced "v3 SETATTR size on the $tag export" "$want" nfs_probe tcp setattr "$f" size=4096
	synced "v3 SETATTR of a directory on the $tag export" "$want" nfs_probe tcp setattr "$d" mode=0700
	synced "v3 REMOVE on the $tag export" "$want" nfs_probe tcp remove "$d" "l_$tag"
	synced "v3 REMOVE of a symlink on the $tag export" "$want" nfs_probe tcp remove "$root" "s_$tag"
	synced "v3 REMOVE of a FIFO on the $tag export" "$want" nfs_probe tcp remove "$root" "p_$tag"
	synced "v3 REMOVE of a renamed file on the $tag export" "$want" nfs_probe tcp remove "$d" "m_$tag"
	synced "v3 RMDIR on the $tag export" "$want" nfs_probe tcp rmdir "$root" "d_$tag"
}

# the same over NFSv2, where every modifying call is synchronous
metadata_ops_v2() {
	local want=$1 root=$2 tag=$3 f d
	synced "v2 CREATE on the $tag export" "$want" v2 create "$root" "m2_$tag" mode=0644
	f=$(field fh "$OUT")
	synced "v2 MKDIR on the $tag export" "$want" v2 mkdir "$root" "d2_$tag" mode=0755
	d=$(field fh "$OUT")
	synced "v2 SYMLINK on the $tag export" "$want" v2 symlink "$root" "s2_$tag" target
	synced "v2 LINK on the $tag export" "$want" v2 link "$f" "$d" "l2_$tag"
	synced "v2 RENAME on the $tag export" "$want" v2 rename "$root" "m2_$tag" "$d" "n2_$tag"
	synced "v2 SETATTR on the $tag export" "$want" v2 setattr "$f" mode=0600
	synced "v2 REMOVE on the $tag export" "$want" v2 remove "$d" "l2_$tag"
	synced "v2 REMOVE of a symlink on the $tag export" "$want" v2 remove "$root" "s2_$tag"
	synced "v2 REMOVE of a file on the $tag export" "$want" v2 remove "$d" "n2_$tag"
	synced "v2 RMDIR on the $tag export" "$want" v2 rmdir "$root" "d2_$tag"
}

metadata_syncs() {
	local r2 a2
	metadata_ops yes "$ROOT_tcp" sync
	metadata_ops no "$AROOT" async
	r2=$(v2root "$EXPORT") && a2=$(v2root "$ASYNC") || { not_ok "MOUNT v1 MNT failed"; return; }
	metadata_ops_v2 yes "$r2" sync
	metadata_ops_v2 no "$a2" async
}

if command -v strace >/dev/null 2>&1 && strace_start; then
	for p in udp tcp; do
		eval "root=\$ROOT_$p"
		F=$(create_file $p "$root" traced_$p) || fail "CREATE traced_$p failed"
		s=$(syncs_after nfs_probe $p write "$F" 0 unstable "$(hex one)")
		expect_eq "an UNSTABLE WRITE does not sync over $p" "$s" ""
		s=$(syncs_after nfs_probe $p commit "$F")
		[[ $s == *sync* ]] && ok "COMMIT syncs ($s)" ||
			not_ok "COMMIT over $p made no fsync/fdatasync call" "$(cat "$T/cmd.out")"
		s=$(syncs_after nfs_probe $p write "$F" 3 filesync "$(hex two)")
		[[ $s == *fsync* ]] && ok "FILE_SYNC syncs ($s)" ||
			not_ok "a FILE_SYNC WRITE over $p made no fsync call ('$s')" "$(cat "$T/cmd.out")"
		s=$(syncs_after nfs_probe $p write "$F" 6 datasync "$(hex three)")
		[[ $s == *sync* ]] && ok "DATA_SYNC syncs ($s)" ||
			not_ok "a DATA_SYNC WRITE over $p made no fsync/fdatasync call" "$(cat "$T/cmd.out")"
		A=$(create_file $p "$AROOT" traced_$p) || fail "CREATE async traced_$p failed"
		s=$(syncs_after nfs_probe $p write "$A" 0 filesync "$(hex async)")
		expect_eq "a WRITE on the async export does not sync over $p" "$s" ""
		s=$(syncs_after nfs_probe $p commit "$A")
		expect_eq "a COMMIT on the async export does not sync over $p" "$s" ""
	done
	metadata_syncs
	strace_stop
	expect_eq "the traced writes" "$(cat "$EXPORT/traced_tcp")" onetwothree
else
	echo "note: strace could not attach to the daemon: the sync checks were skipped ($(head -n 1 "$T/strace.err" 2>/dev/null))"
	strace_stop
fi

check_daemon_alive "the durability checks"
stop_daemon
finish
