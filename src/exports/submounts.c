/* Submounts of crossmnt exports, found through /proc/self/mountinfo. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "exports.h"
#include "log.h"
#include "submounts.h"

/* Undoes mountinfo's octal escapes (\040 for a blank and so on) in place. */
static void
unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

static int
below(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strcmp(top, "/") == 0)
		return path[0] == '/' && path[1] != '\0';
	return strncmp(path, top, n) == 0 && path[n] == '/';
}

/*
 * Calls fn for each mount point strictly below top, with its device; stops
 * when fn returns non-zero and returns that value.
 */
static int
each_mount_below(const char *top, int (*fn)(void *, const char *, dev_t), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[8192];
	int rc = 0;

	if (f == NULL)
		return 0;
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char mnt[4096];

		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &maj, &min, mnt) != 3)
			continue;
		unescape(mnt);
		if (below(mnt, top))
			rc = fn(arg, mnt, makedev(maj, min));
	}
	fclose(f);
	return rc;
}

static struct export *
new_submount(const struct export *parent, const char *mnt, dev_t dev, ino_t ino)
{
	struct export *e = calloc(1, sizeof(*e));
	struct stat st;

	if (e == NULL || (e->path = strdup(mnt)) == NULL) {
		free(e);
		return NULL;
	}
	e->root.path = e->path;
	/* Opened by path once, then checked to be the very root we were shown. */
	e->root.rootfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (e->root.rootfd < 0 || fstat(e->root.rootfd, &st) < 0 || st.st_dev != dev ||
	    (ino && st.st_ino != ino)) {
		if (e->root.rootfd >= 0)
			close(e->root.rootfd);
		free(e->path);
		free(e);
		return NULL;
	}
	e->root.id = exports_path_id(mnt);
	e->root.dev = st.st_dev;
	e->root.ino = st.st_ino;
	e->clients = parent->clients;
	e->nclients = parent->nclients;
	e->file = parent->file;
	e->line = parent->line;
	e->parent = parent;
	return e;
}

/* With t->sublock held. */
static const struct export *
find_sub_locked(struct export_table *t, uint32_t id, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < t->nsubs; i++) {
		const struct export *e = t->subs[i];
		if (id ? e->root.id == id : (e->root.dev == dev && e->root.ino == ino))
			return e;
	}
	return NULL;
}

static const struct export *
add_sub(struct export_table *t, struct export *e)
{
	const struct export *have;
	struct export **n;

	pthread_mutex_lock(&t->sublock);
	have = find_sub_locked(t, e->root.id, 0, 0);
	if (have == NULL && (n = realloc(t->subs, (t->nsubs + 1) * sizeof(*n))) != NULL) {
		t->subs = n;
		t->subs[t->nsubs++] = e;
		have = e;
		e = NULL;
	}
	pthread_mutex_unlock(&t->sublock);
	if (e) {
		close(e->root.rootfd);
		free(e->path);
		free(e);
	}
	return have;
}

struct enter_search {
	const struct export *parent;
	dev_t dev;
	ino_t ino;
	struct export *found;
};

static int
enter_cb(void *arg, const char *mnt, dev_t dev)
{
	struct enter_search *s = arg;

	if (dev != s->dev)
		return 0;
	/* Several mounts can show one file system: the one we stand on has our root. */
	s->found = new_submount(s->parent, mnt, s->dev, s->ino);
	return s->found != NULL;
}

static int
crossable(const struct export *e)
{
	for (size_t i = 0; i < e->nclients; i++)
		if (e->clients[i].opts.flags & EXP_CROSSMNT)
			return 1;
	return 0;
}

const struct export *
submount_enter(struct export_table *t, const struct export *parent,
    const struct export_client *client, const struct sockaddr *peer, dev_t dev, ino_t ino)
{
	struct enter_search s = { parent, dev, ino, NULL };
	const struct export *e;
	const struct export *top = parent;

	/* Exported in its own right with nohide: entered as that export. */
	for (size_t i = 0; i < t->n; i++) {
		const struct export *x = &t->exports[i];
		const struct export_client *c;

		if (x->root.dev == dev && x->root.ino == ino && (c = export_match(x, peer)) != NULL &&
		    (c->opts.flags & EXP_NOHIDE))
			return x;
	}
	if (!(client->opts.flags & EXP_CROSSMNT))
		return NULL;
	pthread_mutex_lock(&t->sublock);
	e = find_sub_locked(t, 0, dev, ino);
	pthread_mutex_unlock(&t->sublock);
	if (e)
		return e;
	while (top->parent)
		top = top->parent;	/* a mount below a mount: clients come from the export */
	each_mount_below(top->path, enter_cb, &s);
	if (s.found == NULL)
		return NULL;
	s.found->parent = parent;
	return add_sub(t, s.found);
}

struct id_search {
	uint32_t id;
	char path[4096];
	dev_t dev;
};

static int
id_cb(void *arg, const char *mnt, dev_t dev)
{
	struct id_search *s = arg;

	if (exports_path_id(mnt) != s->id)
		return 0;
	snprintf(s->path, sizeof(s->path), "%s", mnt);
	s->dev = dev;
	return 1;
}

const struct export *
submount_find_id(struct export_table *t, uint32_t id)
{
	const struct export *e;

	pthread_mutex_lock(&t->sublock);
	e = find_sub_locked(t, id, 0, 0);
	pthread_mutex_unlock(&t->sublock);
	if (e)
		return e;
	/* After a restart: a handle names a submount no LOOKUP has crossed yet. */
	for (size_t i = 0; i < t->n; i++) {
		struct id_search s = { .id = id };
		const struct export *parent = &t->exports[i], *p;
		struct export *sub;

		if (!crossable(parent) || !each_mount_below(parent->path, id_cb, &s))
			continue;
		/* The nearest enclosing crossed mount is the parent; the export at worst. */
		pthread_mutex_lock(&t->sublock);
		for (size_t k = 0; k < t->nsubs; k++) {
			p = t->subs[k];
			if (below(s.path, p->path) && strlen(p->path) > strlen(parent->path))
				parent = p;
		}
		pthread_mutex_unlock(&t->sublock);
		sub = new_submount(parent, s.path, s.dev, 0);
		if (sub)
			return add_sub(t, sub);
	}
	return NULL;
}
