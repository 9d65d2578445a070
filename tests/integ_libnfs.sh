#!/bin/bash
# integ_libnfs.sh - usernfsd serving real data to libnfs's command line
# tools (nfs-ls, nfs-cat, nfs-cp, over TCP) and to rpcprobe (over UDP and
# TCP):
#   - listings of the root and nested directories (names, types, sizes)
#   - a directory of 100,000 entries listed completely and exactly once
#   - files of 0, 1, 4095, 4096, 4097, 1 MiB + 3 and 64 MiB bytes read back
#     with identical sha256
#   - symlinks: listed as links, READLINK verbatim, never followed by the
#     server (READ/LOOKUP through a link pointing outside the export)
#   - exports /x/a next to /x/ab, ".." at an export root, names with '/'
#   - handle stability across restarts and renames, STALE after unlink
. "$(dirname "$0")/lib.sh"

need_cmd libnfs-utils sha256sum
setup

T=$WORKDIR
EXPORT=$T/export
BIG=$T/big
SRV=$T/srv
OUTSIDE=$T/outside
mkdir -p "$EXPORT/dir1/dir2" "$EXPORT/h1/h2" "$EXPORT/moved1" "$EXPORT/moved2" \
	"$BIG" "$SRV/a" "$SRV/ab" "$OUTSIDE"

SECRET="outside-secret-$$-$RANDOM"
echo "$SECRET" >"$OUTSIDE/secret"
echo "not for you" >"$SRV/ab/private"
echo "in a" >"$SRV/a/file"

# files of the interesting sizes
FILES="f0 f1 f4095 f4096 f4097 f1m3 f64m"
: >"$EXPORT/f0"
printf x >"$EXPORT/f1"
head -c 4095 /dev/urandom >"$EXPORT/f4095"
head -c 4096 /dev/urandom >"$EXPORT/f4096"
head -c 4097 /dev/urandom >"$EXPORT/f4097"
head -c $((1024 * 1024 + 3)) /dev/urandom >"$EXPORT/f1m3"
head -c $((64 * 1024 * 1024)) /dev/urandom >"$EXPORT/f64m"
echo "deep inside" >"$EXPORT/dir1/dir2/deep.txt"
echo "middle" >"$EXPORT/dir1/mid.txt"
head -c 10000 /dev/urandom >"$EXPORT/h1/h2/target.bin"
# symlinks
ln -s f4096 "$EXPORT/link_rel"
ln -s "$EXPORT/f4097" "$EXPORT/link_abs"
ln -s ../outside/secret "$EXPORT/link_out"
ln -s "$OUTSIDE/secret" "$EXPORT/link_out_abs"
ln -s ../outside "$EXPORT/link_dir_out"
ln -s ../mid.txt "$EXPORT/dir1/dir2/link_up"
# the big directory: names of varying length, a few long ones
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import os, sys
for i in range(100000):
    name = "e%06d" % i + ("_" + "L" * 200 if i % 1000 == 7 else "")
    open(os.path.join(sys.argv[1], name), "w").close()
' "$BIG"
else
	(cd "$BIG" && long=_$(printf 'L%.0s' $(seq 200)) &&
		for ((i = 0; i < 100000; i++)); do
			printf -v n 'e%06d' $i
			[ $((i % 1000)) -eq 7 ] && n=$n$long
			: >"$n"
		done)
fi
[ "$(find "$BIG" -mindepth 1 | wc -l)" -eq 100000 ] || fail "could not create the 100000 entries"

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash)
$BIG 127.0.0.1(ro,insecure,no_root_squash)
$SRV/a 127.0.0.1(ro,insecure,no_root_squash)" --no-rpcbind

sha() { sha256sum "$1" | cut -d' ' -f1; }

# ---------------------------------------------------------------------------
# 1. nfs-ls of the root and (with -R) the nested directories

# "TYPE SIZE NAME" lines, as find would describe them; directory sizes are
# file system details and are not compared
expected_listing() {   # expected_listing DIR [find options]
	(cd "$1" && find . -mindepth 1 "${@:2}" -printf '%y %s %P\n') |
		awk '$1 == "d" { $2 = "-" } { print }' | sort
}
# turn nfs-ls lines ("-rw-r--r--  1  0  0  4096 name") into the same form
nfsls_listing() {
	awk '{ t = substr($1, 1, 1); t = (t == "-") ? "f" : t;
	       print t, (t == "d") ? "-" : $5, $6 }' | sort
}

if run_check "nfs-ls of the export root" nfs-ls "$(nfsurl "$EXPORT")"; then
	got=$(printf '%s\n' "$OUT" | nfsls_listing)
	want=$(expected_listing "$EXPORT" -maxdepth 1)
	[ "$got" = "$want" ] && ok "root listing matches" ||
		not_ok "nfs-ls root listing differs (< nfs-ls, > local)" \
			"$(diff <(printf '%s\n' "$got") <(printf '%s\n' "$want"))"
fi
if run_check "nfs-ls -R of the export" nfs-ls -R "$(nfsurl "$EXPORT")"; then
	got=$(printf '%s\n' "$OUT" | nfsls_listing)
	want=$(expected_listing "$EXPORT")
	[ "$got" = "$want" ] && ok "recursive listing matches" ||
		not_ok "nfs-ls -R listing differs (< nfs-ls, > local)" \
			"$(diff <(printf '%s\n' "$got") <(printf '%s\n' "$want"))"
fi

# ---------------------------------------------------------------------------
# 2. the 100,000-entry directory: nfs-ls (READDIRPLUS over TCP), and
#    rpcprobe READDIR over UDP and READDIRPLUS over TCP

find "$BIG" -mindepth 1 -maxdepth 1 -printf '%P\n' | sort >"$T/big.want"
check_big_listing() {   # check_big_listing DESC FILE_OF_NAMES SECONDS
	local n dups
	n=$(wc -l <"$2")
	dups=$(sort "$2" | uniq -d | head -n 5)
	if [ "$n" -eq 100000 ] && [ -z "$dups" ] && sort "$2" | cmp -s - "$T/big.want"; then
		ok "$1"
		echo "$1: 100000 entries in ${3}s"
	else
		not_ok "$1: got $n names (want 100000), duplicates: ${dups:-none}" \
			"$(sort "$2" | diff - "$T/big.want" | head -n 20)"
	fi
}
t0=$(now_ms)
timeout 60 nfs-ls "$(nfsurl "$BIG")" >"$T/big.nfsls" 2>"$T/big.nfsls.err"
rc=$?
t1=$(now_ms)
if [ $rc -ne 0 ]; then
	not_ok "nfs-ls of the 100000-entry directory exited $rc" "$(head -n 20 "$T/big.nfsls.err")"
else
	awk '{ print $6 }' "$T/big.nfsls" >"$T/big.names"
	check_big_listing "nfs-ls of the 100000-entry directory" "$T/big.names" \
		"$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.2f", ms / 1000 }')"
fi
for variant in "udp readdir-names" "tcp readdirplus-names" "udp readdirplus-names"; do
	set -- $variant
	BIGROOT=$(mnt_fh "$1" "$BIG")
	if [ -z "$BIGROOT" ]; then
		not_ok "MNT $BIG over $1 failed" "$(mnt_probe "$1" mnt "$BIG" 2>&1)"
		continue
	fi
	t0=$(now_ms)
	timeout 60 "$RPCPROBE" -t 10 127.0.0.1 "$NFS_PORT" "$1" "$2" "$BIGROOT" \
		>"$T/big.$1.$2" 2>"$T/big.$1.$2.err"
	rc=$?
	t1=$(now_ms)
	if [ $rc -ne 0 ]; then
		not_ok "$2 over $1 of the 100000-entry directory exited $rc" "$(cat "$T/big.$1.$2.err")"
		continue
	fi
	grep -v -x -F -e . -e .. "$T/big.$1.$2" >"$T/big.$1.$2.names"
	check_big_listing "$2 over $1 of the 100000-entry directory ($(cat "$T/big.$1.$2.err"))" \
		"$T/big.$1.$2.names" "$(awk -v ms=$((t1 - t0)) 'BEGIN { printf "%.2f", ms / 1000 }')"
done

# ---------------------------------------------------------------------------
# 3. file contents: nfs-cat, nfs-cp (TCP), rpcprobe read-file (UDP and TCP)

for p in udp tcp; do
	eval "ROOT_$p=\$(mnt_fh $p \"\$EXPORT\")"
done
[ -n "$ROOT_tcp" ] && [ -n "$ROOT_udp" ] || fail "MNT $EXPORT failed: $(mnt_probe tcp mnt "$EXPORT" 2>&1)"

for f in $FILES; do
	want=$(sha "$EXPORT/$f")
	rm -f "$T/out"
	timeout 60 nfs-cat "$(nfsurl "$f")" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq 0 ] && [ "$(sha "$T/out")" = "$want" ] && ok "nfs-cat $f" ||
		not_ok "nfs-cat $f: exit $rc, $(stat -c %s "$T/out") bytes, sha256 $(sha "$T/out") want $want" \
			"$(cat "$T/err")"
	rm -f "$T/out"
	timeout 60 nfs-cp "$(nfsurl "$f")" "$T/out" >"$T/err" 2>&1
	rc=$?
	[ $rc -eq 0 ] && [ -f "$T/out" ] && [ "$(sha "$T/out")" = "$want" ] && ok "nfs-cp $f" ||
		not_ok "nfs-cp $f: exit $rc, sha256 $( [ -f "$T/out" ] && sha "$T/out") want $want" \
			"$(cat "$T/err")"
	for p in udp tcp; do
		eval "root=\$ROOT_$p"
		fh=$(fh_of $p "$root" "$f")
		if [ -z "$fh" ]; then
			not_ok "LOOKUP $f over $p failed" "$(nfs_probe $p lookup-hex "$root" "$f" 2>&1)"
			continue
		fi
		rm -f "$T/out"
		if run_expect "READ $f over $p" '^status=0 bytes=' nfs_probe $p -t 20 read-file "$fh" "$T/out"; then
			[ "$(sha "$T/out")" = "$want" ] && ok "READ $f over $p: sha256" ||
				not_ok "READ $f over $p: sha256 $(sha "$T/out") want $want" "$OUT"
		fi
	done
done
# the eof flag and short reads at the end of a file
fh=$(fh_of tcp "$ROOT_tcp" f4097)
run_expect "READ of the last byte has eof=1" '^count=1 eof=1 ' nfs_probe tcp read-hex "$fh" 4096 100
run_expect "READ past the end is empty with eof=1" '^count=0 eof=1 ' nfs_probe udp read-hex "$(fh_of udp "$ROOT_udp" f4097)" 5000 100
run_expect "READ of f0 is empty with eof=1" '^count=0 eof=1 ' nfs_probe tcp read-hex "$(fh_of tcp "$ROOT_tcp" f0)" 0 10
# READ data over TCP is spliced from the page cache (readpipe.c): reads
# that start inside a page, that a pipe of 1 MiB cannot hold whole, and
# that end at the file's end must bring exactly the file's bytes.
want=$(od -An -v -tx1 -j 1 "$EXPORT/f4097" | tr -d ' \n')
run_expect "READ over TCP from inside a page to the end" "^count=4096 eof=1 data=$want\$" \
	nfs_probe tcp read-hex "$fh" 1 8192
fh=$(fh_of tcp "$ROOT_tcp" f64m)
for chunk in 1048575 1048576 5000; do
	rm -f "$T/out"
	if run_expect "READ f64m over TCP in $chunk-byte reads" '^status=0 bytes=' \
		nfs_probe tcp -t 60 -c $chunk read-file "$fh" "$T/out"; then
		[ "$(sha "$T/out")" = "$(sha "$EXPORT/f64m")" ] && ok "READ f64m in $chunk-byte reads: sha256" ||
			not_ok "READ f64m in $chunk-byte reads: sha256 $(sha "$T/out")" "$OUT"
	fi
done

# nested files through nfs-cat need a MNT of the subdirectory (libnfs
# mounts the URL's directory part): informational only
if nfs-cat "$(nfsurl dir1/dir2/deep.txt)" >"$T/out" 2>"$T/err"; then
	[ "$(cat "$T/out")" = "deep inside" ] && ok "nfs-cat of a nested file" ||
		not_ok "nfs-cat dir1/dir2/deep.txt returned the wrong content" "$(cat "$T/out")"
else
	echo "note: nfs-cat of a nested file needs MNT of a subdirectory, which the daemon refuses: $(head -n 1 "$T/err")"
fi
run_expect "nested file over udp" '^status=0$' nfs_probe udp lookup-path "$ROOT_udp" dir1/dir2/deep.txt

# ---------------------------------------------------------------------------
# 4. symlinks

for p in udp tcp; do
	eval "root=\$ROOT_$p"
	for l in link_rel:f4096 link_abs:$EXPORT/f4097 link_out:../outside/secret \
		link_out_abs:$OUTSIDE/secret link_dir_out:../outside; do
		name=${l%%:*}
		target=${l#*:}
		run_expect "LOOKUP $name over $p is a symlink (type 5)" '^type=5 ' \
			nfs_probe $p lookup-hex "$root" "$name"
		lfh=$(field fh "$OUT")
		[ -n "$lfh" ] || continue
		run_expect "GETATTR $name over $p is a symlink, not its target" '^type=5 ' \
			nfs_probe $p getattr-hex "$lfh"
		run_expect "READLINK $name over $p" "^target=$(printf '%s' "$target" | sed 's/[.[\*^$]/\\&/g')\$" \
			nfs_probe $p readlink-hex "$lfh"
		# READ on a link handle must fail; if it "works" it must not have
		# followed the link
		OUT=$(nfs_probe $p read-hex "$lfh" 0 4096 2>&1)
		secret_hex=$(printf '%s' "$SECRET" | od -An -tx1 -v | tr -d ' \n')
		case $OUT in
		*"$secret_hex"*) not_ok "READ on the symlink $name over $p returned the outside file's content" "$OUT" ;;
		*status=0*) not_ok "READ on the symlink handle $name over $p answered NFS3_OK (want INVAL/BADTYPE)" "$OUT" ;;
		*status=*) ok "READ on a symlink handle fails" ;;
		*) not_ok "READ on the symlink handle $name over $p: no answer" "$OUT" ;;
		esac
		if [ "$name" = link_dir_out ]; then
			OUT=$(nfs_probe $p lookup-hex "$lfh" secret 2>&1)
			case $OUT in
			*status=0*) not_ok "LOOKUP 'secret' in the symlink link_dir_out over $p went outside the export" "$OUT" ;;
			*status=*) ok "LOOKUP through a symlink fails" ;;
			*) not_ok "LOOKUP in a symlink handle over $p: no answer" "$OUT" ;;
			esac
		fi
	done
done
# libnfs follows links on the client side: inside the export it works, a
# link leading outside must not yield the outside file
nfs-cat "$(nfsurl link_rel)" >"$T/out" 2>"$T/err" && cmp -s "$T/out" "$EXPORT/f4096" &&
	ok "nfs-cat through a relative link" ||
	not_ok "nfs-cat link_rel should give f4096's content" "$(cat "$T/err")"
nfs-cat "$(nfsurl link_abs)" >"$T/out" 2>"$T/err" && cmp -s "$T/out" "$EXPORT/f4097" &&
	ok "nfs-cat through an absolute link inside the export" ||
	not_ok "nfs-cat link_abs should give f4097's content" "$(cat "$T/err")"
for name in link_out link_out_abs; do
	nfs-cat "$(nfsurl $name)" >"$T/out" 2>"$T/err"
	rc=$?
	if grep -q "$SECRET" "$T/out"; then
		not_ok "nfs-cat $name leaked the content of $OUTSIDE/secret"
	else
		ok "nfs-cat $name does not leak (exit $rc: $(head -n 1 "$T/err"))"
	fi
done
for p in udp tcp; do
	run_expect "MNT through a symlink leading outside over $p is refused" '^status=[1-9]' \
		mnt_probe $p mnt "$EXPORT/link_dir_out"
done

# ---------------------------------------------------------------------------
# 5. export boundaries: /srv/a next to /srv/ab, "..", names with '/'

for p in udp tcp; do
	run_expect "MNT $SRV/a over $p" '^status=0$' mnt_probe $p mnt "$SRV/a"
	AROOT=$(field fh "$OUT")
	run_expect "MNT $SRV/ab (only a is exported) over $p" '^status=[1-9]' mnt_probe $p mnt "$SRV/ab"
	run_expect "MNT $SRV/a/../ab over $p" '^status=[1-9]' mnt_probe $p mnt "$SRV/a/../ab"
	run_expect "MNT $SRV (parent of an export) over $p" '^status=[1-9]' mnt_probe $p mnt "$SRV"
	run_expect "MNT $SRV/a/ (trailing slash) over $p" '^status=[0-9]+$' mnt_probe $p mnt "$SRV/a/"

	eval "root=\$ROOT_$p"
	for r in "$root:$EXPORT" "$AROOT:$SRV/a"; do
		rfh=${r%%:*}
		rdir=${r#*:}
		[ -n "$rfh" ] || continue
		rootid=$(field fileid "$(nfs_probe $p getattr-hex "$rfh" 2>&1)")
		parentid=$(stat -c %i "$(dirname "$rdir")")
		OUT=$(nfs_probe $p lookup-hex "$rfh" .. 2>&1)
		st=$(field status "$OUT")
		id=$(field fileid "$OUT")
		if [ "$st" = 0 ] && [ "$id" = "$parentid" ]; then
			not_ok "LOOKUP .. at the root of $rdir over $p left the export (got the parent's fileid $id)" "$OUT"
		elif [ "$st" = 0 ] && [ "$id" != "$rootid" ]; then
			not_ok "LOOKUP .. at the root of $rdir over $p gave fileid $id, want the root's $rootid" "$OUT"
		elif [ -z "$st" ]; then
			not_ok "LOOKUP .. at the root of $rdir over $p: no answer" "$OUT"
		else
			ok "LOOKUP .. at an export root stays inside (status $st)"
		fi
		run_expect "LOOKUP . at the root of $rdir over $p" "fileid=$rootid( |\$)" \
			nfs_probe $p lookup-hex "$rfh" .
	done
	d1=$(fh_of $p "$root" dir1)
	run_expect "LOOKUP .. in dir1 over $p is the root" "fileid=$(stat -c %i "$EXPORT")( |\$)" \
		nfs_probe $p lookup-hex "$d1" ..
	for bad in "dir1/mid.txt" "../outside" "/etc" "" "dir1/"; do
		run_expect "LOOKUP of the name '$bad' over $p fails" '^status=[1-9]' \
			nfs_probe $p lookup-hex "$root" "$bad"
	done
	run_expect "LOOKUP of a missing name over $p is NOENT" '^status=2$' \
		nfs_probe $p lookup-hex "$root" no-such-file
done

# ---------------------------------------------------------------------------
# 6. handle stability: restart and rename in both orders, then unlink

TWANT=$(sha "$EXPORT/h1/h2/target.bin")
FH_TCP=$(fh_of tcp "$ROOT_tcp" h1/h2/target.bin)
FH_UDP=$(fh_of udp "$ROOT_udp" h1/h2/target.bin)
[ -n "$FH_TCP" ] && [ -n "$FH_UDP" ] || fail "LOOKUP h1/h2/target.bin failed"
[ "$FH_TCP" = "$FH_UDP" ] && ok "same handle over udp and tcp" ||
	not_ok "LOOKUP gave different handles over udp ($FH_UDP) and tcp ($FH_TCP)"

# check_old_handle WHEN: GETATTR and READ with the handles taken at the start
check_old_handle() {
	local p fh
	for p in udp tcp; do
		[ $p = udp ] && fh=$FH_UDP || fh=$FH_TCP
		run_expect "old handle, GETATTR over $p, $1" '^status=0$' nfs_probe $p getattr-hex "$fh"
		rm -f "$T/out"
		if run_expect "old handle, READ over $p, $1" '^status=0 bytes=10000 ' \
			nfs_probe $p read-file "$fh" "$T/out"; then
			[ "$(sha "$T/out")" = "$TWANT" ] && ok "old handle READ content, $1" ||
				not_ok "old handle over $p, $1: READ returned other bytes"
		fi
		run_expect "old root handle over $p, $1" '^status=0$' nfs_probe $p getattr-hex "$ROOT_tcp"
	done
}

check_old_handle "before anything"
restart_daemon
check_old_handle "after a restart"
mv "$EXPORT/h1/h2" "$EXPORT/moved1/"
check_old_handle "after restart-then-move (h2 into moved1)"
mv "$EXPORT/moved1/h2" "$EXPORT/moved2/h2"
restart_daemon
check_old_handle "after move-then-restart (h2 into moved2)"
mv "$EXPORT/moved2/h2" "$EXPORT/h2-renamed"
mv "$EXPORT/h2-renamed/target.bin" "$EXPORT/h2-renamed/renamed.bin"
check_old_handle "after renaming the directory and the file without a restart"
# and a LOOKUP of the new path gives the very same handle
run_expect "LOOKUP of the new path gives the same handle" "^fh=$FH_TCP " \
	nfs_probe tcp lookup-path "$ROOT_tcp" h2-renamed/renamed.bin

# moving a file out of the export: informational (policy), must not crash
mv "$EXPORT/h2-renamed/renamed.bin" "$OUTSIDE/moved-out.bin"
OUT=$(nfs_probe tcp getattr-hex "$FH_TCP" 2>&1)
echo "note: GETATTR of a handle whose file was moved out of the export: $(printf '%s' "$OUT" | grep -m1 '^status=')"
mv "$OUTSIDE/moved-out.bin" "$EXPORT/h2-renamed/renamed.bin"

rm "$EXPORT/h2-renamed/renamed.bin"
for p in udp tcp; do
	[ $p = udp ] && fh=$FH_UDP || fh=$FH_TCP
	run_expect "GETATTR of an unlinked file over $p is STALE" '^status=70$' nfs_probe $p getattr-hex "$fh"
	run_expect "READ of an unlinked file over $p is STALE" '^status=70 ' nfs_probe $p read-file "$fh" "$T/out"
done
restart_daemon
for p in udp tcp; do
	[ $p = udp ] && fh=$FH_UDP || fh=$FH_TCP
	run_expect "GETATTR of an unlinked file after a restart over $p is STALE" '^status=70$' \
		nfs_probe $p getattr-hex "$fh"
done
# a new file in its place does not revive the handle
head -c 10000 /dev/urandom >"$EXPORT/h2-renamed/renamed.bin"
run_expect "a new file at the old path does not revive the handle" '^status=70$' \
	nfs_probe tcp getattr-hex "$FH_TCP"

check_daemon_alive "the libnfs checks"
stop_daemon
finish
