/*
 * Does each export's file system give persistent handles? A handle of
 * ours carries the kernel's own handle (name_to_handle_at) when the file
 * system gives one that fits; that is what finds an object again after a
 * restart, and on another head of a cluster file system. Without it a
 * handle holds only the export id, inode number and a generation from the
 * birth time, and a cache miss (every handle, after a restart or a
 * failover) is resolved by walking the export for that inode number
 * (icache.c, search_export): slow on a big tree, and stale for good when
 * the file system numbers its inodes anew on every mount (most FUSE file
 * systems). Better said at start-up than found out at the first failover.
 *
 * FUSE is the other case. The kernel gives a FUSE file system's objects
 * handles (the FUSE node id and generation) whether or not the file system
 * supports export, and without that support they resolve only while the
 * kernel still caches the object: a remount, a restart of the FUSE
 * process, or another head, and they are stale. Support cannot be seen
 * from outside, so every FUSE export is named.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/magic.h>
#include <string.h>
#include <sys/vfs.h>

#include "exports.h"
#include "fs/fh.h"
#include "heads.h"

/* 0 when path has a kernel handle we can carry; else an errno saying why not. */
static int
probe_handle(const char *path, unsigned *needed)
{
	struct {
		struct file_handle h;
		unsigned char bytes[FH_KFH_MAX];
	} kh;
	int mnt_id;

	kh.h.handle_bytes = FH_KFH_MAX;
	if (name_to_handle_at(AT_FDCWD, path, &kh.h, &mnt_id, 0) < 0) {
		*needed = kh.h.handle_bytes;
		return errno;
	}
	if (kh.h.handle_type < 0 || kh.h.handle_type > 255)
		return EOPNOTSUPP;
	return 0;
}

static void
where_of(const struct export *e, char *where, size_t len)
{
	/* Line 0: built in code (--share), where the export's path says it all. */
	if (e->line)
		snprintf(where, len, "%s:%u: ", e->file, e->line);
	else
		where[0] = '\0';
}

static int
is_fuse(const char *path)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && sf.f_type == FUSE_SUPER_MAGIC;
}

static void
say_fuse(const struct export *e, char *msg, size_t len)
{
	char where[512];

	where_of(e, where, sizeof(where));
	snprintf(msg, len, "%swarning: export %s is on a FUSE file system: its kernel handles "
	    "hold FUSE node ids, which stay valid after a remount, a restart of the FUSE "
	    "process or on another head only if the file system supports export (few do; "
	    "this cannot be checked from here); otherwise clients get stale handles after "
	    "any of those, and across a failover", where, e->path);
}

static void
say_why(const struct export *e, int err, unsigned needed, char *msg, size_t len)
{
	char where[512], why[128];

	where_of(e, where, sizeof(where));
	if (err == EOVERFLOW)
		snprintf(why, sizeof(why), "its kernel handles are %u bytes, more than the %d "
		    "ours can carry", needed, FH_KFH_MAX);
	else
		snprintf(why, sizeof(why), "name_to_handle_at: %s", strerror(err));
	snprintf(msg, len, "%swarning: export %s has no persistent file handles (%s): its "
	    "handles carry only the inode number and birth time, and after a restart or on "
	    "another head they are found again by walking the export, slowly, or go stale "
	    "if the file system numbers inodes anew when mounted again (most FUSE file "
	    "systems); do not rely on them across restarts or failover", where, e->path, why);
}

unsigned
fhcheck_exports(const struct export_table *t, void (*warn)(void *, const char *), void *arg)
{
	unsigned warned = 0;

	for (size_t i = 0; i < t->n; i++) {
		const struct export *e = &t->exports[i];
		unsigned needed = 0;
		char msg[1536];
		int err = probe_handle(e->path, &needed);

		/* A missing or unreadable export is reported where it is opened. */
		if (err == ENOENT || err == EACCES || err == ENOTDIR || err == ELOOP)
			continue;
		if (err)
			say_why(e, err, needed, msg, sizeof(msg));
		else if (is_fuse(e->path))
			say_fuse(e, msg, sizeof(msg));
		else
			continue;
		warn(arg, msg);
		warned++;
	}
	return warned;
}
