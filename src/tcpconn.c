/*
 * TCP connections (RFC 5531 record marking over a stream).
 *
 * Every pool thread waits on the one epoll set (transport.c); a connection
 * is registered edge-triggered for input and output, and whichever thread
 * gets its event becomes its owner: it reads, reassembles records and
 * queues the calls, then usually runs the first of them itself (workq.c),
 * so a call costs no hand-off between threads.  An event that arrives
 * while another thread owns the connection only marks it (again): the
 * owner looks once more before it lets go, so no input is missed and two
 * threads never read one stream.
 *
 * Workers write replies straight into the socket, one thread at a time
 * (see "writing"); what it does not take waits in out_head and is written
 * on EPOLLOUT.  Limits per connection (CONN_MAX_INFLIGHT calls running,
 * CONN_MAX_OUTBYTES unsent) pause input; the request or flush that brings
 * the connection back within them resumes it (conn_resume_locked).
 *
 * Slots are recycled, never freed: an event delivered just before a
 * connection closed names its slot and generation, and a generation that
 * no longer matches is ignored.  So any thread may close a connection (the
 * idle tick, eviction for a new one): an owner at work finds it closed,
 * and the descriptor and slot wait for the last reference (the owner's,
 * each request's).  A worker that must drop a stream only shuts it down;
 * the hang-up reaches an owner.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "be.h"
#include "log.h"
#include "stats.h"
#include "queue.h"
#include "recmark.h"
#include "tcpconn.h"
#include "transport.h"
#include "workq.h"

#define CONN_IDLE_SECS 360
#define CONN_MAX_INFLIGHT 64
#define CONN_MAX_OUTBYTES (8u << 20)
#define TCP_READ_BUDGET (1u << 20)
#define READ_CHUNK 65536
#define VICTIM_LOOK 64
/* A bulk call (READ data) reserves its largest reply while it runs. */
#define BULK_RESERVE RPC_MAX_RECORD
#define STALL_SECS 2		/* over budget, replies unread this long: closed */

struct outchunk {
	struct outchunk *next;
	size_t len, off;
	uint8_t data[];
};

struct conn {
	pthread_mutex_t lock;
	uint32_t slot;
	/* the owner's alone */
	struct recmark rm;
	int overloaded;		/* the work queue refused a request (for the log) */
	/* under lock */
	uint32_t gen;		/* bumped when the slot is recycled */
	int in_use;
	int fd;
	uint16_t local_port;
	struct sockaddr_storage peer;
	socklen_t peerlen;
	int owned;		/* a thread is serving its events */
	int again;		/* an event came meanwhile: the owner looks again */
	int paused;		/* input stopped at a limit */
	int budget_paused;	/* calls wait for the global reply budget */
	int closed;
	int sending;		/* a thread writes to the socket (outside the lock) */
	int out_kick;		/* EPOLLOUT came while it did: it writes again */
	unsigned send_waiters;	/* large replies waiting for the sender */
	pthread_cond_t send_done;
	int refs;		/* open + requests + an owner at work */
	unsigned inflight;
	/*
	 * Records read beyond the limits.  A read() of 64 KiB carries
	 * hundreds of small calls (a 1 MiB READ call is ~150 bytes); queueing
	 * them all let one client that never reads its replies pile up
	 * hundreds of MiB of them.  They wait here, not on the work queue,
	 * and start while the connection is within both limits.
	 */
	struct rpc_req *held_head, *held_tail;
	size_t out_bytes;
	time_t out_moved;	/* when the output queue last moved (or filled) */
	struct outchunk *out_head, *out_tail;
	/* under conns_lock */
	int listed;		/* in the list of open connections */
	time_t last_active;
	TAILQ_ENTRY(conn) lru;		/* open connections, most recently active first */
	struct conn *free_next;
};

static pthread_mutex_t conns_lock = PTHREAD_MUTEX_INITIALIZER;
static struct conn **slots;	/* fixed at start: readers need no lock */
static unsigned nslots, slots_cap;
static struct conn *free_slots;
TAILQ_HEAD(conn_list, conn);
static struct conn_list lru = TAILQ_HEAD_INITIALIZER(lru);
static unsigned nconns, max_conns;
static int ep = -1;
/* accept ran out of descriptors: retry the listeners when one is given back */
static uint64_t starved_listener_ev;
static int starved_fd = -1;

static __thread uint8_t rdbuf[READ_CHUNK];

/*
 * The reply memory of all connections together: bytes on output queues
 * plus BULK_RESERVE for every bulk call running over TCP.  One atomic add
 * when a bulk call starts or a reply is queued, one subtract when it ends
 * or goes out; light calls whose replies go straight out touch it not at
 * all.  See may_start_locked.
 */
static size_t reply_mem;
static size_t reply_budget = (size_t)REPLY_BUDGET_DEFAULT_MIB << 20;
static struct conn **tick_conns;	/* the tick's scratch list (main thread) */

static void
reply_mem_add(size_t n)
{
	__atomic_add_fetch(&reply_mem, n, __ATOMIC_RELAXED);
}

static void
reply_mem_sub(size_t n)
{
	__atomic_sub_fetch(&reply_mem, n, __ATOMIC_RELAXED);
}

void
conns_set_reply_budget(size_t bytes)
{
	reply_budget = bytes;
}

size_t
conns_reply_memory(void)
{
	return __atomic_load_n(&reply_mem, __ATOMIC_RELAXED);
}

void
conns_init(int epfd, unsigned max)
{
	ep = epfd;
	max_conns = max;
	/* Closed connections wait for their last request; new ones still come in. */
	slots_cap = 2 * max + 64;
	slots = calloc(slots_cap, sizeof(*slots));
	tick_conns = calloc(slots_cap, sizeof(*tick_conns));
	if (slots == NULL || tick_conns == NULL)
		fatal("connection table");
}

static uint64_t
conn_ev_data(const struct conn *c)
{
	return EV_CONN | (uint64_t)c->gen << 32 | c->slot;
}

/* (Re)registers c's interest; an edge-triggered MOD also reports what is ready now. */
static void
conn_arm(struct conn *c, int op)
{
	struct epoll_event ev = { .events = EPOLLIN | EPOLLOUT | EPOLLET };

	ev.data.u64 = conn_ev_data(c);
	if (epoll_ctl(ep, op, c->fd, &ev) < 0 && op == EPOLL_CTL_ADD)
		log_warn("epoll_ctl");
}

/* ---- slots ---- */

static struct conn *
slot_take(void)
{
	struct conn *c;

	pthread_mutex_lock(&conns_lock);
	if ((c = free_slots) != NULL) {
		free_slots = c->free_next;
	} else if (nslots < slots_cap && (c = calloc(1, sizeof(*c))) != NULL) {
		pthread_mutex_init(&c->lock, NULL);
		pthread_cond_init(&c->send_done, NULL);
		c->slot = nslots;
		slots[nslots++] = c;
	}
	pthread_mutex_unlock(&conns_lock);
	return c;
}

/* The last reference went: give back the descriptor and the slot. */
static void
slot_release(struct conn *c)
{
	uint64_t retry = 0;
	int retry_fd = -1;

	while (c->out_head) {
		struct outchunk *o = c->out_head;
		c->out_head = o->next;
		free(o);
	}
	c->out_tail = NULL;
	reply_mem_sub(c->out_bytes);
	c->out_bytes = 0;
	recmark_free(&c->rm);
	close(c->fd);
	c->fd = -1;
	pthread_mutex_lock(&c->lock);
	c->in_use = 0;
	c->gen++;
	pthread_mutex_unlock(&c->lock);
	pthread_mutex_lock(&conns_lock);
	c->free_next = free_slots;
	free_slots = c;
	if (starved_fd >= 0) {
		retry = starved_listener_ev;
		retry_fd = starved_fd;
		starved_fd = -1;
	}
	pthread_mutex_unlock(&conns_lock);
	if (retry_fd >= 0) {
		/* A connection waits in the backlog: ask for the listener's event again. */
		struct epoll_event ev = { .events = EPOLLIN | EPOLLET, .data.u64 = retry };
		epoll_ctl(ep, EPOLL_CTL_MOD, retry_fd, &ev);
	}
}

static void
conn_unref(struct conn *c)
{
	int last;

	pthread_mutex_lock(&c->lock);
	last = --c->refs == 0;
	pthread_mutex_unlock(&c->lock);
	if (last)
		slot_release(c);
}

/* ---- the list of open connections (for idle timeouts and eviction) ---- */

static void
lru_remove_locked(struct conn *c)
{
	TAILQ_REMOVE(&lru, c, lru);
	c->listed = 0;
	nconns--;
}

static void
lru_push_front_locked(struct conn *c)
{
	TAILQ_INSERT_HEAD(&lru, c, lru);
	c->listed = 1;
	nconns++;
}

/* At most once a second per connection: the lock is shared by all. */
static void
conn_touch(struct conn *c)
{
	time_t now = time(NULL);

	if (c->last_active == now)
		return;
	pthread_mutex_lock(&conns_lock);
	c->last_active = now;
	if (TAILQ_FIRST(&lru) != c && c->listed) {
		lru_remove_locked(c);
		lru_push_front_locked(c);
	}
	pthread_mutex_unlock(&conns_lock);
}

/* ---- limits and held requests ---- */

/*
 * With c->lock held: may c start another call?  Within its own limits,
 * and within the global reply budget, or else (over budget) only if it
 * has nothing running and nothing queued, while the budget's last eighth
 * lasts: a client that reads its replies is never starved by those that
 * do not, and one that does not cannot pass the budget by more than that
 * eighth (the tick closes those whose replies stall, and resumes the rest).
 */
static int
may_start_locked(struct conn *c)
{
	size_t used;

	if (c->inflight >= CONN_MAX_INFLIGHT || c->out_bytes >= CONN_MAX_OUTBYTES)
		return 0;
	used = __atomic_load_n(&reply_mem, __ATOMIC_RELAXED);
	if (used + BULK_RESERVE <= reply_budget ||
	    (c->inflight == 0 && c->out_bytes == 0 && used < reply_budget + reply_budget / 8)) {
		c->budget_paused = 0;
		return 1;
	}
	if (!c->budget_paused) {
		c->budget_paused = 1;
		STAT_INC(ST_TCP_BUDGET_PAUSES);
	}
	return 0;
}

/* With c->lock held: r starts; a bulk call reserves its reply's room. */
static void
start_locked(struct conn *c, struct rpc_req *r)
{
	c->inflight++;
	if (r->bulk > 0) {
		r->reserved = BULK_RESERVE;
		reply_mem_add(BULK_RESERVE);
	}
}

/*
 * With c->lock held: takes the held requests that may start now and counts
 * them in flight (the caller queues them with held_start, unlocked); when
 * none is left and input was paused, asks for the connection's events again.
 */
static struct rpc_req *
conn_resume_locked(struct conn *c)
{
	struct rpc_req *list = NULL, **tail = &list;

	while (!c->closed && c->held_head && may_start_locked(c)) {
		struct rpc_req *r = c->held_head;

		c->held_head = r->next;
		if (c->held_head == NULL)
			c->held_tail = NULL;
		r->next = NULL;
		*tail = r;
		tail = &r->next;
		start_locked(c, r);
	}
	if (c->paused && !c->closed && c->held_head == NULL && may_start_locked(c)) {
		c->paused = 0;
		if (!c->owned)
			conn_arm(c, EPOLL_CTL_MOD);	/* input left unread: report it */
		else
			c->again = 1;
	}
	return list;
}

/* Frees requests of c that were read but never started; the caller keeps c referenced. */
static void
held_drop(struct conn *c, struct rpc_req *r)
{
	while (r) {
		struct rpc_req *next = r->next;

		reply_mem_sub(r->reserved);
		free(r->buf);
		free(r);
		conn_unref(c);
		r = next;
	}
}

/* Queues what conn_resume_locked returned; the caller holds a reference to c. */
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
		/* Queue full: the connection cannot be served in order; drop it. */
		r->next = list;
		for (list = r; list; list = list->next)
			n++;
		pthread_mutex_lock(&c->lock);
		c->inflight -= n;
		pthread_mutex_unlock(&c->lock);
		conn_shut(c);
		held_drop(c, r);
		return;
	}
}

/* ---- closing ---- */

/* By anyone: the connection's hang-up reaches an owner, who closes it. */
void
conn_shut(struct conn *c)
{
	pthread_mutex_lock(&c->lock);
	if (!c->closed)
		shutdown(c->fd, SHUT_RDWR);
	pthread_mutex_unlock(&c->lock);
}

/* By the owner (or at exit): in-flight requests finish and drop their replies. */
static void
conn_close(struct conn *c)
{
	struct rpc_req *held;

	pthread_mutex_lock(&c->lock);
	if (c->closed) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	c->closed = 1;
	STAT_INC(ST_TCP_CLOSED);
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	shutdown(c->fd, SHUT_RDWR);
	held = c->held_head;
	c->held_head = c->held_tail = NULL;
	pthread_mutex_unlock(&c->lock);
	held_drop(c, held);
	pthread_mutex_lock(&conns_lock);
	if (c->listed)
		lru_remove_locked(c);
	pthread_mutex_unlock(&conns_lock);
	conn_unref(c);		/* the reference of an open connection */
}

/* ---- accepting ---- */

/*
 * The connection to give up when a new one needs room: the least recently
 * active of those with nothing in flight or queued (closing it loses no
 * reply), else the least recently active.  Looks at most VICTIM_LOOK from
 * the cold end, so a flood of new connections costs O(1) per accept.
 */
static struct conn *
conn_victim_locked(void)
{
	struct conn *c = TAILQ_LAST(&lru, conn_list), *fallback = NULL;

	for (unsigned looked = 0; c && looked < VICTIM_LOOK;
	    c = TAILQ_PREV(c, conn_list, lru), looked++) {
		int idle;

		pthread_mutex_lock(&c->lock);
		idle = c->inflight == 0 && c->out_bytes == 0 && c->held_head == NULL;
		pthread_mutex_unlock(&c->lock);
		if (idle)
			return c;
		if (fallback == NULL)
			fallback = c;
	}
	return fallback;
}

/* Takes a reference, so that the slot cannot be recycled under the caller. */
static void
conn_hold_locked(struct conn *c)
{
	pthread_mutex_lock(&c->lock);
	c->refs++;
	pthread_mutex_unlock(&c->lock);
}

/* With conns_lock held: takes the victim out of the list, for the caller to close. */
static struct conn *
evict_locked(void)
{
	struct conn *old = conn_victim_locked();

	if (old) {
		conn_hold_locked(old);
		lru_remove_locked(old);
	}
	return old;
}

/*
 * Closes a connection taken by evict_locked.  Anyone may: its owner, if it
 * has one at work, finds it closed, and the slot waits for the owner's
 * reference.  Returns 1 if its descriptor was given back at once.
 */
static int
evict_close(struct conn *old)
{
	int freed;

	if (old == NULL)
		return 0;
	STAT_INC(ST_TCP_EVICTED);
	conn_close(old);
	pthread_mutex_lock(&old->lock);
	freed = old->refs == 1;		/* only ours is left */
	pthread_mutex_unlock(&old->lock);
	conn_unref(old);
	return freed;
}

static void
conn_open(int fd, uint16_t port, const struct sockaddr_storage *peer, socklen_t plen)
{
	struct conn *c = slot_take(), *old = NULL;
	int one = 1;

	if (c == NULL) {
		static unsigned last_log;
		log_ratelimited(&last_log, "no room for another TCP connection; refusing one");
		STAT_INC(ST_TCP_REFUSED);
		close(fd);
		return;
	}
	STAT_INC(ST_TCP_ACCEPTED);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	pthread_mutex_lock(&c->lock);
	c->in_use = 1;
	c->fd = fd;
	c->local_port = port;
	memcpy(&c->peer, peer, plen);
	c->peerlen = plen;
	c->owned = c->again = c->paused = c->budget_paused = c->closed = 0;
	c->sending = c->out_kick = 0;
	c->refs = 1;
	c->inflight = 0;
	c->overloaded = 0;
	recmark_init(&c->rm, RPC_MAX_RECORD);
	pthread_mutex_unlock(&c->lock);
	/* Admission and eviction in one step: threads accepting side by side each evict their own. */
	pthread_mutex_lock(&conns_lock);
	if (nconns >= max_conns)
		old = evict_locked();
	c->last_active = time(NULL);
	lru_push_front_locked(c);
	pthread_mutex_unlock(&conns_lock);
	evict_close(old);
	conn_arm(c, EPOLL_CTL_ADD);
}

void
conns_accept(int lfd, uint16_t port, uint64_t listener_ev)
{
	for (;;) {
		struct sockaddr_storage peer;
		socklen_t plen = sizeof(peer);
		int fd = accept4(lfd, (struct sockaddr *)&peer, &plen,
		    SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EMFILE || errno == ENFILE) {
				/*
				 * Out of descriptors: close the stalest connection
				 * and try again if that gave its descriptor back;
				 * if requests still hold it, the listener is asked
				 * for again when it comes back (slot_release), as
				 * an edge-triggered one would not report the
				 * connection still waiting.
				 */
				static unsigned last_log;

				log_ratelimited(&last_log, "accept: %s; closing the stalest connection",
				    strerror(errno));
				struct conn *old;

				pthread_mutex_lock(&conns_lock);
				old = evict_locked();
				pthread_mutex_unlock(&conns_lock);
				if (evict_close(old))
					continue;
				pthread_mutex_lock(&conns_lock);
				starved_fd = lfd;
				starved_listener_ev = listener_ev;
				pthread_mutex_unlock(&conns_lock);
			} else if (errno == EINTR || errno == ECONNABORTED) {
				continue;
			} else if (errno != EAGAIN) {
				log_warn("accept");
			}
			return;
		}
		conn_open(fd, port, &peer, plen);
	}
}

/* ---- reading ---- */

static int
tcp_record(void *arg, uint8_t *rec, size_t len)
{
	struct conn *c = arg;
	struct rpc_req *r = req_new(rec, len);

	if (r == NULL) {
		free(rec);
		return -1;
	}
	STAT_INC(ST_TCP_RECORDS);
	r->proto = IPPROTO_TCP;
	r->conn = c;
	r->udp_fd = -1;
	r->local_port = c->local_port;
	memcpy(&r->peer, &c->peer, c->peerlen);
	r->peerlen = c->peerlen;
	workq_is_bulk(r);
	pthread_mutex_lock(&c->lock);
	c->refs++;
	if (c->held_head || !may_start_locked(c)) {
		/* Over the limit: held until a request finishes (see struct conn). */
		if (c->held_tail)
			c->held_tail->next = r;
		else
			c->held_head = r;
		c->held_tail = r;
		pthread_mutex_unlock(&c->lock);
		return 0;
	}
	start_locked(c, r);
	pthread_mutex_unlock(&c->lock);
	if (workq_push(r) < 0) {
		STAT_INC(ST_TCP_OVERLOAD);
		c->overloaded = 1;
		req_free(r);
		return -1;	/* cannot hold the connection's promise: close it */
	}
	return 0;
}

static void
log_bad_stream(struct conn *c)
{
	static unsigned last_log;
	char peer[INET6_ADDRSTRLEN];

	getnameinfo((struct sockaddr *)&c->peer, c->peerlen, peer, sizeof(peer), NULL, 0,
	    NI_NUMERICHOST);
	/* Rate-limited: a hostile client makes one per connection. */
	log_ratelimited(&last_log, "closing connection from %s: %s", peer,
	    c->overloaded ? "too many requests queued" : "bad or oversized RPC record");
}

/*
 * The owner reads until the socket is drained (a short read: any later
 * byte raises a new edge), a limit pauses input, or the budget is spent
 * (then it asks for another turn, so other connections get theirs).
 * Returns -1 when the connection must close.
 */
static int
conn_read(struct conn *c)
{
	size_t budget = TCP_READ_BUDGET;

	while (budget > 0) {
		uint8_t *dst;
		size_t room;
		ssize_t n;
		int direct, full;

		pthread_mutex_lock(&c->lock);
		full = c->held_head != NULL || !may_start_locked(c);
		if (full)
			c->paused = 1;	/* conn_resume_locked asks for the rest */
		pthread_mutex_unlock(&c->lock);
		if (full)
			return 0;
		/* Large payloads (WRITE data) go straight into the record. */
		direct = recmark_direct(&c->rm, &dst, &room);
		if (direct < 0) {
			STAT_INC(ST_RECMARK_ERRORS);
			return -1;
		}
		if (direct == 0) {
			dst = rdbuf;
			room = sizeof(rdbuf);
		}
		n = read(c->fd, dst, room);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n <= 0)
			return -1;
		conn_touch(c);
		if ((direct ? recmark_direct_done(&c->rm, (size_t)n, tcp_record, c) :
		    recmark_feed(&c->rm, rdbuf, (size_t)n, tcp_record, c)) < 0) {
			if (!c->overloaded)
				STAT_INC(ST_RECMARK_ERRORS);
			log_bad_stream(c);
			return -1;
		}
		if ((size_t)n < room)
			return 0;	/* drained */
		/* More to read: what was queued should not wait for it. */
		workq_yield_credit();
		budget -= (size_t)n < budget ? (size_t)n : budget;
	}
	pthread_mutex_lock(&c->lock);
	c->again = 1;		/* the budget is spent: look again after the others */
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* ---- writing ---- */

/*
 * One thread at a time writes to a connection's socket (sending), and it
 * does so outside the lock: a loopback sendmsg runs the peer's receive
 * path too, and replies finishing meanwhile on other threads used to wait
 * for the lock and be woken one by one.  They now leave a copy on the
 * output queue and go on; the sender writes the queue after its own
 * reply, many replies in one sendmsg.  The fast path (nobody sending,
 * nothing queued) still writes straight from the caller's buffers.
 */
#define FLUSH_IOV 64
#define COPY_MAX 16384		/* larger replies wait for the sender instead */

/* Reads exactly n bytes from a pipe that holds them; 0 or -1. */
static int
pipe_take(int pipe, uint8_t *to, size_t n)
{
	while (n > 0) {
		ssize_t r = read(pipe, to, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		to += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * Queues what the socket did not take of a record, skip bytes into it, at
 * the tail or the head; 0 or -1.  With data_pipe, the unsent bytes of
 * iov[1] are read from it.
 */
static int
queue_record_locked(struct conn *c, const struct iovec *iov, int niov, size_t skip, int at_head,
    int data_pipe)
{
	size_t total = 0, at = 0;
	struct outchunk *o;

	for (int i = 0; i < niov; i++)
		total += iov[i].iov_len;
	o = malloc(sizeof(*o) + total - skip);
	if (o == NULL)
		return -1;
	for (int i = 0; i < niov; i++) {
		size_t n = iov[i].iov_len, from = 0;

		if (skip >= n) {
			skip -= n;
			continue;
		}
		from = skip;
		skip = 0;
		if (i == 1 && data_pipe >= 0) {
			if (pipe_take(data_pipe, o->data + at, n - from) < 0) {
				free(o);
				return -1;
			}
		} else {
			memcpy(o->data + at, (const uint8_t *)iov[i].iov_base + from, n - from);
		}
		at += n - from;
	}
	o->len = at;
	o->off = 0;
	if (c->out_head == NULL)
		c->out_moved = time(NULL);
	if (at_head) {
		o->next = c->out_head;
		c->out_head = o;
		if (c->out_tail == NULL)
			c->out_tail = o;
	} else {
		o->next = NULL;
		if (c->out_tail)
			c->out_tail->next = o;
		else
			c->out_head = o;
		c->out_tail = o;
	}
	c->out_bytes += o->len;
	reply_mem_add(o->len);
	return 0;
}

/* With c->lock held: n bytes of the queue's head went out. */
static void
queue_consume_locked(struct conn *c, size_t n)
{
	c->out_bytes -= n;
	reply_mem_sub(n);
	if (n > 0)
		c->out_moved = time(NULL);
	while (n > 0) {
		struct outchunk *o = c->out_head;
		size_t left = o->len - o->off;

		if (n < left) {
			o->off += n;
			return;
		}
		n -= left;
		c->out_head = o->next;
		if (c->out_head == NULL)
			c->out_tail = NULL;
		free(o);
	}
}

/*
 * With c->lock held by the sender: writes the queue until it is empty or
 * the socket is full, unlocking around each sendmsg (only the sender
 * removes chunks, so the ones named in v stay).  -1 if the connection broke.
 */
static int
conn_drain_locked(struct conn *c)
{
	while (c->out_head) {
		struct iovec v[FLUSH_IOV];
		struct msghdr mh = { .msg_iov = v };
		struct outchunk *o = c->out_head;
		ssize_t n;

		for (; o && mh.msg_iovlen < FLUSH_IOV; o = o->next) {
			v[mh.msg_iovlen].iov_base = o->data + o->off;
			v[mh.msg_iovlen++].iov_len = o->len - o->off;
		}
		c->out_kick = 0;
		pthread_mutex_unlock(&c->lock);
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		pthread_mutex_lock(&c->lock);
		if (n < 0) {
			if (errno == EINTR || (errno == EAGAIN && c->out_kick))
				continue;	/* room came while we were writing */
			return errno == EAGAIN ? 0 : -1;	/* EAGAIN: EPOLLOUT comes when it drains */
		}
		queue_consume_locked(c, (size_t)n);
	}
	return 0;
}

/*
 * With c->lock held by the sender: after a drain, the output may be back
 * within its limit; returns held requests that may start (see held_start).
 */
static struct rpc_req *
conn_send_done_locked(struct conn *c, int broken)
{
	c->sending = 0;
	if (c->send_waiters)
		pthread_cond_broadcast(&c->send_done);	/* one may queue and not send */
	if (broken) {
		shutdown(c->fd, SHUT_RDWR);	/* the hang-up reaches an owner, who closes */
		return NULL;
	}
	return conn_resume_locked(c);
}

static int
conn_writable(struct conn *c)
{
	struct rpc_req *start = NULL;
	int broken = 0;

	pthread_mutex_lock(&c->lock);
	if (c->sending) {
		c->out_kick = 1;	/* the sender writes again */
	} else {
		c->sending = 1;
		broken = conn_drain_locked(c) < 0;
		start = conn_send_done_locked(c, broken);
	}
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	return broken ? -1 : 0;
}

/*
 * Writes a reply whose data waits in a pipe: the header with MSG_MORE,
 * the data spliced from the pipe (the file's pages, never copied), the
 * tail.  Returns the bytes written (less than all when the socket is
 * full), or -1 if the connection broke.
 */
static ssize_t
send_spliced(int fd, const struct iovec *v, int data_pipe)
{
	size_t sent = 0;

	for (int i = 0; i < 3; i++) {
		size_t left = v[i].iov_len;
		int more = i < 2 && (i == 0 || v[2].iov_len > 0);

		while (left > 0) {
			ssize_t n;

			if (i == 1)
				n = splice(data_pipe, NULL, fd, NULL, left,
				    SPLICE_F_NONBLOCK | (more ? SPLICE_F_MORE : 0));
			else
				n = send(fd, (const uint8_t *)v[i].iov_base + (v[i].iov_len - left), left,
				    MSG_NOSIGNAL | MSG_DONTWAIT | (more ? MSG_MORE : 0));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				return (ssize_t)sent;
			if (n <= 0)
				return -1;
			left -= (size_t)n;
			sent += (size_t)n;
		}
	}
	return (ssize_t)sent;
}

int
conn_reply(struct conn *c, uint8_t *msg, const struct iovec *iov, int niov, int data_pipe)
{
	struct iovec v[REPLY_MAX_IOV];
	struct msghdr mh = { .msg_iov = v, .msg_iovlen = (size_t)niov };
	struct rpc_req *start;
	size_t len = 0, sent;
	ssize_t n;
	int broken, full = 0;

	/* The record mark goes into the headroom in front of the first piece. */
	for (int i = 0; i < niov; i++)
		len += iov[i].iov_len;
	be32_put(msg - REPLY_HEADROOM, RM_LAST_FRAG | (uint32_t)len);
	memcpy(v, iov, (size_t)niov * sizeof(*v));
	v[0].iov_base = msg - REPLY_HEADROOM;
	v[0].iov_len += REPLY_HEADROOM;
	pthread_mutex_lock(&c->lock);
	/* A large reply (READ data) waits for its turn rather than be copied. */
	while (c->sending && (len > COPY_MAX || data_pipe >= 0) && !c->closed) {
		c->send_waiters++;
		pthread_cond_wait(&c->send_done, &c->lock);
		c->send_waiters--;
	}
	if (c->closed) {
		pthread_mutex_unlock(&c->lock);
		return data_pipe >= 0 ? -1 : 0;
	}
	if (c->sending || c->out_head) {
		/* The sender, or the EPOLLOUT edge, writes it after what is queued. */
		broken = queue_record_locked(c, v, niov, 0, 0, data_pipe) < 0;
		STAT_INC(ST_REPLIES_QUEUED);
		if (broken)
			shutdown(c->fd, SHUT_RDWR);
		pthread_mutex_unlock(&c->lock);
		return broken ? -1 : 0;
	}
	c->sending = 1;
	pthread_mutex_unlock(&c->lock);
	if (data_pipe >= 0) {
		n = send_spliced(c->fd, v, data_pipe);
	} else {
		do
			n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		while (n < 0 && errno == EINTR);
		if (n < 0 && errno == EAGAIN)
			n = 0;
	}
	broken = n < 0;
	sent = n > 0 ? (size_t)n : 0;
	pthread_mutex_lock(&c->lock);
	if (!broken && sent < len + REPLY_HEADROOM) {
		/* The rest goes first: others queued theirs behind it meanwhile. */
		broken = queue_record_locked(c, v, niov, sent, 1, data_pipe) < 0;	/* a partial record cannot be taken back */
		STAT_INC(ST_REPLIES_QUEUED);
		full = 1;
	}
	if (!broken && c->out_head && (!full || c->out_kick))
		broken = conn_drain_locked(c) < 0;
	start = conn_send_done_locked(c, broken);
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	return broken && data_pipe >= 0 ? -1 : 0;
}

/* ---- events ---- */

/* The slot an event names; whether it is still that connection is checked under its lock. */
static struct conn *
conn_lookup(uint64_t data)
{
	uint32_t slot = (uint32_t)data;

	return slot < slots_cap ? slots[slot] : NULL;
}

/* The owner's turn: hang-up, output, input; -1 when the connection must close. */
static int
conn_serve(struct conn *c, uint32_t events)
{
	if (events & (EPOLLHUP | EPOLLERR)) {
		/*
		 * Calls that came before the hang-up still run (their replies
		 * go nowhere): a client may send a one-way NLM _MSG and reset
		 * the connection at once.
		 */
		conn_read(c);
		return -1;
	}
	if ((events & EPOLLOUT) && conn_writable(c) < 0)
		return -1;
	if (events & EPOLLIN)
		return conn_read(c);
	return 0;
}

void
conn_event(uint64_t data, uint32_t events)
{
	struct conn *c = conn_lookup(data);

	if (c == NULL)
		return;
	pthread_mutex_lock(&c->lock);
	if (!c->in_use || c->closed || conn_ev_data(c) != data) {
		pthread_mutex_unlock(&c->lock);
		return;		/* a stale event of a recycled slot */
	}
	if (c->owned) {
		c->again = 1;
		pthread_mutex_unlock(&c->lock);
		return;
	}
	c->owned = 1;
	c->refs++;
	pthread_mutex_unlock(&c->lock);
	while (conn_serve(c, events) == 0) {
		int again;

		pthread_mutex_lock(&c->lock);
		again = c->again;
		c->again = 0;
		if (!again)
			c->owned = 0;
		pthread_mutex_unlock(&c->lock);
		if (!again)
			goto out;
		workq_yield_credit();	/* queued calls should not wait for this turn */
		events = EPOLLIN | EPOLLOUT;
	}
	conn_close(c);
out:
	conn_unref(c);
}

/* ---- requests ---- */

void
conn_request_done(struct conn *c, size_t reserved)
{
	struct rpc_req *start;

	reply_mem_sub(reserved);
	pthread_mutex_lock(&c->lock);
	c->inflight--;
	start = conn_resume_locked(c);	/* a slot is free: held requests go to work */
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	conn_unref(c);
}

int
conn_local_fd(const struct conn *c)
{
	return c->fd;
}

/* ---- housekeeping ---- */

static int
by_out_bytes_desc(const void *a, const void *b)
{
	const struct conn *x = *(struct conn *const *)a, *y = *(struct conn *const *)b;

	return x->out_bytes < y->out_bytes ? 1 : x->out_bytes > y->out_bytes ? -1 : 0;
}

/*
 * Once a second, for the global reply budget.  Over it, the connections
 * whose queued replies have not moved for STALL_SECS (their clients do not
 * read) are closed, the largest queues first, until a quarter of the
 * budget is free: they are what overdraws it.  Then the connections that
 * wait for the budget are looked at again (their own events may never
 * come: nothing of theirs runs or is queued).
 */
static void
budget_tick(time_t now)
{
	unsigned n = 0, waiting = 0;

	pthread_mutex_lock(&conns_lock);
	for (struct conn *c = TAILQ_FIRST(&lru); c; c = TAILQ_NEXT(c, lru)) {
		pthread_mutex_lock(&c->lock);
		if (c->budget_paused || (c->out_bytes > 0 && now - c->out_moved >= STALL_SECS)) {
			c->refs++;
			tick_conns[n++] = c;
			waiting += c->budget_paused;
		}
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&conns_lock);
	if (conns_reply_memory() >= reply_budget) {
		/* out_bytes only shrinks meanwhile: a stale order is still a fair one */
		qsort(tick_conns, n, sizeof(*tick_conns), by_out_bytes_desc);
		for (unsigned i = 0; i < n && conns_reply_memory() > reply_budget / 4 * 3; i++) {
			struct conn *c = tick_conns[i];
			int stalled;

			pthread_mutex_lock(&c->lock);
			stalled = c->out_bytes > 0 && now - c->out_moved >= STALL_SECS;
			pthread_mutex_unlock(&c->lock);
			if (stalled) {
				STAT_INC(ST_TCP_BUDGET_DROPS);
				conn_close(c);
			}
		}
	}
	for (unsigned i = 0; i < n; i++) {
		struct conn *c = tick_conns[i];
		struct rpc_req *start = NULL;

		if (waiting) {
			pthread_mutex_lock(&c->lock);
			if (c->budget_paused && !c->closed)
				start = conn_resume_locked(c);
			pthread_mutex_unlock(&c->lock);
			held_start(c, start);
		}
		conn_unref(c);
	}
}

void
conns_tick(void)
{
	time_t now = time(NULL);

	budget_tick(now);
	for (;;) {
		struct conn *c, *stale = NULL;

		pthread_mutex_lock(&conns_lock);
		/* From the cold end; the rest were active more recently. */
		for (c = TAILQ_LAST(&lru, conn_list); c && now - c->last_active > CONN_IDLE_SECS;
		    c = TAILQ_PREV(c, conn_list, lru)) {
			int idle;

			pthread_mutex_lock(&c->lock);
			idle = c->inflight == 0 && c->out_bytes == 0;
			pthread_mutex_unlock(&c->lock);
			if (idle) {
				stale = c;
				conn_hold_locked(c);
				break;
			}
		}
		pthread_mutex_unlock(&conns_lock);
		if (stale == NULL)
			return;
		STAT_INC(ST_TCP_IDLE_CLOSED);
		conn_close(stale);
		conn_unref(stale);
	}
}

unsigned
conns_open_count(void)
{
	unsigned n;

	pthread_mutex_lock(&conns_lock);
	n = nconns;
	pthread_mutex_unlock(&conns_lock);
	return n;
}

void
conns_close_all(void)
{
	while (!TAILQ_EMPTY(&lru))
		conn_close(TAILQ_FIRST(&lru));
}
