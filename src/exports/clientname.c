/*
 * Client names for wildcard and netgroup export entries: reverse lookups
 * checked forward, and netgroup answers, cached per address for a minute.
 */
#include "config.h"

#include <limits.h>
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"
#include "monotime.h"

/* ---- client names: reverse lookups, cached ---- */

/*
 * Wildcard and netgroup entries match names, and a reverse lookup can take
 * seconds, on every NFS call. So names (and failures to find one) are kept
 * per address for a minute, in a fixed table of sets of a few entries each:
 * bounded memory, no allocation on the request path. Each entry also
 * remembers a few netgroup answers, which may cost a NIS or LDAP query.
 */
#define NC_SETS 256
#define NC_WAYS 4
#define NC_TTL 60
#define NC_GROUPS 4
#define NC_GROUP_NAME 64

struct name_ent {
	struct netaddr addr;
	time_t expires;		/* 0: free */
	int has_name;
	char name[CLIENT_NAME_MAX];
	struct {
		char group[NC_GROUP_NAME];	/* "" : free */
		int member;
	} ng[NC_GROUPS];
	unsigned ng_next;
};

static pthread_mutex_t cache_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static struct name_ent *cache;		/* NC_SETS * NC_WAYS, allocated on first use */
static unsigned long cache_gen;		/* bumped by a clear, so late results are dropped */

static time_t
now_sec(void)
{
	return mono_sec() + 1;	/* never 0, which marks a free entry */
}

void
clientname_cache_clear(void)
{
	pthread_mutex_lock(&cache_lock);
	cache_gen++;
	if (cache)
		memset(cache, 0, NC_SETS * NC_WAYS * sizeof(*cache));
	pthread_mutex_unlock(&cache_lock);
}

static struct name_ent *
cache_set(const struct netaddr *a)
{
	if (cache == NULL)
		cache = xcalloc(NC_SETS * NC_WAYS, sizeof(*cache));
	return &cache[(hash_id(a->addr, sizeof(a->addr)) % NC_SETS) * NC_WAYS];
}

/* Caller holds cache_lock. */
static struct name_ent *
cache_find(const struct netaddr *a, time_t now)
{
	struct name_ent *set = cache_set(a);

	for (int i = 0; i < NC_WAYS; i++)
		if (set[i].expires > now && same_host(&set[i].addr, a))
			return &set[i];
	return NULL;
}

/* Caller holds cache_lock. Reuses the entry that expires first. */
static struct name_ent *
cache_slot(const struct netaddr *a, time_t now)
{
	struct name_ent *set = cache_set(a), *victim = &set[0];

	for (int i = 0; i < NC_WAYS; i++) {
		if (set[i].expires > now && same_host(&set[i].addr, a))
			return &set[i];
		if (set[i].expires < victim->expires)
			victim = &set[i];
	}
	return victim;
}

/*
 * The name of a, if its reverse lookup gives one that resolves back to a.
 * Without the forward check, whoever controls the PTR records of a network
 * could claim any name.
 */
static int
reverse_lookup(const struct netaddr *a, char *name, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sockaddr_from_netaddr(a, &ss);
	struct addrinfo hints = { .ai_family = a->family, .ai_socktype = SOCK_DGRAM }, *res, *ai;
	struct netaddr b;
	size_t n;
	int ok = 0;

	if (getnameinfo((struct sockaddr *)&ss, sl, name, (socklen_t)len, NULL, 0, NI_NAMEREQD) != 0)
		return -1;
	n = strlen(name);
	if (n > 0 && name[n - 1] == '.')
		name[--n] = '\0';
	/* A PTR record spelling an address would "resolve back" to anything it names. */
	if (n == 0 || parse_address(name, &b) == 0)
		return -1;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return -1;
	for (ai = res; ai && !ok; ai = ai->ai_next)
		ok = netaddr_from_sockaddr(ai->ai_addr, &b) == 0 && same_host(&b, a);
	freeaddrinfo(res);
	return ok ? 0 : -1;
}

int
clientname_lookup(const struct netaddr *a, char *name, size_t len)
{
	char buf[NI_MAXHOST];
	struct name_ent *e;
	unsigned long gen;
	time_t now = now_sec();
	int rc;

	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	if (e) {
		rc = e->has_name && strlen(e->name) < len ? 0 : -1;
		if (rc == 0)
			strcpy(name, e->name);
		pthread_mutex_unlock(&cache_lock);
		return rc;
	}
	gen = cache_gen;
	pthread_mutex_unlock(&cache_lock);

	/* Not under the lock: other workers must not wait for this lookup. */
	rc = reverse_lookup(a, buf, sizeof(buf));
	if (rc == 0 && strlen(buf) >= CLIENT_NAME_MAX)
		rc = -1;

	pthread_mutex_lock(&cache_lock);
	if (gen == cache_gen) {
		e = cache_slot(a, now);
		memset(e, 0, sizeof(*e));
		e->addr = *a;
		e->expires = now + NC_TTL;
		e->has_name = rc == 0;
		if (rc == 0)
			strcpy(e->name, buf);
	}
	pthread_mutex_unlock(&cache_lock);
	if (rc == 0 && strlen(buf) >= len)
		return -1;
	if (rc == 0)
		strcpy(name, buf);
	return rc;
}

int
exports_client_name(const struct sockaddr *addr, char *name, size_t len)
{
	struct netaddr a;

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return -1;
	return clientname_lookup(&a, name, len);
}

static pthread_mutex_t netgroup_lock = PTHREAD_MUTEX_INITIALIZER;

static int
system_innetgr(const char *netgroup, const char *host)
{
	int r;

	/* glibc's innetgr is MT-Unsafe: it shares the NSS netgroup state. */
	pthread_mutex_lock(&netgroup_lock);
	r = innetgr(netgroup, host, NULL, NULL);
	pthread_mutex_unlock(&netgroup_lock);
	return r == 1;
}

int (*exports_innetgr)(const char *netgroup, const char *host) = system_innetgr;

/* Members are listed by full or by short name; nfs-utils tries both. */
int
clientname_in_netgroup(const char *group, const char *name)
{
	char shortname[CLIENT_NAME_MAX];
	const char *dot = strchr(name, '.');

	if (exports_innetgr(group, name))
		return 1;
	if (dot == NULL || (size_t)(dot - name) >= sizeof(shortname) || dot == name)
		return 0;
	memcpy(shortname, name, (size_t)(dot - name));
	shortname[dot - name] = '\0';
	return exports_innetgr(group, shortname);
}

/* in_netgroup, remembered in a's cache entry while that entry holds name. */
int
clientname_in_netgroup_cached(const struct netaddr *a, const char *group, const char *name)
{
	struct name_ent *e;
	time_t now = now_sec();
	int member = -1;

	if (strlen(group) >= NC_GROUP_NAME)
		return clientname_in_netgroup(group, name);
	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	for (int i = 0; e && e->has_name && strcmp(e->name, name) == 0 && i < NC_GROUPS; i++)
		if (strcmp(e->ng[i].group, group) == 0)
			member = e->ng[i].member;
	pthread_mutex_unlock(&cache_lock);
	if (member >= 0)
		return member;

	member = clientname_in_netgroup(group, name);
	pthread_mutex_lock(&cache_lock);
	e = cache_find(a, now);
	if (e && e->has_name && strcmp(e->name, name) == 0) {
		unsigned i = e->ng_next++ % NC_GROUPS;

		strcpy(e->ng[i].group, group);
		e->ng[i].member = member;
	}
	pthread_mutex_unlock(&cache_lock);
	return member;
}
