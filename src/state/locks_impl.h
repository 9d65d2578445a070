/*
 * The lock manager's inside, shared by locks.c (clients, owners' open
 * file descriptions, requests) and lock_waiters.c (blocked requests,
 * GRANTED callbacks). Everything here is used with lk_mutex held.
 *
 * lk_host: a client, by caller_name and address. lk_file: one lock owner
 * (host, svid, owner handle) on one file: an open file description and
 * the ranges it holds (kept to name holders for TEST and to know when the
 * description can be closed; the kernel decides every conflict).
 */
#ifndef USERNFSD_LOCKS_IMPL_H
#define USERNFSD_LOCKS_IMPL_H

#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "lock_ranges.h"
#include "locks.h"
#include "queue.h"

struct inode_ent;

struct lk_host {
	TAILQ_ENTRY(lk_host) link;
	char *name;
	struct sockaddr_storage addr, local;
	unsigned nfiles, nblocks, nshares;
	int monitored;
	time_t idle_since;	/* when it last came to hold nothing */
};

struct lk_file {
	TAILQ_ENTRY(lk_file) bucket;
	struct lk_host *host;
	struct inode_ent *ent;	/* referenced while we hold the description */
	int32_t svid;
	size_t ohlen;
	uint8_t *oh;
	int fd;
	int writable;
	struct lock_ranges held;	/* what the kernel granted through fd */
	unsigned nblocks;	/* blocks and grants that use fd */
};

extern pthread_mutex_t lk_mutex;	/* the lock manager's one mutex */
time_t lk_now(void);			/* monotonic seconds */

/* locks.c */
/* Takes [start, end] for f, kernel first: an LK_ status. */
int lk_file_lock(struct lk_file *f, uint64_t start, uint64_t end, int exclusive);
void lk_file_unlock(struct lk_file *f, uint64_t start, uint64_t end);
/* Closes f when it holds nothing and nothing waits on it. */
void lk_file_put(struct lk_file *f);
/* Once per waiter pass: idle clients forgotten, the grace period's end. */
void lk_tick(void);

/* lock_waiters.c */
/* f's owner waits for [start, end]: LK_BLOCKED, or LK_NOLOCKS past the bounds. */
int lk_block_add(struct lk_file *f, const struct lk_req *r, uint64_t start, uint64_t end);
/* f's owner got the range itself: a wait for it is over, with no callback. */
void lk_block_done(struct lk_file *f, uint64_t start, uint64_t end, int exclusive);
/* CANCEL: LK_GRANTED if a waiting request was removed, else LK_DENIED. */
int lk_block_cancel(struct lk_file *f, uint64_t start, uint64_t end, int exclusive);
/* Everything h waits for, or was granted without answering, goes. */
void lk_blocks_drop_host(struct lk_host *h);
/* Something was released: try the waiters now, not at the next poll. */
void lk_wake(void);
void lk_blocks_count(unsigned *waiting, unsigned *granting);
int lk_waiters_start(lk_grant_fn send_granted);
void lk_waiters_stop(void);

#endif
