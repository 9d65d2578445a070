/*
 * Building file handles (and attributes) for objects on disk: one statx()
 * gives both; the kernel handle comes from the inode cache when it holds
 * the inode, else from name_to_handle_at. fh.c encodes and checks what is
 * built here.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fsroot.h"
#include "fh_build.h"
#include "icache_impl.h"

uint32_t
gen_from_statx_btime(int64_t sec, uint32_t nsec)
{
	uint32_t g = (uint32_t)((uint64_t)sec * 1000003u) ^ nsec;

	return g ? g : 1;
}
/* ---- building handles ---- */

int
statx_at(int dirfd, const char *name, struct statx *stx)
{
	return statx(dirfd, name, AT_SYMLINK_NOFOLLOW | (*name ? 0 : AT_EMPTY_PATH),
	    STATX_BASIC_STATS | STATX_BTIME, stx);
}

dev_t
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

void
fh_from_statx(const struct fs_root *root, int dirfd, const char *name, const struct statx *stx,
    struct fh *out)
{
	memset(out, 0, sizeof(*out));
	out->export_id = root->id;
	out->ino = stx->stx_ino;
	if (stx->stx_mask & STATX_BTIME)
		out->gen = gen_from_statx_btime(stx->stx_btime.tv_sec, stx->stx_btime.tv_nsec);
	if (!icache_known_kernel_handle(out))
		kernel_handle(dirfd, name, out);
}

void
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
fh_stat_for_name(const struct fs_root *root, int dirfd, const char *name, struct stat *st,
    struct fh *out)
{
	struct statx stx;

	if (statx_at(dirfd, name, &stx) < 0)
		return errno;
	stat_from_statx(&stx, st);
	if (st->st_dev != root->dev)
		return EXDEV;
	fh_from_statx(root, dirfd, name, &stx, out);
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
fh_stat_for_ino(const struct fs_root *root, uint64_t ino, struct stat *st, struct fh *out)
{
	struct statx stx;
	int fd = icache_cached_ino(root->id, ino, out);

	if (fd < 0 || statx_at(fd, "", &stx) < 0 || stx.stx_ino != ino ||
	    statx_dev(&stx) != root->dev)
		return ENOENT;
	if ((stx.stx_mask & STATX_BTIME) &&
	    gen_from_statx_btime(stx.stx_btime.tv_sec, stx.stx_btime.tv_nsec) != out->gen)
		return ENOENT;
	stat_from_statx(&stx, st);
	return 0;
}

int
fh_stat_for_dirent(const struct fs_root *root, int dirfd, const char *name, uint64_t ino,
    struct stat *st, struct fh *out)
{
	if (ino != 0 && fh_stat_for_ino(root, ino, st, out) == 0)
		return 0;
	return fh_stat_for_name(root, dirfd, name, st, out);
}
/* Does the object whose full handle is 'have' answer to the handle 'want'? */
int
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
