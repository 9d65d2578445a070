/*
 * Kernel read leases (lease.h).
 *
 * The break signal is SIGIO (no F_SETSIG), sent to the process
 * (F_SETOWN): every thread but the daemon's main one blocks it, so it
 * lands in the main loop's ppoll, whose handler only sets a flag; the
 * loop then asks each lease whether it is still whole (F_GETLEASE).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "creds.h"
#include "fsops.h"
#include "icache.h"
#include "lease.h"

int
fs_lease_take(struct fs_ctx *ctx)
{
	int fd, err;

	if (ctx->ent == NULL || ctx->ent->type != S_IFREG) {
		errno = EINVAL;
		return -1;
	}
	/* As the daemon: the lease is ours, whoever the client is (CAP_LEASE). */
	if ((fd = creds_reopen_as_daemon(ctx->creds, ctx->ent->fd, O_RDONLY)) < 0)
		return -1;
	if (fcntl(fd, F_SETOWN, getpid()) < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	/*
	 * Our own cached writable descriptor (a file written a moment ago)
	 * is a writer too: closed if it holds nothing unstable, and the
	 * lease asked for once more.
	 */
	if (fcntl(fd, F_SETLEASE, F_RDLCK) < 0 &&
	    (errno != EAGAIN || icache_drop_write_fd(ctx->ent) < 0 ||
	    fcntl(fd, F_SETLEASE, F_RDLCK) < 0)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

void
fs_lease_drop(int lease)
{
	if (lease < 0)
		return;
	fcntl(lease, F_SETLEASE, F_UNLCK);
	close(lease);
}

int
fs_lease_intact(int lease)
{
	return lease >= 0 && fcntl(lease, F_GETLEASE) == F_RDLCK;
}

unsigned
fs_lease_break_secs(void)
{
	unsigned secs = 45;	/* the kernel's default */
	FILE *f = fopen("/proc/sys/fs/lease-break-time", "r");

	if (f) {
		if (fscanf(f, "%u", &secs) != 1)
			secs = 45;
		fclose(f);
	}
	return secs;
}
