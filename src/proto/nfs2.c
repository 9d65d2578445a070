/*
 * NFSv2 procedures (RFC 1094). Like nfs3.c, every handler resolves its
 * handles and does its work through fsops and only converts between the
 * wire and those calls. What is particular to v2:
 *  - 32-byte handles (fh_encode_v2): an object whose kernel handle does
 *    not fit has none, and answers NFS2ERR_OPNOTSUPP;
 *  - 32-bit sizes and offsets: sizes beyond NFS2_MAXFILESIZE are reported
 *    as that, a WRITE reaching past it fails with FBIG, a READ past it
 *    finds end of file;
 *  - at most NFS_MAXDATA (8 KiB) per READ, WRITE and READDIR reply;
 *  - every WRITE is synchronous (there is no COMMIT);
 *  - sattr fields of -1 mean "leave alone"; useconds of 1000000 mean "the
 *    server's clock" (Sun's convention, which knfsd and Linux follow);
 *  - 32-bit directory cookies, translated by cookie2.c;
 *  - ROOT and WRITECACHE are obsolete and answered as no-ops, like knfsd.
 * The table's macros are rpcproc.h's, shared with nfs3.c.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "be.h"
#include "compiler.h"
#include "cookie2.h"
#include "rpc/dispatch.h"
#include "access.h"
#include "errmap.h"
#include "fs/fsops.h"
#include "log.h"
#include "nfs2.h"
#include "rpc/nfs_prot.h"
#include "rpc/rpcproc.h"

#define NFS2_NONE 0xffffffffu		/* a sattr field the client leaves alone */
#define NFS2_USEC_SERVER_TIME 1000000u	/* Sun: "set this time from the server's clock" */
/* READDIR reply: status + end of list + eof; each entry: link, fileid, name length, cookie. */
#define XDR_READDIR2_OVERHEAD (4 + 4 + 4)
#define XDR_ENTRY2_FIXED (4 + 4 + 4 + NFS_COOKIESIZE)

/* The status for err; a transient error drops the reply so that the client retries. */
static nfsstat
st2(struct rpc_call *call, int err)
{
	int st = errno_to_nfs2(err);

	if (st == NFS2_DROP) {
		log_debug("xid %08x: transient error %d, no NFSv2 status for it: reply dropped",
		    call->xid, err);
		call->drop_reply = 1;
		return NFSERR_IO;
	}
	return (nfsstat)st;
}

static int
begin(struct rpc_call *call, const nfs_fh *h, struct fs_ctx *ctx)
{
	return fs_begin(call, h->data, NFS_FHSIZE, ctx);
}

static int
set_fh2(const struct fh *fh, nfs_fh *out)
{
	static unsigned last_log;

	if (fh_encode_v2(fh, (uint8_t *)out->data) == FH2_LEN)
		return 0;
	log_ratelimited(&last_log, "inode %llu has a %u-byte kernel handle: NFSv2's 32-byte "
	    "handles cannot name it", (unsigned long long)fh->ino, (unsigned)fh->kfh_len);
	return ENOFH2;
}

/* ---- attributes ---- */

static ftype
ftype_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return NFREG;
	case S_IFDIR: return NFDIR;
	case S_IFBLK: return NFBLK;
	/* A FIFO is a character device with rdev NFS_FIFO_DEV: Sun's clients know no NFFIFO. */
	case S_IFIFO:
	case S_IFCHR: return NFCHR;
	case S_IFLNK: return NFLNK;
	case S_IFSOCK: return NFSOCK;
	}
	return NFNON;
}

/* Linux's 32-bit device encoding (new_encode_dev), which SunOS's 16-bit numbers are a subset of. */
static uint32_t
dev_to_wire(dev_t dev)
{
	uint32_t maj = major(dev), min = minor(dev);

	return (min & 0xff) | (maj & 0xfff) << 8 | (min & ~0xffu) << 12;
}

static dev_t
dev_from_wire(uint32_t v)
{
	return makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
}

static uint32_t
clamp32(uint64_t v, uint32_t max)
{
	return v > max ? max : (uint32_t)v;
}

static void
time_to2(const struct timespec *ts, nfstime *t)
{
	t->seconds = (u_int)ts->tv_sec;
	t->useconds = (u_int)(ts->tv_nsec / 1000);
}

static void
fattr2_from_stat(const struct fs_ctx *ctx, const struct stat *st, fattr *fa)
{
	fa->type = ftype_of(st->st_mode);
	/* v2 carries the type in the mode bits too. */
	fa->mode = st->st_mode;
	fa->nlink = (u_int)st->st_nlink;
	fa->uid = st->st_uid;
	fa->gid = st->st_gid;
	/* Larger files show as the largest a v2 client can address, as knfsd and others do. */
	fa->size = clamp32((uint64_t)st->st_size, S_ISLNK(st->st_mode) ? NFS_MAXPATHLEN :
	    NFS2_MAXFILESIZE);
	fa->blocksize = clamp32((uint64_t)st->st_blksize, NFS_MAXDATA);
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		fa->rdev = dev_to_wire(st->st_rdev);
	else
		fa->rdev = (u_int)NFS_FIFO_DEV;	/* what knfsd sends: marks FIFOs */
	/* 512-byte units, as knfsd and the BSDs send and clients read them. */
	fa->blocks = clamp32((uint64_t)st->st_blocks, UINT32_MAX);
	fa->fsid = fs_fsid(ctx);
	fa->fileid = (u_int)st->st_ino;
	time_to2(&st->st_atim, &fa->atime);
	time_to2(&st->st_mtim, &fa->mtime);
	time_to2(&st->st_ctim, &fa->ctime);
}

/* Attributes of ctx's object into fa; an error if they cannot be had. */
static int
getattr2(struct fs_ctx *ctx, fattr *fa)
{
	struct stat st;
	int err = fs_getattr(ctx, &st);

	if (err == 0)
		fattr2_from_stat(ctx, &st, fa);
	return err;
}

static int
time_from2(const nfstime *t, unsigned flag, struct timespec *ts, unsigned *set)
{
	/* Either half -1: leave it, as knfsd reads it. */
	if (t->seconds == NFS2_NONE || t->useconds == NFS2_NONE)
		return 0;
	if (t->useconds > NFS2_USEC_SERVER_TIME)
		return EINVAL;
	*set |= flag;
	if (t->useconds == NFS2_USEC_SERVER_TIME) {
		ts->tv_sec = 0;
		ts->tv_nsec = UTIME_NOW;
	} else {
		ts->tv_sec = t->seconds;
		ts->tv_nsec = (long)t->useconds * 1000;
	}
	return 0;
}

/* sattr -> fs_sattr; the mode's type bits (CREATE's business) are dropped. */
static int
sattr_from2(const sattr *in, struct fs_sattr *out)
{
	int err;

	memset(out, 0, sizeof(*out));
	if (in->mode != NFS2_NONE) {
		out->set |= FS_SET_MODE;
		out->mode = in->mode & 07777;
	}
	if (in->uid != NFS2_NONE) {
		out->set |= FS_SET_UID;
		out->uid = in->uid;
	}
	if (in->gid != NFS2_NONE) {
		out->set |= FS_SET_GID;
		out->gid = in->gid;
	}
	if (in->size != NFS2_NONE) {
		if (in->size > NFS2_MAXFILESIZE)
			return EFBIG;
		out->set |= FS_SET_SIZE;
		out->size = in->size;
	}
	if ((err = time_from2(&in->atime, FS_SET_ATIME, &out->atime, &out->set)) != 0 ||
	    (err = time_from2(&in->mtime, FS_SET_MTIME, &out->mtime, &out->set)) != 0)
		return err;
	/* Sun: the server-time mark on mtime means both times (touch(1) without -d). */
	if ((out->set & FS_SET_MTIME) && out->mtime.tv_nsec == UTIME_NOW &&
	    (out->set & FS_SET_ATIME))
		out->atime = out->mtime;
	return 0;
}

/* ---- procedures ---- */

static void
nfs2_getattr(struct rpc_call *call, void *argp, void *resp)
{
	attrstat *r = resp;
	struct fs_ctx ctx;
	int err = begin(call, argp, &ctx);

	if (err == 0)
		err = getattr2(&ctx, &r->attrstat_u.attributes);
	r->status = st2(call, err);
	fs_end(&ctx);
}

static void
nfs2_setattr(struct rpc_call *call, void *argp, void *resp)
{
	sattrargs *a = argp;
	attrstat *r = resp;
	struct fs_ctx ctx;
	struct fs_sattr sa;
	int err = begin(call, &a->file, &ctx);

	if (err == 0)
		err = sattr_from2(&a->attributes, &sa);
	if (err == 0)
		err = fs_setattr(&ctx, NULL, &sa, NULL);	/* v2 has no guard */
	if (err == 0)
		err = getattr2(&ctx, &r->attrstat_u.attributes);
	r->status = st2(call, err);
	fs_end(&ctx);
}

/* The diropres of LOOKUP, CREATE and MKDIR: the child's handle and attributes. */
static void
diropres_fill(struct rpc_call *call, diropres *r, int err, struct fs_ctx *child,
    const struct stat *st)
{
	diropokres *ok = &r->diropres_u.diropres;

	if (err == 0)
		err = set_fh2(fs_handle(child), &ok->file);
	if (err == 0)
		fattr2_from_stat(child, st, &ok->attributes);
	r->status = st2(call, err);
}

static void
nfs2_lookup(struct rpc_call *call, void *argp, void *resp)
{
	diropargs *a = argp;
	struct fs_ctx dir, child = { 0 };
	struct stat st;
	int err = begin(call, &a->dir, &dir);

	if (err == 0)
		err = fs_lookup(&dir, a->name, &child, &st);
	diropres_fill(call, resp, err, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs2_readlink(struct rpc_call *call, void *argp, void *resp)
{
	readlinkres *r = resp;
	struct fs_ctx ctx;
	char *buf = call_alloc(call, NFS_MAXPATHLEN + 1);
	size_t len;
	int err = begin(call, argp, &ctx);

	if (err == 0 && buf == NULL)
		err = ENOMEM;
	if (err == 0)
		err = fs_readlink(&ctx, buf, NFS_MAXPATHLEN + 1, &len);
	if (err == 0)
		r->readlinkres_u.data = buf;
	r->status = st2(call, err);
	fs_end(&ctx);
}

static void
nfs2_read(struct rpc_call *call, void *argp, void *resp)
{
	readargs *a = argp;
	readres *r = resp;
	readokres *ok = &r->readres_u.reply;
	struct fs_ctx ctx;
	size_t count = a->count > NFS_MAXDATA ? NFS_MAXDATA : a->count, n = 0;
	int eof, err = begin(call, &a->file, &ctx);
	struct stat st;
	void *buf;

	/* Nothing lies beyond the largest size v2 can show: that is end of file. */
	if (a->offset >= NFS2_MAXFILESIZE)
		count = 0;
	else if (count > NFS2_MAXFILESIZE - a->offset)
		count = NFS2_MAXFILESIZE - a->offset;
	buf = call_databuf(call, count ? count : 1);
	if (err == 0 && buf == NULL)
		err = ENOMEM;
	if (err == 0)
		err = fs_read_reply(call, &ctx, a->offset, count, buf, &n, &eof, &st);
	if (err == 0) {
		fattr2_from_stat(&ctx, &st, &ok->attributes);
		ok->data.data_len = (u_int)n;
		ok->data.data_val = buf;
	}
	r->status = st2(call, err);
	fs_end(&ctx);
}

/* v2 has no partial writes: all of it is written and on disk, or an error. */
static int
write_all(struct fs_ctx *ctx, uint64_t off, const char *data, size_t len)
{
	struct stat before;
	size_t done = 0;
	int err = fs_getattr(ctx, &before);

	if (err)
		return err;
	do {
		enum fs_stable committed;
		size_t n = 0;

		err = fs_write(ctx, &before, off + done, data ? data + done : data, len - done,
		    FS_FILE_SYNC, &n, &committed);
		if (err)
			return err;
		if (n == 0 && len > 0)
			return EIO;
		done += n;
	} while (done < len);
	return 0;
}

static void
nfs2_write(struct rpc_call *call, void *argp, void *resp)
{
	writeargs *a = argp;
	attrstat *r = resp;
	struct fs_ctx ctx;
	int err = begin(call, &a->file, &ctx);

	/* beginoffset and totalcount are unused (RFC 1094 2.2.9). */
	if (err == 0 && (uint64_t)a->offset + a->data.data_len > NFS2_MAXFILESIZE)
		err = EFBIG;
	if (err == 0)
		err = write_all(&ctx, a->offset, a->data.data_val, a->data.data_len);
	if (err == 0)
		err = getattr2(&ctx, &r->attrstat_u.attributes);
	r->status = st2(call, err);
	fs_end(&ctx);
}

/*
 * CREATE also makes special files, in the way Sun's server did and
 * knfsd and the Linux client follow: the type is in the mode bits and a
 * device number in the size; a character device without a size is a FIFO.
 */
static int
create_type(const sattr *in, mode_t *type, dev_t *rdev)
{
	mode_t t = in->mode == NFS2_NONE ? 0 : (mode_t)(in->mode & S_IFMT);

	*rdev = 0;
	switch (t) {
	case 0:
	case S_IFREG:
		*type = S_IFREG;
		return 0;
	case S_IFCHR:
		if (in->size == NFS2_NONE) {
			*type = S_IFIFO;
			return 0;
		}
		/* fall through */
	case S_IFBLK:
		*type = t;
		*rdev = in->size == NFS2_NONE ? 0 : dev_from_wire(in->size);
		return 0;
	case S_IFIFO:
	case S_IFSOCK:
		*type = t;
		return 0;
	}
	return EINVAL;	/* directories and symlinks have procedures of their own */
}

static int
create_file(struct fs_ctx *dir, const char *name, const struct fs_sattr *sa,
    struct fs_ctx *child, struct stat *st)
{
	static const uint8_t no_verf[FS_VERF_LEN];
	struct fs_sattr size_only = { 0 };
	int err = fs_create(dir, name, FS_CREATE_GUARDED, sa, no_verf, child, st);

	if (err != EEXIST)
		return err;
	/*
	 * v2 has no exclusive create (clients LOOKUP first): an existing
	 * regular file is reused and only its size changes, so that creat()
	 * truncates, as with knfsd.
	 */
	if (sa->set & FS_SET_SIZE) {
		size_only.set = FS_SET_SIZE;
		size_only.size = sa->size;
	}
	return fs_create(dir, name, FS_CREATE_UNCHECKED, &size_only, no_verf, child, st);
}

static void
nfs2_create(struct rpc_call *call, void *argp, void *resp)
{
	createargs *a = argp;
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa;
	struct stat st;
	sattr attrs = a->attributes;
	mode_t type = S_IFREG;
	dev_t rdev = 0;
	int err = begin(call, &a->where.dir, &dir);

	if (err == 0)
		err = create_type(&attrs, &type, &rdev);
	if (type != S_IFREG)
		attrs.size = NFS2_NONE;	/* it was the device number, not a size */
	if (err == 0)
		err = sattr_from2(&attrs, &sa);
	if (err == 0)
		err = type == S_IFREG ? create_file(&dir, a->where.name, &sa, &child, &st) :
		    fs_mknod(&dir, a->where.name, type, rdev, &sa, &child, &st);
	diropres_fill(call, resp, err, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs2_mkdir(struct rpc_call *call, void *argp, void *resp)
{
	createargs *a = argp;
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa;
	struct stat st;
	int err = begin(call, &a->where.dir, &dir);

	if (err == 0)
		err = sattr_from2(&a->attributes, &sa);
	sa.set &= ~FS_SET_SIZE;	/* a directory has no size to set (knfsd drops it too) */
	if (err == 0)
		err = fs_mkdir(&dir, a->where.name, &sa, &child, &st);
	diropres_fill(call, resp, err, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs2_symlink(struct rpc_call *call, void *argp, void *resp)
{
	symlinkargs *a = argp;
	nfsstat *r = resp;
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa;
	struct stat st;
	int err = begin(call, &a->from.dir, &dir);

	if (err == 0)
		err = sattr_from2(&a->attributes, &sa);
	sa.set &= ~(FS_SET_SIZE | FS_SET_MODE);	/* Linux symlinks have neither */
	if (err == 0)
		err = fs_symlink(&dir, a->from.name, a->to, &sa, &child, &st);
	*r = st2(call, err);
	fs_end(&child);
	fs_end(&dir);
}

/* REMOVE and RMDIR: the same arguments and result. */
static void
nfs2_remove(struct rpc_call *call, void *argp, void *resp)
{
	diropargs *a = argp;
	struct fs_ctx dir;
	int err = begin(call, &a->dir, &dir);

	if (err == 0)
		err = call->proc == NFSPROC_RMDIR ? fs_rmdir(&dir, a->name) : fs_remove(&dir, a->name);
	*(nfsstat *)resp = st2(call, err);
	fs_end(&dir);
}

static void
nfs2_rename(struct rpc_call *call, void *argp, void *resp)
{
	renameargs *a = argp;
	struct fs_ctx from, to = { 0 };
	int err = begin(call, &a->from.dir, &from);

	if (err == 0)
		err = begin(call, &a->to.dir, &to);
	if (err == 0)
		err = fs_rename(&from, a->from.name, &to, a->to.name);
	*(nfsstat *)resp = st2(call, err);
	fs_end(&to);
	fs_end(&from);
}

static void
nfs2_link(struct rpc_call *call, void *argp, void *resp)
{
	linkargs *a = argp;
	struct fs_ctx file, dir = { 0 };
	int err = begin(call, &a->from, &file);

	if (err == 0)
		err = begin(call, &a->to.dir, &dir);
	if (err == 0)
		err = fs_link(&file, &dir, a->to.name);
	*(nfsstat *)resp = st2(call, err);
	fs_end(&dir);
	fs_end(&file);
}

struct rd2_fill {
	struct rpc_call *call;
	const struct fh *dirfh;
	size_t room;		/* bytes left in the reply */
	unsigned n;
	int err;
	entry *head, **tailp;
};

static int
rd2_take(void *arg, const struct fs_dirent *d)
{
	struct rd2_fill *f = arg;
	size_t need = XDR_ENTRY2_FIXED + xdr_strlen(d->namelen);
	uint32_t cookie;
	entry *e;
	char *name;

	if (d->namelen > NFS_MAXNAMLEN)
		return 0;	/* unrepresentable: skipped rather than truncated */
	if (need > f->room)
		return 1;
	e = call_alloc(f->call, sizeof(*e));
	name = call_alloc(f->call, d->namelen + 1);
	if (e == NULL || name == NULL ||
	    cookie2_from_pos(f->dirfh->export_id, f->dirfh->ino, d->cookie, &cookie) < 0) {
		f->err = ENOMEM;
		return 1;
	}
	e->fileid = (u_int)d->ino;
	memcpy(name, d->name, d->namelen);
	e->name = name;
	be32_put((uint8_t *)e->cookie, cookie);
	*f->tailp = e;
	f->tailp = &e->nextentry;
	f->room -= need;
	f->n++;
	return 0;
}

static int
readdir2(struct rpc_call *call, struct fs_ctx *dir, const nfscookie wire, size_t count,
    dirlist *out)
{
	const struct fh *dirfh = fs_handle(dir);
	struct rd2_fill f = { .call = call, .dirfh = dirfh };
	uint32_t cookie = be32_get((const uint8_t *)wire);
	uint64_t pos;
	int eof, err;

	/*
	 * A translated cookie this server no longer knows (restart, or
	 * COOKIE2_SLOTS newer ones since): v2 has no BAD_COOKIE, and starting
	 * over would show entries twice, so say the argument is invalid.
	 */
	if (cookie2_to_pos(dirfh->export_id, dirfh->ino, cookie, &pos) < 0) {
		log_debug("xid %08x: READDIR cookie %08x unknown", call->xid, cookie);
		return EINVAL;
	}
	if (count > NFS_MAXDATA)
		count = NFS_MAXDATA;
	if (count <= XDR_READDIR2_OVERHEAD)
		return EINVAL;
	f.room = count - XDR_READDIR2_OVERHEAD;
	f.tailp = &f.head;
	err = fs_readdir(dir, pos, rd2_take, &f, &eof);
	if (err == 0)
		err = f.err;
	if (err == 0 && f.n == 0 && !eof)
		err = EINVAL;	/* not even one entry fits in count */
	if (err)
		return err;
	out->entries = f.head;
	out->eof = eof;
	return 0;
}

static void
nfs2_readdir(struct rpc_call *call, void *argp, void *resp)
{
	readdirargs *a = argp;
	readdirres *r = resp;
	struct fs_ctx dir;
	int err = begin(call, &a->dir, &dir);

	if (err == 0)
		err = readdir2(call, &dir, a->cookie, a->count, &r->readdirres_u.reply);
	r->status = st2(call, err);
	fs_end(&dir);
}

static void
nfs2_statfs(struct rpc_call *call, void *argp, void *resp)
{
	statfsres *r = resp;
	statfsokres *ok = &r->statfsres_u.reply;
	struct fs_ctx ctx;
	struct statvfs sv;
	int err = begin(call, argp, &ctx);

	if (err == 0)
		err = fs_statfs(&ctx, &sv);
	if (err == 0) {
		uint64_t bsize = sv.f_frsize ? sv.f_frsize : sv.f_bsize;
		uint64_t blocks = sv.f_blocks, bfree = sv.f_bfree, bavail = sv.f_bavail;

		/* Counts are 32-bit: a bigger file system reports bigger blocks. */
		while (blocks > UINT32_MAX && bsize < UINT32_MAX / 2) {
			bsize *= 2;
			blocks /= 2;
			bfree /= 2;
			bavail /= 2;
		}
		ok->tsize = NFS_MAXDATA;
		ok->bsize = (u_int)bsize;
		ok->blocks = clamp32(blocks, UINT32_MAX);
		ok->bfree = clamp32(bfree, UINT32_MAX);
		ok->bavail = clamp32(bavail, UINT32_MAX);
	}
	r->status = st2(call, err);
	fs_end(&ctx);
}

const struct rpc_proc nfs2_procs[NFS2_NPROCS] = {
	[NFSPROC_NULL] = RPC_PROC_NULL("NULL"),
	[NFSPROC_GETATTR] = NFS_PROC("GETATTR", nfs_fh, attrstat, nfs2_getattr),
	[NFSPROC_SETATTR] = NFS_PROC_ONCE("SETATTR", sattrargs, attrstat, nfs2_setattr),
	[NFSPROC_ROOT] = RPC_PROC_NULL("ROOT"),
	[NFSPROC_LOOKUP] = NFS_PROC("LOOKUP", diropargs, diropres, nfs2_lookup),
	[NFSPROC_READLINK] = NFS_PROC("READLINK", nfs_fh, readlinkres, nfs2_readlink),
	[NFSPROC_READ] = NFS_PROC_IO("READ", readargs, readres, nfs2_read),
	[NFSPROC_WRITECACHE] = RPC_PROC_NULL("WRITECACHE"),
	[NFSPROC_WRITE] = NFS_PROC_ONCE("WRITE", writeargs, attrstat, nfs2_write),
	[NFSPROC_CREATE] = NFS_PROC_ONCE("CREATE", createargs, diropres, nfs2_create),
	[NFSPROC_REMOVE] = NFS_PROC_ONCE("REMOVE", diropargs, nfsstat, nfs2_remove),
	[NFSPROC_RENAME] = NFS_PROC_ONCE("RENAME", renameargs, nfsstat, nfs2_rename),
	[NFSPROC_LINK] = NFS_PROC_ONCE("LINK", linkargs, nfsstat, nfs2_link),
	[NFSPROC_SYMLINK] = NFS_PROC_ONCE("SYMLINK", symlinkargs, nfsstat, nfs2_symlink),
	[NFSPROC_MKDIR] = NFS_PROC_ONCE("MKDIR", createargs, diropres, nfs2_mkdir),
	[NFSPROC_RMDIR] = NFS_PROC_ONCE("RMDIR", diropargs, nfsstat, nfs2_remove),
	[NFSPROC_READDIR] = NFS_PROC_IO("READDIR", readdirargs, readdirres, nfs2_readdir),
	[NFSPROC_STATFS] = NFS_PROC("STATFS", nfs_fh, statfsres, nfs2_statfs),
};
