/*
 * Kernel read leases on exported files (fcntl F_SETLEASE, fcntl(2)), the
 * local half of an NFSv4 read delegation: while a client holds one, a
 * process that opens the file for writing (or truncates it) on the
 * server is held back by the kernel, and the daemon is told with SIGIO,
 * so that it can recall the delegation first. Our own writes meet the
 * same wall: the data descriptors are opened with O_NONBLOCK, so a WRITE
 * of a leased file fails with EAGAIN (JUKEBOX, DELAY) instead of waiting.
 * And a file we hold open for writing cannot be leased at all, so no
 * delegation is handed out for a file being written through us.
 *
 * A lease is its own descriptor (the kernel ties a lease to an open
 * file), returned as a plain int the state layer keeps.
 */
#ifndef USERNFSD_LEASE_H
#define USERNFSD_LEASE_H

struct fs_ctx;

/* A read lease on ctx's regular file: its descriptor, or -1 (errno: EAGAIN when written). */
int fs_lease_take(struct fs_ctx *ctx);
/* Gives it back: a writer the kernel holds back goes on. */
void fs_lease_drop(int lease);
/*
 * Is the lease still whole? 0 once a break began (someone wants to
 * write) or the kernel took it away (the break timed out).
 */
int fs_lease_intact(int lease);
/*
 * How long the kernel holds a writer back before it takes a lease away
 * (/proc/sys/fs/lease-break-time): a delegation must be revoked before.
 */
unsigned fs_lease_break_secs(void);

#endif
