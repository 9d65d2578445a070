/*
 * Stable storage before the reply (see durable.h): per-object syncs that
 * callers share.  Changes are stamped from one counter after they are
 * made; a sync records the counter as it stood when the sync began, so it
 * covers every change to its object stamped up to there.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "durable.h"
#include "fsops.h"
#include "icache.h"
#include "log.h"
#include "stats.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sync_done = PTHREAD_COND_INITIALIZER;
static uint64_t change_seq;

int
durable_wanted(const struct fs_ctx *ctx)
{
	return !(ctx->flags & FS_CTX_ASYNC);
}

/*
 * Symlinks, devices, FIFOs and sockets cannot be opened for fsync: sync
 * the file system they are on.  Dear (it writes back every dirty page
 * there) but rare: changes to such objects.
 */
static int
sync_export_fs(struct fs_ctx *ctx)
{
	int fd = ctx->root->rootfd, err = 0;

	if (syncfs(fd) == 0)
		return 0;
	if (errno != EBADF)
		return errno;
	/* An export root we could only open O_PATH: reopen it readable. */
	if ((fd = creds_reopen_as_daemon(ctx->creds, ctx->root->rootfd,
	    O_RDONLY | O_DIRECTORY)) < 0)
		return errno;
	if (syncfs(fd) < 0)
		err = errno;
	close(fd);
	return err;
}

static int
sync_object(struct fs_ctx *ctx, struct inode_ent *e)
{
	int fd = icache_fsync_fd(e, ctx->creds), err;

	/*
	 * No descriptor of its own (a symlink or device), or none we may open
	 * (an unprivileged daemon and a directory it may write but not read):
	 * the file system, then.
	 */
	if (fd < 0)
		return errno == EINVAL || errno == EACCES ? sync_export_fs(ctx) : errno;
	if (fsync(fd) == 0)
		return 0;
	err = errno;
	/*
	 * The descriptor is shared with WRITE and COMMIT, and the kernel
	 * reports a write-back error once per descriptor: keep it for them,
	 * and change the write verifier, as any failed write-back does.
	 */
	if (e->type == S_IFREG)
		icache_note_wb_error(e, err);
	return err;
}

int
durable_sync(struct fs_ctx *ctx, struct inode_ent *e)
{
	uint64_t want = __atomic_add_fetch(&change_seq, 1, __ATOMIC_SEQ_CST), start;
	int err = 0;

	pthread_mutex_lock(&lock);
	for (;;) {
		if (want <= e->failed_upto) {
			err = e->failed_err;	/* the sync that covered us failed */
			goto out;
		}
		if (want <= e->synced_upto)
			goto out;		/* a sync that began after our change is done */
		if (!e->syncing)
			break;
		pthread_cond_wait(&sync_done, &lock);
	}
	e->syncing = 1;
	start = __atomic_load_n(&change_seq, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&lock);
	STAT_FSYNC(err, sync_object(ctx, e));
	pthread_mutex_lock(&lock);
	e->syncing = 0;
	if (err) {
		e->failed_upto = start;
		e->failed_err = err;
		log_warnx("export %s: sync of inode %llu failed: %s", ctx->root->path,
		    (unsigned long long)e->fh.ino, strerror(err));
	} else {
		e->synced_upto = start;
	}
	pthread_cond_broadcast(&sync_done);
out:
	pthread_mutex_unlock(&lock);
	return err;
}
