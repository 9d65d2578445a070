/*
 * Inside the TCP connections, shared by the three files that make them:
 * tcpconn.c (slots, accepting, reading, limits, events, closing),
 * tcpsend.c (the reply path: writing, the output queue, splicing READ
 * data) and tcpbudget.c (the reply memory of all connections together).
 * Nothing outside those three includes this; the rest of the daemon sees
 * tcpconn.h.
 */
#ifndef USERNFSD_TCPCONN_IMPL_H
#define USERNFSD_TCPCONN_IMPL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "queue.h"
#include "recmark.h"
#include "tcpconn.h"
#include "transport.h"

#define CONN_MAX_INFLIGHT 64
#define CONN_MAX_OUTBYTES (8u << 20)
/* A bulk call (READ data) reserves its largest reply while it runs. */
#define BULK_RESERVE RPC_MAX_RECORD

/* What the socket did not take of one or more replies. */
struct outchunk {
	STAILQ_ENTRY(outchunk) next;
	size_t mapped;		/* its mapping's size, or 0: from malloc */
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
	STAILQ_HEAD(, outchunk) outq;
	/* under conns_lock */
	int listed;		/* in the list of open connections */
	time_t last_active;
	TAILQ_ENTRY(conn) lru;		/* open connections, most recently active first */
	struct conn *free_next;
};

/* ---- tcpconn.c ---- */
/* With c->lock held: held requests that may start now (for held_start). */
struct rpc_req *conn_resume_locked(struct conn *c);
/* Queues what conn_resume_locked returned; the caller holds a reference. */
void held_start(struct conn *c, struct rpc_req *list);
/* Looks again at a connection that may start held requests now. */
void conn_resume(struct conn *c);
/* By the owner, or anyone holding a reference: closes c (once). */
void conn_close(struct conn *c);
void conn_unref(struct conn *c);
/*
 * Takes a reference to each open connection for which pick (called with
 * its lock held) says 1, into out (room for every slot); returns how many.
 */
unsigned conns_hold_if(int (*pick)(const struct conn *c, time_t now), time_t now,
    struct conn **out);

/* ---- tcpsend.c ---- */
/* EPOLLOUT: writes what waits; -1 if the connection broke. */
int conn_writable(struct conn *c);
/* The last reference went: frees the output queue (no lock needed). */
void outq_free(struct conn *c);

/* ---- tcpbudget.c ---- */
/* Bytes of reply memory in use, all connections (relaxed atomics). */
extern size_t tcp_reply_mem;
extern size_t tcp_reply_budget;

static inline void
reply_mem_add(size_t n)
{
	__atomic_add_fetch(&tcp_reply_mem, n, __ATOMIC_RELAXED);
}

static inline void
reply_mem_sub(size_t n)
{
	__atomic_sub_fetch(&tcp_reply_mem, n, __ATOMIC_RELAXED);
}

/*
 * With c->lock held: may c start a call, as far as the global budget is
 * concerned?  While a bulk reply still fits, yes; over it, only a
 * connection with nothing running and nothing queued, and only while the
 * budget's last eighth lasts (see tcpbudget.c).
 */
static inline int
budget_allows(const struct conn *c)
{
	size_t used = __atomic_load_n(&tcp_reply_mem, __ATOMIC_RELAXED);

	return used + BULK_RESERVE <= tcp_reply_budget ||
	    (c->inflight == 0 && c->out_bytes == 0 && used < tcp_reply_budget + tcp_reply_budget / 8);
}

void budget_init(unsigned nslots);
/* Once a second (conns_tick): closes stalled connections over budget, resumes the waiting. */
void budget_tick(time_t now);

#endif
