#!/bin/bash
# integ_drc.sh - the duplicate request cache, with raw RPC (rpcprobe), over
# UDP and TCP (and udp6/tcp6 when lo has IPv6):
#   - CREATE GUARDED, REMOVE, RENAME, MKDIR, LINK, RMDIR, SYMLINK, MKNOD,
#     SETATTR (guarded) and WRITE sent twice with the same XID from the same
#     socket: the second reply is byte-identical to the first (both say OK)
#     and the operation ran once (the server's file system shows it, and the
#     same call with a new XID then fails: EXIST, NOENT, NOT_SYNC, ...)
#   - calls with different XIDs are executed normally
#   - an XID reused with different arguments is executed, not answered
#     from the cache; so is the same XID from another source port
#   - a failing call is cached too (its retransmission gets the same error)
#
# "dup CMD" (rpcprobe) sends CMD's call, then the very same bytes again
# with the XID set back with CLSET_XID, and prints both reply bodies;
# "-x XID A ++ B" sends A and B with one XID over the same client.
. "$(dirname "$0")/lib.sh"

need_cmd stat
setup

T=$WORKDIR
EXPORT=$T/export
mkdir -p "$EXPORT"
PROTOS="udp tcp"
V6=
if has_ipv6_lo; then
	V6="::1(rw,insecure,no_root_squash)"
	PROTOS="udp tcp udp6 tcp6"
fi
for p in $PROTOS; do mkdir -p "$EXPORT/$p"; done

start_daemon "$EXPORT 127.0.0.1(rw,insecure,no_root_squash) $V6" --no-rpcbind

# xcall XID PROTO COMMAND ARGS... [++ COMMAND ARGS...]: every call with XID
xcall() {
	local xid=$1 p=$2
	shift 2
	OUT=$("$RPCPROBE" -x "$xid" "$(_host_for "$p")" "$NFS_PORT" "$p" "$@" 2>&1)
}

# the status printed after "step=N" in $OUT
step_status() {
	printf '%s\n' "$OUT" | awk -v s="step=$1" '
		index($0, s " ") == 1 { on = 1; next }
		/^step=/ { on = 0 }
		on && /^status=/ { sub(/^status=/, ""); print $1; exit }'
}

# dup_check DESC PROTO COMMAND ARGS...: the command's first call twice with
# one XID; both replies must be NFS3_OK and byte-identical
dup_check() {
	local desc=$1 p=$2
	shift 2
	OUT=$(nfs_probe $p dup "$@" 2>&1)
	local line x1 x2
	line=$(printf '%s\n' "$OUT" | grep -m1 '^dup ')
	x1=$(field xid1 "$line")
	x2=$(field xid2 "$line")
	if [ -z "$line" ]; then
		not_ok "$desc over $p: no dup line" "$OUT"
		return 1
	fi
	if [ "$x1" != "$x2" ]; then
		not_ok "$desc over $p: rpcprobe did not reuse the XID ($x1, $x2)" "$line"
		return 1
	fi
	if [ "$(field rpc1 "$line"):$(field rpc2 "$line")" != SUCCESS:SUCCESS ]; then
		not_ok "$desc over $p: an RPC failed" "$line"
		return 1
	fi
	[ "$(field status1 "$line")" = 0 ] && ok "$desc: first reply OK" ||
		not_ok "$desc over $p: the first reply has status $(field status1 "$line")" "$OUT"
	if [ "$(field identical "$line")" = 1 ]; then
		ok "$desc: retransmission answered with the identical reply"
	else
		not_ok "$desc over $p: the retransmission's reply differs (status $(field status1 "$line") then $(field status2 "$line")): the call ran twice" \
			"$OUT"
	fi
}

n=0
for p in $PROTOS; do
	S=$EXPORT/$p
	ROOT=$(mnt_fh $p "$EXPORT")
	D=$(fh_of $p "$ROOT" $p)
	[ -n "$D" ] || fail "MNT/LOOKUP of $EXPORT/$p over $p failed"

	# ---- CREATE GUARDED
	dup_check "CREATE GUARDED twice, one XID" $p create "$D" cg guarded 0644
	expect_eq "CREATE ran once over $p" "$(ls "$S" | tr '\n' ' ')" "cg "
	expect_st "CREATE GUARDED with a new XID is EXIST over $p" 17 $p create "$D" cg guarded 0644

	# ---- REMOVE
	: >"$S/rm"
	dup_check "REMOVE twice, one XID" $p remove "$D" rm
	[ -e "$S/rm" ] && not_ok "REMOVE over $p: the file is still there" || ok "removed"
	expect_st "REMOVE with a new XID is NOENT over $p" 2 $p remove "$D" rm

	# ---- RENAME
	echo renamed >"$S/ra"
	dup_check "RENAME twice, one XID" $p rename "$D" ra "$D" rb
	expect_eq "RENAME ran once over $p" "$(cat "$S/rb" 2>&1):$([ -e "$S/ra" ] && echo left)" "renamed:"
	expect_st "RENAME with a new XID is NOENT over $p" 2 $p rename "$D" ra "$D" rb

	# ---- MKDIR
	dup_check "MKDIR twice, one XID" $p mkdir "$D" md
	[ -d "$S/md" ] && ok "made" || not_ok "MKDIR over $p: no directory"
	expect_st "MKDIR with a new XID is EXIST over $p" 17 $p mkdir "$D" md

	# ---- LINK
	echo linked >"$S/lf"
	LF=$(fh_of $p "$D" lf)
	dup_check "LINK twice, one XID" $p link "$LF" "$D" lf2
	expect_eq "LINK ran once: nlink 2 over $p" "$(stat -c %h "$S/lf")" 2
	expect_st "LINK with a new XID is EXIST over $p" 17 $p link "$LF" "$D" lf2

	# ---- RMDIR, SYMLINK, MKNOD
	mkdir "$S/rd"
	dup_check "RMDIR twice, one XID" $p rmdir "$D" rd
	expect_st "RMDIR with a new XID is NOENT over $p" 2 $p rmdir "$D" rd
	dup_check "SYMLINK twice, one XID" $p symlink "$D" sl target
	expect_st "SYMLINK with a new XID is EXIST over $p" 17 $p symlink "$D" sl target
	dup_check "MKNOD twice, one XID" $p mknod "$D" fifo fifo
	expect_st "MKNOD with a new XID is EXIST over $p" 17 $p mknod "$D" fifo fifo

	# ---- SETATTR with a ctime guard: run twice it would be NOT_SYNC
	echo attrs >"$S/sa"
	SA=$(fh_of $p "$D" sa)
	call $p getattr-hex "$SA"
	CT=$(field ctime "$OUT")
	dup_check "guarded SETATTR twice, one XID" $p setattr "$SA" guard="$CT" mode=0600
	expect_eq "SETATTR applied over $p" "$(stat -c %a "$S/sa")" 600
	expect_st "the same guarded SETATTR with a new XID is NOT_SYNC over $p" 10002 \
		$p setattr "$SA" guard="$CT" mode=0600

	# ---- WRITE: an append whose repetition would show in the wcc
	: >"$S/w"
	W=$(fh_of $p "$D" w)
	dup_check "WRITE twice, one XID" $p write "$W" 0 filesync "$(hex 0123456789)"
	expect_eq "WRITE: size 10 over $p" "$(stat -c %s "$S/w")" 10

	# ---- a failing call: its retransmission gets the same answer
	OUT=$(nfs_probe $p dup remove "$D" never-was 2>&1)
	line=$(printf '%s\n' "$OUT" | grep -m1 '^dup ')
	expect_eq "a failing REMOVE retransmitted over $p: NOENT twice, identical" \
		"$(field status1 "$line"):$(field status2 "$line"):$(field identical "$line")" "2:2:1"

	# ---- different XIDs: executed normally
	: >"$S/nx"
	OUT=$(nfs_probe $p remove "$D" nx ++ remove "$D" nx 2>&1)
	expect_eq "two REMOVEs with different XIDs over $p: OK then NOENT" \
		"$(step_status 1):$(step_status 2)" "0:2"
	OUT=$(nfs_probe $p mkdir "$D" nxd ++ mkdir "$D" nxd 2>&1)
	expect_eq "two MKDIRs with different XIDs over $p: OK then EXIST" \
		"$(step_status 1):$(step_status 2)" "0:17"

	# ---- the same XID, chained over one client: the cache answers
	n=$((n + 1))
	: >"$S/same"
	xcall $((0x51a70000 + n)) $p remove "$D" same ++ remove "$D" same
	expect_eq "REMOVE twice with one forced XID over $p: OK twice (from the cache)" \
		"$(step_status 1):$(step_status 2)" "0:0"

	# ---- an XID reused with different arguments: executed
	n=$((n + 1))
	: >"$S/x1"
	: >"$S/x2"
	xcall $((0x51a70000 + n)) $p remove "$D" x1 ++ remove "$D" x2
	expect_eq "one XID, two REMOVEs of different names over $p: both OK" \
		"$(step_status 1):$(step_status 2)" "0:0"
	expect_eq "one XID, different arguments: both files removed over $p" \
		"$([ -e "$S/x1" ] && echo x1)$([ -e "$S/x2" ] && echo x2)" ""
	n=$((n + 1))
	xcall $((0x51a70000 + n)) $p create "$D" c1 guarded ++ create "$D" c2 guarded ++ mkdir "$D" c3
	expect_eq "one XID, CREATE c1, CREATE c2, MKDIR c3 over $p: all OK" \
		"$(step_status 1):$(step_status 2):$(step_status 3)" "0:0:0"
	[ -f "$S/c1" ] && [ -f "$S/c2" ] && [ -d "$S/c3" ] && ok "all three made" ||
		not_ok "one XID with different arguments over $p: not all of c1 c2 c3 exist" "$(ls -l "$S")"
	n=$((n + 1))
	: >"$S/wx"
	WX=$(fh_of $p "$D" wx)
	xcall $((0x51a70000 + n)) $p write "$WX" 0 filesync "$(hex AAAA)" ++ write "$WX" 4 filesync "$(hex BBBB)"
	expect_eq "one XID, WRITEs at different offsets over $p: both executed" "$(cat "$S/wx")" AAAABBBB
	# the same procedure, XID and arguments but another procedure number is
	# another call: REMOVE x, then RMDIR x with the same XID
	n=$((n + 1))
	mkdir "$S/px"
	xcall $((0x51a70000 + n)) $p remove "$D" px ++ rmdir "$D" px
	expect_eq "one XID, REMOVE then RMDIR of one name over $p: ISDIR then OK" \
		"$(step_status 1):$(step_status 2)" "21:0"

	# ---- the same XID from another source port (another client): executed
	n=$((n + 1))
	: >"$S/port"
	OUT=$("$RPCPROBE" -P -x $((0x51a70000 + n)) "$(_host_for $p)" "$NFS_PORT" $p remove "$D" port 2>&1)
	s1=$(field status "$OUT")
	OUT=$("$RPCPROBE" -P -x $((0x51a70000 + n)) "$(_host_for $p)" "$NFS_PORT" $p remove "$D" port 2>&1)
	s2=$(field status "$OUT")
	expect_eq "one XID from two source ports over $p: OK then NOENT" "$s1:$s2" "0:2"

	# ---- data past the checksummed head (informational: knfsd does the
	# same, it checksums only the start of a call)
	n=$((n + 1))
	: >"$S/big"
	BIG=$(fh_of $p "$D" big)
	A=$(printf '41%.0s' $(seq 3000))
	B=$(printf '41%.0s' $(seq 2000))$(printf '42%.0s' $(seq 1000))
	xcall $((0x51a70000 + n)) $p write "$BIG" 0 filesync "$A" ++ write "$BIG" 0 filesync "$B"
	if [ "$(tail -c 1 "$S/big")" = B ]; then
		echo "note: one XID, two WRITEs differing only after byte 2000 over $p: both executed"
	else
		echo "note: one XID, two WRITEs differing only after byte 2000 over $p: the second was answered from the cache (the DRC checksums the first 1 KiB of the arguments, as knfsd checksums a prefix)"
	fi
done

check_daemon_alive "the duplicate request checks"
stop_daemon
finish
