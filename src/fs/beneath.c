/*
 * Confined resolution: opening a path that must stay beneath a directory
 * (openat2 RESOLVE_BENEATH, or a component-by-component walk where it is
 * missing), and finding the object a handle names when the inode cache
 * does not hold it: open_by_handle_at where privileged, else a search of
 * the export for the inode.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "beneath.h"
#include "creds.h"
#include "fsroot.h"
#include "fh_build.h"
#include "log.h"
#include "stats.h"

#define SEARCH_MAX_ENTRIES 10000000u

/* Set once open_by_handle_at says we lack the privilege: stop asking. */
static int handles_need_search;

static int
open_by_kernel_handle(const struct fs_root *root, const struct fh *fh)
{
	struct {
		struct file_handle h;
		unsigned char bytes[FH_KFH_MAX];
	} kh;
	int fd;

	kh.h.handle_bytes = fh->kfh_len;
	kh.h.handle_type = fh->kfh_type;
	memcpy(kh.h.f_handle, fh->kfh, fh->kfh_len);
	/* Needs CAP_DAC_READ_SEARCH: the caller is back to the daemon's identity. */
	fd = open_by_handle_at(root->rootfd, &kh.h, O_PATH | O_CLOEXEC);
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
candidate_matches(const struct fs_root *root, int dirfd, const char *name, const struct fh *fh)
{
	struct statx stx;
	struct fh cand;

	if (statx_at(dirfd, name, &stx) < 0 || statx_dev(&stx) != root->dev ||
	    (fh->ino && stx.stx_ino != fh->ino))
		return 0;
	fh_from_statx(root, dirfd, name, &stx, &cand);
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
search_export(const struct fs_root *root, const struct fh *fh)
{
	struct pathq q = { 0 };
	unsigned visited = 0;
	int found = -1;
	char *rel;

	/* The root itself: a v2 handle may name it by kernel handle alone. */
	if (candidate_matches(root, root->rootfd, "", fh))
		return openat(root->rootfd, ".", O_PATH | O_CLOEXEC);
	if (pathq_push(&q, strdup(".")) < 0)
		return -1;
	while (found < 0 && q.head < q.len && visited < SEARCH_MAX_ENTRIES) {
		int dfd;
		DIR *d;
		struct dirent *de;

		rel = q.v[q.head++];
		dfd = openat_beneath(root->rootfd, rel, O_RDONLY | O_DIRECTORY);
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
			    candidate_matches(root, dirfd(d), de->d_name, fh)) {
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

int
beneath_resolve_handle(const struct fs_root *root, const struct fh *fh, struct creds_state *cs,
    struct fh *have)
{
	struct statx stx;
	int fd = -1;

	/*
	 * What a handle names does not depend on who asks: resolve it as the
	 * daemon. The search below ran with the identity of whatever call this
	 * worker served last, so one handle could be found on one worker and
	 * be ESTALE on another (a directory that user could not read).
	 */
	if (creds_root(cs) < 0)
		return -1;
	if (fh->ino != 0 && fh->ino == (uint64_t)root->ino) {
		fd = openat(root->rootfd, ".", O_PATH | O_CLOEXEC);
	} else if (fh->kfh_len && !handles_need_search) {
		fd = open_by_kernel_handle(root, fh);
		/* EBADF: this export's root could only be opened O_PATH; search it. */
		if (fd < 0 && !handles_need_search && errno != EBADF) {
			STAT_INC(ST_IC_MISS_FAILED);
			return -1;	/* ESTALE and friends: the kernel has spoken */
		}
	}
	if (fd >= 0) {
		STAT_INC(ST_IC_MISS_HANDLE);
	} else {
		fd = search_export(root, fh);
		STAT_INC(fd >= 0 ? ST_IC_MISS_SEARCH : ST_IC_MISS_FAILED);
	}
	if (fd < 0)
		return -1;
	/* Same file system, same inode, same generation: or it is not our object. */
	if (statx_at(fd, "", &stx) < 0 || statx_dev(&stx) != root->dev) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	fh_from_statx(root, fd, "", &stx, have);
	if (!fh_matches(fh, have)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}
