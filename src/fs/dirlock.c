/*
 * Stripe locks over directories (dirlock.h): a fixed table of mutexes,
 * a directory's stripe chosen by its inode number and generation, so that
 * the same directory always maps to the same stripe whichever cache entry
 * or export it is reached through. Two directories (RENAME) take their
 * stripes lowest first, so two renames can never wait for each other.
 */
#include "config.h"

#include <pthread.h>
#include <stdint.h>

#include "dirlock.h"
#include "icache.h"

#define DIRLOCK_STRIPES 256	/* a power of two; 10 KiB of mutexes */

static pthread_mutex_t stripes[DIRLOCK_STRIPES];
static pthread_once_t stripes_once = PTHREAD_ONCE_INIT;
static int shared;

static void
stripes_init(void)
{
	for (unsigned i = 0; i < DIRLOCK_STRIPES; i++)
		pthread_mutex_init(&stripes[i], NULL);
}

static unsigned
stripe_of(const struct inode_ent *e)
{
	uint64_t h = (e->fh.ino ^ (uint64_t)e->fh.gen << 32) * 0x9e3779b97f4a7c15ull;

	return (unsigned)(h >> 56) & (DIRLOCK_STRIPES - 1);
}

/* The stripes of a and b as lo <= hi; hi is DIRLOCK_STRIPES when there is one. */
static void
stripe_pair(const struct inode_ent *a, const struct inode_ent *b, unsigned *lo, unsigned *hi)
{
	unsigned x = stripe_of(a), y = b ? stripe_of(b) : x;

	*lo = x < y ? x : y;
	*hi = x == y ? DIRLOCK_STRIPES : (x < y ? y : x);
}

void
dirlock_take(const struct inode_ent *a, const struct inode_ent *b)
{
	unsigned lo, hi;

	pthread_once(&stripes_once, stripes_init);
	stripe_pair(a, b, &lo, &hi);
	pthread_mutex_lock(&stripes[lo]);
	if (hi < DIRLOCK_STRIPES)
		pthread_mutex_lock(&stripes[hi]);
}

void
dirlock_drop(const struct inode_ent *a, const struct inode_ent *b)
{
	unsigned lo, hi;

	stripe_pair(a, b, &lo, &hi);
	if (hi < DIRLOCK_STRIPES)
		pthread_mutex_unlock(&stripes[hi]);
	pthread_mutex_unlock(&stripes[lo]);
}

void
dirlock_set_shared(int on)
{
	shared = on;
}

int
dirlock_atomic(void)
{
	return !shared;
}
