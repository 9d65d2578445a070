#!/bin/sh
# Builds usernfsd and runs it in the foreground serving a demo export on
# test ports, printing how a client mounts it and looks at it. Run as root
# on Debian 12 (further arguments go to usernfsd, e.g. --debug):
#   sudo sh tests/demo.sh
# Stop it with Ctrl-C (it unregisters from rpcbind on the way out).
#
# DEMO_PREPARED=1 skips preparing the machine (packages, build, rpcbind)
# and runs the rest as it is: tests/integ_demo.sh does, on its own ports
# (NFS_PORT, MOUNT_PORT) and directory (DEMO_DIR), with the programs it
# names (USERNFSD, USERNFSCTL; default: the ones built here).
set -eu

NFS_PORT=${NFS_PORT:-12049}
MOUNT_PORT=${MOUNT_PORT:-12048}
DEMO=${DEMO_DIR:-/tmp/usernfsd-demo}
top=$(cd "$(dirname "$0")/.." && pwd)
USERNFSD=${USERNFSD:-$top/src/usernfsd}
USERNFSCTL=${USERNFSCTL:-$top/src/usernfsctl}

if [ "$(id -u)" -ne 0 ]; then
	echo "demo.sh: run as root (it installs packages and starts rpcbind)" >&2
	exit 1
fi

if [ -z "${DEMO_PREPARED:-}" ]; then
	# What it builds with, and the clients it prints: nfs-ls, showmount.
	sh "$top/tests/install-deps.sh" demo
	(
		cd "$top"
		[ -x configure ] || autoreconf -fi
		[ -f Makefile ] || ./configure
		make -j"$(nproc)"
	)
	# rpcbind lets clients find the ports; start it only if it is not running.
	if ! rpcinfo -p 127.0.0.1 >/dev/null 2>&1; then
		rpcbind -w
	fi
fi

mkdir -p "$DEMO/export/docs" "$DEMO/state"
echo "Hello from usernfsd." > "$DEMO/export/hello.txt"
cp "$top/README.md" "$DEMO/export/docs/" 2>/dev/null || true
ln -sf hello.txt "$DEMO/export/greeting"
cat > "$DEMO/exports" <<EOT
# Demo: read-write for this machine, read-only for everyone else.
$DEMO/export 127.0.0.1(rw,insecure,no_root_squash) ::1(rw,insecure,no_root_squash) *(ro,insecure)
EOT

# The first IPv4 address (an IPv6 one would need brackets in both forms).
host=$(hostname -I 2>/dev/null | tr ' ' '\n' | grep -m 1 -E '^[0-9]+(\.[0-9]+){3}$' || true)
host=${host:-127.0.0.1}
cat <<EOT

usernfsd is serving $DEMO/export (NFS port $NFS_PORT, MOUNT port $MOUNT_PORT).
Mount it from a Linux client with:

  mount -t nfs -o vers=3,proto=tcp,port=$NFS_PORT,mountport=$MOUNT_PORT $host:$DEMO/export /mnt

or look with libnfs and showmount:

  nfs-ls 'nfs://$host$DEMO/export?version=3&nfsport=$NFS_PORT&mountport=$MOUNT_PORT'
  showmount -e $host

and at the server's statistics, from another shell on this machine:

  $USERNFSCTL stats

Press Ctrl-C to stop.
EOT
exec "$USERNFSD" --foreground --exports "$DEMO/exports" --state-dir "$DEMO/state" \
	--nfs-port "$NFS_PORT" --mount-port "$MOUNT_PORT" "$@"
