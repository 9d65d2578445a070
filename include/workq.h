/*
 * The worker pool: the I/O thread queues decoded-enough requests here and
 * worker threads run them to completion, reply included. One FIFO keeps the
 * design simple; per-client fairness is added by bounding what each
 * connection may have in flight (transport.c).
 */
#ifndef USERNFSD_WORKQ_H
#define USERNFSD_WORKQ_H

#include <stddef.h>

struct rpc_req;
struct worker;

typedef void (*workq_fn)(struct worker *w, struct rpc_req *req);
typedef struct worker *(*worker_new_fn)(void);
typedef void (*worker_free_fn)(struct worker *w);

int workq_start(unsigned nthreads, workq_fn fn, worker_new_fn mk, worker_free_fn rm);
/* Returns -1 when the queue is full (the caller drops or defers the request). */
int workq_push(struct rpc_req *req);
size_t workq_length(void);
void workq_stop(void);

#endif
