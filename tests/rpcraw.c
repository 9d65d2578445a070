/*
 * rpcraw.c - the raw ONC RPC client library of usernfsd's tests: XDR
 * bytes, call and reply headers, record marking, sockets with deadlines,
 * and what the command-line probes share. See rpcraw.h for the API and
 * for which programs use it.
 */
#define _GNU_SOURCE
#include "rpcraw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct rr_opts rr = { .name = "rpcraw", .timeout = 5 };

/* ------------------------------------------------------------------ */
/* messages                                                             */

void
rr_fail(int usage_hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "%s: ", rr.name);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (usage_hint)
		fprintf(stderr, "\n(%s --help for usage)", rr.name);
	fprintf(stderr, "\n");
	exit(2);
}

void
rr_start(int argc, char **argv, const char *name, void (*usage)(FILE *))
{
	rr.name = name;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (usage && argc > 1 && strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		exit(0);
	}
}

void *
rr_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (p == NULL) {
		fprintf(stderr, "%s: out of memory\n", rr.name);
		exit(1);
	}
	return p;
}

/* ------------------------------------------------------------------ */
/* 1. bytes of XDR                                                      */

void
rr_put32(void *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

uint32_t
rr_get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

void
rr_put64(void *p, uint64_t v)
{
	rr_put32(p, (uint32_t)(v >> 32));
	rr_put32((char *)p + 4, (uint32_t)v);
}

uint64_t
rr_get64(const void *p)
{
	return (uint64_t)rr_get32(p) << 32 | rr_get32((const char *)p + 4);
}

void
rr_enc_init(struct rr_enc *e, void *buf, size_t cap)
{
	e->buf = buf;
	e->len = 0;
	e->cap = (u_int)cap;
	e->fixed = 1;
}

static void
enc_room(struct rr_enc *e, size_t n)
{
	size_t want = (size_t)e->len + n;

	if (want <= e->cap)
		return;
	if (e->fixed || want > 0x7fffffffu) {
		fprintf(stderr, "%s: cannot encode (buffer too small)\n", rr.name);
		exit(2);
	}
	e->cap = (u_int)(want * 2 < 4096 ? 4096 : want * 2);
	e->buf = realloc(e->buf, e->cap);
	if (e->buf == NULL) {
		fprintf(stderr, "%s: out of memory\n", rr.name);
		exit(1);
	}
}

void
rr_enc_bytes(struct rr_enc *e, const void *p, size_t n)
{
	if (n == 0)
		return;
	enc_room(e, n);
	memcpy(e->buf + e->len, p, n);
	e->len += (u_int)n;
}

void
rr_enc_u32(struct rr_enc *e, uint32_t v)
{
	enc_room(e, 4);
	rr_put32(e->buf + e->len, v);
	e->len += 4;
}

void
rr_enc_u64(struct rr_enc *e, uint64_t v)
{
	enc_room(e, 8);
	rr_put64(e->buf + e->len, v);
	e->len += 8;
}

void
rr_enc_fixed(struct rr_enc *e, const void *p, size_t n)
{
	static const char pad[4];

	rr_enc_bytes(e, p, n);
	rr_enc_bytes(e, pad, (4 - n % 4) % 4);
}

void
rr_enc_opaque(struct rr_enc *e, const void *p, u_int len)
{
	rr_enc_u32(e, len);
	rr_enc_fixed(e, p, len);
}

void
rr_enc_string(struct rr_enc *e, const char *s)
{
	rr_enc_opaque(e, s, (u_int)strlen(s));
}

void
rr_auth_sys(struct rr_cred *c, const char *machname, uint32_t uid, uint32_t gid, u_int ngids,
    const gid_t *gids)
{
	struct rr_enc e;

	rr_enc_init(&e, c->body, sizeof(c->body));
	rr_enc_u32(&e, 0);			/* stamp */
	rr_enc_string(&e, machname);
	rr_enc_u32(&e, uid);
	rr_enc_u32(&e, gid);
	rr_enc_u32(&e, ngids);
	for (u_int i = 0; i < ngids; i++)
		rr_enc_u32(&e, (uint32_t)gids[i]);
	c->auth.oa_flavor = AUTH_SYS;
	c->auth.oa_base = c->body;
	c->auth.oa_length = e.len;
}

void
rr_enc_callhdr(struct rr_enc *e, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    const struct opaque_auth *cred)
{
	rr_enc_u32(e, xid);
	rr_enc_u32(e, CALL);
	rr_enc_u32(e, RPC_MSG_VERSION);
	rr_enc_u32(e, prog);
	rr_enc_u32(e, vers);
	rr_enc_u32(e, proc);
	if (cred == NULL)
		cred = &_null_auth;
	rr_enc_u32(e, (uint32_t)cred->oa_flavor);
	rr_enc_opaque(e, cred->oa_base, cred->oa_length);
	rr_enc_u32(e, AUTH_NONE);		/* the verifier */
	rr_enc_u32(e, 0);
}

void
rr_dec_init(struct rr_dec *d, const void *p, size_t n)
{
	d->p = p;
	d->len = n;
	d->pos = 0;
	d->ok = 1;
}

static const uint8_t *
dec_take(struct rr_dec *d, size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3;
	const uint8_t *p;

	if (!d->ok || padded < n || d->len - d->pos < padded) {
		d->ok = 0;
		return NULL;
	}
	p = d->p + d->pos;
	d->pos += padded;
	return p;
}

uint32_t
rr_dec_u32(struct rr_dec *d)
{
	const uint8_t *p = dec_take(d, 4);

	return p ? rr_get32(p) : 0;
}

uint64_t
rr_dec_u64(struct rr_dec *d)
{
	const uint8_t *p = dec_take(d, 8);

	return p ? rr_get64(p) : 0;
}

void
rr_dec_skip(struct rr_dec *d, size_t n)
{
	(void)dec_take(d, n);
}

const uint8_t *
rr_dec_opaque(struct rr_dec *d, u_int *len, u_int max)
{
	*len = rr_dec_u32(d);
	if (*len > max)
		d->ok = 0;
	return d->ok ? dec_take(d, *len) : NULL;
}

void
rr_dec_fixed(struct rr_dec *d, void *out, size_t n)
{
	const uint8_t *p = dec_take(d, n);

	if (p)
		memcpy(out, p, n);
	else
		memset(out, 0, n);
}

int
rr_parse_reply(const uint8_t *p, size_t n, uint32_t *xid, const uint8_t **res, size_t *rlen)
{
	struct rr_dec d;
	uint32_t mtype, rstat, astat;
	u_int vlen;

	rr_dec_init(&d, p, n);
	*xid = rr_dec_u32(&d);
	mtype = rr_dec_u32(&d);
	rstat = rr_dec_u32(&d);
	if (!d.ok || mtype != REPLY)
		return -1;
	if (rstat != MSG_ACCEPTED)
		return 100 + (int)rr_dec_u32(&d);
	(void)rr_dec_u32(&d);			/* verifier flavour */
	(void)rr_dec_opaque(&d, &vlen, MAX_AUTH_BYTES);
	astat = rr_dec_u32(&d);
	if (!d.ok)
		return -1;
	if (astat != SUCCESS)
		return (int)(astat > 50 ? 50 : astat);
	*res = p + d.pos;
	*rlen = n - d.pos;
	return 0;
}

bool_t
rr_xdr_send(XDR *xdrs, void *enc)
{
	struct rr_enc *e = enc;

	return e->len == 0 || XDR_PUTBYTES(xdrs, e->buf, e->len);
}

/* Every XDR item is a multiple of 4 bytes: word by word loses nothing. */
bool_t
rr_xdr_slurp(XDR *xdrs, void *enc)
{
	struct rr_enc *e = enc;
	u_int w;

	while (xdr_u_int(xdrs, &w))
		rr_enc_u32(e, w);
	return TRUE;
}

/* ------------------------------------------------------------------ */
/* 2. sockets with deadlines                                            */

double
rr_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
rr_wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		struct pollfd p = { fd, events, 0 };
		double left = deadline - rr_now();
		int rc;

		if (left <= 0)
			return 0;
		rc = poll(&p, 1, (int)(left * 1000) + 1);
		if (rc > 0)
			return p.revents;
		if (rc < 0 && errno != EINTR)
			return POLLERR;
	}
}

int
rr_send_all(int fd, const void *buf, size_t n, double deadline)
{
	const uint8_t *p = buf;

	while (n > 0) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN ||
			    !(rr_wait_fd(fd, POLLOUT, deadline) & (POLLOUT | POLLERR | POLLHUP)))
				return -1;
			continue;
		}
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int
rr_recv_all(int fd, void *buf, size_t n, double deadline)
{
	uint8_t *p = buf;

	while (n > 0) {
		ssize_t k = recv(fd, p, n, MSG_DONTWAIT);

		if (k == 0)
			return -1;
		if (k < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return -1;
			if (!rr_wait_fd(fd, POLLIN, deadline))
				return 0;
			continue;
		}
		p += k;
		n -= (size_t)k;
	}
	return 1;
}

int
rr_read_record(int fd, struct rr_rbuf *b, size_t max, double deadline)
{
	int last = 0;

	b->len = 0;
	while (!last) {
		uint8_t hdr[4];
		uint32_t h, flen;
		int rc = rr_recv_all(fd, hdr, 4, deadline);

		if (rc <= 0)
			return rc;
		h = rr_get32(hdr);
		last = (h & RR_LAST_FRAG) != 0;
		flen = h & ~RR_LAST_FRAG;
		if (b->len + flen > max)
			return -1;
		if (b->len + flen > b->cap) {
			b->cap = b->len + flen + 65536;
			b->p = realloc(b->p, b->cap);
			if (b->p == NULL) {
				fprintf(stderr, "%s: out of memory\n", rr.name);
				exit(1);
			}
		}
		if ((rc = rr_recv_all(fd, b->p + b->len, flen, deadline)) <= 0)
			return rc;
		b->len += flen;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* 3. the command-line probes                                           */

unsigned long long
rr_parse_num(const char *s, const char *what)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *s == '\0' || *end != '\0' || *s == '-')
		rr_die_usage("bad %s '%s'", what, s);
	return v;
}

int
rr_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *
rr_parse_hex(const char *s, u_int *len)
{
	size_t n = strlen(s);
	char *out;

	if (n % 2)
		rr_die_usage("odd number of hex digits in '%s'", s);
	*len = (u_int)(n / 2);
	out = rr_xmalloc(*len + 1);
	for (u_int i = 0; i < *len; i++) {
		int hi = rr_hexval(s[2 * i]), lo = rr_hexval(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			rr_die_usage("bad hex in '%s'", s);
		out[i] = (char)(hi << 4 | lo);
	}
	out[*len] = '\0';
	return out;
}

void
rr_print_hex(const char *key, const void *p, u_int len, u_int max)
{
	const uint8_t *b = p;

	printf("%s=", key);
	for (u_int i = 0; i < len && (max == 0 || i < max); i++)
		printf("%02x", b[i]);
	if (max && len > max)
		printf("...(%u bytes)", len);
}

int
rr_is_udp(void)
{
	return strncmp(rr.proto, "udp", 3) == 0;
}

int
rr_option(int c, const char *arg)
{
	switch (c) {
	case 'a':
		if (strcmp(arg, "none") && strcmp(arg, "sys"))
			rr_die_usage("-a takes none or sys");
		rr.auth_none = strcmp(arg, "none") == 0;
		return 1;
	case 'u': rr.uid = (uid_t)rr_parse_num(arg, "uid"); return 1;
	case 'g': rr.gid = (gid_t)rr_parse_num(arg, "gid"); return 1;
	case 'P': rr.unpriv = 1; return 1;
	case 't': rr.timeout = (int)rr_parse_num(arg, "timeout"); return 1;
	case 'S': rr.source = arg; return 1;
	default: return 0;
	}
}

/*
 * As root (and without -P) the socket must come from a reserved port,
 * because the tests of "secure" exports and the lock manager's depend on
 * it: libtirpc's own bindresvport() failure is silent and would leave an
 * ephemeral port, turning a harness problem into a wrong test result.
 * TCP sockets close with RST (SO_LINGER 0): a test run opens thousands of
 * connections, and TIME_WAIT on the 600-odd reserved ports would exhaust
 * them.
 */
int
rr_socket(int family, int type)
{
	struct sockaddr_storage any;
	void *addr = family == AF_INET6 ? (void *)&((struct sockaddr_in6 *)&any)->sin6_addr :
	    (void *)&((struct sockaddr_in *)&any)->sin_addr;
	int fd = socket(family, type, 0);

	if (fd < 0) {
		printf("rpc=CREATE_FAILED socket: %s\n", strerror(errno));
		exit(1);
	}
	memset(&any, 0, sizeof(any));
	any.ss_family = (sa_family_t)family;
	if (rr.source && inet_pton(family, rr.source, addr) != 1) {
		printf("rpc=CREATE_FAILED bad source address '%s'\n", rr.source);
		exit(1);
	}
	if (rr.unpriv || geteuid() != 0) {
		if (bind(fd, (struct sockaddr *)&any, family == AF_INET6 ?
		    sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in)) < 0) {
			printf("rpc=CREATE_FAILED bind: %s\n", strerror(errno));
			exit(1);
		}
	} else if (bindresvport_sa(fd, rr.source ? (struct sockaddr *)&any : NULL) < 0) {
		printf("rpc=CREATE_FAILED no reserved port free: %s\n", strerror(errno));
		exit(1);
	}
	if (type == SOCK_STREAM) {
		struct linger lg = { 1, 0 };

		(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	return fd;
}

void
rr_target(struct sockaddr_storage *ss, socklen_t *len, int *family, int *type)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = strchr(rr.proto, '6') ? AF_INET6 : AF_INET;
	hints.ai_socktype = rr_is_udp() ? SOCK_DGRAM : SOCK_STREAM;
	rc = getaddrinfo(rr.host, NULL, &hints, &res);
	if (rc != 0 || res == NULL) {
		printf("rpc=CREATE_FAILED cannot resolve %s for %s: %s\n", rr.host, rr.proto,
		    gai_strerror(rc));
		exit(1);
	}
	memset(ss, 0, sizeof(*ss));
	memcpy(ss, res->ai_addr, res->ai_addrlen);
	if (res->ai_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)rr.port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)rr.port);
	*len = res->ai_addrlen;
	*family = res->ai_family;
	*type = hints.ai_socktype;
	freeaddrinfo(res);
}

static struct {
	CLIENT *clnt;
	unsigned long prog, vers;
	int auth_none;
} cache;

static CLIENT *
make_client(unsigned long prog, unsigned long vers, int auth_none)
{
	struct netconfig *nconf = getnetconfigent(rr.proto);
	struct sockaddr_storage ss;
	struct netbuf nb;
	socklen_t sslen;
	CLIENT *clnt;
	int family, type;

	if (nconf == NULL)
		rr_die_usage("unknown netid '%s' (need /etc/netconfig)", rr.proto);
	rr_target(&ss, &sslen, &family, &type);
	nb.buf = &ss;
	nb.len = nb.maxlen = sslen;
	/* UDP: buffers big enough for a 64 KiB datagram; TCP: 1 MiB records
	 * are streamed through a 256 KiB buffer (libtirpc's cap). */
	clnt = clnt_tli_create(rr_socket(family, type), nconf, &nb, prog, vers,
	    rr_is_udp() ? 65536 : 262144, rr_is_udp() ? 65536 : 262144);
	freenetconfigent(nconf);
	if (clnt == NULL) {
		printf("rpc=CREATE_FAILED %s\n", clnt_spcreateerror("clnt_tli_create"));
		exit(1);
	}
	clnt_control(clnt, CLSET_FD_CLOSE, NULL);
	if (rr_is_udp()) {
		struct timeval rt = { 1, 0 };

		clnt_control(clnt, CLSET_RETRY_TIMEOUT, (char *)&rt);
	}
	if (auth_none) {
		clnt->cl_auth = authnone_create();
	} else {
		gid_t gids[1] = { rr.gid };
		char host[256];

		snprintf(host, sizeof(host), "%s", rr.machname ? rr.machname : rr.name);
		if (rr.machname == NULL)
			(void)gethostname(host, sizeof(host) - 1);
		clnt->cl_auth = authunix_create(host, rr.uid, rr.gid, 1, gids);
	}
	if (clnt->cl_auth == NULL) {
		printf("rpc=CREATE_FAILED cannot create auth\n");
		exit(1);
	}
	return clnt;
}

CLIENT *
rr_client(unsigned long prog, unsigned long vers, int auth_none)
{
	auth_none = auth_none || rr.auth_none;
	if (cache.clnt == NULL || cache.prog != prog || cache.vers != vers ||
	    cache.auth_none != auth_none) {
		rr_drop_client();
		cache.clnt = make_client(prog, vers, auth_none);
		cache.prog = prog;
		cache.vers = vers;
		cache.auth_none = auth_none;
	}
	return cache.clnt;
}

CLIENT *
rr_cached_client(void)
{
	return cache.clnt;
}

void
rr_drop_client(void)
{
	if (cache.clnt) {
		auth_destroy(cache.clnt->cl_auth);
		clnt_destroy(cache.clnt);
		cache.clnt = NULL;
	}
}

const char *
rr_auth_stat_name(int why)
{
	switch (why) {
	case AUTH_OK: return "AUTH_OK";
	case AUTH_BADCRED: return "AUTH_BADCRED";
	case AUTH_REJECTEDCRED: return "AUTH_REJECTEDCRED";
	case AUTH_BADVERF: return "AUTH_BADVERF";
	case AUTH_REJECTEDVERF: return "AUTH_REJECTEDVERF";
	case AUTH_TOOWEAK: return "AUTH_TOOWEAK";
	case AUTH_INVALIDRESP: return "AUTH_INVALIDRESP";
	case AUTH_FAILED: return "AUTH_FAILED";
	default: return "AUTH_?";
	}
}

const char *
rr_clnt_stat_name(enum clnt_stat st)
{
	switch (st) {
	case RPC_SUCCESS: return "SUCCESS";
	case RPC_CANTENCODEARGS: return "CANTENCODEARGS";
	case RPC_CANTDECODERES: return "CANTDECODERES";
	case RPC_CANTSEND: return "CANTSEND";
	case RPC_CANTRECV: return "CANTRECV";
	case RPC_TIMEDOUT: return "TIMEDOUT";
	case RPC_VERSMISMATCH: return "RPC_MISMATCH";
	case RPC_AUTHERROR: return "AUTH_ERROR";
	case RPC_PROGUNAVAIL: return "PROG_UNAVAIL";
	case RPC_PROGVERSMISMATCH: return "PROG_MISMATCH";
	case RPC_PROCUNAVAIL: return "PROC_UNAVAIL";
	case RPC_CANTDECODEARGS: return "GARBAGE_ARGS";
	case RPC_SYSTEMERROR: return "SYSTEM_ERR";
	default: return "OTHER";
	}
}

void
rr_call_done(enum clnt_stat st)
{
	switch (st) {
	case RPC_SUCCESS: case RPC_PROGUNAVAIL: case RPC_PROGVERSMISMATCH:
	case RPC_PROCUNAVAIL: case RPC_CANTDECODEARGS: case RPC_SYSTEMERROR:
	case RPC_AUTHERROR:
		break;			/* a proper reply: the client is fine */
	default:
		rr_drop_client();	/* reconnect for the next call */
		break;
	}
}

int
rr_print_rpc(enum clnt_stat st, const struct rpc_err *err)
{
	switch (st) {
	case RPC_SUCCESS:
		if (!rr.quiet)
			printf("rpc=SUCCESS\n");
		return 1;
	case RPC_PROGVERSMISMATCH:
	case RPC_VERSMISMATCH:
		printf("rpc=%s low=%lu high=%lu\n", rr_clnt_stat_name(st),
		    (unsigned long)err->re_vers.low, (unsigned long)err->re_vers.high);
		break;
	case RPC_AUTHERROR:
		printf("rpc=AUTH_ERROR why=%d(%s)\n", (int)err->re_why,
		    rr_auth_stat_name(err->re_why));
		break;
	default:
		if (!rr.quiet || st != RPC_TIMEDOUT)
			printf("rpc=%s (%s)\n", rr_clnt_stat_name(st), clnt_sperrno(st));
		break;
	}
	return 0;
}

int
rr_call(unsigned long prog, unsigned long vers, unsigned long proc, xdrproc_t xargs,
    void *args, xdrproc_t xres, void *res)
{
	struct timeval tv = { rr.timeout, 0 };
	CLIENT *clnt = rr_client(prog, vers, 0);
	enum clnt_stat st = clnt_call(clnt, proc, xargs, args, xres, res, tv);
	struct rpc_err err;

	clnt_geterr(clnt, &err);
	rr_call_done(st);
	return rr_print_rpc(st, &err);
}

void
rr_usage_commands(FILE *f, const struct rr_command *c, size_t n, int namew, int argsw)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-*s %-*s %s\n", namew, c[i].name, argsw, c[i].args, c[i].help);
}

int
rr_run_command(const struct rr_command *c, size_t n, char **av)
{
	int nargs = 0;

	while (av[1 + nargs])
		nargs++;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(c[i].name, av[0]) != 0)
			continue;
		if (nargs < c[i].min_args || nargs > c[i].max_args)
			rr_die_usage("usage: %s %s", c[i].name, c[i].args);
		return c[i].fn(av + 1);
	}
	return -1;
}

int
rr_run_steps(int argc, char **argv, int first, const struct rr_command *c, size_t n,
    void (*usage)(FILE *))
{
	int rc = 0, start, steps = 1;

	if (argc - first < 4) {
		usage(stderr);
		return 2;
	}
	rr.host = argv[first];
	rr.port = (unsigned)rr_parse_num(argv[first + 1], "port");
	rr.proto = argv[first + 2];
	if (strcmp(rr.proto, "udp") && strcmp(rr.proto, "tcp") &&
	    strcmp(rr.proto, "udp6") && strcmp(rr.proto, "tcp6"))
		rr_die_usage("protocol must be udp, tcp, udp6 or tcp6, not '%s'", rr.proto);
	/* split at "++" into NULL-terminated commands */
	for (int i = first + 3; i < argc; i++)
		if (strcmp(argv[i], "++") == 0) {
			argv[i] = NULL;
			steps++;
		}
	start = first + 3;
	for (int i = 1; i <= steps; i++) {
		int r, end = start;

		if (start >= argc || argv[start] == NULL)
			rr_die_usage("empty command (around '++')");
		while (end < argc && argv[end])
			end++;
		if (steps > 1)
			printf("step=%d command=%s\n", i, argv[start]);
		r = rr_run_command(c, n, argv + start);
		if (r < 0)
			rr_die_usage("unknown command '%s'", argv[start]);
		if (r > rc)
			rc = r;
		start = end + 1;
	}
	rr_drop_client();
	return rc;
}
