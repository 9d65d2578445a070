/*
 * NFSv3 procedures (RFC 1813). Each handler resolves its handles through
 * fsops, does the work there, and fills the rpcgen result structure; no
 * system call on a file and no errno-to-status rule of its own (errmap.c)
 * here. Memory for results comes from the call's arena and is released
 * after the reply is sent. The table's macros are rpcproc.h's.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "compiler.h"
#include "rpc/dispatch.h"
#include "access.h"
#include "errmap.h"
#include "fs/fsops.h"
#include "nfs3_attr.h"
#include "nfs2.h"
#include "nfs3.h"
#include "rpc/nfs3_prot.h"
#include "rpc/rpcproc.h"
#include "rpc/transport.h"
#include "rpc/xdr_inplace.h"

/* Encoded sizes, for fitting READDIR replies into the client's count. */
#define XDR_POST_OP_ATTR (4 + 84)
#define XDR_READDIR_OVERHEAD (4 + XDR_POST_OP_ATTR + 8 + 4 + 4)

static nfsstat3
st3(int err)
{
	return errno_to_nfs3(err);
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
		err = set_fh3(call, fs_handle(&child), &r->LOOKUP3res_u.resok.object);
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
	struct stat st;
	int isdir, err = begin(call, &a->object, &ctx);

	if (err == 0) {
		isdir = fs_is_dir(&ctx);
		if (a->access & ACCESS3_READ)
			want |= ACC_READ;
		if (a->access & (ACCESS3_MODIFY | ACCESS3_EXTEND | ACCESS3_DELETE))
			want |= ACC_WRITE;
		if (a->access & (ACCESS3_LOOKUP | ACCESS3_EXECUTE))
			want |= ACC_EXEC;
		err = fs_access(&ctx, want, &got, &st);
		if (got & ACC_READ)
			granted |= ACCESS3_READ;
		if (got & ACC_WRITE)
			granted |= ACCESS3_MODIFY | ACCESS3_EXTEND | (isdir ? ACCESS3_DELETE : 0);
		if (got & ACC_EXEC)
			granted |= isdir ? ACCESS3_LOOKUP : ACCESS3_EXECUTE;
		r->ACCESS3res_u.resok.access = granted & a->access;
	}
	r->status = st3(err);
	if (err == 0)
		post_attr_stat(&ctx, &st, &r->ACCESS3res_u.resok.obj_attributes);
	else
		post_attr(&ctx, &r->ACCESS3res_u.resfail.obj_attributes);
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
	struct stat st;
	void *buf;

	/* Never more than the transport carries, whatever the client asked. */
	if (count > req_max_payload(call->req))
		count = req_max_payload(call->req);
	buf = call_databuf(call, count ? count : 1);
	if (err == 0 && buf == NULL)
		err = ENOMEM;
	if (err == 0)
		err = fs_read_reply(call, &ctx, a->offset, count, buf, &n, &eof, &st);
	r->status = st3(err);
	if (err == 0) {
		READ3resok *ok = &r->READ3res_u.resok;
		ok->count = (count3)n;
		ok->eof = eof;
		ok->data.data_len = (u_int)n;
		ok->data.data_val = buf;
		post_attr_stat(&ctx, &st, &ok->file_attributes);
	} else {
		post_attr(&ctx, &r->READ3res_u.resfail.file_attributes);
	}
	fs_end(&ctx);
}

/* ---- modifying procedures ---- */

static void
sattr_from3(const sattr3 *in, struct fs_sattr *out)
{
	memset(out, 0, sizeof(*out));
	if (in->mode.set_it) {
		out->set |= FS_SET_MODE;
		out->mode = in->mode.set_mode3_u.mode;
	}
	if (in->uid.set_it) {
		out->set |= FS_SET_UID;
		out->uid = in->uid.set_uid3_u.uid;
	}
	if (in->gid.set_it) {
		out->set |= FS_SET_GID;
		out->gid = in->gid.set_gid3_u.gid;
	}
	if (in->size.set_it) {
		out->set |= FS_SET_SIZE;
		out->size = in->size.set_size3_u.size;
	}
	if (in->atime.set_it != DONT_CHANGE) {
		out->set |= FS_SET_ATIME;
		if (in->atime.set_it == SET_TO_SERVER_TIME) {
			out->atime.tv_nsec = UTIME_NOW;
		} else {
			out->atime.tv_sec = in->atime.set_atime_u.atime.seconds;
			out->atime.tv_nsec = in->atime.set_atime_u.atime.nseconds;
		}
	}
	if (in->mtime.set_it != DONT_CHANGE) {
		out->set |= FS_SET_MTIME;
		if (in->mtime.set_it == SET_TO_SERVER_TIME) {
			out->mtime.tv_nsec = UTIME_NOW;
		} else {
			out->mtime.tv_sec = in->mtime.set_mtime_u.mtime.seconds;
			out->mtime.tv_nsec = in->mtime.set_mtime_u.mtime.nseconds;
		}
	}
}

static int
valid_sattr3(const sattr3 *in)
{
	/* Nanoseconds past a second are not a time. */
	return !((in->atime.set_it == SET_TO_CLIENT_TIME &&
	    in->atime.set_atime_u.atime.nseconds >= 1000000000u) ||
	    (in->mtime.set_it == SET_TO_CLIENT_TIME &&
	    in->mtime.set_mtime_u.mtime.nseconds >= 1000000000u));
}

static void
nfs3_setattr(struct rpc_call *call, void *argp, void *resp)
{
	SETATTR3args *a = argp;
	SETATTR3res *r = resp;
	struct fs_ctx ctx;
	struct fs_sattr sa;
	struct timespec guard;
	wcc_data *wcc = &r->SETATTR3res_u.resok.obj_wcc;	/* same place in resfail */
	struct stat before;
	int err = begin(call, &a->object, &ctx), berr;

	if (err == 0 && !valid_sattr3(&a->new_attributes))
		err = EINVAL;
	/* The guard is checked against the pre-op attributes the reply carries. */
	berr = wcc_pre_st(&ctx, &wcc->before, &before);
	if (err == 0)
		err = berr;
	if (err == 0) {
		sattr_from3(&a->new_attributes, &sa);
		guard.tv_sec = a->guard.sattrguard3_u.obj_ctime.seconds;
		guard.tv_nsec = a->guard.sattrguard3_u.obj_ctime.nseconds;
		err = fs_setattr(&ctx, &before, &sa, a->guard.check ? &guard : NULL);
	}
	r->status = st3(err);
	post_attr(&ctx, &wcc->after);
	fs_end(&ctx);
}

/* WRITE arguments with the data left in the request (rpc/xdr_inplace.h). */
typedef WRITE3args WRITE3args_inplace;

static bool_t
xdr_WRITE3args_inplace(XDR *x, WRITE3args *a)
{
	if (x->x_op == XDR_FREE) {
		a->data.data_val = NULL;	/* the request's, not ours */
		a->data.data_len = 0;
		return xdr_WRITE3args(x, a);
	}
	if (x->x_op != XDR_DECODE)
		return xdr_WRITE3args(x, a);
	return xdr_nfs_fh3(x, &a->file) && xdr_offset3(x, &a->offset) &&
	    xdr_count3(x, &a->count) && xdr_stable_how(x, &a->stable) &&
	    xdr_opaque_inplace(x, &a->data.data_val, &a->data.data_len, NFS3_MAXDATA);
}

static void
nfs3_write(struct rpc_call *call, void *argp, void *resp)
{
	WRITE3args *a = argp;
	WRITE3res *r = resp;
	struct fs_ctx ctx;
	size_t n = 0;
	enum fs_stable committed = FS_FILE_SYNC;
	wcc_data *wcc = &r->WRITE3res_u.resok.file_wcc;	/* same place in resfail */
	struct stat before;
	int err = begin(call, &a->file, &ctx), berr;

	/*
	 * RFC 1813: count bytes are written (0: none, and success), so the
	 * data must hold at least that many; what it carries beyond is not
	 * written, as with knfsd.
	 */
	if (err == 0 && a->count > a->data.data_len)
		err = EINVAL;
	if (err == 0 && a->stable > FILE_SYNC)
		err = EINVAL;
	/* The pre-op attributes are the ones fs_write checks: one stat for both. */
	berr = wcc_pre_st(&ctx, &wcc->before, &before);
	if (err == 0)
		err = berr;
	if (err == 0)
		err = fs_write(&ctx, &before, a->offset, a->data.data_val, a->count,
		    (enum fs_stable)a->stable, &n, &committed);
	r->status = st3(err);
	if (err == 0) {
		WRITE3resok *ok = &r->WRITE3res_u.resok;
		ok->count = (count3)n;
		ok->committed = (stable_how)committed;
		fs_write_verifier((uint8_t *)ok->verf);
	}
	post_attr(&ctx, &wcc->after);
	fs_end(&ctx);
}

static void
nfs3_commit(struct rpc_call *call, void *argp, void *resp)
{
	COMMIT3args *a = argp;
	COMMIT3res *r = resp;
	struct fs_ctx ctx;
	wcc_data *wcc = &r->COMMIT3res_u.resok.file_wcc;	/* same place in resfail */
	int err = begin(call, &a->file, &ctx);

	wcc_pre(&ctx, &wcc->before);
	if (err == 0)
		err = fs_commit(&ctx);
	r->status = st3(err);
	if (err == 0)
		fs_write_verifier((uint8_t *)r->COMMIT3res_u.resok.verf);
	post_attr(&ctx, &wcc->after);
	fs_end(&ctx);
}

/* The common shape of CREATE, MKDIR, SYMLINK and MKNOD results. */
struct diropres {
	nfsstat3 *status;
	post_op_fh3 *obj;
	post_op_attr *obj_attributes;
	wcc_data *ok_wcc, *fail_wcc;
};

static void
diropres_fill(struct rpc_call *call, const struct diropres *d, int err, struct fs_ctx *dir,
    const pre_op_attr *pre, struct fs_ctx *child, const struct stat *st)
{
	wcc_data *wcc;

	*d->status = st3(err);
	wcc = err ? d->fail_wcc : d->ok_wcc;
	wcc->before = *pre;
	post_attr(dir, &wcc->after);
	if (err)
		return;
	if (set_fh3(call, fs_handle(child), &d->obj->post_op_fh3_u.handle) == 0)
		d->obj->handle_follows = TRUE;
	post_attr_stat(child, st, d->obj_attributes);
}

#define DIROPRES(r, T) { &(r)->status, &(r)->T##_u.resok.obj, \
	&(r)->T##_u.resok.obj_attributes, &(r)->T##_u.resok.dir_wcc, &(r)->T##_u.resfail.dir_wcc }

static void
nfs3_create(struct rpc_call *call, void *argp, void *resp)
{
	CREATE3args *a = argp;
	CREATE3res *r = resp;
	struct diropres d = DIROPRES(r, CREATE3res);
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa = { 0 };
	struct stat st;
	pre_op_attr pre = { 0 };
	enum fs_createmode how = FS_CREATE_UNCHECKED;
	int err = begin(call, &a->where.dir, &dir);

	if (a->how.mode == EXCLUSIVE) {
		how = FS_CREATE_EXCLUSIVE;
	} else {
		how = a->how.mode == GUARDED ? FS_CREATE_GUARDED : FS_CREATE_UNCHECKED;
		if (err == 0 && !valid_sattr3(&a->how.createhow3_u.obj_attributes))
			err = EINVAL;
		sattr_from3(&a->how.createhow3_u.obj_attributes, &sa);
	}
	wcc_pre(&dir, &pre);
	if (err == 0)
		err = fs_create(&dir, a->where.name, how, &sa,
		    (const uint8_t *)a->how.createhow3_u.verf, &child, &st);
	diropres_fill(call, &d, err, &dir, &pre, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs3_mkdir(struct rpc_call *call, void *argp, void *resp)
{
	MKDIR3args *a = argp;
	MKDIR3res *r = resp;
	struct diropres d = DIROPRES(r, MKDIR3res);
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa;
	struct stat st;
	pre_op_attr pre = { 0 };
	int err = begin(call, &a->where.dir, &dir);

	if (err == 0 && !valid_sattr3(&a->attributes))
		err = EINVAL;
	sattr_from3(&a->attributes, &sa);
	wcc_pre(&dir, &pre);
	if (err == 0)
		err = fs_mkdir(&dir, a->where.name, &sa, &child, &st);
	diropres_fill(call, &d, err, &dir, &pre, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs3_symlink(struct rpc_call *call, void *argp, void *resp)
{
	SYMLINK3args *a = argp;
	SYMLINK3res *r = resp;
	struct diropres d = DIROPRES(r, SYMLINK3res);
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa;
	struct stat st;
	pre_op_attr pre = { 0 };
	int err = begin(call, &a->where.dir, &dir);

	if (err == 0 && !valid_sattr3(&a->symlink.symlink_attributes))
		err = EINVAL;
	sattr_from3(&a->symlink.symlink_attributes, &sa);
	wcc_pre(&dir, &pre);
	if (err == 0)
		err = fs_symlink(&dir, a->where.name, a->symlink.symlink_data, &sa, &child, &st);
	diropres_fill(call, &d, err, &dir, &pre, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

static void
nfs3_mknod(struct rpc_call *call, void *argp, void *resp)
{
	MKNOD3args *a = argp;
	MKNOD3res *r = resp;
	struct diropres d = DIROPRES(r, MKNOD3res);
	struct fs_ctx dir, child = { 0 };
	struct fs_sattr sa = { 0 };
	struct stat st;
	pre_op_attr pre = { 0 };
	mode_t type = 0;
	dev_t rdev = 0;
	const sattr3 *attrs = NULL;
	int err = begin(call, &a->where.dir, &dir);

	switch (a->what.type) {
	case NF3CHR:
	case NF3BLK:
		type = a->what.type == NF3CHR ? S_IFCHR : S_IFBLK;
		attrs = &a->what.mknoddata3_u.device.dev_attributes;
		rdev = makedev(a->what.mknoddata3_u.device.spec.specdata1,
		    a->what.mknoddata3_u.device.spec.specdata2);
		break;
	case NF3SOCK:
	case NF3FIFO:
		type = a->what.type == NF3SOCK ? S_IFSOCK : S_IFIFO;
		attrs = &a->what.mknoddata3_u.pipe_attributes;
		break;
	default:
		if (err == 0)
			err = EBADTYPE;
		break;
	}
	if (attrs) {
		if (err == 0 && !valid_sattr3(attrs))
			err = EINVAL;
		sattr_from3(attrs, &sa);
	}
	wcc_pre(&dir, &pre);
	if (err == 0)
		err = fs_mknod(&dir, a->where.name, type, rdev, &sa, &child, &st);
	diropres_fill(call, &d, err, &dir, &pre, &child, &st);
	fs_end(&child);
	fs_end(&dir);
}

/* REMOVE and RMDIR: RMDIR3args/res have exactly REMOVE3's shape. */
static void
nfs3_remove(struct rpc_call *call, void *argp, void *resp)
{
	REMOVE3args *a = argp;
	REMOVE3res *r = resp;
	struct fs_ctx dir;
	wcc_data *wcc = &r->REMOVE3res_u.resok.dir_wcc;	/* same place in resfail */
	int err = begin(call, &a->object.dir, &dir);

	wcc_pre(&dir, &wcc->before);
	if (err == 0)
		err = call->proc == NFSPROC3_RMDIR ? fs_rmdir(&dir, a->object.name)
		    : fs_remove(&dir, a->object.name);
	r->status = st3(err);
	post_attr(&dir, &wcc->after);
	fs_end(&dir);
}

static void
nfs3_rename(struct rpc_call *call, void *argp, void *resp)
{
	RENAME3args *a = argp;
	RENAME3res *r = resp;
	struct fs_ctx from, to = { 0 };
	RENAME3resok *w = &r->RENAME3res_u.resok;	/* same layout as resfail */
	int err = begin(call, &a->from.dir, &from);

	if (err == 0)
		err = begin(call, &a->to.dir, &to);
	wcc_pre(&from, &w->fromdir_wcc.before);
	wcc_pre(&to, &w->todir_wcc.before);
	if (err == 0)
		err = fs_rename(&from, a->from.name, &to, a->to.name);
	r->status = st3(err);
	post_attr(&from, &w->fromdir_wcc.after);
	post_attr(&to, &w->todir_wcc.after);
	fs_end(&to);
	fs_end(&from);
}

static void
nfs3_link(struct rpc_call *call, void *argp, void *resp)
{
	LINK3args *a = argp;
	LINK3res *r = resp;
	struct fs_ctx file, dir = { 0 };
	LINK3resok *w = &r->LINK3res_u.resok;	/* same layout as resfail */
	int err = begin(call, &a->file, &file);

	if (err == 0)
		err = begin(call, &a->link.dir, &dir);
	wcc_pre(&dir, &w->linkdir_wcc.before);
	if (err == 0)
		err = fs_link(&file, &dir, a->link.name);
	r->status = st3(err);
	post_attr(&file, &w->file_attributes);
	post_attr(&dir, &w->linkdir_wcc.after);
	fs_end(&dir);
	fs_end(&file);
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
		if (fs_dirent_info(f->dir, d->name, d->ino, &st, &fh) == 0) {
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
		return ETOOSMALL;
	f.room = maxcount - XDR_READDIR_OVERHEAD;
	f.dirroom = dircount ? dircount : maxcount;
	f.tailp = &f.head;
	err = fs_readdir(dir, cookie, rd_take, &f, &eof);
	if (err)
		return err;
	if (f.n == 0 && !eof)
		return ETOOSMALL;
	*entries = f.head;
	*eofp = eof;
	return 0;
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
	r->status = st3(err);
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
	r->status = st3(err);
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
		struct fs_pathconf pc;

		fs_pathconf(&ctx, &pc);
		ok->linkmax = pc.link_max > 0 ? (uint32)pc.link_max : 1;
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

const struct rpc_proc nfs3_procs[NFS3_NPROCS] = {
	[NFSPROC3_NULL] = RPC_PROC_NULL("NULL"),
	[NFSPROC3_GETATTR] = NFS_PROC("GETATTR", GETATTR3args, GETATTR3res, nfs3_getattr),
	[NFSPROC3_SETATTR] = NFS_PROC_ONCE("SETATTR", SETATTR3args, SETATTR3res, nfs3_setattr),
	[NFSPROC3_LOOKUP] = NFS_PROC("LOOKUP", LOOKUP3args, LOOKUP3res, nfs3_lookup),
	[NFSPROC3_ACCESS] = NFS_PROC("ACCESS", ACCESS3args, ACCESS3res, nfs3_access),
	[NFSPROC3_READLINK] = NFS_PROC("READLINK", READLINK3args, READLINK3res, nfs3_readlink),
	[NFSPROC3_READ] = NFS_PROC_IO("READ", READ3args, READ3res, nfs3_read),
	[NFSPROC3_WRITE] = NFS_PROC_ONCE("WRITE", WRITE3args_inplace, WRITE3res, nfs3_write),
	[NFSPROC3_CREATE] = NFS_PROC_ONCE("CREATE", CREATE3args, CREATE3res, nfs3_create),
	[NFSPROC3_MKDIR] = NFS_PROC_ONCE("MKDIR", MKDIR3args, MKDIR3res, nfs3_mkdir),
	[NFSPROC3_SYMLINK] = NFS_PROC_ONCE("SYMLINK", SYMLINK3args, SYMLINK3res, nfs3_symlink),
	[NFSPROC3_MKNOD] = NFS_PROC_ONCE("MKNOD", MKNOD3args, MKNOD3res, nfs3_mknod),
	[NFSPROC3_REMOVE] = NFS_PROC_ONCE("REMOVE", REMOVE3args, REMOVE3res, nfs3_remove),
	[NFSPROC3_RMDIR] = NFS_PROC_ONCE("RMDIR", RMDIR3args, RMDIR3res, nfs3_remove),
	[NFSPROC3_RENAME] = NFS_PROC_ONCE("RENAME", RENAME3args, RENAME3res, nfs3_rename),
	[NFSPROC3_LINK] = NFS_PROC_ONCE("LINK", LINK3args, LINK3res, nfs3_link),
	[NFSPROC3_READDIR] = NFS_PROC_IO("READDIR", READDIR3args, READDIR3res, nfs3_readdir),
	[NFSPROC3_READDIRPLUS] = NFS_PROC_IO("READDIRPLUS", READDIRPLUS3args, READDIRPLUS3res,
	    nfs3_readdirplus),
	[NFSPROC3_FSSTAT] = NFS_PROC("FSSTAT", FSSTAT3args, FSSTAT3res, nfs3_fsstat),
	[NFSPROC3_FSINFO] = NFS_PROC("FSINFO", FSINFO3args, FSINFO3res, nfs3_fsinfo),
	[NFSPROC3_PATHCONF] = NFS_PROC("PATHCONF", PATHCONF3args, PATHCONF3res, nfs3_pathconf),
	[NFSPROC3_COMMIT] = NFS_PROC_IO("COMMIT", COMMIT3args, COMMIT3res, nfs3_commit),
};
