/*
 * NFSv4.2's space and copy operations on regular files (RFC 7862 4, 5,
 * 6): SEEK for data and holes, ALLOCATE and DEALLOCATE of a range, COPY
 * and CLONE from one file to another of the same export.  All work on the
 * data descriptors the inode cache keeps (fdcache.c), opened as the daemon;
 * the client's permission is checked here first, with the owner's
 * exception fs_read and fs_write make.  Changes are durable before the
 * reply on a sync export, as fs_write makes them (durable.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "durable.h"
#include "fsops.h"
#include "icache.h"
#include "monotime.h"

/*
 * A synchronous COPY holds a worker and the client's slot until it is
 * done: it stops after the chunk that takes it past COPY_BUDGET_NS and
 * answers with what it copied, as knfsd and FreeBSD's server shorten
 * long copies; the client asks again for the rest (RFC 7862 15.2.3 lets
 * wr_count be less than ca_count).  A chunk is one copy_file_range call:
 * small enough for the budget to be looked at, large enough that a file
 * system that shares extents (btrfs, XFS) clones a big file in few calls.
 */
#define COPY_CHUNK (16u << 20)
#define COPY_BUDGET_NS 1000000000LL
/* The bounce buffer where copy_file_range cannot work (no splice). */
#define COPY_BOUNCE (1u << 20)

/* A regular file: EISDIR for a directory, EINVAL for anything else. */
static int
regular(const struct fs_ctx *ctx)
{
	if (ctx->ent->type == S_IFDIR)
		return EISDIR;
	return ctx->ent->type == S_IFREG ? 0 : EINVAL;
}

/*
 * May the caller read (mode R_OK) or write (W_OK) the file whose attributes
 * st are?  Its owner always may, as fs_read and fs_write let it: it created
 * the file and may have chmodded it since (knfsd does the same).
 */
static int
permitted(struct fs_ctx *ctx, const struct stat *st, int mode)
{
	return st->st_uid == ctx->cred.uid || fs_may(ctx, mode);
}

/* A regular file the caller may use as mode allows, with its attributes. */
static int
open_file(struct fs_ctx *ctx, int mode, struct stat *st)
{
	int err = regular(ctx);

	if (err || (err = fs_getattr(ctx, st)) != 0)
		return err;
	return permitted(ctx, st, mode) ? 0 : EACCES;
}

/*
 * After the data of ctx's file changed: on a sync export durable before
 * the reply; on an async one the sweeper writes it back with the file's
 * idle descriptor, as after an async WRITE.
 */
static int
changed(struct fs_ctx *ctx)
{
	if (!durable_wanted(ctx)) {
		icache_mark_dirty(ctx->ent);
		return 0;
	}
	return durable_sync(ctx, ctx->ent);
}

/* ---- SEEK and READ_PLUS's map ---- */

/* The next segment of [pos, end) of fd: data or a hole, how long. */
static int
next_segment(int fd, uint64_t pos, uint64_t end, struct fs_segment *s)
{
	off_t d = lseek(fd, (off_t)pos, SEEK_DATA), h;

	s->off = pos;
	if (d < 0 && errno != ENXIO)
		return errno;
	if (d < 0 || (uint64_t)d >= end) {	/* no data before the end: one hole */
		s->hole = 1;
		s->len = end - pos;
		return 0;
	}
	if ((uint64_t)d > pos) {
		s->hole = 1;
		s->len = (uint64_t)d - pos;
		return 0;
	}
	/* Data here; it runs to the next hole (the file's end is one). */
	s->hole = 0;
	s->len = 0;
	if ((h = lseek(fd, (off_t)pos, SEEK_HOLE)) < 0)
		return errno == ENXIO ? 0 : errno;	/* shrank: nothing here now */
	s->len = ((uint64_t)h < end ? (uint64_t)h : end) - pos;
	return 0;
}

int
fs_segments(struct fs_ctx *ctx, uint64_t off, uint64_t count, struct fs_segment *seg,
    unsigned max, unsigned *n, uint64_t *size)
{
	struct stat st;
	uint64_t end, pos = off;
	int fd, err = open_file(ctx, R_OK, &st);

	*n = 0;
	*size = 0;
	if (err)
		return err;
	*size = (uint64_t)st.st_size;
	if (off >= *size || count == 0)
		return 0;
	end = count < *size - off ? off + count : *size;
	if ((fd = icache_read_fd(ctx->ent, ctx->creds)) < 0)
		return errno;
	while (pos < end && *n < max) {
		struct fs_segment *s = &seg[*n];

		if ((err = next_segment(fd, pos, end, s)) != 0)
			return err;
		if (s->len == 0)	/* shrank under us: the map ends here */
			break;
		pos += s->len;
		(*n)++;
	}
	return 0;
}

int
fs_seek(struct fs_ctx *ctx, uint64_t off, enum fs_seek_what what, uint64_t *found, int *eof)
{
	struct stat st;
	off_t pos, end;
	int fd, err = open_file(ctx, R_OK, &st);

	*found = 0;
	*eof = 0;
	if (err)
		return err;
	/* lseek's ENXIO, and RFC 7862 15.11.3's for an offset beyond the end. */
	if (off >= (uint64_t)st.st_size)
		return ENXIO;
	if ((fd = icache_read_fd(ctx->ent, ctx->creds)) < 0)
		return errno;
	/* The descriptor's position is never used: every read and write gives its offset. */
	pos = lseek(fd, (off_t)off, what == FS_SEEK_HOLE ? SEEK_HOLE : SEEK_DATA);
	if (pos >= 0 && pos < st.st_size) {
		*found = (uint64_t)pos;
		return 0;
	}
	if (pos < 0 && errno != ENXIO)
		return errno;
	/*
	 * At the end as the stat before saw it (every file ends in a hole),
	 * or no data after off (ENXIO): how far the file goes now decides.
	 * No data before the end is not an error but sr_eof, the offset the
	 * end (15.11.3); an off the file shrank below is beyond the end.
	 */
	if ((end = lseek(fd, 0, SEEK_END)) < 0)
		return errno;
	if (pos < 0) {
		if (off >= (uint64_t)end)
			return ENXIO;
		pos = end;
	}
	*found = (uint64_t)pos;
	*eof = pos >= end;
	return 0;
}

/* ---- ALLOCATE, DEALLOCATE ---- */

static int
falloc(struct fs_ctx *ctx, int mode, uint64_t off, uint64_t len)
{
	int fd;

	if ((fd = icache_write_fd(ctx->ent, ctx->creds)) < 0)
		return errno;
	while (fallocate(fd, mode, (off_t)off, (off_t)len) < 0)
		if (errno != EINTR)
			return errno;
	return changed(ctx);
}

int
fs_allocate(struct fs_ctx *ctx, uint64_t off, uint64_t len)
{
	struct stat st;
	int err;

	if (fs_readonly(ctx))
		return EROFS;
	if ((err = open_file(ctx, W_OK, &st)) != 0)
		return err;
	if (len == 0)
		return EINVAL;		/* fallocate's answer too */
	if (off > (uint64_t)INT64_MAX || len > (uint64_t)INT64_MAX - off)
		return EFBIG;
	/* Mode 0: the blocks are reserved and the file grows to off + len if shorter (15.1.3). */
	return falloc(ctx, 0, off, len);
}

int
fs_deallocate(struct fs_ctx *ctx, uint64_t off, uint64_t len)
{
	struct stat st;
	int err;

	if (fs_readonly(ctx))
		return EROFS;
	if ((err = open_file(ctx, W_OK, &st)) != 0)
		return err;
	if (len == 0)
		return EINVAL;
	/*
	 * The size stays (KEEP_SIZE), so nothing past the end has anything
	 * to free: the range is cut there, and a length up to 2^64 - 1 (the
	 * rest of the file) is not too big.
	 */
	if (off >= (uint64_t)st.st_size)
		return 0;
	if (len > (uint64_t)st.st_size - off)
		len = (uint64_t)st.st_size - off;
	return falloc(ctx, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off, len);
}

/* ---- COPY, CLONE ---- */

/*
 * The two files of a COPY or CLONE: the destination writable, the source
 * readable, both of one export (EXDEV otherwise), with their attributes.
 */
static int
open_pair(struct fs_ctx *src, struct stat *sst, struct fs_ctx *dst, struct stat *dstt)
{
	int err;

	if (fs_readonly(dst))
		return EROFS;
	if (src->root != dst->root)
		return EXDEV;
	if ((err = open_file(src, R_OK, sst)) != 0)
		return err;
	return open_file(dst, W_OK, dstt);
}

/*
 * The range of the source a COPY or CLONE takes: count bytes from off, 0
 * for all to the end.  Past the source's end is EINVAL (15.2.3, 15.13.3);
 * the destination may grow, up to the largest offset a file can have.
 */
static int
source_range(const struct stat *sst, uint64_t off, uint64_t *count, uint64_t dst_off)
{
	uint64_t size = (uint64_t)sst->st_size;

	if (off > size || *count > size - off)
		return EINVAL;
	if (*count == 0)
		*count = size - off;
	if (dst_off > (uint64_t)INT64_MAX || *count > (uint64_t)INT64_MAX - dst_off)
		return EFBIG;
	return 0;
}

static int
same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static int
overlap(uint64_t a, uint64_t b, uint64_t len)
{
	return len > 0 && a < b + len && b < a + len;
}

static long long
now_ns(void)
{
	return (long long)mono_ns();
}

/* copy_file_range cannot copy between these descriptors at all: copy by hand. */
static int
cannot_copy_range(int err)
{
	return err == EXDEV || err == EOPNOTSUPP || err == ENOSYS || err == EINVAL;
}

/* Up to len bytes through buf: what was written, 0 at the source's end, -1 with errno. */
static ssize_t
bounce(int sfd, uint64_t soff, int dfd, uint64_t doff, size_t len, char *buf)
{
	ssize_t n = pread(sfd, buf, len < COPY_BOUNCE ? len : COPY_BOUNCE, (off_t)soff);
	size_t done = 0;

	if (n <= 0)
		return n;
	while (done < (size_t)n) {
		ssize_t w = pwrite(dfd, buf + done, (size_t)n - done, (off_t)(doff + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return done > 0 ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)done;
}

/*
 * Copies up to count bytes, fewer when the budget runs out or the source
 * ends early (it shrank); *done says how many.  An error after some bytes
 * went is not one: they are reported, and the client retries the rest.
 */
static int
copy_data(int sfd, uint64_t soff, int dfd, uint64_t doff, uint64_t count, uint64_t *done)
{
	long long start = now_ns();
	char *buf = NULL;
	int err = 0;

	*done = 0;
	while (*done < count) {
		size_t len = count - *done < COPY_CHUNK ? (size_t)(count - *done) : COPY_CHUNK;
		ssize_t n;

		if (buf == NULL) {
			loff_t si = (loff_t)(soff + *done), di = (loff_t)(doff + *done);

			n = copy_file_range(sfd, &si, dfd, &di, len, 0);
			if (n < 0 && *done == 0 && cannot_copy_range(errno)) {
				if ((buf = malloc(COPY_BOUNCE)) == NULL) {
					err = ENOMEM;
					break;
				}
				continue;
			}
		} else {
			n = bounce(sfd, soff + *done, dfd, doff + *done, len, buf);
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = *done > 0 ? 0 : errno;
			break;
		}
		if (n == 0)
			break;
		*done += (uint64_t)n;
		if (now_ns() - start >= COPY_BUDGET_NS)
			break;
	}
	free(buf);
	return err;
}

int
fs_copy(struct fs_ctx *src, uint64_t src_off, struct fs_ctx *dst, uint64_t dst_off,
    uint64_t count, uint64_t *copied, enum fs_stable *committed)
{
	struct stat sst, dstt;
	uint64_t done = 0;
	int sfd, dfd, err;

	*copied = 0;
	*committed = FS_FILE_SYNC;
	if ((err = open_pair(src, &sst, dst, &dstt)) != 0)
		return err;
	if ((err = source_range(&sst, src_off, &count, dst_off)) != 0)
		return err;
	/* Overlapping ranges of one file (15.2.3); copy_file_range refuses them too. */
	if (same_file(&sst, &dstt) && overlap(src_off, dst_off, count))
		return EINVAL;
	if (count == 0)
		return 0;
	/* The destination's first: with one file, the read descriptor is then the same. */
	if ((dfd = icache_write_fd(dst->ent, dst->creds)) < 0 ||
	    (sfd = icache_read_fd(src->ent, src->creds)) < 0)
		return errno;
	if ((err = copy_data(sfd, src_off, dfd, dst_off, count, &done)) != 0 || done == 0)
		return err;
	/*
	 * Stable before the reply on a sync export (FILE_SYNC4, no COMMIT to
	 * follow); on an async one acknowledged as stable without waiting, as
	 * an async WRITE is.
	 */
	if ((err = changed(dst)) != 0)
		return err;
	*copied = done;
	return 0;
}

/*
 * CLONE's alignment (15.13.3): both offsets on the clone block size, the
 * count too unless the range ends at the source's end; a tail block that
 * ends there cannot go into the middle of the destination (the file
 * systems refuse it: the rest of that block would come along).
 */
static int
clone_aligned(const struct stat *sst, const struct stat *dstt, uint64_t src_off,
    uint64_t dst_off, uint64_t count)
{
	uint64_t bs = sst->st_blksize > 0 ? (uint64_t)sst->st_blksize : 1;
	int tail = count % bs != 0;

	if (src_off % bs != 0 || dst_off % bs != 0)
		return EINVAL;
	if (tail && src_off + count != (uint64_t)sst->st_size)
		return EINVAL;
	if (tail && dst_off + count < (uint64_t)dstt->st_size)
		return EINVAL;
	return 0;
}

int
fs_clone(struct fs_ctx *src, uint64_t src_off, struct fs_ctx *dst, uint64_t dst_off,
    uint64_t count)
{
	struct file_clone_range fcr;
	struct stat sst, dstt;
	uint64_t span;
	int sfd, dfd, err;

	if ((err = open_pair(src, &sst, dst, &dstt)) != 0)
		return err;
	if ((err = source_range(&sst, src_off, &count, dst_off)) != 0)
		return err;
	if ((err = clone_aligned(&sst, &dstt, src_off, dst_off, count)) != 0)
		return err;
	/* Within one file, the block a tail ends in counts whole. */
	span = count;
	if (sst.st_blksize > 0 && count % (uint64_t)sst.st_blksize != 0)
		span += (uint64_t)sst.st_blksize - count % (uint64_t)sst.st_blksize;
	if (same_file(&sst, &dstt) && overlap(src_off, dst_off, span))
		return EINVAL;
	if (count == 0)
		return 0;	/* FICLONERANGE would read a length of 0 as "to the end" */
	if ((dfd = icache_write_fd(dst->ent, dst->creds)) < 0 ||
	    (sfd = icache_read_fd(src->ent, src->creds)) < 0)
		return errno;
	fcr.src_fd = sfd;
	fcr.src_offset = src_off;
	fcr.src_length = count;
	fcr.dest_offset = dst_off;
	if (ioctl(dfd, FICLONERANGE, &fcr) < 0) {
		err = errno;
		/*
		 * The arguments passed the checks above, so the file system
		 * cannot share these extents (ext4 and tmpfs: EOPNOTSUPP; some
		 * refuse with EINVAL or EXDEV): not supported, and the client
		 * copies instead.
		 */
		return err == EINVAL || err == EXDEV ? EOPNOTSUPP : err;
	}
	return changed(dst);
}
