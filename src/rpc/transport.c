/*
 * The I/O side: listeners, UDP datagrams and the epoll set every pool
 * thread waits on (TCP connections are tcpconn.c's).
 *
 * Threading: a pool thread with nothing to run waits here for one event
 * (transport_wait), reads what came, queues the calls and, back in
 * workq.c, usually runs the first one itself: a light call at light load
 * costs one wake-up, not a hand-off from an I/O thread to a worker (a
 * wake-up and a context switch each way).  Sockets are edge-triggered, so
 * an event goes to one waiting thread; the readers drain what they were
 * told of.  workq.c wakes another waiting thread (transport_kick, an
 * eventfd in the set) when it queues more calls than the reader takes.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "log.h"
#include "stats.h"
#include "tcpconn.h"
#include "transport.h"
#include "workq.h"

#define MAX_LISTENERS 16
#define MAX_CONNS 1024
#define UDP_BATCH 64
#define EV_KICK (EV_CONN - 1)	/* epoll data of the wake-up eventfd */

struct listener {
	int fd;
	int family;
	int type;		/* SOCK_DGRAM or SOCK_STREAM */
	uint16_t port;
};

static int epfd = -1;
static int kickfd = -1;
static int waking_all;		/* shutting down: kicks are no longer taken in */
static struct listener listeners[MAX_LISTENERS];
static unsigned nlisteners;
static struct bound_socket bound[MAX_LISTENERS];
static unsigned max_conns = MAX_CONNS;	/* lowered to fit RLIMIT_NOFILE (transport_listen) */
static __thread uint8_t udpbuf[65536];

/* ---- listeners ---- */

/* Edge-triggered: an event wakes one waiting thread, which drains the socket. */
static int
epoll_add(int fd, uint64_t data)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = data };

	return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int
open_listener(const struct sockaddr *sa, socklen_t salen, int type, char *err, size_t errlen)
{
	struct listener *l;
	int one = 1, fd, family = sa->sa_family;
	char host[INET6_ADDRSTRLEN] = "?";
	uint16_t port = ntohs(family == AF_INET ? ((const struct sockaddr_in *)sa)->sin_port
	    : ((const struct sockaddr_in6 *)sa)->sin6_port);

	if (nlisteners == MAX_LISTENERS) {
		snprintf(err, errlen, "too many listening sockets");
		return -1;
	}
	getnameinfo(sa, salen, host, sizeof(host), NULL, 0, NI_NUMERICHOST);
	fd = socket(family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket(%s): %s", host, strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (type == SOCK_DGRAM) {
		int sz = 4 << 20;

		/* Replies go out from the address the call came to (multi-homed hosts). */
		if (family == AF_INET)
			setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one));
		else
			setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one));
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	}
	if (bind(fd, sa, salen) < 0) {
		snprintf(err, errlen, "cannot bind %s %s port %u: %s",
		    type == SOCK_DGRAM ? "UDP" : "TCP", host, port, strerror(errno));
		close(fd);
		return -1;
	}
	/* SOMAXCONN: under a connection flood a short backlog drops honest
	 * clients' SYNs, which then wait 1-3 s to retry. */
	if (type == SOCK_STREAM && listen(fd, SOMAXCONN) < 0) {
		snprintf(err, errlen, "listen %s port %u: %s", host, port, strerror(errno));
		close(fd);
		return -1;
	}
	l = &listeners[nlisteners];
	l->type = type;
	l->fd = fd;
	l->family = family;
	l->port = port;
	if (epoll_add(fd, nlisteners) < 0) {
		snprintf(err, errlen, "epoll_ctl: %s", strerror(errno));
		close(fd);
		return -1;
	}
	bound[nlisteners].netid = family == AF_INET ? (type == SOCK_DGRAM ? "udp" : "tcp")
	    : (type == SOCK_DGRAM ? "udp6" : "tcp6");
	memcpy(&bound[nlisteners].addr, sa, salen);
	bound[nlisteners].addrlen = salen;
	bound[nlisteners].port = port;
	nlisteners++;
	return 0;
}

static int
ipv6_available(void)
{
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static int
addr_for(const char *bind_addr, int family, uint16_t port, struct sockaddr_storage *ss,
    socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;
		sin->sin_family = AF_INET;
		sin->sin_port = htons(port);
		*len = sizeof(*sin);
		if (bind_addr == NULL) {
			sin->sin_addr.s_addr = htonl(INADDR_ANY);
			return 0;
		}
		return inet_pton(AF_INET, bind_addr, &sin->sin_addr) == 1 ? 0 : -1;
	}
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	sin6->sin6_family = AF_INET6;
	sin6->sin6_port = htons(port);
	*len = sizeof(*sin6);
	if (bind_addr == NULL) {
		sin6->sin6_addr = in6addr_any;
		return 0;
	}
	return inet_pton(AF_INET6, bind_addr, &sin6->sin6_addr) == 1 ? 0 : -1;
}

int
transport_listen(const struct listen_spec *spec, char *err, size_t errlen)
{
	int families[2], nfam = 0;
	struct rlimit rl;

	/*
	 * Connections get at most half the descriptors (as the daemon raised
	 * the limit): the rest are for files (the inode cache sizes itself to
	 * the other half of small limits), rmtab and directory streams.
	 * Otherwise, under a limit of a few thousand or less, idle connections
	 * took every descriptor and MNT failed writing rmtab (EMFILE, answered
	 * SERVERFAULT).
	 */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur / 2 < MAX_CONNS + 64) {
		max_conns = rl.rlim_cur / 2 >= 64 + 16 ? (unsigned)(rl.rlim_cur / 2 - 64) : 16;
		log_info("descriptor limit %lu: at most %u TCP connections",
		    (unsigned long)rl.rlim_cur, max_conns);
	}
	if (epfd < 0 && (epfd = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		snprintf(err, errlen, "epoll_create1: %s", strerror(errno));
		return -1;
	}
	if (kickfd < 0) {
		kickfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (kickfd < 0 || epoll_add(kickfd, EV_KICK) < 0) {
			snprintf(err, errlen, "eventfd: %s", strerror(errno));
			return -1;
		}
		conns_init(epfd, max_conns);
	}
	if (spec->bind_addr) {
		struct sockaddr_storage ss;
		socklen_t len;

		if (addr_for(spec->bind_addr, AF_INET, 0, &ss, &len) == 0)
			families[nfam++] = AF_INET;
		else if (addr_for(spec->bind_addr, AF_INET6, 0, &ss, &len) == 0)
			families[nfam++] = AF_INET6;
		else {
			snprintf(err, errlen, "--bind %s: not an IPv4 or IPv6 address", spec->bind_addr);
			return -1;
		}
	} else {
		families[nfam++] = AF_INET;
		if (ipv6_available())
			families[nfam++] = AF_INET6;
		else
			log_warnx("IPv6 is not available; serving IPv4 only");
	}
	for (unsigned p = 0; p < spec->nports; p++) {
		for (int f = 0; f < nfam; f++) {
			static const int types[2] = { SOCK_DGRAM, SOCK_STREAM };

			for (int t = 0; t < 2; t++) {
				struct sockaddr_storage ss;
				socklen_t len;

				addr_for(spec->bind_addr, families[f], spec->ports[p], &ss, &len);
				if (open_listener((struct sockaddr *)&ss, len, types[t], err, errlen) < 0)
					return -1;
			}
		}
	}
	return 0;
}

size_t
transport_bound(const struct bound_socket **out)
{
	*out = bound;
	return nlisteners;
}

/* Asks for an edge-triggered socket's event again: reported at once if it is still ready. */
static void
transport_rearm(int fd, uint64_t data)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = data };

	epoll_ctl(epfd, EPOLL_CTL_MOD, fd, &ev);
}

/* ---- UDP ---- */

static void
udp_reply(struct rpc_req *req, struct iovec *iov, int niov)
{
	union {
		char v4[CMSG_SPACE(sizeof(struct in_pktinfo))];
		char v6[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	} cbuf;
	struct msghdr mh = {
		.msg_name = &req->peer, .msg_namelen = req->peerlen,
		.msg_iov = iov, .msg_iovlen = (size_t)niov,
	};
	struct cmsghdr *cm;

	memset(&cbuf, 0, sizeof(cbuf));
	if (req->pktinfo_family == AF_INET) {
		struct in_pktinfo pi = { 0 };

		pi.ipi_spec_dst = req->pktinfo.v4.ipi_addr;
		mh.msg_control = cbuf.v4;
		mh.msg_controllen = sizeof(cbuf.v4);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = IPPROTO_IP;
		cm->cmsg_type = IP_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
	} else if (req->pktinfo_family == AF_INET6) {
		mh.msg_control = cbuf.v6;
		mh.msg_controllen = sizeof(cbuf.v6);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = IPPROTO_IPV6;
		cm->cmsg_type = IPV6_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(req->pktinfo.v6));
		memcpy(CMSG_DATA(cm), &req->pktinfo.v6, sizeof(req->pktinfo.v6));
	}
	if (sendmsg(req->udp_fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 && errno != EAGAIN)
		log_debug("UDP reply: %s", strerror(errno));
}

static void
udp_take_pktinfo(struct rpc_req *r, struct msghdr *mh)
{
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level == IPPROTO_IP && cm->cmsg_type == IP_PKTINFO) {
			memcpy(&r->pktinfo.v4, CMSG_DATA(cm), sizeof(r->pktinfo.v4));
			r->pktinfo_family = AF_INET;
		} else if (cm->cmsg_level == IPPROTO_IPV6 && cm->cmsg_type == IPV6_PKTINFO) {
			memcpy(&r->pktinfo.v6, CMSG_DATA(cm), sizeof(r->pktinfo.v6));
			r->pktinfo_family = AF_INET6;
		}
	}
}

/*
 * Reads datagrams until none is left (an edge-triggered socket reports no
 * more until a new one comes) or UDP_BATCH were read; then it asks for
 * another turn, which another waiting thread may take.
 */
static void
udp_readable(struct listener *l, uint64_t data)
{
	char cbuf[256];

	for (int i = 0; i < UDP_BATCH; i++) {
		struct sockaddr_storage peer;
		struct iovec iov = { udpbuf, sizeof(udpbuf) };
		struct msghdr mh = {
			.msg_name = &peer, .msg_namelen = sizeof(peer),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct rpc_req *r;
		uint8_t *buf;
		ssize_t n = recvmsg(l->fd, &mh, MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				log_warn("UDP receive");
			return;
		}
		if (i > 0)
			workq_yield_credit();	/* the one queued before runs now */
		if (n < 4 || (mh.msg_flags & MSG_TRUNC)) {
			STAT_INC(ST_REJ_UNDECODABLE);	/* no XID: nothing to answer */
			continue;
		}
		buf = malloc((size_t)n);
		r = buf ? req_new(buf, (size_t)n) : NULL;
		if (r == NULL) {
			free(buf);
			continue;	/* the client retransmits */
		}
		memcpy(buf, udpbuf, (size_t)n);
		STAT_INC(ST_UDP_DATAGRAMS);
		r->proto = IPPROTO_UDP;
		r->udp_fd = l->fd;
		r->local_port = l->port;
		memcpy(&r->peer, &peer, mh.msg_namelen);
		r->peerlen = mh.msg_namelen;
		udp_take_pktinfo(r, &mh);
		if (workq_push(r) < 0) {
			STAT_INC(ST_UDP_DROPS);
			req_free(r);	/* overloaded: dropping lets UDP clients back off */
		}
	}
	transport_rearm(l->fd, data);
}

void
transport_reply(struct rpc_req *req, uint8_t *msg, size_t len)
{
	struct iovec iov = { msg, len };

	if (req->proto == IPPROTO_UDP)
		udp_reply(req, &iov, 1);
	else
		conn_reply(req->conn, msg, &iov, 1, -1);
}

int
transport_reply_gap(struct rpc_req *req, uint8_t *msg, size_t len, const struct reply_gap *gap)
{
	size_t tail = gap->off + gap->len;
	struct iovec iov[3] = {
		{ msg, gap->off },
		{ (void *)gap->data, gap->len },
		{ msg + tail, len - tail },
	};

	if (req->proto == IPPROTO_UDP) {
		udp_reply(req, iov, 3);
		return gap->pipe < 0 ? 0 : -1;	/* never spliced for UDP */
	}
	return conn_reply(req->conn, msg, iov, 3, gap->pipe);
}

void
transport_drop(struct rpc_req *req)
{
	/* The hang-up reaches the connection's owner, who closes it. */
	if (req->conn)
		conn_shut(req->conn);
}

/* ---- waiting ---- */

static unsigned
transport_event(int timeout)
{
	struct epoll_event ev;
	uint64_t kicks = 0;
	int n = epoll_wait(epfd, &ev, 1, timeout);

	if (n <= 0)
		return 0;
	if (ev.data.u64 == EV_KICK) {
		if (__atomic_load_n(&waking_all, __ATOMIC_ACQUIRE))
			return 0;	/* the counter stays up: every waiter returns */
		/* Kicks that came together are counted off together (workq.c). */
		if (read(kickfd, &kicks, sizeof(kicks)) != (ssize_t)sizeof(kicks))
			kicks = 0;
		return kicks > UINT_MAX ? UINT_MAX : (unsigned)kicks;
	}
	if (ev.data.u64 & EV_CONN) {
		conn_event(ev.data.u64, ev.events);
		return 0;
	}
	if (ev.data.u64 < nlisteners) {
		struct listener *l = &listeners[ev.data.u64];

		if (l->type == SOCK_DGRAM)
			udp_readable(l, ev.data.u64);
		else
			conns_accept(l->fd, l->port, ev.data.u64);
	}
	return 0;
}

unsigned
transport_wait(void)
{
	return transport_event(-1);
}

unsigned
transport_poll(void)
{
	return transport_event(0);
}

void
transport_kick(void)
{
	uint64_t one = 1;

	/* Each write raises an edge, and an edge wakes one waiting thread. */
	(void)!write(kickfd, &one, sizeof(one));
}

void
transport_wake_all(void)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = EV_KICK };
	uint64_t one = 1;

	/* Level-triggered with the counter above zero: every wait returns at once. */
	__atomic_store_n(&waking_all, 1, __ATOMIC_RELEASE);
	(void)!write(kickfd, &one, sizeof(one));
	epoll_ctl(epfd, EPOLL_CTL_MOD, kickfd, &ev);
}

void
transport_set_reply_budget(size_t bytes)
{
	conns_set_reply_budget(bytes);
}

void
transport_tick(void)
{
	conns_tick();
}

void
transport_close_all(void)
{
	conns_close_all();
	for (unsigned i = 0; i < nlisteners; i++)
		close(listeners[i].fd);
	nlisteners = 0;
}
