/*
 * NFSv4 READDIR (RFC 8881 18.23): the entries of the current directory,
 * a pseudo file system node or an export's directory, each with the
 * attributes asked for, as many as fit the client's maxcount. "." and
 * ".." are never listed (18.23.3). Cookies 0, 1 and 2 are reserved, so
 * an entry's cookie is the fs layer's plus 2: those are directory
 * offsets, below 2^63, so the sum never wraps.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "access.h"
#include "errmap.h"
#include "exports/exports.h"
#include "nfs4_attr.h"
#include "nfs4_ops.h"

#define COOKIE_BASE 2
/* resop, status, cookieverf, the list's final FALSE and eof. */
#define READDIR_OVERHEAD (4 + 4 + NFS4_VERIFIER_SIZE + 4 + 4)

struct fill {
	struct n4_compound *c;
	struct n4_obj *dir;
	const bitmap4 *want;
	int want_rdattr_error;
	size_t room;		/* of maxcount, for entries */
	size_t dirroom;		/* of dircount, for names and cookies (SIZE_MAX: no limit) */
	entry4 *head, **tail;
	unsigned n;
	nfsstat4 err;		/* ends the READDIR */
};

static size_t
xdr_len(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static int
want_bit(const bitmap4 *b, unsigned attr)
{
	unsigned w = attr / 32;

	return w < b->bitmap4_len && (b->bitmap4_val[w] >> (attr % 32) & 1);
}

/*
 * Appends one entry with attributes from src (NULL: only rdattr_error
 * err). Returns non-zero to stop: the reply is full, or f->err is set.
 */
static int
add(struct fill *f, const char *name, uint64_t cookie, const struct n4_attr_src *src,
    nfsstat4 err)
{
	struct n4_attr_src only_error;
	size_t nlen = strlen(name), size;
	entry4 *e = call_alloc(f->c->call, sizeof(*e));
	char *copy = call_alloc(f->c->call, nlen + 1);

	if (e == NULL || copy == NULL) {
		f->err = NFS4ERR_DELAY;
		return 1;
	}
	if (src == NULL) {
		memset(&only_error, 0, sizeof(only_error));
		only_error.rdattr_error = err;
		src = &only_error;
	}
	if ((f->err = n4_attr_encode(f->c->call, f->c->minor, src, f->want, &e->attrs)) != NFS4_OK)
		return 1;
	size = 4 + 8 + 4 + xdr_len(nlen) + 4 + 4 * e->attrs.attrmask.bitmap4_len + 4 +
	    xdr_len(e->attrs.attr_vals.attrlist4_len);
	/* Full: but the first entry is always taken if it fits at all (else TOOSMALL). */
	if (size > f->room || (f->n > 0 && 8 + 4 + xdr_len(nlen) > f->dirroom))
		return 1;
	f->room -= size;
	if (f->dirroom != SIZE_MAX)
		f->dirroom -= f->dirroom < 12 + xdr_len(nlen) ? f->dirroom : 12 + xdr_len(nlen);
	memcpy(copy, name, nlen + 1);
	e->cookie = cookie;
	e->name.utf8string_val = copy;
	e->name.utf8string_len = (u_int)nlen;
	*f->tail = e;
	f->tail = &e->nextentry;
	f->n++;
	return 0;
}

/* An entry whose attributes could not be had: rdattr_error if asked for, else the READDIR fails. */
static int
add_failed(struct fill *f, const char *name, uint64_t cookie, int err)
{
	if (!f->want_rdattr_error) {
		f->err = errno_to_nfs4(err);
		return 1;
	}
	return add(f, name, cookie, NULL, errno_to_nfs4(err));
}

static int
fs_entry(void *arg, const struct fs_dirent *d)
{
	struct fill *f = arg;
	struct n4_attr_src src;
	struct n4_obj child;
	struct n4_fh fh;
	struct stat st;
	struct fh h;
	int err;

	if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
		return 0;
	if (f->want->bitmap4_len == 0) {
		memset(&src, 0, sizeof(src));
		return add(f, d->name, d->cookie + COOKIE_BASE, &src, NFS4_OK);
	}
	err = fs_dirent_info(&f->dir->ctx, d->name, d->ino, &st, &h);
	if (err == ENOENT || err == ESTALE)
		return 0;		/* removed since it was read: as if listed a moment later */
	if (err == 0 && (fh.len = (uint32_t)fh_encode(&h, fh.data, sizeof(fh.data))) == 0)
		err = EIO;
	if (err)
		return add_failed(f, d->name, d->cookie + COOKIE_BASE, err);
	/* The entry is on the directory's export: the same context answers statfs and pathconf. */
	child.pseudo = 0;
	child.ctx = f->dir->ctx;
	n4_attr_src_of(&child, &st, &fh, &src);
	src.mounted_on_fileid = (uint64_t)st.st_ino;
	return add(f, d->name, d->cookie + COOKIE_BASE, &src, NFS4_OK);
}

/* A pseudo directory's entry that is an export: that export's root, through the gate. */
static int
export_entry(struct fill *f, const char *name, uint64_t cookie, const struct export *exp)
{
	const struct export_client *client;
	struct n4_attr_src src;
	struct n4_obj o;
	struct n4_fh fh;
	struct stat st;
	struct fh h;
	int err, stop;

	if ((err = fs_export_access(f->c->call, exp, &client)) != 0)
		return add_failed(f, name, cookie, err);
	if (creds_root(call_creds(f->c->call)) < 0)
		return add_failed(f, name, cookie, EPERM);
	if ((err = fs_root_lookup_path(&exp->root, "", &h)) != 0)
		return add_failed(f, name, cookie, err);
	fh.len = (uint32_t)fh_encode(&h, fh.data, sizeof(fh.data));
	if (n4_obj_begin(f->c, &fh, &o) != NFS4_OK)
		return add_failed(f, name, cookie, EACCES);
	err = fs_getattr(&o.ctx, &st);
	if (err == 0) {
		n4_attr_src_of(&o, &st, &fh, &src);
		stop = add(f, name, cookie, &src, NFS4_OK);
	} else {
		stop = add_failed(f, name, cookie, err);
	}
	n4_obj_end(&o);
	return stop;
}

static int
pseudo_entry(void *arg, const char *name, uint64_t cookie, const struct export *exp, uint64_t id)
{
	struct fill *f = arg;
	struct n4_attr_src src;
	struct n4_obj o;
	struct n4_fh fh;
	struct stat st;

	if (exp)
		return export_entry(f, name, cookie, exp);
	o.pseudo = 1;
	o.node.id = id;
	o.node.path[0] = '\0';
	fh.len = (uint32_t)n4_pseudo_fh(&o.node, fh.data);
	n4_pseudo_stat(&o.node, &st);
	n4_attr_src_of(&o, &st, &fh, &src);
	return add(f, name, cookie, &src, NFS4_OK);
}

static nfsstat4
check_args(const READDIR4args *a)
{
	static const uint8_t zero[NFS4_VERIFIER_SIZE];

	if (a->cookie == 1 || a->cookie == 2)
		return NFS4ERR_BAD_COOKIE;
	/* The verifier handed out is always zero: cookies stay valid while the directory lives. */
	if (a->cookie != 0 && memcmp(a->cookieverf, zero, sizeof(zero)) != 0)
		return NFS4ERR_NOT_SAME;
	if (a->maxcount <= READDIR_OVERHEAD)
		return NFS4ERR_TOOSMALL;
	return NFS4_OK;
}

nfsstat4
n4_op_readdir(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	READDIR4args *args = &a->nfs_argop4_u.opreaddir;
	READDIR4resok *ok = &r->nfs_resop4_u.opreaddir.READDIR4res_u.resok4;
	struct fill f;
	struct n4_obj dir;
	int eof = 0, err;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &dir)) != NFS4_OK)
		return s;
	if (!dir.pseudo && !fs_is_dir(&dir.ctx))
		s = NFS4ERR_NOTDIR;
	if (s == NFS4_OK)
		s = check_args(args);
	if (s != NFS4_OK) {
		n4_obj_end(&dir);
		return s;
	}
	memset(&f, 0, sizeof(f));
	f.c = c;
	f.dir = &dir;
	f.want = &args->attr_request;
	f.want_rdattr_error = want_bit(f.want, FATTR4_RDATTR_ERROR);
	f.room = args->maxcount - READDIR_OVERHEAD;
	f.dirroom = args->dircount ? args->dircount : SIZE_MAX;
	f.tail = &f.head;
	if (dir.pseudo)
		err = n4_pseudo_readdir(c->call, &dir.node, args->cookie, pseudo_entry, &f, &eof);
	else
		err = fs_readdir(&dir.ctx, args->cookie ? args->cookie - COOKIE_BASE : 0, fs_entry,
		    &f, &eof);
	n4_obj_end(&dir);
	if (err)
		return errno_to_nfs4(err);
	if (f.err != NFS4_OK)
		return f.err;
	if (f.n == 0 && !eof)
		return NFS4ERR_TOOSMALL;	/* not even one entry fits */
	memset(ok->cookieverf, 0, sizeof(ok->cookieverf));
	ok->reply.entries = f.head;
	ok->reply.eof = eof ? TRUE : FALSE;
	return NFS4_OK;
}
