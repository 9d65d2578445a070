/*
 * The list of mounts MOUNT's DUMP reports (showmount -a), kept in memory
 * and saved to STATEDIR/rmtab after every change, so it survives a
 * restart. Bounded: DUMP is advisory.
 */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "rmtab.h"

#define MAX_MOUNT_ENTRIES 4096

/* MOUNT's MNTPATHLEN (RFC 1813): a longer path is never mounted. */
#define RMTAB_PATHLEN 1024

struct mount_entry {
	char host[64];
	char path[RMTAB_PATHLEN + 1];
};

static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
static struct mount_entry *mounts;
static size_t nmounts;
static char rmtab_path[4096];

static void
rmtab_save_locked(void)
{
	char tmp[4200];
	FILE *f;

	if (rmtab_path[0] == '\0')
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", rmtab_path);
	f = fopen(tmp, "we");
	if (f == NULL) {
		log_warn("%s", tmp);
		return;
	}
	for (size_t i = 0; i < nmounts; i++)
		fprintf(f, "%s:%s\n", mounts[i].host, mounts[i].path);
	if (fclose(f) != 0 || rename(tmp, rmtab_path) < 0)
		log_warn("%s", rmtab_path);
}

static void
add_mount_locked(const char *host, const char *path)
{
	struct mount_entry *n;

	for (size_t i = 0; i < nmounts; i++)
		if (strcmp(mounts[i].host, host) == 0 && strcmp(mounts[i].path, path) == 0)
			return;
	if (nmounts >= MAX_MOUNT_ENTRIES)
		return;		/* DUMP is advisory; never let it grow without bound */
	n = realloc(mounts, (nmounts + 1) * sizeof(*n));
	if (n == NULL)
		return;
	mounts = n;
	snprintf(mounts[nmounts].host, sizeof(mounts[nmounts].host), "%s", host);
	snprintf(mounts[nmounts].path, sizeof(mounts[nmounts].path), "%s", path);
	nmounts++;
}

void
rmtab_init(const char *statedir)
{
	char line[RMTAB_PATHLEN + 128];
	FILE *f;

	snprintf(rmtab_path, sizeof(rmtab_path), "%s/rmtab", statedir);
	f = fopen(rmtab_path, "re");
	if (f == NULL)
		return;
	pthread_mutex_lock(&mlock);
	while (fgets(line, sizeof(line), f)) {
		/* host:path, where the host may be an IPv6 address full of colons */
		char *colon = strstr(line, ":/");
		line[strcspn(line, "\n")] = '\0';
		if (colon == NULL)
			continue;
		*colon = '\0';
		add_mount_locked(line, colon + 1);
	}
	pthread_mutex_unlock(&mlock);
	fclose(f);
}

void
rmtab_remove(const char *host, const char *path)
{
	size_t k = 0;

	pthread_mutex_lock(&mlock);
	for (size_t i = 0; i < nmounts; i++)
		if (strcmp(mounts[i].host, host) != 0 || (path && strcmp(mounts[i].path, path) != 0))
			mounts[k++] = mounts[i];
	if (k != nmounts) {
		nmounts = k;
		rmtab_save_locked();
	}
	pthread_mutex_unlock(&mlock);
}

void
rmtab_foreach(void (*fn)(void *arg, const char *host, const char *path), void *arg)
{
	pthread_mutex_lock(&mlock);
	for (size_t i = 0; i < nmounts; i++)
		fn(arg, mounts[i].host, mounts[i].path);
	pthread_mutex_unlock(&mlock);
}

void
rmtab_add(const char *host, const char *path)
{
	pthread_mutex_lock(&mlock);
	add_mount_locked(host, path);
	rmtab_save_locked();
	pthread_mutex_unlock(&mlock);
}
