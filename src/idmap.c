/*
 * NFSv4 owner names through libnfsidmap (see idmap.h).
 *
 * Every GETATTR and every READDIR entry the Linux client asks for carries
 * an owner and a group, so the answers are cached: two direct-mapped
 * tables (id -> name, name -> id) of IDMAP_SLOTS entries each, for
 * IDMAP_TTL seconds (knfsd's idmap cache keeps entries 10 minutes too), a
 * miss for IDMAP_NEG_TTL so that a user created a moment later is found
 * soon. The tables hold plain values under one mutex taken only to copy.
 *
 * The library is called under a mutex of its own: its plugins need not be
 * thread-safe (umich_ldap shares one LDAP handle). A slow directory then
 * holds up other misses, never a cached answer or anything but owners.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* nfsidmap.h uses uid_t and gid_t without including what defines them. */
#include <nfsidmap.h>

#include "idmap.h"
#include "monotime.h"

#define IDMAP_SLOTS 1024
#define IDMAP_TTL 600
#define IDMAP_NEG_TTL 30
#define IDMAP_NAME_MAX 128	/* longer names are answered, not cached */

enum kind { K_EMPTY, K_USER, K_GROUP };

struct ent {
	enum kind kind;
	int found;		/* name -> id: known; id -> name: always (numbers stand in) */
	uint32_t id;
	time_t until;
	char name[IDMAP_NAME_MAX];
};

static struct {
	int on;
	char domain[NFS4_MAX_DOMAIN_LEN];
	pthread_mutex_t mu;	/* the tables */
	pthread_mutex_t lib;	/* libnfsidmap */
	struct ent by_id[IDMAP_SLOTS];
	struct ent by_name[IDMAP_SLOTS];
} im = { .mu = PTHREAD_MUTEX_INITIALIZER, .lib = PTHREAD_MUTEX_INITIALIZER };

static enum kind
kind_of(int group)
{
	return group ? K_GROUP : K_USER;
}

static struct ent *
id_slot(uint32_t id, enum kind k)
{
	return &im.by_id[((id * 2654435761u) ^ (uint32_t)k) % IDMAP_SLOTS];
}

static struct ent *
name_slot(const char *name, enum kind k)
{
	uint32_t h = 2166136261u ^ (uint32_t)k;

	for (; *name; name++)
		h = (h ^ (uint8_t)*name) * 16777619u;
	return &im.by_name[h % IDMAP_SLOTS];
}

int
idmap_start(const char *conf, char *err, size_t errlen)
{
	int rc;

	/* A file named but not there would silently be the DNS domain's defaults. */
	if (conf && access(conf, R_OK) != 0) {
		snprintf(err, errlen, "--idmapd-conf %s: %s", conf, strerror(errno));
		return -1;
	}
	/* The library takes char *, and reads its default file when given NULL. */
	if ((rc = nfs4_init_name_mapping((char *)conf)) != 0) {
		snprintf(err, errlen, "libnfsidmap: cannot start with %s: %s",
		    conf ? conf : "its default configuration", strerror(rc < 0 ? -rc : rc));
		return -1;
	}
	if ((rc = nfs4_get_default_domain(NULL, im.domain, sizeof(im.domain))) != 0 ||
	    im.domain[0] == '\0') {
		snprintf(err, errlen, "libnfsidmap: no NFSv4 domain (set Domain in %s)",
		    conf ? conf : "/etc/idmapd.conf");
		return -1;
	}
	im.on = 1;
	return 0;
}

int
idmap_on(void)
{
	return im.on;
}

const char *
idmap_domain(void)
{
	return im.on ? im.domain : "";
}

/* A cached answer for e's key, copied out under the lock: 1 when there is one. */
static int
cached(struct ent *e, enum kind k, uint32_t id, const char *name, struct ent *out)
{
	int hit;

	pthread_mutex_lock(&im.mu);
	hit = e->kind == k && e->until > mono_sec() &&
	    (name ? strcmp(e->name, name) == 0 : e->id == id);
	if (hit)
		*out = *e;
	pthread_mutex_unlock(&im.mu);
	return hit;
}

static void
keep(struct ent *e, enum kind k, uint32_t id, const char *name, int found)
{
	if (strlen(name) >= IDMAP_NAME_MAX)
		return;
	pthread_mutex_lock(&im.mu);
	e->kind = k;
	e->found = found;
	e->id = id;
	e->until = mono_sec() + (found ? IDMAP_TTL : IDMAP_NEG_TTL);
	strcpy(e->name, name);
	pthread_mutex_unlock(&im.mu);
}

size_t
idmap_name_of(uint32_t id, int group, char *buf, size_t len)
{
	enum kind k = kind_of(group);
	struct ent *e = id_slot(id, k), c;
	int rc;

	if (!im.on)
		return (size_t)snprintf(buf, len, "%u", id);
	if (cached(e, k, id, NULL, &c))
		return (size_t)snprintf(buf, len, "%s", c.name);
	pthread_mutex_lock(&im.lib);
	rc = group ? nfs4_gid_to_name((gid_t)id, im.domain, buf, len) :
	    nfs4_uid_to_name((uid_t)id, im.domain, buf, len);
	pthread_mutex_unlock(&im.lib);
	if (rc != 0 || memchr(buf, '\0', len) == NULL || buf[0] == '\0')
		snprintf(buf, len, "%u", id);	/* unknown here: the number, as knfsd */
	keep(e, k, id, buf, 1);
	return strlen(buf);
}

int
idmap_id_of(const char *name, int group, uint32_t *id)
{
	enum kind k = kind_of(group);
	struct ent *e = name_slot(name, k), c;
	char copy[IDMAP_NAME_MAX * 4];
	uid_t uid = 0;
	gid_t gid = 0;
	int rc;

	if (!im.on || strlen(name) >= sizeof(copy))
		return 0;
	if (cached(e, k, 0, name, &c)) {
		*id = c.id;
		return c.found;
	}
	strcpy(copy, name);	/* the library takes char * */
	pthread_mutex_lock(&im.lib);
	rc = group ? nfs4_name_to_gid(copy, &gid) : nfs4_name_to_uid(copy, &uid);
	pthread_mutex_unlock(&im.lib);
	*id = group ? (uint32_t)gid : (uint32_t)uid;
	keep(e, k, *id, name, rc == 0);
	return rc == 0;
}
