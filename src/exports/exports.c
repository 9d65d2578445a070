/*
 * The export table in force (swapped atomically on reload, reference
 * counted), lookups by id and by path, and client matching with nfs-utils'
 * precedence. Client names for wildcard and netgroup entries come from
 * clientname.c; the parser is exports_parse.c.
 */
#include "config.h"

#include <fnmatch.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <string.h>

#include "exports.h"
#include "log.h"

#include "exports_impl.h"

/* ---- the table in force ---- */

static pthread_mutex_t table_lock = PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP;
static struct export_table *current;

void
exports_install(struct export_table *t)
{
	struct export_table *old;

	pthread_mutex_lock(&table_lock);
	old = current;
	current = t;
	pthread_mutex_unlock(&table_lock);
	/* A reload is also how an administrator makes DNS changes count. */
	clientname_cache_clear();
	if (old)
		exports_release(old);
}

struct export_table *
exports_acquire(void)
{
	struct export_table *t;

	pthread_mutex_lock(&table_lock);
	t = current;
	if (t)
		t->refs++;
	pthread_mutex_unlock(&table_lock);
	return t;
}

void
exports_release(struct export_table *t)
{
	int last;

	if (t == NULL)
		return;
	pthread_mutex_lock(&table_lock);
	last = --t->refs == 0;
	pthread_mutex_unlock(&table_lock);
	if (last)
		exports_free(t);
}

const struct export *
exports_find_id(const struct export_table *t, uint32_t id)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->exports[i].root.id == id)
			return &t->exports[i];
	return NULL;
}

const struct export *
exports_find_path(const struct export_table *t, const char *path, const char **rest)
{
	const struct export *best = NULL;
	size_t bestlen = 0;

	for (size_t i = 0; i < t->n; i++) {
		const char *ep = t->exports[i].path;
		size_t len = strcmp(ep, "/") == 0 ? 0 : strlen(ep);

		/* Whole components only: /srv/a must not cover /srv/ab. */
		if (strncmp(path, ep, len) != 0 || (path[len] != '\0' && path[len] != '/'))
			continue;
		if (best == NULL || len >= bestlen) {
			best = &t->exports[i];
			bestlen = len;
		}
	}
	if (best) {
		const char *r = path + bestlen;
		while (*r == '/')
			r++;
		*rest = r;
	}
	return best;
}

int
netaddr_from_sockaddr(const struct sockaddr *sa, struct netaddr *out)
{
	memset(out, 0, sizeof(*out));
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)sa;
		out->family = AF_INET;
		memcpy(out->addr, &sin->sin_addr, 4);
		out->prefix = 32;
		return 0;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sa;
		if (IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr)) {
			out->family = AF_INET;
			memcpy(out->addr, &sin6->sin6_addr.s6_addr[12], 4);
			out->prefix = 32;
		} else {
			out->family = AF_INET6;
			memcpy(out->addr, &sin6->sin6_addr, 16);
			out->prefix = 128;
		}
		return 0;
	}
	return -1;
}

socklen_t
sockaddr_from_netaddr(const struct netaddr *a, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)ss;

		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, a->addr, 4);
		return sizeof(*sin);
	} else {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;

		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, a->addr, 16);
		return sizeof(*sin6);
	}
}

int
same_host(const struct netaddr *a, const struct netaddr *b)
{
	return a->family == b->family && memcmp(a->addr, b->addr, a->family == AF_INET ? 4 : 16) == 0;
}

static int
net_contains(const struct netaddr *net, const struct netaddr *a)
{
	unsigned full = net->prefix / 8, rem = net->prefix % 8;

	if (net->family != a->family)
		return 0;
	if (memcmp(net->addr, a->addr, full) != 0)
		return 0;
	if (rem) {
		uint8_t mask = (uint8_t)(0xff << (8 - rem));
		if ((net->addr[full] & mask) != (a->addr[full] & mask))
			return 0;
	}
	return 1;
}

/* ---- matching ---- */

/* Whether a wildcard or netgroup entry admits the host called name. */
static int
name_matches(const struct export_client *c, const struct netaddr *a, const char *name,
    int cached)
{
	if (c->kind == CLIENT_WILDCARD)
		return fnmatch(c->spec, name, FNM_CASEFOLD) == 0;
	if (c->kind == CLIENT_NETGROUP)
		return cached ? clientname_in_netgroup_cached(a, c->spec + 1, name) : clientname_in_netgroup(c->spec + 1, name);
	return 0;
}

static int
is_name_kind(enum client_kind k)
{
	return k == CLIENT_WILDCARD || k == CLIENT_NETGROUP;
}

/* Within one kind the first listed wins, hence the strict comparison. */
static int
beats(const struct export_client *c, const struct export_client *best)
{
	return best == NULL || c->kind < best->kind;
}

static const struct export_client *
match_addresses(const struct export *e, const struct netaddr *a)
{
	const struct export_client *best = NULL;

	for (size_t i = 0; i < e->nclients; i++) {
		const struct export_client *c = &e->clients[i];
		int hit = c->kind == CLIENT_ANY;

		if (is_name_kind(c->kind) || !beats(c, best))
			continue;
		for (size_t k = 0; !hit && k < c->naddrs; k++)
			hit = net_contains(&c->addrs[k], a);
		if (hit)
			best = c;
	}
	return best;
}

/* Whether some name-based entry could beat best: only then is a name needed. */
static int
name_could_beat(const struct export *e, const struct export_client *best)
{
	for (size_t i = 0; i < e->nclients; i++)
		if (is_name_kind(e->clients[i].kind) && beats(&e->clients[i], best))
			return 1;
	return 0;
}

static const struct export_client *
match_names(const struct export *e, const struct netaddr *a, const char *name, int cached,
    const struct export_client *best)
{
	for (size_t i = 0; i < e->nclients; i++) {
		const struct export_client *c = &e->clients[i];

		if (is_name_kind(c->kind) && beats(c, best) && name_matches(c, a, name, cached))
			best = c;
	}
	return best;
}

const struct export_client *
export_match_named(const struct export *e, const struct sockaddr *addr, const char *name)
{
	const struct export_client *best;
	struct netaddr a;

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return NULL;
	best = match_addresses(e, &a);
	if (name == NULL || !name_could_beat(e, best))
		return best;
	return match_names(e, &a, name, 0, best);
}

const struct export_client *
export_match(const struct export *e, const struct sockaddr *addr)
{
	const struct export_client *best;
	struct netaddr a;
	char name[CLIENT_NAME_MAX];

	if (netaddr_from_sockaddr(addr, &a) < 0)
		return NULL;
	best = match_addresses(e, &a);
	if (!name_could_beat(e, best) || clientname_lookup(&a, name, sizeof(name)) < 0)
		return best;
	return match_names(e, &a, name, 1, best);
}
