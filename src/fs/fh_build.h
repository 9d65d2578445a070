/*
 * Building file handles for objects on disk (src/fh_build.c): statx() for
 * the attributes, the kernel handle from the inode cache or from
 * name_to_handle_at.
 */
#ifndef USERNFSD_FH_BUILD_H
#define USERNFSD_FH_BUILD_H

#include <stdint.h>
#include <sys/stat.h>

#include "fh.h"

struct fs_root;

/*
 * Attributes and handle (no cache entry) of name under dirfd, "" for dirfd
 * itself, with one statx(): EXDEV for an object on another file system.
 */
int fh_stat_for_name(const struct fs_root *root, int dirfd, const char *name, struct stat *st,
    struct fh *out);
/* The same for a directory entry whose inode number (d_ino) is known: cheaper when cached. */
int fh_stat_for_dirent(const struct fs_root *root, int dirfd, const char *name, uint64_t ino,
    struct stat *st, struct fh *out);
/* The generation we use: derived from the birth time where the fs has one. */
uint32_t gen_from_statx_btime(int64_t sec, uint32_t nsec);

/* statx() of name under dirfd ("" for dirfd itself), basic stats and birth time. */
int statx_at(int dirfd, const char *name, struct statx *stx);
dev_t statx_dev(const struct statx *stx);
/* What statx said, as a struct stat. */
void stat_from_statx(const struct statx *stx, struct stat *st);
/* The full handle of the object statx described (name under dirfd). */
void fh_from_statx(const struct fs_root *root, int dirfd, const char *name, const struct statx *stx,
    struct fh *out);
/* Does the object whose full handle is 'have' answer to the handle 'want'? */
int fh_matches(const struct fh *want, const struct fh *have);

#endif
