/*
 * NFSv4 attributes (proto/nfs4_attr.c): GETATTR's encoding of a pseudo
 * node (no fs_ctx: a made-up stat), read back with rpcgen's routines;
 * SETATTR's decoding with every error it can give (RFC 8881 18.30,
 * 18.7.3's silently dropped attributes); VERIFY's comparison.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "proto/nfs4_attr.h"
#include "rpc/dispatch.h"
#include "state/nfs4_clients.h"
#include "unit.h"

/* A call with a worker, for call_alloc's arena. */
static struct rpc_call call;

#define BIT(n) (1u << ((n) % 32))
#define WORD(n) ((n) / 32)

static const char fh_bytes[20] = "\x01\x02\x03\x04usernfsd-handle";

static struct stat st;
static struct n4_attr_src src;

static void
setup(void)
{
	memset(&st, 0, sizeof(st));
	st.st_mode = S_IFDIR | 0755;
	st.st_ino = 123456789012345ull;
	st.st_nlink = 3;
	st.st_uid = 1000;
	st.st_gid = 100;
	st.st_size = 4096;
	st.st_blocks = 8;
	st.st_rdev = makedev(8, 1);
	st.st_atim.tv_sec = 1000;
	st.st_atim.tv_nsec = 1;
	st.st_mtim.tv_sec = 2000;
	st.st_mtim.tv_nsec = 2;
	st.st_ctim.tv_sec = 3000;
	st.st_ctim.tv_nsec = 999999999;
	memset(&src, 0, sizeof(src));
	src.ctx = NULL;
	src.st = &st;
	src.fh = fh_bytes;
	src.fhlen = sizeof(fh_bytes);
	src.fsid_major = 7;
	src.fsid_minor = 9;
	src.mounted_on_fileid = 42;
	src.rdattr_error = NFS4_OK;
}

static bitmap4
bm(uint32_t *words, unsigned n)
{
	bitmap4 b = { n, words };

	return b;
}

/* The attributes served in 4.1, listed here apart from the code's tables. */
static const unsigned served[] = {
	FATTR4_SUPPORTED_ATTRS, FATTR4_TYPE, FATTR4_FH_EXPIRE_TYPE, FATTR4_CHANGE, FATTR4_SIZE,
	FATTR4_LINK_SUPPORT, FATTR4_SYMLINK_SUPPORT, FATTR4_NAMED_ATTR, FATTR4_FSID,
	FATTR4_UNIQUE_HANDLES, FATTR4_LEASE_TIME, FATTR4_RDATTR_ERROR, FATTR4_ACLSUPPORT,
	FATTR4_CANSETTIME, FATTR4_CASE_INSENSITIVE, FATTR4_CASE_PRESERVING,
	FATTR4_CHOWN_RESTRICTED, FATTR4_FILEHANDLE, FATTR4_FILEID, FATTR4_FILES_AVAIL,
	FATTR4_FILES_FREE, FATTR4_FILES_TOTAL, FATTR4_HOMOGENEOUS, FATTR4_MAXFILESIZE,
	FATTR4_MAXLINK, FATTR4_MAXNAME, FATTR4_MAXREAD, FATTR4_MAXWRITE, FATTR4_MODE,
	FATTR4_NO_TRUNC, FATTR4_NUMLINKS, FATTR4_OWNER, FATTR4_OWNER_GROUP, FATTR4_RAWDEV,
	FATTR4_SPACE_AVAIL, FATTR4_SPACE_FREE, FATTR4_SPACE_TOTAL, FATTR4_SPACE_USED,
	FATTR4_TIME_ACCESS, FATTR4_TIME_ACCESS_SET, FATTR4_TIME_DELTA, FATTR4_TIME_METADATA,
	FATTR4_TIME_MODIFY, FATTR4_TIME_MODIFY_SET, FATTR4_MOUNTED_ON_FILEID,
	FATTR4_SUPPATTR_EXCLCREAT,
};

static void
served_mask(uint32_t minor, uint32_t w[3], int readable)
{
	memset(w, 0, 3 * sizeof(uint32_t));
	for (size_t i = 0; i < sizeof(served) / sizeof(served[0]); i++) {
		unsigned n = served[i];

		if (n == FATTR4_SUPPATTR_EXCLCREAT && minor == 0)
			continue;
		if (readable && (n == FATTR4_TIME_ACCESS_SET || n == FATTR4_TIME_MODIFY_SET))
			continue;
		w[WORD(n)] |= BIT(n);
	}
}

static int
has(const bitmap4 *b, unsigned n)
{
	return WORD(n) < b->bitmap4_len && (b->bitmap4_val[WORD(n)] & BIT(n));
}

/* Every value GETATTR can return, as the client decodes it. */
struct got {
	bitmap4 supp, exclcreat;
	nfs_ftype4 type;
	uint32_t expire, lease, aclsupport, maxlink, maxname, mode, numlinks;
	uint64_t change, size, fileid, files[3], maxfilesize, maxread, maxwrite, space[4];
	uint64_t mounted_on;
	bool_t b[FATTR4_MOUNTED_ON_FILEID + 1];
	fsid4 fsid;
	nfsstat4 rderr;
	nfs_fh4 fh;
	utf8str_mixed owner, group;
	specdata4 rawdev;
	nfstime4 atime, delta, ctime, mtime;
};

static bool_t
dec_one(XDR *x, unsigned n, struct got *g)
{
	switch (n) {
	case FATTR4_SUPPORTED_ATTRS: return xdr_fattr4_supported_attrs(x, &g->supp);
	case FATTR4_TYPE: return xdr_fattr4_type(x, &g->type);
	case FATTR4_FH_EXPIRE_TYPE: return xdr_fattr4_fh_expire_type(x, &g->expire);
	case FATTR4_CHANGE: return xdr_fattr4_change(x, &g->change);
	case FATTR4_SIZE: return xdr_fattr4_size(x, &g->size);
	case FATTR4_LINK_SUPPORT: case FATTR4_SYMLINK_SUPPORT: case FATTR4_NAMED_ATTR:
	case FATTR4_UNIQUE_HANDLES: case FATTR4_CANSETTIME: case FATTR4_CASE_INSENSITIVE:
	case FATTR4_CASE_PRESERVING: case FATTR4_CHOWN_RESTRICTED: case FATTR4_HOMOGENEOUS:
	case FATTR4_NO_TRUNC:
		return xdr_bool(x, &g->b[n]);
	case FATTR4_FSID: return xdr_fattr4_fsid(x, &g->fsid);
	case FATTR4_LEASE_TIME: return xdr_fattr4_lease_time(x, &g->lease);
	case FATTR4_RDATTR_ERROR: return xdr_fattr4_rdattr_error(x, &g->rderr);
	case FATTR4_FILEHANDLE: return xdr_fattr4_filehandle(x, &g->fh);
	case FATTR4_ACLSUPPORT: return xdr_fattr4_aclsupport(x, &g->aclsupport);
	case FATTR4_FILEID: return xdr_fattr4_fileid(x, &g->fileid);
	case FATTR4_FILES_AVAIL: return xdr_fattr4_files_avail(x, &g->files[0]);
	case FATTR4_FILES_FREE: return xdr_fattr4_files_free(x, &g->files[1]);
	case FATTR4_FILES_TOTAL: return xdr_fattr4_files_total(x, &g->files[2]);
	case FATTR4_MAXFILESIZE: return xdr_fattr4_maxfilesize(x, &g->maxfilesize);
	case FATTR4_MAXLINK: return xdr_fattr4_maxlink(x, &g->maxlink);
	case FATTR4_MAXNAME: return xdr_fattr4_maxname(x, &g->maxname);
	case FATTR4_MAXREAD: return xdr_fattr4_maxread(x, &g->maxread);
	case FATTR4_MAXWRITE: return xdr_fattr4_maxwrite(x, &g->maxwrite);
	case FATTR4_MODE: return xdr_fattr4_mode(x, &g->mode);
	case FATTR4_NUMLINKS: return xdr_fattr4_numlinks(x, &g->numlinks);
	case FATTR4_OWNER: return xdr_fattr4_owner(x, &g->owner);
	case FATTR4_OWNER_GROUP: return xdr_fattr4_owner_group(x, &g->group);
	case FATTR4_RAWDEV: return xdr_fattr4_rawdev(x, &g->rawdev);
	case FATTR4_SPACE_AVAIL: return xdr_fattr4_space_avail(x, &g->space[0]);
	case FATTR4_SPACE_FREE: return xdr_fattr4_space_free(x, &g->space[1]);
	case FATTR4_SPACE_TOTAL: return xdr_fattr4_space_total(x, &g->space[2]);
	case FATTR4_SPACE_USED: return xdr_fattr4_space_used(x, &g->space[3]);
	case FATTR4_TIME_ACCESS: return xdr_fattr4_time_access(x, &g->atime);
	case FATTR4_TIME_DELTA: return xdr_fattr4_time_delta(x, &g->delta);
	case FATTR4_TIME_METADATA: return xdr_fattr4_time_metadata(x, &g->ctime);
	case FATTR4_TIME_MODIFY: return xdr_fattr4_time_modify(x, &g->mtime);
	case FATTR4_MOUNTED_ON_FILEID: return xdr_fattr4_mounted_on_fileid(x, &g->mounted_on);
	case FATTR4_SUPPATTR_EXCLCREAT: return xdr_fattr4_suppattr_exclcreat(x, &g->exclcreat);
	}
	return FALSE;
}

/* attr_vals read back in the order of attrmask: 1 if every byte was used. */
static int
decode_all(const fattr4 *fa, struct got *g)
{
	XDR x;
	int ok = 1;

	memset(g, 0, sizeof(*g));
	xdrmem_create(&x, fa->attr_vals.attrlist4_val, fa->attr_vals.attrlist4_len, XDR_DECODE);
	for (unsigned n = 0; n < fa->attrmask.bitmap4_len * 32 && ok; n++)
		if (has(&fa->attrmask, n) && !dec_one(&x, n, g))
			ok = 0;
	if (ok && xdr_getpos(&x) != fa->attr_vals.attrlist4_len)
		ok = 0;
	xdr_destroy(&x);
	return ok;
}

static void
got_free(struct got *g)
{
	xdr_free(XDRPROC(xdr_bitmap4), (char *)&g->supp);
	xdr_free(XDRPROC(xdr_bitmap4), (char *)&g->exclcreat);
	xdr_free(XDRPROC(xdr_nfs_fh4), (char *)&g->fh);
	xdr_free(XDRPROC(xdr_utf8str_mixed), (char *)&g->owner);
	xdr_free(XDRPROC(xdr_utf8str_mixed), (char *)&g->group);
}

static int
str_is(const utf8str_mixed *u, const char *s)
{
	return u->utf8string_len == strlen(s) && memcmp(u->utf8string_val, s, strlen(s)) == 0;
}

static void
test_encode_all(void)
{
	uint32_t all[8], want[3], words[3];
	bitmap4 w = bm(all, 8), supp;
	fattr4 fa;
	struct got g;

	setup();
	memset(all, 0xff, sizeof(all));
	/* Write-only attributes cannot be read. */
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4ERR_INVAL);
	all[WORD(FATTR4_TIME_ACCESS_SET)] &= ~BIT(FATTR4_TIME_ACCESS_SET);
	all[WORD(FATTR4_TIME_MODIFY_SET)] &= ~BIT(FATTR4_TIME_MODIFY_SET);
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	/* Supported ones only; word 3..7 asked for but trimmed. */
	served_mask(1, want, 1);
	CHECK(fa.attrmask.bitmap4_len == 3);
	CHECK(memcmp(fa.attrmask.bitmap4_val, want, sizeof(want)) == 0);
	CHECK(!has(&fa.attrmask, FATTR4_ACL) && !has(&fa.attrmask, FATTR4_ARCHIVE));
	CHECK(!has(&fa.attrmask, FATTR4_MIMETYPE) && !has(&fa.attrmask, FATTR4_TIME_CREATE));
	CHECK(!has(&fa.attrmask, FATTR4_XATTR_SUPPORT));
	CHECK(fa.attr_vals.attrlist4_len > 0 && fa.attr_vals.attrlist4_len < 1024);
	CHECK(decode_all(&fa, &g));

	served_mask(1, words, 0);
	n4_attr_supported(1, &supp);
	CHECK(supp.bitmap4_len == 3 && memcmp(supp.bitmap4_val, words, sizeof(words)) == 0);
	CHECK(g.supp.bitmap4_len == 3 && memcmp(g.supp.bitmap4_val, words, sizeof(words)) == 0);
	CHECK(has(&g.supp, FATTR4_TIME_MODIFY_SET) && has(&g.supp, FATTR4_TIME_ACCESS_SET));
	CHECK(g.type == NF4DIR);
	CHECK(g.expire == FH4_PERSISTENT);
	CHECK(g.change == 3000ull * 1000000000ull + 999999999ull);
	CHECK(g.size == 4096);
	CHECK(g.b[FATTR4_LINK_SUPPORT] && g.b[FATTR4_SYMLINK_SUPPORT] && !g.b[FATTR4_NAMED_ATTR]);
	CHECK(g.b[FATTR4_UNIQUE_HANDLES] && g.b[FATTR4_CANSETTIME]);
	CHECK(!g.b[FATTR4_CASE_INSENSITIVE] && g.b[FATTR4_CASE_PRESERVING]);
	CHECK(g.b[FATTR4_CHOWN_RESTRICTED] && g.b[FATTR4_HOMOGENEOUS] && g.b[FATTR4_NO_TRUNC]);
	CHECK(g.fsid.major == 7 && g.fsid.minor == 9);
	CHECK(g.lease == N4_LEASE_DEFAULT && g.lease == n4_lease());
	CHECK(g.rderr == NFS4_OK);
	CHECK(g.fh.nfs_fh4_len == sizeof(fh_bytes) &&
	    memcmp(g.fh.nfs_fh4_val, fh_bytes, sizeof(fh_bytes)) == 0);
	CHECK(g.aclsupport == 0);
	CHECK(g.fileid == 123456789012345ull);
	/* A pseudo node: no statvfs, pathconf's defaults. */
	CHECK(g.files[0] == 0 && g.files[1] == 0 && g.files[2] == 0);
	CHECK(g.space[0] == 0 && g.space[1] == 0 && g.space[2] == 0);
	CHECK(g.space[3] == 8 * 512);
	CHECK(g.maxfilesize == (uint64_t)INT64_MAX);
	CHECK(g.maxlink == 255 && g.maxname == 255);
	CHECK(g.maxread == 1048576 && g.maxwrite == 1048576);
	CHECK(g.mode == 0755);
	CHECK(g.numlinks == 3);
	CHECK(str_is(&g.owner, "1000") && str_is(&g.group, "100"));
	CHECK(g.rawdev.specdata1 == 8 && g.rawdev.specdata2 == 1);
	CHECK(g.atime.seconds == 1000 && g.atime.nseconds == 1);
	CHECK(g.delta.seconds == 0 && g.delta.nseconds == 1);
	CHECK(g.ctime.seconds == 3000 && g.ctime.nseconds == 999999999);
	CHECK(g.mtime.seconds == 2000 && g.mtime.nseconds == 2);
	CHECK(g.mounted_on == 42);
	/* EXCLUSIVE4_1 sets size, mode, owner, group: not the times, which hold the verifier. */
	CHECK(g.exclcreat.bitmap4_len == 2);
	CHECK(g.exclcreat.bitmap4_len == 2 && g.exclcreat.bitmap4_val[0] == BIT(FATTR4_SIZE) &&
	    g.exclcreat.bitmap4_val[1] == (BIT(FATTR4_MODE) | BIT(FATTR4_OWNER) |
	    BIT(FATTR4_OWNER_GROUP)));
	got_free(&g);

	/* 4.0 has no suppattr_exclcreat: two words. */
	CHECK(n4_attr_encode(&call, 0, &src, &w, &fa) == NFS4_OK);
	served_mask(0, want, 1);
	CHECK(fa.attrmask.bitmap4_len == 2 && memcmp(fa.attrmask.bitmap4_val, want, 8) == 0);
	CHECK(decode_all(&fa, &g));
	CHECK(g.supp.bitmap4_len == 2 && !has(&g.supp, FATTR4_SUPPATTR_EXCLCREAT));
	got_free(&g);
	/* 4.2: 4.1's, and clone_blksize, change_attr_type (RFC 7862 12.2) and xattr_support (RFC 8276). */
	n4_attr_supported(2, &supp);
	CHECK(supp.bitmap4_len == 3 && memcmp(supp.bitmap4_val, words, 2 * sizeof(words[0])) == 0);
	CHECK(supp.bitmap4_val[2] == (words[2] | 1u << (FATTR4_CLONE_BLKSIZE - 64) |
	    1u << (FATTR4_CHANGE_ATTR_TYPE - 64) | 1u << (FATTR4_XATTR_SUPPORT - 64)));
	CHECK(has(&supp, FATTR4_CLONE_BLKSIZE) && has(&supp, FATTR4_CHANGE_ATTR_TYPE));
	CHECK(has(&supp, FATTR4_XATTR_SUPPORT));
}

static void
test_encode_some(void)
{
	uint32_t want[8];
	bitmap4 w = bm(want, 8);
	fattr4 fa;
	struct got g;

	setup();
	/* Trailing zero words go; the values follow the order of the numbers. */
	memset(want, 0, sizeof(want));
	want[0] = BIT(FATTR4_TYPE) | BIT(FATTR4_SIZE);
	want[1] = BIT(FATTR4_MIMETYPE) | BIT(FATTR4_QUOTA_USED);	/* unsupported: dropped */
	want[2] = BIT(FATTR4_SEC_LABEL) | BIT(FATTR4_FS_STATUS);
	want[5] = 0x80000000u;
	CHECK(n4_attr_encode(&call, 2, &src, &w, &fa) == NFS4_OK);
	CHECK(fa.attrmask.bitmap4_len == 1 &&
	    fa.attrmask.bitmap4_val[0] == (BIT(FATTR4_TYPE) | BIT(FATTR4_SIZE)));
	CHECK(fa.attr_vals.attrlist4_len == 4 + 8);
	CHECK(decode_all(&fa, &g) && g.type == NF4DIR && g.size == 4096);
	got_free(&g);

	/* Only word 1: word 0 stays, zero. */
	memset(want, 0, sizeof(want));
	want[1] = BIT(FATTR4_MODE) | BIT(FATTR4_OWNER);
	st.st_mode = S_IFCHR | 04711;
	st.st_uid = 0;
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	CHECK(fa.attrmask.bitmap4_len == 2 && fa.attrmask.bitmap4_val[0] == 0);
	CHECK(decode_all(&fa, &g) && g.mode == 04711 && str_is(&g.owner, "0"));
	got_free(&g);

	/* Nothing supported asked for, or nothing at all: empty. */
	want[1] = BIT(FATTR4_MIMETYPE);
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	CHECK(fa.attrmask.bitmap4_len == 0 && fa.attr_vals.attrlist4_len == 0);
	w.bitmap4_len = 0;
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	CHECK(fa.attrmask.bitmap4_len == 0 && fa.attr_vals.attrlist4_len == 0);
	w.bitmap4_len = 8;

	/* The type of a character device and its numbers; rdattr_error as given. */
	memset(want, 0, sizeof(want));
	want[0] = BIT(FATTR4_TYPE) | BIT(FATTR4_RDATTR_ERROR);
	want[1] = BIT(FATTR4_RAWDEV);
	src.rdattr_error = NFS4ERR_ACCESS;
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	CHECK(decode_all(&fa, &g) && g.type == NF4CHR && g.rderr == NFS4ERR_ACCESS);
	CHECK(g.rawdev.specdata1 == 8 && g.rawdev.specdata2 == 1);
	got_free(&g);

	/* READDIR's entry without attributes: rdattr_error alone, whatever was asked. */
	{
		struct n4_attr_src none;
		uint32_t every[3] = { 0xffffffffu, 0xffffffffu, 0xffffffffu };
		bitmap4 all = bm(every, 3);

		every[WORD(FATTR4_TIME_ACCESS_SET)] &= ~(BIT(FATTR4_TIME_ACCESS_SET) |
		    BIT(FATTR4_TIME_MODIFY_SET));
		memset(&none, 0, sizeof(none));
		none.rdattr_error = NFS4ERR_STALE;
		CHECK(n4_attr_encode(&call, 1, &none, &all, &fa) == NFS4_OK);
		CHECK(fa.attrmask.bitmap4_len == 1 &&
		    fa.attrmask.bitmap4_val[0] == BIT(FATTR4_RDATTR_ERROR));
		CHECK(decode_all(&fa, &g) && g.rderr == NFS4ERR_STALE);
		got_free(&g);
		every[0] &= ~BIT(FATTR4_RDATTR_ERROR);
		CHECK(n4_attr_encode(&call, 1, &none, &all, &fa) == NFS4_OK);
		CHECK(fa.attrmask.bitmap4_len == 0 && fa.attr_vals.attrlist4_len == 0);
	}

	/* A handle asked for that is not there, or too long. */
	want[0] = BIT(FATTR4_FILEHANDLE);
	want[1] = 0;
	src.fh = NULL;
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4ERR_SERVERFAULT);
	src.fh = fh_bytes;
	src.fhlen = NFS4_FHSIZE + 1;
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4ERR_SERVERFAULT);
	/* time_modify_set alone: INVAL too. */
	want[0] = 0;
	want[1] = BIT(FATTR4_TIME_MODIFY_SET);
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4ERR_INVAL);
}

/* ---- SETATTR ---- */

struct build {
	char buf[NFS4_UTF8_MAX + 512];	/* the longest owner string and more */
	XDR x;
	uint32_t mask[4];
	fattr4 fa;
};

static void
b_start(struct build *b)
{
	memset(b, 0, sizeof(*b));
	xdrmem_create(&b->x, b->buf, sizeof(b->buf), XDR_ENCODE);
}

static void
b_owner(struct build *b, unsigned n, const char *s)
{
	utf8str_mixed u = { (u_int)strlen(s), (char *)s };

	b->mask[WORD(n)] |= BIT(n);
	CHECK(xdr_utf8str_mixed(&b->x, &u));
}

static void
b_u32(struct build *b, unsigned n, uint32_t v)
{
	b->mask[WORD(n)] |= BIT(n);
	CHECK(xdr_uint32_t(&b->x, &v));
}

static void
b_u64(struct build *b, unsigned n, uint64_t v)
{
	b->mask[WORD(n)] |= BIT(n);
	CHECK(xdr_uint64_t(&b->x, &v));
}

static void
b_time(struct build *b, unsigned n, int how, int64_t sec, uint32_t nsec)
{
	settime4 t;

	memset(&t, 0, sizeof(t));
	t.set_it = (time_how4)how;
	t.settime4_u.time.seconds = sec;
	t.settime4_u.time.nseconds = nsec;
	b->mask[WORD(n)] |= BIT(n);
	if (how == SET_TO_CLIENT_TIME4 || how == SET_TO_SERVER_TIME4) {
		CHECK(xdr_settime4(&b->x, &t));
	} else {
		CHECK(xdr_enum(&b->x, (enum_t *)&t.set_it));
	}
}

static fattr4 *
b_done(struct build *b)
{
	b->fa.attrmask.bitmap4_val = b->mask;
	b->fa.attrmask.bitmap4_len = 4;
	b->fa.attr_vals.attrlist4_val = b->buf;
	b->fa.attr_vals.attrlist4_len = xdr_getpos(&b->x);
	xdr_destroy(&b->x);
	return &b->fa;
}

/* decode_set of one owner or group string. */
static nfsstat4
set_owner(unsigned n, const char *s, struct fs_sattr *sa)
{
	struct build b;
	bitmap4 set;

	b_start(&b);
	b_owner(&b, n, s);
	return n4_attr_decode_set(1, b_done(&b), sa, &set, &call);
}

static void
test_decode_set(void)
{
	struct build b;
	struct fs_sattr sa;
	bitmap4 set;
	fattr4 *fa;

	/* All six, in order. */
	b_start(&b);
	b_u64(&b, FATTR4_SIZE, 12345);
	b_u32(&b, FATTR4_MODE, 0640);
	b_owner(&b, FATTR4_OWNER, "0");
	b_owner(&b, FATTR4_OWNER_GROUP, "root");
	b_time(&b, FATTR4_TIME_ACCESS_SET, SET_TO_SERVER_TIME4, 0, 0);
	b_time(&b, FATTR4_TIME_MODIFY_SET, SET_TO_CLIENT_TIME4, 1700000000, 999999999);
	fa = b_done(&b);
	CHECK(n4_attr_decode_set(1, fa, &sa, &set, &call) == NFS4_OK);
	CHECK(sa.set == (FS_SET_SIZE | FS_SET_MODE | FS_SET_UID | FS_SET_GID | FS_SET_ATIME |
	    FS_SET_MTIME));
	CHECK(sa.size == 12345 && sa.mode == 0640 && sa.uid == 0 && sa.gid == 0);
	CHECK(sa.atime.tv_nsec == UTIME_NOW);
	CHECK(sa.mtime.tv_sec == 1700000000 && sa.mtime.tv_nsec == 999999999);
	/* attrsset: what was taken, trailing zero words trimmed. */
	CHECK(set.bitmap4_len == 2 && set.bitmap4_val[0] == BIT(FATTR4_SIZE));
	CHECK(set.bitmap4_len == 2 && set.bitmap4_val[1] == (BIT(FATTR4_MODE) |
	    BIT(FATTR4_OWNER) | BIT(FATTR4_OWNER_GROUP) | BIT(FATTR4_TIME_ACCESS_SET) |
	    BIT(FATTR4_TIME_MODIFY_SET)));

	/* The mode alone; bits beyond 07777 are not the mode's. */
	b_start(&b);
	b_u32(&b, FATTR4_MODE, 0170755);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4_OK);
	CHECK(sa.set == FS_SET_MODE && sa.mode == 0755);
	CHECK(set.bitmap4_len == 2 && set.bitmap4_val[0] == 0 &&
	    set.bitmap4_val[1] == BIT(FATTR4_MODE));
	/* Nothing at all. */
	b_start(&b);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4_OK);
	CHECK(sa.set == 0 && set.bitmap4_len == 0);

	/* Owners and groups. */
	CHECK(set_owner(FATTR4_OWNER, "0", &sa) == NFS4_OK && sa.set == FS_SET_UID && sa.uid == 0);
	CHECK(set_owner(FATTR4_OWNER, "1000", &sa) == NFS4_OK && sa.uid == 1000);
	CHECK(set_owner(FATTR4_OWNER, "root", &sa) == NFS4_OK && sa.uid == 0);
	CHECK(set_owner(FATTR4_OWNER, "root@example.com", &sa) == NFS4_OK && sa.uid == 0);
	CHECK(set_owner(FATTR4_OWNER_GROUP, "root@example.com", &sa) == NFS4_OK &&
	    sa.set == FS_SET_GID && sa.gid == 0);
	CHECK(set_owner(FATTR4_OWNER_GROUP, "4242", &sa) == NFS4_OK && sa.gid == 4242);
	CHECK(set_owner(FATTR4_OWNER, "nosuchuser-xyz", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "nosuchuser-xyz@example.com", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER_GROUP, "nosuchgroup-xyz", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "@example.com", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "4294967295", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "99999999999", &sa) == NFS4ERR_BADOWNER);
	CHECK(set_owner(FATTR4_OWNER, "-1", &sa) == NFS4ERR_BADOWNER);
	{
		/* A NUL inside the string. */
		utf8str_mixed u = { 5, (char *)"ro\0ot" };

		b_start(&b);
		b.mask[1] = BIT(FATTR4_OWNER);
		CHECK(xdr_utf8str_mixed(&b.x, &u));
		CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADOWNER);
	}
	/* After an error: nothing set, nothing taken. */
	CHECK(sa.set == 0 && set.bitmap4_len == 0);

	/* Times: nanoseconds out of range, an unknown time_how4. */
	b_start(&b);
	b_time(&b, FATTR4_TIME_ACCESS_SET, SET_TO_CLIENT_TIME4, 5, 1000000000);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b_time(&b, FATTR4_TIME_MODIFY_SET, 7, 0, 0);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADXDR);
	b_start(&b);
	b_time(&b, FATTR4_TIME_ACCESS_SET, SET_TO_CLIENT_TIME4, -1, 5);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4_OK);
	CHECK(sa.set == FS_SET_ATIME && sa.atime.tv_sec == -1 && sa.atime.tv_nsec == 5);

	/* Not supported at all: ATTRNOTSUPP, before a read-only one's INVAL. */
	b_start(&b);
	b.mask[0] = BIT(FATTR4_ACL);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	b_start(&b);
	b.mask[0] = BIT(FATTR4_TYPE) | BIT(FATTR4_ARCHIVE);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	b_start(&b);
	b.mask[2] = BIT(FATTR4_SEC_LABEL);
	CHECK(n4_attr_decode_set(2, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	b_start(&b);
	b.mask[2] = BIT(FATTR4_XATTR_SUPPORT);	/* served in 4.2, but read-only */
	CHECK(n4_attr_decode_set(2, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b.mask[3] = 1;			/* attribute 96 */
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	b_start(&b);
	b.mask[1] = BIT(FATTR4_MIMETYPE);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	/* suppattr_exclcreat: not in 4.0, read-only in 4.1. */
	b_start(&b);
	b.mask[2] = BIT(FATTR4_SUPPATTR_EXCLCREAT);
	CHECK(n4_attr_decode_set(0, b_done(&b), &sa, &set, &call) == NFS4ERR_ATTRNOTSUPP);
	CHECK(n4_attr_decode_set(1, &b.fa, &sa, &set, &call) == NFS4ERR_INVAL);

	/* Supported but read-only: INVAL. */
	b_start(&b);
	b_u32(&b, FATTR4_TYPE, NF4REG);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b_u64(&b, FATTR4_CHANGE, 1);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b_u64(&b, FATTR4_SIZE, 1);
	b_u64(&b, FATTR4_FILEID, 1);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b.mask[1] = BIT(FATTR4_TIME_MODIFY);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);
	b_start(&b);
	b.mask[0] = BIT(FATTR4_RDATTR_ERROR);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_INVAL);

	/* attr_vals that do not match the mask: short, left over, too long a string. */
	b_start(&b);
	b.mask[1] = BIT(FATTR4_MODE);
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADXDR);
	b_start(&b);
	b_u32(&b, FATTR4_MODE, 0644);
	b_u32(&b, FATTR4_MODE, 0644);	/* four bytes too many */
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADXDR);
	CHECK(sa.set == 0 && set.bitmap4_len == 0);
	b_start(&b);
	b_u32(&b, FATTR4_SIZE, 5);	/* half a uint64 */
	CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADXDR);
	{
		char big[NFS4_UTF8_MAX + 2];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		b_start(&b);
		b.mask[1] = BIT(FATTR4_OWNER);
		CHECK(xdr_u_int(&b.x, &(u_int){ NFS4_UTF8_MAX + 1 }));
		CHECK(xdr_opaque(&b.x, big, NFS4_UTF8_MAX + 1));
		CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADXDR);
		/* The longest string allowed decodes (and is no user). */
		b_start(&b);
		big[NFS4_UTF8_MAX] = '\0';
		b_owner(&b, FATTR4_OWNER, big);
		CHECK(n4_attr_decode_set(1, b_done(&b), &sa, &set, &call) == NFS4ERR_BADOWNER);
	}
}

/* ---- VERIFY ---- */

static void
test_compare(void)
{
	uint32_t want[2] = { BIT(FATTR4_SIZE) | BIT(FATTR4_FILEID),
	    BIT(FATTR4_MODE) | BIT(FATTR4_OWNER) | BIT(FATTR4_TIME_MODIFY) };
	bitmap4 w = bm(want, 2);
	fattr4 fa, other;
	uint32_t bad[3];
	char longer[1024];

	setup();
	CHECK(n4_attr_encode(&call, 1, &src, &w, &fa) == NFS4_OK);
	CHECK(n4_attr_compare(&call, 1, &src, &fa) == NFS4ERR_SAME);
	st.st_size = 4097;
	CHECK(n4_attr_compare(&call, 1, &src, &fa) == NFS4ERR_NOT_SAME);
	st.st_size = 4096;
	st.st_mtim.tv_nsec = 3;
	CHECK(n4_attr_compare(&call, 1, &src, &fa) == NFS4ERR_NOT_SAME);
	st.st_mtim.tv_nsec = 2;
	CHECK(n4_attr_compare(&call, 1, &src, &fa) == NFS4ERR_SAME);
	/* The same values and bytes more, or fewer: not the same. */
	other = fa;
	memcpy(longer, fa.attr_vals.attrlist4_val, fa.attr_vals.attrlist4_len);
	memset(longer + fa.attr_vals.attrlist4_len, 0, 4);
	other.attr_vals.attrlist4_val = longer;
	other.attr_vals.attrlist4_len = fa.attr_vals.attrlist4_len + 4;
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_NOT_SAME);
	other.attr_vals.attrlist4_len = fa.attr_vals.attrlist4_len - 4;
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_NOT_SAME);
	/* A trailing zero word in the client's mask changes nothing. */
	memset(bad, 0, sizeof(bad));
	memcpy(bad, want, sizeof(want));
	other = fa;
	other.attrmask = bm(bad, 3);
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_SAME);
	/* No attributes: nothing differs. */
	other.attrmask.bitmap4_len = 0;
	other.attr_vals.attrlist4_len = 0;
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_SAME);

	/* rdattr_error cannot be verified; nor can write-only attributes. */
	memset(bad, 0, sizeof(bad));
	bad[0] = BIT(FATTR4_RDATTR_ERROR);
	other = fa;
	other.attrmask = bm(bad, 1);
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_INVAL);
	bad[0] = 0;
	bad[1] = BIT(FATTR4_TIME_ACCESS_SET);
	other.attrmask = bm(bad, 2);
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_INVAL);
	/* An attribute not served: ATTRNOTSUPP, before INVAL. */
	bad[0] = BIT(FATTR4_ACL) | BIT(FATTR4_RDATTR_ERROR);
	bad[1] = 0;
	other.attrmask = bm(bad, 1);
	CHECK(n4_attr_compare(&call, 1, &src, &other) == NFS4ERR_ATTRNOTSUPP);
	bad[0] = 0;
	bad[2] = BIT(FATTR4_SUPPATTR_EXCLCREAT);
	other.attrmask = bm(bad, 3);
	CHECK(n4_attr_compare(&call, 0, &src, &other) == NFS4ERR_ATTRNOTSUPP);
}

int
main(void)
{
	call.w = worker_new();
	test_encode_all();
	test_encode_some();
	test_decode_set();
	test_compare();
	worker_free(call.w);
	return unit_done("test_nfs4_attr");
}
