#!/bin/bash
# tests/check_layout.sh - the house rules of the source tree that a machine
# can check (DESIGN.md, "Where things are"); run by make check.
#
#  - no hand-written .c under src/ is longer than 900 lines: a file that
#    grows past that holds more than one concern and should be split;
#  - the protocol rooms (every file of src/proto/ but the gate, access*.c: access.c and
#    NFSv4's pseudo file system, access_pseudo.c, the exports one client sees)
#    make no system calls on files: they decode, call the fs layer
#    (src/fs/fsops*.c) and the state and exports layers, and encode;
#  - nor do they reach into an inode cache entry or an export;
#  - errno is turned into a protocol status only in proto/errmap.c;
#  - the layers' one-way dependencies and the absence of include cycles
#    between folders (tests/check_layers.py, DESIGN.md's map).
# Generated XDR (*_xdr.c from rpcgen) is not hand-written and not counted.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$srcdir" || exit 99
pass=0 failed=0
ok() { pass=$((pass + 1)); }
not_ok() { failed=$((failed + 1)); echo "not ok: $*"; }

max_lines=900
for f in src/*.c src/*/*.c; do
	case $f in *_xdr.c) [ "$f" = src/rpc/xdr_nonul.c ] || continue ;; esac
	n=$(wc -l <"$f")
	if [ "$n" -le "$max_lines" ]; then ok; else not_ok "$f has $n lines (at most $max_lines)"; fi
done

# By folder: a new protocol room is covered the day it is added.
rooms=$(ls src/proto/*.c | grep -v '^src/proto/access[a-z_]*\.c$')
# A call of one of these names that is not part of a longer identifier
# (fs_rename, xdr_... are fine): the character before must not be a
# letter, digit, underscore, '.' or '>' (a struct member).
calls='open|openat|openat2|fopen|fdopen|stat|fstat|lstat|fstatat|statx|pathconf|fpathconf|rename|renameat|renameat2|unlink|unlinkat|mkdir|mkdirat|rmdir|link|linkat|symlink|symlinkat|readlink|readlinkat|truncate|ftruncate|fsync|fdatasync|pread|pwrite|preadv|pwritev|getdents|getdents64|fchmod|fchown|fchownat|utimensat|futimens|name_to_handle_at|open_by_handle_at'
for f in $rooms; do
	[ -f "$f" ] || continue
	hits=$(grep -nE "(^|[^A-Za-z0-9_.>])($calls)[[:space:]]*\(" "$f" |
		grep -vE '^[0-9]+:[[:space:]]*(\*|/\*|//)')
	if [ -z "$hits" ]; then ok; else not_ok "$f makes file system calls:"$'\n'"$hits"; fi
done

# NFS rooms see a file through its fs_ctx and fs_* calls, not through the
# inode cache entry or the export behind it.
for f in $rooms; do
	hits=$(grep -nE '(->|\.)(ent|exp)->' "$f")
	if [ -z "$hits" ]; then ok; else not_ok "$f reads cache or export internals:"$'\n'"$hits"; fi
done

# errno -> status: a test of an errno value followed, within two lines,
# by a protocol status, anywhere but errmap.c.
for f in src/*.c src/*/*.c; do
	case $f in src/proto/errmap.c | *_xdr.c) continue ;; esac
	hits=$(awk '/(==|!=) *E[A-Z0-9]+([^A-Za-z0-9_]|$)|case E[A-Z0-9]+:/ { at = NR; what = $0 }
		/(NFS3ERR|NFSERR|MNT3ERR|NLM4?_DENIED|NLM4?_FAILED)_?[A-Z_]*/ && at && NR - at <= 2 {
			printf "%d: %s\n", at, what; at = 0 }' "$f")
	if [ -z "$hits" ]; then ok; else not_ok "$f maps errno to a status outside errmap.c:"$'\n'"$hits"; fi
done

if out=$(python3 tests/check_layers.py); then ok; else not_ok "layers:"; fi
printf '%s\n' "$out"

# src/rpc/ is on the include path as "rpc/": none of its headers may take
# the name of one of libtirpc's <rpc/...> headers.
for h in src/rpc/*.h; do
	if [ ! -e "/usr/include/tirpc/rpc/${h##*/}" ]; then ok; else not_ok "$h shadows <rpc/${h##*/}>"; fi
done

echo "check_layout: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
