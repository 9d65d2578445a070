/*
 * Small files in the state directory (NSM's state number and client list):
 * read as text, replaced durably so that a power cut leaves the old
 * contents or the new, never a mixture.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "statefile.h"

static char *
state_path(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

int
statefile_replace(const char *dir, const char *name, const char *text)
{
	char *path = state_path(dir, name), *tmp = NULL;
	size_t len = strlen(text);
	int fd = -1, rc = -1;

	if (path == NULL || asprintf(&tmp, "%s.tmp", path) < 0)
		goto out;
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0)
		goto out;
	if (write(fd, text, len) != (ssize_t)len || fsync(fd) < 0)
		goto out;
	if (rename(tmp, path) < 0)
		goto out;
	rc = 0;
	close(fd);
	/* The rename itself must last too. */
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0)
		fsync(fd);
out:
	if (rc < 0)
		log_warn("%s", path ? path : name);
	if (fd >= 0)
		close(fd);
	free(tmp);
	free(path);
	return rc;
}

FILE *
statefile_open(const char *dir, const char *name)
{
	char *path = state_path(dir, name);
	FILE *f = path ? fopen(path, "re") : NULL;

	free(path);
	return f;
}
