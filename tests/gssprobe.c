/*
 * gssprobe - a raw RPCSEC_GSS (RFC 2203) client with Kerberos V5, for
 * tests/integ_gss.sh. libtirpc's client side (authgss_create) cannot
 * forge a handle, replay a sequence number or spoil a MIC, so the
 * messages are built here on tests/rpcraw.h and MIT's libgssapi_krb5.
 *
 *   gssprobe [-p SERVICE@HOST] [-t SECONDS] HOST PORT COMMAND... [++ COMMAND...]
 *
 * One TCP connection, one context (made by the first command that needs
 * one, or by "init"); each command prints one line
 * "step=NAME rpc=RESULT [why=N] [verf=ok|bad|none] [status=N type=N]",
 * rpc=NOREPLY when nothing came back in time. Commands:
 *
 *   svc none|integ|priv   the service of the DATA calls that follow
 *   init                  RPCSEC_GSS_INIT (and CONTINUE_INIT) on NFSv3 NULL
 *   null                  DATA: NFSv3 NULL
 *   getattr FHHEX         DATA: NFSv3 GETATTR of a handle (status= type=)
 *   create FHHEX NAME     DATA: NFSv3 CREATE (UNCHECKED, mode 0644) of NAME in
 *                         that directory (status=, and uid= gid= of the file)
 *   remove FHHEX NAME     DATA: NFSv3 REMOVE (status=)
 *   proc N                DATA: NFSv3 procedure N with no arguments (the
 *                         reply's verifier is checked whatever it says)
 *   retry                 the next DATA call is a retransmission of the last:
 *                         its XID again, with a new sequence number (a new
 *                         MIC and wrapping), as a client resends (5.3.3.1)
 *   replay                the last DATA call's bytes again
 *   forged                DATA with a handle nobody issued
 *   badmic                DATA whose header MIC is spoiled
 *   badbody               DATA whose integrity/privacy body is spoiled
 *   seq N                 the next DATA call's sequence number
 *   burst N               N DATA NULL calls at once, replies in any order
 *   destroy               RPCSEC_GSS_DESTROY
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_krb5.h>

#include "rpcraw.h"

#define NFS_PROG 100003
#define NFS_VERS 3
#define MAX_REPLY (1u << 20)

enum { G_DATA, G_INIT, G_CONTINUE_INIT, G_DESTROY };
enum { SVC_NONE = 1, SVC_INTEG, SVC_PRIV };

static struct {
	const char *target;	/* SERVICE@HOST */
	int fd;
	gss_ctx_id_t ctx;
	uint8_t handle[64];
	u_int hlen;
	uint32_t seq, svc, xid;
	/* The last DATA call as sent, for replay. */
	uint8_t *last;
	size_t lastlen;
	uint32_t lastseq;
	int retry;		/* the next DATA call reuses the last XID */
} g = { .target = "nfs@localhost", .fd = -1, .ctx = GSS_C_NO_CONTEXT, .seq = 1,
	.svc = SVC_NONE, .xid = 0x6a000000 };

static void
usage(FILE *f)
{
	fprintf(f, "usage: gssprobe [-p SERVICE@HOST] [-t SECONDS] HOST PORT COMMAND... "
	    "[++ COMMAND...]\n"
	    "commands: svc none|integ|priv, init, null, getattr FHHEX, create FHHEX NAME, replay,\n"
	    "          remove FHHEX NAME, proc N, retry, forged, badmic,\n"
	    "          badbody, seq N, burst N, destroy\n");
}

static void
gss_fail(const char *what, OM_uint32 major, OM_uint32 minor)
{
	OM_uint32 m2, ctx = 0;
	gss_buffer_desc a = GSS_C_EMPTY_BUFFER, b = GSS_C_EMPTY_BUFFER;

	gss_display_status(&m2, major, GSS_C_GSS_CODE, GSS_C_NO_OID, &ctx, &a);
	ctx = 0;
	gss_display_status(&m2, minor, GSS_C_MECH_CODE, (gss_OID)gss_mech_krb5, &ctx, &b);
	printf("rpc=GSS_ERROR what=%s major=%#x msg=\"%.*s: %.*s\"\n", what, (unsigned)major,
	    (int)a.length, (char *)a.value, (int)b.length, (char *)b.value);
	exit(1);
}

/* ---- messages ---- */

/* The call header through the credential (what the header MIC covers). */
static void
enc_header(struct rr_enc *e, uint32_t xid, uint32_t proc, uint32_t gproc, uint32_t seq,
    uint32_t svc, const uint8_t *handle, u_int hlen)
{
	uint8_t cred[MAX_AUTH_BYTES];
	struct rr_enc c;

	rr_enc_init(&c, cred, sizeof(cred));
	rr_enc_u32(&c, 1);		/* RPCSEC_GSS_VERS_1 */
	rr_enc_u32(&c, gproc);
	rr_enc_u32(&c, seq);
	rr_enc_u32(&c, svc);
	rr_enc_opaque(&c, handle, hlen);
	rr_enc_u32(e, xid);
	rr_enc_u32(e, 0);		/* CALL */
	rr_enc_u32(e, 2);
	rr_enc_u32(e, NFS_PROG);
	rr_enc_u32(e, NFS_VERS);
	rr_enc_u32(e, proc);
	rr_enc_u32(e, 6);		/* RPCSEC_GSS */
	rr_enc_opaque(e, c.buf, c.len);
}

static void
enc_mic(struct rr_enc *e, const void *p, size_t n, int spoil)
{
	gss_buffer_desc in = { n, (void *)p }, out = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;

	major = gss_get_mic(&minor, g.ctx, GSS_C_QOP_DEFAULT, &in, &out);
	if (major != GSS_S_COMPLETE)
		gss_fail("get_mic", major, minor);
	if (spoil && out.length)
		((uint8_t *)out.value)[out.length - 1] ^= 0x55;
	rr_enc_opaque(e, out.value, (u_int)out.length);
	gss_release_buffer(&minor, &out);
}

/* The arguments as the service asks: plain, rpc_gss_integ_data or rpc_gss_priv_data. */
static void
enc_body(struct rr_enc *e, uint32_t seq, const void *args, size_t n, int spoil)
{
	struct rr_enc b = { 0 };
	gss_buffer_desc in, out = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;
	int conf;

	if (g.svc == SVC_NONE) {
		rr_enc_bytes(e, args, n);
		return;
	}
	rr_enc_u32(&b, seq + (spoil && g.svc == SVC_INTEG));	/* integ: a wrong inner seq */
	rr_enc_bytes(&b, args, n);
	if (g.svc == SVC_INTEG) {
		rr_enc_opaque(e, b.buf, b.len);
		enc_mic(e, b.buf, b.len, 0);
	} else {
		in.value = b.buf;
		in.length = b.len;
		major = gss_wrap(&minor, g.ctx, 1, GSS_C_QOP_DEFAULT, &in, &conf, &out);
		if (major != GSS_S_COMPLETE)
			gss_fail("wrap", major, minor);
		if (spoil)
			((uint8_t *)out.value)[out.length / 2] ^= 0x55;
		rr_enc_opaque(e, out.value, (u_int)out.length);
		gss_release_buffer(&minor, &out);
	}
	free(b.buf);
}

static void
send_record(const void *p, size_t n)
{
	uint8_t mark[4];

	rr_put32(mark, RR_LAST_FRAG | (uint32_t)n);
	if (rr_send_all(g.fd, mark, 4, rr_now() + rr.timeout) < 0 ||
	    rr_send_all(g.fd, p, n, rr_now() + rr.timeout) < 0) {
		printf("rpc=SEND_FAILED errno=%d\n", errno);
		exit(1);
	}
}

/* ---- replies ---- */

struct reply {
	int kind;		/* 0 none, 1 accepted, 2 denied */
	uint32_t stat;		/* accept_stat, or auth_stat when denied AUTH_ERROR */
	uint32_t verf_flavor;
	const uint8_t *verf;
	u_int verf_len;
	const uint8_t *res;
	size_t reslen;
};

static struct rr_rbuf rbuf;

/* The reply to xid, within wait seconds; kind 0 if none came. */
static void
read_reply(uint32_t xid, double wait, struct reply *r)
{
	double deadline = rr_now() + wait;
	struct rr_dec d;

	memset(r, 0, sizeof(*r));
	for (;;) {
		int rc = rr_read_record(g.fd, &rbuf, MAX_REPLY, deadline);

		if (rc <= 0)
			return;
		rr_dec_init(&d, rbuf.p, rbuf.len);
		if (rr_dec_u32(&d) != xid || rr_dec_u32(&d) != 1)
			continue;	/* another call's reply */
		if (rr_dec_u32(&d) == 0) {
			r->kind = 1;
			r->verf_flavor = rr_dec_u32(&d);
			r->verf = rr_dec_opaque(&d, &r->verf_len, MAX_AUTH_BYTES);
			r->stat = rr_dec_u32(&d);
			r->res = d.p + d.pos;
			r->reslen = d.ok ? d.len - d.pos : 0;
		} else {
			r->kind = 2;
			r->stat = rr_dec_u32(&d) == 1 ? rr_dec_u32(&d) : 1000;
		}
		return;
	}
}

/* "ok" when the verifier is the MIC of word, "none" for AUTH_NONE, else "bad". */
static const char *
check_verf(const struct reply *r, uint32_t word)
{
	uint8_t w[4];
	gss_buffer_desc in = { 4, w }, tok = { r->verf_len, (void *)r->verf };
	OM_uint32 minor;

	if (r->verf_flavor == 0)
		return "none";
	rr_put32(w, word);
	if (r->verf_flavor != 6 || r->verf == NULL)
		return "bad";
	return gss_verify_mic(&minor, g.ctx, &in, &tok, NULL) == GSS_S_COMPLETE ? "ok" : "bad";
}

static void
print_reply(const struct reply *r, uint32_t word)
{
	static const char *acc[] = { "SUCCESS", "PROG_UNAVAIL", "PROG_MISMATCH", "PROC_UNAVAIL",
		"GARBAGE_ARGS", "SYSTEM_ERR" };

	if (r->kind == 0)
		printf("rpc=NOREPLY");
	else if (r->kind == 2)
		printf("rpc=AUTH_ERROR why=%u", (unsigned)r->stat);
	else
		printf("rpc=%s verf=%s", r->stat < 6 ? acc[r->stat] : "ACCEPT_OTHER",
		    check_verf(r, word));
}

/*
 * The results of a SUCCESS reply to DATA as the service wraps them: plain
 * into *res; for integrity and privacy checked (MIC, inner seq) first.
 * 0, or -1 with a message.
 */
static int
unwrap_results(const struct reply *r, uint32_t seq, struct rr_enc *out)
{
	struct rr_dec d;
	const uint8_t *body, *tok;
	u_int blen, tlen;
	gss_buffer_desc b, t, plain = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;

	if (g.svc == SVC_NONE) {
		rr_enc_bytes(out, r->res, r->reslen);
		return 0;
	}
	rr_dec_init(&d, r->res, r->reslen);
	body = rr_dec_opaque(&d, &blen, MAX_REPLY);
	if (g.svc == SVC_INTEG) {
		tok = rr_dec_opaque(&d, &tlen, MAX_AUTH_BYTES);
		if (!d.ok || blen < 4)
			return printf(" body=short"), -1;
		b.value = (void *)body;
		b.length = blen;
		t.value = (void *)tok;
		t.length = tlen;
		if (gss_verify_mic(&minor, g.ctx, &b, &t, NULL) != GSS_S_COMPLETE)
			return printf(" body=badmic"), -1;
		if (rr_get32(body) != seq)
			return printf(" body=badseq"), -1;
		rr_enc_bytes(out, body + 4, blen - 4);
		return 0;
	}
	if (!d.ok)
		return printf(" body=short"), -1;
	b.value = (void *)body;
	b.length = blen;
	major = gss_unwrap(&minor, g.ctx, &b, &plain, NULL, NULL);
	if (major != GSS_S_COMPLETE || plain.length < 4 || rr_get32(plain.value) != seq) {
		gss_release_buffer(&minor, &plain);
		return printf(" body=badwrap"), -1;
	}
	rr_enc_bytes(out, (uint8_t *)plain.value + 4, plain.length - 4);
	gss_release_buffer(&minor, &plain);
	return 0;
}

/* ---- the context ---- */

static void
connect_target(const char *host, const char *port)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int family, type;

	rr.host = host;
	rr.port = (unsigned)rr_parse_num(port, "port");
	rr.proto = "tcp";
	rr.unpriv = 1;
	rr_target(&ss, &len, &family, &type);
	g.fd = rr_socket(family, type);
	if (connect(g.fd, (struct sockaddr *)&ss, len) < 0) {
		printf("rpc=CONNECT_FAILED errno=%d\n", errno);
		exit(1);
	}
}

/* One INIT or CONTINUE_INIT exchange; returns the server's gss_major. */
static uint32_t
init_exchange(uint32_t gproc, const gss_buffer_desc *tok, gss_buffer_desc *reply_tok,
    struct reply *r)
{
	struct rr_enc e = { 0 };
	struct rr_dec d;
	uint32_t xid = ++g.xid, major, minor;
	const uint8_t *h, *t;
	u_int hl, tl;

	enc_header(&e, xid, 0, gproc, 0, SVC_NONE, g.handle, g.hlen);
	rr_enc_u32(&e, 0);	/* AUTH_NONE verifier */
	rr_enc_u32(&e, 0);
	rr_enc_opaque(&e, tok->value, (u_int)tok->length);
	send_record(e.buf, e.len);
	free(e.buf);
	read_reply(xid, rr.timeout, r);
	if (r->kind != 1 || r->stat != 0)
		return GSS_S_FAILURE;
	rr_dec_init(&d, r->res, r->reslen);
	h = rr_dec_opaque(&d, &hl, sizeof(g.handle));
	major = rr_dec_u32(&d);
	minor = rr_dec_u32(&d);
	rr_dec_u32(&d);		/* the window */
	t = rr_dec_opaque(&d, &tl, MAX_REPLY);
	if (!d.ok)
		return GSS_S_FAILURE;
	if (hl)
		memcpy(g.handle, h, g.hlen = hl);
	reply_tok->value = (void *)t;
	reply_tok->length = tl;
	printf("init major=%u minor=%u handle_len=%u ", (unsigned)major, (unsigned)minor, hl);
	return major;
}

static void
init_context(void)
{
	gss_buffer_desc name = { strlen(g.target), (void *)g.target };
	gss_buffer_desc in = GSS_C_EMPTY_BUFFER, out = GSS_C_EMPTY_BUFFER;
	gss_name_t target;
	OM_uint32 major, minor, smajor = GSS_S_CONTINUE_NEEDED;
	uint32_t gproc = G_INIT;
	struct reply r;

	major = gss_import_name(&minor, &name, GSS_C_NT_HOSTBASED_SERVICE, &target);
	if (major != GSS_S_COMPLETE)
		gss_fail("import_name", major, minor);
	for (int round = 0; round < 5; round++) {
		major = gss_init_sec_context(&minor, GSS_C_NO_CREDENTIAL, &g.ctx, target,
		    (gss_OID)gss_mech_krb5, GSS_C_MUTUAL_FLAG | GSS_C_INTEG_FLAG | GSS_C_CONF_FLAG,
		    0, GSS_C_NO_CHANNEL_BINDINGS, &in, NULL, &out, NULL, NULL);
		if (major != GSS_S_COMPLETE && major != GSS_S_CONTINUE_NEEDED)
			gss_fail("init_sec_context", major, minor);
		if (out.length) {
			smajor = init_exchange(gproc, &out, &in, &r);
			gss_release_buffer(&minor, &out);
			gproc = G_CONTINUE_INIT;
			if (smajor != GSS_S_COMPLETE && smajor != GSS_S_CONTINUE_NEEDED) {
				print_reply(&r, 0);
				printf(" gss_major=%u\n", (unsigned)smajor);
				exit(1);
			}
		}
		if (major == GSS_S_COMPLETE && smajor == GSS_S_COMPLETE) {
			printf("rpc=SUCCESS verf=%s\n", check_verf(&r, 128));
			gss_release_name(&minor, &target);
			return;
		}
	}
	printf("rpc=INIT_LOOP\n");
	exit(1);
}

/* ---- DATA calls ---- */

enum spoil { SP_NONE, SP_HANDLE, SP_MIC, SP_BODY };

/* One DATA (or DESTROY) call of NFSv3 procedure proc; prints its result line. */
static void
data_call(uint32_t gproc, uint32_t proc, const void *args, size_t n, enum spoil sp,
    struct rr_enc *results)
{
	struct rr_enc e = { 0 };
	uint32_t xid = g.retry ? g.xid : ++g.xid, seq = g.seq++;
	uint8_t fake[16];
	struct reply r;

	g.retry = 0;
	if (sp == SP_HANDLE)
		memset(fake, 0xee, sizeof(fake));
	enc_header(&e, xid, proc, gproc, seq, g.svc, sp == SP_HANDLE ? fake : g.handle,
	    sp == SP_HANDLE ? sizeof(fake) : g.hlen);
	{
		/* The MIC covers xid through the credential, not the verifier's flavor. */
		u_int hdr_len = e.len;

		rr_enc_u32(&e, 6);
		enc_mic(&e, e.buf, hdr_len, sp == SP_MIC);
	}
	if (gproc == G_DATA)
		enc_body(&e, seq, args, n, sp == SP_BODY);
	send_record(e.buf, e.len);
	free(g.last);
	g.last = (uint8_t *)e.buf;
	g.lastlen = e.len;
	g.lastseq = seq;
	read_reply(xid, rr.timeout, &r);
	print_reply(&r, seq);
	if (results && r.kind == 1 && r.stat == 0 && gproc == G_DATA)
		unwrap_results(&r, seq, results);
}

static void
cmd_getattr(const char *hex)
{
	u_int fhlen;
	char *fh = rr_parse_hex(hex, &fhlen);
	struct rr_enc a = { 0 }, res = { 0 };
	struct rr_dec d;

	rr_enc_opaque(&a, fh, fhlen);
	data_call(G_DATA, 1, a.buf, a.len, SP_NONE, &res);
	if (res.len >= 8) {
		rr_dec_init(&d, res.buf, res.len);
		printf(" status=%u", (unsigned)rr_dec_u32(&d));
		printf(" type=%u", (unsigned)rr_dec_u32(&d));
	}
	free(a.buf);
	free(res.buf);
	free(fh);
}

/*
 * NFSv3 CREATE, to see whom the server took the principal for: the new
 * file's owner comes back in the post-operation attributes.
 */
static void
cmd_create(const char *hex, const char *name)
{
	u_int fhlen;
	char *fh = rr_parse_hex(hex, &fhlen);
	struct rr_enc a = { 0 }, res = { 0 };
	struct rr_dec d;
	uint32_t status;

	rr_enc_opaque(&a, fh, fhlen);
	rr_enc_string(&a, name);
	rr_enc_u32(&a, 0);		/* UNCHECKED */
	rr_enc_u32(&a, 1);		/* set_mode */
	rr_enc_u32(&a, 0644);
	for (int i = 0; i < 5; i++)	/* uid, gid, size, atime, mtime: not set */
		rr_enc_u32(&a, 0);
	data_call(G_DATA, 8, a.buf, a.len, SP_NONE, &res);
	if (res.len >= 4) {
		rr_dec_init(&d, res.buf, res.len);
		printf(" status=%u", (unsigned)(status = rr_dec_u32(&d)));
		if (status == 0 && rr_dec_u32(&d)) {	/* post_op_fh3 */
			u_int n;

			(void)rr_dec_opaque(&d, &n, 64);
			if (rr_dec_u32(&d)) {		/* post_op_attr: type, mode, nlink, uid, gid */
				rr_dec_u32(&d);
				rr_dec_u32(&d);
				rr_dec_u32(&d);
				printf(" uid=%u", (unsigned)rr_dec_u32(&d));
				printf(" gid=%u", (unsigned)rr_dec_u32(&d));
			}
		}
	}
	free(a.buf);
	free(res.buf);
	free(fh);
}

/* NFSv3 REMOVE: a retransmission answered from the DRC says 0 again, a rerun NOENT. */
static void
cmd_remove(const char *hex, const char *name)
{
	u_int fhlen;
	char *fh = rr_parse_hex(hex, &fhlen);
	struct rr_enc a = { 0 }, res = { 0 };
	struct rr_dec d;

	rr_enc_opaque(&a, fh, fhlen);
	rr_enc_string(&a, name);
	data_call(G_DATA, 12, a.buf, a.len, SP_NONE, &res);
	if (res.len >= 4) {
		rr_dec_init(&d, res.buf, res.len);
		printf(" status=%u", (unsigned)rr_dec_u32(&d));
	}
	free(a.buf);
	free(res.buf);
	free(fh);
}

/* The last DATA call's bytes again: the server must not answer (5.3.3.1). */
static void
cmd_replay(void)
{
	struct reply r;

	if (g.last == NULL)
		rr_die_usage("replay: no call to replay");
	send_record(g.last, g.lastlen);
	read_reply(rr_get32(g.last), 2, &r);
	print_reply(&r, g.lastseq);
}

/*
 * N DATA NULL calls sent back to back, then their replies in any order:
 * the server's workers take them at once, so one context is used by
 * several threads together (and the sequence numbers arrive out of order
 * within the window). "ok=" counts replies whose verifier and body check.
 */
static void
cmd_burst(const char *count)
{
	unsigned n = (unsigned)rr_parse_num(count, "count"), good = 0, got = 0;
	uint32_t first_xid = g.xid + 1, first_seq = g.seq;
	struct rr_enc e = { 0 };

	if (n == 0 || n > 1000)
		rr_die_usage("burst: 1 to 1000 calls");
	for (unsigned i = 0; i < n; i++) {
		uint32_t xid = ++g.xid, seq = g.seq++;
		u_int hdr_len;

		e.len = 0;
		enc_header(&e, xid, 0, G_DATA, seq, g.svc, g.handle, g.hlen);
		hdr_len = e.len;
		rr_enc_u32(&e, 6);
		enc_mic(&e, e.buf, hdr_len, 0);
		enc_body(&e, seq, NULL, 0, 0);
		send_record(e.buf, e.len);
	}
	free(e.buf);
	for (double deadline = rr_now() + rr.timeout; got < n;) {
		struct rr_dec d;
		struct reply r = { 0 };
		struct rr_enc res = { 0 };
		uint32_t xid;

		if (rr_read_record(g.fd, &rbuf, MAX_REPLY, deadline) <= 0)
			break;
		got++;
		rr_dec_init(&d, rbuf.p, rbuf.len);
		xid = rr_dec_u32(&d);
		if (xid < first_xid || xid - first_xid >= n || rr_dec_u32(&d) != 1 ||
		    rr_dec_u32(&d) != 0)
			continue;
		r.kind = 1;
		r.verf_flavor = rr_dec_u32(&d);
		r.verf = rr_dec_opaque(&d, &r.verf_len, MAX_AUTH_BYTES);
		r.stat = rr_dec_u32(&d);
		r.res = d.p + d.pos;
		r.reslen = d.ok ? d.len - d.pos : 0;
		if (d.ok && r.stat == 0 &&
		    strcmp(check_verf(&r, first_seq + (xid - first_xid)), "ok") == 0 &&
		    unwrap_results(&r, first_seq + (xid - first_xid), &res) == 0)
			good++;
		free(res.buf);
	}
	printf("rpc=%s sent=%u replies=%u ok=%u", good == n ? "SUCCESS" : "SOME_FAILED", n, got,
	    good);
}

static int
run_command(char **av, int ac)
{
	const char *c = av[0];

	if (g.ctx == GSS_C_NO_CONTEXT && strcmp(c, "svc") != 0 && strcmp(c, "seq") != 0 &&
	    strcmp(c, "init") != 0) {
		/* A line of its own, so that each command's line stays the first of its name. */
		printf("step=autoinit ");
		init_context();
	}
	printf("step=%s ", c);
	if (strcmp(c, "svc") == 0 && ac == 2) {
		g.svc = strcmp(av[1], "integ") == 0 ? SVC_INTEG :
		    strcmp(av[1], "priv") == 0 ? SVC_PRIV : SVC_NONE;
		printf("svc=%u\n", (unsigned)g.svc);
		return 0;
	}
	if (strcmp(c, "seq") == 0 && ac == 2) {
		g.seq = (uint32_t)rr_parse_num(av[1], "seq");
		printf("seq=%u\n", (unsigned)g.seq);
		return 0;
	}
	if (strcmp(c, "retry") == 0) {
		g.retry = 1;
		printf("xid=%#x\n", (unsigned)g.xid);
		return 0;
	}
	if (strcmp(c, "init") == 0) {
		init_context();
		return 0;
	}
	if (strcmp(c, "null") == 0)
		data_call(G_DATA, 0, NULL, 0, SP_NONE, NULL);
	else if (strcmp(c, "getattr") == 0 && ac == 2)
		cmd_getattr(av[1]);
	else if (strcmp(c, "create") == 0 && ac == 3)
		cmd_create(av[1], av[2]);
	else if (strcmp(c, "proc") == 0 && ac == 2)
		data_call(G_DATA, (uint32_t)rr_parse_num(av[1], "procedure"), NULL, 0, SP_NONE, NULL);
	else if (strcmp(c, "remove") == 0 && ac == 3)
		cmd_remove(av[1], av[2]);
	else if (strcmp(c, "burst") == 0 && ac == 2)
		cmd_burst(av[1]);
	else if (strcmp(c, "replay") == 0)
		cmd_replay();
	else if (strcmp(c, "forged") == 0)
		data_call(G_DATA, 0, NULL, 0, SP_HANDLE, NULL);
	else if (strcmp(c, "badmic") == 0)
		data_call(G_DATA, 0, NULL, 0, SP_MIC, NULL);
	else if (strcmp(c, "badbody") == 0)
		data_call(G_DATA, 0, NULL, 0, SP_BODY, NULL);
	else if (strcmp(c, "destroy") == 0)
		data_call(G_DESTROY, 0, NULL, 0, SP_NONE, NULL);
	else
		rr_die_usage("unknown command '%s'", c);
	printf("\n");
	return 0;
}

int
main(int argc, char **argv)
{
	int c, i, start;

	rr_start(argc, argv, "gssprobe", usage);
	while ((c = getopt(argc, argv, "p:t:")) != -1) {
		if (c == 'p')
			g.target = optarg;
		else if (c == 't')
			rr.timeout = (int)rr_parse_num(optarg, "timeout");
		else
			return usage(stderr), 2;
	}
	if (argc - optind < 3)
		return usage(stderr), 2;
	connect_target(argv[optind], argv[optind + 1]);
	for (i = start = optind + 2; i <= argc; i++) {
		if (i < argc && strcmp(argv[i], "++") != 0)
			continue;
		if (i > start)
			run_command(argv + start, i - start);
		start = i + 1;
	}
	return 0;
}
