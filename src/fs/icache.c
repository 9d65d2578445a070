/*
 * The inode cache: handle -> O_PATH descriptor, hashed (by handle and by
 * inode number), LRU-bounded, reference counted. A miss is resolved by
 * beneath.c; handles are built by fh_build.c; the data descriptors an entry
 * keeps, and the sweeper that closes idle ones, are fdcache.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "beneath.h"
#include "compiler.h"
#include "fsroot.h"
#include "fh_build.h"
#include "icache.h"
#include "icache_impl.h"
#include "stats.h"
#include "monotime.h"

#define NBUCKETS 16384		/* power of two */

pthread_mutex_t icache_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static struct inode_ent *buckets[NBUCKETS];
/* The same entries by export and inode number: icache_known_kernel_handle. */
static struct inode_ent *ino_buckets[NBUCKETS];
static TAILQ_HEAD(lru_list, inode_ent) lru = TAILQ_HEAD_INITIALIZER(lru);	/* head = most recent */
static unsigned nentries, capacity = 8192;

void
icache_init(unsigned cap)
{
	if (cap)
		capacity = cap;
}

/*
 * Handles of different protocol versions name the same object: a v3
 * handle carries the kernel handle, inode and generation, a 32-byte v2
 * handle may only have room for the kernel handle. So an object is keyed
 * by its kernel handle when it has one, else by inode and generation.
 */
static unsigned
bucket_of(const struct fh *fh)
{
	uint64_t h = (uint64_t)fh->export_id << 32;

	if (fh->kfh_len) {
		for (unsigned i = 0; i < fh->kfh_len; i++)
			h = (h ^ fh->kfh[i]) * 0x100000001B3ULL;
	} else {
		h ^= fh->ino;
	}
	h *= 0x9E3779B97F4A7C15ULL;
	return (unsigned)(h >> 40) & (NBUCKETS - 1);
}

static unsigned
ino_bucket_of(uint32_t export_id, uint64_t ino)
{
	uint64_t h = ((uint64_t)export_id << 32 ^ ino) * 0x9E3779B97F4A7C15ULL;

	return (unsigned)(h >> 40) & (NBUCKETS - 1);
}

/* ---- LRU and hash, called with the lock held ---- */

static void
lru_unlink(struct inode_ent *e)
{
	TAILQ_REMOVE(&lru, e, lru);
}

static void
lru_push(struct inode_ent *e)
{
	TAILQ_INSERT_HEAD(&lru, e, lru);
}

static void
hash_unlink(struct inode_ent *e)
{
	struct inode_ent **pp = &buckets[bucket_of(&e->fh)];

	for (; *pp; pp = &(*pp)->hnext)
		if (*pp == e) {
			*pp = e->hnext;
			break;
		}
	for (pp = &ino_buckets[ino_bucket_of(e->fh.export_id, e->fh.ino)]; *pp; pp = &(*pp)->inext)
		if (*pp == e) {
			*pp = e->inext;
			break;
		}
}

long
icache_now_sec(void)
{
	return mono_sec();
}

static void
ent_destroy(struct inode_ent *e)
{
	fdcache_close(e, e->dirty);
	close(e->fd);
	free(e);
}

static struct inode_ent *
find_locked(const struct fh *fh)
{
	struct inode_ent *e = buckets[bucket_of(fh)];

	for (; e; e = e->hnext)
		if (fh_matches(fh, &e->fh))
			return e;
	return NULL;
}

/* Evicts unreferenced entries beyond capacity; returns them for closing outside the lock. */
static struct inode_ent *
evict_locked(void)
{
	struct inode_ent *dead = NULL, *e = TAILQ_LAST(&lru, lru_list);

	while (nentries > capacity && e) {
		struct inode_ent *prev = TAILQ_PREV(e, lru_list, lru);

		if (e->refs == 0) {
			lru_unlink(e);
			hash_unlink(e);
			nentries--;
			STAT_INC(ST_IC_EVICTIONS);
			e->hnext = dead;
			dead = e;
		}
		e = prev;
	}
	return dead;
}

static void
destroy_list(struct inode_ent *e)
{
	while (e) {
		struct inode_ent *n = e->hnext;
		ent_destroy(e);
		e = n;
	}
}

/* Inserts a new entry for fd, or returns the existing one (closing fd). */
static struct inode_ent *
insert(const struct fh *fh, int fd, mode_t type)
{
	struct inode_ent *e, *dead;
	unsigned b = bucket_of(fh);

	pthread_mutex_lock(&icache_lock);
	e = find_locked(fh);
	if (e) {
		e->refs++;
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&icache_lock);
		close(fd);
		return e;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		pthread_mutex_unlock(&icache_lock);
		close(fd);
		return NULL;
	}
	e->fh = *fh;
	e->fd = fd;
	e->rdfd = -1;
	e->wrfd = -1;
	e->last_used = icache_now_sec();
	e->type = type;
	e->refs = 1;
	e->hnext = buckets[b];
	buckets[b] = e;
	b = ino_bucket_of(fh->export_id, fh->ino);
	e->inext = ino_buckets[b];
	ino_buckets[b] = e;
	lru_push(e);
	nentries++;
	dead = evict_locked();
	pthread_mutex_unlock(&icache_lock);
	destroy_list(dead);
	return e;
}

void
icache_put(struct inode_ent *e)
{
	struct inode_ent *dead = NULL;

	if (e == NULL)
		return;
	pthread_mutex_lock(&icache_lock);
	if (--e->refs == 0 && e->detached)
		dead = e;	/* forgotten while in use: the last holder frees it */
	else
		dead = evict_locked();
	pthread_mutex_unlock(&icache_lock);
	if (dead == e)
		ent_destroy(e);
	else
		destroy_list(dead);
}

void
icache_ref(struct inode_ent *e)
{
	pthread_mutex_lock(&icache_lock);
	e->refs++;
	pthread_mutex_unlock(&icache_lock);
}

void
icache_forget(struct inode_ent *e)
{
	/* Unhashed: no new lookup finds it; it goes when the last reference does. */
	pthread_mutex_lock(&icache_lock);
	if (!e->detached) {
		hash_unlink(e);
		lru_unlink(e);
		nentries--;
		e->detached = 1;
	}
	pthread_mutex_unlock(&icache_lock);
}
/*
 * The kernel handle of an object the cache holds, found by inode number:
 * READDIRPLUS and LOOKUP then need no name_to_handle_at (a second path
 * walk; with statx, a third of the server's time in the SFS mix).  Sound
 * because a cached entry keeps its inode open: while it is in the cache no
 * other file can have its inode number on that file system, so the number
 * (and the birth time, when there is one) names the same object.
 */
/* With lock held: the cached entry for an inode number, if it has a kernel handle. */
static struct inode_ent *
find_ino_locked(uint32_t export_id, uint64_t ino)
{
	struct inode_ent *e = ino_buckets[ino_bucket_of(export_id, ino)];

	for (; e; e = e->inext)
		if (e->fh.export_id == export_id && e->fh.ino == ino && e->fh.kfh_len)
			return e;
	return NULL;
}

int
icache_known_kernel_handle(struct fh *out)
{
	struct inode_ent *e;
	int found = 0;

	pthread_mutex_lock(&icache_lock);
	e = find_ino_locked(out->export_id, out->ino);
	if (e && e->fh.gen == out->gen) {
		out->kfh_type = e->fh.kfh_type;
		out->kfh_len = e->fh.kfh_len;
		memcpy(out->kfh, e->fh.kfh, e->fh.kfh_len);
		found = 1;
	}
	pthread_mutex_unlock(&icache_lock);
	return found;
}

int
icache_cached_ino(uint32_t export_id, uint64_t ino, struct fh *out)
{
	struct inode_ent *e;
	int fd = -1;

	pthread_mutex_lock(&icache_lock);
	if ((e = find_ino_locked(export_id, ino)) != NULL) {
		*out = e->fh;
		fd = e->fd;
	}
	pthread_mutex_unlock(&icache_lock);
	return fd;
}

int
icache_get(const struct fs_root *root, const struct fh *fh, struct creds_state *cs,
    struct inode_ent **out)
{
	struct inode_ent *e;
	struct stat st;
	struct fh have;
	int fd;

	pthread_mutex_lock(&icache_lock);
	e = find_locked(fh);
	if (e) {
		e->refs++;
		e->last_used = icache_now_sec();
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&icache_lock);
		STAT_INC(ST_IC_HITS);
		*out = e;
		return 0;
	}
	pthread_mutex_unlock(&icache_lock);
	STAT_INC(ST_IC_MISSES);
	fd = beneath_resolve_handle(root, fh, cs, &have);
	if (fd < 0)
		return errno == ENOENT ? ESTALE : errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return ESTALE;
	}
	/* Cached under its full handle, so every version's handle finds it. */
	e = insert(&have, fd, st.st_mode & S_IFMT);
	if (e == NULL)
		return ENOMEM;
	*out = e;
	return 0;
}

int
icache_enter(const struct fs_root *root, int dirfd, const char *name, struct inode_ent **out,
    struct stat *st)
{
	struct statx stx, again;
	struct fh fh;
	struct inode_ent *e;
	int fd;

	if (statx_at(dirfd, name, &stx) < 0)
		return errno;
	if (statx_dev(&stx) != root->dev)
		return EXDEV;	/* a mount point: not served without crossmnt */
	fh_from_statx(root, dirfd, name, &stx, &fh);
	pthread_mutex_lock(&icache_lock);
	e = find_locked(&fh);
	if (e) {
		e->refs++;
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&icache_lock);
		if (st)
			stat_from_statx(&stx, st);
		*out = e;
		return 0;
	}
	pthread_mutex_unlock(&icache_lock);
	fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* The name may have been replaced between statx and openat. */
	if (statx_at(fd, "", &again) < 0 || again.stx_ino != stx.stx_ino ||
	    statx_dev(&again) != root->dev) {
		close(fd);
		return ESTALE;
	}
	e = insert(&fh, fd, stx.stx_mode & S_IFMT);
	if (e == NULL)
		return ENOMEM;
	if (st)
		stat_from_statx(&again, st);
	*out = e;
	return 0;
}

void
icache_proc_path(const struct inode_ent *e, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", e->fd);
}
unsigned
icache_entries(void)
{
	unsigned n;

	pthread_mutex_lock(&icache_lock);
	n = nentries;
	pthread_mutex_unlock(&icache_lock);
	return n;
}

unsigned
icache_pin_unswept(struct inode_ent **batch, unsigned max, unsigned pass)
{
	struct inode_ent *e;
	unsigned n = 0;

	pthread_mutex_lock(&icache_lock);
	for (e = TAILQ_LAST(&lru, lru_list); e && n < max; e = TAILQ_PREV(e, lru_list, lru)) {
		if (e->sweep_pass == pass)
			continue;
		e->sweep_pass = pass;
		e->refs++;
		batch[n++] = e;
	}
	pthread_mutex_unlock(&icache_lock);
	return n;
}
