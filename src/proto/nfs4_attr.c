/*
 * NFSv4 attributes on the wire (RFC 8881 5, RFC 7862 12.2): fattr4 from
 * what the fs layer's stat, statvfs and pathconf found, SETATTR's,
 * CREATE's and OPEN's settable attributes back into an fs_sattr, and
 * VERIFY's comparison. Every value goes through rpcgen's routine for its
 * type, in increasing attribute number (RFC 8881 5.4, 18.7.3).
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "errmap.h"
#include "idmap.h"
#include "nfs4_attr.h"
#include "rpc/dispatch.h"
#include "state/nfs4_clients.h"

/* Bitmap words an attribute we know of can be in: suppattr_exclcreat (75) is in word 2. */
#define N4_WORDS 3
#define N4_NBITS (N4_WORDS * 32)

/*
 * Room for every attribute at once: some 520 bytes and a handle, with
 * plenty to spare. Encoded on the stack, then copied to the arena at its
 * size, so that a READDIR of thousands of entries costs their bytes only.
 */
#define N4_ATTR_BUF (4096 + NFS4_FHSIZE)

#define N4_MAXIO (1u << 20)		/* maxread, maxwrite: a 1 MiB READ or WRITE */
#define N4_DEF_NAME_MAX 255		/* pseudo nodes, or a file system without a limit */
#define N4_DEF_LINK_MAX 255
#define N4_PW_BUF 4096			/* getpwnam_r's first buffer; more from the arena */
#define N4_PW_BUF_MAX 65536

/* The bit of attribute n in bitmap word w, as a constant expression. */
#define W(n, w) ((n) / 32 == (w) ? 1u << ((n) % 32) : 0u)

/* What GETATTR can read, REQUIRED (RFC 8881 5.6) and RECOMMENDED (5.7) ones. */
#define READABLE(w) (W(FATTR4_SUPPORTED_ATTRS, w) | W(FATTR4_TYPE, w) | \
	W(FATTR4_FH_EXPIRE_TYPE, w) | W(FATTR4_CHANGE, w) | W(FATTR4_SIZE, w) | \
	W(FATTR4_LINK_SUPPORT, w) | W(FATTR4_SYMLINK_SUPPORT, w) | W(FATTR4_NAMED_ATTR, w) | \
	W(FATTR4_FSID, w) | W(FATTR4_UNIQUE_HANDLES, w) | W(FATTR4_LEASE_TIME, w) | \
	W(FATTR4_RDATTR_ERROR, w) | W(FATTR4_FILEHANDLE, w) | \
	W(FATTR4_ACLSUPPORT, w) | W(FATTR4_CANSETTIME, w) | W(FATTR4_CASE_INSENSITIVE, w) | \
	W(FATTR4_CASE_PRESERVING, w) | W(FATTR4_CHOWN_RESTRICTED, w) | W(FATTR4_FILEID, w) | \
	W(FATTR4_FILES_AVAIL, w) | W(FATTR4_FILES_FREE, w) | W(FATTR4_FILES_TOTAL, w) | \
	W(FATTR4_HOMOGENEOUS, w) | W(FATTR4_MAXFILESIZE, w) | W(FATTR4_MAXLINK, w) | \
	W(FATTR4_MAXNAME, w) | W(FATTR4_MAXREAD, w) | W(FATTR4_MAXWRITE, w) | \
	W(FATTR4_MODE, w) | W(FATTR4_NO_TRUNC, w) | W(FATTR4_NUMLINKS, w) | \
	W(FATTR4_OWNER, w) | W(FATTR4_OWNER_GROUP, w) | W(FATTR4_RAWDEV, w) | \
	W(FATTR4_SPACE_AVAIL, w) | W(FATTR4_SPACE_FREE, w) | W(FATTR4_SPACE_TOTAL, w) | \
	W(FATTR4_SPACE_USED, w) | W(FATTR4_TIME_ACCESS, w) | W(FATTR4_TIME_DELTA, w) | \
	W(FATTR4_TIME_METADATA, w) | W(FATTR4_TIME_MODIFY, w) | W(FATTR4_MOUNTED_ON_FILEID, w))
/*
 * Write-only (RFC 8881 5.7): supported, so that clients set times (Linux
 * sends only what supported_attrs lists), but never read back.
 */
#define WRITEONLY(w) (W(FATTR4_TIME_ACCESS_SET, w) | W(FATTR4_TIME_MODIFY_SET, w))
#define SETTABLE(w) (W(FATTR4_SIZE, w) | W(FATTR4_MODE, w) | W(FATTR4_OWNER, w) | \
	W(FATTR4_OWNER_GROUP, w) | WRITEONLY(w))
#define SUPP40(w) (READABLE(w) | WRITEONLY(w))
#define SUPP41(w) (SUPP40(w) | W(FATTR4_SUPPATTR_EXCLCREAT, w))
/* RFC 7862 12.2: CLONE's granularity; what the change attribute is made of. */
#define SUPP42(w) (SUPP41(w) | W(FATTR4_CLONE_BLKSIZE, w) | W(FATTR4_CHANGE_ATTR_TYPE, w) | \
	W(FATTR4_XATTR_SUPPORT, w))
/* EXCLUSIVE4_1 keeps its verifier in the times (RFC 8881 18.16.3). */
#define EXCLCREAT(w) (SETTABLE(w) & ~WRITEONLY(w))
#define NEEDS_STATFS(w) (W(FATTR4_FILES_AVAIL, w) | W(FATTR4_FILES_FREE, w) | \
	W(FATTR4_FILES_TOTAL, w) | W(FATTR4_SPACE_AVAIL, w) | W(FATTR4_SPACE_FREE, w) | \
	W(FATTR4_SPACE_TOTAL, w))
#define NEEDS_PATHCONF(w) (W(FATTR4_MAXLINK, w) | W(FATTR4_MAXNAME, w))

_Static_assert(FATTR4_XATTR_SUPPORT < N4_NBITS, "N4_WORDS too small");
_Static_assert(SUPP40(2) == 0 && EXCLCREAT(2) == 0, "v4.0 attributes fit in two words");

/* Never written: bitmap4's pointer is not const, so these are not either. */
static uint32_t supp_words[3][N4_WORDS] = {
	{ SUPP40(0), SUPP40(1), SUPP40(2) },
	{ SUPP41(0), SUPP41(1), SUPP41(2) },
	{ SUPP42(0), SUPP42(1), SUPP42(2) },
};
static uint32_t exclcreat_words[2] = { EXCLCREAT(0), EXCLCREAT(1) };
static const uint32_t settable_words[N4_WORDS] = { SETTABLE(0), SETTABLE(1), SETTABLE(2) };
static const uint32_t writeonly_words[N4_WORDS] = { WRITEONLY(0), WRITEONLY(1), WRITEONLY(2) };
static const uint32_t statfs_words[N4_WORDS] = {
	NEEDS_STATFS(0), NEEDS_STATFS(1), NEEDS_STATFS(2)
};
static const uint32_t pathconf_words[N4_WORDS] = {
	NEEDS_PATHCONF(0), NEEDS_PATHCONF(1), NEEDS_PATHCONF(2)
};

static const uint32_t *
supported(uint32_t minor)
{
	return supp_words[minor < 2 ? minor : 2];
}

void
n4_attr_supported(uint32_t minor, bitmap4 *out)
{
	out->bitmap4_val = supp_words[minor < 2 ? minor : 2];
	out->bitmap4_len = minor >= 1 ? 3 : 2;
}

static int
has_bit(const uint32_t *w, unsigned n)
{
	return (w[n / 32] >> (n % 32)) & 1;
}

static int
any_of(const uint32_t *a, const uint32_t *b)
{
	for (unsigned i = 0; i < N4_WORDS; i++)
		if (a[i] & b[i])
			return 1;
	return 0;
}

/* Words of a bitmap beyond the ones we know are zero. */
static uint32_t
word_of(const bitmap4 *b, unsigned i)
{
	return i < b->bitmap4_len ? b->bitmap4_val[i] : 0;
}

/* NFS4ERR_ATTRNOTSUPP for an attribute not served in minor, else NFS4_OK. */
static nfsstat4
check_supported(uint32_t minor, const bitmap4 *b)
{
	const uint32_t *supp = supported(minor);

	for (unsigned i = 0; i < b->bitmap4_len; i++)
		if (b->bitmap4_val[i] & ~(i < N4_WORDS ? supp[i] : 0))
			return NFS4ERR_ATTRNOTSUPP;
	return NFS4_OK;
}

/* mask into out from the arena, without its trailing zero words. */
static nfsstat4
mask_out(struct rpc_call *call, const uint32_t *mask, bitmap4 *out)
{
	unsigned n = N4_WORDS;

	while (n > 0 && mask[n - 1] == 0)
		n--;
	out->bitmap4_len = n;
	out->bitmap4_val = NULL;
	if (n == 0)
		return NFS4_OK;
	if ((out->bitmap4_val = call_alloc(call, n * sizeof(uint32_t))) == NULL)
		return NFS4ERR_SERVERFAULT;
	memcpy(out->bitmap4_val, mask, n * sizeof(uint32_t));
	return NFS4_OK;
}

/* ---- encoding ---- */

struct enc {
	const struct n4_attr_src *src;
	uint32_t minor;
	struct statvfs sv;		/* zero for a pseudo node */
	uint32_t name_max, link_max;
	int xattr_support;		/* the object holds user. attributes (asked only when wanted) */
};

static nfs_ftype4
ftype_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return NF4REG;
	case S_IFDIR: return NF4DIR;
	case S_IFBLK: return NF4BLK;
	case S_IFCHR: return NF4CHR;
	case S_IFLNK: return NF4LNK;
	case S_IFSOCK: return NF4SOCK;
	case S_IFIFO: return NF4FIFO;
	}
	return NF4REG;
}

static nfstime4
time_of(const struct timespec *ts)
{
	nfstime4 t = { ts->tv_sec, (uint32_t)ts->tv_nsec };

	return t;
}

static uint32_t
limit_of(long v, uint32_t dflt)
{
	if (v <= 0)
		return dflt;
	return (unsigned long)v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* The rpcgen routines of every attribute of one C type share a prototype. */
typedef bool_t (*xdr_u32_fn)(XDR *, uint32_t *);
typedef bool_t (*xdr_u64_fn)(XDR *, uint64_t *);
typedef bool_t (*xdr_bool_fn)(XDR *, bool_t *);
typedef bool_t (*xdr_time_fn)(XDR *, nfstime4 *);

static bool_t
put_u32(XDR *x, xdr_u32_fn fn, uint32_t v)
{
	return fn(x, &v);
}

static bool_t
put_u64(XDR *x, xdr_u64_fn fn, uint64_t v)
{
	return fn(x, &v);
}

static bool_t
put_bool(XDR *x, xdr_bool_fn fn, bool_t v)
{
	return fn(x, &v);
}

static bool_t
put_time(XDR *x, xdr_time_fn fn, nfstime4 v)
{
	return fn(x, &v);
}

/*
 * Owners as numbers, as knfsd sends them for AUTH_SYS without idmapping,
 * or as name@domain with --idmap (idmap.c).
 */
static bool_t
put_id(XDR *x, bool_t (*fn)(XDR *, utf8str_mixed *), uint32_t id, int group)
{
	char s[NFS4_UTF8_MAX + 1];
	utf8str_mixed u;

	u.utf8string_len = (u_int)idmap_name_of(id, group, s, sizeof(s));
	u.utf8string_val = s;
	return fn(x, &u);
}

static bool_t
enc_attr(XDR *x, unsigned n, const struct enc *e)
{
	const struct n4_attr_src *src = e->src;
	const struct stat *st = src->st;

	switch (n) {
	case FATTR4_SUPPORTED_ATTRS: {
		bitmap4 b;

		n4_attr_supported(e->minor, &b);
		return xdr_fattr4_supported_attrs(x, &b);
	}
	case FATTR4_TYPE: {
		fattr4_type t = ftype_of(st->st_mode);

		return xdr_fattr4_type(x, &t);
	}
	case FATTR4_FH_EXPIRE_TYPE:
		/* Handles name the inode: they survive restarts and renames. */
		return put_u32(x, xdr_fattr4_fh_expire_type, FH4_PERSISTENT);
	case FATTR4_CHANGE:
		return put_u64(x, xdr_fattr4_change,
		    (uint64_t)st->st_ctim.tv_sec * 1000000000u + (uint64_t)st->st_ctim.tv_nsec);
	case FATTR4_SIZE:
		return put_u64(x, xdr_fattr4_size, (uint64_t)st->st_size);
	case FATTR4_LINK_SUPPORT:
		return put_bool(x, xdr_fattr4_link_support, TRUE);
	case FATTR4_SYMLINK_SUPPORT:
		return put_bool(x, xdr_fattr4_symlink_support, TRUE);
	case FATTR4_NAMED_ATTR:
		return put_bool(x, xdr_fattr4_named_attr, FALSE);
	case FATTR4_FSID: {
		fattr4_fsid f = { src->fsid_major, src->fsid_minor };

		return xdr_fattr4_fsid(x, &f);
	}
	case FATTR4_UNIQUE_HANDLES:
		return put_bool(x, xdr_fattr4_unique_handles, TRUE);
	case FATTR4_LEASE_TIME:
		return put_u32(x, xdr_fattr4_lease_time, n4_lease());
	case FATTR4_RDATTR_ERROR: {
		fattr4_rdattr_error err = src->rdattr_error;

		return xdr_fattr4_rdattr_error(x, &err);
	}
	case FATTR4_FILEHANDLE: {
		fattr4_filehandle fh = { (u_int)src->fhlen, (char *)src->fh };

		return xdr_fattr4_filehandle(x, &fh);
	}
	case FATTR4_ACLSUPPORT:
		return put_u32(x, xdr_fattr4_aclsupport, 0);
	case FATTR4_CANSETTIME:
		return put_bool(x, xdr_fattr4_cansettime, TRUE);
	case FATTR4_CASE_INSENSITIVE:
		return put_bool(x, xdr_fattr4_case_insensitive, FALSE);
	case FATTR4_CASE_PRESERVING:
		return put_bool(x, xdr_fattr4_case_preserving, TRUE);
	case FATTR4_CHOWN_RESTRICTED:
		return put_bool(x, xdr_fattr4_chown_restricted, TRUE);
	case FATTR4_FILEID:
		return put_u64(x, xdr_fattr4_fileid, st->st_ino);
	case FATTR4_FILES_AVAIL:
		return put_u64(x, xdr_fattr4_files_avail, e->sv.f_favail);
	case FATTR4_FILES_FREE:
		return put_u64(x, xdr_fattr4_files_free, e->sv.f_ffree);
	case FATTR4_FILES_TOTAL:
		return put_u64(x, xdr_fattr4_files_total, e->sv.f_files);
	case FATTR4_HOMOGENEOUS:
		return put_bool(x, xdr_fattr4_homogeneous, TRUE);
	case FATTR4_MAXFILESIZE:
		return put_u64(x, xdr_fattr4_maxfilesize, (uint64_t)INT64_MAX);
	case FATTR4_MAXLINK:
		return put_u32(x, xdr_fattr4_maxlink, e->link_max);
	case FATTR4_MAXNAME:
		return put_u32(x, xdr_fattr4_maxname, e->name_max);
	case FATTR4_MAXREAD:
		return put_u64(x, xdr_fattr4_maxread, N4_MAXIO);
	case FATTR4_MAXWRITE:
		return put_u64(x, xdr_fattr4_maxwrite, N4_MAXIO);
	case FATTR4_MODE:
		return put_u32(x, xdr_fattr4_mode, st->st_mode & 07777);
	case FATTR4_NO_TRUNC:
		return put_bool(x, xdr_fattr4_no_trunc, TRUE);
	case FATTR4_NUMLINKS:
		return put_u32(x, xdr_fattr4_numlinks, (uint32_t)st->st_nlink);
	case FATTR4_OWNER:
		return put_id(x, xdr_fattr4_owner, st->st_uid, 0);
	case FATTR4_OWNER_GROUP:
		return put_id(x, xdr_fattr4_owner_group, st->st_gid, 1);
	case FATTR4_RAWDEV: {
		fattr4_rawdev r = { major(st->st_rdev), minor(st->st_rdev) };

		return xdr_fattr4_rawdev(x, &r);
	}
	case FATTR4_SPACE_AVAIL:
		return put_u64(x, xdr_fattr4_space_avail, (uint64_t)e->sv.f_bavail * e->sv.f_frsize);
	case FATTR4_SPACE_FREE:
		return put_u64(x, xdr_fattr4_space_free, (uint64_t)e->sv.f_bfree * e->sv.f_frsize);
	case FATTR4_SPACE_TOTAL:
		return put_u64(x, xdr_fattr4_space_total, (uint64_t)e->sv.f_blocks * e->sv.f_frsize);
	case FATTR4_SPACE_USED:
		return put_u64(x, xdr_fattr4_space_used, (uint64_t)st->st_blocks * 512);
	case FATTR4_TIME_ACCESS:
		return put_time(x, xdr_fattr4_time_access, time_of(&st->st_atim));
	case FATTR4_TIME_DELTA: {
		nfstime4 ns = { 0, 1 };

		return put_time(x, xdr_fattr4_time_delta, ns);
	}
	case FATTR4_TIME_METADATA:
		return put_time(x, xdr_fattr4_time_metadata, time_of(&st->st_ctim));
	case FATTR4_TIME_MODIFY:
		return put_time(x, xdr_fattr4_time_modify, time_of(&st->st_mtim));
	case FATTR4_MOUNTED_ON_FILEID:
		return put_u64(x, xdr_fattr4_mounted_on_fileid, src->mounted_on_fileid);
	case FATTR4_SUPPATTR_EXCLCREAT: {
		bitmap4 b = { 2, exclcreat_words };

		return xdr_fattr4_suppattr_exclcreat(x, &b);
	}
	case FATTR4_CLONE_BLKSIZE:
		/*
		 * The block size CLONE's offsets and count keep to (RFC 7862
		 * 15.13.3), which fs_clone checks against the same st_blksize:
		 * the file system's block, where btrfs and XFS share extents.
		 * Served whatever the file system, as CLONE is (4.1.2): where it
		 * cannot share them, CLONE says NOTSUPP.
		 */
		return put_u32(x, xdr_fattr4_clone_blksize, (uint32_t)st->st_blksize);
	case FATTR4_CHANGE_ATTR_TYPE: {
		/* FATTR4_CHANGE is the ctime in nanoseconds (RFC 7862 12.2.3). */
		fattr4_change_attr_type t = NFS4_CHANGE_TYPE_IS_TIME_METADATA;

		return xdr_fattr4_change_attr_type(x, &t);
	}
	case FATTR4_XATTR_SUPPORT: {
		/* RFC 8276 8.1: whether GETXATTR and the others may work here; pseudo nodes hold none. */
		fattr4_xattr_support b = e->xattr_support ? TRUE : FALSE;

		return xdr_fattr4_xattr_support(x, &b);
	}
	}
	return FALSE;		/* not reached: only supported, readable attributes come here */
}

/*
 * The attributes of want that minor serves, encoded into buf; mask gets
 * which. Write-only attributes cannot be read (RFC 8881 5.7, as knfsd).
 */
static nfsstat4
encode_vals(uint32_t minor, const struct n4_attr_src *src, const bitmap4 *want,
    uint32_t mask[N4_WORDS], char *buf, u_int cap, u_int *len)
{
	const uint32_t *supp = supported(minor);
	struct enc e;
	XDR x;
	nfsstat4 st = NFS4_OK;

	for (unsigned i = 0; i < N4_WORDS; i++)
		mask[i] = word_of(want, i) & supp[i];
	if (any_of(mask, writeonly_words))
		return NFS4ERR_INVAL;
	/* No attributes to be had (READDIR's failed entry): rdattr_error alone. */
	if (src->st == NULL) {
		mask[0] &= W(FATTR4_RDATTR_ERROR, 0);
		mask[1] = mask[2] = 0;
	}
	if (has_bit(mask, FATTR4_FILEHANDLE) &&
	    (src->fh == NULL || src->fhlen == 0 || src->fhlen > NFS4_FHSIZE))
		return NFS4ERR_SERVERFAULT;
	memset(&e, 0, sizeof(e));
	e.src = src;
	e.minor = minor;
	e.name_max = N4_DEF_NAME_MAX;
	e.link_max = N4_DEF_LINK_MAX;
	/* System calls only for what was asked. */
	if (src->ctx != NULL && any_of(mask, statfs_words)) {
		int err = fs_statfs(src->ctx, &e.sv);

		if (err != 0)
			return errno_to_nfs4(err);
	}
	if (src->ctx != NULL && has_bit(mask, FATTR4_XATTR_SUPPORT))
		e.xattr_support = fs_xattr_supported(src->ctx);
	if (src->ctx != NULL && any_of(mask, pathconf_words)) {
		struct fs_pathconf pc;

		fs_pathconf(src->ctx, &pc);
		e.name_max = limit_of(pc.name_max, N4_DEF_NAME_MAX);
		e.link_max = limit_of(pc.link_max, N4_DEF_LINK_MAX);
	}
	xdrmem_create(&x, buf, cap, XDR_ENCODE);
	for (unsigned n = 0; n < N4_NBITS && st == NFS4_OK; n++)
		if (has_bit(mask, n) && !enc_attr(&x, n, &e))
			st = NFS4ERR_RESOURCE;
	*len = xdr_getpos(&x);
	xdr_destroy(&x);
	return st;
}

nfsstat4
n4_attr_encode(struct rpc_call *call, uint32_t minor, const struct n4_attr_src *src,
    const bitmap4 *want, fattr4 *out)
{
	char buf[N4_ATTR_BUF];
	uint32_t mask[N4_WORDS];
	u_int len;
	nfsstat4 st;

	memset(out, 0, sizeof(*out));
	if ((st = encode_vals(minor, src, want, mask, buf, sizeof(buf), &len)) != NFS4_OK)
		return st;
	if ((st = mask_out(call, mask, &out->attrmask)) != NFS4_OK)
		return st;
	if (len == 0)
		return NFS4_OK;
	if ((out->attr_vals.attrlist4_val = call_alloc(call, len)) == NULL) {
		memset(out, 0, sizeof(*out));
		return NFS4ERR_SERVERFAULT;
	}
	memcpy(out->attr_vals.attrlist4_val, buf, len);
	out->attr_vals.attrlist4_len = len;
	return NFS4_OK;
}

/* ---- decoding what to set ---- */

/* A decimal id, as the Linux client sends without idmapping: 1 if s is one. */
static int
numeric_id(const char *s, uint32_t *id)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9' || i >= 10)
			return 0;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	/* (uid_t)-1 means "no change" to chown: not an id. */
	if (i == 0 || v >= UINT32_MAX)
		return 0;
	*id = (uint32_t)v;
	return 1;
}

/*
 * The id of a user (group when group) by name: getpwnam_r (getgrnam_r)
 * with a buffer on the stack, grown from the arena when a long group list
 * needs it. 1 if found.
 */
static int
name_id(struct rpc_call *call, const char *name, int group, uint32_t *id)
{
	char stackbuf[N4_PW_BUF];
	char *buf = stackbuf;
	size_t size = sizeof(stackbuf);

	for (;;) {
		struct passwd pw, *pwp = NULL;
		struct group gr, *grp = NULL;
		int rc;

		if (group)
			rc = getgrnam_r(name, &gr, buf, size, &grp);
		else
			rc = getpwnam_r(name, &pw, buf, size, &pwp);
		if (rc == 0 && (group ? grp != NULL : pwp != NULL)) {
			*id = group ? grp->gr_gid : pwp->pw_uid;
			return 1;
		}
		if (rc != ERANGE || size >= N4_PW_BUF_MAX || call == NULL)
			return 0;
		size *= 2;
		if ((buf = call_alloc(call, size)) == NULL)
			return 0;
	}
}

/*
 * owner or owner_group: a number (RFC 8881 5.9 lets AUTH_SYS clients
 * send them, and the Linux client does), then with --idmap name@domain
 * in our domain through libnfsidmap, else a local name with or without
 * an @ (the domain not checked).
 */
static nfsstat4
dec_owner(XDR *x, struct rpc_call *call, int group, uint32_t *id)
{
	/* xdr_bytes decodes into a buffer given, after checking NFS4_UTF8_MAX. */
	char buf[NFS4_UTF8_MAX + 1];
	utf8str_mixed s = { 0, buf };
	char *at;

	if (!(group ? xdr_fattr4_owner_group(x, &s) : xdr_fattr4_owner(x, &s)))
		return NFS4ERR_BADXDR;
	buf[s.utf8string_len] = '\0';
	if (strlen(buf) != s.utf8string_len)
		return NFS4ERR_BADOWNER;	/* a NUL inside */
	if (numeric_id(buf, id))
		return NFS4_OK;
	if (idmap_on())
		return idmap_id_of(buf, group, id) ? NFS4_OK : NFS4ERR_BADOWNER;
	if ((at = strrchr(buf, '@')) != NULL)
		*at = '\0';
	if (buf[0] == '\0' || !name_id(call, buf, group, id))
		return NFS4ERR_BADOWNER;
	return NFS4_OK;
}

static nfsstat4
dec_time(XDR *x, bool_t (*fn)(XDR *, settime4 *), struct timespec *ts)
{
	settime4 t;

	memset(&t, 0, sizeof(t));
	if (!fn(x, &t))
		return NFS4ERR_BADXDR;
	switch (t.set_it) {
	case SET_TO_SERVER_TIME4:
		ts->tv_sec = 0;
		ts->tv_nsec = UTIME_NOW;
		return NFS4_OK;
	case SET_TO_CLIENT_TIME4:
		if (t.settime4_u.time.nseconds >= 1000000000u)
			return NFS4ERR_INVAL;
		ts->tv_sec = (time_t)t.settime4_u.time.seconds;
		ts->tv_nsec = (long)t.settime4_u.time.nseconds;
		return NFS4_OK;
	}
	return NFS4ERR_BADXDR;		/* time_how4 has no other value */
}

static nfsstat4
dec_attr(XDR *x, unsigned n, struct fs_sattr *sa, struct rpc_call *call)
{
	nfsstat4 st = NFS4_OK;
	uint32_t id;

	switch (n) {
	case FATTR4_SIZE: {
		fattr4_size v;

		if (!xdr_fattr4_size(x, &v))
			return NFS4ERR_BADXDR;
		sa->size = v;
		sa->set |= FS_SET_SIZE;
		return NFS4_OK;
	}
	case FATTR4_MODE: {
		fattr4_mode v;

		if (!xdr_fattr4_mode(x, &v))
			return NFS4ERR_BADXDR;
		sa->mode = (mode_t)(v & 07777);
		sa->set |= FS_SET_MODE;
		return NFS4_OK;
	}
	case FATTR4_OWNER:
		if ((st = dec_owner(x, call, 0, &id)) == NFS4_OK) {
			sa->uid = (uid_t)id;
			sa->set |= FS_SET_UID;
		}
		return st;
	case FATTR4_OWNER_GROUP:
		if ((st = dec_owner(x, call, 1, &id)) == NFS4_OK) {
			sa->gid = (gid_t)id;
			sa->set |= FS_SET_GID;
		}
		return st;
	case FATTR4_TIME_ACCESS_SET:
		if ((st = dec_time(x, xdr_fattr4_time_access_set, &sa->atime)) == NFS4_OK)
			sa->set |= FS_SET_ATIME;
		return st;
	case FATTR4_TIME_MODIFY_SET:
		if ((st = dec_time(x, xdr_fattr4_time_modify_set, &sa->mtime)) == NFS4_OK)
			sa->set |= FS_SET_MTIME;
		return st;
	}
	return NFS4ERR_INVAL;		/* not reached: only settable attributes come here */
}

nfsstat4
n4_attr_decode_set(uint32_t minor, const fattr4 *in, struct fs_sattr *sa, bitmap4 *set,
    struct rpc_call *call)
{
	const bitmap4 *m = &in->attrmask;
	uint32_t mask[N4_WORDS];
	XDR x;
	nfsstat4 st;

	memset(sa, 0, sizeof(*sa));
	set->bitmap4_len = 0;
	set->bitmap4_val = NULL;
	/* Unsupported first, then read-only, as knfsd checks them. */
	if ((st = check_supported(minor, m)) != NFS4_OK)
		return st;
	for (unsigned i = 0; i < N4_WORDS; i++) {
		mask[i] = word_of(m, i);
		if (mask[i] & ~settable_words[i])
			return NFS4ERR_INVAL;
	}
	xdrmem_create(&x, in->attr_vals.attrlist4_val, in->attr_vals.attrlist4_len, XDR_DECODE);
	for (unsigned n = 0; n < N4_NBITS && st == NFS4_OK; n++)
		if (has_bit(mask, n))
			st = dec_attr(&x, n, sa, call);
	if (st == NFS4_OK && xdr_getpos(&x) != in->attr_vals.attrlist4_len)
		st = NFS4ERR_BADXDR;
	xdr_destroy(&x);
	if (st == NFS4_OK)
		st = mask_out(call, mask, set);
	if (st != NFS4_OK)
		memset(sa, 0, sizeof(*sa));
	return st;
}

/* ---- VERIFY, NVERIFY ---- */

nfsstat4
n4_attr_compare(struct rpc_call *call, uint32_t minor, const struct n4_attr_src *src,
    const fattr4 *in)
{
	char buf[N4_ATTR_BUF];
	uint32_t mask[N4_WORDS];
	u_int len;
	nfsstat4 st;

	(void)call;		/* nothing to keep: the comparison is done on the stack */
	if ((st = check_supported(minor, &in->attrmask)) != NFS4_OK)
		return st;
	/* rdattr_error cannot be verified (RFC 8881 18.15.3, 18.31.3); write-only ones either. */
	if (in->attrmask.bitmap4_len > 0 && has_bit(in->attrmask.bitmap4_val, FATTR4_RDATTR_ERROR))
		return NFS4ERR_INVAL;
	if ((st = encode_vals(minor, src, &in->attrmask, mask, buf, sizeof(buf), &len)) != NFS4_OK)
		return st;
	if (len == in->attr_vals.attrlist4_len &&
	    (len == 0 || memcmp(buf, in->attr_vals.attrlist4_val, len) == 0))
		return NFS4ERR_SAME;
	return NFS4ERR_NOT_SAME;
}
