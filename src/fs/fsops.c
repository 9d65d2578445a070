/*
 * Protocol-neutral file-system operations on resolved objects, the reading
 * half (fsops_write.c has the modifying one): handle resolution and the
 * access gate's users, attributes, LOOKUP, READ, READDIR with its parked
 * cursors, pathconf and statfs, what a protocol may know of an object
 * (fs_handle, fs_fsid), and MOUNT's path resolution.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "beneath.h"
#include "fh_build.h"
#include "fsops.h"
#include "icache.h"
#include "log.h"
#include "stats.h"

#define MAX_WALK_UP 4096

int
fs_readonly(const struct fs_ctx *ctx)
{
	return (ctx->flags & FS_CTX_RO) != 0;
}

/* ---- what a protocol may know of a resolved object ---- */

int
fs_resolved(const struct fs_ctx *ctx)
{
	return ctx->ent != NULL;
}

const struct fh *
fs_handle(const struct fs_ctx *ctx)
{
	return &ctx->ent->fh;
}

uint32_t
fs_fsid(const struct fs_ctx *ctx)
{
	/* The export id, not st_dev: it must not change across reboots. */
	return ctx->root->id;
}

int
fs_is_dir(const struct fs_ctx *ctx)
{
	return ctx->ent->type == S_IFDIR;
}

/* The limits of the file system fd is on; -1 for each that has none. */
static void
pathconf_of(int fd, struct fs_pathconf *pc)
{
	pc->link_max = fpathconf(fd, _PC_LINK_MAX);
	pc->max_canon = fpathconf(fd, _PC_MAX_CANON);
	pc->max_input = fpathconf(fd, _PC_MAX_INPUT);
	pc->name_max = fpathconf(fd, _PC_NAME_MAX);
	pc->path_max = fpathconf(fd, _PC_PATH_MAX);
	pc->pipe_buf = fpathconf(fd, _PC_PIPE_BUF);
}

void
fs_pathconf(const struct fs_ctx *ctx, struct fs_pathconf *pc)
{
	pathconf_of(ctx->ent->fd, pc);
}

/* ---- attributes ---- */

static int
stat_live(struct fs_ctx *ctx, struct inode_ent *e, struct stat *st)
{
	if (fstat(e->fd, st) < 0)
		return errno;
	if (st->st_nlink == 0) {
		/* Deleted (perhaps on the server itself): the handle is stale now. */
		icache_forget(e);
		return ESTALE;
	}
	(void)ctx;
	return 0;
}

int
fs_getattr(struct fs_ctx *ctx, struct stat *st)
{
	return stat_live(ctx, ctx->ent, st);
}

/* ---- names ---- */

static int
check_name(const char *name)
{
	if (name[0] == '\0')
		return ENOENT;
	if (strchr(name, '/'))
		return EACCES;	/* a name, never a path */
	return 0;
}

static int
is_export_root(const struct fs_ctx *ctx, const struct inode_ent *e)
{
	return e->fh.ino == (uint64_t)ctx->root->ino;
}

/* Walks up from dirfd: is it still below the export root? */
static int
within_export(const struct fs_ctx *ctx, int dirfd)
{
	int fd = openat(dirfd, ".", O_PATH | O_CLOEXEC), inside = 0;

	for (int i = 0; fd >= 0 && i < MAX_WALK_UP; i++) {
		struct stat st, up;
		int parent;

		if (fstat(fd, &st) < 0)
			break;
		if (st.st_dev == ctx->root->dev && st.st_ino == ctx->root->ino) {
			inside = 1;
			break;
		}
		parent = openat(fd, "..", O_PATH | O_CLOEXEC);
		if (parent < 0 || fstat(parent, &up) < 0 ||
		    (up.st_dev == st.st_dev && up.st_ino == st.st_ino)) {
			if (parent >= 0)
				close(parent);
			break;	/* reached / without passing the export root */
		}
		close(fd);
		fd = parent;
	}
	if (fd >= 0)
		close(fd);
	return inside;
}

/*
 * LOOKUP reached the root of another file system: enter it as the export
 * the gate says serves it (crossmnt, nohide), or refuse.
 */
static int
lookup_across(struct fs_ctx *dir, const char *name, struct fs_ctx *child, struct inode_ent **e)
{
	struct stat st;
	int err;

	if (dir->cross == NULL)
		return EACCES;
	if (fstatat(dir->ent->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno;
	if ((err = dir->cross->down(dir, st.st_dev, st.st_ino, child)) != 0)
		return err;
	return icache_enter(child->root, dir->ent->fd, name, e, NULL);
}

/*
 * ".." at the root: the root itself, or, at the root of a crossed
 * submount, the directory it is mounted on in the export it was entered from.
 */
static int
lookup_up_from_root(struct fs_ctx *dir, struct fs_ctx *child, struct inode_ent **e)
{
	int err = dir->cross ? dir->cross->up(dir, child) : ENOENT;

	if (err == ENOENT) {
		icache_ref(dir->ent);
		*e = dir->ent;
		return 0;
	}
	if (err)
		return err;
	return icache_enter(child->root, dir->ent->fd, "..", e, NULL);
}

int
fs_lookup(struct fs_ctx *dir, const char *name, struct fs_ctx *child, struct stat *st)
{
	struct inode_ent *e = NULL;
	int dotdot = strcmp(name, "..") == 0, have_st = 0, err;

	*child = *dir;
	child->ent = NULL;
	child->wcc = NULL;
	if (dir->ent->type != S_IFDIR)
		return ENOTDIR;
	if ((err = check_name(name)) != 0)
		return err;
	if (dotdot && is_export_root(dir, dir->ent)) {
		/* Never above the export root. */
		if ((err = lookup_up_from_root(dir, child, &e)) != 0)
			return err;
	} else if (strcmp(name, ".") == 0) {
		icache_ref(dir->ent);
		e = dir->ent;
	} else {
		err = icache_enter(dir->root, dir->ent->fd, name, &e, st);
		have_st = err == 0;
		if (err == EXDEV && !dotdot)
			err = lookup_across(dir, name, child, &e);
		else if (err == EXDEV)
			err = EACCES;
		if (err)
			return err;
		if (dotdot && !within_export(child, e->fd)) {
			icache_put(e);
			return EACCES;
		}
	}
	child->ent = e;
	err = have_st ? 0 : stat_live(child, e, st);
	if (err) {
		icache_put(e);
		child->ent = NULL;
	}
	return err;
}

int
fs_dirent_info(struct fs_ctx *dir, const char *name, uint64_t ino, struct stat *st, struct fh *fh)
{
	if (strcmp(name, ".") == 0 || (strcmp(name, "..") == 0 && is_export_root(dir, dir->ent))) {
		*fh = dir->ent->fh;
		return fstat(dir->ent->fd, st) < 0 ? errno : 0;
	}
	if (strcmp(name, "..") == 0)
		return EACCES;	/* let the client LOOKUP it: that path checks the boundary */
	return fh_stat_for_dirent(dir->root, dir->ent->fd, name, ino, st, fh);
}

int
fs_readlink(struct fs_ctx *ctx, char *buf, size_t len, size_t *outlen)
{
	ssize_t n;

	if (ctx->ent->type != S_IFLNK)
		return EINVAL;
	n = readlinkat(ctx->ent->fd, "", buf, len);
	if (n < 0)
		return errno;
	if ((size_t)n >= len)
		return ENAMETOOLONG;
	buf[n] = '\0';
	*outlen = (size_t)n;
	return 0;
}

/* ---- data ---- */

int
fs_may(struct fs_ctx *ctx, int mode)
{
	return syscall(SYS_faccessat2, ctx->ent->fd, "", mode, AT_EMPTY_PATH | AT_EACCESS) == 0;
}

/*
 * READ without a copy (see rpc/readpipe.c): the file's pages go into the
 * reply's pipe, and the reply's data is what is in it.  Returns 0 or an
 * errno with *got set, or -1 when the data must be read into the buffer
 * (no pipe for this reply, or a file system that cannot splice).
 */
static int
read_spliced(int fd, int pipe, uint64_t off, size_t count, size_t *got)
{
	loff_t at = (loff_t)off;

	if (pipe < 0)
		return -1;
	*got = 0;
	while (*got < count) {
		ssize_t r = splice(fd, &at, pipe, NULL, count - *got, SPLICE_F_NONBLOCK);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && *got == 0)	/* EINVAL: no splice here; EAGAIN: pipe full */
			return errno == EINVAL || errno == EAGAIN ? -1 : errno;
		if (r <= 0)
			break;		/* EOF, or the pipe is full: a short read is an answer */
		*got += (size_t)r;
	}
	return 0;
}

int
fs_read(struct fs_ctx *ctx, uint64_t off, size_t count, struct fs_readbuf *rb, size_t *n,
    int *eof, struct stat *st)
{
	char *buf = rb->buf;
	size_t got = 0;
	int fd, err;

	if (ctx->ent->type == S_IFDIR)
		return EISDIR;
	if (ctx->ent->type != S_IFREG)
		return EINVAL;
	if ((err = stat_live(ctx, ctx->ent, st)) != 0)
		return err;
	/* The owner may read what it wrote even after a chmod, as with knfsd. */
	if (st->st_uid != ctx->cred.uid && !fs_may(ctx, R_OK))
		return EACCES;
	if ((fd = icache_read_fd(ctx->ent, ctx->creds)) < 0)
		return errno;
	if (off > (uint64_t)INT64_MAX)
		return EINVAL;
	rb->spliced = 0;
	if ((err = read_spliced(fd, rb->pipe, off, count, &got)) >= 0) {
		rb->spliced = 1;
		STAT_ADD(ST_READ_BYTES, got);
		*n = got;
		*eof = off + got >= (uint64_t)st->st_size;
		return err;
	}
	while (got < count) {
		ssize_t r = pread(fd, buf + got, count - got, (off_t)(off + got));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	STAT_ADD(ST_READ_BYTES, got);
	*n = got;
	*eof = off + got >= (uint64_t)st->st_size;
	return 0;
}

/*
 * Read and write asked together and both allowed (the usual answer) cost
 * one check.  A file that is not a directory and has no execute bit at
 * all cannot be executed by anyone, root included, whatever its ACL (the
 * ACL's mask is the group bits): no check.  A directory with none may
 * still be searched by root, so it is asked.
 */
int
fs_access(struct fs_ctx *ctx, unsigned want, unsigned *granted, struct stat *st)
{
	int err = stat_live(ctx, ctx->ent, st);

	*granted = 0;
	if (err)
		return err;
	if (fs_readonly(ctx))
		want &= ~ACC_WRITE;
	if ((want & (ACC_READ | ACC_WRITE)) == (ACC_READ | ACC_WRITE) && fs_may(ctx, R_OK | W_OK)) {
		*granted |= ACC_READ | ACC_WRITE;
	} else {
		if ((want & ACC_READ) && fs_may(ctx, R_OK))
			*granted |= ACC_READ;
		if ((want & ACC_WRITE) && fs_may(ctx, W_OK))
			*granted |= ACC_WRITE;
	}
	if ((want & ACC_EXEC) && (S_ISDIR(st->st_mode) || (st->st_mode & 0111)) && fs_may(ctx, X_OK))
		*granted |= ACC_EXEC;
	return 0;
}

int
fs_lock_access(struct fs_ctx *ctx, int take)
{
	struct stat st;
	/* A cached handle of a file removed since: stale, as GETATTR says. */
	int err = fs_getattr(ctx, &st);

	if (err == 0 && take && st.st_uid != ctx->cred.uid && !fs_may(ctx, R_OK))
		err = EACCES;
	return err;
}

int
fs_statfs(struct fs_ctx *ctx, struct statvfs *sv)
{
	return fstatvfs(ctx->ent->fd, sv) < 0 ? errno : 0;
}

/* ---- directories ---- */

/*
 * READDIR continues where the last call stopped. Seeking a directory to a
 * cookie can cost a scan from the start on some file systems, so the open
 * directory and its unread buffer are parked, keyed by the cookie handed
 * out, for the next call to pick up: listing a directory stays linear.
 */
#define NCURSORS 64
#define CURSOR_IDLE_SECS 30
#define DIRBUF_LEN 32768

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

struct dircursor {
	uint32_t export_id;
	uint64_t ino;
	uint64_t cookie;	/* the position it is parked at */
	int fd;
	size_t pos, len;
	time_t used;
	char buf[DIRBUF_LEN];
};

static pthread_mutex_t cursor_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dircursor *cursors[NCURSORS];

static struct dircursor *
cursor_take(uint32_t export_id, uint64_t ino, uint64_t cookie)
{
	struct dircursor *c = NULL;

	pthread_mutex_lock(&cursor_lock);
	for (int i = 0; i < NCURSORS; i++) {
		struct dircursor *k = cursors[i];
		if (k && k->export_id == export_id && k->ino == ino && k->cookie == cookie) {
			c = k;
			cursors[i] = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&cursor_lock);
	return c;
}

static void
cursor_free(struct dircursor *c)
{
	if (c) {
		close(c->fd);
		free(c);
	}
}

static void
cursor_park(struct dircursor *c)
{
	struct dircursor *victim = NULL;
	int slot = -1;

	c->used = time(NULL);
	pthread_mutex_lock(&cursor_lock);
	for (int i = 0; i < NCURSORS; i++) {
		if (cursors[i] == NULL) {
			slot = i;
			break;
		}
		if (slot < 0 || cursors[i]->used < cursors[slot]->used)
			slot = i;
	}
	victim = cursors[slot];
	cursors[slot] = c;
	pthread_mutex_unlock(&cursor_lock);
	cursor_free(victim);
}

static void
cursor_expire(void)
{
	time_t now = time(NULL);
	struct dircursor *dead[NCURSORS];
	int n = 0;

	pthread_mutex_lock(&cursor_lock);
	for (int i = 0; i < NCURSORS; i++)
		if (cursors[i] && now - cursors[i]->used > CURSOR_IDLE_SECS) {
			dead[n++] = cursors[i];
			cursors[i] = NULL;
		}
	pthread_mutex_unlock(&cursor_lock);
	while (n > 0)
		cursor_free(dead[--n]);
}

static int
cursor_open(struct fs_ctx *dir, uint64_t cookie, struct dircursor **out)
{
	/* Not calloc: zeroing the 32 KiB buffer cost more than reading it. */
	struct dircursor *c = malloc(sizeof(*c));

	if (c == NULL)
		return ENOMEM;
	memset(c, 0, offsetof(struct dircursor, buf));
	c->fd = openat(dir->ent->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->fd < 0) {
		int err = errno;
		free(c);
		return err;
	}
	if (cookie != 0 && lseek(c->fd, (off_t)cookie, SEEK_SET) < 0) {
		cursor_free(c);
		return EBADCOOKIE;	/* a cookie this directory never gave out */
	}
	c->export_id = dir->ent->fh.export_id;
	c->ino = dir->ent->fh.ino;
	c->cookie = cookie;
	*out = c;
	return 0;
}

int
fs_readdir(struct fs_ctx *dir, uint64_t cookie, fs_dirent_fn fn, void *arg, int *eof)
{
	struct dircursor *c;
	int err, root = is_export_root(dir, dir->ent);

	*eof = 0;
	if (dir->ent->type != S_IFDIR)
		return ENOTDIR;
	c = cursor_take(dir->ent->fh.export_id, dir->ent->fh.ino, cookie);
	if (c && !fs_may(dir, R_OK | X_OK)) {
		/* Parked by another user: this one must be allowed to read too. */
		cursor_free(c);
		return EACCES;
	}
	if (c == NULL && (err = cursor_open(dir, cookie, &c)) != 0)
		return err;
	for (;;) {
		struct linux_dirent64 *d;
		struct fs_dirent de;

		if (c->pos >= c->len) {
			long n = syscall(SYS_getdents64, c->fd, c->buf, sizeof(c->buf));
			if (n < 0) {
				err = errno;
				cursor_free(c);
				return err;
			}
			if (n == 0) {
				*eof = 1;
				cursor_free(c);
				return 0;
			}
			c->pos = 0;
			c->len = (size_t)n;
		}
		d = (struct linux_dirent64 *)(c->buf + c->pos);
		de.name = d->d_name;
		de.namelen = strlen(d->d_name);
		de.ino = d->d_ino;
		de.cookie = (uint64_t)d->d_off;
		if (root && strcmp(d->d_name, "..") == 0)
			de.ino = dir->root->ino;	/* nothing above the export shows */
		if (fn(arg, &de) != 0)
			break;
		c->pos += d->d_reclen;
		c->cookie = de.cookie;
	}
	cursor_park(c);
	return 0;
}

/* ---- MOUNT's paths ---- */

int
fs_root_lookup_path(const struct fs_root *root, const char *rest, struct fh *fh)
{
	struct stat st;
	int fd, err;

	if (*rest == '\0')
		fd = openat(root->rootfd, ".", O_PATH | O_CLOEXEC);
	else
		fd = openat_beneath(root->rootfd, rest, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return errno == ELOOP ? EACCES : errno;
	err = fh_stat_for_name(root, fd, "", &st, fh);
	close(fd);
	return err;
}

void
fs_root_pathconf(const struct fs_root *root, struct fs_pathconf *pc)
{
	pathconf_of(root->rootfd, pc);
}

void
fs_tick(void)
{
	cursor_expire();	/* the inode cache has its own sweeper thread */
}
