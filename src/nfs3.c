/*
 * NFSv3 procedures. Each handler resolves its handles through fsops, does
 * the work there, and fills the rpcgen result structure; memory for results
 * comes from the call's arena and is released after the reply is sent.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "compiler.h"
#include "dispatch.h"
#include "errmap.h"
#include "exports.h"
#include "fsops.h"
#include "icache.h"
#include "nfs3.h"
#include "nfs3_prot.h"
#include "transport.h"

/* Encoded sizes, for fitting READDIR replies into the client's count. */
#define XDR_POST_OP_ATTR (4 + 84)
#define XDR_READDIR_OVERHEAD (4 + XDR_POST_OP_ATTR + 8 + 4 + 4)

static nfsstat3
st3(int err)
{
	return errno_to_nfs3(err);
}

/* ---- attributes ---- */

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

static void
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
	/* The export id, not st_dev: it must not change across reboots. */
	fa->fsid = ctx->exp->id;
	fa->fileid = st->st_ino;
	fa->atime.seconds = (uint32)st->st_atim.tv_sec;
	fa->atime.nseconds = (uint32)st->st_atim.tv_nsec;
	fa->mtime.seconds = (uint32)st->st_mtim.tv_sec;
	fa->mtime.nseconds = (uint32)st->st_mtim.tv_nsec;
	fa->ctime.seconds = (uint32)st->st_ctim.tv_sec;
	fa->ctime.nseconds = (uint32)st->st_ctim.tv_nsec;
}

static void
post_attr_stat(const struct fs_ctx *ctx, const struct stat *st, post_op_attr *pa)
{
	pa->attributes_follow = TRUE;
	fattr3_from_stat(ctx, st, &pa->post_op_attr_u.attributes);
}

/* Attributes of ctx's object if they can be had; absent otherwise (never an error). */
static void
post_attr(struct fs_ctx *ctx, post_op_attr *pa)
{
	struct stat st;

	pa->attributes_follow = FALSE;
	if (ctx->ent && fs_getattr(ctx, &st) == 0)
		post_attr_stat(ctx, &st, pa);
}

static int
set_fh3(struct rpc_call *call, const struct fh *fh, nfs_fh3 *out)
{
	uint8_t *buf = call_alloc(call, FH3_MAXLEN);
	size_t len;

	if (buf == NULL)
		return ENOMEM;
	len = fh_encode(fh, buf, FH3_MAXLEN);
	if (len == 0)
		return EINVAL;
	out->data.data_val = (char *)buf;
	out->data.data_len = (u_int)len;
	return 0;
}

static int
begin(struct rpc_call *call, const nfs_fh3 *h, struct fs_ctx *ctx)
{
	return fs_begin(call, h->data.data_val, h->data.data_len, ctx);
}

/* ---- procedures ---- */

static void
nfs3_null(struct rpc_call *call, void *args, void *res)
{
	(void)call; (void)args; (void)res;
}

static void
nfs3_getattr(struct rpc_call *call, void *argp, void *resp)
{
	GETATTR3args *a = argp;
	GETATTR3res *r = resp;
	struct fs_ctx ctx;
	struct stat st;
	int err = begin(call, &a->object, &ctx);

	if (err == 0)
		err = fs_getattr(&ctx, &st);
	if (err == 0)
		fattr3_from_stat(&ctx, &st, &r->GETATTR3res_u.resok.obj_attributes);
	r->status = st3(err);
	fs_end(&ctx);
}

static void
nfs3_lookup(struct rpc_call *call, void *argp, void *resp)
{
	LOOKUP3args *a = argp;
	LOOKUP3res *r = resp;
	struct fs_ctx dir, child = { 0 };
	struct stat st;
	int err = begin(call, &a->what.dir, &dir);

	if (err == 0)
		err = fs_lookup(&dir, a->what.name, &child, &st);
	if (err == 0)
		err = set_fh3(call, &child.ent->fh, &r->LOOKUP3res_u.resok.object);
	r->status = st3(err);
	if (err == 0) {
		post_attr_stat(&child, &st, &r->LOOKUP3res_u.resok.obj_attributes);
		post_attr(&dir, &r->LOOKUP3res_u.resok.dir_attributes);
	} else {
		post_attr(&dir, &r->LOOKUP3res_u.resfail.dir_attributes);
	}
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs3_access(struct rpc_call *call, void *argp, void *resp)
{
	ACCESS3args *a = argp;
	ACCESS3res *r = resp;
	struct fs_ctx ctx;
	unsigned want = 0, got = 0;
	uint32 granted = 0;
	int isdir, err = begin(call, &a->object, &ctx);

	if (err == 0) {
		isdir = ctx.ent->type == S_IFDIR;
		if (a->access & ACCESS3_READ)
			want |= ACC_READ;
		if (a->access & (ACCESS3_MODIFY | ACCESS3_EXTEND | ACCESS3_DELETE))
			want |= ACC_WRITE;
		if (a->access & (ACCESS3_LOOKUP | ACCESS3_EXECUTE))
			want |= ACC_EXEC;
		err = fs_access(&ctx, want, &got);
		if (got & ACC_READ)
			granted |= ACCESS3_READ;
		if (got & ACC_WRITE)
			granted |= ACCESS3_MODIFY | ACCESS3_EXTEND | (isdir ? ACCESS3_DELETE : 0);
		if (got & ACC_EXEC)
			granted |= isdir ? ACCESS3_LOOKUP : ACCESS3_EXECUTE;
		r->ACCESS3res_u.resok.access = granted & a->access;
	}
	r->status = st3(err);
	post_attr(&ctx, err ? &r->ACCESS3res_u.resfail.obj_attributes
	    : &r->ACCESS3res_u.resok.obj_attributes);
	fs_end(&ctx);
}

static void
nfs3_readlink(struct rpc_call *call, void *argp, void *resp)
{
	READLINK3args *a = argp;
	READLINK3res *r = resp;
	struct fs_ctx ctx;
	char *buf = call_alloc(call, NFS3_MAXPATHLEN + 1);
	size_t len;
	int err = begin(call, &a->symlink, &ctx);

	if (err == 0 && buf == NULL)
		err = ENOMEM;
	if (err == 0)
		err = fs_readlink(&ctx, buf, NFS3_MAXPATHLEN + 1, &len);
	if (err == 0)
		r->READLINK3res_u.resok.data = buf;
	r->status = st3(err);
	post_attr(&ctx, err ? &r->READLINK3res_u.resfail.symlink_attributes
	    : &r->READLINK3res_u.resok.symlink_attributes);
	fs_end(&ctx);
}

static void
nfs3_read(struct rpc_call *call, void *argp, void *resp)
{
	READ3args *a = argp;
	READ3res *r = resp;
	struct fs_ctx ctx;
	size_t count = a->count, n = 0;
	int eof = 0, err = begin(call, &a->file, &ctx);
	void *buf;

	/* Never more than the transport carries, whatever the client asked. */
	if (count > req_max_payload(call->req))
		count = req_max_payload(call->req);
	buf = call_databuf(call, count ? count : 1);
	if (err == 0 && buf == NULL)
		err = ENOMEM;
	if (err == 0)
		err = fs_read(&ctx, a->offset, count, buf, &n, &eof);
	r->status = st3(err);
	if (err == 0) {
		READ3resok *ok = &r->READ3res_u.resok;
		ok->count = (count3)n;
		ok->eof = eof;
		ok->data.data_len = (u_int)n;
		ok->data.data_val = buf;
		post_attr(&ctx, &ok->file_attributes);
	} else {
		post_attr(&ctx, &r->READ3res_u.resfail.file_attributes);
	}
	fs_end(&ctx);
}

/* Until the write path lands every modifying procedure is refused honestly. */
static void
nfs3_readonly(struct rpc_call *call, void *argp, void *resp)
{
	(void)call; (void)argp;
	*(nfsstat3 *)resp = NFS3ERR_ROFS;
}

static uint32_t
xdr_strlen(size_t n)
{
	return (uint32_t)((n + 3) & ~(size_t)3);
}

struct rd_fill {
	struct rpc_call *call;
	struct fs_ctx *dir;
	int plus;
	size_t room;		/* bytes left under maxcount */
	size_t dirroom;		/* READDIRPLUS: bytes left under dircount */
	unsigned n;
	void *head, **tailp;	/* entry3 or entryplus3 list */
};

static int
rd_take(void *arg, const struct fs_dirent *d)
{
	struct rd_fill *f = arg;
	size_t base = 4 + 8 + 4 + xdr_strlen(d->namelen) + 8, need = base;
	char *name;

	if (d->namelen > NFS3_MAXNAMLEN)
		return 0;	/* unrepresentable: skipped rather than truncated */
	if (f->plus) {
		struct stat st;
		struct fh fh;
		entryplus3 *e;

		need += XDR_POST_OP_ATTR + 4 + 4 + FH3_MAXLEN;
		if (need > f->room || base > f->dirroom)
			return 1;
		e = call_alloc(f->call, sizeof(*e));
		name = call_alloc(f->call, d->namelen + 1);
		if (e == NULL || name == NULL)
			return 1;
		if (fs_dirent_info(f->dir, d->name, &st, &fh) == 0) {
			post_attr_stat(f->dir, &st, &e->name_attributes);
			if (set_fh3(f->call, &fh, &e->name_handle.post_op_fh3_u.handle) == 0)
				e->name_handle.handle_follows = TRUE;
		}
		e->fileid = d->ino;
		e->cookie = d->cookie;
		memcpy(name, d->name, d->namelen);
		e->name = name;
		*f->tailp = e;
		f->tailp = (void **)&e->nextentry;
		f->dirroom -= base;
	} else {
		entry3 *e;

		if (need > f->room)
			return 1;
		e = call_alloc(f->call, sizeof(*e));
		name = call_alloc(f->call, d->namelen + 1);
		if (e == NULL || name == NULL)
			return 1;
		e->fileid = d->ino;
		e->cookie = d->cookie;
		memcpy(name, d->name, d->namelen);
		e->name = name;
		*f->tailp = e;
		f->tailp = (void **)&e->nextentry;
	}
	f->room -= need;
	f->n++;
	return 0;
}

static int
readdir_common(struct rpc_call *call, struct fs_ctx *dir, uint64_t cookie, size_t maxcount,
    size_t dircount, int plus, void **entries, bool_t *eofp)
{
	struct rd_fill f = { .call = call, .dir = dir, .plus = plus };
	size_t cap = req_max_payload(call->req);
	int eof, err;

	if (maxcount > cap)
		maxcount = cap;
	if (maxcount <= XDR_READDIR_OVERHEAD)
		return EOVERFLOW;	/* -> TOOSMALL below */
	f.room = maxcount - XDR_READDIR_OVERHEAD;
	f.dirroom = dircount ? dircount : maxcount;
	f.tailp = &f.head;
	err = fs_readdir(dir, cookie, rd_take, &f, &eof);
	if (err)
		return err;
	if (f.n == 0 && !eof)
		return EOVERFLOW;
	*entries = f.head;
	*eofp = eof;
	return 0;
}

static nfsstat3
readdir_status(int err)
{
	if (err == EOVERFLOW)
		return NFS3ERR_TOOSMALL;
	if (err == EINVAL)
		return NFS3ERR_BAD_COOKIE;
	return st3(err);
}

static void
nfs3_readdir(struct rpc_call *call, void *argp, void *resp)
{
	READDIR3args *a = argp;
	READDIR3res *r = resp;
	READDIR3resok *ok = &r->READDIR3res_u.resok;
	struct fs_ctx dir;
	void *entries = NULL;
	int err = begin(call, &a->dir, &dir);

	if (err == 0)
		err = readdir_common(call, &dir, a->cookie, a->count, 0, 0, &entries, &ok->reply.eof);
	r->status = readdir_status(err);
	if (err == 0) {
		ok->reply.entries = entries;
		/* Cookies are positions in the directory itself: they stay valid, so echo. */
		memcpy(ok->cookieverf, a->cookieverf, NFS3_COOKIEVERFSIZE);
		post_attr(&dir, &ok->dir_attributes);
	} else {
		post_attr(&dir, &r->READDIR3res_u.resfail.dir_attributes);
	}
	fs_end(&dir);
}

static void
nfs3_readdirplus(struct rpc_call *call, void *argp, void *resp)
{
	READDIRPLUS3args *a = argp;
	READDIRPLUS3res *r = resp;
	READDIRPLUS3resok *ok = &r->READDIRPLUS3res_u.resok;
	struct fs_ctx dir;
	void *entries = NULL;
	int err = begin(call, &a->dir, &dir);

	if (err == 0)
		err = readdir_common(call, &dir, a->cookie, a->maxcount, a->dircount, 1,
		    &entries, &ok->reply.eof);
	r->status = readdir_status(err);
	if (err == 0) {
		ok->reply.entries = entries;
		memcpy(ok->cookieverf, a->cookieverf, NFS3_COOKIEVERFSIZE);
		post_attr(&dir, &ok->dir_attributes);
	} else {
		post_attr(&dir, &r->READDIRPLUS3res_u.resfail.dir_attributes);
	}
	fs_end(&dir);
}

static void
nfs3_fsstat(struct rpc_call *call, void *argp, void *resp)
{
	FSSTAT3args *a = argp;
	FSSTAT3res *r = resp;
	struct fs_ctx ctx;
	struct statvfs sv;
	int err = begin(call, &a->fsroot, &ctx);

	if (err == 0)
		err = fs_statfs(&ctx, &sv);
	r->status = st3(err);
	if (err == 0) {
		FSSTAT3resok *ok = &r->FSSTAT3res_u.resok;
		ok->tbytes = (uint64)sv.f_blocks * sv.f_frsize;
		ok->fbytes = (uint64)sv.f_bfree * sv.f_frsize;
		ok->abytes = (uint64)sv.f_bavail * sv.f_frsize;
		ok->tfiles = sv.f_files;
		ok->ffiles = sv.f_ffree;
		ok->afiles = sv.f_favail;
		ok->invarsec = 0;
		post_attr(&ctx, &ok->obj_attributes);
	} else {
		post_attr(&ctx, &r->FSSTAT3res_u.resfail.obj_attributes);
	}
	fs_end(&ctx);
}

static void
nfs3_fsinfo(struct rpc_call *call, void *argp, void *resp)
{
	FSINFO3args *a = argp;
	FSINFO3res *r = resp;
	struct fs_ctx ctx;
	int err = begin(call, &a->fsroot, &ctx);
	uint32 max = (uint32)req_max_payload(call->req);

	r->status = st3(err);
	if (err == 0) {
		FSINFO3resok *ok = &r->FSINFO3res_u.resok;
		ok->rtmax = ok->rtpref = max;
		ok->wtmax = ok->wtpref = max;
		ok->rtmult = ok->wtmult = 4096;
		ok->dtpref = max < 65536 ? max : 65536;
		ok->maxfilesize = (uint64)INT64_MAX;
		ok->time_delta.seconds = 0;
		ok->time_delta.nseconds = 1;
		ok->properties = FSF3_LINK | FSF3_SYMLINK | FSF3_HOMOGENEOUS | FSF3_CANSETTIME;
		post_attr(&ctx, &ok->obj_attributes);
	} else {
		post_attr(&ctx, &r->FSINFO3res_u.resfail.obj_attributes);
	}
	fs_end(&ctx);
}

static void
nfs3_pathconf(struct rpc_call *call, void *argp, void *resp)
{
	PATHCONF3args *a = argp;
	PATHCONF3res *r = resp;
	struct fs_ctx ctx;
	int err = begin(call, &a->object, &ctx);

	r->status = st3(err);
	if (err == 0) {
		PATHCONF3resok *ok = &r->PATHCONF3res_u.resok;
		long linkmax = fpathconf(ctx.ent->fd, _PC_LINK_MAX);

		ok->linkmax = linkmax > 0 ? (uint32)linkmax : 1;
		ok->name_max = NFS3_MAXNAMLEN;
		ok->no_trunc = TRUE;
		ok->chown_restricted = TRUE;
		ok->case_insensitive = FALSE;
		ok->case_preserving = TRUE;
		post_attr(&ctx, &ok->obj_attributes);
	} else {
		post_attr(&ctx, &r->PATHCONF3res_u.resfail.obj_attributes);
	}
	fs_end(&ctx);
}

#define PROC(name, argt, rest, fn) \
	{ name, XDRPROC(xdr_##argt), sizeof(argt), XDRPROC(xdr_##rest), sizeof(rest), fn, PROC_AUTH_SYS }

static const struct rpc_proc nfs3_procs[] = {
	[NFSPROC3_NULL] = { "NULL", XDRPROC(xdr_void), 0, XDRPROC(xdr_void), 0, nfs3_null, 0 },
	[NFSPROC3_GETATTR] = PROC("GETATTR", GETATTR3args, GETATTR3res, nfs3_getattr),
	[NFSPROC3_SETATTR] = PROC("SETATTR", SETATTR3args, SETATTR3res, nfs3_readonly),
	[NFSPROC3_LOOKUP] = PROC("LOOKUP", LOOKUP3args, LOOKUP3res, nfs3_lookup),
	[NFSPROC3_ACCESS] = PROC("ACCESS", ACCESS3args, ACCESS3res, nfs3_access),
	[NFSPROC3_READLINK] = PROC("READLINK", READLINK3args, READLINK3res, nfs3_readlink),
	[NFSPROC3_READ] = PROC("READ", READ3args, READ3res, nfs3_read),
	[NFSPROC3_WRITE] = PROC("WRITE", WRITE3args, WRITE3res, nfs3_readonly),
	[NFSPROC3_CREATE] = PROC("CREATE", CREATE3args, CREATE3res, nfs3_readonly),
	[NFSPROC3_MKDIR] = PROC("MKDIR", MKDIR3args, MKDIR3res, nfs3_readonly),
	[NFSPROC3_SYMLINK] = PROC("SYMLINK", SYMLINK3args, SYMLINK3res, nfs3_readonly),
	[NFSPROC3_MKNOD] = PROC("MKNOD", MKNOD3args, MKNOD3res, nfs3_readonly),
	[NFSPROC3_REMOVE] = PROC("REMOVE", REMOVE3args, REMOVE3res, nfs3_readonly),
	[NFSPROC3_RMDIR] = PROC("RMDIR", RMDIR3args, RMDIR3res, nfs3_readonly),
	[NFSPROC3_RENAME] = PROC("RENAME", RENAME3args, RENAME3res, nfs3_readonly),
	[NFSPROC3_LINK] = PROC("LINK", LINK3args, LINK3res, nfs3_readonly),
	[NFSPROC3_READDIR] = PROC("READDIR", READDIR3args, READDIR3res, nfs3_readdir),
	[NFSPROC3_READDIRPLUS] = PROC("READDIRPLUS", READDIRPLUS3args, READDIRPLUS3res, nfs3_readdirplus),
	[NFSPROC3_FSSTAT] = PROC("FSSTAT", FSSTAT3args, FSSTAT3res, nfs3_fsstat),
	[NFSPROC3_FSINFO] = PROC("FSINFO", FSINFO3args, FSINFO3res, nfs3_fsinfo),
	[NFSPROC3_PATHCONF] = PROC("PATHCONF", PATHCONF3args, PATHCONF3res, nfs3_pathconf),
	[NFSPROC3_COMMIT] = PROC("COMMIT", COMMIT3args, COMMIT3res, nfs3_readonly),
};

static const struct rpc_version nfs_versions[] = {
	{ 3, nfs3_procs, ARRAY_SIZE(nfs3_procs) },
};

const struct rpc_program nfs_program = {
	NFS_PROGRAM_NUMBER, "NFS", nfs_versions, ARRAY_SIZE(nfs_versions),
};
