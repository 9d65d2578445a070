/*
 * hostile - hostile and overloading clients for usernfsd's integration
 * test tests/integ_hostile.sh.
 *
 * Every command attacks the server in one way while, where it says so, a
 * well-behaved client (its own thread, its own source address) mounts the
 * export, looks up a file, checks its size and reads it whole, comparing
 * every byte with the local copy, over and over. Each command prints what
 * it measured as key=value lines (one or more per line) for the shell
 * test to check; the tool itself asserts nothing but the sanity of its own
 * operation (exit status 0 unless it could not do what it was asked).
 *
 * Usage: hostile [OPTIONS] COMMAND
 *   -H ADDR   server address (127.0.0.1)
 *   -n PORT   NFS port (32049)          -m PORT   MOUNT port (32048)
 *   -e PATH   exported path             -f NAME   file below it to verify
 *   -l PATH   local copy of that file   -b NAME   a file of >= 1 MiB below it
 *   -c ADDR   the normal client's source address (127.0.0.1)
 *   -s ADDR   the hostile client's source address (127.0.0.2)
 *   -p PID    the daemon's pid (for /proc/PID/fd and /proc/PID/status)
 *   -d SECS   duration of the attack       -N COUNT  how many (command's own)
 *   -r RATE   garbage messages per second (garbage; default 20000)
 *   -k KEEP   connections the daemon is expected to keep (idle-flood; 1024)
 *
 * Commands:
 *   check        one normal session (MNT, LOOKUP, GETATTR, READ, compare)
 *   idle-flood   open COUNT (10000) idle TCP connections to the NFS port in
 *                batches (from several processes when our descriptor limit
 *                is too low), hold them SECS, and report the daemon's
 *                descriptor count and which of them it closed: in the
 *                order they were accepted, how many of the newest KEEP/2
 *                are open and of all but the newest KEEP + 76 closed
 *   slow-reader  COUNT (1) connections send 1 MiB READs of the big file for
 *                SECS and never read a reply; reports the daemon's VmRSS
 *   garbage      random datagrams and malformed RPC calls over UDP (NFS and
 *                MOUNT ports) and TCP at RATE messages/s for SECS
 *   recmark      TCP record-marking edge cases, one line NAME=RESULT each
 *   fairness     the hostile address keeps thousands of GETATTR/READ calls
 *                in flight on COUNT (32) connections plus UDP; the normal
 *                address (-c) calls GETATTR and READ one at a time and
 *                reports its latencies
 *
 * Plain C on the tests' raw RPC library (rpcraw.h): call headers with an
 * AUTH_SYS credential, arguments, reply headers and results are encoded
 * and decoded with its rr_enc/rr_dec, and records read with its
 * rr_read_record and deadline waits; the rest of the transport
 * (connections from chosen source addresses, pipelining, floods) is done
 * here by hand, because the point is to misuse it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rpc/rpc.h>

#include "rpcraw.h"

#define NFS_PROG 100003u
#define MOUNT_PROG 100005u
#define NFSPROC3_GETATTR 1u
#define NFSPROC3_LOOKUP 3u
#define NFSPROC3_READ 6u
#define MOUNTPROC3_MNT 1u
#define FATTR3_LEN 84u		/* 21 XDR words */
#define MAX_RECORD (8u << 20)	/* largest reply record we accept */
#define CALL_TIMEOUT 5.0	/* seconds a normal call may take before it fails */
#ifndef IP_BIND_ADDRESS_NO_PORT
#define IP_BIND_ADDRESS_NO_PORT 24
#endif

static struct {
	const char *host;
	unsigned nfs_port, mount_port;
	const char *export, *file, *local, *big;
	const char *src_normal, *src_hostile;
	pid_t pid;
	double secs;
	unsigned count;
	double rate;
	unsigned keep;
} opt = {
	.host = "127.0.0.1", .nfs_port = 32049, .mount_port = 32048,
	.src_normal = "127.0.0.1", .src_hostile = "127.0.0.2", .secs = 0,
	.count = 0, .rate = 20000, .keep = 1024,
};

static struct rr_cred g_cred;	/* AUTH_SYS root, in every call header */
static uint8_t *g_local;	/* the local copy of opt.file */
static size_t g_local_len;

/* ------------------------------------------------------------------ */
/* small utilities                                                      */

static void
sleep_s(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static uint64_t
rnd(uint64_t *s)		/* xorshift64* */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void
rnd_fill(uint64_t *s, uint8_t *p, size_t n)
{
	while (n >= 8) {
		uint64_t v = rnd(s);
		memcpy(p, &v, 8);
		p += 8;
		n -= 8;
	}
	while (n--)
		*p++ = (uint8_t)rnd(s);
}

/* ------------------------------------------------------------------ */
/* the daemon, seen from /proc                                          */

static long
daemon_rss_kb(void)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	if (opt.pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)opt.pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static int
daemon_fds(void)
{
	char path[64];
	struct dirent *de;
	int n = 0;
	DIR *d;

	if (opt.pid <= 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)opt.pid);
	if ((d = opendir(path)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static int
daemon_alive(void)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	if (opt.pid <= 0)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)opt.pid);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* Raises RLIMIT_NOFILE towards want (the hard limit too, if we may); returns the soft limit. */
static rlim_t
raise_nofile(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		rr_die("getrlimit: %s", strerror(errno));
	if (rl.rlim_cur >= want)
		return rl.rlim_cur;
	if (rl.rlim_max < want) {
		struct rlimit hard = { want, want };
		if (setrlimit(RLIMIT_NOFILE, &hard) == 0)
			return want;	/* root with CAP_SYS_RESOURCE: the hard limit went up */
	}
	rl.rlim_cur = rl.rlim_max < want ? rl.rlim_max : want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		getrlimit(RLIMIT_NOFILE, &rl);
	return rl.rlim_cur;
}

/* close_range(first, ~0U, 0) (Linux 5.9; glibc has no wrapper before 2.34) */
static int
syscall_close_range(int first)
{
#ifdef SYS_close_range
	return (int)syscall(SYS_close_range, (unsigned)first, ~0u, 0u);
#else
	(void)first;
	errno = ENOSYS;
	return -1;
#endif
}

/* ------------------------------------------------------------------ */
/* sockets                                                              */

static void
server_addr(struct sockaddr_in *sa, unsigned port)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	if (inet_pton(AF_INET, opt.host, &sa->sin_addr) != 1)
		rr_die("bad server address %s", opt.host);
}

/* A non-blocking socket bound to source address src (port chosen at connect). */
static int
sock_new(int type, const char *src, int rcvbuf)
{
	int fd = socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), one = 1;

	if (fd < 0)
		return -1;
	if (rcvbuf > 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (type == SOCK_STREAM) {
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
	}
	if (src) {
		struct sockaddr_in sa;

		memset(&sa, 0, sizeof(sa));
		sa.sin_family = AF_INET;
		if (inet_pton(AF_INET, src, &sa.sin_addr) != 1)
			rr_die("bad source address %s", src);
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* 0: connected or in progress; -1: failed. */
static int
connect_start(int fd, unsigned port)
{
	struct sockaddr_in sa;

	server_addr(&sa, port);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 || errno == EINPROGRESS)
		return 0;
	return -1;
}

static int
tcp_open(const char *src, unsigned port, double deadline, int rcvbuf)
{
	int fd = sock_new(SOCK_STREAM, src, rcvbuf), err = 0;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return -1;
	if (connect_start(fd, port) < 0 || !(rr_wait_fd(fd, POLLOUT, deadline) & POLLOUT) ||
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
udp_open(const char *src, unsigned port)
{
	int fd = sock_new(SOCK_DGRAM, src, 0);

	if (fd >= 0 && connect_start(fd, port) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The bytes of XDR, record marking, reply headers and the waits with
 * deadlines are rpcraw's (rr_*). */

/* ------------------------------------------------------------------ */
/* a synchronous RPC client over TCP or UDP, as a well-behaved client   */

struct rpc {
	int fd;
	int udp;
	unsigned port;
	const char *src;
	uint32_t xid;
	struct rr_rbuf in;
	uint8_t out[2048];
	unsigned reconnects;
	char err[200];
};

static atomic_uint xid_seed;

static void
rpc_init(struct rpc *r, int udp, unsigned port, const char *src)
{
	memset(r, 0, sizeof(*r));
	r->fd = -1;
	r->udp = udp;
	r->port = port;
	r->src = src;
	r->xid = (uint32_t)time(NULL) * 2654435761u + atomic_fetch_add(&xid_seed, 1) * 0x01000000u;
}

static void
rpc_close(struct rpc *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static void
rpc_free(struct rpc *r)
{
	rpc_close(r);
	free(r->in.p);
	r->in.p = NULL;
}

static void rpc_err(struct rpc *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
rpc_err(struct rpc *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, sizeof(r->err), fmt, ap);
	va_end(ap);
}

/*
 * One call, retried until the deadline: over TCP on a new connection when
 * the old one broke (the server may close idle connections; every call
 * made here is idempotent), over UDP by retransmitting every 0.5 s.
 * Returns 0 with (*res, *rlen) the results of a successful call, else -1 with
 * r->err set.
 */
static int
call_rpc(struct rpc *r, uint32_t prog, uint32_t vers, uint32_t proc, const uint8_t *args,
    size_t alen, const uint8_t **res, size_t *rlen)
{
	double deadline = rr_now() + CALL_TIMEOUT;
	uint32_t xid = ++r->xid;
	struct rr_enc e;
	size_t len;
	int tries = 0;

	rr_enc_init(&e, r->out + 4, sizeof(r->out) - 4);
	rr_enc_callhdr(&e, xid, prog, vers, proc, &g_cred.auth);
	rr_enc_bytes(&e, args, alen);
	len = e.len;
	rr_put32(r->out, RR_LAST_FRAG | (uint32_t)len);
	rpc_err(r, "no answer within %.0f s", CALL_TIMEOUT);
	while (rr_now() < deadline) {
		double wait_until;

		if (tries++ > 0 && !r->udp)
			sleep_s(0.02);
		if (r->fd < 0) {
			r->fd = r->udp ? udp_open(r->src, r->port)
			    : tcp_open(r->src, r->port, deadline, 0);
			if (r->fd < 0) {
				rpc_err(r, "cannot connect to port %u: %s", r->port, strerror(errno));
				continue;
			}
		}
		if (r->udp) {
			if (send(r->fd, r->out + 4, len, 0) < 0)
				rpc_err(r, "UDP send: %s", strerror(errno));
			wait_until = rr_now() + 0.5;
			if (wait_until > deadline)
				wait_until = deadline;
		} else {
			if (rr_send_all(r->fd, r->out, len + 4, deadline) < 0) {
				rpc_err(r, "TCP send: %s", strerror(errno));
				rpc_close(r);
				r->reconnects++;
				continue;
			}
			wait_until = deadline;
		}
		for (;;) {
			uint32_t rxid;
			int rc;

			if (r->udp) {
				ssize_t k;

				if (r->in.cap < 65536) {
					r->in.cap = 65536;
					r->in.p = realloc(r->in.p, r->in.cap);
					if (r->in.p == NULL)
						rr_die("out of memory");
				}
				if (!(rr_wait_fd(r->fd, POLLIN, wait_until) & POLLIN))
					break;			/* retransmit */
				k = recv(r->fd, r->in.p, r->in.cap, MSG_DONTWAIT);
				if (k < 0)
					continue;
				r->in.len = (size_t)k;
			} else {
				rc = rr_read_record(r->fd, &r->in, MAX_RECORD, wait_until);
				if (rc == 0) {
					rpc_close(r);		/* out of step now */
					return -1;		/* err: no answer */
				}
				if (rc < 0) {
					rpc_err(r, "connection closed by the server");
					rpc_close(r);
					r->reconnects++;
					break;			/* reconnect and resend */
				}
			}
			rc = rr_parse_reply(r->in.p, r->in.len, &rxid, res, rlen);
			if (rxid != xid)
				continue;			/* a late answer to an earlier call */
			if (rc == 0)
				return 0;
			rpc_err(r, "RPC error %d (accept_stat, or 100 + reject_stat)", rc);
			return -1;
		}
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* NFSv3 and MOUNT v3 calls                                             */

struct fh {
	u_int len;
	uint8_t data[64];
};

static size_t
args_fh(uint8_t *buf, size_t cap, const struct fh *fh)
{
	struct rr_enc e;

	rr_enc_init(&e, buf, cap);
	rr_enc_opaque(&e, fh->data, fh->len);
	return e.len;
}

static size_t
args_read(uint8_t *buf, size_t cap, const struct fh *fh, uint64_t off, uint32_t count)
{
	struct rr_enc e;

	rr_enc_init(&e, buf, cap);
	rr_enc_opaque(&e, fh->data, fh->len);
	rr_enc_u64(&e, off);
	rr_enc_u32(&e, count);
	return e.len;
}

static int
get_fh(struct rr_dec *d, struct fh *out)
{
	const uint8_t *p = rr_dec_opaque(d, &out->len, sizeof(out->data));

	if (p == NULL)
		return -1;
	memcpy(out->data, p, out->len);
	return 0;
}

static void
skip_post_op_attr(struct rr_dec *d)
{
	if (rr_dec_u32(d))
		rr_dec_skip(d, FATTR3_LEN);
}

static int
op_mnt(struct rpc *m, const char *path, struct fh *root)
{
	uint8_t a[1100];
	struct rr_enc e;
	struct rr_dec d;
	const uint8_t *res;
	size_t rlen;
	uint32_t st;

	rr_enc_init(&e, a, sizeof(a));
	rr_enc_string(&e, path);
	if (call_rpc(m, MOUNT_PROG, 3, MOUNTPROC3_MNT, a, e.len, &res, &rlen) < 0)
		return -1;
	rr_dec_init(&d, res, rlen);
	st = rr_dec_u32(&d);
	if (!d.ok || st != 0 || get_fh(&d, root) < 0) {
		rpc_err(m, "MNT %s: status %u", path, st);
		return -1;
	}
	return 0;
}

static int
op_lookup(struct rpc *n, const struct fh *dir, const char *name, struct fh *out)
{
	uint8_t a[512];
	struct rr_enc e;
	struct rr_dec d;
	const uint8_t *res;
	size_t rlen;
	uint32_t st;

	rr_enc_init(&e, a, sizeof(a));
	rr_enc_opaque(&e, dir->data, dir->len);
	rr_enc_string(&e, name);
	if (call_rpc(n, NFS_PROG, 3, NFSPROC3_LOOKUP, a, e.len, &res, &rlen) < 0)
		return -1;
	rr_dec_init(&d, res, rlen);
	st = rr_dec_u32(&d);
	if (!d.ok || st != 0 || get_fh(&d, out) < 0) {
		rpc_err(n, "LOOKUP %s: status %u", name, st);
		return -1;
	}
	return 0;
}

static int
op_getattr(struct rpc *n, const struct fh *fh, uint64_t *size)
{
	uint8_t a[128];
	struct rr_dec d;
	const uint8_t *res;
	size_t rlen;
	uint32_t st;

	if (call_rpc(n, NFS_PROG, 3, NFSPROC3_GETATTR, a, args_fh(a, sizeof(a), fh), &res, &rlen) < 0)
		return -1;
	rr_dec_init(&d, res, rlen);
	st = rr_dec_u32(&d);
	rr_dec_skip(&d, 20);		/* type mode nlink uid gid */
	*size = rr_dec_u64(&d);
	if (!d.ok || st != 0) {
		rpc_err(n, "GETATTR: status %u", st);
		return -1;
	}
	return 0;
}

/* READ into dst (at least count bytes): 0 with *got and *eof, or -1. */
static int
op_read(struct rpc *n, const struct fh *fh, uint64_t off, uint32_t count, uint8_t *dst,
    uint32_t *got, int *eof)
{
	uint8_t a[128];
	struct rr_dec d;
	const uint8_t *res, *data;
	size_t rlen;
	uint32_t st, cnt;
	u_int dlen;

	if (call_rpc(n, NFS_PROG, 3, NFSPROC3_READ, a, args_read(a, sizeof(a), fh, off, count),
	    &res, &rlen) < 0)
		return -1;
	rr_dec_init(&d, res, rlen);
	st = rr_dec_u32(&d);
	skip_post_op_attr(&d);
	cnt = rr_dec_u32(&d);
	*eof = (int)rr_dec_u32(&d);
	data = rr_dec_opaque(&d, &dlen, count);
	if (!d.ok || st != 0 || data == NULL || dlen != cnt) {
		rpc_err(n, "READ at %" PRIu64 ": status %u", off, st);
		return -1;
	}
	memcpy(dst, data, dlen);
	*got = dlen;
	return 0;
}

/* ------------------------------------------------------------------ */
/* the normal client: sessions, statistics, a background thread         */

struct stats {
	unsigned calls, fails, sessions, bad, reconnects;
	double max_ms;
	double *lat;
	size_t nlat, caplat;
	char first_err[240];
};

static void
stats_add(struct stats *st, double ms, int failed, const char *err)
{
	st->calls++;
	if (ms > st->max_ms)
		st->max_ms = ms;
	if (st->nlat == st->caplat) {
		st->caplat = st->caplat ? st->caplat * 2 : 1024;
		st->lat = realloc(st->lat, st->caplat * sizeof(*st->lat));
		if (st->lat == NULL)
			rr_die("out of memory");
	}
	st->lat[st->nlat++] = ms;
	if (failed) {
		st->fails++;
		if (st->first_err[0] == '\0')
			snprintf(st->first_err, sizeof(st->first_err), "%s", err);
	}
}

static void
stats_bad(struct stats *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
stats_bad(struct stats *st, const char *fmt, ...)
{
	va_list ap;

	st->bad++;
	if (st->first_err[0] == '\0') {
		va_start(ap, fmt);
		vsnprintf(st->first_err, sizeof(st->first_err), fmt, ap);
		va_end(ap);
	}
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
percentile(struct stats *st, unsigned pct)
{
	size_t i;

	if (st->nlat == 0)
		return 0;
	qsort(st->lat, st->nlat, sizeof(*st->lat), cmp_double);
	i = st->nlat * pct / 100;
	if (i >= st->nlat)
		i = st->nlat - 1;
	return st->lat[i];
}

static void
stats_print(const char *prefix, struct stats *st)
{
	double p50 = percentile(st, 50), p99 = percentile(st, 99);

	printf("%s_sessions=%u %s_calls=%u %s_fail=%u %s_bad=%u %s_reconnects=%u\n",
	    prefix, st->sessions, prefix, st->calls, prefix, st->fails, prefix, st->bad,
	    prefix, st->reconnects);
	printf("%s_p50_ms=%.0f %s_p99_ms=%.0f %s_max_ms=%.0f %s_p50_us=%.0f %s_p99_us=%.0f\n",
	    prefix, p50, prefix, p99, prefix, st->max_ms, prefix, p50 * 1000, prefix, p99 * 1000);
	if (st->first_err[0]) {
		for (char *c = st->first_err; *c; c++)
			if (*c == ' ')
				*c = '_';
		printf("%s_first_error=%s\n", prefix, st->first_err);
	}
	fflush(stdout);
}

struct client {
	struct rpc m, n;
	struct stats *st;
	uint8_t *buf;
};

static void
client_init(struct client *c, int udp, const char *src, struct stats *st)
{
	rpc_init(&c->m, udp, opt.mount_port, src);
	rpc_init(&c->n, udp, opt.nfs_port, src);
	c->st = st;
	c->buf = rr_xmalloc(65536);
}

static void
client_free(struct client *c)
{
	c->st->reconnects += c->m.reconnects + c->n.reconnects;
	rpc_free(&c->m);
	rpc_free(&c->n);
	free(c->buf);
}

/* Runs one timed call; the statement must set rc (0 or -1) from an op_* on r. */
#define TIMED(c, r, stmt) do {						\
		double t0_ = rr_now();					\
		stmt;							\
		stats_add((c)->st, (rr_now() - t0_) * 1000, rc < 0, (r)->err);	\
	} while (0)

/* MNT, LOOKUP, GETATTR, then READ the whole file and compare: 0 or -1. */
static int
session(struct client *c)
{
	struct fh root, f;
	uint64_t size = 0, off = 0;
	uint32_t chunk = c->n.udp ? 16384 : 65536;
	int rc;

	c->st->sessions++;
	TIMED(c, &c->m, rc = op_mnt(&c->m, opt.export, &root));
	if (rc < 0)
		return -1;
	TIMED(c, &c->n, rc = op_lookup(&c->n, &root, opt.file, &f));
	if (rc < 0)
		return -1;
	TIMED(c, &c->n, rc = op_getattr(&c->n, &f, &size));
	if (rc < 0)
		return -1;
	if (size != g_local_len) {
		stats_bad(c->st, "GETATTR size %" PRIu64 ", the file has %zu bytes", size, g_local_len);
		return -1;
	}
	while (off < size) {
		uint32_t got = 0;
		int eof = 0;

		TIMED(c, &c->n, rc = op_read(&c->n, &f, off, chunk, c->buf, &got, &eof));
		if (rc < 0)
			return -1;
		if (off + got > g_local_len || memcmp(c->buf, g_local + off, got) != 0) {
			stats_bad(c->st, "READ at %" PRIu64 ": %u bytes that differ from the file", off, got);
			return -1;
		}
		off += got;
		if (eof || got == 0)
			break;
	}
	if (off != size) {
		stats_bad(c->st, "READ stopped at %" PRIu64 " of %" PRIu64, off, size);
		return -1;
	}
	return 0;
}

struct normal {
	pthread_t tid;
	atomic_int stop;
	const char *src;
	int udp_too;
	struct stats st;
};

static void *
normal_main(void *arg)
{
	struct normal *nm = arg;
	struct client tcp, udp;

	client_init(&tcp, 0, nm->src, &nm->st);
	client_init(&udp, 1, nm->src, &nm->st);
	for (unsigned i = 0; !atomic_load(&nm->stop); i++) {
		session(nm->udp_too && (i & 1) ? &udp : &tcp);
		sleep_s(0.005);
	}
	client_free(&tcp);
	client_free(&udp);
	return NULL;
}

static void
normal_start(struct normal *nm, const char *src, int udp_too)
{
	memset(nm, 0, sizeof(*nm));
	nm->src = src;
	nm->udp_too = udp_too;
	if (pthread_create(&nm->tid, NULL, normal_main, nm) != 0)
		rr_die("pthread_create");
}

static void
normal_stop(struct normal *nm)
{
	atomic_store(&nm->stop, 1);
	pthread_join(nm->tid, NULL);
}

/* One session in the foreground; prints PREFIX_ok=0|1 and the stats. */
static int
check_once(const char *prefix, int udp)
{
	struct stats st;
	struct client c;
	int rc;

	memset(&st, 0, sizeof(st));
	client_init(&c, udp, opt.src_normal, &st);
	rc = session(&c);
	client_free(&c);
	printf("%s_ok=%d\n", prefix, rc == 0);
	stats_print(prefix, &st);
	free(st.lat);
	return rc;
}

static void
need_file_opts(void)
{
	int fd;
	struct stat sb;

	if (!opt.export || !opt.file || !opt.local)
		rr_die("-e EXPORT, -f FILE and -l LOCALFILE are required");
	if ((fd = open(opt.local, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &sb) < 0)
		rr_die("%s: %s", opt.local, strerror(errno));
	g_local_len = (size_t)sb.st_size;
	g_local = rr_xmalloc(g_local_len);
	if (read(fd, g_local, g_local_len) != (ssize_t)g_local_len)
		rr_die("%s: short read", opt.local);
	close(fd);
}

/* Handle of name below the export, via MNT and LOOKUP from the normal address. */
static void
lookup_file(const char *name, struct fh *out, uint64_t *size)
{
	struct client c;
	struct stats st;
	struct fh root;

	memset(&st, 0, sizeof(st));
	client_init(&c, 0, opt.src_normal, &st);
	if (op_mnt(&c.m, opt.export, &root) < 0)
		rr_die("MNT %s: %s", opt.export, c.m.err);
	if (op_lookup(&c.n, &root, name, out) < 0 || op_getattr(&c.n, out, size) < 0)
		rr_die("%s: %s", name, c.n.err);
	client_free(&c);
	free(st.lat);
}

/* ------------------------------------------------------------------ */
/* 1. idle connections                                                  */

/*
 * The connections are opened by child processes, one after the other, as
 * many each as the descriptor limit allows (one child when we may raise
 * it to COUNT; without CAP_SYS_RESOURCE a hard limit of 1024 means a
 * dozen). A child reports how its connections went, then on request
 * which of them the daemon has closed, in the order their handshakes
 * completed (the order the daemon accepted them), then waits for the
 * parent to hang up.
 */
struct flood_report {
	unsigned opened, failed, norder;
	int fdmax;
};

static void
write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n > 0) {
		ssize_t k = write(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			rr_die("write to pipe: %s", strerror(errno));
		c += k;
		n -= (size_t)k;
	}
}

static int
read_all(int fd, void *p, size_t n)
{
	char *c = p;

	while (n > 0) {
		ssize_t k = read(fd, c, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		c += k;
		n -= (size_t)k;
	}
	return 0;
}

static void __attribute__((noreturn))
flood_child(unsigned n, int wfd, int rfd)
{
	unsigned batch = 64, *order = rr_xmalloc(n * sizeof(unsigned));
	int *fds = rr_xmalloc(n * sizeof(int)), f;
	struct pollfd *pf = rr_xmalloc(n * sizeof(*pf));
	struct flood_report rep = { 0, 0, 0, daemon_fds() };
	unsigned char done[64], *gone;
	char cmd;

	for (unsigned i = 0; i < n; i += batch) {
		unsigned k = n - i < batch ? n - i : batch;
		double deadline = rr_now() + 10;	/* a SYN dropped twice costs 3 s */

		for (unsigned j = 0; j < k; j++) {
			int fd = sock_new(SOCK_STREAM, opt.src_hostile, 0);

			if (fd >= 0 && connect_start(fd, opt.nfs_port) < 0) {
				close(fd);
				fd = -1;
			}
			fds[i + j] = fd;
			pf[j].fd = fd;
			pf[j].events = POLLOUT;
			pf[j].revents = 0;
			done[j] = fd < 0;
		}
		/* wait until every connect of the batch finished, one way or the other */
		for (;;) {
			unsigned pending = 0;

			for (unsigned j = 0; j < k; j++)
				pending += !done[j];
			if (pending == 0 || rr_now() > deadline)
				break;
			if (poll(pf, k, 100) <= 0)
				continue;
			for (unsigned j = 0; j < k; j++) {
				if (done[j] || !(pf[j].revents & (POLLOUT | POLLERR | POLLHUP)))
					continue;
				done[j] = (pf[j].revents & POLLOUT) ? 1 : 2;
				pf[j].fd = -1;	/* poll ignores it from now on */
			}
		}
		for (unsigned j = 0; j < k; j++) {
			int err = 0;
			socklen_t len = sizeof(err);
			int fd = fds[i + j];

			if (fd >= 0 && (done[j] != 1 ||
			    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err)) {
				close(fd);
				fds[i + j] = fd = -1;
			}
			if (fd >= 0) {
				rep.opened++;
				order[rep.norder++] = i + j;
			} else {
				rep.failed++;
			}
		}
		if ((i / batch) % 4 == 0 && (f = daemon_fds()) > rep.fdmax)
			rep.fdmax = f;
		/*
		 * A little air between batches (at most ~15,000 connections/s):
		 * this is a flood of idle connections, not a SYN flood, and the
		 * daemon's listen backlog is 128.
		 */
		sleep_s(0.004);
	}
	write_all(wfd, &rep, sizeof(rep));
	if (read_all(rfd, &cmd, 1) == 0) {
		/* which of ours did the daemon close? (it sent FIN: POLLRDHUP) */
		gone = rr_xmalloc(rep.norder + 1);
		for (unsigned p = 0; p < rep.norder; p++) {
			pf[p].fd = fds[order[p]];
			pf[p].events = POLLRDHUP;
			pf[p].revents = 0;
		}
		poll(pf, rep.norder, 0);
		for (unsigned p = 0; p < rep.norder; p++)
			gone[p] = (pf[p].revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
		write_all(wfd, gone, rep.norder);
		(void)read_all(rfd, &cmd, 1);	/* until the parent hangs up */
	}
	_exit(0);
}

/* In a child: close every descriptor but stdio and the two pipe ends we keep. */
static void
close_others(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	for (int fd = 3; fd < lo; fd++)
		close(fd);
	for (int fd = lo + 1; fd < hi; fd++)
		close(fd);
	if (syscall_close_range(hi + 1) < 0) {
		struct rlimit rl;

		getrlimit(RLIMIT_NOFILE, &rl);
		for (rlim_t fd = (rlim_t)hi + 1; fd < rl.rlim_cur; fd++)
			close((int)fd);
	}
}

static int
cmd_idle_flood(void)
{
	unsigned n = opt.count ? opt.count : 10000, opened = 0, failed = 0, norder = 0;
	unsigned closed = 0, open_newest = 0, closed_oldest = 0, newest = opt.keep / 2, oldest;
	unsigned nchild = 0, per;
	double secs = opt.secs > 0 ? opt.secs : 3, t0, t_open, end;
	int fds0, fdmax, f, (*pipes)[2];
	unsigned *cnt;
	pid_t *pids;
	unsigned char *gone;
	rlim_t lim;
	struct normal nm;

	need_file_opts();
	lim = raise_nofile((rlim_t)n + 512);
	per = lim > 512 + 64 ? (unsigned)(lim - 256) : 256;
	if (per > n)
		per = n;
	pids = rr_xmalloc((n / per + 1) * sizeof(*pids));
	pipes = rr_xmalloc((n / per + 1) * sizeof(*pipes));
	cnt = rr_xmalloc((n / per + 1) * sizeof(*cnt));
	gone = rr_xmalloc(n + 1);
	if (check_once("pre", 0) < 0)
		return 1;
	fds0 = fdmax = daemon_fds();
	normal_start(&nm, opt.src_normal, 1);
	t0 = rr_now();
	fflush(stdout);
	for (unsigned i = 0; i < n; i += per, nchild++) {
		unsigned k = n - i < per ? n - i : per;
		int up[2], down[2];
		struct flood_report rep;

		if (pipe(up) < 0 || pipe(down) < 0)
			rr_die("pipe: %s", strerror(errno));
		pids[nchild] = fork();
		if (pids[nchild] < 0)
			rr_die("fork: %s", strerror(errno));
		if (pids[nchild] == 0) {
			close_others(up[1], down[0]);
			flood_child(k, up[1], down[0]);
		}
		close(up[1]);
		close(down[0]);
		pipes[nchild][0] = up[0];	/* reports come up */
		pipes[nchild][1] = down[1];	/* commands go down */
		if (read_all(up[0], &rep, sizeof(rep)) < 0)
			rr_die("flood child %u died", nchild);
		opened += rep.opened;
		failed += rep.failed;
		cnt[nchild] = rep.norder;
		if (rep.fdmax > fdmax)
			fdmax = rep.fdmax;
	}
	t_open = rr_now() - t0;
	for (end = rr_now() + secs; rr_now() < end; sleep_s(0.1))
		if ((f = daemon_fds()) > fdmax)
			fdmax = f;
	/*
	 * Which did the daemon close? It accepts in the order the handshakes
	 * completed, so that is the order "oldest" and "newest" refer to (a
	 * connection whose SYN was dropped once completes a second after its
	 * neighbours); children ran one after the other.
	 */
	for (unsigned c = 0; c < nchild; c++) {
		write_all(pipes[c][1], "r", 1);
		if (read_all(pipes[c][0], gone + norder, cnt[c]) < 0)
			rr_die("flood child %u died", c);
		norder += cnt[c];
	}
	oldest = norder > opt.keep + 76 ? norder - opt.keep - 76 : 0;
	if (newest > norder)
		newest = norder;
	for (unsigned p = 0; p < norder; p++) {
		closed += gone[p];
		if (p >= norder - newest)
			open_newest += !gone[p];
		if (p < oldest)
			closed_oldest += gone[p];
	}
	normal_stop(&nm);
	printf("conns=%u opened=%u connect_failed=%u open_secs=%.1f open_rate=%.0f processes=%u\n",
	    n, opened, failed, t_open, opened / (t_open > 0 ? t_open : 1), nchild);
	printf("closed_by_server=%u still_open=%u newest=%u open_newest=%u oldest=%u closed_oldest=%u\n",
	    closed, opened - closed, newest, open_newest, oldest, closed_oldest);
	printf("fds_before=%d fds_max=%d fds_during_end=%d alive=%d\n", fds0, fdmax, daemon_fds(),
	    daemon_alive());
	stats_print("normal", &nm.st);
	free(nm.st.lat);
	for (unsigned c = 0; c < nchild; c++) {
		close(pipes[c][0]);
		close(pipes[c][1]);		/* the child closes its connections and exits */
		waitpid(pids[c], NULL, 0);
	}
	sleep_s(0.5);
	printf("fds_after=%d\n", daemon_fds());
	check_once("post", 0);
	check_once("post_udp", 1);
	free(pids);
	free(pipes);
	free(cnt);
	free(gone);
	return 0;
}

/* ------------------------------------------------------------------ */
/* 2. a client that sends READs and never reads a reply                 */

static int
cmd_slow_reader(void)
{
	unsigned nconn = opt.count ? opt.count : 1, per = 256;
	double secs = opt.secs > 0 ? opt.secs : 5, end, next_sample = 0;
	uint32_t count = 1u << 20;
	uint64_t bigsize, sent_bytes = 0;
	long rss0, rss_max, rss_end, rss_after, r;
	size_t reclen = 0, buflen;
	struct normal nm;
	struct fh big;
	uint8_t *buf, a[128];
	int *fds;
	size_t *off;
	struct rpc w;

	need_file_opts();
	if (!opt.big)
		rr_die("-b BIGFILE is required");
	lookup_file(opt.big, &big, &bigsize);
	if (bigsize < count)
		rr_die("%s has %" PRIu64 " bytes: 1 MiB at least, please", opt.big, bigsize);

	/*
	 * Warm up: 1 MiB READs 32 at a time, read back, so the workers' own
	 * buffers are in the baseline and what grows later is the queue.
	 */
	rpc_init(&w, 0, opt.nfs_port, opt.src_normal);
	for (int round = 0; round < 2; round++) {
		size_t alen = args_read(a, sizeof(a), &big, 0, count);
		double deadline = rr_now() + 20;

		if (w.fd < 0 && (w.fd = tcp_open(opt.src_normal, opt.nfs_port, deadline, 0)) < 0)
			rr_die("warm-up connect: %s", strerror(errno));
		for (int i = 0; i < 32; i++) {
			struct rr_enc e;

			rr_enc_init(&e, w.out + 4, sizeof(w.out) - 4);
			rr_enc_callhdr(&e, ++w.xid, NFS_PROG, 3, NFSPROC3_READ, &g_cred.auth);
			rr_enc_bytes(&e, a, alen);
			rr_put32(w.out, RR_LAST_FRAG | (uint32_t)e.len);
			if (rr_send_all(w.fd, w.out, e.len + 4, deadline) < 0)
				rr_die("warm-up send");
		}
		for (int i = 0; i < 32; i++)
			if (rr_read_record(w.fd, &w.in, MAX_RECORD, deadline) != 1)
				rr_die("warm-up: reply %d of 32 missing", i);
	}
	rpc_free(&w);
	sleep_s(0.3);
	rss0 = rss_max = daemon_rss_kb();

	/* 256 READ calls of 1 MiB, sent over and over */
	{
		size_t alen = args_read(a, sizeof(a), &big, 0, count);
		uint32_t xid = (uint32_t)time(NULL) << 8;

		buf = rr_xmalloc(per * 256);
		buflen = 0;
		for (unsigned i = 0; i < per; i++) {
			struct rr_enc e;

			rr_enc_init(&e, buf + buflen + 4, 252);
			rr_enc_callhdr(&e, xid++, NFS_PROG, 3, NFSPROC3_READ, &g_cred.auth);
			rr_enc_bytes(&e, a, alen);
			reclen = e.len + 4;
			rr_put32(buf + buflen, RR_LAST_FRAG | (uint32_t)(reclen - 4));
			buflen += reclen;
		}
	}
	fds = rr_xmalloc(nconn * sizeof(*fds));
	off = rr_xmalloc(nconn * sizeof(*off));
	for (unsigned i = 0; i < nconn; i++) {
		/* a tiny receive buffer: the replies stay with the server */
		fds[i] = tcp_open(opt.src_hostile, opt.nfs_port, rr_now() + 5, 4096);
		off[i] = 0;
		if (fds[i] < 0)
			rr_die("slow client: cannot connect: %s", strerror(errno));
	}
	normal_start(&nm, opt.src_normal, 1);
	for (end = rr_now() + secs; rr_now() < end;) {
		for (unsigned i = 0; i < nconn; i++) {
			ssize_t k;

			while ((k = send(fds[i], buf + off[i], buflen - off[i],
			    MSG_DONTWAIT | MSG_NOSIGNAL)) > 0) {
				sent_bytes += (uint64_t)k;
				off[i] = (off[i] + (size_t)k) % buflen;
			}
		}
		if (rr_now() >= next_sample) {
			if ((r = daemon_rss_kb()) > rss_max)
				rss_max = r;
			next_sample = rr_now() + 0.05;
		}
		sleep_s(0.005);
	}
	rss_end = daemon_rss_kb();
	if (rss_end > rss_max)
		rss_max = rss_end;
	normal_stop(&nm);
	printf("slow_conns=%u slow_calls_sent=%" PRIu64 " slow_bytes_sent=%" PRIu64
	    " read_size=%u\n", nconn, sent_bytes / reclen, sent_bytes, count);
	printf("rss_base_kb=%ld rss_max_kb=%ld rss_growth_kb=%ld rss_end_kb=%ld alive=%d\n",
	    rss0, rss_max, rss_max - rss0, rss_end, daemon_alive());
	stats_print("normal", &nm.st);
	free(nm.st.lat);
	for (unsigned i = 0; i < nconn; i++)
		close(fds[i]);
	sleep_s(1);
	rss_after = daemon_rss_kb();
	printf("rss_after_close_kb=%ld fds_after=%d\n", rss_after, daemon_fds());
	check_once("post", 0);
	free(fds);
	free(off);
	free(buf);
	return 0;
}

/* ------------------------------------------------------------------ */
/* 3. garbage                                                           */

enum { G_RANDOM, G_RPCVERS, G_REPLY, G_CREDLEN, G_CREDBODY, G_RANDPROC, G_RANDPROG,
       G_TRUNC, G_FHLEN, G_MNTLEN, G_READFH, G_V2, G_GIDS, G_KINDS };

/* One garbage message into buf (cap >= 2048); *mount set when it is for MOUNT. */
static size_t
make_garbage(uint64_t *rs, uint8_t *buf, int *mount)
{
	unsigned kind = (unsigned)(rnd(rs) % G_KINDS);
	uint32_t xid = (uint32_t)rnd(rs);
	struct rr_enc e;
	size_t n;

	*mount = 0;
	rr_enc_init(&e, buf, 2048);
	switch (kind) {
	case G_RANDOM:
		n = 1 + rnd(rs) % 1400;
		rnd_fill(rs, buf, n);
		*mount = (int)(rnd(rs) & 1);
		return n;
	case G_RPCVERS:		/* RPC version 3: RPC_MISMATCH */
		rr_enc_u32(&e, xid); rr_enc_u32(&e, 0); rr_enc_u32(&e, 3); rr_enc_u32(&e, NFS_PROG);
		rr_enc_u32(&e, 3); rr_enc_u32(&e, 1); rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		break;
	case G_REPLY:		/* a reply sent to the server */
		rr_enc_u32(&e, xid); rr_enc_u32(&e, 1); rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		break;
	case G_CREDLEN:		/* AUTH_SYS with a 4 GiB credential */
		rr_enc_u32(&e, xid); rr_enc_u32(&e, 0); rr_enc_u32(&e, 2); rr_enc_u32(&e, NFS_PROG);
		rr_enc_u32(&e, 3); rr_enc_u32(&e, 1); rr_enc_u32(&e, 1); rr_enc_u32(&e, 0xfffffff0u);
		rr_enc_u32(&e, 0);
		break;
	case G_CREDBODY:	/* AUTH_SYS whose body is noise */
		rr_enc_u32(&e, xid); rr_enc_u32(&e, 0); rr_enc_u32(&e, 2); rr_enc_u32(&e, NFS_PROG);
		rr_enc_u32(&e, 3); rr_enc_u32(&e, (uint32_t)(rnd(rs) % 22)); rr_enc_u32(&e, 1); rr_enc_u32(&e, 40);
		rnd_fill(rs, buf + e.len, 40);
		e.len += 40;
		rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		break;
	case G_RANDPROC:	/* a proper header, any procedure, a random body */
		rr_enc_callhdr(&e, xid, NFS_PROG, 3, (uint32_t)(rnd(rs) % 30), &g_cred.auth);
		n = (rnd(rs) % 64) * 4;
		rnd_fill(rs, buf + e.len, n);
		return e.len + n;
	case G_RANDPROG:
		rr_enc_callhdr(&e, xid, (uint32_t)rnd(rs), (uint32_t)(rnd(rs) % 8), (uint32_t)(rnd(rs) % 8), &g_cred.auth);
		break;
	case G_TRUNC:		/* a header cut short */
		rr_enc_callhdr(&e, xid, NFS_PROG, 3, NFSPROC3_GETATTR, &g_cred.auth);
		return 1 + rnd(rs) % (e.len - 1);
	case G_FHLEN:		/* a handle of 4 GiB */
		rr_enc_callhdr(&e, xid, NFS_PROG, 3, NFSPROC3_GETATTR, &g_cred.auth);
		rr_enc_u32(&e, 0xffffffffu);
		break;
	case G_MNTLEN:		/* a mount path of 2 GiB */
		rr_enc_callhdr(&e, xid, MOUNT_PROG, (uint32_t)(1 + rnd(rs) % 3), MOUNTPROC3_MNT, &g_cred.auth);
		rr_enc_u32(&e, 0x7ffffff0u);
		*mount = 1;
		break;
	case G_READFH:		/* READ of a forged handle, all of it */
		rr_enc_callhdr(&e, xid, NFS_PROG, 3, NFSPROC3_READ, &g_cred.auth);
		rr_enc_u32(&e, 64);
		rnd_fill(rs, buf + e.len, 64);
		e.len += 64;
		rr_enc_u64(&e, rnd(rs));
		rr_enc_u32(&e, 0xffffffffu);
		break;
	case G_V2:		/* NFSv2, any procedure, a random body */
		rr_enc_callhdr(&e, xid, NFS_PROG, 2, (uint32_t)(rnd(rs) % 20), &g_cred.auth);
		n = (rnd(rs) % 40) * 4;
		rnd_fill(rs, buf + e.len, n);
		return e.len + n;
	default:		/* G_GIDS: AUTH_SYS claiming 4 billion groups */
		rr_enc_u32(&e, xid); rr_enc_u32(&e, 0); rr_enc_u32(&e, 2); rr_enc_u32(&e, NFS_PROG);
		rr_enc_u32(&e, 3); rr_enc_u32(&e, 1); rr_enc_u32(&e, 1); rr_enc_u32(&e, 24);
		rr_enc_u32(&e, 0); rr_enc_u32(&e, 0); rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		rr_enc_u32(&e, 0xffffffffu); rr_enc_u32(&e, 0);
		rr_enc_u32(&e, 0); rr_enc_u32(&e, 0);
		break;
	}
	return e.len;
}

#define GARBAGE_TCP 4

static int
cmd_garbage(void)
{
	double secs = opt.secs > 0 ? opt.secs : 5, t0, t, elapsed;
	uint64_t rs = (uint64_t)time(NULL) * 0x9e3779b97f4a7c15ull | 1;
	uint64_t sent = 0, udp_sent = 0, tcp_sent = 0, raw_sent = 0, replies = 0;
	unsigned tcp_reconnects = 0, udp_errors = 0;
	int ufd, tfd[GARBAGE_TCP];
	struct sockaddr_in nfs_sa, mnt_sa;
	static uint8_t bufs[64][2048], sink[65536], rec[2052];
	struct mmsghdr mm[64];
	struct iovec iov[64];
	struct normal nm;

	need_file_opts();
	server_addr(&nfs_sa, opt.nfs_port);
	server_addr(&mnt_sa, opt.mount_port);
	if ((ufd = sock_new(SOCK_DGRAM, opt.src_hostile, 0)) < 0)
		rr_die("UDP socket: %s", strerror(errno));
	for (int i = 0; i < GARBAGE_TCP; i++)
		tfd[i] = -1;
	normal_start(&nm, opt.src_normal, 1);
	t0 = rr_now();
	while ((t = rr_now()) < t0 + secs) {
		uint64_t due = (uint64_t)(opt.rate * (t - t0));
		ssize_t k;

		/* about 4 in 5 go by UDP, in batches, to both ports */
		while (sent < due) {
			unsigned nb = 0, want = (unsigned)(due - sent);

			if (want > 64)
				want = 64;
			if (rnd(&rs) % 5 == 0) {
				/* TCP: a malformed call in a proper record, or once in a while raw noise */
				int i = (int)(rnd(&rs) % GARBAGE_TCP), mount;
				size_t n;

				if (tfd[i] < 0) {
					tfd[i] = sock_new(SOCK_STREAM, opt.src_hostile, 0);
					if (tfd[i] >= 0 && connect_start(tfd[i], opt.nfs_port) < 0) {
						close(tfd[i]);
						tfd[i] = -1;
					}
					tcp_reconnects++;
					if (tfd[i] < 0)
						break;
				}
				if (rnd(&rs) % 100 == 0) {
					n = 1 + rnd(&rs) % 2048;
					rnd_fill(&rs, rec, n);
					raw_sent++;
				} else {
					n = make_garbage(&rs, rec + 4, &mount) + 4;
					rr_put32(rec, RR_LAST_FRAG | (uint32_t)(n - 4));
				}
				k = send(tfd[i], rec, n, MSG_DONTWAIT | MSG_NOSIGNAL);
				if (k < 0 && (errno == EAGAIN || errno == EINTR))
					continue;	/* full (or still connecting): not sent */
				if (k < 0 || (size_t)k < n) {
					/* gone, or a broken record: this stream is done for */
					close(tfd[i]);
					tfd[i] = -1;
				}
				if (k > 0) {
					sent++;
					tcp_sent++;
				}
				continue;
			}
			for (; nb < want; nb++) {
				int mount;

				iov[nb].iov_base = bufs[nb];
				iov[nb].iov_len = make_garbage(&rs, bufs[nb], &mount);
				memset(&mm[nb], 0, sizeof(mm[nb]));
				mm[nb].msg_hdr.msg_iov = &iov[nb];
				mm[nb].msg_hdr.msg_iovlen = 1;
				mm[nb].msg_hdr.msg_name = mount ? &mnt_sa : &nfs_sa;
				mm[nb].msg_hdr.msg_namelen = sizeof(nfs_sa);
			}
			k = sendmmsg(ufd, mm, nb, MSG_DONTWAIT);
			if (k <= 0) {
				udp_errors++;
				break;
			}
			sent += (uint64_t)k;
			udp_sent += (uint64_t)k;
		}
		/* throw away what comes back */
		while ((k = recv(ufd, sink, sizeof(sink), MSG_DONTWAIT)) >= 0)
			replies++;
		for (int i = 0; i < GARBAGE_TCP; i++) {
			while (tfd[i] >= 0) {
				ssize_t r = recv(tfd[i], sink, sizeof(sink), MSG_DONTWAIT);

				if (r > 0)
					continue;
				if (r == 0 || (errno != EAGAIN && errno != EINTR && errno != ENOTCONN)) {
					close(tfd[i]);		/* the server hung up on us */
					tfd[i] = -1;
				}
				break;
			}
		}
		if (sent >= due)
			sleep_s(0.0005);
	}
	elapsed = rr_now() - t0;
	normal_stop(&nm);
	printf("garbage_msgs=%" PRIu64 " udp_msgs=%" PRIu64 " tcp_msgs=%" PRIu64
	    " tcp_raw_noise=%" PRIu64 " tcp_connections=%u udp_send_errors=%u udp_replies=%" PRIu64 "\n",
	    sent, udp_sent, tcp_sent, raw_sent, tcp_reconnects, udp_errors, replies);
	printf("garbage_secs=%.2f garbage_rate=%.0f alive=%d\n", elapsed, (double)sent / elapsed,
	    daemon_alive());
	stats_print("normal", &nm.st);
	free(nm.st.lat);
	close(ufd);
	for (int i = 0; i < GARBAGE_TCP; i++)
		if (tfd[i] >= 0)
			close(tfd[i]);
	check_once("post", 0);
	check_once("post_udp", 1);
	return 0;
}

/* ------------------------------------------------------------------ */
/* 4. record marking                                                    */

/* Waits for the reply to xid on fd: "answered" (a correct GETATTR/READ
 * reply, checked by the caller through *res), "closed", "timeout". */
static const char *
await_reply(int fd, uint32_t xid, struct rr_rbuf *b, const uint8_t **res, size_t *rlen, double secs)
{
	double deadline = rr_now() + secs;

	for (;;) {
		uint32_t rxid;
		int rc = rr_read_record(fd, b, MAX_RECORD, deadline);

		if (rc == 0)
			return "timeout";
		if (rc < 0)
			return "closed";
		if (rr_parse_reply(b->p, b->len, &rxid, res, rlen) == 0 && rxid == xid)
			return "answered";
		if (rxid == xid)
			return "rpc-error";
	}
}

/* Is it a GETATTR reply saying OK with the file's size? */
static int
getattr_ok(const uint8_t *res, size_t rlen)
{
	struct rr_dec d;
	uint32_t st;
	uint64_t size;

	rr_dec_init(&d, res, rlen);
	st = rr_dec_u32(&d);
	rr_dec_skip(&d, 20);
	size = rr_dec_u64(&d);
	return d.ok && st == 0 && size == g_local_len;
}

/* Waits until the server closes fd: 1 if it did within secs, else 0. */
static int
await_close(int fd, double secs)
{
	double deadline = rr_now() + secs;
	uint8_t sink[4096];

	for (;;) {
		ssize_t k = recv(fd, sink, sizeof(sink), MSG_DONTWAIT);

		if (k == 0 || (k < 0 && errno != EAGAIN && errno != EINTR))
			return 1;
		if (k < 0 && !rr_wait_fd(fd, POLLIN, deadline))
			return 0;
	}
}

/* Sends rec (a call without record mark) as fragments of fragsz bytes. */
static size_t
fragment(uint8_t *out, const uint8_t *rec, size_t len, size_t fragsz)
{
	size_t o = 0;

	for (size_t i = 0; i < len; i += fragsz) {
		size_t n = len - i < fragsz ? len - i : fragsz;

		rr_put32(out + o, (i + n == len ? RR_LAST_FRAG : 0) | (uint32_t)n);
		memcpy(out + o + 4, rec + i, n);
		o += 4 + n;
	}
	return o;
}

static int
cmd_recmark(void)
{
	struct fh f;
	uint64_t size;
	uint8_t call[4096], *big;
	size_t clen, rlen, n;
	const uint8_t *res;
	struct rr_rbuf b = { 0 };
	uint32_t xid = (uint32_t)time(NULL) * 7919u;
	const char *what;
	struct rr_enc e;
	uint8_t a[128];
	long rss0, rss1;
	int fd;

	need_file_opts();
	lookup_file(opt.file, &f, &size);
	big = rr_xmalloc(2u << 20);

#define GETATTR_CALL() do {						\
		rr_enc_init(&e, call, sizeof(call));			\
		rr_enc_callhdr(&e, ++xid, NFS_PROG, 3, NFSPROC3_GETATTR, &g_cred.auth);	\
		rr_enc_bytes(&e, a, args_fh(a, sizeof(a), &f));		\
		clen = e.len;					\
	} while (0)
#define CONNECT() do {							\
		fd = tcp_open(opt.src_hostile, opt.nfs_port, rr_now() + 5, 0);	\
		if (fd < 0)						\
			rr_die("connect: %s", strerror(errno));		\
	} while (0)

	/* a. 10,000 empty last fragments (empty records), then a call */
	CONNECT();
	for (n = 0; n < 10000; n++)
		rr_put32(big + 4 * n, RR_LAST_FRAG);
	GETATTR_CALL();
	rr_put32(big + 4 * n, RR_LAST_FRAG | (uint32_t)clen);
	memcpy(big + 4 * n + 4, call, clen);
	if (rr_send_all(fd, big, 4 * n + 4 + clen, rr_now() + 5) < 0)
		what = "send-failed";
	else
		what = await_reply(fd, xid, &b, &res, &rlen, 3);
	if (strcmp(what, "answered") == 0 && !getattr_ok(res, rlen))
		what = "wrong-answer";
	printf("empty_records=%s\n", what);
	close(fd);

	/* b. 2,000 empty non-last fragments, then the call as the last one */
	CONNECT();
	for (n = 0; n < 2000; n++)
		rr_put32(big + 4 * n, 0);
	GETATTR_CALL();
	rr_put32(big + 4 * n, RR_LAST_FRAG | (uint32_t)clen);
	memcpy(big + 4 * n + 4, call, clen);
	if (rr_send_all(fd, big, 4 * n + 4 + clen, rr_now() + 5) < 0)
		what = "closed";	/* it hung up while we were still sending */
	else
		what = await_reply(fd, xid, &b, &res, &rlen, 3);
	if (strcmp(what, "answered") == 0 && !getattr_ok(res, rlen))
		what = "wrong-answer";
	printf("empty_fragments=%s\n", what);
	close(fd);

	/* c. empty records between calls on one connection: both answered */
	CONNECT();
	GETATTR_CALL();
	rr_put32(big, RR_LAST_FRAG | (uint32_t)clen);
	memcpy(big + 4, call, clen);
	n = 4 + clen;
	for (int i = 0; i < 100; i++, n += 4)
		rr_put32(big + n, RR_LAST_FRAG);
	{
		uint32_t first = xid;
		int got = 0;
		double deadline;

		GETATTR_CALL();
		rr_put32(big + n, RR_LAST_FRAG | (uint32_t)clen);
		memcpy(big + n + 4, call, clen);
		n += 4 + clen;
		rr_send_all(fd, big, n, rr_now() + 5);
		/* replies on one connection may come in any order */
		what = "answered";
		for (deadline = rr_now() + 3; got != 3;) {
			uint32_t rxid;
			int rc = rr_read_record(fd, &b, MAX_RECORD, deadline);

			if (rc <= 0) {
				what = rc == 0 ? "timeout" : got ? "mixed" : "closed";
				break;
			}
			rc = rr_parse_reply(b.p, b.len, &rxid, &res, &rlen);
			if (rxid != first && rxid != xid)
				continue;
			if (rc != 0 || !getattr_ok(res, rlen)) {
				what = "wrong-answer";
				break;
			}
			got |= rxid == first ? 1 : 2;
		}
		printf("empty_between_calls=%s\n", what);
	}
	close(fd);

	/* d. fragment headers announcing more than the largest record */
	rss0 = daemon_rss_kb();
	{
		static const uint32_t huge[] = {
			0x7fffffffu,			/* 2 GiB, not last */
			0xffffffffu,			/* 2 GiB, last */
			RR_LAST_FRAG | (16u << 20),	/* 16 MiB */
			RR_LAST_FRAG | ((1u << 20) + 65536),	/* just over 1 MiB + headers */
		};
		unsigned closed = 0;

		for (unsigned i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
			CONNECT();
			rr_put32(big, huge[i]);
			memset(big + 4, 0, 4096);
			rr_send_all(fd, big, 4 + 4096, rr_now() + 2);
			closed += (unsigned)await_close(fd, 3);
			close(fd);
		}
		/* and two fragments of one record whose sum is too big: 1 MiB + 64 KiB */
		CONNECT();
		rr_put32(big, 1u << 20);
		memset(big + 4, 0, 1u << 20);
		rr_put32(big + 4 + (1u << 20), RR_LAST_FRAG | 65536u);
		memset(big + 8 + (1u << 20), 0, 65536);
		rr_send_all(fd, big, 8 + (1u << 20) + 65536, rr_now() + 5);
		closed += (unsigned)await_close(fd, 3);
		close(fd);
		printf("huge_fragments=%u huge_closed=%u\n",
		    (unsigned)(sizeof(huge) / sizeof(huge[0])) + 1, closed);
	}
	rss1 = daemon_rss_kb();
	printf("huge_rss_growth_kb=%ld\n", rss1 - rss0);

	/* e. one call in 1-byte fragments, all in one write */
	CONNECT();
	GETATTR_CALL();
	n = fragment(big, call, clen, 1);
	rr_send_all(fd, big, n, rr_now() + 5);
	what = await_reply(fd, xid, &b, &res, &rlen, 3);
	if (strcmp(what, "answered") == 0 && !getattr_ok(res, rlen))
		what = "wrong-answer";
	printf("tiny_fragments_frags=%zu tiny_fragments=%s\n", clen, what);
	/* f. the same, each fragment and each half of its header written on its own */
	GETATTR_CALL();
	n = fragment(big, call, clen, 1);
	for (size_t i = 0; i < n; i += 5) {
		rr_send_all(fd, big + i, 2, rr_now() + 2);
		sleep_s(0.0005);
		rr_send_all(fd, big + i + 2, 3, rr_now() + 2);
	}
	what = await_reply(fd, xid, &b, &res, &rlen, 3);
	if (strcmp(what, "answered") == 0 && !getattr_ok(res, rlen))
		what = "wrong-answer";
	printf("tiny_fragments_trickled=%s\n", what);
	/* g. a READ in 4-byte fragments: the data must be the file's */
	{
		uint32_t cnt = g_local_len < 4096 ? (uint32_t)g_local_len : 4096;
		struct rr_dec d;
		const uint8_t *data;
		u_int dlen;
		uint32_t st;

		rr_enc_init(&e, call, sizeof(call));
		rr_enc_callhdr(&e, ++xid, NFS_PROG, 3, NFSPROC3_READ, &g_cred.auth);
		rr_enc_bytes(&e, a, args_read(a, sizeof(a), &f, 0, cnt));
		clen = e.len;
		n = fragment(big, call, clen, 4);
		rr_send_all(fd, big, n, rr_now() + 5);
		what = await_reply(fd, xid, &b, &res, &rlen, 3);
		if (strcmp(what, "answered") == 0) {
			rr_dec_init(&d, res, rlen);
			st = rr_dec_u32(&d);
			skip_post_op_attr(&d);
			(void)rr_dec_u32(&d);
			(void)rr_dec_u32(&d);
			data = rr_dec_opaque(&d, &dlen, cnt);
			if (!d.ok || st != 0 || dlen != cnt || memcmp(data, g_local, cnt) != 0)
				what = "wrong-answer";
		}
		printf("read_in_4byte_fragments=%s\n", what);
	}
	close(fd);

	/* h. more fragments than a record may have (1-byte fragments of a padded body) */
	CONNECT();
	GETATTR_CALL();
	memset(call + clen, 0, 2000);
	n = fragment(big, call, clen + 2000, 1);
	if (rr_send_all(fd, big, n, rr_now() + 5) < 0)
		what = "closed";
	else
		what = await_reply(fd, xid, &b, &res, &rlen, 3);
	if (strcmp(what, "answered") == 0 && !getattr_ok(res, rlen))
		what = "wrong-answer";
	printf("too_many_fragments=%s\n", what);
	close(fd);

	printf("alive=%d\n", daemon_alive());
	check_once("post", 0);
	free(b.p);
	free(big);
	return 0;
}

/* ------------------------------------------------------------------ */
/* 5. fairness                                                          */

struct fconn {
	int fd;
	unsigned inflight;
	uint8_t out[65536];
	size_t out_len, out_off;
	uint8_t hdr[4];
	unsigned hdr_have;
	uint32_t frag_left;
	int last;
};

struct flood {
	pthread_t tid;
	atomic_int stop;
	unsigned nconn, window;
	struct fh small, big;
	uint64_t replies, udp_sent, udp_replies, closes;
	unsigned max_inflight;
};

static void
fconn_fill(struct flood *fl, struct fconn *c, uint32_t *xid)
{
	uint8_t a[128];

	if (c->out_off == c->out_len)
		c->out_off = c->out_len = 0;
	while (c->inflight < fl->window && c->out_len + 300 <= sizeof(c->out)) {
		struct rr_enc e;
		int read = (*xid & 3) == 0;

		rr_enc_init(&e, c->out + c->out_len + 4, 296);
		rr_enc_callhdr(&e, ++*xid, NFS_PROG, 3, read ? NFSPROC3_READ : NFSPROC3_GETATTR, &g_cred.auth);
		if (read)
			rr_enc_bytes(&e, a, args_read(a, sizeof(a), &fl->big, 0, 16384));
		else
			rr_enc_bytes(&e, a, args_fh(a, sizeof(a), &fl->small));
		rr_put32(c->out + c->out_len, RR_LAST_FRAG | (uint32_t)e.len);
		c->out_len += 4 + e.len;
		c->inflight++;
	}
}

/* Counts the complete records in what arrived. */
static void
fconn_input(struct flood *fl, struct fconn *c, const uint8_t *p, size_t n)
{
	while (n > 0) {
		if (c->hdr_have < 4) {
			c->hdr[c->hdr_have++] = *p++;
			n--;
			if (c->hdr_have == 4) {
				uint32_t h = rr_get32(c->hdr);
				c->last = (h & RR_LAST_FRAG) != 0;
				c->frag_left = h & ~RR_LAST_FRAG;
			}
		} else {
			size_t take = n < c->frag_left ? n : c->frag_left;
			p += take;
			n -= take;
			c->frag_left -= (uint32_t)take;
		}
		if (c->hdr_have == 4 && c->frag_left == 0) {
			c->hdr_have = 0;
			if (c->last) {
				fl->replies++;
				if (c->inflight)
					c->inflight--;
			}
		}
	}
}

static void *
flood_main(void *arg)
{
	struct flood *fl = arg;
	struct fconn *cs = calloc(fl->nconn, sizeof(*cs));
	struct pollfd *pf = calloc(fl->nconn + 1, sizeof(*pf));
	static uint8_t sink[1 << 16];
	uint8_t ubuf[64][256], a[128];
	struct mmsghdr mm[64];
	struct iovec iov[64];
	uint32_t xid = (uint32_t)time(NULL) * 104729u;
	int ufd = udp_open(opt.src_hostile, opt.nfs_port);

	if (cs == NULL || pf == NULL)
		rr_die("out of memory");
	for (unsigned i = 0; i < fl->nconn; i++)
		cs[i].fd = -1;
	/* UDP: 64 GETATTRs per round */
	for (int i = 0; i < 64; i++) {
		struct rr_enc e;

		rr_enc_init(&e, ubuf[i], sizeof(ubuf[i]));
		rr_enc_callhdr(&e, ++xid, NFS_PROG, 3, NFSPROC3_GETATTR, &g_cred.auth);
		rr_enc_bytes(&e, a, args_fh(a, sizeof(a), &fl->small));
		iov[i].iov_base = ubuf[i];
		iov[i].iov_len = e.len;
		memset(&mm[i], 0, sizeof(mm[i]));
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	while (!atomic_load(&fl->stop)) {
		unsigned total = 0;
		int k;

		for (unsigned i = 0; i < fl->nconn; i++) {
			struct fconn *c = &cs[i];

			if (c->fd < 0) {
				memset(c, 0, sizeof(*c));
				c->fd = sock_new(SOCK_STREAM, opt.src_hostile, 0);
				if (c->fd >= 0 && connect_start(c->fd, opt.nfs_port) < 0) {
					close(c->fd);
					c->fd = -1;
				}
			}
			if (c->fd >= 0)
				fconn_fill(fl, c, &xid);
			total += c->inflight;
			pf[i].fd = c->fd;
			pf[i].events = POLLIN | (c->out_off < c->out_len ? POLLOUT : 0);
			pf[i].revents = 0;
		}
		if (total > fl->max_inflight)
			fl->max_inflight = total;
		pf[fl->nconn].fd = ufd;
		pf[fl->nconn].events = POLLIN | POLLOUT;
		pf[fl->nconn].revents = 0;
		if (poll(pf, fl->nconn + 1, 50) < 0)
			continue;
		for (unsigned i = 0; i < fl->nconn; i++) {
			struct fconn *c = &cs[i];
			ssize_t r;

			if (c->fd < 0)
				continue;
			if (pf[i].revents & POLLOUT) {
				r = send(c->fd, c->out + c->out_off, c->out_len - c->out_off,
				    MSG_DONTWAIT | MSG_NOSIGNAL);
				if (r > 0)
					c->out_off += (size_t)r;
			}
			if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
				r = recv(c->fd, sink, sizeof(sink), MSG_DONTWAIT);
				if (r > 0) {
					fconn_input(fl, c, sink, (size_t)r);
				} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
					close(c->fd);	/* the server closed it: come back */
					c->fd = -1;
					fl->closes++;
				}
			}
		}
		if (ufd >= 0 && (pf[fl->nconn].revents & POLLOUT)) {
			for (int i = 0; i < 64; i++)
				rr_put32(ubuf[i], ++xid);
			if ((k = sendmmsg(ufd, mm, 64, MSG_DONTWAIT)) > 0)
				fl->udp_sent += (uint64_t)k;
		}
		while (ufd >= 0 && recv(ufd, sink, sizeof(sink), MSG_DONTWAIT) > 0)
			fl->udp_replies++;
	}
	for (unsigned i = 0; i < fl->nconn; i++)
		if (cs[i].fd >= 0)
			close(cs[i].fd);
	if (ufd >= 0)
		close(ufd);
	free(cs);
	free(pf);
	return NULL;
}

static int
cmd_fairness(void)
{
	double secs = opt.secs > 0 ? opt.secs : 5, t0, end, elapsed;
	struct stats solo, st;
	struct flood fl;
	struct client c;
	struct fh f;
	uint64_t size, bigsize;
	uint64_t rs = (uint64_t)time(NULL) | 1;

	need_file_opts();
	if (!opt.big)
		rr_die("-b BIGFILE is required");
	memset(&fl, 0, sizeof(fl));
	fl.nconn = opt.count ? opt.count : 32;
	fl.window = 128;
	lookup_file(opt.file, &fl.small, &size);
	lookup_file(opt.big, &fl.big, &bigsize);
	f = fl.small;

	/* The normal client alone first, for comparison; then under the flood. */
	for (int phase = 0; phase < 2; phase++) {
		struct stats *s = phase == 0 ? &solo : &st;
		double dur = phase == 0 ? 1 : secs;

		memset(s, 0, sizeof(*s));
		client_init(&c, 0, opt.src_normal, s);
		if (phase == 1) {
			if (pthread_create(&fl.tid, NULL, flood_main, &fl) != 0)
				rr_die("pthread_create");
			sleep_s(1);	/* let the flood build up */
		}
		t0 = rr_now();
		for (end = t0 + dur; rr_now() < end;) {
			uint64_t gsize = 0, off = (rnd(&rs) % (g_local_len / 512 + 1)) * 512;
			uint32_t got = 0, cnt = 4096;
			int rc, eof;

			TIMED(&c, &c.n, rc = op_getattr(&c.n, &f, &gsize));
			if (rc == 0 && gsize != g_local_len)
				stats_bad(s, "GETATTR size %" PRIu64, gsize);
			if (off > g_local_len)
				off = g_local_len;
			TIMED(&c, &c.n, rc = op_read(&c.n, &f, off, cnt, c.buf, &got, &eof));
			if (rc == 0 && (off + got > g_local_len ||
			    memcmp(c.buf, g_local + off, got) != 0 ||
			    got != (g_local_len - off < cnt ? g_local_len - off : cnt)))
				stats_bad(s, "READ at %" PRIu64 ": wrong data", off);
		}
		elapsed = rr_now() - t0;
		client_free(&c);
		if (phase == 1) {
			atomic_store(&fl.stop, 1);
			pthread_join(fl.tid, NULL);
		}
	}
	printf("flood_conns=%u flood_window=%u flood_max_inflight=%u flood_replies=%" PRIu64
	    " flood_tcp_rate=%.0f flood_closes=%" PRIu64 "\n", fl.nconn, fl.window, fl.max_inflight,
	    fl.replies, (double)fl.replies / (elapsed + 1), fl.closes);
	printf("flood_udp_sent=%" PRIu64 " flood_udp_replies=%" PRIu64 " alive=%d\n", fl.udp_sent,
	    fl.udp_replies, daemon_alive());
	stats_print("solo", &solo);
	stats_print("victim", &st);
	check_once("post", 0);
	free(solo.lat);
	free(st.lat);
	return 0;
}

/* ------------------------------------------------------------------ */

static void
usage(FILE *f)
{
	fprintf(f, "usage: hostile [-H ADDR] [-n PORT] [-m PORT] -e EXPORT -f FILE -l LOCAL [-b BIG]\n"
	    "               [-c SRC] [-s SRC] [-p PID] [-d SECS] [-N COUNT] [-r RATE] [-k KEEP] COMMAND\n"
	    "commands: check idle-flood slow-reader garbage recmark fairness\n");
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} cmds[] = {
		{ "idle-flood", cmd_idle_flood }, { "slow-reader", cmd_slow_reader },
		{ "garbage", cmd_garbage }, { "recmark", cmd_recmark },
		{ "fairness", cmd_fairness },
	};
	int c;

	rr.name = "hostile";
	while ((c = getopt(argc, argv, "H:n:m:e:f:l:b:c:s:p:d:N:r:k:h")) != -1) {
		switch (c) {
		case 'H': opt.host = optarg; break;
		case 'n': opt.nfs_port = (unsigned)atoi(optarg); break;
		case 'm': opt.mount_port = (unsigned)atoi(optarg); break;
		case 'e': opt.export = optarg; break;
		case 'f': opt.file = optarg; break;
		case 'l': opt.local = optarg; break;
		case 'b': opt.big = optarg; break;
		case 'c': opt.src_normal = optarg; break;
		case 's': opt.src_hostile = optarg; break;
		case 'p': opt.pid = (pid_t)atoi(optarg); break;
		case 'd': opt.secs = atof(optarg); break;
		case 'N': opt.count = (unsigned)atoi(optarg); break;
		case 'r': opt.rate = atof(optarg); break;
		case 'k': opt.keep = (unsigned)atoi(optarg); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	/* a watchdog: never outlive a broken test */
	alarm(120);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	rr_auth_sys(&g_cred, "hostile", 0, 0, 0, NULL);
	if (strcmp(argv[optind], "check") == 0) {
		need_file_opts();
		return check_once("check", 0) < 0 || check_once("check_udp", 1) < 0;
	}
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (strcmp(argv[optind], cmds[i].name) == 0)
			return cmds[i].fn();
	usage(stderr);
	return 2;
}
