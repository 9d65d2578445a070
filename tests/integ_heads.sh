#!/bin/bash
# integ_heads.sh - two usernfsd heads over one export directory (issue 16):
#   - with one --handle-key, both give byte-for-byte the same handle for the
#     same object (MNT, LOOKUP, CREATE), over raw RPC
#   - a handle from head A works on head B for GETATTR, READ and WRITE, and
#     one from B on A; B resolves A's handles with a cold cache and after
#     a restart
#   - libnfs: a file written through A reads back identically through B
#   - a head with its own key refuses the other's handles
#   - --handle-key refuses a missing key, one readable by others, and one
#     of the wrong size, and never creates one
. "$(dirname "$0")/lib.sh"

need_cmd libnfs-utils sha256sum
setup

EXPORT=$WORKDIR/export
KEY=$WORKDIR/shared-key
mkdir -p "$EXPORT/dir/sub"
echo "hello from the shared file system" >"$EXPORT/dir/sub/file"
head -c 300000 /dev/urandom >"$EXPORT/dir/big"
(umask 077 && head -c 16 /dev/urandom >"$KEY")

LINE="$EXPORT 127.0.0.1(rw,no_root_squash,insecure)"

# on_a / on_b CMD...: rpcprobe over TCP to that head's NFS port
on_a() { probe 127.0.0.1 "$NFS_PORT" tcp "$@"; }
on_b() { probe 127.0.0.1 "$B_NFS_PORT" tcp "$@"; }
mnt_on() { ok_field fh probe 127.0.0.1 "$1" tcp mnt "$EXPORT"; }

start_daemon "$LINE" --no-rpcbind --no-nlm --handle-key "$KEY"
start_head_b --no-nlm --handle-key "$KEY"

# ---- identical handles ----
ROOT_A=$(mnt_on "$MOUNT_PORT")
ROOT_B=$(mnt_on "$B_MOUNT_PORT")
[ -n "$ROOT_A" ] || fail "MNT on head A gave no handle"
if [ "$ROOT_A" = "$ROOT_B" ]; then ok "MNT: same root handle on both heads"
else not_ok "MNT: same root handle on both heads" "A: $ROOT_A
B: $ROOT_B"; fi

# Looked up on A only: B's cache has never seen these objects.
FILE_A=$(ok_field fh on_a lookup-path "$ROOT_A" dir/sub/file)
BIG_A=$(ok_field fh on_a lookup-path "$ROOT_A" dir/big)
[ -n "$FILE_A" ] && [ -n "$BIG_A" ] || fail "LOOKUP on head A failed"
run_expect "GETATTR on B of A's handle (cold cache on B)" "^status=0" on_b getattr-hex "$FILE_A"
run_expect "READ on B of A's handle" "data=$(hex $'hello from the shared file system\n')" \
	on_b read-hex "$FILE_A" 0 100
FILE_B=$(ok_field fh on_b lookup-path "$ROOT_B" dir/sub/file)
if [ "$FILE_A" = "$FILE_B" ]; then ok "LOOKUP: same file handle on both heads"
else not_ok "LOOKUP: same file handle on both heads" "A: $FILE_A
B: $FILE_B"; fi
DIR_A=$(ok_field fh on_a lookup-path "$ROOT_A" dir/sub)
DIR_B=$(ok_field fh on_b lookup-path "$ROOT_B" dir/sub)
[ -n "$DIR_A" ] && [ "$DIR_A" = "$DIR_B" ] && ok "LOOKUP: same directory handle on both heads" ||
	not_ok "LOOKUP: same directory handle on both heads" "A: $DIR_A
B: $DIR_B"

# ---- writes through one head, reads through the other ----
run_expect "WRITE on B through A's handle" "^status=0" on_b write "$FILE_A" 0 filesync 4849
run_expect "READ on A sees B's write" "data=4849" on_a read-hex "$FILE_A" 0 2
[ "$(head -c 2 "$EXPORT/dir/sub/file")" = HI ] && ok "the file holds B's write" ||
	not_ok "the file holds B's write" "$(head -c 40 "$EXPORT/dir/sub/file")"
run_check "READ on B of a 300000-byte file looked up on A" \
	probe -c 65536 127.0.0.1 "$B_NFS_PORT" tcp read-file "$BIG_A" "$WORKDIR/big.via-b"
cmp -s "$EXPORT/dir/big" "$WORKDIR/big.via-b" && ok "its content is identical" ||
	not_ok "its content is identical"

NEW_B=$(ok_field fh on_b create "$ROOT_B" made-on-b unchecked)
NEW_A=$(ok_field fh on_a lookup-path "$ROOT_A" made-on-b)
[ -n "$NEW_B" ] && [ "$NEW_A" = "$NEW_B" ] && ok "CREATE on B: A finds the same handle" ||
	not_ok "CREATE on B: A finds the same handle" "B: $NEW_B
A: $NEW_A"
run_expect "WRITE on A through B's CREATE handle" "^status=0" on_a write "$NEW_B" 0 filesync 6f6b
run_expect "GETATTR on B sees A's write" "size=2 " on_b getattr-hex "$NEW_B"

# ---- libnfs through both heads ----
url_b() { echo "nfs://127.0.0.1$EXPORT/$1?version=3&nfsport=$B_NFS_PORT&mountport=$B_MOUNT_PORT"; }
head -c 1000003 /dev/urandom >"$WORKDIR/payload"
run_check "nfs-cp to head A" nfs-cp "$WORKDIR/payload" "$(nfsurl libnfs.bin)"
run_check "nfs-cat from head B" sh -c "nfs-cat '$(url_b libnfs.bin)' >'$WORKDIR/payload.via-b'"
[ "$(sha256sum <"$WORKDIR/payload")" = "$(sha256sum <"$WORKDIR/payload.via-b")" ] &&
	ok "libnfs: what A wrote, B reads back identically (sha256)" ||
	not_ok "libnfs: what A wrote, B reads back identically (sha256)"

# ---- restarts and other keys ----
stop_head_b
start_head_b --no-nlm
run_expect "a head with its own key refuses A's handle" "^status=(10001|70)" on_b getattr-hex "$FILE_A"
stop_head_b
start_head_b --no-nlm --handle-key "$KEY"
run_expect "B restarted with the shared key takes A's handle (GETATTR)" "^status=0" on_b getattr-hex "$BIG_A"
run_expect "... and A's directory handle (READDIR)" "^made-on-b$" on_b readdir-names "$ROOT_A"
stop_daemon
start_daemon "$LINE" --no-rpcbind --no-nlm --handle-key "$KEY"
run_expect "A restarted takes B's CREATE handle" "^status=0" on_a getattr-hex "$NEW_B"

# ---- --handle-key refuses what is not a private 16-byte key ----
bad_key() {   # bad_key DESC ERE FILE
	local out rc
	out=$(timeout 10 "$USERNFSD" --exports "$EXPORTS_FILE" --foreground --no-rpcbind --no-nlm \
		--nfs-port "$B_NFS_PORT" --mount-port "$B_MOUNT_PORT" --state-dir "$B_STATE" \
		--control none --handle-key "$3" 2>&1 </dev/null 9>&-)
	rc=$?
	if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -Eq -- "$2"; then ok "$1"
	else not_ok "$1" "exit status $rc: $out"; fi
}
bad_key "--handle-key: a missing key is refused, not created" "No such file.*head -c 16" "$WORKDIR/nokey"
[ ! -e "$WORKDIR/nokey" ] && ok "... and no key was created" || not_ok "... and no key was created"
cp "$KEY" "$WORKDIR/readable" && chmod 644 "$WORKDIR/readable"
bad_key "--handle-key: a key readable by others is refused" "owner only" "$WORKDIR/readable"
(umask 077 && head -c 32 /dev/urandom >"$WORKDIR/long")
bad_key "--handle-key: a 32-byte key is refused" "exactly 16 bytes" "$WORKDIR/long"
(umask 077 && head -c 8 /dev/urandom >"$WORKDIR/short")
bad_key "--handle-key: an 8-byte key is refused" "exactly 16 bytes" "$WORKDIR/short"

check_daemon_alive
finish
