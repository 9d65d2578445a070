/*
 * The data-descriptor cache: beside its O_PATH descriptor, an inode cache
 * entry keeps a descriptor for reading and one for writing, opened once as
 * the daemon. Unstable writes are synced through them (COMMIT), and a
 * sweeper thread syncs and closes the ones idle for DATA_FD_IDLE_SECS and
 * lets deleted files go. Entries and their lock are icache.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "creds.h"
#include "icache.h"
#include "icache_impl.h"
#include "log.h"
#include "stats.h"

#define DATA_FD_IDLE_SECS 30

/* Signalled when a sweep's write-back of an idle file finishes. */
static pthread_cond_t wb_done = PTHREAD_COND_INITIALIZER;
/* Deferred write-back failures so far; part of the NFS write verifier. */
static unsigned wb_failures;

/*
 * Closes the data descriptors. Unstable data is synced first: a failure
 * changes the write verifier, so clients resend, and is returned so the
 * next WRITE or COMMIT on the file reports it.
 */
int
fdcache_close(struct inode_ent *e, int dirty)
{
	int err = 0;

	if (e->wrfd >= 0) {
		if (dirty && fsync(e->wrfd) < 0) {
			err = errno;
			__atomic_add_fetch(&wb_failures, 1, __ATOMIC_SEQ_CST);
			log_warn("write-back of inode %llu failed; clients will resend",
			    (unsigned long long)e->fh.ino);
		}
		close(e->wrfd);
		e->wrfd = -1;
	}
	if (e->rdfd >= 0) {
		close(e->rdfd);
		e->rdfd = -1;
	}
	return err;
}


unsigned
icache_wb_failures(void)
{
	return __atomic_load_n(&wb_failures, __ATOMIC_SEQ_CST);
}


/*
 * Reopens the object itself, not a path: /proc/self/fd names the inode we
 * hold. Opened as the daemon, so a client's later permission change does
 * not strand the cached descriptor; callers check the client's rights.
 */
static int
data_fd(struct inode_ent *e, struct creds_state *cs, int *slot, int flags)
{
	int fd;

	pthread_mutex_lock(&icache_lock);
	fd = *slot;
	pthread_mutex_unlock(&icache_lock);
	if (fd >= 0) {
		STAT_INC(ST_FD_HITS);
		return fd;
	}
	if ((fd = creds_reopen_as_daemon(cs, e->fd, flags)) < 0)
		return -1;
	STAT_INC(ST_FD_OPENS);
	pthread_mutex_lock(&icache_lock);
	if (*slot < 0) {
		*slot = fd;
	} else {
		close(fd);
		fd = *slot;
	}
	pthread_mutex_unlock(&icache_lock);
	return fd;
}

int
icache_read_fd(struct inode_ent *e, struct creds_state *cs)
{
	/* A descriptor open for writing reads as well. */
	if (e->wrfd >= 0) {
		STAT_INC(ST_FD_HITS);
		return e->wrfd;
	}
	return data_fd(e, cs, &e->rdfd, O_RDONLY);
}

int
icache_write_fd(struct inode_ent *e, struct creds_state *cs)
{
	return data_fd(e, cs, &e->wrfd, O_RDWR);
}

int
icache_fsync_fd(struct inode_ent *e, struct creds_state *cs)
{
	switch (e->type) {
	case S_IFREG:
		return icache_read_fd(e, cs);
	case S_IFDIR:
		/* rdfd is otherwise unused for directories (listings open their own). */
		return data_fd(e, cs, &e->rdfd, O_RDONLY | O_DIRECTORY);
	default:
		errno = EINVAL;	/* symlinks, devices, FIFOs, sockets: no fsync of their own */
		return -1;
	}
}

int
icache_take_error(struct inode_ent *e)
{
	int err;

	pthread_mutex_lock(&icache_lock);
	err = e->wb_err;
	e->wb_err = 0;
	pthread_mutex_unlock(&icache_lock);
	return err;
}

void
icache_note_wb_error(struct inode_ent *e, int err)
{
	__atomic_add_fetch(&wb_failures, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&icache_lock);
	e->wb_err = err;
	pthread_mutex_unlock(&icache_lock);
}

void
icache_mark_dirty(struct inode_ent *e)
{
	pthread_mutex_lock(&icache_lock);
	e->dirty = 1;
	pthread_mutex_unlock(&icache_lock);
}

int
icache_sync(struct inode_ent *e, int datasync)
{
	int fd, rc;

	pthread_mutex_lock(&icache_lock);
	/* A sweep syncing this file right now: its outcome is ours to report. */
	while (e->wb_busy)
		pthread_cond_wait(&wb_done, &icache_lock);
	fd = e->wrfd >= 0 ? e->wrfd : e->rdfd;
	e->dirty = 0;
	rc = e->wb_err;
	e->wb_err = 0;
	pthread_mutex_unlock(&icache_lock);
	if (rc)
		return rc;	/* an earlier write-back failed: this COMMIT cannot succeed */
	if (fd < 0)
		return 0;	/* nothing written through us since the last sync */
	STAT_FSYNC(rc, datasync ? fdatasync(fd) : fsync(fd));
	if (rc < 0) {
		int err = errno;
		__atomic_add_fetch(&wb_failures, 1, __ATOMIC_SEQ_CST);
		log_warn("sync of inode %llu failed", (unsigned long long)e->fh.ino);
		return err;
	}
	return 0;
}

int
icache_drop_write_fd(struct inode_ent *e)
{
	int fd = -1;

	pthread_mutex_lock(&icache_lock);
	/* Only the caller holds it (so no one uses the descriptor), and nothing is unstable. */
	if (e->refs == 1 && e->wrfd >= 0 && !e->dirty && !e->wb_busy) {
		fd = e->wrfd;
		e->wrfd = -1;
	}
	pthread_mutex_unlock(&icache_lock);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* Sync and close what an idle entry holds; report a failure on the entry. */
static void
close_idle(struct inode_ent *e, long now)
{
	struct inode_ent tmp = { .rdfd = -1, .wrfd = -1, .fh = e->fh };
	int err;

	pthread_mutex_lock(&icache_lock);
	/* Only when no worker holds it: a worker may be using these descriptors. */
	if (e->refs != 1 || (e->rdfd < 0 && e->wrfd < 0) || now - e->last_used <= DATA_FD_IDLE_SECS) {
		pthread_mutex_unlock(&icache_lock);
		return;
	}
	tmp.rdfd = e->rdfd;
	tmp.wrfd = e->wrfd;
	tmp.dirty = e->dirty;
	e->rdfd = e->wrfd = -1;
	e->dirty = 0;
	e->wb_busy = 1;		/* a COMMIT now waits for this sync */
	pthread_mutex_unlock(&icache_lock);
	err = fdcache_close(&tmp, tmp.dirty);
	pthread_mutex_lock(&icache_lock);
	e->wb_busy = 0;
	if (err)
		e->wb_err = err;
	pthread_cond_broadcast(&wb_done);
	pthread_mutex_unlock(&icache_lock);
}

/*
 * Every entry once per pass, a batch at a time: pinned under the lock,
 * examined without it, so workers never wait on a sweep's fstat or fsync.
 */
void
icache_sweep(void)
{
	static unsigned pass;
	long now = icache_now_sec();

	pass++;
	for (;;) {
		struct inode_ent *batch[256], *e;
		unsigned n = icache_pin_unswept(batch, ARRAY_SIZE(batch), pass);

		if (n == 0)
			break;
		for (unsigned i = 0; i < n; i++) {
			struct stat st;

			e = batch[i];
			if (fstat(e->fd, &st) == 0 && st.st_nlink == 0)
				icache_forget(e);	/* deleted: let its space go */
			else
				close_idle(e, now);
			icache_put(e);
		}
	}
}

static pthread_t sweeper;
static pthread_mutex_t sweeper_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sweeper_cond = PTHREAD_COND_INITIALIZER;
static int sweeper_stop, sweeper_running;

static void *
sweeper_main(void *arg)
{
	(void)arg;
	/* Named, so that top -H, perf and the tests tell its write-backs from the calls'. */
	pthread_setname_np(pthread_self(), "icache-sweep");
	pthread_mutex_lock(&sweeper_lock);
	while (!sweeper_stop) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_cond_timedwait(&sweeper_cond, &sweeper_lock, &until);
		if (sweeper_stop)
			break;
		pthread_mutex_unlock(&sweeper_lock);
		icache_sweep();
		pthread_mutex_lock(&sweeper_lock);
	}
	pthread_mutex_unlock(&sweeper_lock);
	return NULL;
}

int
icache_start_sweeper(void)
{
	sigset_t all, old;
	int rc;

	/* Its own thread: an fsync of an idle file must not stall the I/O loop. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&sweeper, NULL, sweeper_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc == 0)
		sweeper_running = 1;
	return rc == 0 ? 0 : -1;
}

void
icache_stop_sweeper(void)
{
	if (!sweeper_running)
		return;
	pthread_mutex_lock(&sweeper_lock);
	sweeper_stop = 1;
	pthread_cond_signal(&sweeper_cond);
	pthread_mutex_unlock(&sweeper_lock);
	pthread_join(sweeper, NULL);
	sweeper_running = 0;
}
