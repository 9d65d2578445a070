/*
 * NFSv4 filehandle operations (RFC 8881 18.13, 18.14, 18.19-18.22, 18.27,
 * 18.28, 18.8): PUTFH, PUTROOTFH, PUTPUBFH, GETFH, SAVEFH, RESTOREFH,
 * LOOKUP and LOOKUPP, and the helpers every operation on the current
 * filehandle uses. Each operation passes its handle through the gate
 * again (proto/access.c, knfsd's fh_verify per operation): an export
 * removed or a client refused between two operations is seen at once.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "access.h"
#include "errmap.h"
#include "exports/exports.h"
#include "nfs4_ops.h"

#define N4_NAME_MAX 255

static int
is_pseudo_fh(const struct n4_fh *fh)
{
	return fh->len == FH_PSEUDO_LEN && fh->data[0] == FH_VERSION_PSEUDO;
}

nfsstat4
n4_obj_begin(struct n4_compound *c, const struct n4_fh *fh, struct n4_obj *o)
{
	int err;

	o->pseudo = 0;
	memset(&o->ctx, 0, sizeof(o->ctx));
	if (fh->len == 0)
		return NFS4ERR_NOFILEHANDLE;
	if (is_pseudo_fh(fh)) {
		o->pseudo = 1;
		err = n4_pseudo_from_fh(c->call, fh->data, fh->len, &o->node);
		return errno_to_nfs4(err);
	}
	err = fs_begin(c->call, fh->data, fh->len, &o->ctx);
	if (err) {
		fs_end(&o->ctx);
		return errno_to_nfs4(err);
	}
	return NFS4_OK;
}

void
n4_obj_end(struct n4_obj *o)
{
	if (!o->pseudo)
		fs_end(&o->ctx);
}

nfsstat4
n4_obj_stat(struct n4_obj *o, struct stat *st)
{
	if (o->pseudo) {
		n4_pseudo_stat(&o->node, st);
		return NFS4_OK;
	}
	return errno_to_nfs4(fs_getattr(&o->ctx, st));
}

/* A handle of the fs layer's into fh. */
static nfsstat4
set_fh(struct n4_fh *out, const struct fh *fh)
{
	size_t len = fh_encode(fh, out->data, sizeof(out->data));

	if (len == 0)
		return NFS4ERR_SERVERFAULT;
	out->len = (uint32_t)len;
	return NFS4_OK;
}

static void
set_pseudo(struct n4_fh *out, const struct n4_pseudo *node)
{
	out->len = (uint32_t)n4_pseudo_fh(node, out->data);
}

nfsstat4
n4_set_cur(struct n4_compound *c, const struct n4_obj *o)
{
	if (o->pseudo) {
		set_pseudo(&c->cur, &o->node);
		return NFS4_OK;
	}
	return set_fh(&c->cur, fs_handle(&o->ctx));
}

/* The root of an export, looked up as the daemon (as MOUNT does), as the current filehandle. */
static nfsstat4
enter_export(struct n4_compound *c, const struct export *exp, const char *rest)
{
	const struct export_client *client;
	struct fh fh;
	int err;

	if ((err = fs_export_access(c->call, exp, &client)) != 0)
		return errno_to_nfs4(err);
	if (creds_root(call_creds(c->call)) < 0)
		return NFS4ERR_SERVERFAULT;
	if ((err = fs_root_lookup_path(&exp->root, rest, &fh)) != 0)
		return errno_to_nfs4(err == EXDEV ? EACCES : err);
	return set_fh(&c->cur, &fh);
}

/*
 * A component4 as a C string in the call's arena: RFC 8881 18.13.3's
 * INVAL for an empty name, NAMETOOLONG, and BADNAME for "." and "..",
 * and for '/' and NUL, which no name on a POSIX file system holds.
 */
nfsstat4
n4_name(struct n4_compound *c, const component4 *in, char **out)
{
	u_int len = in->utf8string_len;
	char *s;

	if (len == 0)
		return NFS4ERR_INVAL;
	if (len > N4_NAME_MAX)
		return NFS4ERR_NAMETOOLONG;
	if (memchr(in->utf8string_val, '/', len) || memchr(in->utf8string_val, '\0', len))
		return NFS4ERR_BADNAME;
	if ((len == 1 && in->utf8string_val[0] == '.') ||
	    (len == 2 && memcmp(in->utf8string_val, "..", 2) == 0))
		return NFS4ERR_BADNAME;
	if ((s = call_alloc(c->call, len + 1)) == NULL)
		return NFS4ERR_DELAY;
	memcpy(s, in->utf8string_val, len);
	s[len] = '\0';
	*out = s;
	return NFS4_OK;
}

nfsstat4
n4_op_putfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	const nfs_fh4 *fh = &a->nfs_argop4_u.opputfh.object;
	struct n4_fh tmp;
	struct n4_obj o;
	nfsstat4 st;

	(void)r;
	if (fh->nfs_fh4_len == 0 || fh->nfs_fh4_len > NFS4_FHSIZE)
		return NFS4ERR_BADHANDLE;
	tmp.len = fh->nfs_fh4_len;
	memcpy(tmp.data, fh->nfs_fh4_val, tmp.len);
	/* Checked now, so that a bad handle is PUTFH's error, not the next operation's. */
	if ((st = n4_obj_begin(c, &tmp, &o)) != NFS4_OK)
		return st;
	n4_obj_end(&o);
	c->cur = tmp;
	c->have_cur_sid = 0;	/* a new filehandle, no current stateid (18.19.3) */
	return NFS4_OK;
}

/* PUTPUBFH too: the public filehandle is the root (RFC 8881 18.20.3 allows it). */
nfsstat4
n4_op_putrootfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	const struct export *exp;
	struct n4_pseudo node;
	int err;

	(void)a; (void)r;
	c->have_cur_sid = 0;	/* 18.20.3, 18.21.3 */
	if ((err = n4_pseudo_root(c->call, &node, &exp)) != 0)
		return errno_to_nfs4(err);
	if (exp)
		return enter_export(c, exp, "");
	set_pseudo(&c->cur, &node);
	return NFS4_OK;
}

nfsstat4
n4_op_getfh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	GETFH4resok *ok = &r->nfs_resop4_u.opgetfh.GETFH4res_u.resok4;
	char *buf;

	(void)a;
	if (c->cur.len == 0)
		return NFS4ERR_NOFILEHANDLE;
	if ((buf = call_alloc(c->call, c->cur.len)) == NULL)
		return NFS4ERR_DELAY;
	memcpy(buf, c->cur.data, c->cur.len);
	ok->object.nfs_fh4_val = buf;
	ok->object.nfs_fh4_len = c->cur.len;
	return NFS4_OK;
}

nfsstat4
n4_op_savefh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	(void)a; (void)r;
	if (c->cur.len == 0)
		return NFS4ERR_NOFILEHANDLE;
	c->saved = c->cur;
	c->saved_sid = c->cur_sid;
	c->have_saved_sid = c->have_cur_sid;
	return NFS4_OK;
}

/* No saved filehandle: NOFILEHANDLE (RFC 8881 18.27.3; 4.1 has no RESTOREFH error). */
nfsstat4
n4_op_restorefh(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	struct n4_obj o;
	nfsstat4 st;

	(void)a; (void)r;
	if (c->saved.len == 0)
		return NFS4ERR_NOFILEHANDLE;
	/* A put: WRONGSEC here when the next operation uses the handle as it is. */
	if (!c->call->any_flavor) {
		if ((st = n4_obj_begin(c, &c->saved, &o)) != NFS4_OK)
			return st;
		n4_obj_end(&o);
	}
	c->cur = c->saved;
	/* The current stateid goes with the filehandle it was saved with (18.28.3). */
	c->cur_sid = c->saved_sid;
	c->have_cur_sid = c->have_saved_sid;
	return NFS4_OK;
}

/*
 * LOOKUP and LOOKUPP need a directory: SYMLINK for a link (RFC 8881
 * 15.1.2: the current filehandle is a link where the operation takes
 * none; knfsd answers both so), NOTDIR for the rest.
 */
static nfsstat4
need_dir(struct n4_obj *o)
{
	struct stat st;
	nfsstat4 s;

	if (o->pseudo || fs_is_dir(&o->ctx))
		return NFS4_OK;
	if ((s = n4_obj_stat(o, &st)) == NFS4_OK && S_ISLNK(st.st_mode))
		return NFS4ERR_SYMLINK;
	return NFS4ERR_NOTDIR;
}

static nfsstat4
lookup_pseudo(struct n4_compound *c, struct n4_obj *dir, const char *name)
{
	const struct export *exp;
	struct n4_pseudo child;
	int err = n4_pseudo_lookup(c->call, &dir->node, name, &child, &exp);

	if (err)
		return errno_to_nfs4(err);
	if (exp)
		return enter_export(c, exp, "");
	set_pseudo(&c->cur, &child);
	return NFS4_OK;
}

nfsstat4
n4_op_lookup(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	struct fs_ctx child;
	struct n4_obj dir;
	struct stat st;
	char *name;
	nfsstat4 s;

	(void)r;
	if ((s = n4_obj_begin(c, &c->cur, &dir)) != NFS4_OK)
		return s;
	if ((s = need_dir(&dir)) == NFS4_OK)
		s = n4_name(c, &a->nfs_argop4_u.oplookup.objname, &name);
	if (s == NFS4_OK && dir.pseudo) {
		s = lookup_pseudo(c, &dir, name);
	} else if (s == NFS4_OK) {
		memset(&child, 0, sizeof(child));
		s = errno_to_nfs4(fs_lookup(&dir.ctx, name, &child, &st));
		if (s == NFS4_OK)
			s = set_fh(&c->cur, fs_handle(&child));
		fs_end(&child);
	}
	n4_obj_end(&dir);
	return s;
}

/* Same object, same export: ".." at an export's root came back to it. */
static int
same_object(const struct fs_ctx *a, const struct fs_ctx *b)
{
	const struct fh *x = fs_handle(a), *y = fs_handle(b);

	return x->export_id == y->export_id && x->ino == y->ino;
}

/* ".." at the root of an export: the pseudo directory above, or the export around it. */
static nfsstat4
lookupp_above(struct n4_compound *c, const struct fs_ctx *root)
{
	const struct export *up;
	struct n4_pseudo parent;
	const char *rest;
	int err = n4_pseudo_above(c->call, root, &parent, &up, &rest);

	if (err)
		return errno_to_nfs4(err);
	if (up)
		return enter_export(c, up, rest);
	set_pseudo(&c->cur, &parent);
	return NFS4_OK;
}

nfsstat4
n4_op_lookupp(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	struct n4_pseudo parent;
	struct fs_ctx child;
	struct n4_obj dir;
	struct stat st;
	nfsstat4 s;

	(void)a; (void)r;
	if ((s = n4_obj_begin(c, &c->cur, &dir)) != NFS4_OK)
		return s;
	if ((s = need_dir(&dir)) != NFS4_OK) {
		n4_obj_end(&dir);
		return s;
	}
	if (dir.pseudo) {
		s = errno_to_nfs4(n4_pseudo_parent(&dir.node, &parent));
		if (s == NFS4_OK)
			set_pseudo(&c->cur, &parent);
		return s;
	}
	memset(&child, 0, sizeof(child));
	s = errno_to_nfs4(fs_lookup(&dir.ctx, "..", &child, &st));
	if (s == NFS4_OK && same_object(&dir.ctx, &child))
		s = lookupp_above(c, &dir.ctx);
	else if (s == NFS4_OK)
		s = set_fh(&c->cur, fs_handle(&child));
	fs_end(&child);
	n4_obj_end(&dir);
	return s;
}
