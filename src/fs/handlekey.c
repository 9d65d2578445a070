/*
 * --handle-key FILE: one MAC key for several heads, so that a handle one
 * head issued is accepted by every other (DESIGN.md, "Several heads").
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fh.h"
#include "heads.h"

int
handlekey_load(const char *path, char *err, size_t errlen)
{
	uint8_t key[FH_KEY_LEN + 1];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "handle key %s: %s%s", path, strerror(errno),
		    errno == ENOENT ? " (make one with: head -c 16 /dev/urandom > FILE; "
		    "chmod 600 FILE; and copy it to every head)" : "");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	/* One byte more than a key: a longer file is not a key we understand. */
	do
		n = read(fd, key, sizeof(key));
	while (n < 0 && errno == EINTR);
	close(fd);
	if (!S_ISREG(st.st_mode) || (st.st_mode & 077)) {
		snprintf(err, errlen, "handle key %s: must be a regular file readable by its "
		    "owner only (a readable key lets anyone forge handles)", path);
		return -1;
	}
	/* A short read of a regular file this small means it is short. */
	if (n != FH_KEY_LEN || st.st_size != FH_KEY_LEN) {
		snprintf(err, errlen, "handle key %s: must be exactly %d bytes (head -c %d "
		    "/dev/urandom)", path, FH_KEY_LEN, FH_KEY_LEN);
		return -1;
	}
	fh_set_key(key);
	memset(key, 0, sizeof(key));
	return 0;
}
