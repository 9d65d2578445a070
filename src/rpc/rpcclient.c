/* Outgoing RPC calls (rpcclient.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <rpc/rpc.h>
#include <rpc/pmap_prot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"
#include "rpcclient.h"

#define RPCBIND_PORT 111
#define LOOKUP_TIMEOUT_MS 3000
#define UDP_RETRY_MS 500
/*
 * A one-way call over UDP waits this long: libtirpc's datagram client
 * returns RPC_TIMEDOUT without sending at all when given no time.
 */
#define ONE_WAY_UDP_MS 20

bool_t
xdr_encoded(XDR *x, struct xdr_encoded *e)
{
	return xdr_opaque(x, (char *)(uintptr_t)e->buf, (u_int)e->len);
}

static socklen_t
sa_len(const struct sockaddr_storage *ss)
{
	return ss->ss_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
}

static void
set_port(struct sockaddr_storage *ss, uint16_t port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons(port);
}

/* Source address and, as root, a reserved port: peers may insist on one. */
static int
bind_source(int fd, const struct rpc_target *t)
{
	struct sockaddr_storage src;

	if (t->local.ss_family == t->addr.ss_family)
		src = t->local;
	else {
		memset(&src, 0, sizeof(src));
		src.ss_family = t->addr.ss_family;
	}
	set_port(&src, 0);
	if (geteuid() == 0 && bindresvport_sa(fd, (struct sockaddr *)&src) == 0)
		return 0;
	return bind(fd, (struct sockaddr *)&src, sa_len(&src));
}

/* A connected socket to dst, within timeout_ms for TCP; -1 with errno. */
static int
open_socket(const struct rpc_target *t, const struct sockaddr_storage *dst, unsigned timeout_ms)
{
	int type = t->proto == IPPROTO_TCP ? SOCK_STREAM : SOCK_DGRAM;
	int fd = socket(dst->ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), err;
	struct pollfd p;
	socklen_t len = sizeof(err);

	if (fd < 0)
		return -1;
	if (bind_source(fd, t) < 0)
		goto fail;
	if (connect(fd, (const struct sockaddr *)dst, sa_len(dst)) == 0)
		goto connected;
	if (errno != EINPROGRESS)
		goto fail;
	/* A host that is gone must not hold the caller for TCP's minutes. */
	p.fd = fd;
	p.events = POLLOUT;
	if (poll(&p, 1, (int)timeout_ms) != 1) {
		errno = ETIMEDOUT;
		goto fail;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err != 0) {
		errno = err ? err : EIO;
		goto fail;
	}
connected:
	/* libtirpc's clients expect blocking descriptors. */
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0)
		goto fail;
	return fd;
fail:
	err = errno;
	close(fd);
	errno = err;
	return -1;
}

/* One call to dst (port included). */
static int
call_at(const struct rpc_target *t, const struct sockaddr_storage *dst, uint32_t prog,
    uint32_t vers, uint32_t proc, xdrproc_t xargs, void *args, xdrproc_t xres, void *res,
    unsigned timeout_ms, char *err, size_t errlen)
{
	unsigned wait_ms = timeout_ms == 0 && t->proto != IPPROTO_TCP ? ONE_WAY_UDP_MS : timeout_ms;
	struct timeval tv = { (time_t)(wait_ms / 1000), (suseconds_t)(wait_ms % 1000) * 1000 };
	struct timeval retry = { 0, UDP_RETRY_MS * 1000 };
	struct netbuf nb = { .len = sa_len(dst), .maxlen = sa_len(dst), .buf = (void *)dst };
	enum clnt_stat st;
	CLIENT *c;
	int fd = open_socket(t, dst, timeout_ms ? timeout_ms : LOOKUP_TIMEOUT_MS);

	if (fd < 0) {
		snprintf(err, errlen, "cannot connect: %s", strerror(errno));
		return -1;
	}
	c = t->proto == IPPROTO_TCP ? clnt_vc_create(fd, &nb, prog, vers, 0, 0) :
	    clnt_dg_create(fd, &nb, prog, vers, 0, 0);
	if (c == NULL) {
		close(fd);
		snprintf(err, errlen, "cannot create an RPC client");
		return -1;
	}
	clnt_control(c, CLSET_FD_CLOSE, NULL);
	if (t->auth_sys) {
		AUTH *a = authunix_create_default();

		if (a == NULL) {
			clnt_destroy(c);
			snprintf(err, errlen, "cannot make an AUTH_SYS credential");
			return -1;
		}
		auth_destroy(c->cl_auth);
		c->cl_auth = a;
	}
	if (t->proto != IPPROTO_TCP)
		clnt_control(c, CLSET_RETRY_TIMEOUT, (char *)&retry);
	/* A result decoder, even xdr_void, makes the TCP client send at once. */
	st = clnt_call(c, proc, xargs, args, xres ? xres : XDRPROC(xdr_void), res, tv);
	if (timeout_ms == 0 && st == RPC_TIMEDOUT)
		st = RPC_SUCCESS;	/* one-way: sent is all we wanted */
	if (st != RPC_SUCCESS)
		snprintf(err, errlen, "%s", clnt_sperrno(st));
	clnt_destroy(c);
	return st == RPC_SUCCESS ? 0 : -1;
}

/* The port of prog/vers on t's host: rpcbind version 3, else portmap. */
static int
find_port(const struct rpc_target *t, uint32_t prog, uint32_t vers, uint16_t *port,
    char *err, size_t errlen)
{
	struct sockaddr_storage rpcbind = t->addr;
	int v6 = t->addr.ss_family == AF_INET6, tcp = t->proto == IPPROTO_TCP;
	char netid[8], *uaddr = NULL, *dot;
	struct rpcb q;
	unsigned long p = 0;
	struct pmap pm;

	set_port(&rpcbind, RPCBIND_PORT);
	snprintf(netid, sizeof(netid), "%s%s", tcp ? "tcp" : "udp", v6 ? "6" : "");
	memset(&q, 0, sizeof(q));
	q.r_prog = prog;
	q.r_vers = vers;
	q.r_netid = netid;
	q.r_addr = q.r_owner = (char *)"";
	if (call_at(t, &rpcbind, RPCBPROG, RPCBVERS, RPCBPROC_GETADDR, XDRPROC(xdr_rpcb), &q,
	    XDRPROC(xdr_wrapstring), &uaddr, LOOKUP_TIMEOUT_MS, err, errlen) == 0) {
		/* A universal address ends in ".hi.lo", the port's two bytes. */
		unsigned hi, lo;
		int ok = uaddr && (dot = strrchr(uaddr, '.')) != NULL && dot > uaddr;

		if (ok) {
			*dot = '\0';
			dot = strrchr(uaddr, '.');
			ok = dot && sscanf(dot + 1, "%u", &hi) == 1 &&
			    sscanf(dot + strlen(dot) + 1, "%u", &lo) == 1 && hi < 256 && lo < 256;
			if (ok)
				p = hi << 8 | lo;
		}
		free(uaddr);
		if (!ok || p == 0) {
			snprintf(err, errlen, "program %u version %u is not registered",
			    (unsigned)prog, (unsigned)vers);
			return -1;
		}
		*port = (uint16_t)p;
		return 0;
	}
	if (v6)
		return -1;
	/* Older hosts (SunOS 4) have only the portmapper. */
	pm.pm_prog = prog;
	pm.pm_vers = vers;
	pm.pm_prot = tcp ? IPPROTO_TCP : IPPROTO_UDP;
	pm.pm_port = 0;
	if (call_at(t, &rpcbind, PMAPPROG, PMAPVERS, PMAPPROC_GETPORT, XDRPROC(xdr_pmap), &pm,
	    XDRPROC(xdr_u_long), &p, LOOKUP_TIMEOUT_MS, err, errlen) < 0)
		return -1;
	if (p == 0 || p > 65535) {
		snprintf(err, errlen, "program %u version %u is not registered", (unsigned)prog,
		    (unsigned)vers);
		return -1;
	}
	*port = (uint16_t)p;
	return 0;
}

int
rpcclient_call(const struct rpc_target *t, uint32_t prog, uint32_t vers, uint32_t proc,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen)
{
	struct sockaddr_storage dst = t->addr;
	uint16_t port;

	if (find_port(t, prog, vers, &port, err, errlen) < 0)
		return -1;
	set_port(&dst, port);
	return call_at(t, &dst, prog, vers, proc, xargs, args, xres, res, timeout_ms, err, errlen);
}

int
rpcclient_call_direct(const struct rpc_target *t, uint32_t prog, uint32_t vers, uint32_t proc,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen)
{
	return call_at(t, &t->addr, prog, vers, proc, xargs, args, xres, res, timeout_ms, err,
	    errlen);
}
