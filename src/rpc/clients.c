/* The table of clients seen (include/clients.h). */
#include "config.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "clients.h"
#include "exports/rmtab.h"
#include "sockaddr.h"

#define WAYS 4				/* entries per bucket */
#define NBUCKETS (CLIENTS_MAX / WAYS)

struct client_ent {
	struct sockaddr_storage addr;	/* host only: the port is zero */
	int used;
	unsigned gen;			/* bumped when the entry is given to another address */
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

void
clients_note_call(const struct sockaddr_storage *addr, size_t bytes_in, size_t bytes_out)
{
	struct bucket *b;
	struct client_ent *e = NULL, *oldest = NULL;
	time_t now = time(NULL);

	if (addr->ss_family != AF_INET && addr->ss_family != AF_INET6)
		return;
	if (memo && __atomic_load_n(&memo->gen, __ATOMIC_ACQUIRE) == memo_gen &&
	    sockaddr_same_host(&memo_addr, addr)) {
		count_in(memo, bytes_in, bytes_out, now);
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
		sockaddr_text(addr, e->info.host, sizeof(e->info.host));
		e->info.first_seen = now;
	}
	count_in(e, bytes_in, bytes_out, now);
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

/* ---- output ---- */

struct mount_pair {
	char host[64];
	char path[1024];
};

struct mounts {
	struct mount_pair *v;
	size_t n, cap;
};

static void
collect_mount(void *arg, const char *host, const char *path)
{
	struct mounts *m = arg;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct mount_pair *v = realloc(m->v, cap * sizeof(*v));
		if (v == NULL)
			return;
		m->v = v;
		m->cap = cap;
	}
	snprintf(m->v[m->n].host, sizeof(m->v[m->n].host), "%s", host);
	snprintf(m->v[m->n].path, sizeof(m->v[m->n].path), "%s", path);
	m->n++;
}

static void
json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			putc(ch, out);
	}
	putc('"', out);
}

static void
print_time(FILE *out, time_t t)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs(buf, out);
}

static void
print_mounts(FILE *out, const struct mounts *m, const char *host, int json)
{
	int first = 1;

	for (size_t k = 0; k < m->n; k++) {
		if (strcmp(m->v[k].host, host) != 0)
			continue;
		if (json) {
			if (!first)
				putc(',', out);
			json_str(out, m->v[k].path);
		} else {
			fprintf(out, "%s%s", first ? "" : ",", m->v[k].path);
		}
		first = 0;
	}
	if (first && !json)
		fputs("-", out);
}

void
clients_print(FILE *out, int json)
{
	struct client_info *v;
	size_t n = clients_list(&v);
	struct mounts m = { 0 };
	time_t now = time(NULL);
	size_t printed = n;

	rmtab_foreach(collect_mount, &m);
	if (json)
		fputs("{\"clients\":[", out);
	else
		fprintf(out, "%-39s %10s %14s %14s %8s  %s\n", "CLIENT", "CALLS", "BYTES_IN",
		    "BYTES_OUT", "IDLE_S", "MOUNTS");
	for (size_t i = 0; i < n; i++) {
		if (json) {
			fprintf(out, "%s{\"address\":", i ? "," : "");
			json_str(out, v[i].host);
			fprintf(out, ",\"calls\":%llu,\"bytes_in\":%llu,\"bytes_out\":%llu,"
			    "\"first_seen\":\"", (unsigned long long)v[i].calls,
			    (unsigned long long)v[i].bytes_in, (unsigned long long)v[i].bytes_out);
			print_time(out, v[i].first_seen);
			fputs("\",\"last_seen\":\"", out);
			print_time(out, v[i].last_seen);
			fputs("\",\"mounts\":[", out);
			print_mounts(out, &m, v[i].host, 1);
			fputs("]}", out);
		} else {
			fprintf(out, "%-39s %10llu %14llu %14llu %8lld  ", v[i].host,
			    (unsigned long long)v[i].calls, (unsigned long long)v[i].bytes_in,
			    (unsigned long long)v[i].bytes_out, (long long)(now - v[i].last_seen));
			print_mounts(out, &m, v[i].host, 0);
			putc('\n', out);
		}
	}
	/* Hosts that hold mounts but sent nothing since the start (the list survives restarts). */
	for (size_t k = 0; k < m.n; k++) {
		int seen = 0;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp(v[i].host, m.v[k].host) == 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(m.v[j].host, m.v[k].host) == 0;
		if (seen)
			continue;
		if (json) {
			fprintf(out, "%s{\"address\":", printed ? "," : "");
			json_str(out, m.v[k].host);
			fputs(",\"calls\":0,\"bytes_in\":0,\"bytes_out\":0,\"mounts\":[", out);
			print_mounts(out, &m, m.v[k].host, 1);
			fputs("]}", out);
			printed++;
		} else {
			fprintf(out, "%-39s %10d %14d %14d %8s  ", m.v[k].host, 0, 0, 0, "-");
			print_mounts(out, &m, m.v[k].host, 0);
			putc('\n', out);
		}
	}
	if (json)
		fputs("]}\n", out);
	free(m.v);
	free(v);
}
