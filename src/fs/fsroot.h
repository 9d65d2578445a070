/*
 * The file system part of an export: what the fs layer needs to resolve
 * handles and names below it.  exports/ embeds one in each struct export
 * (and in each submount it enters); fs/ sees only this, never the export's
 * clients and options, which stay with the gate (proto/access.c).
 */
#ifndef USERNFSD_FSROOT_H
#define USERNFSD_FSROOT_H

#include <stdint.h>
#include <sys/types.h>

struct fs_root {
	/*
	 * Appears in file handles, so it must be stable: exports/ derives it
	 * from fsid= or the path.  Id 0 is only ever the NFSv4-style pseudo
	 * root (fsid=0).
	 */
	uint32_t id;
	int rootfd;		/* descriptor of the root directory, or -1 */
	dev_t dev;		/* its file system: handles never lead off it */
	ino_t ino;		/* its inode: nothing above it is reachable */
	const char *path;	/* for messages; owned by whoever embeds this */
};

#endif
