/*
 * A fixed pool of threads fed from per-client queues served in turn: a
 * client that floods the server waits behind its own requests while
 * everyone else's still get a thread at once.
 *
 * The same threads read the sockets: one with nothing to run waits in
 * transport_wait, queues what it reads and then takes the queue's next
 * call itself.  At light load that is the call it just read, run on the
 * thread that read it: no hand-off, no second wake-up.  So the first call
 * a thread queues needs nobody woken (it holds a credit: it looks at the
 * queue next); every further one wakes a waiting thread (transport_kick).
 * A thread that will not be back soon (more input to read) yields its
 * credit: what it queued wakes someone else.
 *
 * Within a client's queue, bulk calls (those the procedure tables mark
 * PROC_BULK: data I/O and calls that sync, milliseconds each) and light
 * ones (everything else: microseconds) wait apart, light first but never more than
 * LIGHT_STREAK in a row while bulk waits; and bulk calls may occupy all
 * workers but BULK_SPARE.  So a GETATTR never queues behind a stream of
 * 1 MiB WRITEs, its own client's or anyone's, and no worker is left free
 * only to find every bulk call blocked.  NFS answers calls in flight in
 * any order, so this reordering is the protocol's, not a liberty.
 *
 * The sockets' side (transport_wait, _poll, _kick, _wake_all) and the
 * calls' (dispatch_request, dispatch_is_bulk) are reached through struct
 * workq_hooks, which daemon.c fills in: this file includes only the
 * request object (req.h), and the transport includes the work queue, not
 * the other way round.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "stats.h"
#include "sockaddr.h"
#include "req.h"
#include "workq.h"

#define WORKQ_MAX 4096		/* queued requests in all */
#define WORKQ_CLIENT_MAX 1024	/* queued requests of one client address */
#define NCLIENTQ 256		/* client queues hashed by address */
#define LIGHT_STREAK 4		/* light calls taken in a row while bulk ones wait */
#define BULK_SPARE 2		/* workers that bulk calls leave to light ones */

struct fifo {
	struct rpc_req *head, *tail;
};

/* The queue of one client (source address, any port), in the ring while it has work. */
struct clientq {
	struct sockaddr_storage addr;
	struct fifo light, bulk;
	unsigned light_streak;
	size_t len;
	struct clientq *ring_next;
	int in_ring;
	int used;
};

static pthread_mutex_t q_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
/* While stopping, threads with nothing runnable wait here (no more input is read). */
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static struct clientq clients[NCLIENTQ];
static struct clientq *ring_head, *ring_tail;	/* clients with work, served in turn */
static size_t q_len;
static uint64_t q_pushed;	/* calls queued since the start (workq_pushed) */
static unsigned q_idle;		/* threads waiting in transport_wait */
/*
 * Wake-ups sent and not yet seen arrive.  Wake only for queued calls
 * beyond these: at saturation, a wake-up for every call queued woke
 * threads that found the queue already taken (5% of the server's time in
 * eventfd writes, and contention on q_lock).  Kicks that reach one waiter
 * together are counted off together, and the thread woken passes the
 * wake-up on (worker_main) while more is queued, so none is lost.
 */
static unsigned q_kicked;
static __thread int tl_credit;	/* this thread looks at the queue next */
static __thread int tl_pushed;	/* ... and a call it queued is counting on that */
static unsigned bulk_running, bulk_max = 1;
static int q_stopping;
static int q_stopped;		/* workq_stop is done: no worker is left */
static pthread_t *threads;
static unsigned nthreads_started;
static struct workq_hooks q_hooks;

static unsigned
host_hash(const struct sockaddr_storage *a)
{
	return sockaddr_host_hash(a) % NCLIENTQ;
}

/*
 * The queue for req's client, with q_lock held. Open addressing; when the
 * table is full of clients with work, hosts share a queue: fairness
 * degrades to groups, nothing is refused for it.
 */
static struct clientq *
clientq_for(const struct rpc_req *req)
{
	unsigned h = host_hash(&req->peer);
	struct clientq *free_slot = NULL;

	for (unsigned i = 0; i < NCLIENTQ; i++) {
		struct clientq *c = &clients[(h + i) % NCLIENTQ];

		if (!c->used)
			break;		/* the end of this address's probe chain */
		if (sockaddr_same_host(&c->addr, &req->peer))
			return c;
		if (c->len == 0 && free_slot == NULL)
			free_slot = c;	/* idle: may be taken over */
	}
	for (unsigned i = 0; free_slot == NULL && i < NCLIENTQ; i++) {
		struct clientq *c = &clients[(h + i) % NCLIENTQ];
		if (!c->used || c->len == 0)
			free_slot = c;
	}
	if (free_slot == NULL)
		return &clients[h];
	free_slot->used = 1;
	free_slot->addr = req->peer;
	return free_slot;
}

static void
ring_push(struct clientq *c)
{
	c->ring_next = NULL;
	c->in_ring = 1;
	if (ring_tail)
		ring_tail->ring_next = c;
	else
		ring_head = c;
	ring_tail = c;
}

static void
fifo_push(struct fifo *f, struct rpc_req *req)
{
	req->next = NULL;
	if (f->tail)
		f->tail->next = req;
	else
		f->head = req;
	f->tail = req;
}

static struct rpc_req *
fifo_pop(struct fifo *f)
{
	struct rpc_req *req = f->head;

	f->head = req->next;
	if (f->head == NULL)
		f->tail = NULL;
	req->next = NULL;
	return req;
}

/* Which of c's queues to serve now, or NULL if neither may run. */
static struct fifo *
pick(struct clientq *c)
{
	int bulk_ok = c->bulk.head != NULL && bulk_running < bulk_max;

	if (c->light.head != NULL && (!bulk_ok || c->light_streak < LIGHT_STREAK)) {
		c->light_streak++;
		return &c->light;
	}
	if (bulk_ok) {
		c->light_streak = 0;
		return &c->bulk;
	}
	return NULL;
}

/*
 * With q_lock held: the next request that may run, clients in turn, or
 * NULL (nothing queued, or only bulk calls with the bulk workers busy).
 */
static struct rpc_req *
take_locked(int *bulk)
{
	struct clientq *prev = NULL, *c;

	for (c = ring_head; c != NULL; prev = c, c = c->ring_next) {
		struct fifo *f = pick(c);
		struct rpc_req *req;

		if (f == NULL)
			continue;
		req = fifo_pop(f);
		*bulk = f == &c->bulk;
		if (*bulk)
			bulk_running++;
		/* out of the ring, and to the back if it has more: one per turn */
		if (prev)
			prev->ring_next = c->ring_next;
		else
			ring_head = c->ring_next;
		if (ring_tail == c)
			ring_tail = prev;
		c->in_ring = 0;
		c->len--;
		q_len--;
		if (c->len > 0)
			ring_push(c);
		return req;
	}
	return NULL;
}

/* With q_lock held: should a waiting thread be woken for what is queued? (counts it) */
static int
wake_one_locked(void)
{
	if (q_idle > q_kicked && q_len > q_kicked && !q_stopping) {
		q_kicked++;
		return 1;
	}
	return 0;
}

/*
 * Input is read by threads with nothing to run.  When every thread is
 * busy and the queue never empties (a client keeping thousands of calls
 * in flight), nobody would read the sockets until it did, and a call from
 * anyone else would wait behind the whole queue unread, where fairness
 * cannot see it.  So a busy thread looks at the sockets without waiting
 * when no thread waits there and no busy one has looked for POLL_GAP_US;
 * one at a time.
 */
#define POLL_GAP_US 250

static uint64_t last_poll_us;	/* under q_lock: when a busy thread last looked */
static int polling;

/* With q_lock held: is it a busy thread's turn to look at the sockets? (claims it) */
static int
poll_due_locked(void)
{
	if (q_idle > 0 || polling || q_stopping)
		return 0;	/* a waiting thread gets the events itself */
	if (stats_now_us() - last_poll_us < POLL_GAP_US)
		return 0;
	polling = 1;
	return 1;
}

static void *
worker_main(void *arg)
{
	struct worker *w = q_hooks.new_worker();

	(void)arg;
	pthread_mutex_lock(&q_lock);
	for (;;) {
		struct rpc_req *req;
		int bulk = 0, wake;
		unsigned kicks;

		if (q_len > 0 && poll_due_locked()) {
			pthread_mutex_unlock(&q_lock);
			tl_credit = 1;		/* it takes from the queue right after */
			tl_pushed = 0;
			kicks = q_hooks.poll();
			tl_credit = 0;
			pthread_mutex_lock(&q_lock);
			polling = 0;
			last_poll_us = stats_now_us();
			q_kicked -= kicks < q_kicked ? kicks : q_kicked;
		}
		if ((req = take_locked(&bulk)) != NULL) {
			/* More queued than this thread takes: pass the wake-up on. */
			wake = wake_one_locked();
			pthread_mutex_unlock(&q_lock);
			if (wake)
				q_hooks.kick();
			tl_credit = 1;
			tl_pushed = 0;
			q_hooks.run(w, req);
			tl_credit = 0;
			pthread_mutex_lock(&q_lock);
			if (bulk) {
				bulk_running--;
				if (q_stopping && q_len > 0)
					pthread_cond_signal(&q_cond);	/* a bulk call may wait for this */
			}
			continue;
		}
		if (q_stopping) {
			if (q_len == 0)
				break;
			pthread_cond_wait(&q_cond, &q_lock);
			continue;
		}
		q_idle++;
		pthread_mutex_unlock(&q_lock);
		tl_credit = 1;
		tl_pushed = 0;
		kicks = q_hooks.wait();
		tl_credit = 0;
		pthread_mutex_lock(&q_lock);
		q_idle--;
		q_kicked -= kicks < q_kicked ? kicks : q_kicked;
	}
	pthread_mutex_unlock(&q_lock);
	q_hooks.free_worker(w);
	return NULL;
}

int
workq_start(unsigned nthreads, const struct workq_hooks *hooks)
{
	sigset_t all, old;
	int rc = 0;

	q_hooks = *hooks;
	bulk_max = nthreads > BULK_SPARE ? nthreads - BULK_SPARE : 1;
	threads = calloc(nthreads, sizeof(*threads));
	if (threads == NULL)
		return -1;
	/* Workers never take signals: the main loop does. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (unsigned i = 0; i < nthreads; i++) {
		rc = pthread_create(&threads[i], NULL, worker_main, NULL);
		if (rc != 0) {
			errno = rc;
			rc = -1;
			break;
		}
		nthreads_started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int
workq_push(struct rpc_req *req)
{
	struct clientq *c;
	int bulk = req->bulk >= 0 ? req->bulk : q_hooks.is_bulk(req), wake = 0;

#ifndef USERNFSD_NO_STATS
	req->queued_us = stats_now_us();	/* queue wait: dispatch_request takes the difference */
#endif
	pthread_mutex_lock(&q_lock);
	c = clientq_for(req);
	/*
	 * While stopping, only workers push (transport.c starts a connection's
	 * held requests as earlier ones finish), and the pushing worker looks
	 * at the queue again before it may exit: take those, so that every
	 * call read before the stop is still answered.
	 */
	if (q_len >= WORKQ_MAX || c->len >= WORKQ_CLIENT_MAX || q_stopped) {
		pthread_mutex_unlock(&q_lock);
		return -1;
	}
	fifo_push(bulk ? &c->bulk : &c->light, req);
	c->len++;
	q_len++;
	__atomic_store_n(&q_pushed, q_pushed + 1, __ATOMIC_RELAXED);	/* read unlocked */
	if (!c->in_ring)
		ring_push(c);
	if (tl_credit && !tl_pushed)
		tl_pushed = 1;		/* this thread takes it (or a fairer one) next */
	else
		wake = wake_one_locked();
	if (q_stopping)
		pthread_cond_signal(&q_cond);
	pthread_mutex_unlock(&q_lock);
	if (wake)
		q_hooks.kick();
	return 0;
}

int
workq_is_bulk(struct rpc_req *req)
{
	if (req->bulk < 0)
		req->bulk = q_hooks.is_bulk(req) != 0;
	return req->bulk;
}

void
workq_yield_credit(void)
{
	int wake;

	if (!tl_pushed)
		return;
	tl_pushed = 0;
	pthread_mutex_lock(&q_lock);
	wake = wake_one_locked();
	pthread_mutex_unlock(&q_lock);
	if (wake)
		q_hooks.kick();
}

uint64_t
workq_pushed(void)
{
	return __atomic_load_n(&q_pushed, __ATOMIC_RELAXED);
}

size_t
workq_length(void)
{
	size_t n;

	pthread_mutex_lock(&q_lock);
	n = q_len;
	pthread_mutex_unlock(&q_lock);
	return n;
}

void
workq_stop(void)
{
	pthread_mutex_lock(&q_lock);
	q_stopping = 1;
	pthread_cond_broadcast(&q_cond);
	pthread_mutex_unlock(&q_lock);
	q_hooks.wake_all();	/* out of transport_wait; nothing more is read */
	/* Requests already queued still run, so nothing accepted is lost. */
	for (unsigned i = 0; i < nthreads_started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_lock(&q_lock);
	q_stopped = 1;
	pthread_mutex_unlock(&q_lock);
	free(threads);
	threads = NULL;
	nthreads_started = 0;
}
