/*
 * Blocked lock requests and their GRANTED callbacks (locks_impl.h). A
 * request that cannot have its range now waits here (bounded per client
 * and in all); the waiter thread tries every waiting request whenever
 * something is released and every WAITER_POLL_MS (a local process's
 * unlock is announced to nobody), with F_OFD_SETLK, never a blocking
 * call. A request that gets its range becomes a grant: the client is
 * called back from a background task, GRANT_TRIES times GRANT_RETRY_SECS
 * apart at most, and a client that says it no longer wants the lock, or
 * never answers, loses it again.
 */
#include "config.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "fs/icache.h"
#include "lock_ranges.h"
#include "locks_impl.h"
#include "log.h"
#include "sockaddr.h"
#include "tasks.h"

#define BLOCKS_PER_HOST 64	/* blocked requests a client may have waiting */
#define BLOCKS_MAX 1024
#define WAITER_POLL_MS 200
#define GRANT_TRIES 3		/* GRANTED calls before the lock is taken back */
#define GRANT_RETRY_SECS 5

enum block_state { B_WAITING, B_GRANTING };

struct lk_block {
	TAILQ_ENTRY(lk_block) link;
	struct lk_file *f;
	uint64_t start, end;
	int exclusive;
	enum block_state state;
	uint64_t id;		/* our cookie in GRANTED */
	unsigned tries;
	int in_flight;		/* a GRANTED task is running */
	time_t next_try;
	struct lk_grant g;	/* the callback, filled when blocked */
};

TAILQ_HEAD(block_list, lk_block);

static struct block_list blocks = TAILQ_HEAD_INITIALIZER(blocks);
static unsigned nblocks, ngrants;
static pthread_cond_t poke = PTHREAD_COND_INITIALIZER;
static lk_grant_fn send_granted;
static pthread_t waiter;
static int waiter_running, stopping;

static void
block_free(struct lk_block *b)
{
	struct lk_file *f = b->f;

	TAILQ_REMOVE(&blocks, b, link);
	if (b->state == B_GRANTING)
		ngrants--;
	nblocks--;
	f->nblocks--;
	f->host->nblocks--;
	free(b);
	lk_file_put(f);
}

static struct lk_block *
block_find(const struct lk_file *f, uint64_t start, uint64_t end, int exclusive)
{
	struct lk_block *b;

	TAILQ_FOREACH(b, &blocks, link)
		if (b->f == f && b->start == start && b->end == end && b->exclusive == exclusive)
			return b;
	return NULL;
}

static struct lk_block *
block_by_id(uint64_t id)
{
	struct lk_block *b;

	TAILQ_FOREACH(b, &blocks, link)
		if (b->id == id)
			return b;
	return NULL;
}

static void
fill_grant(struct lk_grant *g, const struct lk_req *r, uint64_t id)
{
	memset(g, 0, sizeof(*g));
	g->peer = r->peer;
	g->local = r->local;
	g->proto = r->proto;
	g->vers = r->vers;
	g->msg = r->msg;
	for (int i = 0; i < 8; i++)
		g->cookie[i] = (uint8_t)(id >> (8 * i));
	if (gethostname(g->caller, sizeof(g->caller) - 1) < 0)
		strcpy(g->caller, "usernfsd");
	g->fhlen = r->fhlen <= LK_FH_MAX ? r->fhlen : 0;
	memcpy(g->fh, r->fh, g->fhlen);
	memcpy(g->oh, r->oh, r->ohlen);
	g->ohlen = r->ohlen;
	g->svid = r->svid;
	g->off = r->off;
	g->len = r->len;
	g->exclusive = r->exclusive;
}

int
lk_block_add(struct lk_file *f, const struct lk_req *r, uint64_t start, uint64_t end)
{
	struct lk_block *b;

	if (block_find(f, start, end, r->exclusive))
		return LK_BLOCKED;	/* a retransmission, or the client asking again */
	if (nblocks >= BLOCKS_MAX || f->host->nblocks >= BLOCKS_PER_HOST)
		return LK_NOLOCKS;
	if ((b = calloc(1, sizeof(*b))) == NULL)
		return LK_NOLOCKS;
	b->f = f;
	b->start = start;
	b->end = end;
	b->exclusive = r->exclusive;
	b->state = B_WAITING;
	/* Unguessable: a GRANTED_RES names the grant by it. */
	if (getrandom(&b->id, sizeof(b->id), 0) != sizeof(b->id)) {
		free(b);
		return LK_NOLOCKS;
	}
	fill_grant(&b->g, r, b->id);
	TAILQ_INSERT_TAIL(&blocks, b, link);
	nblocks++;
	f->nblocks++;
	f->host->nblocks++;
	return LK_BLOCKED;
}

static void granted_task(void *arg, int cancelled);

/* With the lock held: try every waiting block; call granted clients back. */
static void
blocks_retry(void)
{
	struct lk_block *b, *next;
	time_t now = lk_now();

	TAILQ_FOREACH_SAFE(b, &blocks, link, next) {
		if (b->state == B_WAITING) {
			int st = lk_file_lock(b->f, b->start, b->end, b->exclusive);

			if (st == LK_DENIED)
				continue;
			if (st != LK_GRANTED) {
				block_free(b);	/* cannot be had at all: the client retries */
				continue;
			}
			b->state = B_GRANTING;
			ngrants++;
			b->next_try = now;
		}
		if (b->in_flight || b->next_try > now)
			continue;
		if (b->tries >= GRANT_TRIES) {
			log_info("%s: no answer to GRANTED: lock on inode %llu taken back",
			    b->f->host->name, (unsigned long long)b->f->ent->fh.ino);
			lk_file_unlock(b->f, b->start, b->end);
			block_free(b);
			lk_wake();	/* what it held may let another in */
			continue;
		}
		uint64_t *id = malloc(sizeof(*id));

		if (id == NULL)
			continue;
		*id = b->id;
		b->in_flight = 1;
		b->tries++;
		b->next_try = now + GRANT_RETRY_SECS;
		/* One call at a time per client: a dead one holds one thread, not all. */
		if (tasks_push_for(&b->g.peer, 1, granted_task, id) < 0) {
			/* Not sent: no try spent; again at the next pass. */
			free(id);
			b->in_flight = 0;
			b->tries--;
			b->next_try = now;
		}
	}
}

/* A background task: one GRANTED call for block *arg. */
static void
granted_task(void *arg, int cancelled)
{
	uint64_t id = *(uint64_t *)arg;
	struct lk_grant g;
	struct lk_block *b;
	int answer;

	free(arg);
	if (cancelled)
		return;
	pthread_mutex_lock(&lk_mutex);
	b = block_by_id(id);
	if (b == NULL || b->state != B_GRANTING) {
		pthread_mutex_unlock(&lk_mutex);
		return;
	}
	g = b->g;
	lr_to_nlm(b->start, b->end, &g.off, &g.len);
	pthread_mutex_unlock(&lk_mutex);

	answer = send_granted(&g);

	pthread_mutex_lock(&lk_mutex);
	if ((b = block_by_id(id)) != NULL) {
		b->in_flight = 0;
		if (answer == LK_GRANTED) {
			block_free(b);	/* the client has its lock */
		} else if (answer == LK_DENIED) {
			/* It no longer wants it (the process gave up): release. */
			lk_file_unlock(b->f, b->start, b->end);
			block_free(b);
			pthread_cond_signal(&poke);
		}
		/* else: a _MSG sent (GRANTED_RES will tell) or no answer: retried */
	}
	pthread_mutex_unlock(&lk_mutex);
}

void
locks_granted_res(const void *cookie, size_t len, const struct sockaddr_storage *peer,
    int granted)
{
	const uint8_t *c = cookie;
	uint64_t id = 0;
	struct lk_block *b;

	if (len != 8)
		return;		/* not a cookie of ours */
	for (int i = 0; i < 8; i++)
		id |= (uint64_t)c[i] << (8 * i);
	pthread_mutex_lock(&lk_mutex);
	/* Only the client that was called back may answer for its grant. */
	if ((b = block_by_id(id)) != NULL && b->state == B_GRANTING && sockaddr_same_host(&b->g.peer, peer)) {
		if (!granted) {
			lk_file_unlock(b->f, b->start, b->end);
			pthread_cond_signal(&poke);
		}
		block_free(b);
	}
	pthread_mutex_unlock(&lk_mutex);
}

static void *
waiter_main(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&lk_mutex);
	while (!stopping) {
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += WAITER_POLL_MS * 1000000L;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&poke, &lk_mutex, &until);
		if (!stopping && !TAILQ_EMPTY(&blocks))
			blocks_retry();
		lk_tick();
	}
	pthread_mutex_unlock(&lk_mutex);
	return NULL;
}

void
lk_block_done(struct lk_file *f, uint64_t start, uint64_t end, int exclusive)
{
	struct lk_block *b = block_find(f, start, end, exclusive);

	if (b)
		block_free(b);
}

int
lk_block_cancel(struct lk_file *f, uint64_t start, uint64_t end, int exclusive)
{
	struct lk_block *b = block_find(f, start, end, exclusive);

	/* A grant in flight stays: the client answers its GRANTED "denied". */
	if (b == NULL || b->state != B_WAITING)
		return LK_DENIED;
	block_free(b);
	return LK_GRANTED;
}

void
lk_blocks_drop_host(struct lk_host *h)
{
	struct lk_block *b, *next;

	TAILQ_FOREACH_SAFE(b, &blocks, link, next)
		if (b->f->host == h)
			block_free(b);
}

void
lk_wake(void)
{
	pthread_cond_signal(&poke);
}

void
lk_blocks_count(unsigned *waiting, unsigned *granting)
{
	*waiting = nblocks - ngrants;
	*granting = ngrants;
}

int
lk_waiters_start(lk_grant_fn fn)
{
	sigset_t all, old;
	int rc;

	send_granted = fn;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&waiter, NULL, waiter_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	waiter_running = rc == 0;
	return rc == 0 ? 0 : -1;
}

void
lk_waiters_stop(void)
{
	if (!waiter_running)
		return;
	pthread_mutex_lock(&lk_mutex);
	stopping = 1;
	pthread_cond_signal(&poke);
	pthread_mutex_unlock(&lk_mutex);
	pthread_join(waiter, NULL);
	waiter_running = 0;
}
