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
 * Workers write replies straight into the socket, one thread at a time;
 * what it does not take waits on the output queue and is written on
 * EPOLLOUT (tcpsend.c).  Limits per connection (CONN_MAX_INFLIGHT calls
 * running, CONN_MAX_OUTBYTES unsent) and the reply memory of all of them
 * (tcpbudget.c) pause input; the request or flush that brings the
 * connection back within them resumes it (conn_resume_locked).
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

#include <errno.h>
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

#include "log.h"
#include "stats.h"
#include "tcpconn_impl.h"
#include "workq.h"

#define CONN_IDLE_SECS 360
#define TCP_READ_BUDGET (1u << 20)
#define READ_CHUNK 65536
#define VICTIM_LOOK 64

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

void
conns_init(int epfd, unsigned max)
{
	ep = epfd;
	max_conns = max;
	/* Closed connections wait for their last request; new ones still come in. */
	slots_cap = 2 * max + 64;
	slots = calloc(slots_cap, sizeof(*slots));
	if (slots == NULL)
		fatal("connection table");
	budget_init(slots_cap);
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
		STAILQ_INIT(&c->outq);
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

	outq_free(c);
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

void
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
 * and within the global reply budget (tcpbudget.c); a connection held
 * back by the budget alone is marked, for the tick and the statistics.
 */
static int
may_start_locked(struct conn *c)
{
	if (c->inflight >= CONN_MAX_INFLIGHT || c->out_bytes >= CONN_MAX_OUTBYTES)
		return 0;
	if (budget_allows(c)) {
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
struct rpc_req *
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
void
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

void
conn_resume(struct conn *c)
{
	struct rpc_req *start = NULL;

	pthread_mutex_lock(&c->lock);
	if (c->budget_paused && !c->closed)
		start = conn_resume_locked(c);
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
}

unsigned
conns_hold_if(int (*pick)(const struct conn *c, time_t now), time_t now, struct conn **out)
{
	unsigned n = 0;

	pthread_mutex_lock(&conns_lock);
	for (struct conn *c = TAILQ_FIRST(&lru); c; c = TAILQ_NEXT(c, lru)) {
		pthread_mutex_lock(&c->lock);
		if (pick(c, now)) {
			c->refs++;
			out[n++] = c;
		}
		pthread_mutex_unlock(&c->lock);
	}
	pthread_mutex_unlock(&conns_lock);
	return n;
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
void
conn_close(struct conn *c)
{
	struct rpc_req *held;

	pthread_mutex_lock(&c->lock);
	if (c->closed) {
		pthread_mutex_unlock(&c->lock);
		return;
	}
	c->closed = 1;
	if (c->send_waiters)
		pthread_cond_broadcast(&c->send_done);	/* replies waiting for the socket: it is gone */
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

/* ---- calls back on a connection (backchannel.c) ---- */

static int (*reply_taker)(struct conn *c, uint8_t *rec, size_t len);

void
conns_set_reply_taker(int (*fn)(struct conn *c, uint8_t *rec, size_t len))
{
	reply_taker = fn;
}

int
conn_hold(struct conn *c)
{
	int r = -1;

	pthread_mutex_lock(&c->lock);
	if (c->in_use && !c->closed) {
		c->refs++;
		r = 0;
	}
	pthread_mutex_unlock(&c->lock);
	return r;
}

void
conn_release(struct conn *c)
{
	conn_unref(c);
}

int
conn_is_open(struct conn *c)
{
	int open;

	pthread_mutex_lock(&c->lock);
	open = c->in_use && !c->closed;
	pthread_mutex_unlock(&c->lock);
	return open;
}

int
conn_seems_open(struct conn *c)
{
	return __atomic_load_n(&c->in_use, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&c->closed, __ATOMIC_RELAXED);
}

/* ---- reading ---- */

/* An RPC message whose direction (its second word) is REPLY (1). */
static int
is_reply(const uint8_t *rec, size_t len)
{
	return len >= 8 && rec[4] == 0 && rec[5] == 0 && rec[6] == 0 && rec[7] == 1;
}

static int
tcp_record(void *arg, uint8_t *rec, size_t len)
{
	struct conn *c = arg;
	struct rpc_req *r;

	/* A client's answer to a call of ours: to the caller waiting for it, not a worker. */
	if (reply_taker && is_reply(rec, len) && reply_taker(c, rec, len))
		return 0;
	if ((r = req_new(rec, len)) == NULL) {
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

	if (reserved)
		reply_mem_sub(reserved);	/* bulk calls only: light ones touch no shared line */
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
