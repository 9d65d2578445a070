/*
 * The I/O side: listeners, UDP datagrams, TCP connections and the epoll loop.
 *
 * Threading: only the main thread reads sockets, accepts and closes. Workers
 * write replies: UDP with one sendmsg (atomic per datagram), TCP under the
 * connection's lock, queueing what the socket does not take at once; the
 * main thread flushes the rest on EPOLLOUT. A connection is freed when the
 * last reference (the loop's, or an unfinished request's) goes away, so a
 * worker never writes to a descriptor that was closed and reused.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "recmark.h"
#include "transport.h"
#include "workq.h"

#define MAX_LISTENERS 16
#define MAX_CONNS 1024
#define CONN_IDLE_SECS 360
#define CONN_MAX_INFLIGHT 64
#define CONN_MAX_OUTBYTES (8u << 20)
#define UDP_BATCH 64
#define TCP_READ_BUDGET (1u << 20)

enum src_kind { SRC_UDP, SRC_TCP_LISTEN, SRC_CONN };

struct evsrc {
	enum src_kind kind;
};

struct listener {
	struct evsrc src;
	int fd;
	int family;
	uint16_t port;
};

struct outchunk {
	struct outchunk *next;
	size_t len, off;
	uint8_t data[];
};

struct conn {
	struct evsrc src;
	int fd;
	uint16_t local_port;
	struct sockaddr_storage peer;
	socklen_t peerlen;
	/* main thread only */
	struct recmark rm;
	time_t last_active;
	struct conn *prev, *next;
	int overloaded;		/* the work queue refused a request (for the log) */
	/* shared, under lock */
	pthread_mutex_t lock;
	int refs;
	int closed;
	unsigned inflight;
	/*
	 * Records read beyond the limits (CONN_MAX_INFLIGHT requests in flight,
	 * CONN_MAX_OUTBYTES unsent). A read() of 64 KiB carries hundreds of
	 * small calls (a 1 MiB READ call is ~150 bytes); queueing them all let
	 * one client that never reads its replies pile up hundreds of MiB of
	 * them. They wait here, not on the work queue, and start while the
	 * connection is within both limits (held_take, as requests finish and
	 * as output drains); no more is read while any are held.
	 */
	struct rpc_req *held_head, *held_tail;
	size_t out_bytes;
	struct outchunk *out_head, *out_tail;
	uint32_t events;	/* what epoll is watching now */
};

static int epfd = -1;
static struct listener listeners[MAX_LISTENERS];
static unsigned nlisteners;
static struct bound_socket bound[MAX_LISTENERS];
static struct conn *conns;	/* most recently active first */
static struct conn *conns_tail;	/* least recently active */
static unsigned nconns;
static unsigned max_conns = MAX_CONNS;	/* lowered to fit RLIMIT_NOFILE (transport_listen) */
/* Closed this round; freed after the event batch that may still name them. */
static struct conn *zombies;
static uint8_t iobuf[65536];

/* ---- connections: references and event interest ---- */

static void
conn_unref(struct conn *c)
{
	int last;

	pthread_mutex_lock(&c->lock);
	last = --c->refs == 0;
	pthread_mutex_unlock(&c->lock);
	if (!last)
		return;
	while (c->out_head) {
		struct outchunk *o = c->out_head;
		c->out_head = o->next;
		free(o);
	}
	recmark_free(&c->rm);
	if (c->fd >= 0)
		close(c->fd);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* Called with c->lock held: watch for input only while the client is within its limits. */
static void
conn_update_events(struct conn *c)
{
	uint32_t want = 0;
	struct epoll_event ev;

	if (c->closed)
		return;
	if (c->inflight < CONN_MAX_INFLIGHT && c->out_bytes < CONN_MAX_OUTBYTES &&
	    c->held_head == NULL)
		want |= EPOLLIN;
	if (c->out_bytes > 0)
		want |= EPOLLOUT;
	if (want == c->events)
		return;
	ev.events = want;
	ev.data.ptr = &c->src;
	if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &ev) == 0)
		c->events = want;
}

static void
conn_list_remove(struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		conns = c->next;
	if (c->next)
		c->next->prev = c->prev;
	else
		conns_tail = c->prev;
	c->prev = c->next = NULL;
	nconns--;
}

static void
conn_list_push_front(struct conn *c)
{
	c->prev = NULL;
	c->next = conns;
	if (conns)
		conns->prev = c;
	else
		conns_tail = c;
	conns = c;
	nconns++;
}

static void
conn_touch(struct conn *c)
{
	c->last_active = time(NULL);
	if (conns != c) {
		conn_list_remove(c);
		conn_list_push_front(c);
	}
}

/*
 * With c->lock held: takes the held requests that may start now (the
 * connection within its limits) and counts them in flight. The caller
 * pushes them onto the work queue, after unlocking, with held_start.
 */
static struct rpc_req *
held_take(struct conn *c)
{
	struct rpc_req *list = NULL, **tail = &list;

	while (!c->closed && c->held_head && c->inflight < CONN_MAX_INFLIGHT &&
	    c->out_bytes < CONN_MAX_OUTBYTES) {
		struct rpc_req *r = c->held_head;

		c->held_head = r->next;
		if (c->held_head == NULL)
			c->held_tail = NULL;
		r->next = NULL;
		*tail = r;
		tail = &r->next;
		c->inflight++;
	}
	return list;
}

/* Frees requests of c that were read but never started; c stays referenced by the caller. */
static void
held_drop(struct conn *c, struct rpc_req *r)
{
	while (r) {
		struct rpc_req *next = r->next;

		free(r->buf);
		free(r);
		conn_unref(c);
		r = next;
	}
}

/* Queues what held_take returned; the caller holds a reference to c. */
static void
held_start(struct conn *c, struct rpc_req *list)
{
	while (list) {
		struct rpc_req *r = list;
		unsigned n = 0;

		list = r->next;
		r->next = NULL;
		if (workq_push(r) == 0)
			continue;
		/*
		 * Queue full: as in tcp_record, the connection cannot be
		 * served in order. Shutting it down makes the loop see
		 * EPOLLHUP and close it (the caller's reference keeps the
		 * descriptor ours until then).
		 */
		r->next = list;
		for (list = r; list; list = list->next)
			n++;
		pthread_mutex_lock(&c->lock);
		c->inflight -= n;
		shutdown(c->fd, SHUT_RDWR);
		pthread_mutex_unlock(&c->lock);
		held_drop(c, r);
		return;
	}
}

/* Main thread: stop serving c; in-flight requests finish and drop their replies. */
static void
conn_close(struct conn *c)
{
	struct rpc_req *held;
	int idle;

	pthread_mutex_lock(&c->lock);
	c->closed = 1;
	epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
	shutdown(c->fd, SHUT_RDWR);
	held = c->held_head;
	c->held_head = c->held_tail = NULL;
	pthread_mutex_unlock(&c->lock);
	held_drop(c, held);
	/*
	 * With no request in flight only the loop's reference is left and no
	 * worker can take another, so the descriptor may go now rather than
	 * after the event batch: a flood of new connections, each evicting the
	 * oldest, otherwise held one descriptor per eviction of the batch
	 * (up to 1300 open with 10,000 connections), and running out of
	 * descriptors in tcp_accept closed every connection in turn, as
	 * none of the closes gave one back.
	 */
	pthread_mutex_lock(&c->lock);
	idle = c->refs == 1;
	pthread_mutex_unlock(&c->lock);
	if (idle) {
		close(c->fd);
		c->fd = -1;
	}
	conn_list_remove(c);
	c->next = zombies;
	zombies = c;
}

static void
bury_zombies(void)
{
	while (zombies) {
		struct conn *c = zombies;
		zombies = c->next;
		conn_unref(c);
	}
}

/* ---- listeners ---- */

static int
epoll_add(int fd, struct evsrc *src, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.ptr = src };

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
	l->src.kind = type == SOCK_DGRAM ? SRC_UDP : SRC_TCP_LISTEN;
	l->fd = fd;
	l->family = family;
	l->port = port;
	if (epoll_add(fd, &l->src, EPOLLIN) < 0) {
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

/* ---- requests ---- */

static struct rpc_req *
req_new(uint8_t *buf, size_t len)
{
	struct rpc_req *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->buf = buf;
	r->len = len;
	return r;
}

void
req_free(struct rpc_req *req)
{
	struct conn *c = req->conn;

	if (c) {
		struct rpc_req *start;

		pthread_mutex_lock(&c->lock);
		c->inflight--;
		start = held_take(c);	/* a slot is free: held requests go to work */
		conn_update_events(c);
		pthread_mutex_unlock(&c->lock);
		held_start(c, start);
		conn_unref(c);
	}
	free(req->buf);
	free(req);
}

size_t
req_max_payload(const struct rpc_req *req)
{
	return req->proto == IPPROTO_TCP ? TCP_MAX_PAYLOAD : UDP_MAX_PAYLOAD;
}

void
req_peer_str(const struct rpc_req *req, char *buf, size_t len)
{
	if (getnameinfo((const struct sockaddr *)&req->peer, req->peerlen, buf, (socklen_t)len,
	    NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(buf, len, "?");
}

uint16_t
req_peer_port(const struct rpc_req *req)
{
	if (req->peer.ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)&req->peer)->sin_port);
	if (req->peer.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&req->peer)->sin6_port);
	return 0;
}

int
req_local_addr(const struct rpc_req *req, struct sockaddr_storage *out)
{
	socklen_t len = sizeof(*out);

	memset(out, 0, sizeof(*out));
	if (req->pktinfo_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)out;

		sin->sin_family = AF_INET;
		sin->sin_addr = req->pktinfo.v4.ipi_addr;
		return 0;
	}
	if (req->pktinfo_family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = req->pktinfo.v6.ipi6_addr;
		return 0;
	}
	if (getsockname(req->conn ? req->conn->fd : req->udp_fd, (struct sockaddr *)out, &len) < 0)
		return -1;
	if (out->ss_family == AF_INET)
		((struct sockaddr_in *)out)->sin_port = 0;
	else if (out->ss_family == AF_INET6)
		((struct sockaddr_in6 *)out)->sin6_port = 0;
	return 0;
}

/* ---- UDP ---- */

static void
udp_reply(struct rpc_req *req, const uint8_t *msg, size_t len)
{
	union {
		char v4[CMSG_SPACE(sizeof(struct in_pktinfo))];
		char v6[CMSG_SPACE(sizeof(struct in6_pktinfo))];
	} cbuf;
	struct iovec iov = { (void *)msg, len };
	struct msghdr mh = {
		.msg_name = &req->peer, .msg_namelen = req->peerlen,
		.msg_iov = &iov, .msg_iovlen = 1,
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

static void
udp_readable(struct listener *l)
{
	char cbuf[256];

	for (int i = 0; i < UDP_BATCH; i++) {
		struct sockaddr_storage peer;
		struct iovec iov = { iobuf, sizeof(iobuf) };
		struct msghdr mh = {
			.msg_name = &peer, .msg_namelen = sizeof(peer),
			.msg_iov = &iov, .msg_iovlen = 1,
			.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
		};
		struct rpc_req *r;
		uint8_t *buf;
		ssize_t n = recvmsg(l->fd, &mh, MSG_DONTWAIT);

		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				log_warn("UDP receive");
			return;
		}
		if (n < 4 || (mh.msg_flags & MSG_TRUNC))
			continue;	/* not a call we could answer */
		buf = malloc((size_t)n);
		r = buf ? req_new(buf, (size_t)n) : NULL;
		if (r == NULL) {
			free(buf);
			continue;	/* the client retransmits */
		}
		memcpy(buf, iobuf, (size_t)n);
		r->proto = IPPROTO_UDP;
		r->udp_fd = l->fd;
		r->local_port = l->port;
		memcpy(&r->peer, &peer, mh.msg_namelen);
		r->peerlen = mh.msg_namelen;
		udp_take_pktinfo(r, &mh);
		if (workq_push(r) < 0)
			req_free(r);	/* overloaded: dropping lets UDP clients back off */
	}
}

/* ---- TCP ---- */

/*
 * The connection to give up when a new one needs room: the least recently
 * active of those with nothing in flight or queued (closing it loses no
 * reply), else the least recently active.  Looks at most 64 from the
 * cold end, so a flood of new connections costs O(1) per accept.
 */
static struct conn *
conn_victim(void)
{
	struct conn *c = conns_tail;

	for (unsigned looked = 0; c && looked < 64; c = c->prev, looked++) {
		int idle;

		pthread_mutex_lock(&c->lock);
		idle = c->inflight == 0 && c->out_bytes == 0 && c->held_head == NULL;
		pthread_mutex_unlock(&c->lock);
		if (idle)
			return c;
	}
	return conns_tail;
}

static void
tcp_accept(struct listener *l)
{
	for (;;) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		struct conn *c;
		int one = 1;
		int fd = accept4(l->fd, (struct sockaddr *)&peer, &plen, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE) {
				/*
				 * Out of descriptors: make room by closing a stale
				 * connection, and try again only if that freed its
				 * descriptor (one with requests in flight keeps it
				 * until they finish); else the next accept event
				 * tries again, rather than closing them all now.
				 */
				static unsigned last_log;
				struct conn *old = conn_victim();

				log_ratelimited(&last_log, "accept: %s; closing the stalest connection",
				    strerror(errno));
				if (old) {
					conn_close(old);
					if (old->fd < 0)
						continue;
				}
			} else if (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED) {
				log_warn("accept");
			}
			return;
		}
		if (nconns >= max_conns) {
			struct conn *old = conn_victim();
			if (old)
				conn_close(old);
		}
		c = calloc(1, sizeof(*c));
		if (c == NULL) {
			close(fd);
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		c->src.kind = SRC_CONN;
		c->fd = fd;
		c->local_port = l->port;
		memcpy(&c->peer, &peer, plen);
		c->peerlen = plen;
		c->refs = 1;
		c->events = EPOLLIN;
		pthread_mutex_init(&c->lock, NULL);
		recmark_init(&c->rm, RPC_MAX_RECORD);
		if (epoll_add(fd, &c->src, EPOLLIN) < 0) {
			log_warn("epoll_ctl");
			recmark_free(&c->rm);
			pthread_mutex_destroy(&c->lock);
			close(fd);
			free(c);
			continue;
		}
		conn_list_push_front(c);
		c->last_active = time(NULL);
	}
}

static int
tcp_record(void *arg, uint8_t *rec, size_t len)
{
	struct conn *c = arg;
	struct rpc_req *r = req_new(rec, len);

	if (r == NULL) {
		free(rec);
		return -1;
	}
	r->proto = IPPROTO_TCP;
	r->conn = c;
	r->udp_fd = -1;
	r->local_port = c->local_port;
	memcpy(&r->peer, &c->peer, c->peerlen);
	r->peerlen = c->peerlen;
	pthread_mutex_lock(&c->lock);
	c->refs++;
	if (c->inflight >= CONN_MAX_INFLIGHT || c->out_bytes >= CONN_MAX_OUTBYTES || c->held_head) {
		/* Over the limit: held until a request finishes (see struct conn). */
		if (c->held_tail)
			c->held_tail->next = r;
		else
			c->held_head = r;
		c->held_tail = r;
		conn_update_events(c);
		pthread_mutex_unlock(&c->lock);
		return 0;
	}
	c->inflight++;
	conn_update_events(c);
	pthread_mutex_unlock(&c->lock);
	if (workq_push(r) < 0) {
		c->overloaded = 1;
		req_free(r);
		return -1;	/* cannot hold the connection's promise: close it */
	}
	return 0;
}

static void
tcp_readable(struct conn *c)
{
	size_t budget = TCP_READ_BUDGET;

	while (budget > 0) {
		uint8_t *dst;
		size_t room;
		ssize_t n;
		int direct;

		pthread_mutex_lock(&c->lock);
		int full = c->inflight >= CONN_MAX_INFLIGHT || c->out_bytes >= CONN_MAX_OUTBYTES ||
		    c->held_head != NULL;
		pthread_mutex_unlock(&c->lock);
		if (full)
			return;		/* conn_update_events stopped EPOLLIN; resumes later */
		/* Large payloads (WRITE data) go straight into the record. */
		direct = recmark_direct(&c->rm, &dst, &room);
		if (direct == 0) {
			dst = iobuf;
			room = sizeof(iobuf);
		}
		n = direct < 0 ? -1 : read(c->fd, dst, room);
		if (n < 0 && direct >= 0 && (errno == EAGAIN || errno == EINTR))
			return;
		if (n <= 0) {
			conn_close(c);
			return;
		}
		conn_touch(c);
		if ((direct ? recmark_direct_done(&c->rm, (size_t)n, tcp_record, c) :
		    recmark_feed(&c->rm, iobuf, (size_t)n, tcp_record, c)) < 0) {
			static unsigned last_log;
			char peer[INET6_ADDRSTRLEN];
			getnameinfo((struct sockaddr *)&c->peer, c->peerlen, peer, sizeof(peer),
			    NULL, 0, NI_NUMERICHOST);
			/* Rate-limited: a hostile client makes one per connection. */
			log_ratelimited(&last_log, "closing connection from %s: %s", peer,
			    c->overloaded ? "too many requests queued" : "bad or oversized RPC record");
			conn_close(c);
			return;
		}
		budget -= (size_t)n < budget ? (size_t)n : budget;
	}
}

/* With c->lock held: write queued output; returns -1 if the connection broke. */
static int
conn_flush_locked(struct conn *c)
{
	while (c->out_head) {
		struct outchunk *o = c->out_head;
		ssize_t n = send(c->fd, o->data + o->off, o->len - o->off, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return 0;
			return -1;
		}
		o->off += (size_t)n;
		c->out_bytes -= (size_t)n;
		if (o->off == o->len) {
			c->out_head = o->next;
			if (c->out_head == NULL)
				c->out_tail = NULL;
			free(o);
		}
	}
	return 0;
}

static void
tcp_writable(struct conn *c)
{
	struct rpc_req *start = NULL;
	int broken;

	pthread_mutex_lock(&c->lock);
	broken = conn_flush_locked(c) < 0;
	if (!broken)
		start = held_take(c);	/* output drained below the limit */
	conn_update_events(c);
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	if (broken)
		conn_close(c);
}

static void
tcp_reply(struct conn *c, uint8_t *msg, size_t len)
{
	uint8_t *rec = msg - REPLY_HEADROOM;
	size_t total = len + REPLY_HEADROOM, off = 0;
	uint32_t mark = htonl(RM_LAST_FRAG | (uint32_t)len);

	memcpy(rec, &mark, 4);
	pthread_mutex_lock(&c->lock);
	if (c->closed) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	if (c->out_head == NULL) {
		/* Fast path: most replies go straight into the socket buffer. */
		while (off < total) {
			ssize_t n = send(c->fd, rec + off, total - off, MSG_NOSIGNAL | MSG_DONTWAIT);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				if (errno != EAGAIN) {
					/* The main loop sees the error and closes. */
					pthread_mutex_unlock(&c->lock);
					return;
				}
				break;
			}
			off += (size_t)n;
		}
	}
	if (off < total) {
		struct outchunk *o = malloc(sizeof(*o) + total - off);
		if (o) {
			o->next = NULL;
			o->len = total - off;
			o->off = 0;
			memcpy(o->data, rec + off, total - off);
			if (c->out_tail)
				c->out_tail->next = o;
			else
				c->out_head = o;
			c->out_tail = o;
			c->out_bytes += o->len;
			conn_update_events(c);
		} else {
			/* A partial record cannot be taken back: the stream is broken. */
			shutdown(c->fd, SHUT_RDWR);
		}
	}
	pthread_mutex_unlock(&c->lock);
}

void
transport_reply(struct rpc_req *req, uint8_t *msg, size_t len)
{
	if (req->proto == IPPROTO_UDP)
		udp_reply(req, msg, len);
	else
		tcp_reply(req->conn, msg, len);
}

void
transport_drop(struct rpc_req *req)
{
	struct conn *c = req->conn;

	if (c == NULL)
		return;
	/* The loop sees the hang-up and closes it; our reference keeps fd ours. */
	pthread_mutex_lock(&c->lock);
	shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_unlock(&c->lock);
}

/* ---- the loop ---- */

void
transport_poll(int timeout_ms, const void *sigmask)
{
	struct epoll_event evs[64];
	int n = epoll_pwait(epfd, evs, 64, timeout_ms, sigmask);

	for (int i = 0; i < n; i++) {
		struct evsrc *src = evs[i].data.ptr;

		switch (src->kind) {
		case SRC_UDP:
			udp_readable((struct listener *)src);
			break;
		case SRC_TCP_LISTEN:
			tcp_accept((struct listener *)src);
			break;
		case SRC_CONN: {
			struct conn *c = (struct conn *)src;

			/*
			 * Reset, or shut down both ways (by the peer, or by us in
			 * held_start): nothing more can be answered. Without this
			 * a connection at its limits (EPOLLIN off, so tcp_readable
			 * returns at once) spun the loop on EPOLLHUP until its
			 * requests finished.
			 */
			if (!c->closed && (evs[i].events & (EPOLLHUP | EPOLLERR)))
				conn_close(c);
			if (!c->closed && (evs[i].events & EPOLLOUT))
				tcp_writable(c);
			if (!c->closed && (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
				tcp_readable(c);
			break;
		}
		}
	}
	bury_zombies();
}

void
transport_tick(void)
{
	time_t now = time(NULL);
	struct conn *c = conns, *next;

	for (; c; c = next) {
		int idle;

		next = c->next;
		pthread_mutex_lock(&c->lock);
		idle = c->inflight == 0 && c->out_bytes == 0;
		pthread_mutex_unlock(&c->lock);
		if (idle && now - c->last_active > CONN_IDLE_SECS)
			conn_close(c);
	}
	bury_zombies();
}

void
transport_close_all(void)
{
	while (conns)
		conn_close(conns);
	bury_zombies();
	for (unsigned i = 0; i < nlisteners; i++)
		close(listeners[i].fd);
	nlisteners = 0;
}
