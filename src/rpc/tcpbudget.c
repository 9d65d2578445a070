/*
 * The reply memory of all TCP connections together (--reply-memory).
 *
 * Each connection already stops reading at 64 calls running or 8 MiB of
 * replies unsent, but about a thousand connections are allowed, and one
 * whose client never reads its replies pinned 64 replies plus 8 MiB
 * (72 MiB with 1 MiB READs): no bound short of the machine's memory.
 *
 * tcp_reply_mem counts every byte on an output queue and, for every bulk
 * call running over TCP, its largest reply (BULK_RESERVE): one relaxed
 * atomic add when a bulk call starts or a reply is queued, one subtract
 * when it ends or goes out.  A light call answered straight into its
 * socket does not touch it.  A connection starts a call only while a bulk
 * reply still fits (budget_allows), or, over the budget, when it has
 * nothing running and nothing queued, up to an eighth over: a client that
 * reads its replies is served one call at a time whatever the others do,
 * and those that do not read cannot pass the budget by more than that
 * eighth.  Connections held back so are paused like one at its own
 * limits (tcp_budget_pauses).  Once a second, over the budget, the tick
 * closes connections whose queued replies have not moved for STALL_SECS,
 * the largest queues first, until a quarter of the budget is free
 * (tcp_budget_drops); then it looks again at the paused ones, since
 * nothing of their own may be left to wake them.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>

#include "log.h"
#include "stats.h"
#include "tcpconn_impl.h"

#define STALL_SECS 2		/* over budget, replies unread this long: closed */

size_t tcp_reply_mem;
size_t tcp_reply_budget = (size_t)REPLY_BUDGET_DEFAULT_MIB << 20;

struct held {
	struct conn *c;
	size_t out_bytes;
};

static struct conn **tick_conns;	/* the tick's scratch lists (main thread) */
static struct held *tick_held;

void
budget_init(unsigned nslots)
{
	tick_conns = calloc(nslots, sizeof(*tick_conns));
	tick_held = calloc(nslots, sizeof(*tick_held));
	if (tick_conns == NULL || tick_held == NULL)
		fatal("connection table");
}

void
conns_set_reply_budget(size_t bytes)
{
	tcp_reply_budget = bytes;
}

size_t
conns_reply_memory(void)
{
	return __atomic_load_n(&tcp_reply_mem, __ATOMIC_RELAXED);
}

static int
stalled(const struct conn *c, time_t now)
{
	return c->out_bytes > 0 && now - c->out_moved >= STALL_SECS;
}

static int
waiting_or_stalled(const struct conn *c, time_t now)
{
	return c->budget_paused || stalled(c, now);
}

static int
by_out_bytes_desc(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	return x->out_bytes < y->out_bytes ? 1 : x->out_bytes > y->out_bytes ? -1 : 0;
}

void
budget_tick(time_t now)
{
	unsigned n = conns_hold_if(waiting_or_stalled, now, tick_conns);

	if (conns_reply_memory() >= tcp_reply_budget) {
		for (unsigned i = 0; i < n; i++) {
			struct conn *c = tick_conns[i];

			pthread_mutex_lock(&c->lock);
			tick_held[i].c = c;
			tick_held[i].out_bytes = c->out_bytes;
			pthread_mutex_unlock(&c->lock);
		}
		qsort(tick_held, n, sizeof(*tick_held), by_out_bytes_desc);
		for (unsigned i = 0; i < n && conns_reply_memory() > tcp_reply_budget / 4 * 3; i++) {
			struct conn *c = tick_held[i].c;
			int close_it;

			pthread_mutex_lock(&c->lock);
			close_it = stalled(c, now);
			pthread_mutex_unlock(&c->lock);
			if (close_it) {
				STAT_INC(ST_TCP_BUDGET_DROPS);
				conn_close(c);
			}
		}
	}
	for (unsigned i = 0; i < n; i++) {
		conn_resume(tick_conns[i]);
		conn_unref(tick_conns[i]);
	}
}
