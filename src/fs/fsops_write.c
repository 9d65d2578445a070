/*
 * Modifying file-system operations, shared by every protocol version.
 * All work on descriptors: the directory's O_PATH descriptor plus a
 * single name component, never a path the client could steer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "be.h"
#include "dirlock.h"
#include "durable.h"
#include "fsops.h"
#include "icache.h"
#include "log.h"
#include "stats.h"

static uint8_t boot_verf[FS_VERF_LEN];

void
fs_write_verifier_init(void)
{
	struct timespec ts;
	uint64_t v;

	/* Differs on every start, so clients resend what was never committed. */
	clock_gettime(CLOCK_REALTIME, &ts);
	v = (uint64_t)ts.tv_sec << 32 ^ (uint64_t)ts.tv_nsec ^ (uint64_t)getpid() << 16;
	for (int i = 0; i < FS_VERF_LEN; i++)
		boot_verf[i] = (uint8_t)(v >> (8 * i));
}

void
fs_write_verifier(uint8_t out[FS_VERF_LEN])
{
	unsigned failures = icache_wb_failures();

	memcpy(out, boot_verf, FS_VERF_LEN);
	/* A failed write-back changes it too: clients then resend their data. */
	out[0] ^= (uint8_t)failures;
	out[1] ^= (uint8_t)(failures >> 8);
	out[2] ^= (uint8_t)(failures >> 16);
	out[3] ^= (uint8_t)(failures >> 24);
}

int
fs_check_new_name(const char *name)
{
	if (name[0] == '\0')
		return ENOENT;
	if (strchr(name, '/'))
		return EACCES;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return EEXIST;
	return 0;
}

static int
begin_modify(struct fs_ctx *ctx)
{
	if (fs_readonly(ctx))
		return EROFS;
	return 0;
}

/*
 * On a sync export the change is on stable storage before the call
 * returns (durable.h): the object that changed, then the directory whose
 * entries did, as knfsd's commit_metadata does.  Either may be NULL.
 */
static int
make_durable(struct fs_ctx *ctx, struct inode_ent *obj, struct inode_ent *dir)
{
	int err = 0;

	if (!durable_wanted(ctx))
		return 0;
	if (obj && (err = durable_sync(ctx, obj)) != 0)
		return err;
	if (dir && dir != obj)
		err = durable_sync(ctx, dir);
	return err;
}

/*
 * A change to the entries of dir (and of to, a RENAME's other directory,
 * or NULL) is made between change_begin and change_end: under the
 * directories' stripe locks, with their attributes read just before and
 * just after into what the callers asked for (fs_ctx.wcc; dirlock.h).
 * Nothing slow lies between: the sync for a `sync` export comes after.
 */
static void
wcc_read(struct fs_ctx *d, int after)
{
	struct fs_wcc *w = d ? d->wcc : NULL;

	if (w == NULL)
		return;
	if (!after) {
		w->valid = fstat(d->ent->fd, &w->before) == 0;
		w->atomic = dirlock_atomic();
	} else if (w->valid) {
		w->valid = fstat(d->ent->fd, &w->after) == 0;
	}
}

static void
change_begin(struct fs_ctx *dir, struct fs_ctx *to)
{
	dirlock_take(dir->ent, to ? to->ent : NULL);
	wcc_read(dir, 0);
	wcc_read(to, 0);
}

/* The end of the change that was the system call's result rc: its errno, or 0. */
static int
change_done(struct fs_ctx *dir, struct fs_ctx *to, int rc)
{
	int err = rc < 0 ? errno : 0;

	wcc_read(dir, 1);
	wcc_read(to, 1);
	dirlock_drop(dir->ent, to ? to->ent : NULL);
	return err;
}

static int
begin_dir_modify(struct fs_ctx *dir, const char *name)
{
	int err = begin_modify(dir);

	if (err)
		return err;
	if (dir->ent->type != S_IFDIR)
		return ENOTDIR;
	return fs_check_new_name(name);
}

/* ---- delegations in the way of a change (fs_set_change_hook) ---- */

static fs_change_hook change_hook;

void
fs_set_change_hook(fs_change_hook fn)
{
	change_hook = fn;
}

/* The object's own attributes (SETATTR, LINK): may they change now? */
static int
may_change(struct fs_ctx *ctx)
{
	const struct fh *h = &ctx->ent->fh;

	return change_hook ? change_hook(ctx, h->export_id, h->ino) : 0;
}

/* The object name names in dir (REMOVE, RENAME): may it go, or be replaced? */
static int
may_change_name(struct fs_ctx *dir, const char *name)
{
	struct stat st;

	if (change_hook == NULL || fstatat(dir->ent->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISREG(st.st_mode))
		return 0;	/* nothing there (the change itself says so), or not a file */
	return change_hook(dir, dir->ent->fh.export_id, (uint64_t)st.st_ino);
}

/* ---- attributes ---- */

static int
same_time(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

static int
set_size(struct fs_ctx *ctx, uint64_t size)
{
	char path[64];

	if (ctx->ent->type == S_IFDIR)
		return EISDIR;
	if (ctx->ent->type != S_IFREG)
		return EINVAL;
	if (size > (uint64_t)INT64_MAX)
		return EFBIG;
	/*
	 * Our writable descriptor first, opened without blocking: a file a
	 * client holds a read delegation on (a kernel lease, lease.h) says
	 * EAGAIN now, where truncate would wait out the kernel's lease-break
	 * time on this worker; and while we hold it open no lease is taken.
	 */
	if (icache_write_fd(ctx->ent, ctx->creds) < 0)
		return errno;
	icache_proc_path(ctx->ent, path, sizeof(path));
	/* Through the path so the kernel checks the caller's write permission. */
	return truncate(path, (off_t)size) < 0 ? errno : 0;
}

static int
set_owner(struct fs_ctx *ctx, const struct fs_sattr *sa)
{
	uid_t uid = sa->set & FS_SET_UID ? sa->uid : (uid_t)-1;
	gid_t gid = sa->set & FS_SET_GID ? sa->gid : (gid_t)-1;

	if (fchownat(ctx->ent->fd, "", uid, gid, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0)
		return errno;
	return 0;
}

static int
set_mode(struct fs_ctx *ctx, mode_t mode)
{
	char path[64];

	if (ctx->ent->type == S_IFLNK)
		return 0;	/* Linux symlinks have no mode of their own */
	icache_proc_path(ctx->ent, path, sizeof(path));
	return chmod(path, mode & 07777) < 0 ? errno : 0;
}

static int
set_times(struct fs_ctx *ctx, const struct fs_sattr *sa)
{
	struct timespec ts[2] = {
		{ .tv_nsec = UTIME_OMIT }, { .tv_nsec = UTIME_OMIT },
	};

	if (sa->set & FS_SET_ATIME)
		ts[0] = sa->atime;
	if (sa->set & FS_SET_MTIME)
		ts[1] = sa->mtime;
	return utimensat(ctx->ent->fd, "", ts, AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW) < 0 ? errno : 0;
}

static int
apply_sattr(struct fs_ctx *ctx, const struct fs_sattr *sa)
{
	int err = 0;

	/* Size first, ownership before mode (chown clears set-id bits), times last. */
	if ((sa->set & FS_SET_SIZE) && (err = set_size(ctx, sa->size)) != 0)
		return err;
	if ((sa->set & (FS_SET_UID | FS_SET_GID)) && (err = set_owner(ctx, sa)) != 0)
		return err;
	if ((sa->set & FS_SET_MODE) && (err = set_mode(ctx, sa->mode)) != 0)
		return err;
	if ((sa->set & (FS_SET_ATIME | FS_SET_MTIME)) && (err = set_times(ctx, sa)) != 0)
		return err;
	return 0;
}

int
fs_setattr(struct fs_ctx *ctx, const struct stat *before, const struct fs_sattr *sa,
    const struct timespec *guard_ctime)
{
	int err = begin_modify(ctx);

	if (err)
		return err;
	if (guard_ctime && !same_time(guard_ctime, &before->st_ctim))
		return ENOTSYNC;
	if ((err = may_change(ctx)) != 0)
		return err;
	if ((err = apply_sattr(ctx, sa)) != 0)
		return err;
	return make_durable(ctx, ctx->ent, NULL);
}

/* ---- data ---- */

/*
 * An UNSTABLE WRITE at least this large starts the write-out of its own
 * range at once (sync_file_range, no waiting): a stream of them keeps the
 * disk busy while the next ones cross the network, so that its COMMIT
 * finds most pages already written instead of all of them dirty (the
 * kernel itself would start only at dirty_background_ratio, gigabytes
 * on a large machine).  Smaller writes are left to the page cache, where
 * neighbours merge before they go out.
 */
#define WRITE_BEHIND_MIN (256u << 10)

/* Writes len bytes at off, looping over short writes; 0, or errno if not even the first byte went. */
static int
write_all(int fd, const void *data, size_t len, uint64_t off, size_t *done)
{
	*done = 0;
	while (*done < len) {
		ssize_t n = pwrite(fd, (const char *)data + *done, len - *done, (off_t)(off + *done));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return *done > 0 ? 0 : errno;	/* report what made it; the client retries the rest */
		}
		*done += (size_t)n;
	}
	return 0;
}

int
fs_write(struct fs_ctx *ctx, const struct stat *before, uint64_t off, const void *data,
    size_t len, enum fs_stable stable, size_t *written, enum fs_stable *committed)
{
	size_t done = 0;
	int fd, err = begin_modify(ctx);

	*written = 0;
	if (err)
		return err;
	if (ctx->ent->type == S_IFDIR)
		return EISDIR;
	if (ctx->ent->type != S_IFREG)
		return EINVAL;
	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
		return EFBIG;
	/* The owner may write what it created even after a chmod, as with knfsd. */
	if (before->st_uid != ctx->cred.uid && !fs_may(ctx, W_OK))
		return EACCES;
	if ((err = icache_take_error(ctx->ent)) != 0)
		return err;	/* earlier unstable data was lost: say so now */
	if ((fd = icache_write_fd(ctx->ent, ctx->creds)) < 0)
		return errno;
	if ((err = write_all(fd, data, len, off, &done)) != 0)
		return err;
	STAT_ADD(ST_WRITE_BYTES, done);
	if (!durable_wanted(ctx)) {
		/* async: acknowledged as stable without waiting, as exports(5) warns. */
		icache_mark_dirty(ctx->ent);
		*written = done;
		*committed = FS_FILE_SYNC;
		return 0;
	}
	if (stable == FS_UNSTABLE) {
		icache_mark_dirty(ctx->ent);
		if (done >= WRITE_BEHIND_MIN)	/* errors wait for COMMIT's fsync */
			(void)sync_file_range(fd, (off_t)off, (off_t)done, SYNC_FILE_RANGE_WRITE);
		*written = done;
		*committed = FS_UNSTABLE;
		return 0;
	}
	/*
	 * FILE_SYNC and DATA_SYNC alike: an fsync of the file, shared with
	 * the other stable WRITEs in flight on it (durable_sync).  While one
	 * runs, the WRITEs that arrive meanwhile wait and then go out with a
	 * single fsync after it, a journal commit for all of them: some 12%
	 * fewer commits than nfs-ganesha's fsync per WRITE on the bench's
	 * stream (DESIGN.md, issue 26 part 3).  A failed sync is an error:
	 * the client must not think the data durable.
	 */
	if ((err = durable_sync(ctx, ctx->ent)) != 0)
		return err;
	*written = done;
	*committed = stable;
	return 0;
}

int
fs_commit(struct fs_ctx *ctx)
{
	if (ctx->ent->type != S_IFREG)
		return ctx->ent->type == S_IFDIR ? EISDIR : EINVAL;
	/*
	 * async: every WRITE was already acknowledged as FILE_SYNC, so there
	 * is nothing a COMMIT could promise more (knfsd skips it too); the
	 * data is written back with the file's idle descriptor.
	 */
	if (!durable_wanted(ctx))
		return 0;
	return icache_sync(ctx->ent, 1);
}

/* ---- creating ---- */

static int
enter_child(struct fs_ctx *dir, const char *name, struct fs_ctx *child, struct stat *st)
{
	struct inode_ent *e;
	int err = icache_enter(dir->root, dir->ent->fd, name, &e, st);

	*child = *dir;
	child->ent = NULL;
	child->wcc = NULL;
	if (err)
		return err;
	child->ent = e;
	return 0;
}

/* Attributes the create call did not already apply (mode is given at creation). */
static int
finish_create(struct fs_ctx *child, const struct fs_sattr *sa, struct stat *st)
{
	struct fs_sattr rest = *sa;
	int err;

	rest.set &= ~FS_SET_MODE;
	if (rest.set == 0)
		return 0;
	if ((err = apply_sattr(child, &rest)) != 0)
		return err;
	return fs_getattr(child, st);
}

static mode_t
create_mode(const struct fs_sattr *sa, mode_t dflt)
{
	return sa && (sa->set & FS_SET_MODE) ? (sa->mode & 07777) : dflt;
}

/* EXCLUSIVE create keeps the client's verifier in atime/mtime, like knfsd. */
static void
verf_times(const uint8_t verf[FS_VERF_LEN], struct timespec ts[2])
{
	ts[0].tv_sec = (time_t)be32_get(verf);
	ts[1].tv_sec = (time_t)be32_get(verf + 4);
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
}

static int
create_exclusive(struct fs_ctx *dir, const char *name, const uint8_t verf[FS_VERF_LEN],
    struct fs_ctx *child, struct stat *st)
{
	struct timespec ts[2];
	int err;

	verf_times(verf, ts);
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, mknodat(dir->ent->fd, name, S_IFREG | 0600, 0))) != 0) {
		if (err != EEXIST)
			return err;
		/* A retransmission finds its own verifier and succeeds again. */
		if ((err = enter_child(dir, name, child, st)) != 0)
			return err;
		if (S_ISREG(st->st_mode) && st->st_atim.tv_sec == ts[0].tv_sec &&
		    st->st_mtim.tv_sec == ts[1].tv_sec)
			return 0;
		icache_put(child->ent);
		child->ent = NULL;
		return EEXIST;
	}
	if ((err = enter_child(dir, name, child, st)) != 0)
		return err;
	if (utimensat(child->ent->fd, "", ts, AT_EMPTY_PATH) < 0)
		return errno;
	return fs_getattr(child, st);
}

static int
create_object(struct fs_ctx *dir, const char *name, enum fs_createmode how,
    const struct fs_sattr *sa, const uint8_t verf[FS_VERF_LEN], struct fs_ctx *child,
    struct stat *st)
{
	int err = begin_dir_modify(dir, name);

	*child = *dir;
	child->ent = NULL;
	if (err)
		return err;
	if (how == FS_CREATE_EXCLUSIVE)
		return create_exclusive(dir, name, verf, child, st);
	change_begin(dir, NULL);
	err = change_done(dir, NULL, mknodat(dir->ent->fd, name, S_IFREG | create_mode(sa, 0666), 0));
	if (err) {
		if (err != EEXIST || how == FS_CREATE_GUARDED)
			return err;
		/* UNCHECKED on an existing file: it is reused, as the RFC allows. */
		if ((err = enter_child(dir, name, child, st)) != 0)
			return err;
		if (!S_ISREG(st->st_mode))
			return EEXIST;
		return finish_create(child, sa, st);
	}
	if ((err = enter_child(dir, name, child, st)) != 0)
		return err;
	return finish_create(child, sa, st);
}

static int
mkdir_object(struct fs_ctx *dir, const char *name, const struct fs_sattr *sa,
    struct fs_ctx *child, struct stat *st)
{
	int err = begin_dir_modify(dir, name);

	*child = *dir;
	child->ent = NULL;
	if (err)
		return err;
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, mkdirat(dir->ent->fd, name, create_mode(sa, 0777)))) != 0)
		return err;
	if ((err = enter_child(dir, name, child, st)) != 0)
		return err;
	return finish_create(child, sa, st);
}

static int
symlink_object(struct fs_ctx *dir, const char *name, const char *target,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st)
{
	int err = begin_dir_modify(dir, name);

	*child = *dir;
	child->ent = NULL;
	if (err)
		return err;
	if (target[0] == '\0')
		return EINVAL;
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, symlinkat(target, dir->ent->fd, name))) != 0)
		return err;
	if ((err = enter_child(dir, name, child, st)) != 0)
		return err;
	return finish_create(child, sa, st);
}

static int
mknod_object(struct fs_ctx *dir, const char *name, mode_t type, dev_t rdev,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st)
{
	int err = begin_dir_modify(dir, name);

	*child = *dir;
	child->ent = NULL;
	if (err)
		return err;
	/* Devices only for a caller that is root after squashing, as locally. */
	if ((type == S_IFCHR || type == S_IFBLK) && dir->cred.uid != 0)
		return EPERM;
	if (type != S_IFCHR && type != S_IFBLK)
		rdev = 0;
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, mknodat(dir->ent->fd, name, type | create_mode(sa, 0666), rdev))) != 0)
		return err;
	if ((err = enter_child(dir, name, child, st)) != 0)
		return err;
	return finish_create(child, sa, st);
}

/* A new object is durable with its directory entry, as one. */
static int
created(struct fs_ctx *dir, struct fs_ctx *child, int err)
{
	if (err)
		return err;
	return make_durable(dir, child->ent, dir->ent);
}

int
fs_create(struct fs_ctx *dir, const char *name, enum fs_createmode how,
    const struct fs_sattr *sa, const uint8_t verf[FS_VERF_LEN], struct fs_ctx *child,
    struct stat *st)
{
	return created(dir, child, create_object(dir, name, how, sa, verf, child, st));
}

int
fs_mkdir(struct fs_ctx *dir, const char *name, const struct fs_sattr *sa,
    struct fs_ctx *child, struct stat *st)
{
	return created(dir, child, mkdir_object(dir, name, sa, child, st));
}

int
fs_symlink(struct fs_ctx *dir, const char *name, const char *target,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st)
{
	return created(dir, child, symlink_object(dir, name, target, sa, child, st));
}

int
fs_mknod(struct fs_ctx *dir, const char *name, mode_t type, dev_t rdev,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st)
{
	return created(dir, child, mknod_object(dir, name, type, rdev, sa, child, st));
}

/* ---- removing and renaming ---- */

static int
check_old_name(const char *name, int rmdir)
{
	if (name[0] == '\0')
		return ENOENT;
	if (strchr(name, '/'))
		return EACCES;
	if (strcmp(name, ".") == 0)
		return EINVAL;
	if (strcmp(name, "..") == 0)
		return rmdir ? ENOTEMPTY : EINVAL;
	return 0;
}

static int
remove_common(struct fs_ctx *dir, const char *name, int flags)
{
	int err = begin_modify(dir);

	if (err)
		return err;
	if (dir->ent->type != S_IFDIR)
		return ENOTDIR;
	if ((err = check_old_name(name, flags & AT_REMOVEDIR)) != 0)
		return err;
	if ((err = may_change_name(dir, name)) != 0)
		return err;
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, unlinkat(dir->ent->fd, name, flags))) != 0)
		return err;
	return make_durable(dir, NULL, dir->ent);
}

int
fs_remove(struct fs_ctx *dir, const char *name)
{
	return remove_common(dir, name, 0);
}

int
fs_rmdir(struct fs_ctx *dir, const char *name)
{
	return remove_common(dir, name, AT_REMOVEDIR);
}

int
fs_rename(struct fs_ctx *from, const char *fname, struct fs_ctx *to, const char *tname)
{
	int err = begin_modify(from);

	if (err || (err = begin_modify(to)) != 0)
		return err;
	if (from->ent->type != S_IFDIR || to->ent->type != S_IFDIR)
		return ENOTDIR;
	if (from->root != to->root)
		return EXDEV;
	if ((err = check_old_name(fname, 0)) != 0 || (err = check_old_name(tname, 0)) != 0)
		return err;
	if ((err = may_change_name(from, fname)) != 0 || (err = may_change_name(to, tname)) != 0)
		return err;
	change_begin(from, to);
	if ((err = change_done(from, to, renameat(from->ent->fd, fname, to->ent->fd, tname))) != 0)
		return err;
	return make_durable(from, from->ent, to->ent);
}

int
fs_link(struct fs_ctx *file, struct fs_ctx *dir, const char *name)
{
	char path[64];
	int err = begin_dir_modify(dir, name);

	if (err)
		return err;
	if (file->root != dir->root)
		return EXDEV;
	if (file->ent->type == S_IFDIR)
		return EISDIR;
	if ((err = may_change(file)) != 0)
		return err;
	/* Via /proc: linkat(AT_EMPTY_PATH) would need CAP_DAC_READ_SEARCH. */
	icache_proc_path(file->ent, path, sizeof(path));
	change_begin(dir, NULL);
	if ((err = change_done(dir, NULL, linkat(AT_FDCWD, path, dir->ent->fd, name, AT_SYMLINK_FOLLOW))) != 0)
		return err;
	return make_durable(dir, file->ent, dir->ent);
}
