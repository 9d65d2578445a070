/*
 * NFSv4 operations that read one object's metadata (RFC 8881 18.1, 18.7,
 * 18.15, 18.24, 18.31): ACCESS, GETATTR, NVERIFY, READLINK and VERIFY, on
 * the current filehandle, which is a pseudo file system node or an
 * object of an export.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "errmap.h"
#include "nfs4_attr.h"
#include "nfs4_ops.h"

void
n4_attr_src_of(struct n4_obj *o, const struct stat *st, const struct n4_fh *fh,
    struct n4_attr_src *src)
{
	memset(src, 0, sizeof(*src));
	src->st = st;
	src->fh = fh->data;
	src->fhlen = fh->len;
	src->mounted_on_fileid = (uint64_t)st->st_ino;
	src->rdattr_error = NFS4_OK;
	if (o->pseudo)
		return;		/* fsid 0.0: the pseudo file system's own */
	src->ctx = &o->ctx;
	src->fsid_major = fs_fsid(&o->ctx);
	/* What a client sees there before it crosses: the pseudo directory's fileid. */
	src->mounted_on_fileid = n4_pseudo_mounted_on(&o->ctx, (uint64_t)st->st_ino);
}

nfsstat4
n4_op_getattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	GETATTR4resok *ok = &r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4;
	struct n4_attr_src src;
	struct n4_obj o;
	struct stat st;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = n4_obj_stat(&o, &st)) == NFS4_OK) {
		n4_attr_src_of(&o, &st, &c->cur, &src);
		s = n4_attr_encode(c->call, c->minor, &src, &a->nfs_argop4_u.opgetattr.attr_request,
		    &ok->obj_attributes);
	}
	n4_obj_end(&o);
	return s;
}

/* VERIFY and NVERIFY: SAME or NOT_SAME, or why neither could be said. */
static nfsstat4
compare(struct n4_compound *c, const fattr4 *want)
{
	struct n4_attr_src src;
	struct n4_obj o;
	struct stat st;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if ((s = n4_obj_stat(&o, &st)) == NFS4_OK) {
		n4_attr_src_of(&o, &st, &c->cur, &src);
		s = n4_attr_compare(c->call, c->minor, &src, want);
	}
	n4_obj_end(&o);
	return s;
}

nfsstat4
n4_op_verify(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	nfsstat4 s = compare(c, &a->nfs_argop4_u.opverify.obj_attributes);

	(void)r;
	return s == NFS4ERR_SAME ? NFS4_OK : s;
}

nfsstat4
n4_op_nverify(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	nfsstat4 s = compare(c, &a->nfs_argop4_u.opnverify.obj_attributes);

	(void)r;
	if (s == NFS4ERR_NOT_SAME)
		return NFS4_OK;
	return s == NFS4ERR_SAME ? NFS4ERR_SAME : s;
}

#define ACCESS4_ALL (ACCESS4_READ | ACCESS4_LOOKUP | ACCESS4_MODIFY | ACCESS4_EXTEND | \
	ACCESS4_DELETE | ACCESS4_EXECUTE)
#define ACCESS4_XA (ACCESS4_XAREAD | ACCESS4_XAWRITE | ACCESS4_XALIST)

/* What the fs layer's three permissions grant, as NFSv4's six bits (as for v3). */
static uint32_t
granted_bits(unsigned got, int isdir)
{
	uint32_t g = 0;

	if (got & ACC_READ)
		g |= ACCESS4_READ;
	if (got & ACC_WRITE)
		g |= ACCESS4_MODIFY | ACCESS4_EXTEND | (isdir ? ACCESS4_DELETE : 0);
	if (got & ACC_EXEC)
		g |= isdir ? ACCESS4_LOOKUP : ACCESS4_EXECUTE;
	return g;
}

nfsstat4
n4_op_access(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	ACCESS4resok *ok = &r->nfs_resop4_u.opaccess.ACCESS4res_u.resok4;
	uint32_t asked = a->nfs_argop4_u.opaccess.access, g;
	unsigned want = 0, got = 0;
	struct n4_obj o;
	struct stat st;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if (o.pseudo) {
		g = ACCESS4_READ | ACCESS4_LOOKUP;	/* a directory no one may change */
	} else {
		if (asked & (ACCESS4_READ | ACCESS4_XAREAD | ACCESS4_XALIST))
			want |= ACC_READ;
		if (asked & (ACCESS4_MODIFY | ACCESS4_EXTEND | ACCESS4_DELETE | ACCESS4_XAWRITE))
			want |= ACC_WRITE;
		if (asked & (ACCESS4_LOOKUP | ACCESS4_EXECUTE))
			want |= ACC_EXEC;
		s = errno_to_nfs4(fs_access(&o.ctx, want, &got, &st));
		g = granted_bits(got, fs_is_dir(&o.ctx));
	}
	n4_obj_end(&o);
	/* RFC 8276 8.2: the extended attributes' bits, in 4.2, as the data's read and write. */
	if (c->minor >= 2) {
		if (g & ACCESS4_READ)
			g |= ACCESS4_XAREAD | ACCESS4_XALIST;
		if (g & ACCESS4_MODIFY)
			g |= ACCESS4_XAWRITE;
	}
	ok->supported = asked & (ACCESS4_ALL | (c->minor >= 2 ? ACCESS4_XA : 0));
	ok->access = g & ok->supported;
	return s;
}

/* Only a symbolic link: ISDIR for a directory, WRONG_TYPE for the rest (as knfsd). */
nfsstat4
n4_op_readlink(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	READLINK4resok *ok = &r->nfs_resop4_u.opreadlink.READLINK4res_u.resok4;
	struct n4_obj o;
	size_t len = 0;
	char *buf;
	nfsstat4 s;

	(void)a;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if (o.pseudo || fs_is_dir(&o.ctx))
		s = NFS4ERR_ISDIR;
	else if ((buf = call_alloc(c->call, NFS4_LINKTEXT_MAX + 1)) == NULL)
		s = NFS4ERR_DELAY;
	else if ((s = errno_to_nfs4(fs_readlink(&o.ctx, buf, NFS4_LINKTEXT_MAX + 1, &len))) ==
	    NFS4ERR_INVAL)
		s = NFS4ERR_WRONG_TYPE;		/* not a link */
	else if (s == NFS4_OK) {
		ok->link.linktext4_val = buf;
		ok->link.linktext4_len = (u_int)len;
	}
	n4_obj_end(&o);
	return s;
}
