/*
 * The lock manager (locks.h): clients, their owners' open file
 * descriptions, requests, share reservations, a client's state released
 * at once, and the grace period. Blocked requests and the GRANTED
 * callbacks are lock_waiters.c's; what the two share is locks_impl.h.
 * One mutex guards all of it; nothing under it waits: F_OFD_SETLK never
 * blocks, and calls to clients run in background tasks.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fs/fsops.h"
#include "heads.h"
#include "fs/icache.h"
#include "lock_ranges.h"
#include "locks.h"
#include "locks_impl.h"
#include "log.h"
#include "queue.h"
#include "sockaddr.h"
#include "monotime.h"

#define HOSTS_MAX 4096
#define SHARES_MAX 4096
#define NBUCKETS 1024
/*
 * A client that holds nothing is forgotten (and no longer monitored)
 * after this long: one that locks and unlocks all day keeps its entry.
 */
#define HOST_IDLE_SECS 120

struct lk_share {
	TAILQ_ENTRY(lk_share) link;
	struct lk_host *host;
	struct inode_ent *ent;
	size_t ohlen;
	uint8_t oh[LK_OH_MAX];
	unsigned mode, access;
};

TAILQ_HEAD(host_list, lk_host);
TAILQ_HEAD(file_list, lk_file);
TAILQ_HEAD(share_list, lk_share);

pthread_mutex_t lk_mutex = PTHREAD_MUTEX_INITIALIZER;
static struct host_list hosts = TAILQ_HEAD_INITIALIZER(hosts);
static struct file_list buckets[NBUCKETS];
static struct share_list shares = TAILQ_HEAD_INITIALIZER(shares);
static unsigned nhosts, nfiles, nranges, nshares;
static struct lk_config cfg;
static time_t grace_until;

time_t
lk_now(void)
{
	return mono_sec();
}

int
locks_in_grace(void)
{
	time_t until = __atomic_load_n(&grace_until, __ATOMIC_RELAXED);

	return until != 0 && lk_now() < until;
}

/*
 * New locks (and TEST, which would promise one) also wait while another
 * head over the same file system is in its grace period (--grace-dir):
 * its clients are about to reclaim ranges we must not hand out meanwhile.
 * UNLOCK and CANCEL do not: our own clients can always give back.
 */
static int
new_locks_wait(const struct lk_req *r)
{
	if (locks_in_grace())
		return 1;
	if (!grace_shared_enabled())
		return 0;
	/*
	 * The records are the daemon's files in a 0700 directory: read them
	 * as the daemon. With the identity of the client this worker served
	 * last (lockd sends the locking process's uid), the scan failed, was
	 * taken for "someone is in grace", and held new locks back for good.
	 */
	if (creds_root(r->ctx->creds) < 0)
		return 1;
	return grace_shared_active();
}

/*
 * Only regular files are locked: opening anything else (a device, a FIFO)
 * to lock it could do more than lock it. knfsd refuses them too.
 */
static int
lockable(const struct lk_req *r)
{
	return r->ctx->ent->type == S_IFREG;
}

/* ---- hosts ---- */

static struct lk_host *
host_find(const char *name, const struct sockaddr_storage *addr)
{
	struct lk_host *h;

	TAILQ_FOREACH(h, &hosts, link)
		if (sockaddr_same_host(&h->addr, addr) && strcmp(h->name, name) == 0)
			return h;
	return NULL;
}

static struct lk_host *
host_get(const struct lk_req *r)
{
	struct lk_host *h = host_find(r->caller, &r->peer);

	if (h)
		return h;
	if (nhosts >= HOSTS_MAX || (h = calloc(1, sizeof(*h))) == NULL)
		return NULL;
	if ((h->name = strdup(r->caller)) == NULL) {
		free(h);
		return NULL;
	}
	h->addr = r->peer;
	h->local = r->local;
	TAILQ_INSERT_TAIL(&hosts, h, link);
	nhosts++;
	return h;
}

/* Another host entry at the same address still holds something? */
static int
addr_in_use(const struct lk_host *gone)
{
	const struct lk_host *h;

	TAILQ_FOREACH(h, &hosts, link)
		if (h != gone && sockaddr_same_host(&h->addr, &gone->addr) && h->monitored)
			return 1;
	return 0;
}

static int
host_empty(const struct lk_host *h)
{
	return h->nfiles == 0 && h->nblocks == 0 && h->nshares == 0;
}

static void
host_free(struct lk_host *h)
{
	if (h->monitored && !addr_in_use(h) && cfg.unmonitor)
		cfg.unmonitor(&h->addr);
	TAILQ_REMOVE(&hosts, h, link);
	nhosts--;
	free(h->name);
	free(h);
}

/* A reference went: note when h came to hold nothing (hosts_gc frees it). */
static void
host_put(struct lk_host *h)
{
	if (host_empty(h))
		h->idle_since = lk_now();
}

static void
hosts_gc(void)
{
	struct lk_host *h, *next;
	time_t now = lk_now();

	TAILQ_FOREACH_SAFE(h, &hosts, link, next)
		if (host_empty(h) && now - h->idle_since >= HOST_IDLE_SECS)
			host_free(h);
}

static void
host_monitor(struct lk_host *h)
{
	if (h->monitored)
		return;
	h->monitored = 1;
	if (cfg.monitor)
		cfg.monitor(&h->addr, &h->local, h->name);
}

/* ---- files: one owner's open file description ---- */

static unsigned
bucket_of(const struct inode_ent *ent)
{
	uintptr_t p = (uintptr_t)ent;

	return (unsigned)((p >> 4) ^ (p >> 14)) % NBUCKETS;
}

static int
same_owner(const struct lk_file *f, const struct lk_host *h, int32_t svid, const void *oh,
    size_t ohlen)
{
	return f->host == h && f->svid == svid && f->ohlen == ohlen &&
	    memcmp(f->oh, oh, ohlen) == 0;
}

static struct lk_file *
file_find(const struct lk_host *h, const struct lk_req *r)
{
	struct lk_file *f;

	TAILQ_FOREACH(f, &buckets[bucket_of(r->ctx->ent)], bucket)
		if (f->ent == r->ctx->ent && same_owner(f, h, r->svid, r->oh, r->ohlen))
			return f;
	return NULL;
}

/*
 * The owner's description of the file, opened as the daemon: read-write
 * where the file system allows (exclusive locks need it), else read-only.
 */
static int
open_lock_fd(struct fs_ctx *ctx, int *writable)
{
	struct creds_state *cs = ctx->creds;
	int fd = creds_reopen_as_daemon(cs, ctx->ent->fd, O_RDWR);

	*writable = fd >= 0;
	if (fd < 0)
		fd = creds_reopen_as_daemon(cs, ctx->ent->fd, O_RDONLY);
	return fd;
}

static struct lk_file *
file_get(struct lk_host *h, const struct lk_req *r, int *status)
{
	struct lk_file *f = file_find(h, r);

	*status = LK_NOLOCKS;
	if (f)
		return f;
	if (nfiles >= cfg.max_files || (f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	if ((f->oh = malloc(r->ohlen ? r->ohlen : 1)) == NULL) {
		free(f);
		return NULL;
	}
	memcpy(f->oh, r->oh, r->ohlen);
	f->ohlen = r->ohlen;
	if ((f->fd = open_lock_fd(r->ctx, &f->writable)) < 0) {
		*status = errno == ESTALE || errno == ENOENT ? LK_STALE : LK_NOLOCKS;
		free(f->oh);
		free(f);
		return NULL;
	}
	f->host = h;
	f->svid = r->svid;
	f->ent = r->ctx->ent;
	icache_ref(f->ent);
	TAILQ_INSERT_TAIL(&buckets[bucket_of(f->ent)], f, bucket);
	h->nfiles++;
	nfiles++;
	return f;
}

/* Closes f when it holds nothing and nothing waits on it. */
void
lk_file_put(struct lk_file *f)
{
	struct lk_host *h = f->host;

	if (f->held.nr || f->nblocks)
		return;
	TAILQ_REMOVE(&buckets[bucket_of(f->ent)], f, bucket);
	close(f->fd);	/* drops whatever the description still held */
	icache_put(f->ent);
	lr_free(&f->held);
	free(f->oh);
	free(f);
	nfiles--;
	h->nfiles--;
	host_put(h);
}

/* F_OFD_SETLK on f: 0, or an errno (EAGAIN for a conflict). */
static int
ofd_setlk(struct lk_file *f, short type, uint64_t start, uint64_t end)
{
	struct flock fl = {
		.l_type = type,
		.l_whence = SEEK_SET,
		.l_start = (off_t)start,
		.l_len = end == LR_EOF ? 0 : (off_t)(end - start + 1),
	};

	if (fcntl(f->fd, F_OFD_SETLK, &fl) == 0)
		return 0;
	return errno == EACCES ? EAGAIN : errno;
}

/* Takes [start, end] for f, kernel first; an LK_ status. */
int
lk_file_lock(struct lk_file *f, uint64_t start, uint64_t end, int exclusive)
{
	int err;

	if (exclusive && !f->writable)
		return LK_ROFS;
	/* Room first: what the kernel grants must be recorded. */
	if (lr_reserve(&f->held, 2) < 0)
		return LK_NOLOCKS;
	err = ofd_setlk(f, exclusive ? F_WRLCK : F_RDLCK, start, end);
	if (err == EAGAIN)
		return LK_DENIED;
	if (err == EBADF)
		return LK_ROFS;
	if (err)
		return LK_NOLOCKS;
	nranges -= f->held.nr;
	lr_set(&f->held, start, end, exclusive);	/* room reserved: cannot fail */
	nranges += f->held.nr;
	return LK_GRANTED;
}

void
lk_file_unlock(struct lk_file *f, uint64_t start, uint64_t end)
{
	if (ofd_setlk(f, F_UNLCK, start, end) != 0)
		log_warn("unlock of inode %llu", (unsigned long long)f->ent->fh.ino);
	nranges -= f->held.nr;
	if (lr_clear(&f->held, start, end) < 0) {
		/* No room to split: give up the owner's every lock on the file, in both views. */
		lr_clear(&f->held, 0, LR_EOF);
		ofd_setlk(f, F_UNLCK, 0, LR_EOF);
	}
	nranges += f->held.nr;
}

/* ---- requests ---- */

int
locks_lock(const struct lk_req *r, int block, int reclaim, int monitor)
{
	uint64_t start, end;
	struct lk_host *h;
	struct lk_file *f;
	int st;

	if (!lockable(r))
		return LK_FAILED;
	if (lr_from_nlm(r->off, r->len, &start, &end) < 0)
		return LK_FBIG;
	/*
	 * A reclaim after the grace period (or with none) is taken as a new
	 * request: the kernel still refuses it if someone else holds the range.
	 */
	if (new_locks_wait(r) && !reclaim)
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_get(r)) == NULL) {
		pthread_mutex_unlock(&lk_mutex);
		return LK_NOLOCKS;
	}
	h->local = r->local;
	if ((f = file_get(h, r, &st)) == NULL) {
		host_put(h);
		pthread_mutex_unlock(&lk_mutex);
		return st;
	}
	st = lk_file_lock(f, start, end, r->exclusive);
	if (st == LK_GRANTED) {
		/* If it was waiting for it, it asked again and has it: no callback. */
		lk_block_done(f, start, end, r->exclusive);
		if (monitor)
			host_monitor(h);
	} else if (st == LK_DENIED && block) {
		st = lk_block_add(f, r, start, end);
		if (monitor)
			host_monitor(h);
	}
	lk_file_put(f);
	pthread_mutex_unlock(&lk_mutex);
	return st;
}

int
locks_test(const struct lk_req *r, struct lk_holder *hd)
{
	struct flock fl;
	uint64_t start, end, cstart, cend;
	struct lk_host *h;
	struct lk_file *f, *own = NULL;
	int fd, st, writable;

	if (!lockable(r))
		return LK_FAILED;
	if (lr_from_nlm(r->off, r->len, &start, &end) < 0)
		return LK_FBIG;
	if (new_locks_wait(r))
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(r->caller, &r->peer)) != NULL)
		own = file_find(h, r);
	/* The owner's own description: its own locks are no conflict. */
	fd = own ? own->fd : open_lock_fd(r->ctx, &writable);
	if (fd < 0) {
		pthread_mutex_unlock(&lk_mutex);
		return LK_NOLOCKS;
	}
	memset(&fl, 0, sizeof(fl));
	fl.l_type = r->exclusive ? F_WRLCK : F_RDLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = (off_t)start;
	fl.l_len = end == LR_EOF ? 0 : (off_t)(end - start + 1);
	st = fcntl(fd, F_OFD_GETLK, &fl) < 0 ? LK_NOLOCKS : LK_GRANTED;
	if (!own)
		close(fd);
	if (st != LK_GRANTED || fl.l_type == F_UNLCK) {
		pthread_mutex_unlock(&lk_mutex);
		return st;
	}
	/* A conflict: name its owner when it is one of ours, else a local process. */
	memset(hd, 0, sizeof(*hd));
	hd->exclusive = fl.l_type == F_WRLCK;
	cstart = (uint64_t)fl.l_start;
	cend = fl.l_len == 0 ? LR_EOF : cstart + (uint64_t)fl.l_len - 1;
	lr_to_nlm(cstart, cend, &hd->off, &hd->len);
	hd->svid = fl.l_pid > 0 ? fl.l_pid : 0;
	TAILQ_FOREACH(f, &buckets[bucket_of(r->ctx->ent)], bucket) {
		if (f->ent != r->ctx->ent || f == own)
			continue;
		for (unsigned i = 0; i < f->held.nr; i++) {
			const struct lock_range *lr = &f->held.r[i];

			if (!lr_overlaps(lr, cstart, cend) || lr->exclusive != hd->exclusive)
				continue;
			hd->svid = f->svid;
			hd->ohlen = f->ohlen;
			memcpy(hd->oh, f->oh, f->ohlen);
			goto found;
		}
	}
found:
	pthread_mutex_unlock(&lk_mutex);
	return LK_DENIED;
}

int
locks_unlock(const struct lk_req *r)
{
	uint64_t start, end;
	struct lk_host *h;
	struct lk_file *f;

	if (lr_from_nlm(r->off, r->len, &start, &end) < 0)
		return LK_FBIG;
	if (locks_in_grace())
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(r->caller, &r->peer)) != NULL && (f = file_find(h, r)) != NULL) {
		lk_file_unlock(f, start, end);
		lk_file_put(f);
		lk_wake();	/* waiters on this file may go now */
	}
	pthread_mutex_unlock(&lk_mutex);
	return LK_GRANTED;	/* unlocking what is not held is no error */
}

int
locks_held(const struct lk_req *r)
{
	struct lk_host *h;
	struct lk_file *f;
	int held = 0;

	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(r->caller, &r->peer)) != NULL && (f = file_find(h, r)) != NULL)
		held = f->held.nr != 0;
	pthread_mutex_unlock(&lk_mutex);
	return held;
}

int
locks_cancel(const struct lk_req *r)
{
	uint64_t start, end;
	struct lk_host *h;
	struct lk_file *f;
	int st = LK_DENIED;

	if (lr_from_nlm(r->off, r->len, &start, &end) < 0)
		return LK_DENIED;
	if (locks_in_grace())
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(r->caller, &r->peer)) != NULL && (f = file_find(h, r)) != NULL)
		st = lk_block_cancel(f, start, end, r->exclusive);
	pthread_mutex_unlock(&lk_mutex);
	return st;
}

/* ---- share reservations ---- */

static int
same_share_owner(const struct lk_share *s, const struct lk_host *h, const struct lk_req *r)
{
	return s->host == h && s->ohlen == r->ohlen && memcmp(s->oh, r->oh, r->ohlen) == 0;
}

int
locks_share(const struct lk_req *r, unsigned mode, unsigned access, int reclaim)
{
	struct lk_share *s, *mine = NULL;
	struct lk_host *h;

	if (!lockable(r))
		return LK_FAILED;
	if (new_locks_wait(r) && !reclaim)
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_get(r)) == NULL) {
		pthread_mutex_unlock(&lk_mutex);
		return LK_NOLOCKS;
	}
	TAILQ_FOREACH(s, &shares, link) {
		if (s->ent != r->ctx->ent)
			continue;
		if (same_share_owner(s, h, r)) {
			mine = s;
			continue;
		}
		/* What one wants to do, the other must not deny. */
		if ((access & s->mode) || (mode & s->access)) {
			host_put(h);
			pthread_mutex_unlock(&lk_mutex);
			return LK_DENIED;
		}
	}
	if (mine == NULL) {
		if (nshares >= SHARES_MAX || (mine = calloc(1, sizeof(*mine))) == NULL) {
			host_put(h);
			pthread_mutex_unlock(&lk_mutex);
			return LK_NOLOCKS;
		}
		mine->host = h;
		mine->ent = r->ctx->ent;
		icache_ref(mine->ent);
		mine->ohlen = r->ohlen;
		memcpy(mine->oh, r->oh, r->ohlen);
		TAILQ_INSERT_TAIL(&shares, mine, link);
		nshares++;
		h->nshares++;
		host_monitor(h);
	}
	mine->mode = mode;
	mine->access = access;
	pthread_mutex_unlock(&lk_mutex);
	return LK_GRANTED;
}

static void
share_free(struct lk_share *s)
{
	struct lk_host *h = s->host;

	TAILQ_REMOVE(&shares, s, link);
	icache_put(s->ent);
	free(s);
	nshares--;
	h->nshares--;
	host_put(h);
}

int
locks_unshare(const struct lk_req *r)
{
	struct lk_share *s, *next;
	struct lk_host *h;

	if (locks_in_grace())
		return LK_GRACE;
	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(r->caller, &r->peer)) != NULL) {
		TAILQ_FOREACH_SAFE(s, &shares, link, next)
			if (s->ent == r->ctx->ent && same_share_owner(s, h, r))
				share_free(s);
	}
	pthread_mutex_unlock(&lk_mutex);
	return LK_GRANTED;
}

/* ---- a client's state, all at once ---- */

/* With the lock held: everything h holds and waits for goes; h may go too. */
static void
host_release(struct lk_host *h)
{
	struct lk_share *s, *sn;

	h->nfiles++;	/* keep h while we work on it */
	lk_blocks_drop_host(h);
	TAILQ_FOREACH_SAFE(s, &shares, link, sn)
		if (s->host == h)
			share_free(s);
	for (unsigned i = 0; i < NBUCKETS; i++) {
		struct lk_file *f, *fn;

		TAILQ_FOREACH_SAFE(f, &buckets[i], bucket, fn) {
			if (f->host != h)
				continue;
			nranges -= f->held.nr;
			lr_clear(&f->held, 0, LR_EOF);
			lk_file_put(f);	/* closing the description drops its locks */
		}
	}
	h->nfiles--;
	host_put(h);
	lk_wake();
}

void
locks_free_all(const char *caller, const struct sockaddr_storage *peer)
{
	struct lk_host *h;

	pthread_mutex_lock(&lk_mutex);
	if ((h = host_find(caller, peer)) != NULL)
		host_release(h);
	pthread_mutex_unlock(&lk_mutex);
}

void
locks_host_rebooted(const struct sockaddr_storage *addr)
{
	struct lk_host *h, *next;
	unsigned n = 0;

	pthread_mutex_lock(&lk_mutex);
	TAILQ_FOREACH_SAFE(h, &hosts, link, next) {
		if (!sockaddr_same_host(&h->addr, addr))
			continue;
		/* host_release may free h; next was read before. */
		host_release(h);
		n++;
	}
	pthread_mutex_unlock(&lk_mutex);
	if (n) {
		char name[64];

		sockaddr_text(addr, name, sizeof(name));
		log_info("%s restarted: its locks are released", name);
	}
}

/*
 * For tests only (tests/fuzz/fuzz_rpc.c): every client is forgotten at
 * once, as if the daemon had restarted, so that each fuzz input starts
 * from the same lock table. Hosts go now, not after HOST_IDLE_SECS:
 * hosts_gc runs from the waiter thread (lk_tick), which the fuzz target
 * does not start.
 */
void
locks_reset(void)
{
	struct lk_host *h, *next;

	pthread_mutex_lock(&lk_mutex);
	TAILQ_FOREACH_SAFE(h, &hosts, link, next) {
		host_release(h);	/* leaves h holding nothing */
		host_free(h);
	}
	pthread_mutex_unlock(&lk_mutex);
}

void
locks_get_stats(struct lk_stats *s)
{
	pthread_mutex_lock(&lk_mutex);
	s->hosts = nhosts;
	s->files = nfiles;
	s->ranges = nranges;
	lk_blocks_count(&s->waiters, &s->grants);
	s->shares = nshares;
	s->in_grace = grace_until != 0;
	pthread_mutex_unlock(&lk_mutex);
}

/* ---- life ---- */

void
locks_end_grace(void)
{
	time_t now = lk_now();

	if (locks_in_grace())
		__atomic_store_n(&grace_until, now, __ATOMIC_RELAXED);
}

void
lk_tick(void)
{
	hosts_gc();
	if (grace_until && lk_now() >= grace_until) {
		__atomic_store_n(&grace_until, 0, __ATOMIC_RELAXED);
		log_info("grace period over: locks are granted to everyone");
		if (cfg.prune)
			cfg.prune();
	}
}

int
locks_start(const struct lk_config *c)
{
	cfg = *c;
	for (unsigned i = 0; i < NBUCKETS; i++)
		TAILQ_INIT(&buckets[i]);
	if (cfg.grace_secs)
		grace_until = lk_now() + cfg.grace_secs;
	return cfg.no_waiter ? 0 : lk_waiters_start(cfg.send_granted);
}

void
locks_stop(void)
{
	lk_waiters_stop();
}
