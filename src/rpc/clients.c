/* The table of clients seen (clients.h); admin/clients_print.c shows it. */
#include "config.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "sockaddr.h"

#define WAYS 4				/* entries per bucket */
#define NBUCKETS (CLIENTS_MAX / WAYS)

struct client_ent {
	struct sockaddr_storage addr;	/* host only: the port is zero */
	int used;
	unsigned gen;			/* bumped when the entry is given to another address */
	uint64_t principal_hash;	/* of info.principal (atomic): a change takes the lock */
	struct client_info info;	/* counters and last_seen: atomic (the fast path) */
};

struct bucket {
	pthread_mutex_t lock;
	struct client_ent ent[WAYS];
} __attribute__((aligned(64)));		/* a lock per cache line: no false sharing */

static struct bucket buckets[NBUCKETS];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void
init_locks(void)
{
	for (unsigned i = 0; i < NBUCKETS; i++)
		pthread_mutex_init(&buckets[i].lock, NULL);
}


/*
 * Each thread remembers the entry it counted its last call in: a server's
 * calls come in runs from one client, and with one client (the common
 * case, and the bench) every call would otherwise take the same bucket
 * lock.  A remembered entry is used only while its generation is
 * unchanged; the counters are atomic, so the lock is only for finding an
 * entry and for giving one to a new address.
 */
static __thread struct client_ent *memo;
static __thread unsigned memo_gen;
static __thread struct sockaddr_storage memo_addr;

static void
count_in(struct client_ent *e, size_t bytes_in, size_t bytes_out, time_t now)
{
	__atomic_fetch_add(&e->info.calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&e->info.bytes_in, bytes_in, __ATOMIC_RELAXED);
	__atomic_fetch_add(&e->info.bytes_out, bytes_out, __ATOMIC_RELAXED);
	if (__atomic_load_n(&e->info.last_seen, __ATOMIC_RELAXED) != now)
		__atomic_store_n(&e->info.last_seen, now, __ATOMIC_RELAXED);
}

/* FNV-1a, never 0 (0: no principal yet). */
static uint64_t
principal_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h ? h : 1;
}

/* The entry's principal, rewritten (under the bucket's lock) only when it changed. */
static void
note_principal(struct bucket *b, struct client_ent *e, const char *principal, int locked)
{
	uint64_t h = principal_hash(principal);

	if (__atomic_load_n(&e->principal_hash, __ATOMIC_RELAXED) == h)
		return;
	if (!locked)
		pthread_mutex_lock(&b->lock);
	snprintf(e->info.principal, sizeof(e->info.principal), "%s", principal);
	__atomic_store_n(&e->principal_hash, h, __ATOMIC_RELAXED);
	if (!locked)
		pthread_mutex_unlock(&b->lock);
}

void
clients_note_call(const struct sockaddr_storage *addr, size_t bytes_in, size_t bytes_out,
    const char *principal)
{
	struct bucket *b;
	struct client_ent *e = NULL, *oldest = NULL;
	time_t now = time(NULL);

	if (addr->ss_family != AF_INET && addr->ss_family != AF_INET6)
		return;
	if (memo && __atomic_load_n(&memo->gen, __ATOMIC_ACQUIRE) == memo_gen &&
	    sockaddr_same_host(&memo_addr, addr)) {
		count_in(memo, bytes_in, bytes_out, now);
		if (principal)
			note_principal(&buckets[sockaddr_host_hash(addr) % NBUCKETS], memo, principal, 0);
		return;
	}
	pthread_once(&init_once, init_locks);
	b = &buckets[sockaddr_host_hash(addr) % NBUCKETS];
	pthread_mutex_lock(&b->lock);
	for (unsigned i = 0; i < WAYS; i++) {
		struct client_ent *c = &b->ent[i];

		if (c->used && sockaddr_same_host(&c->addr, addr)) {
			e = c;
			break;
		}
		if (oldest == NULL || !c->used ||
		    (oldest->used && c->info.last_seen < oldest->info.last_seen))
			oldest = c;
	}
	if (e == NULL) {
		/*
		 * A new address: the bucket's least recently seen entry makes
		 * room.  Its generation changes first, so threads that
		 * remember it for its old address stop counting there.
		 */
		e = oldest;
		__atomic_store_n(&e->gen, e->gen + 1, __ATOMIC_RELEASE);
		e->used = 1;
		e->addr = *addr;
		memset(&e->info, 0, sizeof(e->info));
		__atomic_store_n(&e->principal_hash, 0, __ATOMIC_RELAXED);
		sockaddr_text(addr, e->info.host, sizeof(e->info.host));
		e->info.first_seen = now;
	}
	count_in(e, bytes_in, bytes_out, now);
	if (principal)
		note_principal(b, e, principal, 1);
	memo = e;
	memo_gen = e->gen;
	memo_addr = *addr;
	pthread_mutex_unlock(&b->lock);
}

static int
by_last_seen(const void *a, const void *b)
{
	const struct client_info *x = a, *y = b;

	return (x->last_seen < y->last_seen) - (x->last_seen > y->last_seen);
}

size_t
clients_list(struct client_info **out)
{
	struct client_info *v = malloc(CLIENTS_MAX * sizeof(*v));
	size_t n = 0;

	*out = v;
	if (v == NULL)
		return 0;
	pthread_once(&init_once, init_locks);
	for (unsigned i = 0; i < NBUCKETS; i++) {
		pthread_mutex_lock(&buckets[i].lock);
		for (unsigned k = 0; k < WAYS; k++) {
			struct client_info *in = &buckets[i].ent[k].info;

			if (!buckets[i].ent[k].used)
				continue;
			v[n] = *in;
			v[n].calls = __atomic_load_n(&in->calls, __ATOMIC_RELAXED);
			v[n].bytes_in = __atomic_load_n(&in->bytes_in, __ATOMIC_RELAXED);
			v[n].bytes_out = __atomic_load_n(&in->bytes_out, __ATOMIC_RELAXED);
			v[n].last_seen = __atomic_load_n(&in->last_seen, __ATOMIC_RELAXED);
			n++;
		}
		pthread_mutex_unlock(&buckets[i].lock);
	}
	qsort(v, n, sizeof(*v), by_last_seen);
	return n;
}

size_t
clients_count(void)
{
	size_t n = 0;

	pthread_once(&init_once, init_locks);
	for (unsigned i = 0; i < NBUCKETS; i++) {
		pthread_mutex_lock(&buckets[i].lock);
		for (unsigned k = 0; k < WAYS; k++)
			n += buckets[i].ent[k].used != 0;
		pthread_mutex_unlock(&buckets[i].lock);
	}
	return n;
}
