/*
 * NFSv3 attributes on the wire (RFC 1813 fattr3, post_op_attr, pre_op_attr)
 * from what the fs layer's stat found: the encoding every v3 procedure
 * shares, kept out of the procedures themselves.
 */
#include "config.h"

#include <errno.h>
#include <sys/sysmacros.h>

#include "fs/fsops.h"
#include "nfs3_attr.h"

static ftype3
ftype_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return NF3REG;
	case S_IFDIR: return NF3DIR;
	case S_IFBLK: return NF3BLK;
	case S_IFCHR: return NF3CHR;
	case S_IFLNK: return NF3LNK;
	case S_IFSOCK: return NF3SOCK;
	case S_IFIFO: return NF3FIFO;
	}
	return NF3REG;
}

void
fattr3_from_stat(const struct fs_ctx *ctx, const struct stat *st, fattr3 *fa)
{
	fa->type = ftype_of(st->st_mode);
	fa->mode = st->st_mode & 07777;
	fa->nlink = (uint32)st->st_nlink;
	fa->uid = st->st_uid;
	fa->gid = st->st_gid;
	fa->size = (uint64)st->st_size;
	fa->used = (uint64)st->st_blocks * 512;
	fa->rdev.specdata1 = major(st->st_rdev);
	fa->rdev.specdata2 = minor(st->st_rdev);
	fa->fsid = fs_fsid(ctx);
	fa->fileid = st->st_ino;
	fa->atime.seconds = (uint32)st->st_atim.tv_sec;
	fa->atime.nseconds = (uint32)st->st_atim.tv_nsec;
	fa->mtime.seconds = (uint32)st->st_mtim.tv_sec;
	fa->mtime.nseconds = (uint32)st->st_mtim.tv_nsec;
	fa->ctime.seconds = (uint32)st->st_ctim.tv_sec;
	fa->ctime.nseconds = (uint32)st->st_ctim.tv_nsec;
}

void
post_attr_stat(const struct fs_ctx *ctx, const struct stat *st, post_op_attr *pa)
{
	pa->attributes_follow = TRUE;
	fattr3_from_stat(ctx, st, &pa->post_op_attr_u.attributes);
}

void
post_attr(struct fs_ctx *ctx, post_op_attr *pa)
{
	struct stat st;

	pa->attributes_follow = FALSE;
	if (fs_resolved(ctx) && fs_getattr(ctx, &st) == 0)
		post_attr_stat(ctx, &st, pa);
}

int
wcc_pre_st(struct fs_ctx *ctx, pre_op_attr *pre, struct stat *st)
{
	wcc_attr *w = &pre->pre_op_attr_u.attributes;
	int err = fs_resolved(ctx) ? fs_getattr(ctx, st) : ESTALE;

	pre->attributes_follow = err == 0;
	if (err)
		return err;
	w->size = (uint64)st->st_size;
	w->mtime.seconds = (uint32)st->st_mtim.tv_sec;
	w->mtime.nseconds = (uint32)st->st_mtim.tv_nsec;
	w->ctime.seconds = (uint32)st->st_ctim.tv_sec;
	w->ctime.nseconds = (uint32)st->st_ctim.tv_nsec;
	return 0;
}

void
wcc_pre(struct fs_ctx *ctx, pre_op_attr *pre)
{
	struct stat st;

	(void)wcc_pre_st(ctx, pre, &st);
}
