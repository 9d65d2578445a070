/*
 * The RPCSEC_GSS context table (gss_ctx.h): a hash of random handles, an
 * LRU list, two caps. One mutex guards the table, the list and the
 * reference counts; each context's own lock guards its GSS handle and
 * window (gss.c), so a slow gss_accept_sec_context never holds up lookups.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "gss_ctx.h"
#include "log.h"
#include "monotime.h"
#include "stats.h"

#define HASH_SIZE 1024		/* a power of two */

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gss_ctx *hash[HASH_SIZE];
static TAILQ_HEAD(gss_ctx_list_head, gss_ctx) lru = TAILQ_HEAD_INITIALIZER(lru);	/* most recent first */
static unsigned n_all, n_half;

/* Handles are random, so their first bytes spread them evenly. */
static unsigned
bucket(const uint8_t *handle)
{
	uint32_t v;

	memcpy(&v, handle, sizeof(v));
	return v & (HASH_SIZE - 1);
}

static void
ctx_free(struct gss_ctx *c)
{
	OM_uint32 minor;

	if (c->gctx != GSS_C_NO_CONTEXT)
		gss_delete_sec_context(&minor, &c->gctx, GSS_C_NO_BUFFER);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

/* Unlinks c and drops the table's reference; the caller frees it when that was the last. */
static int
unlink_locked(struct gss_ctx *c)
{
	struct gss_ctx **pp;

	if (!c->linked)
		return 0;
	for (pp = &hash[bucket(c->handle)]; *pp; pp = &(*pp)->hnext)
		if (*pp == c) {
			*pp = c->hnext;
			break;
		}
	TAILQ_REMOVE(&lru, c, lru);
	c->linked = 0;
	n_all--;
	if (!c->complete)
		n_half--;
	return --c->refs == 0;
}

/* The least recently used context, half-built only when half is set. */
static struct gss_ctx *
oldest_locked(int half)
{
	struct gss_ctx *c;

	TAILQ_FOREACH_REVERSE(c, &lru, gss_ctx_list_head, lru)
		if (!half || !c->complete)
			return c;
	return NULL;
}

/* Makes room for one more half-built context: the caps of gss_ctx.h. */
static void
make_room_locked(struct gss_ctx **victims, unsigned *nvictims)
{
	struct gss_ctx *c;

	while (n_half >= GSS_CTX_HALF_MAX || n_all >= GSS_CTX_MAX) {
		c = oldest_locked(n_half >= GSS_CTX_HALF_MAX);
		if (c == NULL)
			break;
		log_debug("gss: context table full, dropping the least recently used");
		STAT_INC(ST_GSS_CTX_EVICTED);
		if (unlink_locked(c))
			victims[(*nvictims)++] = c;
	}
}

struct gss_ctx *
gss_ctx_new(void)
{
	struct gss_ctx *c = calloc(1, sizeof(*c)), *victims[2];
	unsigned nvictims = 0, b;

	if (c == NULL)
		return NULL;
	if (getrandom(c->handle, sizeof(c->handle), 0) != (ssize_t)sizeof(c->handle)) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->gctx = GSS_C_NO_CONTEXT;
	c->expires = mono_sec() + GSS_CTX_HALF_SECS;
	c->refs = 2;		/* the table's and the caller's */
	c->linked = 1;
	pthread_mutex_lock(&table_lock);
	make_room_locked(victims, &nvictims);
	b = bucket(c->handle);
	c->hnext = hash[b];
	hash[b] = c;
	TAILQ_INSERT_HEAD(&lru, c, lru);
	n_all++;
	n_half++;
	pthread_mutex_unlock(&table_lock);
	/* At most two go: one to get under each cap. Freed outside the table's lock. */
	for (unsigned i = 0; i < nvictims; i++)
		ctx_free(victims[i]);
	return c;
}

struct gss_ctx *
gss_ctx_find(const uint8_t *handle, size_t len)
{
	struct gss_ctx *c, *dead = NULL;

	if (len != RG_HANDLE_LEN)
		return NULL;
	pthread_mutex_lock(&table_lock);
	for (c = hash[bucket(handle)]; c; c = c->hnext)
		if (memcmp(c->handle, handle, RG_HANDLE_LEN) == 0)
			break;
	if (c && c->expires <= mono_sec()) {
		/* Past the ticket's end (or a half-built one abandoned): gone. */
		STAT_INC(ST_GSS_CTX_EXPIRED);
		if (unlink_locked(c))
			dead = c;
		c = NULL;
	} else if (c) {
		c->refs++;
		TAILQ_REMOVE(&lru, c, lru);
		TAILQ_INSERT_HEAD(&lru, c, lru);
	}
	pthread_mutex_unlock(&table_lock);
	if (dead)
		ctx_free(dead);
	return c;
}

void
gss_ctx_established(struct gss_ctx *c, uint32_t secs)
{
	pthread_mutex_lock(&table_lock);
	if (!c->complete && c->linked)
		n_half--;
	c->complete = 1;
	c->expires = mono_sec() + (time_t)secs;
	pthread_mutex_unlock(&table_lock);
}

void
gss_ctx_remove(struct gss_ctx *c)
{
	int last;

	pthread_mutex_lock(&table_lock);
	last = unlink_locked(c);
	pthread_mutex_unlock(&table_lock);
	if (last)
		ctx_free(c);
}

void
gss_ctx_put(struct gss_ctx *c)
{
	int last;

	if (c == NULL)
		return;
	pthread_mutex_lock(&table_lock);
	last = --c->refs == 0;
	pthread_mutex_unlock(&table_lock);
	if (last)
		ctx_free(c);
}

void
gss_ctx_sweep(void)
{
	struct gss_ctx *c, *next, *dead[64];
	unsigned ndead;
	time_t now = mono_sec();

	do {
		/* At most 64 a round, freed outside the lock (gss_delete_sec_context takes time). */
		ndead = 0;
		pthread_mutex_lock(&table_lock);
		for (c = TAILQ_FIRST(&lru); c && ndead < 64; c = next) {
			next = TAILQ_NEXT(c, lru);
			if (c->expires > now)
				continue;
			STAT_INC(ST_GSS_CTX_EXPIRED);
			if (unlink_locked(c))
				dead[ndead++] = c;
		}
		pthread_mutex_unlock(&table_lock);
		for (unsigned i = 0; i < ndead; i++)
			ctx_free(dead[i]);
	} while (ndead == 64);
}

void
gss_ctx_count(unsigned *all, unsigned *half)
{
	pthread_mutex_lock(&table_lock);
	*all = n_all;
	*half = n_half;
	pthread_mutex_unlock(&table_lock);
}

/* seen <<= n, as one 128-bit number (seen[0] the low half). */
static void
shift_seen(uint64_t seen[2], uint32_t n)
{
	if (n >= 128) {
		seen[0] = seen[1] = 0;
	} else if (n >= 64) {
		seen[1] = seen[0] << (n - 64);
		seen[0] = 0;
	} else if (n > 0) {
		seen[1] = (seen[1] << n) | (seen[0] >> (64 - n));
		seen[0] <<= n;
	}
}

int
gss_ctx_window(struct gss_ctx *c, uint32_t seq)
{
	uint32_t d;

	if (!c->any_seen || seq > c->seq_max) {
		shift_seen(c->seen, c->any_seen ? seq - c->seq_max : 128);
		c->seen[0] |= 1;
		c->seq_max = seq;
		c->any_seen = 1;
		return 1;
	}
	d = c->seq_max - seq;
	if (d >= RG_SEQ_WINDOW)
		return 0;	/* below the window: too old to tell */
	if (c->seen[d / 64] & ((uint64_t)1 << (d % 64)))
		return 0;	/* a replay */
	c->seen[d / 64] |= (uint64_t)1 << (d % 64);
	return 1;
}
