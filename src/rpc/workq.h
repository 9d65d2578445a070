/*
 * The thread pool: a thread with nothing to run reads the sockets
 * (transport_wait) and queues whole requests here, and threads run them to
 * completion, reply included (usually the one that read it). Each client address has
 * its own queue and the clients with work are served in turn, one request
 * each, so one client's flood does not delay the others; transport.c also
 * bounds what each connection may have in flight.
 */
#ifndef USERNFSD_WORKQ_H
#define USERNFSD_WORKQ_H

#include <stddef.h>
#include <stdint.h>

struct rpc_req;
struct worker;

/*
 * What the pool needs from the rest of the daemon (daemon.c fills it in):
 * the calls' side (dispatch.c) and the sockets' (transport.c), so that the
 * work queue includes neither.
 */
struct workq_hooks {
	void (*run)(struct worker *w, struct rpc_req *req);	/* serves and frees req */
	/* Is req a bulk call (one that may wait on the disk)? See workq.c. */
	int (*is_bulk)(const struct rpc_req *req);
	struct worker *(*new_worker)(void);
	void (*free_worker)(struct worker *w);
	/* Nothing to run: wait for, or poll, one socket event; kicks taken in. */
	unsigned (*wait)(void);
	unsigned (*poll)(void);
	void (*kick)(void);		/* wakes one waiting thread */
	void (*wake_all)(void);		/* at the stop: every waiting thread, for good */
};

int workq_start(unsigned nthreads, const struct workq_hooks *hooks);
/* Returns -1 when the queue, or this client's share of it, is full (drop or defer). */
int workq_push(struct rpc_req *req);
/* Classifies req (bulk or light, as workq_push will), once; 1 if bulk. */
int workq_is_bulk(struct rpc_req *req);
/*
 * The calling thread will not look at the queue soon (it has more input to
 * read): a call it queued, counting on that, wakes another thread instead.
 */
void workq_yield_credit(void);
size_t workq_length(void);
/* Calls queued since the start: the main loop's measure of activity. */
uint64_t workq_pushed(void);
void workq_stop(void);

#endif
