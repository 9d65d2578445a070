/*
 * NFSv4 operations that change attributes and the name space (RFC 8881
 * 18.30, 18.4, 18.25, 18.26, 18.9): SETATTR, CREATE, REMOVE, RENAME and
 * LINK, on the current filehandle and, for RENAME and LINK, the saved
 * one. As nfs3.c's procedures: the fs layer does the work and says what
 * went wrong as an errno value, errmap.c names it. The pseudo file system
 * is never changed (ROFS), as a read-only export is not (the fs layer's
 * EROFS). The change_info4 of a directory is its change attribute read
 * by the fs layer just before and just after the change, under the
 * directory's lock (fs/dirlock.h): atomic, so the client keeps its caches.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "access.h"
#include "errmap.h"
#include "nfs4_attr.h"
#include "nfs4_ops.h"
#include "state/nfs4_state.h"

/* What Linux's dev_t holds (12 bits of major, 20 of minor): more is INVAL, as knfsd says. */
#define N4_MAJOR_MAX 0xfffu
#define N4_MINOR_MAX 0xfffffu

/* A directory's object, from fh: NOTDIR for anything else (a symbolic link too). */
static nfsstat4
begin_dir(struct n4_compound *c, const struct n4_fh *fh, struct n4_obj *o)
{
	nfsstat4 s = n4_obj_begin(c, fh, o);

	if (s == NFS4_OK && !o->pseudo && !fs_is_dir(&o->ctx)) {
		n4_obj_end(o);
		s = NFS4ERR_NOTDIR;
	}
	return s;
}

/*
 * The directory is still there (ROFS for the pseudo file system), and its
 * change is to put its attributes around it into w, for its change_info4.
 */
static nfsstat4
dir_watch(struct n4_obj *dir, struct fs_wcc *w)
{
	struct stat st;

	if (dir->pseudo)
		return NFS4ERR_ROFS;
	memset(w, 0, sizeof(*w));
	dir->ctx.wcc = w;
	return errno_to_nfs4(fs_getattr(&dir->ctx, &st));
}

/* ---- SETATTR ---- */

/*
 * RFC 8881 18.30.3: the stateid is what a change of the size must show,
 * as a WRITE would (knfsd checks it only then: another change takes any
 * stateid, the anonymous one included). The size is a regular file's
 * only: ISDIR for a directory, INVAL for the rest.
 */
static nfsstat4
setattr_obj(struct n4_compound *c, const stateid4 *sid, struct n4_obj *o,
    const struct fs_sattr *sa)
{
	struct stat before;
	nfsstat4 s;

	if (o->pseudo || fs_readonly(&o->ctx))
		return NFS4ERR_ROFS;
	if ((s = errno_to_nfs4(fs_getattr(&o->ctx, &before))) != NFS4_OK)
		return s;
	if (sa->set & FS_SET_SIZE) {
		if (S_ISDIR(before.st_mode))
			return NFS4ERR_ISDIR;
		if (!S_ISREG(before.st_mode))
			return NFS4ERR_INVAL;
		if ((s = n4_stateid_check(c, sid, o, N4_SHARE_WRITE)) != NFS4_OK)
			return s;
	}
	return errno_to_nfs4(fs_setattr(&o->ctx, &before, sa, NULL));
}

/*
 * attrsset on every status: what was set, so all that was asked on
 * success and nothing on failure (the fs layer does not say which of
 * several it managed before it failed).
 */
nfsstat4
n4_op_setattr(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	SETATTR4args *args = &a->nfs_argop4_u.opsetattr;
	bitmap4 *attrsset = &r->nfs_resop4_u.opsetattr.attrsset;
	struct fs_sattr sa;
	struct n4_obj o;
	bitmap4 set;
	nfsstat4 s;

	attrsset->bitmap4_len = 0;
	attrsset->bitmap4_val = NULL;
	if ((s = n4_obj_begin(c, &c->cur, &o)) != NFS4_OK)
		return s;
	s = n4_attr_decode_set(c->minor, &args->obj_attributes, &sa, &set, c->call);
	if (s == NFS4_OK)
		s = setattr_obj(c, &args->stateid, &o, &sa);
	if (s == NFS4_OK)
		*attrsset = set;
	n4_obj_end(&o);
	return s;
}

/* ---- CREATE ---- */

/* What CREATE makes: its type, and the link's text or the device's number. */
struct n4_new {
	nfs_ftype4 type;
	mode_t fmt;		/* fs_mknod's S_IF* */
	dev_t rdev;
	const char *target;	/* NF4LNK */
};

/* A link's text as a C string from the arena: INVAL when empty or with a NUL. */
static nfsstat4
link_text(struct n4_compound *c, const linktext4 *in, const char **out)
{
	u_int len = in->linktext4_len;
	char *s;

	if (len == 0 || memchr(in->linktext4_val, '\0', len))
		return NFS4ERR_INVAL;
	if ((s = call_alloc(c->call, len + 1)) == NULL)
		return NFS4ERR_DELAY;
	memcpy(s, in->linktext4_val, len);
	s[len] = '\0';
	*out = s;
	return NFS4_OK;
}

/*
 * RFC 8881 18.4.3: anything but a regular file (OPEN's) or a named
 * attribute (OPENATTR's, not served); BADTYPE for those and for types
 * that are none.
 */
static nfsstat4
create_type(struct n4_compound *c, const createtype4 *t, struct n4_new *nw)
{
	const specdata4 *spec = &t->createtype4_u.devdata;

	memset(nw, 0, sizeof(*nw));
	nw->type = t->type;
	switch (t->type) {
	case NF4DIR:
		return NFS4_OK;
	case NF4LNK:
		return link_text(c, &t->createtype4_u.linkdata, &nw->target);
	case NF4BLK:
	case NF4CHR:
		if (spec->specdata1 > N4_MAJOR_MAX || spec->specdata2 > N4_MINOR_MAX)
			return NFS4ERR_INVAL;
		nw->fmt = t->type == NF4BLK ? S_IFBLK : S_IFCHR;
		nw->rdev = makedev(spec->specdata1, spec->specdata2);
		return NFS4_OK;
	case NF4SOCK:
		nw->fmt = S_IFSOCK;
		return NFS4_OK;
	case NF4FIFO:
		nw->fmt = S_IFIFO;
		return NFS4_OK;
	default:
		return NFS4ERR_BADTYPE;
	}
}

/*
 * The arguments, checked in knfsd's order after the directory: the type,
 * the name, the attributes. A size among them is INVAL: none of what
 * CREATE makes has one that could be set (and the object would be made
 * before the fs layer refused it).
 */
static nfsstat4
create_args(struct n4_compound *c, const CREATE4args *args, struct n4_new *nw, char **name,
    struct fs_sattr *sa, bitmap4 *set)
{
	nfsstat4 s;

	if ((s = create_type(c, &args->objtype, nw)) != NFS4_OK)
		return s;
	if ((s = n4_name(c, &args->objname, name)) != NFS4_OK)
		return s;
	if ((s = n4_attr_decode_set(c->minor, &args->createattrs, sa, set, c->call)) != NFS4_OK)
		return s;
	return sa->set & FS_SET_SIZE ? NFS4ERR_INVAL : NFS4_OK;
}

static int
make(struct fs_ctx *dir, const char *name, const struct n4_new *nw, const struct fs_sattr *sa,
    struct fs_ctx *child)
{
	struct stat st;

	switch (nw->type) {
	case NF4DIR:
		return fs_mkdir(dir, name, sa, child, &st);
	case NF4LNK:
		return fs_symlink(dir, name, nw->target, sa, child, &st);
	default:
		return fs_mknod(dir, name, nw->fmt, nw->rdev, sa, child, &st);
	}
}

/* On success the new object is the current filehandle (RFC 8881 18.4.3). */
nfsstat4
n4_op_create(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	CREATE4resok *ok = &r->nfs_resop4_u.opcreate.CREATE4res_u.resok4;
	struct n4_obj dir, child = { .pseudo = 0 };
	struct fs_sattr sa;
	struct n4_new nw;
	struct fs_wcc wcc;
	bitmap4 set;
	char *name;
	nfsstat4 s;

	if ((s = begin_dir(c, &c->cur, &dir)) != NFS4_OK)
		return s;
	s = create_args(c, &a->nfs_argop4_u.opcreate, &nw, &name, &sa, &set);
	if (s == NFS4_OK)
		s = dir_watch(&dir, &wcc);
	if (s == NFS4_OK)
		s = errno_to_nfs4(make(&dir.ctx, name, &nw, &sa, &child.ctx));
	if (s == NFS4_OK)
		s = n4_set_cur(c, &child);
	if (s == NFS4_OK) {
		n4_cinfo(&ok->cinfo, &wcc, &dir.ctx);
		ok->attrset = set;
	}
	fs_end(&child.ctx);
	n4_obj_end(&dir);
	return s;
}

/* ---- REMOVE ---- */

/*
 * A directory goes with rmdir, anything else with unlink: unlink first,
 * which Linux refuses for a directory with EISDIR, so that the common case
 * costs one system call and no lookup of the name (v3 has the two calls).
 */
static int
remove_name(struct fs_ctx *dir, const char *name)
{
	int err = fs_remove(dir, name);

	return err == EISDIR ? fs_rmdir(dir, name) : err;
}

nfsstat4
n4_op_remove(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	REMOVE4resok *ok = &r->nfs_resop4_u.opremove.REMOVE4res_u.resok4;
	struct fs_wcc wcc;
	struct n4_obj dir;
	char *name;
	nfsstat4 s;

	if ((s = begin_dir(c, &c->cur, &dir)) != NFS4_OK)
		return s;
	s = n4_name(c, &a->nfs_argop4_u.opremove.target, &name);
	if (s == NFS4_OK)
		s = dir_watch(&dir, &wcc);
	if (s == NFS4_OK)
		s = errno_to_nfs4(remove_name(&dir.ctx, name));
	if (s == NFS4_OK)
		n4_cinfo(&ok->cinfo, &wcc, &dir.ctx);
	n4_obj_end(&dir);
	return s;
}

/* ---- RENAME ---- */

/*
 * RFC 8881 18.26.3: a target that exists must be compatible with the
 * source, both directories or neither, and a directory target empty;
 * else EXIST. Both directories were checked before, so rename(2)'s
 * ENOTDIR and EISDIR can mean only an incompatible target, and
 * ENOTEMPTY (or EEXIST) a full one.
 */
static int
rename_errno(int err)
{
	if (err == ENOTEMPTY || err == EEXIST || err == EISDIR || err == ENOTDIR)
		return EEXIST;
	return err;
}

/* The saved filehandle is the source directory, the current one the target. */
nfsstat4
n4_op_rename(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	RENAME4args *args = &a->nfs_argop4_u.oprename;
	RENAME4resok *ok = &r->nfs_resop4_u.oprename.RENAME4res_u.resok4;
	struct fs_wcc fwcc, twcc;
	char *oldname, *newname;
	struct n4_obj from, to;
	nfsstat4 s;

	if ((s = begin_dir(c, &c->saved, &from)) != NFS4_OK)
		return s;
	if ((s = begin_dir(c, &c->cur, &to)) != NFS4_OK) {
		n4_obj_end(&from);
		return s;
	}
	s = n4_name(c, &args->oldname, &oldname);
	if (s == NFS4_OK)
		s = n4_name(c, &args->newname, &newname);
	if (s == NFS4_OK)
		s = dir_watch(&from, &fwcc);
	if (s == NFS4_OK)
		s = dir_watch(&to, &twcc);
	/* Different exports or file systems: the fs layer's EXDEV. */
	if (s == NFS4_OK)
		s = errno_to_nfs4(rename_errno(fs_rename(&from.ctx, oldname, &to.ctx, newname)));
	if (s == NFS4_OK) {
		n4_cinfo(&ok->source_cinfo, &fwcc, &from.ctx);
		n4_cinfo(&ok->target_cinfo, &twcc, &to.ctx);
	}
	n4_obj_end(&to);
	n4_obj_end(&from);
	return s;
}

/* ---- LINK ---- */

/* The saved filehandle is the object, the current one the directory the new name goes in. */
nfsstat4
n4_op_link(struct n4_compound *c, nfs_argop4 *a, nfs_resop4 *r)
{
	LINK4resok *ok = &r->nfs_resop4_u.oplink.LINK4res_u.resok4;
	struct n4_obj file, dir;
	struct fs_wcc wcc;
	char *name;
	nfsstat4 s;

	if ((s = n4_obj_begin(c, &c->saved, &file)) != NFS4_OK)
		return s;
	if ((s = begin_dir(c, &c->cur, &dir)) != NFS4_OK) {
		n4_obj_end(&file);
		return s;
	}
	/* Every pseudo file system node is a directory. */
	if (file.pseudo || fs_is_dir(&file.ctx))
		s = NFS4ERR_ISDIR;
	if (s == NFS4_OK)
		s = n4_name(c, &a->nfs_argop4_u.oplink.newname, &name);
	if (s == NFS4_OK)
		s = dir_watch(&dir, &wcc);
	/* Another export or file system than the object's: the fs layer's EXDEV. */
	if (s == NFS4_OK)
		s = errno_to_nfs4(fs_link(&file.ctx, &dir.ctx, name));
	if (s == NFS4_OK)
		n4_cinfo(&ok->cinfo, &wcc, &dir.ctx);
	n4_obj_end(&dir);
	n4_obj_end(&file);
	return s;
}
