/* The inode cache: handle -> O_PATH descriptor, hashed, LRU-bounded. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "compiler.h"
#include "creds.h"
#include "exports.h"
#include "icache.h"
#include "log.h"
#include "stats.h"

#define NBUCKETS 16384		/* power of two */
#define SEARCH_MAX_ENTRIES 10000000u

static pthread_mutex_t lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
/* Signalled when a sweep's write-back of an idle file finishes. */
static pthread_cond_t wb_done = PTHREAD_COND_INITIALIZER;
static struct inode_ent *buckets[NBUCKETS];
/* The same entries by export and inode number: known_kernel_handle. */
static struct inode_ent *ino_buckets[NBUCKETS];
static struct inode_ent *lru_head, *lru_tail;	/* head = most recent */
static unsigned nentries, capacity = 8192;
/* Deferred write-back failures so far; part of the NFS write verifier. */
static unsigned wb_failures;
#define DATA_FD_IDLE_SECS 30
/* Set once open_by_handle_at says we lack the privilege: stop asking. */
static int handles_need_search;

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

/* Does the object whose full handle is 'have' answer to the handle 'want'? */
static int
fh_matches(const struct fh *want, const struct fh *have)
{
	if (want->export_id != have->export_id)
		return 0;
	if (want->ino && want->ino != have->ino)
		return 0;
	if (want->gen && have->gen && want->gen != have->gen)
		return 0;
	if (want->kfh_len)
		return want->kfh_len == have->kfh_len && want->kfh_type == have->kfh_type &&
		    memcmp(want->kfh, have->kfh, want->kfh_len) == 0;
	/* Without a kernel handle the inode and generation are all there is. */
	return want->ino != 0 && have->kfh_len == 0 && want->gen == have->gen;
}

uint32_t
gen_from_statx_btime(int64_t sec, uint32_t nsec)
{
	uint32_t g = (uint32_t)((uint64_t)sec * 1000003u) ^ nsec;

	return g ? g : 1;
}

/* ---- LRU and hash, called with lock held ---- */

static void
lru_unlink(struct inode_ent *e)
{
	if (e->lru_prev)
		e->lru_prev->lru_next = e->lru_next;
	else
		lru_head = e->lru_next;
	if (e->lru_next)
		e->lru_next->lru_prev = e->lru_prev;
	else
		lru_tail = e->lru_prev;
	e->lru_prev = e->lru_next = NULL;
}

static void
lru_push(struct inode_ent *e)
{
	e->lru_prev = NULL;
	e->lru_next = lru_head;
	if (lru_head)
		lru_head->lru_prev = e;
	lru_head = e;
	if (lru_tail == NULL)
		lru_tail = e;
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

static long
now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

/*
 * Closes the data descriptors. Unstable data is synced first: a failure
 * changes the write verifier, so clients resend, and is returned so the
 * next WRITE or COMMIT on the file reports it.
 */
static int
close_data_fds(struct inode_ent *e, int dirty)
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

static void
ent_destroy(struct inode_ent *e)
{
	close_data_fds(e, e->dirty);
	close(e->fd);
	free(e);
}

unsigned
icache_wb_failures(void)
{
	return __atomic_load_n(&wb_failures, __ATOMIC_SEQ_CST);
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
	struct inode_ent *dead = NULL, *e = lru_tail;

	while (nentries > capacity && e) {
		struct inode_ent *prev = e->lru_prev;

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

	pthread_mutex_lock(&lock);
	e = find_locked(fh);
	if (e) {
		e->refs++;
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&lock);
		close(fd);
		return e;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		pthread_mutex_unlock(&lock);
		close(fd);
		return NULL;
	}
	e->fh = *fh;
	e->fd = fd;
	e->rdfd = -1;
	e->wrfd = -1;
	e->last_used = now_sec();
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
	pthread_mutex_unlock(&lock);
	destroy_list(dead);
	return e;
}

void
icache_put(struct inode_ent *e)
{
	struct inode_ent *dead = NULL;

	if (e == NULL)
		return;
	pthread_mutex_lock(&lock);
	if (--e->refs == 0 && e->detached)
		dead = e;	/* forgotten while in use: the last holder frees it */
	else
		dead = evict_locked();
	pthread_mutex_unlock(&lock);
	if (dead == e)
		ent_destroy(e);
	else
		destroy_list(dead);
}

void
icache_ref(struct inode_ent *e)
{
	pthread_mutex_lock(&lock);
	e->refs++;
	pthread_mutex_unlock(&lock);
}

void
icache_forget(struct inode_ent *e)
{
	/* Unhashed: no new lookup finds it; it goes when the last reference does. */
	pthread_mutex_lock(&lock);
	if (!e->detached) {
		hash_unlink(e);
		lru_unlink(e);
		nentries--;
		e->detached = 1;
	}
	pthread_mutex_unlock(&lock);
}

/* ---- building handles ---- */

static int
statx_at(int dirfd, const char *name, struct statx *stx)
{
	return statx(dirfd, name, AT_SYMLINK_NOFOLLOW | (*name ? 0 : AT_EMPTY_PATH),
	    STATX_BASIC_STATS | STATX_BTIME, stx);
}

static dev_t
statx_dev(const struct statx *stx)
{
	return makedev(stx->stx_dev_major, stx->stx_dev_minor);
}

static void
kernel_handle(int dirfd, const char *name, struct fh *out)
{
	struct {
		struct file_handle h;
		unsigned char bytes[FH_KFH_MAX];
	} kh;
	int mnt_id;

	out->kfh_len = 0;
	kh.h.handle_bytes = FH_KFH_MAX;
	if (name_to_handle_at(dirfd, name, &kh.h, &mnt_id, *name ? 0 : AT_EMPTY_PATH) < 0)
		return;		/* no export support or too large: inode search then */
	if (kh.h.handle_bytes > FH_KFH_MAX || kh.h.handle_type < 0 || kh.h.handle_type > 255)
		return;
	out->kfh_type = (uint8_t)kh.h.handle_type;
	out->kfh_len = (uint8_t)kh.h.handle_bytes;
	memcpy(out->kfh, kh.h.f_handle, kh.h.handle_bytes);
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

static int
known_kernel_handle(struct fh *out)
{
	struct inode_ent *e;
	int found = 0;

	pthread_mutex_lock(&lock);
	e = find_ino_locked(out->export_id, out->ino);
	if (e && e->fh.gen == out->gen) {
		out->kfh_type = e->fh.kfh_type;
		out->kfh_len = e->fh.kfh_len;
		memcpy(out->kfh, e->fh.kfh, e->fh.kfh_len);
		found = 1;
	}
	pthread_mutex_unlock(&lock);
	return found;
}

static void
fh_from_statx(const struct export *exp, int dirfd, const char *name, const struct statx *stx,
    struct fh *out)
{
	memset(out, 0, sizeof(*out));
	out->export_id = exp->id;
	out->ino = stx->stx_ino;
	if (stx->stx_mask & STATX_BTIME)
		out->gen = gen_from_statx_btime(stx->stx_btime.tv_sec, stx->stx_btime.tv_nsec);
	if (!known_kernel_handle(out))
		kernel_handle(dirfd, name, out);
}

static void
stat_from_statx(const struct statx *stx, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_dev = statx_dev(stx);
	st->st_ino = stx->stx_ino;
	st->st_mode = stx->stx_mode;
	st->st_nlink = stx->stx_nlink;
	st->st_uid = stx->stx_uid;
	st->st_gid = stx->stx_gid;
	st->st_rdev = makedev(stx->stx_rdev_major, stx->stx_rdev_minor);
	st->st_size = (off_t)stx->stx_size;
	st->st_blksize = stx->stx_blksize;
	st->st_blocks = (blkcnt_t)stx->stx_blocks;
	st->st_atim.tv_sec = stx->stx_atime.tv_sec;
	st->st_atim.tv_nsec = stx->stx_atime.tv_nsec;
	st->st_mtim.tv_sec = stx->stx_mtime.tv_sec;
	st->st_mtim.tv_nsec = stx->stx_mtime.tv_nsec;
	st->st_ctim.tv_sec = stx->stx_ctime.tv_sec;
	st->st_ctim.tv_nsec = stx->stx_ctime.tv_nsec;
}

int
fh_stat_for_name(const struct export *exp, int dirfd, const char *name, struct stat *st,
    struct fh *out)
{
	struct statx stx;

	if (statx_at(dirfd, name, &stx) < 0)
		return errno;
	stat_from_statx(&stx, st);
	if (st->st_dev != exp->dev)
		return EXDEV;
	fh_from_statx(exp, dirfd, name, &stx, out);
	return 0;
}

/*
 * READDIRPLUS: the attributes and handle of a directory entry whose inode
 * the cache holds (the entry's d_ino), through the cached descriptor: no
 * path walk.  The descriptor is used outside the lock, so it may have been
 * closed and reused meanwhile: the inode and device it answers with must
 * be the ones asked for (a reused number naming the same inode is as
 * good).  ENOENT: not cached, look it up by name.
 */
static int
fh_stat_for_ino(const struct export *exp, uint64_t ino, struct stat *st, struct fh *out)
{
	struct inode_ent *e;
	struct statx stx;
	int fd = -1;

	pthread_mutex_lock(&lock);
	if ((e = find_ino_locked(exp->id, ino)) != NULL) {
		*out = e->fh;
		fd = e->fd;
	}
	pthread_mutex_unlock(&lock);
	if (fd < 0 || statx_at(fd, "", &stx) < 0 || stx.stx_ino != ino ||
	    statx_dev(&stx) != exp->dev)
		return ENOENT;
	if ((stx.stx_mask & STATX_BTIME) &&
	    gen_from_statx_btime(stx.stx_btime.tv_sec, stx.stx_btime.tv_nsec) != out->gen)
		return ENOENT;
	stat_from_statx(&stx, st);
	return 0;
}

int
fh_stat_for_dirent(const struct export *exp, int dirfd, const char *name, uint64_t ino,
    struct stat *st, struct fh *out)
{
	if (ino != 0 && fh_stat_for_ino(exp, ino, st, out) == 0)
		return 0;
	return fh_stat_for_name(exp, dirfd, name, st, out);
}

/* ---- resolving a handle on a miss ---- */

static int
open_by_kernel_handle(const struct export *exp, const struct fh *fh, struct creds_state *cs)
{
	struct {
		struct file_handle h;
		unsigned char bytes[FH_KFH_MAX];
	} kh;
	int fd;

	kh.h.handle_bytes = fh->kfh_len;
	kh.h.handle_type = fh->kfh_type;
	memcpy(kh.h.f_handle, fh->kfh, fh->kfh_len);
	/* Needs CAP_DAC_READ_SEARCH, which a thread acting as a client has dropped. */
	if (creds_root(cs) < 0)
		return -1;
	fd = open_by_handle_at(exp->rootfd, &kh.h, O_PATH | O_CLOEXEC);
	if (fd < 0 && (errno == EPERM || errno == EOPNOTSUPP || errno == ENOSYS))
		handles_need_search = 1;
	return fd;
}

/*
 * openat2() arrived in Linux 5.6, and some sandboxes (seccomp filters,
 * valgrind before 3.20) answer ENOSYS.  Then walk the path one component
 * at a time with O_NOFOLLOW, refusing "..", symlinks and mount crossings,
 * which is what the RESOLVE_ flags would have enforced.
 */
int
openat_beneath_walk(int dirfd, const char *path, int flags)
{
	char comp[NAME_MAX + 1];
	struct stat top, st;
	int cur = dirfd;

	if (fstat(dirfd, &top) < 0)
		return -1;
	for (;;) {
		const char *end;
		size_t len;
		int next, last;

		while (*path == '/')
			path++;
		end = strchr(path, '/');
		len = end ? (size_t)(end - path) : strlen(path);
		last = end == NULL || end[strspn(end, "/")] == '\0';
		if (len == 0 || len > NAME_MAX || (len == 2 && path[0] == '.' && path[1] == '.')) {
			if (cur != dirfd)
				close(cur);
			errno = len > NAME_MAX ? ENAMETOOLONG : (len == 0 ? ENOENT : EXDEV);
			return -1;
		}
		memcpy(comp, path, len);
		comp[len] = '\0';
		next = openat(cur, comp, (last ? flags : O_PATH | O_DIRECTORY) |
		    O_CLOEXEC | O_NOFOLLOW);
		if (cur != dirfd)
			close(cur);
		if (next < 0)
			return -1;
		if (fstat(next, &st) < 0 || st.st_dev != top.st_dev) {
			close(next);
			errno = EXDEV;
			return -1;
		}
		if (last)
			return next;
		cur = next;
		path += len;
	}
}

int
openat_beneath(int dirfd, const char *path, int flags)
{
	static int no_openat2;
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
		    RESOLVE_NO_XDEV,
	};
	int fd;

	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
		if (fd >= 0 || errno != ENOSYS)
			return fd;
		__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
		log_info("openat2 is not available; resolving paths one component at a time");
	}
	return openat_beneath_walk(dirfd, path, flags);
}

/* Does the object 'name' under dirfd carry exactly this handle? */
static int
candidate_matches(const struct export *exp, int dirfd, const char *name, const struct fh *fh)
{
	struct statx stx;
	struct fh cand;

	if (statx_at(dirfd, name, &stx) < 0 || statx_dev(&stx) != exp->dev ||
	    (fh->ino && stx.stx_ino != fh->ino))
		return 0;
	fh_from_statx(exp, dirfd, name, &stx, &cand);
	return fh_matches(fh, &cand);
}

struct pathq {
	char **v;
	size_t head, len, cap;
};

static int
pathq_push(struct pathq *q, char *p)
{
	if (q->len == q->cap) {
		size_t ncap = q->cap ? q->cap * 2 : 64;
		char **n = realloc(q->v, ncap * sizeof(*n));
		if (n == NULL) {
			free(p);
			return -1;
		}
		q->v = n;
		q->cap = ncap;
	}
	q->v[q->len++] = p;
	return 0;
}

/*
 * The way back without open_by_handle_at: walk the export breadth-first
 * looking for the inode, and accept only the object whose handle matches.
 * Slow, but only taken on a cache miss, and correct after any rename.
 */
static int
search_export(const struct export *exp, const struct fh *fh)
{
	struct pathq q = { 0 };
	unsigned visited = 0;
	int found = -1;
	char *rel;

	/* The root itself: a v2 handle may name it by kernel handle alone. */
	if (candidate_matches(exp, exp->rootfd, "", fh))
		return openat(exp->rootfd, ".", O_PATH | O_CLOEXEC);
	if (pathq_push(&q, strdup(".")) < 0)
		return -1;
	while (found < 0 && q.head < q.len && visited < SEARCH_MAX_ENTRIES) {
		int dfd;
		DIR *d;
		struct dirent *de;

		rel = q.v[q.head++];
		dfd = openat_beneath(exp->rootfd, rel, O_RDONLY | O_DIRECTORY);
		d = dfd >= 0 ? fdopendir(dfd) : NULL;
		if (d == NULL) {
			if (dfd >= 0)
				close(dfd);
			free(rel);
			continue;
		}
		while (found < 0 && (de = readdir(d)) != NULL && visited++ < SEARCH_MAX_ENTRIES) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			/* A handle without an inode number (v2) costs a look at every entry. */
			if ((fh->ino == 0 || de->d_ino == fh->ino) &&
			    candidate_matches(exp, dirfd(d), de->d_name, fh)) {
				found = openat(dirfd(d), de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
				break;
			}
			if (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN) {
				char *child;
				if (asprintf(&child, "%s/%s", rel, de->d_name) >= 0)
					pathq_push(&q, child);
			}
		}
		closedir(d);
		free(rel);
	}
	while (q.head < q.len)
		free(q.v[q.head++]);
	free(q.v);
	if (found < 0)
		errno = ESTALE;
	return found;
}

/* Finds the object for a handle not in the cache; fills its full handle. */
static int
resolve_miss(const struct export *exp, const struct fh *fh, struct creds_state *cs,
    struct fh *have)
{
	struct statx stx;
	int fd = -1;

	if (fh->ino != 0 && fh->ino == (uint64_t)exp->ino) {
		fd = openat(exp->rootfd, ".", O_PATH | O_CLOEXEC);
	} else if (fh->kfh_len && !handles_need_search) {
		fd = open_by_kernel_handle(exp, fh, cs);
		/* EBADF: this export's root could only be opened O_PATH; search it. */
		if (fd < 0 && !handles_need_search && errno != EBADF) {
			STAT_INC(ST_IC_MISS_FAILED);
			return -1;	/* ESTALE and friends: the kernel has spoken */
		}
	}
	if (fd >= 0) {
		STAT_INC(ST_IC_MISS_HANDLE);
	} else {
		fd = search_export(exp, fh);
		STAT_INC(fd >= 0 ? ST_IC_MISS_SEARCH : ST_IC_MISS_FAILED);
	}
	if (fd < 0)
		return -1;
	/* Same file system, same inode, same generation: or it is not our object. */
	if (statx_at(fd, "", &stx) < 0 || statx_dev(&stx) != exp->dev) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	fh_from_statx(exp, fd, "", &stx, have);
	if (!fh_matches(fh, have)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

int
icache_get(const struct export *exp, const struct fh *fh, struct creds_state *cs,
    struct inode_ent **out)
{
	struct inode_ent *e;
	struct stat st;
	struct fh have;
	int fd;

	pthread_mutex_lock(&lock);
	e = find_locked(fh);
	if (e) {
		e->refs++;
		e->last_used = now_sec();
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&lock);
		STAT_INC(ST_IC_HITS);
		*out = e;
		return 0;
	}
	pthread_mutex_unlock(&lock);
	STAT_INC(ST_IC_MISSES);
	fd = resolve_miss(exp, fh, cs, &have);
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
icache_enter(const struct export *exp, int dirfd, const char *name, struct inode_ent **out)
{
	struct statx stx, again;
	struct fh fh;
	struct inode_ent *e;
	int fd;

	if (statx_at(dirfd, name, &stx) < 0)
		return errno;
	if (statx_dev(&stx) != exp->dev)
		return EXDEV;	/* a mount point: not served without crossmnt */
	fh_from_statx(exp, dirfd, name, &stx, &fh);
	pthread_mutex_lock(&lock);
	e = find_locked(&fh);
	if (e) {
		e->refs++;
		lru_unlink(e);
		lru_push(e);
		pthread_mutex_unlock(&lock);
		*out = e;
		return 0;
	}
	pthread_mutex_unlock(&lock);
	fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno;
	/* The name may have been replaced between statx and openat. */
	if (statx_at(fd, "", &again) < 0 || again.stx_ino != stx.stx_ino ||
	    statx_dev(&again) != exp->dev) {
		close(fd);
		return ESTALE;
	}
	e = insert(&fh, fd, stx.stx_mode & S_IFMT);
	if (e == NULL)
		return ENOMEM;
	*out = e;
	return 0;
}

void
icache_proc_path(const struct inode_ent *e, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", e->fd);
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

	pthread_mutex_lock(&lock);
	fd = *slot;
	pthread_mutex_unlock(&lock);
	if (fd >= 0) {
		STAT_INC(ST_FD_HITS);
		return fd;
	}
	if ((fd = creds_reopen_as_daemon(cs, e->fd, flags)) < 0)
		return -1;
	STAT_INC(ST_FD_OPENS);
	pthread_mutex_lock(&lock);
	if (*slot < 0) {
		*slot = fd;
	} else {
		close(fd);
		fd = *slot;
	}
	pthread_mutex_unlock(&lock);
	return fd;
}

unsigned
icache_entries(void)
{
	unsigned n;

	pthread_mutex_lock(&lock);
	n = nentries;
	pthread_mutex_unlock(&lock);
	return n;
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

	pthread_mutex_lock(&lock);
	err = e->wb_err;
	e->wb_err = 0;
	pthread_mutex_unlock(&lock);
	return err;
}

void
icache_note_wb_error(struct inode_ent *e, int err)
{
	__atomic_add_fetch(&wb_failures, 1, __ATOMIC_SEQ_CST);
	pthread_mutex_lock(&lock);
	e->wb_err = err;
	pthread_mutex_unlock(&lock);
}

void
icache_mark_dirty(struct inode_ent *e)
{
	pthread_mutex_lock(&lock);
	e->dirty = 1;
	pthread_mutex_unlock(&lock);
}

int
icache_sync(struct inode_ent *e, int datasync)
{
	int fd, rc;

	pthread_mutex_lock(&lock);
	/* A sweep syncing this file right now: its outcome is ours to report. */
	while (e->wb_busy)
		pthread_cond_wait(&wb_done, &lock);
	fd = e->wrfd >= 0 ? e->wrfd : e->rdfd;
	e->dirty = 0;
	rc = e->wb_err;
	e->wb_err = 0;
	pthread_mutex_unlock(&lock);
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

/* Sync and close what an idle entry holds; report a failure on the entry. */
static void
close_idle(struct inode_ent *e, long now)
{
	struct inode_ent tmp = { .rdfd = -1, .wrfd = -1, .fh = e->fh };
	int err;

	pthread_mutex_lock(&lock);
	/* Only when no worker holds it: a worker may be using these descriptors. */
	if (e->refs != 1 || (e->rdfd < 0 && e->wrfd < 0) || now - e->last_used <= DATA_FD_IDLE_SECS) {
		pthread_mutex_unlock(&lock);
		return;
	}
	tmp.rdfd = e->rdfd;
	tmp.wrfd = e->wrfd;
	tmp.dirty = e->dirty;
	e->rdfd = e->wrfd = -1;
	e->dirty = 0;
	e->wb_busy = 1;		/* a COMMIT now waits for this sync */
	pthread_mutex_unlock(&lock);
	err = close_data_fds(&tmp, tmp.dirty);
	pthread_mutex_lock(&lock);
	e->wb_busy = 0;
	if (err)
		e->wb_err = err;
	pthread_cond_broadcast(&wb_done);
	pthread_mutex_unlock(&lock);
}

/*
 * Every entry once per pass, a batch at a time: pinned under the lock,
 * examined without it, so workers never wait on a sweep's fstat or fsync.
 */
void
icache_sweep(void)
{
	static unsigned pass;
	long now = now_sec();

	pass++;
	for (;;) {
		struct inode_ent *batch[256], *e;
		unsigned n = 0;

		pthread_mutex_lock(&lock);
		for (e = lru_tail; e && n < ARRAY_SIZE(batch); e = e->lru_prev) {
			if (e->sweep_pass == pass)
				continue;
			e->sweep_pass = pass;
			e->refs++;
			batch[n++] = e;
		}
		pthread_mutex_unlock(&lock);
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
