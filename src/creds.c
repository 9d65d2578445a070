/* Per-thread identity switching. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "creds.h"

void
creds_init(struct creds_state *st)
{
	memset(st, 0, sizeof(*st));
	/* setfsuid is per thread and leaves the euid alone: asked once per worker. */
	st->root = geteuid() == 0;
}

static int
same_cred(const struct eff_cred *a, const struct eff_cred *b)
{
	return a->uid == b->uid && a->gid == b->gid && a->ngids == b->ngids &&
	    memcmp(a->gids, b->gids, a->ngids * sizeof(a->gids[0])) == 0;
}

/*
 * setfsuid drops the file-system capabilities by itself, but not
 * CAP_SYS_RESOURCE, which would let an ordinary client's writes ignore
 * quotas and the blocks ext4 reserves for root. Dropped from this thread's
 * effective set while it acts as a non-root client, raised again for root.
 */
static int
set_sys_resource(int on)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	unsigned bit = 1u << (CAP_SYS_RESOURCE % 32), word = CAP_SYS_RESOURCE / 32;

	if (syscall(SYS_capget, &hdr, data) < 0)
		return -1;
	if (on && !(data[word].permitted & bit))
		return 0;
	if (on == !!(data[word].effective & bit))
		return 0;
	if (on)
		data[word].effective |= bit;
	else
		data[word].effective &= ~bit;
	return (int)syscall(SYS_capset, &hdr, data);
}

int
creds_apply(struct creds_state *st, const struct eff_cred *c)
{
	if (!st->root)
		return 0;	/* an unprivileged daemon acts as itself */
	if (st->valid && same_cred(&st->cur, c))
		return 0;
	/* Groups first, then gid, then uid: each step needs the privileges of the last. */
	if (syscall(SYS_setgroups, (long)c->ngids, c->gids) < 0)
		return -1;
	syscall(SYS_setfsgid, (long)c->gid);
	syscall(SYS_setfsuid, (long)c->uid);
	if (set_sys_resource(c->uid == 0) < 0) {
		st->valid = 0;
		return -1;
	}
	/* setfsuid reports the previous id, never an error: verify instead. */
	if ((uid_t)syscall(SYS_setfsuid, -1L) != c->uid || (gid_t)syscall(SYS_setfsgid, -1L) != c->gid) {
		st->valid = 0;
		return -1;
	}
	st->cur = *c;
	st->valid = 1;
	return 0;
}

int
creds_root(struct creds_state *st)
{
	struct eff_cred root = { 0 };

	return creds_apply(st, &root);
}

int
creds_reopen_as_daemon(struct creds_state *st, int pathfd, int flags)
{
	struct eff_cred saved = st->cur;
	int was_valid = st->valid, fd, err;
	char path[64];

	if (creds_root(st) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", pathfd);
	fd = open(path, flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	err = errno;
	if (was_valid && creds_apply(st, &saved) < 0) {
		if (fd >= 0)
			close(fd);
		errno = EPERM;
		return -1;
	}
	errno = err;
	return fd;
}
