/*
 * NFSv4 client records on stable storage (nfs4_recover.h). Both sets are
 * small (at most N4_MAX_CLIENTS now, as many as the last run had then),
 * so they are arrays searched in full; the file is written whole through
 * statefile_replace, which a power cut leaves old or new, never half.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "nfs4_recover.h"
#include "statefile.h"

#define RECORDS "nfs4-clients"
#define OWNER_MAX 1024		/* co_ownerid (NFS4_OPAQUE_LIMIT), as nfs4_clients.h's */

struct owner {
	size_t len;
	uint8_t *bytes;
	int back;		/* last run's: came back in this one */
	int done;		/* last run's: said RECLAIM_COMPLETE */
};

struct owner_set {
	struct owner *v;
	size_t n, cap;
};

static pthread_mutex_t rec_lock = PTHREAD_MUTEX_INITIALIZER;
static struct owner_set last_run, now;
static char *dir;
static int dirty;

static struct owner *
find(struct owner_set *s, const void *p, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].len == len && memcmp(s->v[i].bytes, p, len) == 0)
			return &s->v[i];
	return NULL;
}

static int
add(struct owner_set *s, const void *p, size_t len)
{
	struct owner *o;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;

		if ((o = realloc(s->v, cap * sizeof(*o))) == NULL)
			return -1;
		s->v = o;
		s->cap = cap;
	}
	o = &s->v[s->n];
	memset(o, 0, sizeof(*o));
	if ((o->bytes = malloc(len ? len : 1)) == NULL)
		return -1;
	memcpy(o->bytes, p, len);
	o->len = len;
	s->n++;
	return 0;
}

static void
drop(struct owner_set *s, struct owner *o)
{
	free(o->bytes);
	*o = s->v[--s->n];
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* One line of the file: the owner's bytes in lower-case hex. */
static int
parse_line(const char *line, uint8_t *out, size_t *len)
{
	size_t n = strcspn(line, "\n");

	if (n == 0 || n % 2 || n / 2 > OWNER_MAX)
		return -1;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(line[2 * i]), lo = hexval(line[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return 0;
}

int
n4_recover_load(const char *statedir)
{
	char line[2 * OWNER_MAX + 8];
	uint8_t owner[OWNER_MAX];
	unsigned lineno = 0;
	size_t len;
	FILE *f;

	if ((dir = strdup(statedir)) == NULL)
		return -1;
	if ((f = statefile_open(statedir, RECORDS)) == NULL)
		return errno == ENOENT ? 0 : -1;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (parse_line(line, owner, &len) < 0) {
			log_warn("%s/%s:%u: not a client record, ignored", statedir, RECORDS, lineno);
			continue;
		}
		/* Both: the last run's, and still ours until the grace period ends unclaimed. */
		if (!find(&last_run, owner, len) && (add(&last_run, owner, len) < 0 ||
		    add(&now, owner, len) < 0)) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return (int)last_run.n;
}

int
n4_recover_was_client(const void *owner, size_t len)
{
	int was;

	pthread_mutex_lock(&rec_lock);
	was = find(&last_run, owner, len) != NULL;
	pthread_mutex_unlock(&rec_lock);
	return was;
}

/* The file's text: every record of now. */
static char *
render(void)
{
	size_t size = 1, off = 0;
	char *text;

	for (size_t i = 0; i < now.n; i++)
		size += 2 * now.v[i].len + 1;
	if ((text = malloc(size)) == NULL)
		return NULL;
	for (size_t i = 0; i < now.n; i++) {
		for (size_t j = 0; j < now.v[i].len; j++)
			off += (size_t)snprintf(text + off, size - off, "%02x", now.v[i].bytes[j]);
		text[off++] = '\n';
	}
	text[off] = '\0';
	return text;
}

/* With rec_lock held: the file as now has it. */
static int
write_out(void)
{
	char *text;
	int rc;

	if (dir == NULL)
		return 0;	/* not loaded (the fuzzer, unit tests): nothing on disk */
	if ((text = render()) == NULL)
		return -1;
	rc = statefile_replace(dir, RECORDS, text);
	free(text);
	if (rc == 0)
		dirty = 0;
	return rc;
}

int
n4_recover_add(const void *owner, size_t len)
{
	struct owner *o;
	int rc = 0;

	pthread_mutex_lock(&rec_lock);
	if ((o = find(&last_run, owner, len)) != NULL)
		o->back = 1;
	if (find(&now, owner, len) == NULL)
		rc = add(&now, owner, len) < 0 ? -1 : write_out();
	pthread_mutex_unlock(&rec_lock);
	return rc;
}

void
n4_recover_remove(const void *owner, size_t len)
{
	struct owner *o;

	pthread_mutex_lock(&rec_lock);
	if ((o = find(&now, owner, len)) != NULL) {
		drop(&now, o);
		dirty = 1;
	}
	pthread_mutex_unlock(&rec_lock);
}

void
n4_recover_reclaimed(const void *owner, size_t len)
{
	struct owner *o;

	pthread_mutex_lock(&rec_lock);
	if ((o = find(&last_run, owner, len)) != NULL)
		o->done = 1;
	pthread_mutex_unlock(&rec_lock);
}

int
n4_recover_all_reclaimed(void)
{
	int all = 1;

	pthread_mutex_lock(&rec_lock);
	for (size_t i = 0; i < last_run.n; i++)
		if (!last_run.v[i].done)
			all = 0;
	pthread_mutex_unlock(&rec_lock);
	return all;
}

void
n4_recover_flush(int in_grace)
{
	pthread_mutex_lock(&rec_lock);
	/* The grace period is over: who did not come back has nothing to reclaim. */
	if (!in_grace && last_run.n) {
		for (size_t i = 0; i < last_run.n; i++) {
			struct owner *o = find(&now, last_run.v[i].bytes, last_run.v[i].len);

			if (!last_run.v[i].back && o) {
				drop(&now, o);
				dirty = 1;
			}
		}
		while (last_run.n)
			drop(&last_run, &last_run.v[0]);
	}
	if (dirty)
		write_out();
	pthread_mutex_unlock(&rec_lock);
}
