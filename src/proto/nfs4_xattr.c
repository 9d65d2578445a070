/*
 * NFSv4.2's extended attributes (RFC 8276): GETXATTR, SETXATTR,
 * LISTXATTRS, REMOVEXATTR on the current filehandle, the user. namespace
 * only, named without its prefix (fs/fsops_xattr.c). The Linux client
 * uses them once xattr_support says so (nfs4_attr.c) and ACCESS grants
 * XAREAD, XAWRITE or XALIST (nfs4_inode.c).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>
#include <linux/limits.h>	/* XATTR_NAME_MAX, XATTR_SIZE_MAX */

#include "errmap.h"
#include "nfs4_ops.h"

/* The largest value and list Linux keeps (XATTR_SIZE_MAX, XATTR_LIST_MAX). */
#define N4_XATTR_VALUE_MAX 65536
#define N4_XATTR_LIST_MAX 65536

/*
 * A key as a C string in the call's arena: INVAL when empty or holding a
 * NUL (no system call could name it), NAMETOOLONG past what "user." and
 * the name may take together (XATTR_NAME_MAX).
 */
static nfsstat4
key_of(struct n4_compound *c, const xattrkey4 *k, char **out)
{
	u_int len = k->utf8string_len;
	char *s;

	if (len == 0 || memchr(k->utf8string_val, '\0', len))
		return NFS4ERR_INVAL;
	if (len > XATTR_NAME_MAX - 5)
		return NFS4ERR_NAMETOOLONG;
	if ((s = call_alloc(c->call, len + 1)) == NULL)
		return NFS4ERR_DELAY;
	memcpy(s, k->utf8string_val, len);
	s[len] = '\0';
	*out = s;
	return NFS4_OK;
}

/* The current object, which the pseudo file system cannot be: its nodes hold no attributes. */
static nfsstat4
begin_file(struct n4_compound *c, struct n4_obj *o)
{
	nfsstat4 s = n4_obj_begin(c, &c->cur, o);

	if (s == NFS4_OK && o->pseudo)
		s = NFS4ERR_NOXATTR;
	return s;
}

nfsstat4
n4_op_getxattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	xattrvalue4 *v = &r->nfs_resop4_u.opgetxattr.GETXATTR4res_u.gxr_value;
	size_t cap = N4_XATTR_VALUE_MAX, len = 0;
	struct n4_obj o;
	char *name, *buf;
	nfsstat4 s;

	if ((s = key_of(c, &a->nfs_argop4_u.opgetxattr.gxa_name, &name)) != NFS4_OK)
		return s;
	/* A value the reply could not carry is XATTR2BIG (8276 8.4.1.4), not REP_TOO_BIG. */
	if (c->in_session && c->slot.resp_max < cap + 512)
		cap = c->slot.resp_max > 512 ? c->slot.resp_max - 512 : 0;
	if ((buf = call_alloc(c->call, cap ? cap : 1)) == NULL)
		return NFS4ERR_DELAY;
	if ((s = begin_file(c, &o)) != NFS4_OK)
		return s;
	s = errno_to_nfs4(fs_getxattr(&o.ctx, name, buf, cap, &len));
	n4_obj_end(&o);
	v->xattrvalue4_val = buf;
	v->xattrvalue4_len = (u_int)len;
	return s;
}

/* SETXATTR and REMOVEXATTR: the file's change attribute around the change. */
static nfsstat4
change(struct n4_compound *c, const char *name, const xattrvalue4 *value, int how,
    change_info4 *ci)
{
	struct fs_wcc w = { .valid = 1 };
	struct n4_obj o;
	nfsstat4 s;
	int err;

	if ((s = begin_file(c, &o)) != NFS4_OK)
		return s == NFS4ERR_NOXATTR ? NFS4ERR_ROFS : s;
	if ((err = fs_getattr(&o.ctx, &w.before)) == 0) {
		err = value ? fs_setxattr(&o.ctx, name, value->xattrvalue4_val, value->xattrvalue4_len,
		    how) : fs_removexattr(&o.ctx, name);
	}
	if (err == 0 && (err = fs_getattr(&o.ctx, &w.after)) == 0)
		n4_cinfo(ci, &w, &o.ctx);
	n4_obj_end(&o);
	return errno_to_nfs4(err);
}

nfsstat4
n4_op_setxattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SETXATTR4args *args = &a->nfs_argop4_u.opsetxattr;
	char *name;
	nfsstat4 s;
	int how;

	switch (args->sxa_option) {
	case SETXATTR4_EITHER: how = 0; break;
	case SETXATTR4_CREATE: how = XATTR_CREATE; break;
	case SETXATTR4_REPLACE: how = XATTR_REPLACE; break;
	default: return NFS4ERR_INVAL;
	}
	if ((s = key_of(c, &args->sxa_key, &name)) != NFS4_OK)
		return s;
	if (args->sxa_value.xattrvalue4_len > N4_XATTR_VALUE_MAX)
		return NFS4ERR_XATTR2BIG;
	return change(c, name, &args->sxa_value, how,
	    &r->nfs_resop4_u.opsetxattr.SETXATTR4res_u.sxr_info);
}

nfsstat4
n4_op_removexattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	char *name;
	nfsstat4 s;

	if ((s = key_of(c, &a->nfs_argop4_u.opremovexattr.rxa_name, &name)) != NFS4_OK)
		return s;
	return change(c, name, NULL, 0, &r->nfs_resop4_u.opremovexattr.REMOVEXATTR4res_u.rxr_info);
}

/*
 * LISTXATTRS (8276 8.4.3): the cookie is the index of the next name;
 * lxa_maxcount bounds the result as encoded (cookie, the array, eof),
 * TOOSMALL when not even one name fits, BADCOOKIE past the list's end.
 */
nfsstat4
n4_op_listxattrs(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	LISTXATTRS4args *args = &a->nfs_argop4_u.oplistxattrs;
	LISTXATTRS4resok *ok = &r->nfs_resop4_u.oplistxattrs.LISTXATTRS4res_u.lxr_value;
	size_t len = 0, used = 8 + 4 + 4, total = 0, i, n = 0;
	struct n4_obj o;
	xattrkey4 *keys;
	char *buf, *p;
	nfsstat4 s;

	if ((buf = call_alloc(c->call, N4_XATTR_LIST_MAX)) == NULL)
		return NFS4ERR_DELAY;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	if (!o.pseudo)
		s = errno_to_nfs4(fs_listxattr(&o.ctx, buf, N4_XATTR_LIST_MAX, &len));
	n4_obj_end(&o);
	if (s != NFS4_OK)
		return s;
	for (p = buf; p < buf + len; p += strlen(p) + 1)
		total++;
	if (args->lxa_cookie > total)
		return NFS4ERR_BAD_COOKIE;
	if ((keys = call_alloc(c->call, (total ? total : 1) * sizeof(*keys))) == NULL)
		return NFS4ERR_DELAY;
	for (p = buf, i = 0; p < buf + len; p += strlen(p) + 1, i++) {
		size_t l = strlen(p), need = 4 + ((l + 3) & ~(size_t)3);

		if (i < args->lxa_cookie)
			continue;
		if (used + need > args->lxa_maxcount)
			break;
		keys[n].utf8string_val = p;
		keys[n].utf8string_len = (u_int)l;
		used += need;
		n++;
	}
	if (n == 0 && args->lxa_cookie < total)
		return NFS4ERR_TOOSMALL;
	ok->lxr_names.lxr_names_val = keys;
	ok->lxr_names.lxr_names_len = (u_int)n;
	ok->lxr_cookie = args->lxa_cookie + n;
	ok->lxr_eof = ok->lxr_cookie == total;
	return NFS4_OK;
}
