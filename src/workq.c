/*
 * A fixed pool of worker threads fed from per-client queues served in
 * turn: a client that floods the server waits behind its own requests
 * while everyone else's still get a worker at once.
 */
#include "config.h"

#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "transport.h"
#include "workq.h"

#define WORKQ_MAX 4096		/* queued requests in all */
#define WORKQ_CLIENT_MAX 1024	/* queued requests of one client address */
#define NCLIENTQ 256		/* client queues hashed by address */

/* The queue of one client (source address, any port), in the ring while it has work. */
struct clientq {
	struct sockaddr_storage addr;
	struct rpc_req *head, *tail;
	size_t len;
	struct clientq *ring_next;
	int in_ring;
	int used;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cond = PTHREAD_COND_INITIALIZER;
static struct clientq clients[NCLIENTQ];
static struct clientq *ring_head, *ring_tail;	/* clients with work, served in turn */
static size_t q_len;
static int q_stopping;
static int q_stopped;		/* workq_stop is done: no worker is left */
static pthread_t *threads;
static unsigned nthreads_started;
static workq_fn q_fn;
static worker_new_fn q_mk;
static worker_free_fn q_rm;

static int
same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		    &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return 0;
}

static unsigned
host_hash(const struct sockaddr_storage *a)
{
	const uint8_t *p;
	size_t n;
	uint32_t h = 2166136261u;

	if (a->ss_family == AF_INET) {
		p = (const uint8_t *)&((const struct sockaddr_in *)a)->sin_addr;
		n = 4;
	} else if (a->ss_family == AF_INET6) {
		p = (const uint8_t *)&((const struct sockaddr_in6 *)a)->sin6_addr;
		n = 16;
	} else {
		return 0;
	}
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h % NCLIENTQ;
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
		if (same_host(&c->addr, &req->peer))
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

/* With q_lock held and work queued: the next request, clients in turn. */
static struct rpc_req *
take_locked(void)
{
	struct clientq *c = ring_head;
	struct rpc_req *req = c->head;

	ring_head = c->ring_next;
	if (ring_head == NULL)
		ring_tail = NULL;
	c->in_ring = 0;
	c->head = req->next;
	if (c->head == NULL)
		c->tail = NULL;
	c->len--;
	q_len--;
	if (c->len > 0)
		ring_push(c);	/* to the back: one request per client per turn */
	req->next = NULL;
	return req;
}

static void *
worker_main(void *arg)
{
	struct worker *w = q_mk();

	(void)arg;
	for (;;) {
		struct rpc_req *req;

		pthread_mutex_lock(&q_lock);
		while (ring_head == NULL && !q_stopping)
			pthread_cond_wait(&q_cond, &q_lock);
		if (ring_head == NULL) {
			pthread_mutex_unlock(&q_lock);
			break;
		}
		req = take_locked();
		pthread_mutex_unlock(&q_lock);
		q_fn(w, req);
	}
	q_rm(w);
	return NULL;
}

int
workq_start(unsigned nthreads, workq_fn fn, worker_new_fn mk, worker_free_fn rm)
{
	sigset_t all, old;
	int rc = 0;

	q_fn = fn;
	q_mk = mk;
	q_rm = rm;
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
	req->next = NULL;
	if (c->tail)
		c->tail->next = req;
	else
		c->head = req;
	c->tail = req;
	c->len++;
	q_len++;
	if (!c->in_ring)
		ring_push(c);
	pthread_cond_signal(&q_cond);
	pthread_mutex_unlock(&q_lock);
	return 0;
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
