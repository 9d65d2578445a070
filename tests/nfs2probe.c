/*
 * nfs2probe - a raw NFSv2 (RFC 1094) and MOUNT v1/v2 test client for
 * usernfsd's integration tests.
 *
 * Unlike rpcprobe it uses the XDR routines rpcgen generated from the
 * build's nfs_prot.x (rpcsvc-proto) and mount_prot.x, so the tests speak
 * exactly the protocol a SunOS-era client would. It talks to an explicit
 * HOST/PORT (no rpcbind) and prints key=value lines for shell tests. The
 * client, the options it shares with rpcprobe (-a -u -g -P -t), the
 * rpc=NAME lines and the "++" command loop are rpcraw.h's.
 *
 * Usage: nfs2probe [OPTIONS] HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS...]
 *        [++ COMMAND [ARGS...]]...
 * "nfs2probe --help" lists the commands (the table `commands` below).
 *
 * Output: rpc=SUCCESS or rpc=ERROR_NAME, then status=N (the nfsstat, or
 * the errno of a MOUNT v1/v2 fhstatus) and command-specific fields:
 * fh=HEX (32 bytes), attributes as type= mode= nlink= uid= gid= size=
 * blocksize= rdev= blocks= fsid= fileid= atime=S.U mtime=S.U ctime=S.U.
 * Exit status: 0 when every RPC succeeded (whatever its NFS status),
 * 1 on an RPC failure, 2 on a usage error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rpc/rpc.h>

#include "rpc/mount_prot.h"
#include "rpc/nfs_prot.h"
#include "rpcraw.h"

#define NONE 0xffffffffu

/* nfs2probe's own options; the target, credentials and socket options are
 * rpcraw's (rr). */
static struct {
	unsigned chunk;		/* -c: READ/WRITE size, READDIR count */
	unsigned mntvers;	/* -m: MOUNT version for mount commands */
} opt = { .mntvers = 1 };


static int
nfs_call(unsigned long proc, xdrproc_t xargs, void *args, xdrproc_t xres, void *res)
{
	return rr_call(NFS_PROGRAM, NFS_VERSION, proc, xargs, args, xres, res);
}

/* ---- formatting ---- */

static void
fh_parse(const char *hex, nfs_fh *fh)
{
	u_int n;
	char *b = rr_parse_hex(hex, &n);

	if (n > NFS_FHSIZE)
		rr_die_usage("a handle is up to %d bytes of hex, not '%s'", NFS_FHSIZE, hex);
	memset(fh, 0, sizeof(*fh));
	memcpy(fh->data, b, n);
	free(b);
}

static void
fh_print(const char *key, const nfs_fh *fh)
{
	rr_print_hex(key, fh->data, NFS_FHSIZE, 0);
	printf("\n");
}

static void
attr_print(const fattr *a)
{
	printf("type=%u mode=%o nlink=%u uid=%u gid=%u size=%u blocksize=%u rdev=0x%x "
	    "blocks=%u fsid=%u fileid=%u atime=%u.%06u mtime=%u.%06u ctime=%u.%06u\n",
	    (unsigned)a->type, a->mode, a->nlink, a->uid, a->gid, a->size, a->blocksize,
	    a->rdev, a->blocks, a->fsid, a->fileid, a->atime.seconds, a->atime.useconds,
	    a->mtime.seconds, a->mtime.useconds, a->ctime.seconds, a->ctime.useconds);
}

/* sattr from ATTR=VALUE words; everything not named stays -1 ("leave it"). */
static void
sattr_parse(char **av, sattr *s)
{
	memset(s, 0xff, sizeof(*s));
	for (; *av; av++) {
		char *eq = strchr(*av, '=');
		nfstime *t = NULL;

		if (eq == NULL)
			rr_die_usage("attribute '%s' is not NAME=VALUE", *av);
		*eq = '\0';
		if (strcmp(*av, "mode") == 0)
			s->mode = (u_int)rr_parse_num(eq + 1, "mode");
		else if (strcmp(*av, "uid") == 0)
			s->uid = (u_int)rr_parse_num(eq + 1, "uid");
		else if (strcmp(*av, "gid") == 0)
			s->gid = (u_int)rr_parse_num(eq + 1, "gid");
		else if (strcmp(*av, "size") == 0)
			s->size = (u_int)rr_parse_num(eq + 1, "size");
		else if (strcmp(*av, "atime") == 0)
			t = &s->atime;
		else if (strcmp(*av, "mtime") == 0)
			t = &s->mtime;
		else
			rr_die_usage("unknown attribute '%s'", *av);
		if (t == NULL)
			continue;
		/* S[.U], "server" (useconds 1000000) or "raw:S:U" */
		if (strcmp(eq + 1, "server") == 0) {
			t->seconds = 0;
			t->useconds = 1000000;
		} else if (strncmp(eq + 1, "raw:", 4) == 0) {
			unsigned sec, usec;
			if (sscanf(eq + 5, "%u:%u", &sec, &usec) != 2)
				rr_die_usage("raw time is raw:SECONDS:USECONDS");
			t->seconds = sec;
			t->useconds = usec;
		} else {
			char *dot = strchr(eq + 1, '.');
			if (dot)
				*dot = '\0';
			t->seconds = (u_int)rr_parse_num(eq + 1, "seconds");
			t->useconds = dot ? (u_int)rr_parse_num(dot + 1, "useconds") : 0;
		}
	}
}

static int
print_attrstat(const attrstat *r)
{
	printf("status=%d\n", (int)r->status);
	if (r->status == NFS_OK)
		attr_print(&r->attrstat_u.attributes);
	return 0;
}

static int
print_diropres(const diropres *r)
{
	printf("status=%d\n", (int)r->status);
	if (r->status == NFS_OK) {
		fh_print("fh", &r->diropres_u.diropres.file);
		attr_print(&r->diropres_u.diropres.attributes);
	}
	return 0;
}

/* ---- NFS commands ---- */

static int
cmd_null(char **av)
{
	(void)av;
	return nfs_call(NFSPROC_NULL, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

static int
cmd_root(char **av)
{
	(void)av;
	return nfs_call(NFSPROC_ROOT, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

static int
cmd_writecache(char **av)
{
	(void)av;
	return nfs_call(NFSPROC_WRITECACHE, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

/* An empty-bodied call to any v2 procedure (PROC_UNAVAIL / GARBAGE_ARGS tests). */
static int
cmd_proc(char **av)
{
	nfs_call(rr_parse_num(av[0], "procedure"), RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL);
	return 0;
}

static int
cmd_getattr(char **av)
{
	nfs_fh fh;
	attrstat r;

	fh_parse(av[0], &fh);
	memset(&r, 0, sizeof(r));
	if (!nfs_call(NFSPROC_GETATTR, RR_XDRP(xdr_nfs_fh), &fh, RR_XDRP(xdr_attrstat), &r))
		return 1;
	print_attrstat(&r);
	xdr_free(RR_XDRP(xdr_attrstat), (char *)&r);
	return 0;
}

/* GETATTR with each bit of the handle flipped: exit 1 if any is accepted. */
static int
cmd_flip_each(char **av)
{
	nfs_fh fh, t;
	int accepted = 0, calls = 0;

	fh_parse(av[0], &fh);
	for (int i = 0; i < NFS_FHSIZE; i++) {
		for (int b = 0; b < 8; b++) {
			attrstat r;

			t = fh;
			t.data[i] = (char)(t.data[i] ^ (1 << b));
			memset(&r, 0, sizeof(r));
			if (!nfs_call(NFSPROC_GETATTR, RR_XDRP(xdr_nfs_fh), &t, RR_XDRP(xdr_attrstat), &r))
				return 1;
			calls++;
			if (r.status == NFS_OK) {
				printf("accepted byte=%d bit=%d\n", i, b);
				accepted++;
			} else if (r.status != NFSERR_STALE) {
				printf("unexpected status=%d byte=%d bit=%d\n", (int)r.status, i, b);
				accepted++;
			}
		}
	}
	printf("flipped=%d accepted=%d\n", calls, accepted);
	return accepted ? 1 : 0;
}

static int
cmd_setattr(char **av)
{
	sattrargs a;
	attrstat r;

	fh_parse(av[0], &a.file);
	sattr_parse(av + 1, &a.attributes);
	memset(&r, 0, sizeof(r));
	if (!nfs_call(NFSPROC_SETATTR, RR_XDRP(xdr_sattrargs), &a, RR_XDRP(xdr_attrstat), &r))
		return 1;
	print_attrstat(&r);
	xdr_free(RR_XDRP(xdr_attrstat), (char *)&r);
	return 0;
}

static int
lookup1(const nfs_fh *dir, const char *nm, diropres *r)
{
	diropargs a;

	a.dir = *dir;
	a.name = (char *)nm;
	memset(r, 0, sizeof(*r));
	return nfs_call(NFSPROC_LOOKUP, RR_XDRP(xdr_diropargs), &a, RR_XDRP(xdr_diropres), r);
}

static int
cmd_lookup(char **av)
{
	nfs_fh dir;
	diropres r;

	fh_parse(av[0], &dir);
	if (!lookup1(&dir, av[1], &r))
		return 1;
	print_diropres(&r);
	xdr_free(RR_XDRP(xdr_diropres), (char *)&r);
	return 0;
}

/* LOOKUP component by component; prints the last result. */
static int
cmd_lookup_path(char **av)
{
	nfs_fh cur;
	diropres r;
	char *path = strdup(av[1]), *save = NULL;

	fh_parse(av[0], &cur);
	memset(&r, 0, sizeof(r));
	r.status = NFS_OK;
	r.diropres_u.diropres.file = cur;
	for (char *c = strtok_r(path, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		xdr_free(RR_XDRP(xdr_diropres), (char *)&r);
		if (!lookup1(&cur, c, &r)) {
			free(path);
			return 1;
		}
		if (r.status != NFS_OK)
			break;
		cur = r.diropres_u.diropres.file;
	}
	free(path);
	print_diropres(&r);
	xdr_free(RR_XDRP(xdr_diropres), (char *)&r);
	return 0;
}

static int
cmd_readlink(char **av)
{
	nfs_fh fh;
	readlinkres r;

	fh_parse(av[0], &fh);
	memset(&r, 0, sizeof(r));
	if (!nfs_call(NFSPROC_READLINK, RR_XDRP(xdr_nfs_fh), &fh, RR_XDRP(xdr_readlinkres), &r))
		return 1;
	printf("status=%d\n", (int)r.status);
	if (r.status == NFS_OK)
		printf("target=%s\n", r.readlinkres_u.data);
	xdr_free(RR_XDRP(xdr_readlinkres), (char *)&r);
	return 0;
}

static int
read1(const nfs_fh *fh, u_int off, u_int count, readres *r)
{
	readargs a;

	a.file = *fh;
	a.offset = off;
	a.count = count;
	a.totalcount = count;
	memset(r, 0, sizeof(*r));
	return nfs_call(NFSPROC_READ, RR_XDRP(xdr_readargs), &a, RR_XDRP(xdr_readres), r);
}

static int
cmd_read(char **av)
{
	nfs_fh fh;
	readres r;

	fh_parse(av[0], &fh);
	if (!read1(&fh, (u_int)rr_parse_num(av[1], "offset"), (u_int)rr_parse_num(av[2], "count"), &r))
		return 1;
	printf("status=%d\n", (int)r.status);
	if (r.status == NFS_OK) {
		readokres *ok = &r.readres_u.reply;
		printf("count=%u data=", ok->data.data_len);
		for (u_int i = 0; i < ok->data.data_len && i < 64; i++)
			printf("%02x", (uint8_t)ok->data.data_val[i]);
		printf("\n");
		attr_print(&ok->attributes);
	}
	xdr_free(RR_XDRP(xdr_readres), (char *)&r);
	return 0;
}

/* READ from 0 until a short read (v2's end of file) into OUTFILE. */
static int
cmd_read_file(char **av)
{
	nfs_fh fh;
	u_int chunk = opt.chunk ? opt.chunk : NFS_MAXDATA, off = 0;
	unsigned long long total = 0;
	unsigned calls = 0;
	FILE *out = fopen(av[1], "wb");
	int st = NFS_OK;

	if (out == NULL)
		rr_die_usage("%s: %s", av[1], strerror(errno));
	fh_parse(av[0], &fh);
	for (;;) {
		readres r;
		u_int n;

		if (!read1(&fh, off, chunk, &r)) {
			fclose(out);
			return 1;
		}
		calls++;
		st = r.status;
		n = st == NFS_OK ? r.readres_u.reply.data.data_len : 0;
		if (n)
			fwrite(r.readres_u.reply.data.data_val, 1, n, out);
		xdr_free(RR_XDRP(xdr_readres), (char *)&r);
		total += n;
		off += n;
		if (st != NFS_OK || n < chunk)
			break;
	}
	fclose(out);
	printf("status=%d bytes=%llu calls=%u\n", st, total, calls);
	return 0;
}

static int
write1(const nfs_fh *fh, u_int off, const char *data, u_int len, attrstat *r)
{
	writeargs a;

	a.file = *fh;
	a.beginoffset = off;
	a.offset = off;
	a.totalcount = len;
	a.data.data_len = len;
	a.data.data_val = (char *)data;
	memset(r, 0, sizeof(*r));
	return nfs_call(NFSPROC_WRITE, RR_XDRP(xdr_writeargs), &a, RR_XDRP(xdr_attrstat), r);
}

static int
cmd_write(char **av)
{
	nfs_fh fh;
	attrstat r;
	u_int n;
	char *data = rr_parse_hex(av[2], &n);

	fh_parse(av[0], &fh);
	if (!write1(&fh, (u_int)rr_parse_num(av[1], "offset"), data, (u_int)n, &r)) {
		free(data);
		return 1;
	}
	free(data);
	print_attrstat(&r);
	xdr_free(RR_XDRP(xdr_attrstat), (char *)&r);
	return 0;
}

/* WRITE a local file at OFFSET (default 0) in chunks (-c, default 8192). */
static int
cmd_write_file(char **av)
{
	nfs_fh fh;
	u_int chunk = opt.chunk ? opt.chunk : NFS_MAXDATA;
	u_int off = av[2] ? (u_int)rr_parse_num(av[2], "offset") : 0;
	unsigned long long total = 0;
	char *buf = malloc(chunk);
	FILE *in = fopen(av[1], "rb");
	int st = NFS_OK;
	size_t n;

	if (in == NULL || buf == NULL)
		rr_die_usage("%s: %s", av[1], strerror(errno));
	fh_parse(av[0], &fh);
	while ((n = fread(buf, 1, chunk, in)) > 0) {
		attrstat r;

		if (!write1(&fh, off, buf, (u_int)n, &r)) {
			fclose(in);
			free(buf);
			return 1;
		}
		st = r.status;
		xdr_free(RR_XDRP(xdr_attrstat), (char *)&r);
		if (st != NFS_OK)
			break;
		off += (u_int)n;
		total += n;
	}
	fclose(in);
	free(buf);
	printf("status=%d bytes=%llu\n", st, total);
	return 0;
}

static int
dirop_create(unsigned long proc, char **av)
{
	createargs a;
	diropres r;

	fh_parse(av[0], &a.where.dir);
	a.where.name = av[1];
	sattr_parse(av + 2, &a.attributes);
	memset(&r, 0, sizeof(r));
	if (!nfs_call(proc, RR_XDRP(xdr_createargs), &a, RR_XDRP(xdr_diropres), &r))
		return 1;
	print_diropres(&r);
	xdr_free(RR_XDRP(xdr_diropres), (char *)&r);
	return 0;
}

static int
cmd_create(char **av)
{
	return dirop_create(NFSPROC_CREATE, av);
}

static int
cmd_mkdir(char **av)
{
	return dirop_create(NFSPROC_MKDIR, av);
}

static int
status_call(unsigned long proc, xdrproc_t xargs, void *args)
{
	nfsstat st = NFS_OK;

	if (!nfs_call(proc, xargs, args, RR_XDRP(xdr_nfsstat), &st))
		return 1;
	printf("status=%d\n", (int)st);
	return 0;
}

static int
cmd_remove_common(unsigned long proc, char **av)
{
	diropargs a;

	fh_parse(av[0], &a.dir);
	a.name = av[1];
	return status_call(proc, RR_XDRP(xdr_diropargs), &a);
}

static int
cmd_remove(char **av)
{
	return cmd_remove_common(NFSPROC_REMOVE, av);
}

static int
cmd_rmdir(char **av)
{
	return cmd_remove_common(NFSPROC_RMDIR, av);
}

static int
cmd_rename(char **av)
{
	renameargs a;

	fh_parse(av[0], &a.from.dir);
	a.from.name = av[1];
	fh_parse(av[2], &a.to.dir);
	a.to.name = av[3];
	return status_call(NFSPROC_RENAME, RR_XDRP(xdr_renameargs), &a);
}

static int
cmd_link(char **av)
{
	linkargs a;

	fh_parse(av[0], &a.from);
	fh_parse(av[1], &a.to.dir);
	a.to.name = av[2];
	return status_call(NFSPROC_LINK, RR_XDRP(xdr_linkargs), &a);
}

static int
cmd_symlink(char **av)
{
	symlinkargs a;

	fh_parse(av[0], &a.from.dir);
	a.from.name = av[1];
	a.to = av[2];
	sattr_parse(av + 3, &a.attributes);
	return status_call(NFSPROC_SYMLINK, RR_XDRP(xdr_symlinkargs), &a);
}

static uint32_t
cookie_of(const nfscookie c)
{
	return (uint32_t)(uint8_t)c[0] << 24 | (uint32_t)(uint8_t)c[1] << 16 |
	    (uint32_t)(uint8_t)c[2] << 8 | (uint8_t)c[3];
}

static int
readdir1(const nfs_fh *dir, uint32_t cookie, u_int count, readdirres *r)
{
	readdirargs a;

	a.dir = *dir;
	a.cookie[0] = (char)(cookie >> 24);
	a.cookie[1] = (char)(cookie >> 16);
	a.cookie[2] = (char)(cookie >> 8);
	a.cookie[3] = (char)cookie;
	a.count = count;
	memset(r, 0, sizeof(*r));
	return nfs_call(NFSPROC_READDIR, RR_XDRP(xdr_readdirargs), &a, RR_XDRP(xdr_readdirres), r);
}

/* One READDIR: DIRFH [COOKIE [COUNT]]; prints every entry and the last cookie. */
static int
cmd_readdir(char **av)
{
	nfs_fh dir;
	readdirres r;
	unsigned n = 0;

	fh_parse(av[0], &dir);
	if (!readdir1(&dir, av[1] ? (uint32_t)rr_parse_num(av[1], "cookie") : 0,
	    av[1] && av[2] ? (u_int)rr_parse_num(av[2], "count") : NFS_MAXDATA, &r))
		return 1;
	printf("status=%d\n", (int)r.status);
	if (r.status == NFS_OK) {
		uint32_t last = 0;

		for (struct entry *e = r.readdirres_u.reply.entries; e; e = e->nextentry) {
			last = cookie_of(e->cookie);
			printf("entry=%s fileid=%u cookie=0x%08x\n", e->name, e->fileid, last);
			n++;
		}
		printf("entries=%u eof=%d last_cookie=0x%08x\n", n, (int)r.readdirres_u.reply.eof,
		    last);
	}
	xdr_free(RR_XDRP(xdr_readdirres), (char *)&r);
	return 0;
}

/*
 * READDIR until eof (count: -c, default 8192): a name=NAME line per
 * entry, then status= calls= entries= maxreply=BYTES (the largest reply's
 * encoded size, measured with xdr_sizeof).
 */
static int
cmd_readdir_names(char **av)
{
	nfs_fh dir;
	u_int count = opt.chunk ? opt.chunk : NFS_MAXDATA;
	unsigned long entries = 0, calls = 0, maxreply = 0;
	uint32_t cookie = 0;
	int eof = 0, st = NFS_OK;

	fh_parse(av[0], &dir);
	while (!eof) {
		readdirres r;
		unsigned long sz;
		unsigned n = 0;

		if (!readdir1(&dir, cookie, count, &r))
			return 1;
		calls++;
		st = r.status;
		if (st != NFS_OK) {
			xdr_free(RR_XDRP(xdr_readdirres), (char *)&r);
			break;
		}
		sz = xdr_sizeof(RR_XDRP(xdr_readdirres), &r);
		if (sz > maxreply)
			maxreply = sz;
		for (struct entry *e = r.readdirres_u.reply.entries; e; e = e->nextentry) {
			printf("name=%s\n", e->name);
			cookie = cookie_of(e->cookie);
			n++;
		}
		entries += n;
		eof = r.readdirres_u.reply.eof;
		xdr_free(RR_XDRP(xdr_readdirres), (char *)&r);
		if (n == 0 && !eof) {
			printf("error=no entries and no eof\n");
			return 1;
		}
	}
	printf("status=%d calls=%lu entries=%lu maxreply=%lu\n", st, calls, entries, maxreply);
	return 0;
}

static int
cmd_statfs(char **av)
{
	nfs_fh fh;
	statfsres r;

	fh_parse(av[0], &fh);
	memset(&r, 0, sizeof(r));
	if (!nfs_call(NFSPROC_STATFS, RR_XDRP(xdr_nfs_fh), &fh, RR_XDRP(xdr_statfsres), &r))
		return 1;
	printf("status=%d\n", (int)r.status);
	if (r.status == NFS_OK) {
		statfsokres *s = &r.statfsres_u.reply;
		printf("tsize=%u bsize=%u blocks=%u bfree=%u bavail=%u\n", s->tsize, s->bsize,
		    s->blocks, s->bfree, s->bavail);
	}
	return 0;
}

/* ---- MOUNT v1/v2 commands (version: -m, default 1) ---- */

static int
mnt_call(unsigned long proc, xdrproc_t xargs, void *args, xdrproc_t xres, void *res)
{
	return rr_call(MOUNT_PROGRAM, opt.mntvers, proc, xargs, args, xres, res);
}

static int
cmd_mnt(char **av)
{
	fhstatus r;
	dirpath p = av[0];

	memset(&r, 0, sizeof(r));
	if (!mnt_call(MOUNTPROC_MNT, RR_XDRP(xdr_dirpath), &p, RR_XDRP(xdr_fhstatus), &r))
		return 1;
	printf("status=%u\n", r.fhs_status);
	if (r.fhs_status == 0) {
		printf("fh=");
		for (int i = 0; i < FHSIZE; i++)
			printf("%02x", (uint8_t)r.fhstatus_u.fhs_fhandle[i]);
		printf("\n");
	}
	return 0;
}

static int
cmd_umnt(char **av)
{
	dirpath p = av[0];

	return mnt_call(MOUNTPROC_UMNT, RR_XDRP(xdr_dirpath), &p, RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

static int
cmd_umntall(char **av)
{
	(void)av;
	return mnt_call(MOUNTPROC_UMNTALL, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_void), NULL) ? 0 : 1;
}

static int
cmd_dump(char **av)
{
	mountlist ml = NULL;

	(void)av;
	if (!mnt_call(MOUNTPROC_DUMP, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_mountlist), &ml))
		return 1;
	for (struct mountbody *b = ml; b; b = b->ml_next)
		printf("mount=%s:%s\n", b->ml_hostname, b->ml_directory);
	xdr_free(RR_XDRP(xdr_mountlist), (char *)&ml);
	return 0;
}

static int
export_common(unsigned long proc)
{
	exports ex = NULL;

	if (!mnt_call(proc, RR_XDRP(xdr_void), NULL, RR_XDRP(xdr_exports), &ex))
		return 1;
	for (struct exportnode *n = ex; n; n = n->ex_next) {
		printf("export=%s groups=", n->ex_dir);
		for (struct groupnode *g = n->ex_groups; g; g = g->gr_next)
			printf("%s%s", g->gr_name, g->gr_next ? "," : "");
		printf("\n");
	}
	xdr_free(RR_XDRP(xdr_exports), (char *)&ex);
	return 0;
}

static int
cmd_exports(char **av)
{
	(void)av;
	return export_common(MOUNTPROC_EXPORT);
}

static int
cmd_exportall(char **av)
{
	(void)av;
	return export_common(MOUNTPROC_EXPORTALL);
}

static int
cmd_pathconf(char **av)
{
	ppathcnf r;
	dirpath p = av[0];

	memset(&r, 0, sizeof(r));
	/* PATHCONF is MOUNT v2 only. */
	if (!rr_call(MOUNT_PROGRAM, MOUNT_V2, MOUNTPROC_PATHCONF, RR_XDRP(xdr_dirpath), &p,
	    RR_XDRP(xdr_ppathcnf), &r))
		return 1;
	printf("link_max=%d max_canon=%d max_input=%d name_max=%d path_max=%d pipe_buf=%d "
	    "vdisable=%u mask=0x%04x\n", r.pc_link_max, r.pc_max_canon, r.pc_max_input,
	    r.pc_name_max, r.pc_path_max, r.pc_pipe_buf, (unsigned)r.pc_vdisable,
	    (unsigned)(uint16_t)r.pc_mask[0]);
	return 0;
}

/* ---- the table ---- */

static const struct rr_command commands[] = {
	{ "null", 0, 0, cmd_null, "", "NFSv2 NULL" },
	{ "root", 0, 0, cmd_root, "", "NFSv2 ROOT (obsolete: a no-op)" },
	{ "writecache", 0, 0, cmd_writecache, "", "NFSv2 WRITECACHE (obsolete: a no-op)" },
	{ "proc", 1, 1, cmd_proc, "PROC", "an empty-bodied call to NFSv2 procedure PROC" },
	{ "getattr", 1, 1, cmd_getattr, "FH", "GETATTR: status and attributes" },
	{ "flip-each", 1, 1, cmd_flip_each, "FH", "GETATTR with each bit flipped; 1 if any works" },
	{ "setattr", 1, 7, cmd_setattr, "FH [ATTR=V...]",
	  "SETATTR mode= uid= gid= size= atime=|mtime=S[.U]|server|raw:S:U" },
	{ "lookup", 2, 2, cmd_lookup, "DIRFH NAME", "LOOKUP: status, fh, attributes" },
	{ "lookup-path", 2, 2, cmd_lookup_path, "DIRFH A/B/C", "LOOKUP each component" },
	{ "readlink", 1, 1, cmd_readlink, "FH", "READLINK: status and target" },
	{ "read", 3, 3, cmd_read, "FH OFFSET COUNT", "READ: count, data (64 bytes hex), attrs" },
	{ "read-file", 2, 2, cmd_read_file, "FH OUTFILE", "READ all (chunk: -c) into OUTFILE" },
	{ "write", 3, 3, cmd_write, "FH OFFSET HEXDATA", "WRITE: status and attributes" },
	{ "write-file", 2, 3, cmd_write_file, "FH INFILE [OFFSET]", "WRITE a file (chunk: -c)" },
	{ "create", 2, 8, cmd_create, "DIRFH NAME [ATTR=V...]", "CREATE: status, fh, attrs" },
	{ "mkdir", 2, 8, cmd_mkdir, "DIRFH NAME [ATTR=V...]", "MKDIR: status, fh, attrs" },
	{ "symlink", 3, 9, cmd_symlink, "DIRFH NAME TARGET [ATTR=V...]", "SYMLINK: status" },
	{ "remove", 2, 2, cmd_remove, "DIRFH NAME", "REMOVE: status" },
	{ "rmdir", 2, 2, cmd_rmdir, "DIRFH NAME", "RMDIR: status" },
	{ "rename", 4, 4, cmd_rename, "FROMDIR FROM TODIR TO", "RENAME: status" },
	{ "link", 3, 3, cmd_link, "FH DIRFH NAME", "LINK: status" },
	{ "readdir", 1, 3, cmd_readdir, "DIRFH [COOKIE [COUNT]]", "one READDIR: entries, eof" },
	{ "readdir-names", 1, 1, cmd_readdir_names, "DIRFH",
	  "READDIR until eof (count: -c): name= lines, calls= entries= maxreply=" },
	{ "statfs", 1, 1, cmd_statfs, "FH", "STATFS" },
	{ "mnt", 1, 1, cmd_mnt, "PATH", "MOUNT v1/v2 (-m) MNT: status (errno), fh" },
	{ "umnt", 1, 1, cmd_umnt, "PATH", "MOUNT UMNT" },
	{ "umntall", 0, 0, cmd_umntall, "", "MOUNT UMNTALL" },
	{ "dump", 0, 0, cmd_dump, "", "MOUNT DUMP: mount=HOST:PATH lines" },
	{ "exports", 0, 0, cmd_exports, "", "MOUNT EXPORT: export=DIR groups=G,.. lines" },
	{ "exportall", 0, 0, cmd_exportall, "", "MOUNT EXPORTALL" },
	{ "pathconf", 1, 1, cmd_pathconf, "PATH", "MOUNT v2 PATHCONF" },
};

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: nfs2probe [-a none|sys] [-u UID] [-g GID] [-P] [-t SECS] [-c SIZE] [-m 1|2]\n"
	    "                 HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS...] [++ COMMAND...]...\n"
	    "  -a  credentials (default sys)   -u/-g  AUTH_SYS uid/gid (default 0)\n"
	    "  -P  unprivileged source port    -t  timeout per call (default 5 s)\n"
	    "  -c  READ/WRITE chunk, READDIR count   -m  MOUNT version (default 1)\n"
	    "commands:\n");
	rr_usage_commands(f, commands, sizeof(commands) / sizeof(commands[0]), 14, 30);
}

int
main(int argc, char **argv)
{
	int c;

	rr_start(argc, argv, "nfs2probe", usage);
	rr.machname = "nfs2probe";
	while ((c = getopt(argc, argv, "+a:u:g:Pt:c:m:h")) != -1) {
		if (rr_option(c, optarg))
			continue;
		switch (c) {
		case 'c': opt.chunk = (unsigned)rr_parse_num(optarg, "size"); break;
		case 'm':
			opt.mntvers = (unsigned)rr_parse_num(optarg, "MOUNT version");
			if (opt.mntvers != 1 && opt.mntvers != 2)
				rr_die_usage("-m takes 1 or 2");
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	return rr_run_steps(argc, argv, optind, commands, sizeof(commands) / sizeof(commands[0]),
	    usage);
}
