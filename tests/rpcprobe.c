/*
 * rpcprobe - a small raw ONC RPC test client for usernfsd's integration tests.
 *
 * It talks to an explicit HOST/PORT over udp, tcp, udp6 or tcp6 (no rpcbind
 * involved), builds every call body by hand (no rpcgen headers), and prints
 * what came back as key=value lines, so that shell tests can grep them.
 * The client, its options, the XDR encoder and decoder, the rpc=NAME lines
 * and the "++" command loop are the tests' raw RPC library, rpcraw.h; what
 * is here is NFSv3 and MOUNT v3.
 *
 * Build (make check does; lib.sh's build_tool when it has not):
 *   gcc -Wall -Wextra -Werror $(pkg-config --cflags libtirpc) rpcprobe.c \
 *       rpcraw.c $(pkg-config --libs libtirpc) -o rpcprobe
 *
 * Usage: rpcprobe [OPTIONS] HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS...]
 *                 [++ COMMAND [ARGS...]]...
 * "rpcprobe --help" lists the commands (see the table `commands` below).
 * Commands separated by "++" run one after the other over the same client
 * (same socket, source port and TCP connection), each after a line
 * "step=N command=NAME"; -x XID sends every call with that XID.  "dup
 * COMMAND ..." sends the first call of COMMAND twice with one XID (a
 * retransmission, for the duplicate request cache) and prints both replies.
 *
 * Output conventions:
 *   rpc=SUCCESS            the RPC call was accepted and executed
 *   rpc=NAME ...           RPC-level failure: PROG_UNAVAIL, PROG_MISMATCH
 *                          low=L high=H, PROC_UNAVAIL, GARBAGE_ARGS,
 *                          SYSTEM_ERR, AUTH_ERROR why=N(NAME), TIMEDOUT,
 *                          CANTRECV, CANTSEND, CREATE_FAILED, ...
 *   status=N               the nfsstat3 / mountstat3 of the reply
 *   fh=HEX type=N fileid=N size=N ...   command specific fields
 *   type=.. mode=.. nlink=.. uid=.. gid=.. size=.. fsid=.. fileid=.. mtime=S.N
 *     atime=S.N ctime=S.N used=.. rdev=MAJ,MIN     a fattr3 (with a prefix
 *                          such as post_ or file_ on every key when it is
 *                          not the object's own)
 *   [P]pre_size=.. [P]pre_mtime=S.N [P]pre_ctime=S.N   wcc_data: pre-op
 *   [P]post_type=.. [P]post_size=.. ...                and post-op attributes
 *                          (P: dir_, from_, to_; "pre=none" / "post_attr=none"
 *                          when the server sent none)
 *   dup xid1=.. xid2=.. rpc1=.. rpc2=.. len1=.. len2=.. status1=.. status2=..
 *     identical=0|1, then reply1=HEX and reply2=HEX: the two result bodies
 *
 * Exit status:
 *   plain commands:   0 when the RPC succeeded (whatever the NFS status),
 *                     1 on an RPC-level failure or an undecodable reply
 *   expect-* commands: 0 when exactly the expected outcome happened, else 1
 *   2 on a usage error
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <rpc/rpc.h>

#include "rpcraw.h"

#define NFS_PROGRAM   100003u
#define NFS_V3        3u
#define MOUNT_PROGRAM 100005u
#define MOUNT_V3      3u

/* NFSv3 procedures (RFC 1813) */
enum {
	NFSPROC3_NULL = 0, NFSPROC3_GETATTR = 1, NFSPROC3_SETATTR = 2,
	NFSPROC3_LOOKUP = 3, NFSPROC3_ACCESS = 4, NFSPROC3_READLINK = 5,
	NFSPROC3_READ = 6, NFSPROC3_WRITE = 7, NFSPROC3_CREATE = 8,
	NFSPROC3_MKDIR = 9, NFSPROC3_SYMLINK = 10, NFSPROC3_MKNOD = 11,
	NFSPROC3_REMOVE = 12, NFSPROC3_RMDIR = 13, NFSPROC3_RENAME = 14,
	NFSPROC3_LINK = 15, NFSPROC3_READDIR = 16,
	NFSPROC3_READDIRPLUS = 17, NFSPROC3_FSSTAT = 18, NFSPROC3_FSINFO = 19,
	NFSPROC3_PATHCONF = 20, NFSPROC3_COMMIT = 21
};
/* MOUNT v3 procedures */
enum { MOUNTPROC3_NULL = 0, MOUNTPROC3_MNT = 1, MOUNTPROC3_UMNT = 3,
       MOUNTPROC3_EXPORT = 5 };

#define NFS3_FHSIZE_MAX 64
#define ARGBUF_SIZE     (2u * 1024 * 1024)

/* ------------------------------------------------------------------ */
/* global options and connection state                                 */

/* rpcprobe's own options; the target, credentials and socket options are
 * rpcraw's (rr). */
static struct {
	unsigned chunk;         /* -c READ / READDIR / WRITE size */
	int force_xid;          /* -x given: every call uses opt.xid */
	uint32_t xid;
	int dup;                /* "dup": the next call is sent twice */
} opt;

/* Every buffer the probe allocates is recorded here and lives until exit:
 * a one-shot tool needs no frees, and this keeps LeakSanitizer quiet when
 * the test suite is built with -fsanitize=address. */
static void **arena;
static size_t arena_n, arena_cap;

static void *keep(void *p)
{
	if (p == NULL) {
		fprintf(stderr, "rpcprobe: out of memory\n");
		exit(1);
	}
	if (arena_n == arena_cap) {
		arena_cap = arena_cap ? arena_cap * 2 : 256;
		arena = realloc(arena, arena_cap * sizeof(*arena));
		if (arena == NULL) {
			fprintf(stderr, "rpcprobe: out of memory\n");
			exit(1);
		}
	}
	arena[arena_n++] = p;
	return p;
}

/* Call bodies are encoded into one buffer (struct rr_enc) and sent
 * verbatim with rr_xdr_send; reply bodies are slurped whole (rr_xdr_slurp)
 * and parsed with the decoder below. */

/* encoder helpers */
static char *argbuf;

static struct rr_enc enc;

static void enc_start(void)
{
	if (argbuf == NULL)
		argbuf = keep(malloc(ARGBUF_SIZE));
	rr_enc_init(&enc, argbuf, ARGBUF_SIZE);
}

static void enc_u32(uint32_t v) { rr_enc_u32(&enc, v); }
static void enc_u64(uint64_t v) { rr_enc_u64(&enc, v); }
/* deliberately no maximum: oversized handles are a test case */
static void enc_opaque(const unsigned char *data, u_int len) { rr_enc_opaque(&enc, data, len); }
static void enc_string(const char *s) { rr_enc_string(&enc, s); }
static struct rr_enc enc_finish(void) { return enc; }

/* ------------------------------------------------------------------ */
/* RPC call and error printing                                          */

struct result {
	enum clnt_stat st;
	struct rpc_err err;
	struct rr_enc rep;	/* the result body */
};

static struct result send_again(unsigned long proc, struct rr_enc *b,
				const struct result *first);

/* Make the next call on the cached client use XID x.  libtirpc's UDP
 * client stores x - 1 and increments it before the call, as documented.
 * Its TCP client stores htonl(x + 1) and then decrements the stored word
 * as if it were in host byte order, so on a little-endian machine the
 * call would go out with another XID; the value passed here compensates
 * (ntohl(htonl(x) + 1) - 1 == x on a big-endian machine).  Callers check
 * the XID actually used with CLGET_XID after the call. */
static void set_next_xid(uint32_t x)
{
	uint32_t v = x;

	if (!rr_is_udp())
		v = ntohl(htonl(x) + 1) - 1;
	clnt_control(rr_cached_client(), CLSET_XID, (char *)&v);
}

static struct result do_call(unsigned long prog, unsigned long vers,
			     unsigned long proc, struct rr_enc *b, int auth_none)
{
	struct result r;
	struct timeval tv = { rr.timeout, 0 };
	CLIENT *clnt = rr_client(prog, vers, auth_none);

	memset(&r, 0, sizeof(r));
	if (opt.force_xid)
		set_next_xid(opt.xid);
	r.st = clnt_call(clnt, proc, RR_XDRP(rr_xdr_send), (char *)b,
			 RR_XDRP(rr_xdr_slurp), (char *)&r.rep, tv);
	clnt_geterr(clnt, &r.err);
	if (r.rep.buf)
		keep(r.rep.buf);
	if (opt.dup) {
		opt.dup = 0;
		r = send_again(proc, b, &r);
	}
	rr_call_done(r.st);
	return r;
}

/* Print "rpc=..." for a call result.  Returns 1 for RPC_SUCCESS. */
static int print_rpc(const struct result *r)
{
	return rr_print_rpc(r->st, &r->err);
}

/* ------------------------------------------------------------------ */
/* reply decoding                                                       */

static struct rr_dec dec;

static void dec_start(struct rr_enc *rep)
{
	rr_dec_init(&dec, rep->buf, rep->len);
}

static void dec_fail(void)
{
	printf("decode=FAILED (reply body shorter than expected)\n");
	exit(1);
}

static uint32_t dec_u32(void)
{
	uint32_t v = rr_dec_u32(&dec);
	if (!dec.ok)
		dec_fail();
	return v;
}

static uint64_t dec_u64(void)
{
	uint64_t v = rr_dec_u64(&dec);
	if (!dec.ok)
		dec_fail();
	return v;
}

/* variable-length opaque; result is malloc'ed and NUL-terminated */
static char *dec_opaque(u_int *lenp, u_int max)
{
	const uint8_t *p = rr_dec_opaque(&dec, lenp, max);
	char *out;
	if (!dec.ok)
		dec_fail();
	out = keep(malloc(*lenp + 1));
	memcpy(out, p, *lenp);
	out[*lenp] = '\0';
	return out;
}

static void dec_fixed(char *out, u_int len)
{
	rr_dec_fixed(&dec, out, len);
	if (!dec.ok)
		dec_fail();
}

struct fattr3 {
	uint32_t type, mode, nlink, uid, gid;
	uint64_t size, used, fsid, fileid;
	uint32_t rdev1, rdev2;
	uint32_t atime[2], mtime[2], ctime[2];
};

static void dec_fattr3(struct fattr3 *a)
{
	a->type = dec_u32(); a->mode = dec_u32(); a->nlink = dec_u32();
	a->uid = dec_u32(); a->gid = dec_u32();
	a->size = dec_u64(); a->used = dec_u64();
	a->rdev1 = dec_u32(); a->rdev2 = dec_u32();
	a->fsid = dec_u64(); a->fileid = dec_u64();
	a->atime[0] = dec_u32(); a->atime[1] = dec_u32();
	a->mtime[0] = dec_u32(); a->mtime[1] = dec_u32();
	a->ctime[0] = dec_u32(); a->ctime[1] = dec_u32();
}

static void print_fattr3(const char *prefix, const struct fattr3 *a)
{
	const char *p = prefix;

	/* the prefix goes on every key, so "post_size" etc. stay unambiguous */
	printf("%stype=%" PRIu32 " %smode=%04" PRIo32 " %snlink=%" PRIu32
	       " %suid=%" PRIu32 " %sgid=%" PRIu32 " %ssize=%" PRIu64
	       " %sfsid=%" PRIu64 " %sfileid=%" PRIu64 " %smtime=%" PRIu32 ".%09"
	       PRIu32, p, a->type, p, a->mode & 07777, p, a->nlink, p, a->uid,
	       p, a->gid, p, a->size, p, a->fsid, p, a->fileid, p, a->mtime[0],
	       a->mtime[1]);
	printf(" %satime=%" PRIu32 ".%09" PRIu32 " %sctime=%" PRIu32 ".%09"
	       PRIu32 " %sused=%" PRIu64 " %srdev=%" PRIu32 ",%" PRIu32 "\n",
	       p, a->atime[0], a->atime[1], p, a->ctime[0], a->ctime[1],
	       p, a->used, p, a->rdev1, a->rdev2);
}

/* post_op_attr: returns 1 and fills *a when attributes follow */
static int dec_post_op_attr(struct fattr3 *a)
{
	if (dec_u32()) {
		dec_fattr3(a);
		return 1;
	}
	return 0;
}

static void dec_wcc_data(void)
{
	struct fattr3 a;
	if (dec_u32()) { /* pre_op_attr: size, mtime, ctime */
		(void)dec_u64();
		(void)dec_u32(); (void)dec_u32();
		(void)dec_u32(); (void)dec_u32();
	}
	(void)dec_post_op_attr(&a);
}

/* post_op_attr printed as PREFIX-keyed attributes, or "PREFIXattr=none" */
static void dec_print_post_op_attr(const char *prefix)
{
	struct fattr3 a;
	if (dec_post_op_attr(&a))
		print_fattr3(prefix, &a);
	else
		printf("%sattr=none\n", prefix);
}

/* wcc_data as two lines: "Ppre_size=.. Ppre_mtime=.. Ppre_ctime=.." (or
 * "Ppre=none") and the post-op attributes with keys "Ppost_..." */
static void dec_print_wcc(const char *prefix)
{
	char post[64];

	if (dec_u32()) {
		uint64_t size = dec_u64();
		uint32_t m0 = dec_u32(), m1 = dec_u32();
		uint32_t c0 = dec_u32(), c1 = dec_u32();
		printf("%spre_size=%" PRIu64 " %spre_mtime=%" PRIu32 ".%09" PRIu32
		       " %spre_ctime=%" PRIu32 ".%09" PRIu32 "\n", prefix, size,
		       prefix, m0, m1, prefix, c0, c1);
	} else {
		printf("%spre=none\n", prefix);
	}
	snprintf(post, sizeof(post), "%spost_", prefix);
	dec_print_post_op_attr(post);
}

/* ------------------------------------------------------------------ */
/* hex helpers                                                          */

static unsigned char *parse_hex(const char *s, u_int *lenp)
{
	return keep(rr_parse_hex(s, lenp));
}

static void print_hex(const char *key, const unsigned char *p, u_int len)
{
	rr_print_hex(key, p, len, 0);
}

/* ------------------------------------------------------------------ */
/* "dup": the same call (same XID, same bytes) sent a second time       */

static uint32_t first_word(const struct rr_enc *rep)
{
	uint32_t w;
	if (rep->len < 4)
		return 0xffffffffu;
	memcpy(&w, rep->buf, 4);
	return ntohl(w);
}

/* Called by do_call right after the first call of a "dup" command, on the
 * same client (so the same socket, source port and connection).  The XID
 * of the first call is read back with CLGET_XID and set again with
 * CLSET_XID (see set_next_xid), and the same body is sent again; xid1 and
 * xid2 are the XIDs the two calls really carried.  Prints both result
 * bodies (everything after the accepted-reply header) and whether they are
 * identical; the second result is what the command then decodes. */
static struct result send_again(unsigned long proc, struct rr_enc *b,
				const struct result *first)
{
	struct result r;
	struct timeval tv = { rr.timeout, 0 };
	CLIENT *clnt = rr_cached_client();
	uint32_t xid1 = 0, xid2 = 0;
	int same;

	clnt_control(clnt, CLGET_XID, (char *)&xid1);
	set_next_xid(xid1);
	memset(&r, 0, sizeof(r));
	r.st = clnt_call(clnt, proc, RR_XDRP(rr_xdr_send), (char *)b,
			 RR_XDRP(rr_xdr_slurp), (char *)&r.rep, tv);
	clnt_geterr(clnt, &r.err);
	if (r.rep.buf)
		keep(r.rep.buf);
	clnt_control(clnt, CLGET_XID, (char *)&xid2);
	same = first->st == r.st && first->rep.len == r.rep.len &&
	       (r.rep.len == 0 || memcmp(first->rep.buf, r.rep.buf, r.rep.len) == 0);
	printf("dup xid1=0x%08" PRIx32 " xid2=0x%08" PRIx32 " rpc1=%s rpc2=%s"
	       " len1=%u len2=%u status1=%" PRIu32 " status2=%" PRIu32
	       " identical=%d\n", xid1, xid2, rr_clnt_stat_name(first->st),
	       rr_clnt_stat_name(r.st), first->rep.len, r.rep.len,
	       first_word(&first->rep), first_word(&r.rep), same);
	print_hex("reply1", (unsigned char *)first->rep.buf, first->rep.len);
	printf("\n");
	print_hex("reply2", (unsigned char *)r.rep.buf, r.rep.len);
	printf("\n");
	return r;
}

/* ------------------------------------------------------------------ */
/* building blocks used by several commands                             */

/* NFSv3 call with a body consisting of just one handle */
static struct result nfs_fh_call(unsigned proc, const unsigned char *fh,
				 u_int fhlen, int auth_none)
{
	struct rr_enc b;
	enc_start();
	enc_opaque(fh, fhlen);
	b = enc_finish();
	return do_call(NFS_PROGRAM, NFS_V3, proc, &b, auth_none);
}

struct lookup_res {
	uint32_t status;
	unsigned char *fh;
	u_int fhlen;
	int have_attr;
	struct fattr3 attr;
};

static int nfs_lookup(const unsigned char *dir, u_int dirlen, const char *name,
		      struct lookup_res *out)
{
	struct rr_enc b;
	struct result r;
	struct fattr3 dummy;

	enc_start();
	enc_opaque(dir, dirlen);
	enc_string(name);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, &b, 0);
	if (!print_rpc(&r))
		return 0;
	memset(out, 0, sizeof(*out));
	dec_start(&r.rep);
	out->status = dec_u32();
	if (out->status == 0) {
		out->fh = (unsigned char *)dec_opaque(&out->fhlen, 1u << 20);
		out->have_attr = dec_post_op_attr(&out->attr);
		(void)dec_post_op_attr(&dummy);
	}
	return 1;
}

static void print_lookup(const struct lookup_res *l)
{
	printf("status=%" PRIu32 "\n", l->status);
	if (l->status == 0) {
		print_hex("fh", l->fh, l->fhlen);
		printf(" fhlen=%u\n", l->fhlen);
		if (l->have_attr)
			print_fattr3("", &l->attr);
	}
}

/* ------------------------------------------------------------------ */
/* commands                                                             */

static int cmd_null(char **av)
{
	struct rr_enc b = { NULL, 0, 0, 0 };
	struct result r = do_call(rr_parse_num(av[0], "program"),
				  rr_parse_num(av[1], "version"), 0, &b, 0);
	return print_rpc(&r) ? 0 : 1;
}

static int cmd_expect_prog_unavail(char **av)
{
	struct rr_enc b = { NULL, 0, 0, 0 };
	struct result r = do_call(rr_parse_num(av[0], "program"),
				  rr_parse_num(av[1], "version"), 0, &b, 0);
	print_rpc(&r);
	return r.st == RPC_PROGUNAVAIL ? 0 : 1;
}

static int cmd_expect_prog_mismatch(char **av)
{
	struct rr_enc b = { NULL, 0, 0, 0 };
	struct result r = do_call(rr_parse_num(av[0], "program"),
				  rr_parse_num(av[1], "version"), 0, &b, 0);
	print_rpc(&r);
	return r.st == RPC_PROGVERSMISMATCH ? 0 : 1;
}

static int cmd_expect_proc_unavail(char **av)
{
	struct rr_enc b = { NULL, 0, 0, 0 };
	struct result r = do_call(rr_parse_num(av[0], "program"),
				  rr_parse_num(av[1], "version"),
				  rr_parse_num(av[2], "procedure"), &b, 0);
	print_rpc(&r);
	return r.st == RPC_PROCUNAVAIL ? 0 : 1;
}

/* LOOKUP whose filename claims 200 bytes but carries only 4: the server
 * must answer GARBAGE_ARGS. */
static int cmd_expect_garbage_args(char **av)
{
	unsigned char zero[8] = { 0 };
	unsigned char *fh = zero;
	u_int fhlen = sizeof(zero);
	struct rr_enc b;
	struct result r;

	if (av[0])
		fh = parse_hex(av[0], &fhlen);
	enc_start();
	enc_opaque(fh, fhlen);
	enc_u32(200);              /* filename3 length ... */
	enc_u32(0x61626364);       /* ... but only "abcd" follows */
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_LOOKUP, &b, 0);
	print_rpc(&r);
	return r.st == RPC_CANTDECODEARGS ? 0 : 1;
}

static int cmd_expect_auth_tooweak(char **av)
{
	unsigned char zero[8] = { 0 };
	unsigned char *fh = zero;
	u_int fhlen = sizeof(zero);
	struct result r;

	if (av[0])
		fh = parse_hex(av[0], &fhlen);
	r = nfs_fh_call(NFSPROC3_GETATTR, fh, fhlen, 1);
	print_rpc(&r);
	return (r.st == RPC_AUTHERROR && r.err.re_why == AUTH_TOOWEAK) ? 0 : 1;
}

static int cmd_mnt(char **av)
{
	struct rr_enc b;
	struct result r;
	uint32_t status;

	enc_start();
	enc_string(av[0]);
	b = enc_finish();
	r = do_call(MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	if (status == 0) {
		u_int len, n, i;
		char *fh = dec_opaque(&len, 1u << 20);
		print_hex("fh", (unsigned char *)fh, len);
		printf(" fhlen=%u\n", len);
		n = dec_u32();
		printf("flavors=");
		for (i = 0; i < n && i < 64; i++)
			printf("%s%" PRIu32, i ? "," : "", dec_u32());
		printf("\n");
	}
	return 0;
}

static int cmd_umnt(char **av)
{
	struct rr_enc b;
	struct result r;
	enc_start();
	enc_string(av[0]);
	b = enc_finish();
	r = do_call(MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_UMNT, &b, 0);
	return print_rpc(&r) ? 0 : 1;
}

static int cmd_exports(char **av)
{
	struct rr_enc b = { NULL, 0, 0, 0 };
	struct result r;
	(void)av;
	r = do_call(MOUNT_PROGRAM, MOUNT_V3, MOUNTPROC3_EXPORT, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	while (dec_u32()) {
		u_int len;
		char *dir = dec_opaque(&len, 1u << 16);
		int first = 1;
		printf("export=%s groups=", dir);
		while (dec_u32()) {
			char *g = dec_opaque(&len, 1u << 16);
			printf("%s%s", first ? "" : ",", g);
			first = 0;
			free(g);
		}
		printf("\n");
		free(dir);
	}
	return 0;
}

static int cmd_getattr_hex(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct result r = nfs_fh_call(NFSPROC3_GETATTR, fh, fhlen, 0);
	uint32_t status;

	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	if (status == 0) {
		struct fattr3 a;
		dec_fattr3(&a);
		print_fattr3("", &a);
	}
	return 0;
}

/* any NFSv3 procedure whose arguments are just a handle (GETATTR,
 * READLINK, FSSTAT, FSINFO, PATHCONF); prints only the status */
static int cmd_fhcall(char **av)
{
	unsigned proc = (unsigned)rr_parse_num(av[0], "procedure");
	u_int fhlen;
	unsigned char *fh = parse_hex(av[1], &fhlen);
	struct result r = nfs_fh_call(proc, fh, fhlen, 0);

	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	return 0;
}

static int cmd_fsinfo_hex(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct result r = nfs_fh_call(NFSPROC3_FSINFO, fh, fhlen, 0);
	struct fattr3 a;
	uint32_t status;

	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	(void)dec_post_op_attr(&a);
	if (status == 0) {
		uint32_t v[7];
		uint64_t maxfilesize;
		uint32_t td0, td1, props;
		int i;
		for (i = 0; i < 7; i++)
			v[i] = dec_u32();
		maxfilesize = dec_u64();
		td0 = dec_u32(); td1 = dec_u32();
		props = dec_u32();
		printf("rtmax=%" PRIu32 " rtpref=%" PRIu32 " rtmult=%" PRIu32
		       " wtmax=%" PRIu32 " wtpref=%" PRIu32 " wtmult=%" PRIu32
		       " dtpref=%" PRIu32 " maxfilesize=%" PRIu64
		       " time_delta=%" PRIu32 ".%09" PRIu32 " properties=0x%"
		       PRIx32 "\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6],
		       maxfilesize, td0, td1, props);
	}
	return 0;
}

static int cmd_lookup_hex(char **av)
{
	u_int dirlen;
	unsigned char *dir = parse_hex(av[0], &dirlen);
	struct lookup_res l;

	if (!nfs_lookup(dir, dirlen, av[1], &l))
		return 1;
	print_lookup(&l);
	return 0;
}

/* LOOKUP each '/'-separated component of REL starting at DIRHEX */
static int cmd_lookup_path(char **av)
{
	u_int len;
	unsigned char *fh = parse_hex(av[0], &len);
	char *rel = keep(strdup(av[1])), *save = NULL, *comp;
	struct lookup_res l;
	int n = 0;

	memset(&l, 0, sizeof(l));
	for (comp = strtok_r(rel, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		if (!nfs_lookup(fh, len, comp, &l))
			return 1;
		n++;
		if (l.status != 0) {
			printf("failed_at=%s\n", comp);
			print_lookup(&l);
			return 0;
		}
		fh = l.fh;
		len = l.fhlen;
	}
	if (n == 0)
		rr_die_usage("empty path");
	print_lookup(&l);
	return 0;
}

static int cmd_readlink_hex(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct result r = nfs_fh_call(NFSPROC3_READLINK, fh, fhlen, 0);
	struct fattr3 a;
	uint32_t status;

	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	(void)dec_post_op_attr(&a);
	if (status == 0) {
		u_int len;
		char *target = dec_opaque(&len, 1u << 20);
		printf("target=%s\n", target);
	}
	return 0;
}

struct read_res {
	uint32_t status, count, eof;
	char *data;
	u_int len;
};

static int nfs_read(const unsigned char *fh, u_int fhlen, uint64_t off,
		    uint32_t count, struct read_res *out, int quiet)
{
	struct rr_enc b;
	struct result r;
	struct fattr3 a;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u64(off);
	enc_u32(count);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_READ, &b, 0);
	if (r.st != RPC_SUCCESS || !quiet)
		if (!print_rpc(&r))
			return 0;
	memset(out, 0, sizeof(*out));
	dec_start(&r.rep);
	out->status = dec_u32();
	(void)dec_post_op_attr(&a);
	if (out->status == 0) {
		out->count = dec_u32();
		out->eof = dec_u32();
		out->data = dec_opaque(&out->len, 1u << 30);
	}
	free(r.rep.buf);
	return 1;
}

static int cmd_read_hex(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct read_res rd;

	if (!nfs_read(fh, fhlen, rr_parse_num(av[1], "offset"),
		      (uint32_t)rr_parse_num(av[2], "count"), &rd, 0))
		return 1;
	printf("status=%" PRIu32 "\n", rd.status);
	if (rd.status == 0) {
		printf("count=%" PRIu32 " eof=%" PRIu32 " ", rd.count, rd.eof);
		print_hex("data", (unsigned char *)rd.data, rd.len);
		printf("\n");
		if (rd.count != rd.len)
			printf("warning=count_differs_from_data_length\n");
	}
	return 0;
}

/* READ a whole file into OUTFILE, chunk by chunk, until eof */
static int cmd_read_file(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	FILE *out = fopen(av[1], "wb");
	uint32_t chunk = opt.chunk ? opt.chunk : (rr_is_udp() ? 32768 : 131072);
	uint64_t off = 0;
	unsigned long calls = 0;
	struct read_res rd;

	if (out == NULL) {
		perror(av[1]);
		return 2;
	}
	for (;;) {
		if (!nfs_read(fh, fhlen, off, chunk, &rd, 1))
			return 1;
		calls++;
		if (rd.status != 0) {
			printf("status=%" PRIu32 " offset=%" PRIu64 "\n",
			       rd.status, off);
			return 0;
		}
		if (rd.count != rd.len) {
			printf("status=0 error=count_%" PRIu32 "_differs_from_data_%u\n",
			       rd.count, rd.len);
			return 1;
		}
		if (fwrite(rd.data, 1, rd.len, out) != rd.len) {
			perror("fwrite");
			return 2;
		}
		off += rd.len;
		free(rd.data);
		if (rd.eof)
			break;
		if (rd.len == 0) {
			printf("status=0 error=short_read_without_eof offset=%"
			       PRIu64 "\n", off);
			return 1;
		}
		if (calls > 10000000ul) {
			printf("error=too_many_calls\n");
			return 1;
		}
	}
	fclose(out);
	printf("rpc=SUCCESS\nstatus=0 bytes=%" PRIu64 " calls=%lu\n", off, calls);
	return 0;
}

/* READDIR (plus=0) or READDIRPLUS (plus=1) until eof; names on stdout,
 * one per line; a summary on stderr. */
static int readdir_names(char **av, int plus)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	uint32_t count = opt.chunk ? opt.chunk : 8192;
	uint64_t cookie = 0;
	char verf[8] = { 0 };
	unsigned long calls = 0, entries = 0;

	for (;;) {
		struct rr_enc b;
		struct result r;
		struct fattr3 a;
		uint32_t status, eof;
		unsigned long got = 0;

		enc_start();
		enc_opaque(fh, fhlen);
		enc_u64(cookie);
		rr_enc_fixed(&enc, verf, 8);
		enc_u32(count);            /* count / dircount */
		if (plus)
			enc_u32(count * 4);  /* maxcount */
		b = enc_finish();
		r = do_call(NFS_PROGRAM, NFS_V3,
			    plus ? NFSPROC3_READDIRPLUS : NFSPROC3_READDIR, &b, 0);
		calls++;
		if (r.st != RPC_SUCCESS) {
			print_rpc(&r);
			return 1;
		}
		dec_start(&r.rep);
		status = dec_u32();
		(void)dec_post_op_attr(&a);
		if (status != 0) {
			fprintf(stderr, "status=%" PRIu32 " after %lu entries\n",
				status, entries);
			return 1;
		}
		dec_fixed(verf, 8);
		while (dec_u32()) {
			u_int len;
			char *name;
			(void)dec_u64();               /* fileid */
			name = dec_opaque(&len, 1u << 16);
			cookie = dec_u64();
			if (plus) {
				(void)dec_post_op_attr(&a);
				if (dec_u32()) {        /* post_op_fh3 */
					u_int hl;
					free(dec_opaque(&hl, 1u << 20));
				}
			}
			printf("%s\n", name);
			free(name);
			got++;
			entries++;
		}
		eof = dec_u32();
		free(r.rep.buf);                       /* the decoder reads it: last */
		if (eof)
			break;
		if (got == 0) {
			fprintf(stderr, "error: no entries and no eof at cookie %"
				PRIu64 "\n", cookie);
			return 1;
		}
		if (calls > 10000000ul) {
			fprintf(stderr, "error: too many calls\n");
			return 1;
		}
	}
	fprintf(stderr, "entries=%lu calls=%lu\n", entries, calls);
	return 0;
}

static int cmd_readdir_names(char **av) { return readdir_names(av, 0); }
static int cmd_readdirplus_names(char **av) { return readdir_names(av, 1); }

/* SETATTR mode (with guard off): used to check NFS3ERR_ROFS */
static int cmd_setattr_mode(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct rr_enc b;
	struct result r;
	uint32_t status;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u32(1); enc_u32((uint32_t)rr_parse_num(av[1], "mode")); /* mode */
	enc_u32(0);                  /* uid: don't set */
	enc_u32(0);                  /* gid */
	enc_u32(0);                  /* size */
	enc_u32(0);                  /* atime: DONT_CHANGE */
	enc_u32(0);                  /* mtime: DONT_CHANGE */
	enc_u32(0);                  /* guard: no check */
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_SETATTR, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	dec_wcc_data();
	return 0;
}

/* WRITE HEXDATA at OFFSET (UNSTABLE) */
static int cmd_write_hex(char **av)
{
	u_int fhlen, dlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	unsigned char *data = parse_hex(av[2], &dlen);
	struct rr_enc b;
	struct result r;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u64(rr_parse_num(av[1], "offset"));
	enc_u32(dlen);
	enc_u32(0);                  /* UNSTABLE */
	enc_opaque(data, dlen);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_WRITE, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	return 0;
}

/* ------------------------------------------------------------------ */
/* the modifying procedures                                             */

/* sattr3 from KEY=VALUE arguments: mode=0644 uid=N gid=N size=N
 * atime=SECONDS[.NANOSECONDS]|server mtime=... (NANOSECONDS is the
 * integer count, as rpcprobe prints it; "server" is SET_TO_SERVER_TIME) */
struct sattr {
	int set_mode, set_uid, set_gid, set_size;
	uint32_t mode, uid, gid;
	uint64_t size;
	int atime_how, mtime_how;   /* 0 DONT_CHANGE, 1 SERVER, 2 CLIENT */
	uint32_t atime[2], mtime[2];
};

/* SECONDS[.NANOSECONDS] (both decimal); with how != NULL also "server" */
static void parse_time(const char *s, const char *what, uint32_t t[2], int *how)
{
	char *end;
	unsigned long long sec, nsec = 0;

	if (how && strcmp(s, "server") == 0) {
		*how = 1;
		return;
	}
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (*end == '.')
		nsec = strtoull(end + 1, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || sec > 0xffffffffull ||
	    nsec > 0xffffffffull)
		rr_die_usage("bad %s: '%s' (SECONDS[.NANOSECONDS]%s)", what, s,
			  how ? " or server" : "");
	t[0] = (uint32_t)sec;
	t[1] = (uint32_t)nsec;
	if (how)
		*how = 2;
}

/* the value of KEY=VALUE if ARG is that key, else NULL */
static const char *key_value(const char *arg, const char *key)
{
	size_t n = strlen(key);
	return strncmp(arg, key, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static int parse_sattr_arg(const char *a, struct sattr *sa)
{
	const char *v;

	if ((v = key_value(a, "mode")) != NULL) {
		sa->set_mode = 1;
		sa->mode = (uint32_t)rr_parse_num(v, "mode");
	} else if ((v = key_value(a, "uid")) != NULL) {
		sa->set_uid = 1;
		sa->uid = (uint32_t)rr_parse_num(v, "uid");
	} else if ((v = key_value(a, "gid")) != NULL) {
		sa->set_gid = 1;
		sa->gid = (uint32_t)rr_parse_num(v, "gid");
	} else if ((v = key_value(a, "size")) != NULL) {
		sa->set_size = 1;
		sa->size = rr_parse_num(v, "size");
	} else if ((v = key_value(a, "atime")) != NULL) {
		parse_time(v, "atime", sa->atime, &sa->atime_how);
	} else if ((v = key_value(a, "mtime")) != NULL) {
		parse_time(v, "mtime", sa->mtime, &sa->mtime_how);
	} else {
		return 0;
	}
	return 1;
}

/* every argument must be an attribute (or, with bare_mode, a bare number:
 * the mode) */
static void parse_sattr_args(char **av, struct sattr *sa, int bare_mode)
{
	for (; *av; av++) {
		if (parse_sattr_arg(*av, sa))
			continue;
		if (bare_mode && strchr(*av, '=') == NULL) {
			sa->set_mode = 1;
			sa->mode = (uint32_t)rr_parse_num(*av, "mode");
			continue;
		}
		rr_die_usage("unknown attribute '%s' (mode= uid= gid= size= atime= mtime=)",
			  *av);
	}
}

static void enc_sattr(const struct sattr *sa)
{
	enc_u32((uint32_t)sa->set_mode);
	if (sa->set_mode)
		enc_u32(sa->mode);
	enc_u32((uint32_t)sa->set_uid);
	if (sa->set_uid)
		enc_u32(sa->uid);
	enc_u32((uint32_t)sa->set_gid);
	if (sa->set_gid)
		enc_u32(sa->gid);
	enc_u32((uint32_t)sa->set_size);
	if (sa->set_size)
		enc_u64(sa->size);
	enc_u32((uint32_t)sa->atime_how);
	if (sa->atime_how == 2) {
		enc_u32(sa->atime[0]);
		enc_u32(sa->atime[1]);
	}
	enc_u32((uint32_t)sa->mtime_how);
	if (sa->mtime_how == 2) {
		enc_u32(sa->mtime[0]);
		enc_u32(sa->mtime[1]);
	}
}

/* diropargs3: the directory handle (hex) and a name */
static void enc_dirop(const char *dirhex, const char *name)
{
	u_int len;
	unsigned char *dir = parse_hex(dirhex, &len);
	enc_opaque(dir, len);
	enc_string(name);
}

/* CREATE, MKDIR, SYMLINK and MKNOD results:
 *   status=N
 *   fh=HEX fhlen=N (or fh=none)       \ only when status=0
 *   type=.. mode=.. ... (or attr=none) /
 *   dir_pre_size=.. dir_pre_mtime=.. dir_pre_ctime=.. (or dir_pre=none)
 *   dir_post_type=.. dir_post_size=.. ... (or dir_post_attr=none) */
static int diropres_call(unsigned proc)
{
	struct rr_enc b = enc_finish();
	struct result r = do_call(NFS_PROGRAM, NFS_V3, proc, &b, 0);
	uint32_t status;

	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	if (status == 0) {
		if (dec_u32()) {
			u_int len;
			char *fh = dec_opaque(&len, 1u << 20);
			print_hex("fh", (unsigned char *)fh, len);
			printf(" fhlen=%u\n", len);
		} else {
			printf("fh=none\n");
		}
		dec_print_post_op_attr("");
	}
	dec_print_wcc("dir_");
	return 0;
}

/* create HEXDIR NAME unchecked|guarded [MODE] [ATTR=V...]
 * create HEXDIR NAME exclusive [VERF_HEX] */
static int cmd_create(char **av)
{
	struct sattr sa;
	uint32_t how;

	memset(&sa, 0, sizeof(sa));
	if (strcmp(av[2], "unchecked") == 0)
		how = 0;
	else if (strcmp(av[2], "guarded") == 0)
		how = 1;
	else if (strcmp(av[2], "exclusive") == 0)
		how = 2;
	else
		rr_die_usage("create mode must be unchecked, guarded or exclusive");
	enc_start();
	enc_dirop(av[0], av[1]);
	enc_u32(how);
	if (how == 2) {
		unsigned char dflt[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, *verf = dflt;
		u_int len = 8;
		if (av[3]) {
			verf = parse_hex(av[3], &len);
			if (len != 8 || av[4])
				rr_die_usage("exclusive takes one 8-byte verifier in hex");
		}
		rr_enc_fixed(&enc, verf, 8);
	} else {
		parse_sattr_args(av + 3, &sa, 1);
		enc_sattr(&sa);
	}
	return diropres_call(NFSPROC3_CREATE);
}

/* mkdir HEXDIR NAME [MODE] [ATTR=V...] */
static int cmd_mkdir(char **av)
{
	struct sattr sa;

	memset(&sa, 0, sizeof(sa));
	parse_sattr_args(av + 2, &sa, 1);
	enc_start();
	enc_dirop(av[0], av[1]);
	enc_sattr(&sa);
	return diropres_call(NFSPROC3_MKDIR);
}

/* symlink HEXDIR NAME TARGET [ATTR=V...] */
static int cmd_symlink(char **av)
{
	struct sattr sa;

	memset(&sa, 0, sizeof(sa));
	parse_sattr_args(av + 3, &sa, 1);
	enc_start();
	enc_dirop(av[0], av[1]);
	enc_sattr(&sa);                 /* symlinkdata3: attributes, then path */
	enc_string(av[2]);
	return diropres_call(NFSPROC3_SYMLINK);
}

/* mknod HEXDIR NAME fifo|sock|chr|blk|reg|dir|lnk|N [rdev=MAJ,MIN] [MODE]
 *       [ATTR=V...] */
static int cmd_mknod(char **av)
{
	static const char *const names[] = { "", "reg", "dir", "blk", "chr",
					     "lnk", "sock", "fifo" };
	struct sattr sa;
	uint32_t type = 0, maj = 0, min = 0;
	char **a;
	unsigned i;

	memset(&sa, 0, sizeof(sa));
	for (i = 1; i < 8; i++)
		if (strcmp(av[2], names[i]) == 0)
			type = i;
	if (type == 0)
		type = (uint32_t)rr_parse_num(av[2], "type");
	for (a = av + 3; *a; a++) {
		const char *v = key_value(*a, "rdev");
		char *end;
		if (v == NULL) {
			if (parse_sattr_arg(*a, &sa))
				continue;
			if (strchr(*a, '=') != NULL)
				rr_die_usage("unknown argument '%s'", *a);
			sa.set_mode = 1;        /* a bare number: the mode */
			sa.mode = (uint32_t)rr_parse_num(*a, "mode");
			continue;
		}
		maj = (uint32_t)strtoul(v, &end, 10);
		if (*end != ',')
			rr_die_usage("rdev=MAJOR,MINOR");
		min = (uint32_t)rr_parse_num(end + 1, "minor");
	}
	enc_start();
	enc_dirop(av[0], av[1]);
	enc_u32(type);
	switch (type) {
	case 3: case 4:                 /* NF3BLK, NF3CHR: devicedata3 */
		enc_sattr(&sa);
		enc_u32(maj);
		enc_u32(min);
		break;
	case 6: case 7:                 /* NF3SOCK, NF3FIFO: sattr3 */
		enc_sattr(&sa);
		break;
	default:                        /* void */
		break;
	}
	return diropres_call(NFSPROC3_MKNOD);
}

/* REMOVE / RMDIR: status, then the directory's wcc */
static int remove_call(char **av, unsigned proc)
{
	struct rr_enc b;
	struct result r;

	enc_start();
	enc_dirop(av[0], av[1]);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, proc, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	dec_print_wcc("dir_");
	return 0;
}

static int cmd_remove(char **av) { return remove_call(av, NFSPROC3_REMOVE); }
static int cmd_rmdir(char **av) { return remove_call(av, NFSPROC3_RMDIR); }

/* rename FROMDIR FROMNAME TODIR TONAME: status, from_ and to_ wcc */
static int cmd_rename(char **av)
{
	struct rr_enc b;
	struct result r;

	enc_start();
	enc_dirop(av[0], av[1]);
	enc_dirop(av[2], av[3]);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_RENAME, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	dec_print_wcc("from_");
	dec_print_wcc("to_");
	return 0;
}

/* link HEXFILE HEXDIR NAME: status, file_ attributes, dir_ wcc */
static int cmd_link(char **av)
{
	u_int len;
	unsigned char *fh = parse_hex(av[0], &len);
	struct rr_enc b;
	struct result r;

	enc_start();
	enc_opaque(fh, len);
	enc_dirop(av[1], av[2]);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_LINK, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	dec_print_post_op_attr("file_");
	dec_print_wcc("dir_");
	return 0;
}

/* setattr HEXFH [guard=SEC.NSEC] [ATTR=V...]: status and the object's wcc */
static int cmd_setattr(char **av)
{
	u_int len;
	unsigned char *fh = parse_hex(av[0], &len);
	struct sattr sa;
	uint32_t guard[2] = { 0, 0 };
	int check = 0;
	struct rr_enc b;
	struct result r;
	char **a;

	memset(&sa, 0, sizeof(sa));
	for (a = av + 1; *a; a++) {
		const char *v = key_value(*a, "guard");
		if (v) {
			parse_time(v, "guard", guard, NULL);
			check = 1;
		} else if (!parse_sattr_arg(*a, &sa)) {
			rr_die_usage("unknown argument '%s'", *a);
		}
	}
	enc_start();
	enc_opaque(fh, len);
	enc_sattr(&sa);
	enc_u32((uint32_t)check);
	if (check) {
		enc_u32(guard[0]);
		enc_u32(guard[1]);
	}
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_SETATTR, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	printf("status=%" PRIu32 "\n", dec_u32());
	dec_print_wcc("");
	return 0;
}

static uint32_t parse_stable(const char *s)
{
	if (strcmp(s, "unstable") == 0)
		return 0;
	if (strcmp(s, "datasync") == 0)
		return 1;
	if (strcmp(s, "filesync") == 0)
		return 2;
	return (uint32_t)rr_parse_num(s, "stable_how (unstable|datasync|filesync|N)");
}

struct write_res {
	uint32_t status, count, committed;
	unsigned char verf[8];
};

/* one WRITE; with print, its status, wcc, count, committed and verifier */
static int nfs_write(const unsigned char *fh, u_int fhlen, uint64_t off,
		     uint32_t stable, const unsigned char *data, u_int len,
		     struct write_res *w, int print)
{
	struct rr_enc b;
	struct result r;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u64(off);
	enc_u32(len);
	enc_u32(stable);
	enc_opaque(data, len);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_WRITE, &b, 0);
	if ((r.st != RPC_SUCCESS || print) && !print_rpc(&r))
		return 0;
	memset(w, 0, sizeof(*w));
	dec_start(&r.rep);
	w->status = dec_u32();
	if (print) {
		printf("status=%" PRIu32 "\n", w->status);
		dec_print_wcc("");
	} else {
		dec_wcc_data();
	}
	if (w->status == 0) {
		w->count = dec_u32();
		w->committed = dec_u32();
		dec_fixed((char *)w->verf, 8);
		if (print) {
			printf("count=%" PRIu32 " committed=%" PRIu32 " ",
			       w->count, w->committed);
			print_hex("verf", w->verf, 8);
			printf("\n");
		}
	}
	return 1;
}

/* write HEXFH OFFSET unstable|datasync|filesync HEXDATA */
static int cmd_write(char **av)
{
	u_int fhlen, dlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	unsigned char *data = parse_hex(av[3], &dlen);
	struct write_res w;

	return nfs_write(fh, fhlen, rr_parse_num(av[1], "offset"),
			 parse_stable(av[2]), data, dlen, &w, 1) ? 0 : 1;
}

/* write-file HEXFH INFILE STABLE [OFFSET]: INFILE's bytes from OFFSET (default
 * 0) on, in chunks of -c bytes; prints one summary line with the lowest
 * committed value seen, the last verifier and how often it changed */
static int cmd_write_file(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	uint32_t stable = parse_stable(av[2]);
	uint64_t off = av[3] ? rr_parse_num(av[3], "offset") : 0, total = 0;
	uint32_t chunk = opt.chunk ? opt.chunk : (rr_is_udp() ? 32768 : 131072);
	unsigned char *buf = keep(malloc(chunk)), verf[8] = { 0 };
	uint32_t lowest = 2;
	unsigned long calls = 0, changes = 0;
	FILE *in = fopen(av[1], "rb");
	size_t n;

	if (in == NULL) {
		perror(av[1]);
		return 2;
	}
	while ((n = fread(buf, 1, chunk, in)) > 0) {
		size_t done = 0;
		while (done < n) {
			struct write_res w;
			if (!nfs_write(fh, fhlen, off, stable, buf + done,
				       (u_int)(n - done), &w, 0))
				return 1;
			if (w.status != 0) {
				printf("rpc=SUCCESS\nstatus=%" PRIu32 " offset=%"
				       PRIu64 "\n", w.status, off);
				return 0;
			}
			if (calls > 0 && memcmp(verf, w.verf, 8) != 0)
				changes++;
			memcpy(verf, w.verf, 8);
			calls++;
			if (w.committed < lowest)
				lowest = w.committed;
			if (w.count == 0 || w.count > n - done) {
				printf("status=0 error=bad_count_%" PRIu32 " offset=%"
				       PRIu64 "\n", w.count, off);
				return 1;
			}
			done += w.count;
			off += w.count;
			total += w.count;
		}
	}
	fclose(in);
	printf("rpc=SUCCESS\nstatus=0 bytes=%" PRIu64 " calls=%lu committed=%"
	       PRIu32 " ", total, calls, lowest);
	print_hex("verf", verf, 8);
	printf(" verf_changes=%lu\n", changes);
	return 0;
}

/* commit HEXFH [OFFSET [COUNT]]: status, wcc, verf=HEX */
static int cmd_commit(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct rr_enc b;
	struct result r;
	uint32_t status;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u64(av[1] ? rr_parse_num(av[1], "offset") : 0);
	enc_u32(av[1] && av[2] ? (uint32_t)rr_parse_num(av[2], "count") : 0);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_COMMIT, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	dec_print_wcc("");
	if (status == 0) {
		unsigned char verf[8];
		dec_fixed((char *)verf, 8);
		print_hex("verf", verf, 8);
		printf("\n");
	}
	return 0;
}

/* access HEXFH [MASK]: status, attributes, access=0x.. (default mask 0x3f) */
static int cmd_access(char **av)
{
	u_int fhlen;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	struct rr_enc b;
	struct result r;
	uint32_t status;

	enc_start();
	enc_opaque(fh, fhlen);
	enc_u32(av[1] ? (uint32_t)rr_parse_num(av[1], "mask") : 0x3f);
	b = enc_finish();
	r = do_call(NFS_PROGRAM, NFS_V3, NFSPROC3_ACCESS, &b, 0);
	if (!print_rpc(&r))
		return 1;
	dec_start(&r.rep);
	status = dec_u32();
	printf("status=%" PRIu32 "\n", status);
	dec_print_post_op_attr("");
	if (status == 0)
		printf("access=0x%02" PRIx32 "\n", dec_u32());
	return 0;
}

/* GETATTR with each byte of the handle in turn xor'ed with 0x01.  Prints
 * one line per position ("byte=N status=S" or "byte=N rpc=..."); exit 0
 * only if no mutant got NFS3_OK and every call got an answer. */
static int cmd_flip_each(char **av)
{
	u_int fhlen, i;
	unsigned char *fh = parse_hex(av[0], &fhlen);
	int bad = 0;

	for (i = 0; i < fhlen; i++) {
		struct result r;
		fh[i] ^= 0x01;
		r = nfs_fh_call(NFSPROC3_GETATTR, fh, fhlen, 0);
		fh[i] ^= 0x01;
		if (r.st != RPC_SUCCESS) {
			/* a rejection is not an acceptance; silence is bad */
			printf("byte=%u ", i);
			print_rpc(&r);
			if (r.st == RPC_TIMEDOUT || r.st == RPC_CANTRECV ||
			    r.st == RPC_CANTSEND)
				bad = 1;
			continue;
		}
		dec_start(&r.rep);
		{
			uint32_t st = dec_u32();
			printf("byte=%u status=%" PRIu32 "%s\n", i, st,
			       st == 0 ? " ACCEPTED-TAMPERED-HANDLE" : "");
			if (st == 0)
				bad = 1;
		}
		free(r.rep.buf);
	}
	return bad;
}

/* raw PROG VERS PROC HEXBODY: send any body, print the reply body in hex */
static int cmd_raw(char **av)
{
	u_int len;
	unsigned char *p = parse_hex(av[3], &len);
	struct rr_enc b = { (char *)p, len, len, 1 };
	struct result r = do_call(rr_parse_num(av[0], "program"),
				  rr_parse_num(av[1], "version"),
				  rr_parse_num(av[2], "procedure"), &b, 0);
	if (!print_rpc(&r))
		return 1;
	print_hex("reply", (unsigned char *)r.rep.buf, r.rep.len);
	printf("\n");
	return 0;
}

/*
 * expect-rpc-mismatch PROG VERS: a NULL call whose RPC version is 3.
 * libtirpc cannot send one, so the call is built and sent on a plain
 * socket (with a record mark over TCP).  Exit 0 iff the reply is
 * MSG_DENIED/RPC_MISMATCH for our XID; prints low and high.
 */

static ssize_t raw_exchange(const unsigned char *call, size_t len,
			    unsigned char *rep, size_t cap)
{
	struct sockaddr_storage ss;
	struct rr_rbuf in = { NULL, 0, 0 };
	double deadline = rr_now() + rr.timeout;
	unsigned char mark[4];
	socklen_t sslen;
	int fd, family, type;
	ssize_t n = -1;

	rr_target(&ss, &sslen, &family, &type);
	fd = rr_socket(family, type);
	if (connect(fd, (struct sockaddr *)&ss, sslen) < 0) {
		printf("rpc=CANTSEND connect: %s\n", strerror(errno));
		exit(1);
	}
	if (rr_is_udp()) {
		if (send(fd, call, len, 0) == (ssize_t)len &&
		    (rr_wait_fd(fd, POLLIN, deadline) & POLLIN))
			n = recv(fd, rep, cap, MSG_DONTWAIT);
	} else {
		rr_put32(mark, RR_LAST_FRAG | (uint32_t)len);
		if (rr_send_all(fd, mark, 4, deadline) == 0 &&
		    rr_send_all(fd, call, len, deadline) == 0 &&
		    rr_read_record(fd, &in, cap, deadline) > 0) {
			memcpy(rep, in.p, in.len);
			n = (ssize_t)in.len;
		}
		free(in.p);
	}
	close(fd);
	return n;
}

static int cmd_expect_rpc_mismatch(char **av)
{
	unsigned char call[40], rep[256];
	uint32_t xid = opt.xid ? opt.xid : (uint32_t)getpid() * 2654435761u;
	ssize_t n;

	memset(call, 0, sizeof(call));
	rr_put32(call, xid);
	rr_put32(call + 4, CALL);
	rr_put32(call + 8, 3);                     /* RPC version 3: does not exist */
	rr_put32(call + 12, (uint32_t)rr_parse_num(av[0], "program"));
	rr_put32(call + 16, (uint32_t)rr_parse_num(av[1], "version"));
	/* proc 0; AUTH_NONE credential and verifier: all zero */
	n = raw_exchange(call, sizeof(call), rep, sizeof(rep));
	if (n < 24) {
		printf("rpc=TIMEDOUT no reply (%zd bytes)\n", n);
		return 1;
	}
	if (rr_get32(rep) != xid || rr_get32(rep + 4) != REPLY || rr_get32(rep + 8) != MSG_DENIED ||
	    rr_get32(rep + 12) != RPC_MISMATCH) {
		printf("rpc=OTHER xid=%08x dir=%u stat=%u why=%u\n", rr_get32(rep),
		       rr_get32(rep + 4), rr_get32(rep + 8), rr_get32(rep + 12));
		return 1;
	}
	printf("rpc=RPC_MISMATCH low=%u high=%u\n", rr_get32(rep + 16), rr_get32(rep + 20));
	return 0;
}

/*
 * expect-badcred PROG VERS CREDLEN: a NULL call with an AUTH_SYS
 * credential of CREDLEN bytes (over RFC 5531's 400 it cannot be decoded).
 * Exit 0 iff answered MSG_DENIED/AUTH_ERROR/AUTH_BADCRED for our XID;
 * prints how long the answer took.
 */
static int cmd_expect_badcred(char **av)
{
	unsigned long credlen = rr_parse_num(av[2], "credential length");
	unsigned char call[8 * 4 + 1000 + 8], rep[256];
	uint32_t xid = opt.xid ? opt.xid : (uint32_t)getpid() * 2654435761u;
	size_t len = 8 * 4 + ((credlen + 3) & ~3ul) + 8;
	struct timespec t0, t1;
	ssize_t n;

	if (credlen > 1000)
		rr_die_usage("credential length: at most 1000");
	memset(call, 0, sizeof(call));
	rr_put32(call, xid);
	rr_put32(call + 4, CALL);
	rr_put32(call + 8, 2);
	rr_put32(call + 12, (uint32_t)rr_parse_num(av[0], "program"));
	rr_put32(call + 16, (uint32_t)rr_parse_num(av[1], "version"));
	rr_put32(call + 24, AUTH_SYS);
	rr_put32(call + 28, (uint32_t)credlen);
	/* a zero-filled body, then an AUTH_NONE verifier */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = raw_exchange(call, len, rep, sizeof(rep));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (n < 16) {
		printf("rpc=TIMEDOUT no reply (%zd bytes)\n", n);
		return 1;
	}
	printf("ms=%ld ", (long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000));
	if (rr_get32(rep) != xid || rr_get32(rep + 4) != REPLY || rr_get32(rep + 8) != MSG_DENIED ||
	    rr_get32(rep + 12) != AUTH_ERROR || rr_get32(rep + 16) != AUTH_BADCRED) {
		printf("rpc=OTHER xid=%08x dir=%u stat=%u rj=%u why=%u\n", rr_get32(rep),
		       rr_get32(rep + 4), rr_get32(rep + 8), rr_get32(rep + 12), rr_get32(rep + 16));
		return 1;
	}
	printf("rpc=AUTH_BADCRED\n");
	return 0;
}

static int run_command(char **av);

/* dup COMMAND ARGS...: the first call COMMAND makes goes out twice with
 * the same XID on the same socket; see send_again() */
static int cmd_dup(char **av)
{
	if (strcmp(av[0], "dup") == 0)
		rr_die_usage("dup dup?");
	opt.dup = 1;
	return run_command(av);
}

static const struct rr_command commands[] = {
	{ "null", 2, 2, cmd_null, "PROG VERS",
	  "NULL procedure; exit 0 if it succeeds" },
	{ "expect-prog-unavail", 2, 2, cmd_expect_prog_unavail, "PROG VERS",
	  "NULL; exit 0 iff PROG_UNAVAIL" },
	{ "expect-prog-mismatch", 2, 2, cmd_expect_prog_mismatch, "PROG VERS",
	  "NULL; exit 0 iff PROG_MISMATCH (prints low/high)" },
	{ "expect-rpc-mismatch", 2, 2, cmd_expect_rpc_mismatch, "PROG VERS",
	  "NULL with RPC version 3; exit 0 iff RPC_MISMATCH (prints low/high)" },
	{ "expect-badcred", 3, 3, cmd_expect_badcred, "PROG VERS CREDLEN",
	  "NULL with an AUTH_SYS credential of CREDLEN bytes; exit 0 iff AUTH_BADCRED" },
	{ "expect-proc-unavail", 3, 3, cmd_expect_proc_unavail, "PROG VERS PROC",
	  "empty-bodied call; exit 0 iff PROC_UNAVAIL" },
	{ "expect-garbage-args", 0, 1, cmd_expect_garbage_args, "[HEXFH]",
	  "NFSv3 LOOKUP with a truncated name; exit 0 iff GARBAGE_ARGS" },
	{ "expect-auth-tooweak", 0, 1, cmd_expect_auth_tooweak, "[HEXFH]",
	  "NFSv3 GETATTR with AUTH_NONE; exit 0 iff AUTH_ERROR/AUTH_TOOWEAK" },
	{ "mnt", 1, 1, cmd_mnt, "PATH",
	  "MOUNT v3 MNT (AUTH_SYS); prints status, fh, flavors" },
	{ "umnt", 1, 1, cmd_umnt, "PATH", "MOUNT v3 UMNT" },
	{ "exports", 0, 0, cmd_exports, "",
	  "MOUNT v3 EXPORT; prints export=DIR groups=G1,G2 lines" },
	{ "getattr-hex", 1, 1, cmd_getattr_hex, "HEXFH",
	  "NFSv3 GETATTR; prints status and attributes" },
	{ "fhcall", 2, 2, cmd_fhcall, "PROC HEXFH",
	  "any NFSv3 procedure taking only a handle; prints status" },
	{ "fsinfo-hex", 1, 1, cmd_fsinfo_hex, "HEXFH", "NFSv3 FSINFO" },
	{ "lookup-hex", 2, 2, cmd_lookup_hex, "HEXDIR NAME",
	  "NFSv3 LOOKUP; prints status, child fh and attributes" },
	{ "lookup-path", 2, 2, cmd_lookup_path, "HEXDIR A/B/C",
	  "LOOKUP component by component; prints the last result" },
	{ "readlink-hex", 1, 1, cmd_readlink_hex, "HEXFH",
	  "NFSv3 READLINK; prints status and target" },
	{ "read-hex", 3, 3, cmd_read_hex, "HEXFH OFFSET COUNT",
	  "NFSv3 READ; prints status, count, eof and data in hex" },
	{ "read-file", 2, 2, cmd_read_file, "HEXFH OUTFILE",
	  "READ the whole file (chunk: -c) into OUTFILE" },
	{ "readdir-names", 1, 1, cmd_readdir_names, "HEXDIR",
	  "READDIR until eof (count: -c); one name per line" },
	{ "readdirplus-names", 1, 1, cmd_readdirplus_names, "HEXDIR",
	  "READDIRPLUS until eof (dircount: -c); one name per line" },
	{ "setattr-mode", 2, 2, cmd_setattr_mode, "HEXFH MODE",
	  "NFSv3 SETATTR of the mode; prints status" },
	{ "write-hex", 3, 3, cmd_write_hex, "HEXFH OFFSET HEXDATA",
	  "NFSv3 WRITE (unstable); prints status" },
	{ "write", 4, 4, cmd_write, "HEXFH OFFSET STABLE HEXDATA",
	  "WRITE unstable|datasync|filesync; status, wcc, count, committed, verf" },
	{ "write-file", 3, 4, cmd_write_file, "HEXFH INFILE STABLE [OFFSET]",
	  "WRITE a local file (chunk: -c); bytes, lowest committed, verf" },
	{ "commit", 1, 3, cmd_commit, "HEXFH [OFFSET [COUNT]]",
	  "NFSv3 COMMIT; prints status, wcc and verf" },
	{ "setattr", 1, 9, cmd_setattr, "HEXFH [guard=S.N] [ATTR=V...]",
	  "SETATTR mode= uid= gid= size= atime=|mtime=S[.N]|server; wcc" },
	{ "access", 1, 2, cmd_access, "HEXFH [MASK]",
	  "NFSv3 ACCESS (default mask 0x3f); prints access=0x.." },
	{ "create", 3, 10, cmd_create, "HEXDIR NAME HOW [VERF|MODE] [ATTR=V..]",
	  "CREATE unchecked|guarded [MODE ATTR=V..] | exclusive [VERF_HEX]" },
	{ "mkdir", 2, 9, cmd_mkdir, "HEXDIR NAME [MODE] [ATTR=V...]",
	  "NFSv3 MKDIR; prints status, fh, attributes, dir_ wcc" },
	{ "symlink", 3, 9, cmd_symlink, "HEXDIR NAME TARGET [ATTR=V...]",
	  "NFSv3 SYMLINK; prints status, fh, attributes, dir_ wcc" },
	{ "mknod", 3, 10, cmd_mknod, "HEXDIR NAME TYPE [rdev=MAJ,MIN] [ATTR=V..]",
	  "MKNOD fifo|sock|chr|blk (or reg|dir|lnk|N, for BADTYPE)" },
	{ "remove", 2, 2, cmd_remove, "HEXDIR NAME",
	  "NFSv3 REMOVE; prints status and dir_ wcc" },
	{ "rmdir", 2, 2, cmd_rmdir, "HEXDIR NAME",
	  "NFSv3 RMDIR; prints status and dir_ wcc" },
	{ "rename", 4, 4, cmd_rename, "FROMDIR FROMNAME TODIR TONAME",
	  "NFSv3 RENAME; prints status, from_ and to_ wcc" },
	{ "link", 3, 3, cmd_link, "HEXFH HEXDIR NAME",
	  "NFSv3 LINK; prints status, file_ attributes, dir_ wcc" },
	{ "dup", 1, 64, cmd_dup, "COMMAND [ARGS...]",
	  "COMMAND, its first call sent twice with one XID; both replies" },
	{ "flip-each", 1, 1, cmd_flip_each, "HEXFH",
	  "GETATTR with each byte flipped; exit 1 if any is accepted" },
	{ "raw", 4, 4, cmd_raw, "PROG VERS PROC HEXBODY",
	  "send a raw call body; print the reply body in hex" },
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: rpcprobe [-a none|sys] [-u UID] [-g GID] [-P] [-t SECS] [-c SIZE] [-x XID]\n"
		"                HOST PORT udp|tcp|udp6|tcp6 COMMAND [ARGS...] [++ COMMAND [ARGS...]]...\n"
		"  -a   credentials for the calls (default sys = AUTH_SYS)\n"
		"  -u/-g  AUTH_SYS uid/gid (default 0/0)\n"
		"  -P   use an unprivileged source port (default: reserved port if root)\n"
		"  -t   total timeout per call in seconds (default 5)\n"
		"  -c   READ / WRITE chunk, READDIR count for read-file, write-file, readdir-*\n"
		"  -x   send every call with this XID (e.g. 0x1234)\n"
		"  ++   separates commands run one after the other over the same client\n"
		"       (same socket and source port); each starts with a line step=N\n"
		"commands:\n");
	rr_usage_commands(f, commands, sizeof(commands) / sizeof(commands[0]), 20, 36);
}

/* AV: a command name and its arguments, NULL-terminated */
static int run_command(char **av)
{
	int rc = rr_run_command(commands, sizeof(commands) / sizeof(commands[0]), av);

	if (rc < 0)
		rr_die_usage("unknown command '%s'", av[0]);
	return rc;
}

int main(int argc, char **argv)
{
	int c;

	rr_start(argc, argv, "rpcprobe", usage);
	while ((c = getopt(argc, argv, "+a:u:g:Pt:c:x:h")) != -1) {
		if (rr_option(c, optarg))
			continue;
		switch (c) {
		case 'c': opt.chunk = (unsigned)rr_parse_num(optarg, "size"); break;
		case 'x':
			opt.force_xid = 1;
			opt.xid = (uint32_t)rr_parse_num(optarg, "xid");
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	return rr_run_steps(argc, argv, optind, commands, sizeof(commands) / sizeof(commands[0]),
			    usage);
}
