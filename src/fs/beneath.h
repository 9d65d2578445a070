/*
 * Confined resolution (src/beneath.c): paths that cannot leave the
 * directory they start from, and handles resolved to open objects.
 */
#ifndef USERNFSD_BENEATH_H
#define USERNFSD_BENEATH_H

#include "fh.h"

struct fs_root;
struct creds_state;

/* openat2 confined beneath dirfd: no symlinks, no mount crossing, no escape. */
int openat_beneath(int dirfd, const char *path, int flags);
/* The same by a walk of openat(O_NOFOLLOW) calls, where openat2 is missing. */
int openat_beneath_walk(int dirfd, const char *path, int flags);
/*
 * The object a handle names, found without the inode cache: an O_PATH
 * descriptor, with its full handle in *have; -1 with errno (ESTALE when it
 * is gone or is not the object the handle was made for).
 */
int beneath_resolve_handle(const struct fs_root *root, const struct fh *fh, struct creds_state *cs,
    struct fh *have);

#endif
