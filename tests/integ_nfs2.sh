#!/bin/bash
# integ_nfs2.sh - NFSv2 (RFC 1094) and MOUNT v1/v2 against tests/nfs2probe,
# a client built on the XDR rpcgen generates from rpcsvc-proto's nfs_prot.x:
# rpcbind registration; every procedure and its main errors over UDP and
# TCP; MOUNT v1 MNT/DUMP/UMNT/UMNTALL/EXPORT/EXPORTALL and v2 PATHCONF;
# a file beyond 2 GiB (sizes clamped, WRITE past the limit is FBIG); READDIR
# across many 8 KiB replies, a 100,000-entry directory listed exactly once;
# names at the 255-byte limit; data written over v2 read over v3 and back;
# v2 and v3 handles of one object after a restart.
. "$(dirname "$0")/lib.sh"

NFS2PROBE=${NFS2PROBE:-$top_builddir/tests/nfs2probe}
[ -x "$NFS2PROBE" ] || skip "nfs2probe not built ($NFS2PROBE): run make check"
need_cmd rpcinfo
setup
start_rpcbind

# nfsstat (v2) values
NFS_OK=0 NFSERR_PERM=1 NFSERR_NOENT=2 NFSERR_ACCES=13 NFSERR_EXIST=17 NFSERR_NOTDIR=20
NFSERR_ISDIR=21 NFSERR_INVAL=22 NFSERR_FBIG=27 NFSERR_ROFS=30 NFSERR_NOTEMPTY=66
NFSERR_STALE=70

EXPORT=$WORKDIR/export
RO=$WORKDIR/ro
SQUASH=$WORKDIR/squash
DENIED=$WORKDIR/denied
mkdir -p "$EXPORT" "$RO" "$SQUASH" "$DENIED"
chmod 1777 "$SQUASH"
echo "read only" >"$RO/file"
EXPORTS="$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash)
$RO 127.0.0.1(ro,insecure) ::1(ro,insecure)
$SQUASH 127.0.0.1(rw,insecure,root_squash)
$DENIED 10.9.9.9(rw)"

IPV6=
if has_ipv6_lo; then IPV6=1; fi

# v2 PROTO [OPTIONS] COMMAND ARGS...: nfs2probe against the NFS port
v2() {
	probe_argv "$NFS2PROBE" P augtcm - "$NFS_PORT" "$@"
	"${PROBE_ARGV[@]}"
}
# m1 PROTO [OPTIONS] COMMAND ARGS...: the same against the MOUNT port
m1() {
	probe_argv "$NFS2PROBE" P augtcm - "$MOUNT_PORT" "$@"
	"${PROBE_ARGV[@]}"
}
# v2root PROTO PATH: the MOUNT v1 handle of an export
v2root() {
	ok_field fh m1 "$1" mnt "$2"
}
# v2fh_of PROTO DIRFH REL/PATH
v2fh_of() {
	ok_field fh v2 "$1" lookup-path "$2" "$3"
}
# expect_status DESC STATUS PROTO COMMAND...: an NFSv2 call whose status is STATUS
expect_status() {
	local desc=$1 st=$2
	shift 2
	run_expect "$desc" "^status=$st\$" v2 "$@"
}

start_daemon "$EXPORTS"

# ---------------------------------------------------------------------------
# 1. registration: NFS v2 and v3, MOUNT v1, v2 and v3

PMAP=$(rpcinfo -p 127.0.0.1 2>&1)
for proto in tcp udp; do
	for pv in "$NFS_PROG 2 $NFS_PORT" "$MOUNT_PROG 1 $MOUNT_PORT" "$MOUNT_PROG 2 $MOUNT_PORT"; do
		set -- $pv
		if printf '%s\n' "$PMAP" | awk -v p="$1" -v v="$2" -v t=$proto -v port="$3" \
			'$1 == p && $2 == v && $3 == t && $4 == port { f = 1 } END { exit !f }'; then
			ok "program $1 v$2 registered on $proto"
		else
			not_ok "rpcinfo -p: program $1 v$2 $proto port $3 missing" "$PMAP"
		fi
	done
done
if [ -n "$IPV6" ]; then
	SUMMARY=$(rpcinfo -s 127.0.0.1)
	for pv in "$NFS_PROG 2" "$MOUNT_PROG 1" "$MOUNT_PROG 2"; do
		set -- $pv
		line=$(printf '%s\n' "$SUMMARY" | awk -v p="$1" '$1 == p')
		case ",$(echo "$line" | awk '{print $2}')," in
		*",$2,"*) ok "rpcinfo -s lists program $1 v$2" ;;
		*) not_ok "rpcinfo -s: program $1 lacks version $2" "$SUMMARY" ;;
		esac
		case ",$(echo "$line" | awk '{print $3}')," in
		*tcp6*udp6*|*udp6*tcp6*) ok "program $1 has tcp6 and udp6" ;;
		*) not_ok "rpcinfo -s: program $1 lacks tcp6/udp6" "$SUMMARY" ;;
		esac
	done
fi
for t in t u; do
	run_expect "rpcinfo -$t nfs 2" 'ready and waiting' rpcinfo -$t 127.0.0.1 $NFS_PROG 2
	run_expect "rpcinfo -$t mount 1" 'ready and waiting' rpcinfo -$t 127.0.0.1 $MOUNT_PROG 1
	run_expect "rpcinfo -$t mount 2" 'ready and waiting' rpcinfo -$t 127.0.0.1 $MOUNT_PROG 2
done
run_expect "NFS v5 is PROG_MISMATCH 2..4 over TCP" '^rpc=PROG_MISMATCH low=2 high=4$' \
	nfs_probe tcp expect-prog-mismatch $NFS_PROG 5
run_expect "NFS v4 over UDP is PROG_MISMATCH 2..3 (v4 is TCP only)" '^rpc=PROG_MISMATCH low=2 high=3$' \
	nfs_probe udp expect-prog-mismatch $NFS_PROG 4
run_expect "MOUNT v4 is PROG_MISMATCH 1..3" '^rpc=PROG_MISMATCH low=1 high=3$' \
	mnt_probe tcp expect-prog-mismatch $MOUNT_PROG 4

# ---------------------------------------------------------------------------
# 2. every procedure, over each transport

workout() {
	local p=$1 R W F F2 D S L out tm
	W=$EXPORT/$p
	mkdir "$W"
	printf 'hello over v2\n' >"$W/file"
	ln -s file "$W/link"
	mkdir "$W/sub"

	# -- MOUNT v1 and v2
	run_expect "MNT v1 over $p" '^status=0$' m1 $p mnt "$EXPORT"
	R=$(field fh "$OUT")
	[ ${#R} -eq 64 ] && ok "MNT v1 handle is 32 bytes over $p" || not_ok "MNT v1 handle: '$R'"
	run_expect "MNT v2 gives the same handle over $p" "^fh=$R\$" m1 $p -m 2 mnt "$EXPORT"
	run_expect "DUMP v1 lists the mount over $p" "^mount=127.0.0.1:$EXPORT\$" m1 $p dump
	run_check "STATE_DIR/rmtab records the mount over $p" grep -qx "127.0.0.1:$EXPORT" "$STATE_DIR/rmtab"
	run_expect "EXPORT v1 over $p" "^export=$EXPORT groups=127.0.0.1,::1\$" m1 $p exports
	run_expect "EXPORTALL v1 over $p" "^export=$RO groups=" m1 $p exportall
	run_expect "EXPORT v2 over $p" "^export=$DENIED groups=10.9.9.9\$" m1 $p -m 2 exports
	run_expect "PATHCONF v2 over $p" '^link_max=[1-9][0-9]* .*name_max=255 .*mask=0x0180$' \
		m1 $p pathconf "$EXPORT"
	run_expect "PATHCONF v2 of a refused path says 'no information' over $p" 'mask=0x0001$' \
		m1 $p pathconf "$DENIED"
	run_expect "MNT v1 of an export for another host is EACCES over $p" '^status=13$' \
		m1 $p mnt "$DENIED"
	run_expect "MNT v1 of an unexported path over $p" '^status=(13|2)$' m1 $p mnt /usr
	run_expect "MNT v1 of a missing path below an export is ENOENT over $p" '^status=2$' \
		m1 $p mnt "$EXPORT/nonexistent"
	run_check "UMNT v1 over $p" m1 $p umnt "$EXPORT"
	run_check "DUMP after UMNT has no entry over $p" \
		bash -c "! '$NFS2PROBE' 127.0.0.1 $MOUNT_PORT $p dump | grep -q '^mount=127.0.0.1:$EXPORT\$'"
	# The file is replaced before UMNT's reply; a failure says what the
	# file, DUMP and the daemon's log held.
	if grep -qx "127.0.0.1:$EXPORT" "$STATE_DIR/rmtab"; then
		not_ok "STATE_DIR/rmtab forgets it after UMNT over $p" \
			"rmtab: $(cat "$STATE_DIR/rmtab"); DUMP: $(m1 $p dump 2>&1);
daemon: $(grep -E 'rmtab|mount' "$DAEMON_LOG" | tail -n 12)"
	else
		ok "STATE_DIR/rmtab forgets it after UMNT over $p"
	fi
	run_check "UMNTALL v2 over $p" m1 $p -m 2 umntall
	[ -n "$R" ] || { not_ok "no root handle over $p: skipping the rest"; return; }

	# -- void procedures
	run_check "NULL over $p" v2 $p null
	run_check "ROOT (obsolete) answers over $p" v2 $p root
	run_check "WRITECACHE (obsolete) answers over $p" v2 $p writecache
	run_check "NULL with AUTH_NONE over $p" v2 $p -a none null
	run_expect "GETATTR with AUTH_NONE is AUTH_TOOWEAK over $p" 'rpc=AUTH_ERROR' \
		v2 $p -a none getattr "$R"
	run_expect "procedure 18 is PROC_UNAVAIL over $p" '^rpc=PROC_UNAVAIL' v2 $p proc 18

	# -- GETATTR, LOOKUP, READLINK, READ, STATFS
	run_expect "GETATTR of the root over $p" '^type=2 mode=40' v2 $p getattr "$R"
	run_expect "LOOKUP over $p" '^type=1 mode=100644 .*size=14 ' v2 $p lookup-path "$R" "$p/file"
	F=$(field fh "$OUT")
	D=$(v2fh_of $p "$R" "$p")
	expect_status "LOOKUP of a missing name is NOENT over $p" $NFSERR_NOENT $p lookup "$D" nothing
	expect_status "LOOKUP in a file is NOTDIR over $p" $NFSERR_NOTDIR $p lookup "$F" x
	expect_status "LOOKUP '..' of the export root stays inside over $p" $NFS_OK $p lookup "$R" ..
	run_expect "LOOKUP '..' of the export root is the root over $p" "^fh=$R\$" v2 $p lookup "$R" ..
	L=$(v2fh_of $p "$D" link)
	run_expect "READLINK over $p" '^target=file$' v2 $p readlink "$L"
	expect_status "READLINK of a file is INVAL over $p" $NFSERR_INVAL $p readlink "$F"
	run_expect "READ over $p" '^count=14 data=68656c6c6f206f766572207632' v2 $p read "$F" 0 8192
	run_expect "READ at end of file over $p" '^count=0 ' v2 $p read "$F" 14 100
	run_expect "READ beyond 8 KiB is cut to 8 KiB over $p" '^count=14 ' v2 $p read "$F" 0 65536
	expect_status "READ of a directory is ISDIR over $p" $NFSERR_ISDIR $p read "$D" 0 10
	run_expect "STATFS over $p" '^tsize=8192 bsize=[1-9][0-9]* blocks=[1-9]' v2 $p statfs "$R"

	# -- SETATTR
	run_expect "SETATTR mode over $p" '^type=1 mode=100600 ' v2 $p setattr "$F" mode=0600
	run_expect "SETATTR uid/gid over $p" ' uid=1234 gid=5678 ' v2 $p setattr "$F" uid=1234 gid=5678
	run_expect "SETATTR size over $p" ' size=5 ' v2 $p setattr "$F" size=5
	run_expect "SETATTR times in microseconds over $p" ' atime=981173106.123456 mtime=981173106.654321 ' \
		v2 $p setattr "$F" atime=981173106.123456 mtime=981173106.654321
	out=$(TZ=UTC stat -c %y "$W/file")
	[ "$out" = "2001-02-03 04:05:06.654321000 +0000" ] && ok "mtime set to the microsecond over $p" ||
		not_ok "server mtime after SETATTR over $p" "$out"
	run_expect "SETATTR with every field -1 changes nothing over $p" ' size=5 .*mtime=981173106.654321 ' \
		v2 $p setattr "$F"
	tm=$(date +%s)
	if run_expect "SETATTR to server time (useconds 1000000) over $p" '^status=0$' \
		v2 $p setattr "$F" atime=server mtime=server; then
		out=$(stat -c '%X %Y' "$W/file")
		[ "${out% *}" -ge "$tm" ] && [ "${out#* }" -ge "$tm" ] && ok "both times now over $p" ||
			not_ok "server-time SETATTR left $out (before: $tm) over $p"
	fi
	expect_status "SETATTR with useconds over 1000000 is INVAL over $p" $NFSERR_INVAL \
		$p setattr "$F" mtime=raw:5:1000001
	expect_status "SETATTR size over 2 GiB is FBIG over $p" $NFSERR_FBIG $p setattr "$F" size=2147483648

	# -- WRITE
	run_expect "WRITE over $p" ' size=10 ' v2 $p write "$F" 5 776f726c64 ++ read "$F" 0 100
	run_expect "WRITE lands over $p" 'data=68656c6c6f776f726c64' v2 $p read "$F" 0 100
	expect_status "WRITE to a directory is ISDIR over $p" $NFSERR_ISDIR $p write "$D" 0 00
	# -- CREATE (regular and special), MKDIR, SYMLINK, LINK, RENAME, REMOVE, RMDIR
	run_expect "CREATE over $p" '^type=1 mode=100640 .*size=0 ' v2 $p create "$D" new mode=0640
	run_expect "CREATE of an existing file keeps it and sets only the size over $p" \
		'^type=1 mode=100600 .*uid=1234 .*size=2 ' v2 $p create "$D" file mode=0644 size=2 uid=0
	run_expect "CREATE with the FIFO convention (chr, no size) over $p" '^type=4 mode=10644 .*rdev=0xffffffff' \
		v2 $p create "$D" fifo mode=$((0020644))
	[ -p "$W/fifo" ] && ok "a FIFO on the server over $p" || not_ok "fifo is not a FIFO over $p"
	run_expect "CREATE of a character device (size = device number) over $p" '^type=4 mode=20600 .*rdev=0x103' \
		v2 $p create "$D" null mode=$((0020600)) size=$((0x103))
	[ "$(stat -c '%F %t:%T' "$W/null")" = "character special file 1:3" ] && ok "device 1,3 on the server over $p" ||
		not_ok "device node over $p" "$(stat -c '%F %t:%T' "$W/null")"
	expect_status "CREATE of a directory type is INVAL over $p" $NFSERR_INVAL $p create "$D" bad mode=$((0040755))
	expect_status "CREATE '.' is EXIST over $p" $NFSERR_EXIST $p create "$D" . mode=0644
	run_expect "MKDIR over $p" '^type=2 mode=40750 ' v2 $p mkdir "$D" dir mode=0750
	expect_status "MKDIR of an existing name is EXIST over $p" $NFSERR_EXIST $p mkdir "$D" dir mode=0750
	expect_status "SYMLINK over $p" $NFS_OK $p symlink "$D" sl "some/where"
	[ "$(readlink "$W/sl")" = some/where ] && ok "symlink on the server over $p" || not_ok "symlink over $p"
	expect_status "LINK over $p" $NFS_OK $p link "$F" "$D" hard
	[ "$(stat -c %h "$W/file")" = 2 ] && ok "link count 2 over $p" || not_ok "link count over $p"
	expect_status "LINK of a directory is ISDIR (or PERM) over $p" "($NFSERR_ISDIR|$NFSERR_PERM)" \
		$p link "$D" "$D" dirlink
	expect_status "RENAME over $p" $NFS_OK $p rename "$D" hard "$D" moved
	[ -f "$W/moved" ] && [ ! -e "$W/hard" ] && ok "renamed on the server over $p" || not_ok "rename over $p"
	expect_status "RENAME of a missing name is NOENT over $p" $NFSERR_NOENT $p rename "$D" nope "$D" x
	expect_status "REMOVE over $p" $NFS_OK $p remove "$D" moved
	expect_status "REMOVE of a missing name is NOENT over $p" $NFSERR_NOENT $p remove "$D" moved
	touch "$W/dir/inside"
	expect_status "RMDIR of a non-empty directory is NOTEMPTY over $p" $NFSERR_NOTEMPTY $p rmdir "$D" dir
	rm "$W/dir/inside"
	expect_status "RMDIR over $p" $NFS_OK $p rmdir "$D" dir
	expect_status "RMDIR of a file is NOTDIR over $p" $NFSERR_NOTDIR $p rmdir "$D" new

	# -- READDIR
	run_expect "READDIR over $p" '^entries=[0-9]+ eof=1 ' v2 $p readdir "$D"
	out=$(v2 $p readdir-names "$D" | sed -n 's/^name=//p' | sort | tr '\n' ' ')
	[ "$out" = ". .. fifo file link new null sl sub " ] && ok "READDIR names over $p" ||
		not_ok "READDIR names over $p" "$out"

	# -- names at the limit
	local n255 n256
	n255=$(printf 'n%.0s' $(seq 255))
	n256=${n255}x
	run_expect "CREATE of a 255-byte name over $p" '^status=0$' v2 $p create "$D" "$n255" mode=0644
	expect_status "LOOKUP of a 255-byte name over $p" $NFS_OK $p lookup "$D" "$n255"
	# nfs2probe's encoder refuses it too: the call body is built by hand.
	run_expect "a 256-byte name does not decode (GARBAGE_ARGS) over $p" '^rpc=GARBAGE_ARGS' \
		nfs_probe $p raw $NFS_PROG 2 4 "$D$(printf '%08x' 256)$(printf '%s' "$n256" | od -An -v -tx1 | tr -d ' \n')"
	run_expect "READDIR shows the 255-byte name over $p" "^name=$n255\$" v2 $p readdir-names "$D"

	# -- handles
	expect_status "a zeroed handle is STALE over $p" $NFSERR_STALE $p getattr 00
	run_check "every bit flip of a handle is STALE over $p" v2 $p flip-each "$F"

	# -- access checks
	local RR RF QS
	RR=$(v2root $p "$RO")
	RF=$(v2fh_of $p "$RR" file)
	expect_status "WRITE on a read-only export is ROFS over $p" $NFSERR_ROFS $p write "$RF" 0 00
	expect_status "CREATE on a read-only export is ROFS over $p" $NFSERR_ROFS $p create "$RR" x mode=0644
	QS=$(v2root $p "$SQUASH")
	run_expect "root is squashed to nobody over $p" ' uid=65534 ' v2 $p create "$QS" squashed-$p mode=0644
	expect_status "uid 4321 may not chmod nobody's file over $p" $NFSERR_PERM \
		$p -u 4321 -g 4321 setattr "$(v2fh_of $p "$QS" squashed-$p)" mode=0777
}

workout udp
workout tcp
if [ -n "$IPV6" ]; then
	run_expect "MNT v1 over udp6" '^status=0$' m1 udp6 mnt "$EXPORT"
	run_expect "GETATTR over tcp6" '^type=2 ' v2 tcp6 getattr "$(v2root tcp6 "$EXPORT")"
fi
ROOT=$(v2root udp "$EXPORT")

# UMNT rewrites rmtab as the daemon, whoever the worker ran as before:
# once every worker has served an unprivileged user (many calls at once
# reach every thread), each UMNT must still empty the file.
unpriv_getattrs() {	# N: that many at once; waits for them only
	local pids=() i
	for ((i = 0; i < $1; i++)); do
		v2 tcp -u 1000 -g 1000 getattr "$ROOT" >/dev/null 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
}
unpriv_getattrs 48
stale=0
for _ in $(seq 16); do
	m1 tcp mnt "$EXPORT" >/dev/null 2>&1
	unpriv_getattrs 2
	m1 tcp -m 2 umntall >/dev/null 2>&1
	grep -q "^127\.0\.0\.1:" "$STATE_DIR/rmtab" && stale=$((stale + 1))
done
[ $stale = 0 ] && ok "UMNTALL empties rmtab after unprivileged calls on every worker (16 rounds)" ||
	not_ok "rmtab kept mounts after UMNTALL in $stale of 16 rounds" \
		"$(cat "$STATE_DIR/rmtab"); $(grep rmtab "$DAEMON_LOG" | tail -n 3)"
ROOT=$(v2root udp "$EXPORT")

# ---------------------------------------------------------------------------
# 3. a file beyond 2 GiB: clamped attributes, FBIG past the limit

truncate -s 3G "$EXPORT/huge"
printf 'tail' | dd of="$EXPORT/huge" bs=1 seek=$((0x7ffffffb)) conv=notrunc status=none
H=$(v2fh_of udp "$ROOT" huge)
run_expect "a 3 GiB file shows as 2 GiB - 1 over v2" ' size=2147483647 ' v2 udp getattr "$H"
run_expect "v3 still sees all 3 GiB" '^status=0' nfs_probe tcp getattr-hex "$(fh_of tcp "$(mnt_fh tcp "$EXPORT")" huge)"
[ "$(field size "$OUT")" = 3221225472 ] && ok "v3 size 3221225472" || not_ok "v3 size of huge" "$OUT"
run_expect "READ of the last bytes below 2 GiB" '^count=4 data=7461696c$' v2 udp read "$H" $((0x7ffffffb)) 100
run_expect "READ at 2 GiB - 1 finds end of file" '^count=0 ' v2 udp read "$H" 2147483647 100
run_expect "READ at 3 GiB finds end of file" '^count=0 ' v2 udp read "$H" 3221225472 100
expect_status "WRITE ending at 2 GiB - 1 works" $NFS_OK udp write "$H" 2147483639 0102030405060708
expect_status "WRITE reaching past 2 GiB - 1 is FBIG" $NFSERR_FBIG udp write "$H" 2147483640 0102030405060708
expect_status "WRITE at 3 GiB is FBIG" $NFSERR_FBIG udp write "$H" 3221225472 01
[ "$(stat -c %s "$EXPORT/huge")" = 3221225472 ] && ok "the server's file kept its size" ||
	not_ok "huge changed size" "$(stat -c %s "$EXPORT/huge")"
rm -f "$EXPORT/huge"

# ---------------------------------------------------------------------------
# 4. READDIR across many 8 KiB replies; a 100,000-entry directory

mkdir "$EXPORT/many"
(cd "$EXPORT/many" && seq -f "a-rather-long-file-name-to-fill-replies-%06g" 1 2000 | xargs touch)
MANY=$(v2fh_of udp "$ROOT" many)
for p in udp tcp; do
	out=$(v2 $p readdir-names "$MANY")
	summary=$(printf '%s\n' "$out" | tail -n 1)
	printf '%s\n' "$out" | sed -n 's/^name=//p' | grep -v '^\.\.\?$' | sort >"$WORKDIR/got"
	ls -A "$EXPORT/many" | sort >"$WORKDIR/want"
	if cmp -s "$WORKDIR/got" "$WORKDIR/want" && [ "$(field entries "$summary")" = 2002 ]; then
		ok "2000 long names listed exactly once over $p ($summary)"
	else
		not_ok "READDIR of 2000 names over $p" "$summary
$(diff "$WORKDIR/want" "$WORKDIR/got" | head)"
	fi
	calls=$(field calls "$summary")
	maxreply=$(field maxreply "$summary")
	[ "$calls" -gt 10 ] && [ "$maxreply" -le 8192 ] && ok "replies of at most 8 KiB ($calls calls, largest $maxreply) over $p" ||
		not_ok "READDIR replies over $p: $summary"
done
out=$(v2 udp -c 1024 readdir-names "$MANY" | tail -n 1)
[ "$(field entries "$out")" = 2002 ] && [ "$(field maxreply "$out")" -le 1024 ] &&
	ok "READDIR with count 1024 stays within it ($out)" || not_ok "READDIR count 1024" "$out"
expect_status "READDIR with a count too small for one entry is INVAL" $NFSERR_INVAL udp readdir "$MANY" 0 16
expect_status "READDIR of a file is NOTDIR" $NFSERR_NOTDIR udp readdir "$(v2fh_of udp "$ROOT" udp/file)"

# A cookie handed out before a restart: refused, not silently restarted.
out=$(v2 udp readdir "$MANY" 0 1024)
cookie=$(field last_cookie "$out")
run_expect "a READDIR cookie continues the listing" '^entries=[1-9]' v2 udp readdir "$MANY" "$cookie" 1024
restart_daemon
if [ $((cookie & 0x80000000)) -ne 0 ]; then
	expect_status "a translated cookie from before a restart is INVAL" $NFSERR_INVAL udp readdir "$MANY" "$cookie" 1024
else
	echo "note: this file system's positions fit 31 bits; cookies survive restarts"
	run_expect "a cookie from before a restart still works" '^entries=[1-9]' v2 udp readdir "$MANY" "$cookie" 1024
fi
rm -rf "$EXPORT/many"

mkdir "$EXPORT/big"
start=$(date +%s)
(cd "$EXPORT/big" && seq -f '%06g' 1 100000 | xargs touch)
BIG=$(v2fh_of tcp "$ROOT" big)
out=$(v2 tcp readdir-names "$BIG")
summary=$(printf '%s\n' "$out" | tail -n 1)
printf '%s\n' "$out" | sed -n 's/^name=//p' | grep -v '^\.\.\?$' >"$WORKDIR/got"
if [ "$(wc -l <"$WORKDIR/got")" -eq 100000 ] && [ "$(sort -u "$WORKDIR/got" | wc -l)" -eq 100000 ] &&
	[ "$(sort "$WORKDIR/got" | head -n 1)" = 000001 ] && [ "$(sort "$WORKDIR/got" | tail -n 1)" = 100000 ]; then
	ok "100,000 entries listed exactly once over v2 ($summary, $(($(date +%s) - start)) s with set-up)"
else
	not_ok "100,000-entry listing" "$summary lines=$(wc -l <"$WORKDIR/got") unique=$(sort -u "$WORKDIR/got" | wc -l)"
fi
rm -rf "$EXPORT/big"

# ---------------------------------------------------------------------------
# 5. one file system under both versions: v2 writes, v3 reads, and back

head -c 300000 /dev/urandom >"$WORKDIR/data2"
head -c 200000 /dev/urandom >"$WORKDIR/data3"
expect_status "CREATE cross.v2" $NFS_OK udp create "$ROOT" cross.v2 mode=0644
run_expect "WRITE 300000 bytes over v2" '^status=0 bytes=300000$' \
	v2 udp write-file "$(v2fh_of udp "$ROOT" cross.v2)" "$WORKDIR/data2"
R3=$(mnt_fh tcp "$EXPORT")
run_check "READ it over v3" nfs_probe tcp read-file "$(fh_of tcp "$R3" cross.v2)" "$WORKDIR/back3"
cmp -s "$WORKDIR/data2" "$WORKDIR/back3" && ok "written over v2, read over v3" ||
	not_ok "v2 -> v3 data differs"
cp /dev/null "$EXPORT/cross.v3"
run_check "WRITE 200000 bytes over v3" nfs_probe tcp write-file "$(fh_of tcp "$R3" cross.v3)" \
	"$WORKDIR/data3" filesync
run_expect "READ it over v2" '^status=0 bytes=200000 ' \
	v2 udp read-file "$(v2fh_of udp "$ROOT" cross.v3)" "$WORKDIR/back2"
cmp -s "$WORKDIR/data3" "$WORKDIR/back2" && ok "written over v3, read over v2" ||
	not_ok "v3 -> v2 data differs"

# ---------------------------------------------------------------------------
# 6. v2 and v3 handles of one object, across restarts and a move

mkdir -p "$EXPORT/keep/inner"
echo keep >"$EXPORT/keep/inner/obj"
H2=$(v2fh_of udp "$ROOT" keep/inner/obj)
H3=$(fh_of tcp "$R3" keep/inner/obj)
ino=$(stat -c %i "$EXPORT/keep/inner/obj")
restart_daemon
run_expect "the v2 handle works after a restart" "fileid=$ino " v2 udp getattr "$H2"
run_expect "the v3 handle works after a restart" '^status=0' nfs_probe tcp getattr-hex "$H3"
restart_daemon
mv "$EXPORT/keep/inner" "$EXPORT/moved-inner"
run_expect "the v2 handle works after a restart and a move" "fileid=$ino " v2 tcp getattr "$H2"
run_expect "the v3 handle works after a restart and a move" '^status=0' nfs_probe tcp getattr-hex "$H3"
run_expect "the v2 root handle works after a restart" '^type=2 ' v2 udp getattr "$ROOT"
rm "$EXPORT/moved-inner/obj"
expect_status "the v2 handle of a removed file is STALE" $NFSERR_STALE udp getattr "$H2"

check_daemon_alive "the NFSv2 workout"
stop_daemon

# ---------------------------------------------------------------------------
# 7. an unprivileged daemon: no open_by_handle_at, so a v2 handle (which may
#    carry no inode number) is found again by searching the export

if command -v setpriv >/dev/null; then
	group=$(id -gn nobody 2>/dev/null || echo nogroup)
	U=$WORKDIR/unpriv
	mkdir -p "$U/export/a/b"
	echo unprivileged >"$U/export/a/b/f"
	chmod 755 "$WORKDIR" "$U"
	STATE_DIR=$WORKDIR/state-unpriv
	PIDFILE=$STATE_DIR/usernfsd.pid
	mkdir -p "$STATE_DIR"
	chown -R "nobody:$group" "$U/export" "$STATE_DIR"
	export USERNFSD_WRAPPER="setpriv --reuid=nobody --regid=$group --clear-groups"
	start_daemon "$U/export 127.0.0.1(rw,insecure)" --no-rpcbind
	UR=$(v2root tcp "$U/export")
	UF=$(v2fh_of tcp "$UR" a/b/f)
	run_expect "unprivileged: LOOKUP through the v2 root handle" '^status=0$' v2 tcp lookup-path "$UR" a/b/f
	restart_daemon
	run_expect "unprivileged: the v2 root handle after a restart" '^type=2 ' v2 tcp getattr "$UR"
	run_expect "unprivileged: a v2 file handle after a restart" '^count=13 ' v2 udp read "$UF" 0 100
	mv "$U/export/a/b" "$U/export/moved"
	restart_daemon
	run_expect "unprivileged: a v2 file handle after a move and a restart" '^count=13 ' v2 tcp read "$UF" 0 100
	stop_daemon
	unset USERNFSD_WRAPPER
else
	echo "note: no setpriv: the unprivileged daemon is not tested"
fi
finish
