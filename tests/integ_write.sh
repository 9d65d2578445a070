#!/bin/bash
# integ_write.sh - the NFSv3 write path, procedure by procedure, over UDP
# and TCP (rpcprobe; a few over udp6/tcp6 when lo has IPv6), checked on the
# server's file system:
#   - CREATE UNCHECKED (an existing file is reused, size=0 truncates),
#     GUARDED (EXIST), EXCLUSIVE (the same verifier again: OK and the same
#     handle; another verifier: EXIST); the mode is the one asked for
#   - MKDIR, SYMLINK (READLINK gives the target back, also one of 4000
#     bytes), MKNOD (fifo, socket, char and block devices; a regular file
#     type is BADTYPE; devices refused to a squashed or non-root caller)
#   - REMOVE, RMDIR (NOTEMPTY, NOTDIR, "." INVAL), RENAME (over a file,
#     across directories, a directory over an empty / non-empty one), LINK
#   - SETATTR of mode, uid, gid, size, atime, mtime, SET_TO_SERVER_TIME,
#     with a ctime guard that matches (OK) and one that does not (NOT_SYNC)
#   - WRITE at offsets, appends, a sparse file of 5 GiB + 1 (the hole reads
#     as zeros, du shows it sparse), 64-bit offsets, FBIG past 2^63
#   - names of 255 bytes work, 256 are refused; "a/b", ".", "..", "" are
#     refused by every procedure that makes or removes a name
#   - edge cases: a directory renamed into itself (INVAL), LINK and RENAME
#     into another export (XDEV), a file handle used as a directory
#     (NOTDIR), WRITE/SETATTR size/COMMIT on a fifo (INVAL, no hang),
#     handles of removed objects (STALE), a 1 MiB WRITE in one call
#   - weak cache consistency: pre-op and post-op attributes in the replies
#   - ownership with root_squash, anonuid=, all_squash and without squashing
#   - permissions: ACCES for a non-owner without write permission, ROFS
#     for every modifying procedure on a read-only export
#   - files of several sizes (up to 100 MiB) written with nfs-cp read back
#     identical (sha256) on the server
. "$(dirname "$0")/lib.sh"

need_cmd sha256sum stat du
setup

T=$WORKDIR
EXPORT=$T/rw          # rw, no_root_squash
SQ=$T/squash          # root_squash (anonymous 65534)
SQA=$T/squash_anon    # root_squash,anonuid=2000,anongid=3000
ALL=$T/allsquash      # all_squash,anonuid=1234,anongid=4321
RO=$T/ro              # ro
RW2=$T/rw2            # another rw export on the same file system
mkdir -p "$EXPORT/udp" "$EXPORT/tcp" "$SQ" "$SQA" "$ALL" "$RO/dir" "$RW2"
chmod 0777 "$EXPORT" "$EXPORT/udp" "$EXPORT/tcp" "$SQ" "$SQA" "$ALL"
echo "read-only content" >"$RO/file"

V6=
if has_ipv6_lo; then
	V6="::1(rw,insecure,no_root_squash)"
	mkdir -p "$EXPORT/udp6" "$EXPORT/tcp6"
fi

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash) $V6
$SQ 127.0.0.1(rw,insecure,root_squash)
$SQA 127.0.0.1(rw,insecure,root_squash,anonuid=2000,anongid=3000)
$ALL 127.0.0.1(rw,insecure,all_squash,anonuid=1234,anongid=4321)
$RO 127.0.0.1(ro,insecure,no_root_squash)
$RW2 127.0.0.1(rw,insecure,no_root_squash)" --no-rpcbind

# ---------------------------------------------------------------------------
# helpers

# write3_args HEXFH COUNT DATALEN: WRITE3args (offset 0, FILE_SYNC) in hex,
# with COUNT as given and DATALEN bytes of 'x' as the data
write3_args() {
	local fh=$1 len=$((${#1} / 2))
	printf '%08x%s' "$len" "$fh"
	printf '%*s' $(( (4 - len % 4) % 4 * 2 )) '' | tr ' ' 0
	printf '%016x%08x%08x%08x' 0 "$2" 2 "$3"
	head -c "$3" /dev/zero | tr '\0' x | od -An -tx1 -v | tr -d ' \n'
	printf '%*s' $(( (4 - $3 % 4) % 4 * 2 )) '' | tr ' ' 0
}

owner() {
	stat -c %u:%g "$1" 2>&1
}

# the sparse-file checks, inside the per-protocol loop ($p, $S, $FH_SP)
test_sparse() {
	local FIVE=$((5 << 30)) TIB=$((1 << 40)) du_k
	expect_st "WRITE 1 byte at 5 GiB over $p" 0 $p write "$FH_SP" $FIVE unstable 78
	expect_eq "WRITE at 5 GiB count over $p" "$(field count "$OUT")" 1
	call $p getattr-hex "$FH_SP"
	expect_eq "GETATTR size is 5 GiB + 1 over $p" "$(field size "$OUT")" $((FIVE + 1))
	run_expect "READ of the hole at 4 GiB is zeros over $p" '^count=16 eof=0 data=0{32}$' \
		nfs_probe $p read-hex "$FH_SP" $((4 << 30)) 16
	run_expect "READ of the hole at 0 is zeros over $p" '^count=16 eof=0 data=0{32}$' \
		nfs_probe $p read-hex "$FH_SP" 0 16
	run_expect "READ of the byte at 5 GiB over $p" '^count=1 eof=1 data=78$' \
		nfs_probe $p read-hex "$FH_SP" $FIVE 10
	du_k=$(du -k "$S/sparse" | cut -f1)
	[ "$du_k" -lt 1024 ] && ok "sparse on the server" ||
		not_ok "the 5 GiB file over $p uses $du_k KiB on the server (not sparse)"
	expect_eq "server size of the sparse file over $p" "$(stat -c %s "$S/sparse")" $((FIVE + 1))
	expect_st "WRITE at 1 TiB (64-bit offset) over $p" 0 $p write "$FH_SP" $TIB filesync "$(hex tera)"
	run_expect "READ back at 1 TiB over $p" "^count=4 eof=1 data=$(hex tera)\$" \
		nfs_probe $p read-hex "$FH_SP" $TIB 100
	expect_eq "server size after the 1 TiB write over $p" "$(stat -c %s "$S/sparse")" $((TIB + 4))
	expect_eq "server bytes at 1 TiB over $p" \
		"$(dd if="$S/sparse" bs=1 skip=$TIB count=4 status=none 2>&1)" tera
}

SPARSE_OK=
ROOT=$(mnt_fh tcp "$EXPORT")
[ -n "$ROOT" ] || fail "MNT $EXPORT failed: $(mnt_probe tcp mnt "$EXPORT" 2>&1)"

# ---------------------------------------------------------------------------
# 1. every procedure, over UDP and TCP, each in its own directory

for p in udp tcp; do
	S=$EXPORT/$p                          # the server's view
	D=$(fh_of $p "$ROOT" $p)
	[ -n "$D" ] || fail "LOOKUP $p failed"

	# ---- CREATE
	expect_st "CREATE UNCHECKED new over $p" 0 $p create "$D" cu unchecked 0644
	FH_CU=$(field fh "$OUT")
	[ -f "$S/cu" ] && ok "CREATE made a file" || not_ok "CREATE over $p: $S/cu missing"
	expect_eq "CREATE mode 0644 over $p" "$(stat -c %a "$S/cu")" 644
	expect_eq "CREATE reply type and mode over $p" "$(field type "$OUT"):$(field mode "$OUT")" 1:0644
	printf 'hello\n' >"$S/cu"
	expect_st "CREATE UNCHECKED of an existing file over $p" 0 $p create "$D" cu unchecked
	expect_eq "UNCHECKED reuses the file (same handle) over $p" "$(field fh "$OUT")" "$FH_CU"
	expect_eq "UNCHECKED without size keeps the data over $p" "$(cat "$S/cu")" hello
	expect_st "CREATE UNCHECKED size=0 of an existing file over $p" 0 $p create "$D" cu unchecked size=0
	expect_eq "UNCHECKED size=0 truncates (reply) over $p" "$(field size "$OUT")" 0
	expect_eq "UNCHECKED size=0 truncates (server) over $p" "$(stat -c %s "$S/cu")" 0
	expect_st "CREATE mode 0666 over $p" 0 $p create "$D" c666 guarded 0666
	expect_eq "CREATE mode 0666 is not masked by the daemon's umask over $p" \
		"$(stat -c %a "$S/c666")" 666
	mkdir "$S/adir"
	expect_st "CREATE UNCHECKED over an existing directory is EXIST over $p" 17 \
		$p create "$D" adir unchecked

	expect_st "CREATE GUARDED new over $p" 0 $p create "$D" cg guarded 0600
	expect_st "CREATE GUARDED existing is EXIST over $p" 17 $p create "$D" cg guarded 0600

	expect_st "CREATE EXCLUSIVE new over $p" 0 $p create "$D" ce exclusive 1111111111111111
	FH_CE=$(field fh "$OUT")
	[ -f "$S/ce" ] && ok "EXCLUSIVE made a file" || not_ok "EXCLUSIVE over $p: $S/ce missing"
	expect_st "CREATE EXCLUSIVE retransmitted (same verifier) over $p" 0 \
		$p create "$D" ce exclusive 1111111111111111
	expect_eq "EXCLUSIVE retransmission gives the same handle over $p" "$(field fh "$OUT")" "$FH_CE"
	expect_st "CREATE EXCLUSIVE with another verifier is EXIST over $p" 17 \
		$p create "$D" ce exclusive 2222222222222222
	# the client sets the real attributes after an exclusive create
	expect_st "SETATTR after EXCLUSIVE over $p" 0 $p setattr "$FH_CE" mode=0640 atime=server mtime=server
	expect_eq "mode after EXCLUSIVE + SETATTR over $p" "$(stat -c %a "$S/ce")" 640

	# ---- MKDIR
	expect_st "MKDIR over $p" 0 $p mkdir "$D" md 0755
	expect_eq "MKDIR reply type over $p" "$(field type "$OUT")" 2
	[ -d "$S/md" ] && ok "MKDIR made a directory" || not_ok "MKDIR over $p: $S/md missing"
	expect_st "MKDIR of an existing name is EXIST over $p" 17 $p mkdir "$D" md 0755
	expect_st "MKDIR mode 0777 over $p" 0 $p mkdir "$D" md777 0777
	expect_eq "MKDIR mode 0777 is not masked over $p" "$(stat -c %a "$S/md777")" 777

	# ---- SYMLINK and READLINK
	expect_st "SYMLINK over $p" 0 $p symlink "$D" sl "some/where/../target"
	expect_eq "SYMLINK reply type over $p" "$(field type "$OUT")" 5
	FH_SL=$(field fh "$OUT")
	expect_eq "SYMLINK target on the server over $p" "$(readlink "$S/sl")" "some/where/../target"
	run_expect "READLINK gives the target back over $p" '^target=some/where/\.\./target$' \
		nfs_probe $p readlink-hex "$FH_SL"
	LONG=$(printf 'x%.0s' $(seq 3989))/0123456789
	expect_st "SYMLINK with a 4000-byte target over $p" 0 $p symlink "$D" sllong "$LONG"
	expect_eq "4000-byte target on the server over $p" "$(readlink "$S/sllong" | sha256sum)" \
		"$(printf '%s\n' "$LONG" | sha256sum)"
	got=$(nfs_probe $p readlink-hex "$(field fh "$OUT")" 2>&1 | sed -n 's/^target=//p')
	[ "$got" = "$LONG" ] && [ ${#got} -eq 4000 ] && ok "READLINK of the 4000-byte target" ||
		not_ok "READLINK of the 4000-byte target over $p gave ${#got} bytes, not the target"
	expect_st "SYMLINK of an existing name is EXIST over $p" 17 $p symlink "$D" sl elsewhere

	# ---- MKNOD
	expect_st "MKNOD fifo over $p" 0 $p mknod "$D" fifo fifo 0644
	expect_eq "MKNOD fifo type over $p" "$(field type "$OUT"):$(stat -c %F "$S/fifo")" "7:fifo"
	expect_st "MKNOD socket over $p" 0 $p mknod "$D" sock sock 0644
	expect_eq "MKNOD socket type over $p" "$(field type "$OUT"):$(stat -c %F "$S/sock")" "6:socket"
	expect_st "MKNOD chr as root (no_root_squash) over $p" 0 $p mknod "$D" chr chr rdev=1,3 0600
	expect_eq "MKNOD chr type and rdev over $p" "$(field type "$OUT"):$(field rdev "$OUT"):$(stat -c '%F %t,%T' "$S/chr")" \
		"4:1,3:character special file 1,3"
	expect_st "MKNOD blk as root (no_root_squash) over $p" 0 $p mknod "$D" blk blk rdev=7,0 0600
	expect_eq "MKNOD blk type and rdev over $p" "$(field type "$OUT"):$(stat -c '%F %t,%T' "$S/blk")" \
		"3:block special file 7,0"
	expect_st "MKNOD chr as uid 1000 is PERM/ACCES over $p" '1|13' \
		$p -u 1000 -g 1000 mknod "$D" chr1000 chr rdev=1,3
	[ -e "$S/chr1000" ] && not_ok "MKNOD chr as uid 1000 created $S/chr1000 over $p" || ok "no device made"
	for t in reg dir lnk 0 8; do
		expect_st "MKNOD type $t is BADTYPE over $p" 10007 $p mknod "$D" bad$t $t
	done
	expect_st "MKNOD of an existing name is EXIST over $p" 17 $p mknod "$D" fifo fifo

	# ---- REMOVE
	: >"$S/rm1"
	expect_st "REMOVE over $p" 0 $p remove "$D" rm1
	[ -e "$S/rm1" ] && not_ok "REMOVE over $p left $S/rm1" || ok "REMOVE removed it"
	expect_st "REMOVE of a missing name is NOENT over $p" 2 $p remove "$D" rm1
	mkdir "$S/rmd"
	expect_st "REMOVE of a directory fails over $p" '[1-9][0-9]*' $p remove "$D" rmd
	echo "note: REMOVE of a directory over $p: status $ST"
	[ -d "$S/rmd" ] && ok "directory still there" || not_ok "REMOVE over $p removed the directory $S/rmd"
	expect_st "REMOVE of a fifo over $p" 0 $p remove "$D" fifo
	expect_st "REMOVE of a symlink (not its target) over $p" 0 $p remove "$D" sl

	# ---- RMDIR
	mkdir -p "$S/full" && : >"$S/full/f"
	expect_st "RMDIR of a non-empty directory is NOTEMPTY over $p" 66 $p rmdir "$D" full
	expect_st "RMDIR of a file is NOTDIR over $p" 20 $p rmdir "$D" cu
	expect_st "RMDIR of . is INVAL over $p" 22 $p rmdir "$D" .
	expect_st "RMDIR of .. fails over $p" '[1-9][0-9]*' $p rmdir "$D" ..
	expect_st "RMDIR of a missing name is NOENT over $p" 2 $p rmdir "$D" nothere
	expect_st "RMDIR of an empty directory over $p" 0 $p rmdir "$D" rmd
	[ -e "$S/rmd" ] && not_ok "RMDIR over $p left $S/rmd" || ok "RMDIR removed it"

	# ---- RENAME
	echo A >"$S/ra" && echo B >"$S/rb"
	expect_st "RENAME over an existing file over $p" 0 $p rename "$D" ra "$D" rb
	expect_eq "RENAME over a file: content and source over $p" "$(cat "$S/rb"):$([ -e "$S/ra" ] && echo left)" "A:"
	expect_eq "RENAME wcc: from_pre and to_pre present over $p" \
		"$([ -n "$(field from_pre_size "$OUT")" ] && [ -n "$(field to_pre_size "$OUT")" ] && echo yes)" yes
	mkdir -p "$S/sub" && echo X >"$S/rx"
	SUB=$(fh_of $p "$D" sub)
	expect_st "RENAME across directories over $p" 0 $p rename "$D" rx "$SUB" rx2
	expect_eq "RENAME across directories: moved over $p" "$(cat "$S/sub/rx2" 2>&1):$([ -e "$S/rx" ] && echo left)" "X:"
	mkdir -p "$S/rd1/inner" "$S/rd2"
	expect_st "RENAME of a directory over an empty directory over $p" 0 $p rename "$D" rd1 "$D" rd2
	[ -d "$S/rd2/inner" ] && [ ! -e "$S/rd1" ] && ok "directory replaced" ||
		not_ok "RENAME rd1 over rd2 over $p: the tree is not as expected" "$(ls -R "$S" | head)"
	mkdir -p "$S/rd3" "$S/rd4" && : >"$S/rd4/keep"
	expect_st "RENAME of a directory over a non-empty one is NOTEMPTY/EXIST over $p" '66|17' \
		$p rename "$D" rd3 "$D" rd4
	[ -e "$S/rd4/keep" ] && [ -d "$S/rd3" ] && ok "nothing moved" || not_ok "RENAME rd3 over rd4 over $p changed something"
	expect_st "RENAME of a file over a directory fails over $p" '[1-9][0-9]*' $p rename "$D" rb "$D" rd3
	expect_st "RENAME of a directory over a file fails over $p" '[1-9][0-9]*' $p rename "$D" rd3 "$D" rb
	expect_st "RENAME of a missing name is NOENT over $p" 2 $p rename "$D" nothere "$D" x
	expect_st "RENAME of . fails over $p" '[1-9][0-9]*' $p rename "$D" . "$D" dot

	# ---- LINK
	echo L >"$S/lf"
	FH_LF=$(fh_of $p "$D" lf)
	expect_st "LINK over $p" 0 $p link "$FH_LF" "$D" lf2
	expect_eq "LINK: nlink in the reply over $p" "$(field file_nlink "$OUT")" 2
	expect_eq "LINK: nlink on the server over $p" "$(stat -c %h "$S/lf"):$(stat -c %i "$S/lf2")" \
		"2:$(stat -c %i "$S/lf")"
	expect_st "LINK across directories over $p" 0 $p link "$FH_LF" "$SUB" lf3
	expect_eq "LINK: nlink 3 over $p" "$(stat -c %h "$S/lf")" 3
	expect_st "LINK to an existing name is EXIST over $p" 17 $p link "$FH_LF" "$D" lf2
	expect_st "LINK of a directory is refused over $p" '[1-9][0-9]*' $p link "$SUB" "$D" subdirlink
	echo "note: LINK of a directory over $p: status $ST"
	[ -e "$S/subdirlink" ] && not_ok "LINK of a directory over $p made $S/subdirlink" || ok "no directory link"

	# ---- SETATTR
	echo 0123456789 >"$S/sa"
	FH_SA=$(fh_of $p "$D" sa)
	expect_st "SETATTR mode over $p" 0 $p setattr "$FH_SA" mode=0604
	expect_eq "SETATTR mode (reply, server) over $p" "$(field post_mode "$OUT"):$(stat -c %a "$S/sa")" "0604:604"
	expect_st "SETATTR uid and gid over $p" 0 $p setattr "$FH_SA" uid=1000 gid=1001
	expect_eq "SETATTR uid/gid (server) over $p" "$(owner "$S/sa")" 1000:1001
	expect_st "SETATTR size (extend) over $p" 0 $p setattr "$FH_SA" size=100
	expect_eq "SETATTR size (reply, server) over $p" "$(field post_size "$OUT"):$(stat -c %s "$S/sa")" 100:100
	expect_st "SETATTR size (truncate) over $p" 0 $p setattr "$FH_SA" size=4
	expect_eq "SETATTR truncate keeps the head over $p" "$(cat "$S/sa")" 0123
	expect_st "SETATTR atime and mtime over $p" 0 $p setattr "$FH_SA" \
		atime=1000000000.000000005 mtime=1200000000.123456789
	expect_eq "SETATTR times (reply) over $p" "$(field post_atime "$OUT") $(field post_mtime "$OUT")" \
		"1000000000.000000005 1200000000.123456789"
	expect_eq "SETATTR times (server) over $p" "$(stat -c '%X %Y' "$S/sa")" "1000000000 1200000000"
	now=$(date +%s)
	expect_st "SETATTR times to server time over $p" 0 $p setattr "$FH_SA" atime=server mtime=server
	m=$(field post_mtime "$OUT")
	a=$(field post_atime "$OUT")
	if [ -n "$m" ] && [ $((${m%.*} - now)) -ge -5 ] && [ $((${m%.*} - now)) -le 5 ] &&
		[ $((${a%.*} - now)) -ge -5 ] && [ $((${a%.*} - now)) -le 5 ]; then
		ok "server time is now"
	else
		not_ok "SET_TO_SERVER_TIME over $p: atime $a mtime $m, now $now" "$OUT"
	fi
	expect_st "SETATTR mtime only over $p" 0 $p setattr "$FH_SA" mtime=1300000000
	expect_eq "SETATTR mtime only leaves atime over $p" "$(field post_atime "$OUT"|cut -d. -f1):$(stat -c %Y "$S/sa")" "${a%.*}:1300000000"
	call $p getattr-hex "$FH_SA"
	CT=$(field ctime "$OUT")
	expect_st "SETATTR with a matching ctime guard over $p" 0 $p setattr "$FH_SA" guard="$CT" mode=0640
	expect_eq "guarded SETATTR applied over $p" "$(stat -c %a "$S/sa")" 640
	expect_st "SETATTR with a stale ctime guard is NOT_SYNC over $p" 10002 \
		$p setattr "$FH_SA" guard="$CT" mode=0600
	expect_eq "NOT_SYNC SETATTR changed nothing over $p" "$(stat -c %a "$S/sa")" 640
	expect_st "SETATTR with guard 1.0 is NOT_SYNC over $p" 10002 $p setattr "$FH_SA" guard=1.0 mode=0600
	expect_st "SETATTR with nanoseconds >= 10^9 is INVAL over $p" 22 \
		$p setattr "$FH_SA" mtime=1.1000000000
	expect_st "SETATTR size of a directory fails over $p" '[1-9][0-9]*' $p setattr "$SUB" size=0
	expect_st "SETATTR of nothing over $p" 0 $p setattr "$FH_SA"

	# ---- WRITE
	: >"$S/w"
	FH_W=$(fh_of $p "$D" w)
	expect_st "WRITE at 0 over $p" 0 $p write "$FH_W" 0 filesync "$(hex hello)"
	expect_eq "WRITE count and committed over $p" "$(field count "$OUT"):$(field committed "$OUT")" 5:2
	expect_st "WRITE at 10 over $p" 0 $p write "$FH_W" 10 unstable "$(hex world)"
	expect_eq "WRITE at 10 leaves a hole over $p" "$(od -An -c "$S/w" | tr -s ' ' | tr -d '\n')" \
		" h e l l o \0 \0 \0 \0 \0 w o r l d"
	for i in 1 2 3; do
		size=$(stat -c %s "$S/w")
		expect_st "WRITE append $i over $p" 0 $p write "$FH_W" "$size" datasync "$(hex "-append$i")"
		pre=$(field pre_size "$OUT")
		post=$(field post_size "$OUT")
		if [ -n "$pre" ] && [ -n "$post" ] && [ "$pre" -eq "$size" ] && [ "$post" -eq $((size + 8)) ] &&
			[ "$pre" -lt "$post" ]; then
			ok "wcc of an append"
		else
			not_ok "WRITE append $i over $p: pre_size '$pre' post_size '$post', file was $size" "$OUT"
		fi
		[ -n "$(field pre_mtime "$OUT")" ] && [ -n "$(field pre_ctime "$OUT")" ] &&
			[ -n "$(field post_ctime "$OUT")" ] && ok "wcc times present" ||
			not_ok "WRITE over $p: wcc times missing" "$OUT"
	done
	expect_eq "WRITE appends on the server over $p" "$(tail -c 24 "$S/w")" "-append1-append2-append3"
	expect_st "WRITE to a directory fails over $p" '21|22' $p write "$SUB" 0 filesync 00
	expect_st "WRITE at offset 2^64-1 is FBIG over $p" '27|22' $p write "$FH_W" 0xffffffffffffffff filesync 00
	expect_st "WRITE at offset 2^63 is FBIG over $p" '27|22' $p write "$FH_W" 0x8000000000000000 filesync 00
	expect_st "WRITE with count 0 over $p" 0 $p write "$FH_W" 0 filesync ""
	expect_eq "WRITE of 0 bytes: count 0 over $p" "$(field count "$OUT")" 0
	# RFC 1813: count bytes are written, whatever else the data carries
	before=$(sha256sum <"$S/w")
	run_expect "WRITE with count 0 and 100 data bytes is OK, count 0, over $p" '^reply=00000000[0-9a-f]*0000000000000002[0-9a-f]{16}$' \
		nfs_probe $p raw $NFS_PROG 3 7 "$(write3_args "$FH_W" 0 100)"
	expect_eq "WRITE with count 0 and data wrote nothing over $p" "$(sha256sum <"$S/w")" "$before"
	run_expect "WRITE with count 101 and 100 data bytes is INVAL over $p" '^reply=00000016' \
		nfs_probe $p raw $NFS_PROG 3 7 "$(write3_args "$FH_W" 101 100)"

	# sparse: 1 byte at 5 GiB, then at 1 TiB (when the file system where the
	# test runs has sparse files that big: checked locally first)
	if [ -z "$SPARSE_OK" ]; then
		SPARSE_OK=no
		if dd if=/dev/zero of="$T/sparse.probe" bs=1 count=1 seek=$((1 << 40)) status=none 2>/dev/null &&
			[ "$(du -k "$T/sparse.probe" | cut -f1)" -lt 1024 ]; then
			SPARSE_OK=yes
		fi
		rm -f "$T/sparse.probe"
		[ $SPARSE_OK = yes ] || echo "note: $T cannot hold a sparse 1 TiB file: the sparse checks are skipped"
	fi
	if [ $SPARSE_OK = yes ]; then
		: >"$S/sparse"
		FH_SP=$(fh_of $p "$D" sparse)
		test_sparse
		rm -f "$S/sparse"
	fi


	# ---- names of 255 and 256 bytes
	N255=$(printf 'n%.0s' $(seq 255))
	N256=${N255}x
	expect_st "CREATE with a 255-byte name over $p" 0 $p create "$D" "$N255" guarded
	[ -f "$S/$N255" ] && ok "255-byte name made" || not_ok "255-byte name over $p: no file"
	expect_st "LOOKUP of the 255-byte name over $p" 0 $p lookup-hex "$D" "$N255"
	expect_st "REMOVE of the 255-byte name over $p" 0 $p remove "$D" "$N255"
	for cmd in "create guarded" "mkdir" "symlink target" "mknod fifo"; do
		set -- $cmd
		c=$1; shift
		call $p $c "$D" "$N256" "$@"
		if [[ $OUT == *rpc=GARBAGE_ARGS* ]] || [ "$ST" = 63 ]; then
			ok "256-byte name refused"
		else
			not_ok "${c^^} with a 256-byte name over $p: want GARBAGE_ARGS or NAMETOOLONG (63)" "$OUT"
		fi
	done
	call $p rename "$D" cu "$D" "$N256"
	[[ $OUT == *rpc=GARBAGE_ARGS* ]] || [ "$ST" = 63 ] && ok "256-byte RENAME target refused" ||
		not_ok "RENAME to a 256-byte name over $p: want GARBAGE_ARGS or NAMETOOLONG" "$OUT"
	if [ -e "$S/$N256" ]; then
		not_ok "something with a 256-byte name exists on the server ($p)"
	fi

	# ---- weak cache consistency in CREATE, REMOVE and WRITE replies
	expect_st "CREATE for wcc over $p" 0 $p create "$D" wcc guarded
	FH_WCC=$(field fh "$OUT")
	for k in dir_pre_size dir_pre_mtime dir_pre_ctime dir_post_size dir_post_mtime dir_post_ctime; do
		[ -n "$(field $k "$OUT")" ] && ok "CREATE wcc $k" || not_ok "CREATE over $p: no $k in the reply" "$OUT"
	done
	[ "$(field dir_post_fileid "$OUT")" = "$(stat -c %i "$S")" ] && ok "dir_post is the directory" ||
		not_ok "CREATE over $p: dir_post_fileid is not the directory's" "$OUT"
	expect_st "WRITE for wcc over $p" 0 $p write "$FH_WCC" 0 unstable "$(hex 0123456789)"
	expect_eq "WRITE wcc: pre_size 0, post_size 10 over $p" "$(field pre_size "$OUT"):$(field post_size "$OUT")" 0:10
	expect_st "REMOVE for wcc over $p" 0 $p remove "$D" wcc
	for k in dir_pre_size dir_pre_mtime dir_pre_ctime dir_post_mtime; do
		[ -n "$(field $k "$OUT")" ] && ok "REMOVE wcc $k" || not_ok "REMOVE over $p: no $k in the reply" "$OUT"
	done
	expect_st "REMOVE (failing) still has wcc over $p" 2 $p remove "$D" wcc
	[ -n "$(field dir_post_mtime "$OUT")" ] && ok "failed REMOVE has post-op attributes" ||
		not_ok "failed REMOVE over $p: no post-op attributes" "$OUT"
done

# ---------------------------------------------------------------------------
# 1b. edge cases: bad names, wrong object types, stale handles, other exports

for p in udp tcp; do
	S=$EXPORT/$p/edge
	mkdir -p "$S/d1/sub"
	echo edge >"$S/f"
	D=$(fh_of $p "$ROOT" $p/edge)
	F=$(fh_of $p "$D" f)
	SUB=$(fh_of $p "$D" d1/sub)
	R2=$(mnt_fh $p "$RW2")
	[ -n "$D" ] && [ -n "$F" ] && [ -n "$SUB" ] && [ -n "$R2" ] || fail "edge case setup over $p failed"

	for n in "a/b" "." ".." ""; do
		expect_st "CREATE '$n' fails over $p" '[1-9][0-9]*' $p create "$D" "$n" guarded
		expect_st "MKDIR '$n' fails over $p" '[1-9][0-9]*' $p mkdir "$D" "$n"
		expect_st "SYMLINK '$n' fails over $p" '[1-9][0-9]*' $p symlink "$D" "$n" target
		expect_st "MKNOD '$n' fails over $p" '[1-9][0-9]*' $p mknod "$D" "$n" fifo
		expect_st "LINK to '$n' fails over $p" '[1-9][0-9]*' $p link "$F" "$D" "$n"
		expect_st "RENAME to '$n' fails over $p" '[1-9][0-9]*' $p rename "$D" f "$D" "$n"
		expect_st "REMOVE '$n' fails over $p" '[1-9][0-9]*' $p remove "$D" "$n"
	done
	expect_eq "bad names changed nothing over $p" "$(ls -A "$S" | tr '\n' ' '):$(ls -A "$S/d1" | tr '\n' ' ')" "d1 f :sub "
	[ -e "$EXPORT/$p/edge/a" ] && not_ok "a name with '/' made something over $p"
	expect_st "CREATE '..' is EXIST over $p" 17 $p create "$D" .. guarded
	expect_st "SYMLINK with an empty target is INVAL over $p" 22 $p symlink "$D" empty ""
	expect_st "RENAME of a directory into itself is INVAL over $p" 22 $p rename "$D" d1 "$SUB" x
	expect_st "RENAME onto itself over $p" 0 $p rename "$D" f "$D" f
	expect_eq "RENAME onto itself keeps the file over $p" "$(cat "$S/f")" edge
	expect_st "LINK into another export is XDEV over $p" 18 $p link "$F" "$R2" f
	expect_st "RENAME into another export is XDEV over $p" 18 $p rename "$D" f "$R2" f
	[ -z "$(ls -A "$RW2")" ] && ok "nothing crossed" || not_ok "something reached $RW2 over $p" "$(ls -A "$RW2")"
	expect_st "CREATE with a file as directory is NOTDIR over $p" 20 $p create "$F" x guarded
	expect_st "REMOVE with a file as directory is NOTDIR over $p" 20 $p remove "$F" x
	expect_st "chown by uid 1000 is PERM over $p" 1 $p -u 1000 -g 1000 setattr "$F" uid=1000
	expect_st "MKNOD fifo over $p" 0 $p mknod "$D" fifo fifo
	FI=$(field fh "$OUT")
	# a fifo is not data: no open that could block a server thread
	expect_st "WRITE to a fifo is INVAL over $p" 22 $p -t 10 write "$FI" 0 filesync 41
	expect_st "SETATTR size of a fifo is INVAL over $p" 22 $p setattr "$FI" size=0
	expect_st "COMMIT of a fifo is INVAL over $p" 22 $p commit "$FI"
	expect_st "CREATE EXCLUSIVE with verifier ff..ff over $p" 0 $p create "$D" xf exclusive ffffffffffffffff
	expect_st "its retransmission over $p" 0 $p create "$D" xf exclusive ffffffffffffffff
	expect_st "CREATE EXCLUSIVE with verifier 8000000080000000 over $p" 0 $p create "$D" x8 exclusive 8000000080000000
	expect_st "its retransmission over $p" 0 $p create "$D" x8 exclusive 8000000080000000
	# handles of removed objects
	rm "$S/f"
	expect_st "WRITE to a removed file is STALE over $p" 70 $p write "$F" 0 filesync 41
	expect_st "SETATTR of a removed file is STALE over $p" 70 $p setattr "$F" mode=0600
	expect_st "LINK of a removed file is STALE over $p" 70 $p link "$F" "$D" revived
	expect_st "COMMIT of a removed file is STALE over $p" 70 $p commit "$F"
	rmdir "$S/d1/sub"
	expect_st "CREATE in a removed directory fails over $p" '2|70' $p create "$SUB" x guarded
	[ -e "$S/revived" ] && not_ok "LINK of a removed file revived it over $p"
done
# the largest WRITE: 1 MiB in one call over TCP, 32 KiB over UDP
head -c 1048576 /dev/urandom >"$T/onemeg"
: >"$EXPORT/onemeg"
F=$(fh_of tcp "$ROOT" onemeg)
run_expect "a 1 MiB WRITE in one call over tcp" '^status=0 bytes=1048576 calls=1 ' \
	nfs_probe tcp -t 30 -c 1048576 write-file "$F" "$T/onemeg" filesync
run_expect "32 KiB WRITEs over udp" '^status=0 bytes=1048576 calls=32 ' \
	nfs_probe udp -t 30 -c 32768 write-file "$F" "$T/onemeg" unstable
cmp -s "$T/onemeg" "$EXPORT/onemeg" && ok "1 MiB written" || not_ok "the 1 MiB file differs on the server"
rm -f "$T/onemeg" "$EXPORT/onemeg"

# ---------------------------------------------------------------------------
# 2. a few over IPv6

if [ -n "$V6" ]; then
	for p in udp6 tcp6; do
		S=$EXPORT/$p
		R6=$(mnt_fh $p "$EXPORT")
		D=$(fh_of $p "$R6" $p)
		if [ -z "$D" ]; then
			not_ok "MNT/LOOKUP over $p failed"
			continue
		fi
		expect_st "CREATE over $p" 0 $p create "$D" f guarded 0644
		F=$(field fh "$OUT")
		expect_st "WRITE over $p" 0 $p write "$F" 0 filesync "$(hex six6)"
		expect_st "COMMIT over $p" 0 $p commit "$F"
		expect_st "MKDIR over $p" 0 $p mkdir "$D" d
		expect_st "RENAME over $p" 0 $p rename "$D" f "$D" g
		expect_st "LINK over $p" 0 $p link "$F" "$D" h
		expect_st "SETATTR over $p" 0 $p setattr "$F" mode=0600
		expect_st "REMOVE over $p" 0 $p remove "$D" g
		expect_st "RMDIR over $p" 0 $p rmdir "$D" d
		expect_eq "the IPv6 calls' effect over $p" "$(cat "$S/h"):$(stat -c %a "$S/h"):$(ls "$S" | tr '\n' ' ')" "six6:600:h "
	done
fi

# ---------------------------------------------------------------------------
# 3. ownership and squashing

for p in udp tcp; do
	R=$(mnt_fh $p "$SQ")
	expect_st "root_squash: CREATE as uid 0 over $p" 0 $p create "$R" f$p guarded 0644
	expect_eq "root_squash: owner is 65534:65534 over $p" "$(owner "$SQ/f$p")" 65534:65534
	expect_eq "root_squash: reply uid/gid over $p" "$(field uid "$OUT"):$(field gid "$OUT")" 65534:65534
	expect_st "root_squash: MKDIR as uid 0 over $p" 0 $p mkdir "$R" d$p
	expect_eq "root_squash: directory owner over $p" "$(owner "$SQ/d$p")" 65534:65534
	expect_st "root_squash: MKNOD chr as uid 0 is PERM/ACCES over $p" '1|13' \
		$p mknod "$R" chr$p chr rdev=1,3
	expect_st "root_squash: MKNOD blk as uid 0 is PERM/ACCES over $p" '1|13' \
		$p mknod "$R" blk$p blk rdev=7,0
	[ -e "$SQ/chr$p" ] || [ -e "$SQ/blk$p" ] && not_ok "root_squash: a device was made over $p" || ok "no device"
	expect_st "root_squash: MKNOD fifo as uid 0 over $p" 0 $p mknod "$R" fifo$p fifo
	expect_eq "root_squash: fifo owner over $p" "$(owner "$SQ/fifo$p")" 65534:65534
	expect_st "root_squash: CREATE as uid 1000 over $p" 0 $p -u 1000 -g 1000 create "$R" u$p guarded
	expect_eq "root_squash leaves uid 1000 alone over $p" "$(owner "$SQ/u$p")" 1000:1000

	R=$(mnt_fh $p "$SQA")
	expect_st "anonuid=2000: CREATE as uid 0 over $p" 0 $p create "$R" f$p guarded
	expect_eq "anonuid=2000,anongid=3000: owner over $p" "$(owner "$SQA/f$p")" 2000:3000

	R=$(mnt_fh $p "$ALL")
	expect_st "all_squash: CREATE as uid 1000 over $p" 0 $p -u 1000 -g 1000 create "$R" f$p guarded
	expect_eq "all_squash,anonuid=1234,anongid=4321: owner over $p" "$(owner "$ALL/f$p")" 1234:4321
	expect_st "all_squash: SYMLINK as uid 0 over $p" 0 $p symlink "$R" l$p target
	expect_eq "all_squash: symlink owner over $p" "$(stat -c %u:%g "$ALL/l$p")" 1234:4321

	D=$(fh_of $p "$ROOT" $p)
	expect_st "no squashing: CREATE as 1000:1000 over $p" 0 $p -u 1000 -g 1000 create "$D" own guarded 0644
	expect_eq "no squashing: owner 1000:1000 over $p" "$(owner "$EXPORT/$p/own")" 1000:1000
	FH_OWN=$(field fh "$OUT")
	expect_st "no squashing: MKDIR as 1000:1000 over $p" 0 $p -u 1000 -g 1000 mkdir "$D" owndir
	expect_eq "no squashing: directory owner 1000:1000 over $p" "$(owner "$EXPORT/$p/owndir")" 1000:1000

	# ---- permissions
	expect_st "owner WRITE over $p" 0 $p -u 1000 -g 1000 write "$FH_OWN" 0 filesync "$(hex mine)"
	expect_st "non-owner WRITE without permission is ACCES over $p" 13 \
		$p -u 2000 -g 2000 write "$FH_OWN" 0 filesync "$(hex theirs)"
	expect_eq "the refused WRITE changed nothing over $p" "$(cat "$EXPORT/$p/own")" mine
	expect_st "non-owner SETATTR mode is PERM over $p" '1|13' $p -u 2000 -g 2000 setattr "$FH_OWN" mode=0666
	expect_st "non-owner SETATTR size without permission is ACCES over $p" '13|1' \
		$p -u 2000 -g 2000 setattr "$FH_OWN" size=0
	expect_eq "refused SETATTRs changed nothing over $p" "$(stat -c %a:%s "$EXPORT/$p/own")" 644:4
	ODIR=$(fh_of $p "$D" owndir)
	chmod 0755 "$EXPORT/$p/owndir"
	expect_st "CREATE in someone else's 0755 directory is ACCES over $p" 13 \
		$p -u 2000 -g 2000 create "$ODIR" intruder guarded
	: >"$EXPORT/$p/owndir/victim"
	expect_st "REMOVE in someone else's 0755 directory is ACCES over $p" 13 \
		$p -u 2000 -g 2000 remove "$ODIR" victim
	[ -e "$EXPORT/$p/owndir/victim" ] && ok "victim survives" || not_ok "REMOVE as a stranger removed the file ($p)"
	run_expect "ACCESS for a stranger has no MODIFY/EXTEND over $p" '^access=0x0[0-3]$' \
		nfs_probe $p -u 2000 -g 2000 access "$FH_OWN" 0x0c
	# READ 0x1, LOOKUP 0x2, MODIFY 0x4, EXTEND 0x8, DELETE 0x10, EXECUTE 0x20
	run_expect "ACCESS of the owner's 0644 file: READ, MODIFY, EXTEND over $p" '^access=0x0d$' \
		nfs_probe $p -u 1000 -g 1000 access "$FH_OWN" 0x3f
	run_expect "ACCESS for a stranger to a 0644 file: READ only over $p" '^access=0x01$' \
		nfs_probe $p -u 2000 -g 2000 access "$FH_OWN" 0x3f
	run_expect "ACCESS for root to a 0644 file: no EXECUTE without an x bit over $p" '^access=0x0d$' \
		nfs_probe $p access "$FH_OWN" 0x3f
	chmod 0701 "$EXPORT/$p/own"
	run_expect "ACCESS for a stranger to a 0701 file: EXECUTE only over $p" '^access=0x20$' \
		nfs_probe $p -u 2000 -g 2000 access "$FH_OWN" 0x3f
	run_expect "ACCESS for root to a 0701 file: all a file has over $p" '^access=0x2d$' \
		nfs_probe $p access "$FH_OWN" 0x3f
	chmod 0644 "$EXPORT/$p/own"
	chmod 0000 "$EXPORT/$p/owndir"
	run_expect "ACCESS for root to a 0000 directory: READ, LOOKUP, MODIFY, EXTEND, DELETE over $p" \
		'^access=0x1f$' nfs_probe $p access "$ODIR" 0x3f
	run_expect "ACCESS for the owner of a 0000 directory: nothing over $p" '^access=0x00$' \
		nfs_probe $p -u 1000 -g 1000 access "$ODIR" 0x3f
	chmod 0755 "$EXPORT/$p/owndir"
done

# ---------------------------------------------------------------------------
# 4. a read-only export: ROFS (30) for every modifying procedure

for p in udp tcp; do
	R=$(mnt_fh $p "$RO")
	F=$(fh_of $p "$R" file)
	RD=$(fh_of $p "$R" dir)
	[ -n "$R" ] && [ -n "$F" ] && [ -n "$RD" ] || { not_ok "MNT/LOOKUP in $RO over $p failed"; continue; }
	expect_st "ro: SETATTR is ROFS over $p" 30 $p setattr "$F" mode=0600
	expect_st "ro: WRITE is ROFS over $p" 30 $p write "$F" 0 filesync 41
	expect_st "ro: CREATE is ROFS over $p" 30 $p create "$R" new unchecked
	expect_st "ro: CREATE EXCLUSIVE is ROFS over $p" 30 $p create "$R" new exclusive
	expect_st "ro: MKDIR is ROFS over $p" 30 $p mkdir "$R" new
	expect_st "ro: SYMLINK is ROFS over $p" 30 $p symlink "$R" new target
	expect_st "ro: MKNOD is ROFS over $p" 30 $p mknod "$R" new fifo
	expect_st "ro: REMOVE is ROFS over $p" 30 $p remove "$R" file
	expect_st "ro: RMDIR is ROFS over $p" 30 $p rmdir "$R" dir
	expect_st "ro: RENAME is ROFS over $p" 30 $p rename "$R" file "$R" moved
	expect_st "ro: LINK is ROFS over $p" 30 $p link "$F" "$R" hard
	expect_st "ro: READ still works over $p" 0 $p read-hex "$F" 0 8
done
expect_eq "the read-only export is untouched" \
	"$(ls "$RO" | tr '\n' ' '):$(cat "$RO/file"):$(stat -c %a "$RO/file")" "dir file :read-only content:644"

# ---------------------------------------------------------------------------
# 5. nfs-cp writes files of several sizes; sha256 on the server

if command -v nfs-cp >/dev/null 2>&1; then
	mkdir -p "$T/src"
	for n in 0 1 4095 4096 4097 65537 $((1048576 + 3)) $((100 << 20)); do
		head -c $n /dev/urandom >"$T/src/s$n"
		want=$(sha256sum <"$T/src/s$n" | cut -d' ' -f1)
		t0=$(now_ms)
		timeout 60 nfs-cp "$T/src/s$n" "$(nfsurl "cp$n")" >"$T/cp.err" 2>&1
		rc=$?
		t1=$(now_ms)
		got=$( [ -f "$EXPORT/cp$n" ] && sha256sum <"$EXPORT/cp$n" | cut -d' ' -f1)
		if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
			ok "nfs-cp of $n bytes"
			[ $n -ge 1048576 ] && echo "nfs-cp of $n bytes: $((t1 - t0)) ms"
		else
			not_ok "nfs-cp of $n bytes: exit $rc, server sha256 '${got:-missing}' want $want" "$(cat "$T/cp.err")"
		fi
		# and over the wire again, with nfs-cat
		if [ $n -le 1048576 ]; then
			nfs-cat "$(nfsurl "cp$n")" 2>/dev/null | sha256sum | grep -q "^$want " &&
				ok "nfs-cat of the copy" || not_ok "nfs-cat of cp$n differs"
		fi
		rm -f "$T/src/s$n" "$EXPORT/cp$n"
	done
	# onto an existing, longer file: libnfs 4.0 creates GUARDED and gets
	# EXIST (the file must then be untouched); a libnfs that truncates
	# must leave exactly the new content
	head -c 100000 /dev/urandom >"$EXPORT/cpover"
	cp "$EXPORT/cpover" "$T/src/before"
	head -c 1000 /dev/urandom >"$T/src/short"
	if timeout 60 nfs-cp "$T/src/short" "$(nfsurl cpover)" >"$T/cp.err" 2>&1; then
		cmp -s "$T/src/short" "$EXPORT/cpover" && ok "nfs-cp over a longer file" ||
			not_ok "nfs-cp over a longer file: $(stat -c %s "$EXPORT/cpover") bytes on the server, want 1000"
	elif grep -q EXIST "$T/cp.err"; then
		cmp -s "$T/src/before" "$EXPORT/cpover" && ok "nfs-cp onto an existing file: EXIST, untouched" ||
			not_ok "nfs-cp onto an existing file failed with EXIST but changed the file"
	else
		not_ok "nfs-cp onto an existing file failed" "$(cat "$T/cp.err")"
	fi
	rm -rf "$T/src" "$EXPORT/cpover"
else
	echo "note: nfs-cp not installed, the nfs-cp checks were skipped"
fi

check_daemon_alive "the write checks"
stop_daemon
finish
