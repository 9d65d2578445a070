/*
 * conn.c - nfsbench's connections (one libnfs rpc_context each, straight
 * to the NFS and MOUNT ports given: no portmapper) and the poll loop that
 * keeps calls in flight on several of them at once.
 */
#include "nfsbench.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Replies seen by this thread: the stall detector watches it move. */
static __thread uint64_t completions;

struct req *req_new(struct conn *c, req_done done, void *ctx)
{
	struct req *rq = calloc(1, sizeof(*rq));

	if (!rq) {
		bench_error("out of memory");
		abort();
	}
	rq->c = c;
	rq->done = done;
	rq->ctx = ctx;
	rq->t0 = now_ns();
	c->inflight++;
	return rq;
}

void req_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct req *rq = priv;

	(void)rpc;
	rq->c->inflight--;
	completions++;
	if (status != RPC_STATUS_SUCCESS) {
		bench_error("connection %d: call failed: %s", rq->c->id,
			    status == RPC_STATUS_ERROR ? (const char *)data :
			    status == RPC_STATUS_CANCEL ? "cancelled" : "timed out");
		data = NULL;
	}
	rq->done(rq, data);
	free(rq);
}

int req_queue_failed(struct req *rq, const char *proc)
{
	bench_error("connection %d: cannot queue %s: %s", rq->c->id, proc,
		    rpc_get_error(rq->c->rpc));
	rq->c->inflight--;
	free(rq);
	return -1;
}

/* ---- one-off waits, for connecting and mounting ---- */

struct wait { int done, status; char err[256]; struct fh fh; int mntstat; };

static void connect_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct wait *w = priv;

	(void)rpc;
	w->done = 1;
	w->status = status;
	if (status != RPC_STATUS_SUCCESS && data)
		snprintf(w->err, sizeof(w->err), "%s", (const char *)data);
}

static int wait_one(struct rpc_context *rpc, struct wait *w)
{
	uint64_t deadline = now_ns() + (uint64_t)(O.stall_s * 1e9);

	while (!w->done) {
		struct pollfd p = { rpc_get_fd(rpc), (short)rpc_which_events(rpc), 0 };

		if (now_ns() > deadline) {
			snprintf(w->err, sizeof(w->err), "no answer within %.0f s", O.stall_s);
			return -1;
		}
		if (poll(&p, 1, 100) < 0)
			continue;
		if (p.revents && rpc_service(rpc, p.revents) < 0) {
			snprintf(w->err, sizeof(w->err), "%s", rpc_get_error(rpc));
			return -1;
		}
	}
	return w->status == RPC_STATUS_SUCCESS ? 0 : -1;
}

struct rpc_context *connect_to(int port, int prog, int vers)
{
	struct rpc_context *rpc = rpc_init_context();
	struct wait w = { 0 };

	if (!rpc) {
		bench_error("rpc_init_context failed");
		return NULL;
	}
	if (rpc_connect_port_async(rpc, O.host, port, prog, vers, connect_cb, &w) < 0 ||
	    wait_one(rpc, &w) < 0) {
		bench_error("cannot connect to %s port %d: %s", O.host, port,
			    w.err[0] ? w.err : rpc_get_error(rpc));
		rpc_destroy_context(rpc);
		return NULL;
	}
	return rpc;
}

static void mnt_cb(struct rpc_context *rpc, int status, void *data, void *priv)
{
	struct wait *w = priv;
	mountres3 *r = data;

	connect_cb(rpc, status, data, priv);
	if (status != RPC_STATUS_SUCCESS)
		return;
	w->mntstat = r->fhs_status;
	if (r->fhs_status == MNT3_OK) {
		fhandle3 *h = &r->mountres3_u.mountinfo.fhandle;

		w->fh.len = h->fhandle3_len <= MAX_FH ? h->fhandle3_len : 0;
		memcpy(w->fh.data, h->fhandle3_val, w->fh.len);
	}
}

/* MOUNT v3 MNT of O.export: the root handle, without portmapper. */
static int mount_root(struct fh *root)
{
	struct rpc_context *rpc = connect_to(O.mount_port, MOUNT_PROGRAM, MOUNT_V3);
	struct wait w = { 0 };
	int rc = -1;

	if (!rpc)
		return -1;
	if (rpc_mount3_mnt_async(rpc, mnt_cb, (char *)O.export, &w) < 0 || wait_one(rpc, &w) < 0)
		bench_error("MNT %s: %s", O.export, w.err[0] ? w.err : rpc_get_error(rpc));
	else if (w.mntstat != MNT3_OK)
		bench_error("MNT %s: mount status %d", O.export, w.mntstat);
	else if (!w.fh.len)
		bench_error("MNT %s: bad root handle", O.export);
	else {
		*root = w.fh;
		rc = 0;
	}
	rpc_destroy_context(rpc);
	return rc;
}

struct conn *conns_open(int n, struct fh *root)
{
	struct conn *cs;

	if (mount_root(root) < 0)
		return NULL;
	cs = calloc((size_t)n, sizeof(*cs));
	if (!cs)
		return NULL;
	for (int i = 0; i < n; i++) {
		cs[i].id = i;
		cs[i].rpc = connect_to(O.nfs_port, NFS_PROGRAM, NFS_V3);
		if (!cs[i].rpc) {
			conns_close(cs, i);
			return NULL;
		}
	}
	return cs;
}

void conns_close(struct conn *cs, int n)
{
	for (int i = 0; i < n; i++)
		if (cs[i].rpc)
			rpc_destroy_context(cs[i].rpc);
	free(cs);
}

/* ---- the loop ---- */

static int inflight(const struct conn *cs, int n)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		k += cs[i].inflight;
	return k;
}

/* One poll over all conns, sleeping at most wait_ns; services what is ready. */
static int poll_once(struct conn *cs, int n, struct pollfd *pfd, uint64_t wait_ns)
{
	struct timespec ts;

	if (wait_ns > 100000000u)     /* wake up at least every 100 ms */
		wait_ns = 100000000u;
	ts.tv_sec = (time_t)(wait_ns / 1000000000u);
	ts.tv_nsec = (long)(wait_ns % 1000000000u);
	for (int i = 0; i < n; i++) {
		pfd[i].fd = rpc_get_fd(cs[i].rpc);
		pfd[i].events = (short)rpc_which_events(cs[i].rpc);
		pfd[i].revents = 0;
	}
	if (ppoll(pfd, (nfds_t)n, &ts, NULL) < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		if (pfd[i].revents && rpc_service(cs[i].rpc, pfd[i].revents) < 0) {
			bench_error("connection %d: %s", cs[i].id, rpc_get_error(cs[i].rpc));
			return -1;
		}
	}
	return 0;
}

/* Replies must keep coming while calls are in flight. */
static int stalled(struct conn *cs, int n, uint64_t *last_seen, uint64_t *last_t)
{
	uint64_t t = now_ns();

	if (completions != *last_seen || !inflight(cs, n)) {
		*last_seen = completions;
		*last_t = t;
		return 0;
	}
	if (secs(t - *last_t) < O.stall_s)
		return 0;
	bench_error("no reply for %.0f s with %d calls in flight", O.stall_s, inflight(cs, n));
	return 1;
}

int loop_run(struct conn *cs, int n, pump_fn pump, stop_fn stop, void *arg)
{
	struct pollfd *pfd = calloc((size_t)n, sizeof(*pfd));
	uint64_t last_seen = completions, last_t = now_ns();
	int rc = 0;

	if (!pfd)
		return -1;
	for (;;) {
		uint64_t wait = UINT64_MAX;

		if (bench_failed()) {
			rc = -1;
			break;
		}
		for (int i = 0; i < n; i++) {
			uint64_t w = pump(&cs[i], arg);

			if (w < wait)
				wait = w;
		}
		if (stop(arg))
			break;
		if (poll_once(cs, n, pfd, wait) < 0 || stalled(cs, n, &last_seen, &last_t)) {
			rc = -1;
			break;
		}
	}
	free(pfd);
	/* after a failure, still collect what is in flight (bounded by the stall check) */
	if (rc < 0)
		loop_drain(cs, n);
	return rc;
}

int loop_drain(struct conn *cs, int n)
{
	struct pollfd *pfd = calloc((size_t)n, sizeof(*pfd));
	uint64_t last_seen = completions, last_t = now_ns();
	int rc = 0;

	if (!pfd)
		return -1;
	while (inflight(cs, n) > 0) {
		if (poll_once(cs, n, pfd, UINT64_MAX) < 0 || stalled(cs, n, &last_seen, &last_t)) {
			rc = -1;
			break;
		}
	}
	free(pfd);
	return rc;
}

/* ---- batches: items 0..count-1, spread over the conns ---- */

struct batch {
	struct conn *cs;
	int n, depth;
	size_t next, count;
	batch_fn fn;
	void *arg;
};

static uint64_t batch_pump(struct conn *c, void *arg)
{
	struct batch *b = arg;

	while (c->inflight < b->depth && b->next < b->count)
		if (b->fn(c, b->next++, b->arg) < 0)
			break;
	return UINT64_MAX;
}

static int batch_stop(void *arg)
{
	struct batch *b = arg;

	return b->next >= b->count && inflight(b->cs, b->n) == 0;
}

int run_batch(struct conn *cs, int n, size_t count, int depth, batch_fn fn, void *arg)
{
	struct batch b = { cs, n, depth, 0, count, fn, arg };

	return loop_run(cs, n, batch_pump, batch_stop, &b);
}
