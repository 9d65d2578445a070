/*
 * File-system operations shared by every protocol version: handle
 * resolution, export access checks, credentials, and the work itself.
 * The protocol rooms (nfs3.c, nfs2.c, mountd.c, nlm.c) only decode, call
 * these and encode: no system call on a file and no look inside an inode
 * cache entry or an export there. Every call that names a handle passes
 * access.h's gate first. Every function returns 0 or an errno value (or
 * one of errmap.h's own codes); errmap.c turns that into the version's
 * status code. Reading is here (fsops.c), modifying in fsops_write.c.
 */
#ifndef USERNFSD_FSOPS_H
#define USERNFSD_FSOPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "creds.h"
#include "proto/errmap.h"
#include "fh.h"

#include "proto/access.h"

struct inode_ent;

int fs_readonly(const struct fs_ctx *ctx);

/* Whether fs_begin (or fs_lookup...) resolved ctx to an object. */
int fs_resolved(const struct fs_ctx *ctx);
/* The full handle of ctx's object, for the protocol to encode. */
const struct fh *fs_handle(const struct fs_ctx *ctx);
/* The file system id clients see in attributes: the export id. */
uint32_t fs_fsid(const struct fs_ctx *ctx);
int fs_is_dir(const struct fs_ctx *ctx);

/* POSIX limits of a file system; -1 for each that has none. */
struct fs_pathconf {
	long link_max, max_canon, max_input, name_max, path_max, pipe_buf;
};
void fs_pathconf(const struct fs_ctx *ctx, struct fs_pathconf *pc);

/* Attributes of ctx's object; ESTALE (and forgotten) once it is deleted. */
int fs_getattr(struct fs_ctx *ctx, struct stat *st);
/* child is a new fs_ctx sharing ctx's export, client and credentials. */
int fs_lookup(struct fs_ctx *dir, const char *name, struct fs_ctx *child, struct stat *st);
int fs_readlink(struct fs_ctx *ctx, char *buf, size_t len, size_t *outlen);
/*
 * st: the attributes taken before the data was read, for the reply.  Never
 * newer than the data, so a client cannot cache old data under a new
 * change time; a stat after the read could be.
 */
int fs_read(struct fs_ctx *ctx, uint64_t off, size_t count, void *buf, size_t *n, int *eof,
    struct stat *st);
/* want/granted use ACC_* bits */
#define ACC_READ 0x1
#define ACC_WRITE 0x2
#define ACC_EXEC 0x4
/* st: the object's attributes, taken for the checks, for the reply. */
int fs_access(struct fs_ctx *ctx, unsigned want, unsigned *granted, struct stat *st);
/* May the caller's identity access ctx's object with mode (R_OK...)? */
int fs_may(struct fs_ctx *ctx, int mode);
int fs_statfs(struct fs_ctx *ctx, struct statvfs *sv);
/*
 * NLM: may the caller lock ctx's file? ESTALE once it is deleted; to take
 * a lock or share (take), it must own the file or be able to read it, as
 * knfsd's NFSD_MAY_LOCK asks. What was taken can always be given back.
 */
int fs_lock_access(struct fs_ctx *ctx, int take);

struct fs_dirent {
	const char *name;
	size_t namelen;
	uint64_t ino;
	uint64_t cookie;	/* resume position after this entry */
};
/* Returns 0 to take the entry, non-zero to stop before it (reply full). */
typedef int (*fs_dirent_fn)(void *arg, const struct fs_dirent *d);
int fs_readdir(struct fs_ctx *dir, uint64_t cookie, fs_dirent_fn fn, void *arg, int *eof);
/* For READDIRPLUS: attributes and handle of an entry, without caching it. */
int fs_dirent_info(struct fs_ctx *dir, const char *name, uint64_t ino, struct stat *st,
    struct fh *fh);

/* ---- modifying operations (fsops_write.c) ---- */

#define FS_SET_MODE	0x01
#define FS_SET_UID	0x02
#define FS_SET_GID	0x04
#define FS_SET_SIZE	0x08
#define FS_SET_ATIME	0x10
#define FS_SET_MTIME	0x20

/* Attributes to set; times may carry UTIME_NOW for "server time". */
struct fs_sattr {
	unsigned set;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	uint64_t size;
	struct timespec atime, mtime;
};

enum fs_stable { FS_UNSTABLE = 0, FS_DATA_SYNC = 1, FS_FILE_SYNC = 2 };
enum fs_createmode { FS_CREATE_UNCHECKED, FS_CREATE_GUARDED, FS_CREATE_EXCLUSIVE };

#define FS_VERF_LEN 8

/* A name a client may create or remove: not empty, no '/', not "." or "..". */
int fs_check_new_name(const char *name);
/*
 * guard_ctime: fail with ENOTSYNC unless the object's ctime equals it, as
 * 'before' has it: the object's attributes, taken with fs_getattr just
 * before (v3's pre-op attributes). Without a guard, 'before' may be NULL.
 */
int fs_setattr(struct fs_ctx *ctx, const struct stat *before, const struct fs_sattr *sa,
    const struct timespec *guard_ctime);
/* before: the object's attributes, taken with fs_getattr just before (WRITE's pre-op). */
int fs_write(struct fs_ctx *ctx, const struct stat *before, uint64_t off, const void *data,
    size_t len, enum fs_stable stable, size_t *written, enum fs_stable *committed);
int fs_commit(struct fs_ctx *ctx);
/* The write verifier: new on every start and after a failed write-back. */
void fs_write_verifier(uint8_t out[FS_VERF_LEN]);
void fs_write_verifier_init(void);
int fs_create(struct fs_ctx *dir, const char *name, enum fs_createmode how,
    const struct fs_sattr *sa, const uint8_t verf[FS_VERF_LEN], struct fs_ctx *child,
    struct stat *st);
int fs_mkdir(struct fs_ctx *dir, const char *name, const struct fs_sattr *sa,
    struct fs_ctx *child, struct stat *st);
int fs_symlink(struct fs_ctx *dir, const char *name, const char *target,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st);
/* type: S_IFCHR, S_IFBLK, S_IFIFO or S_IFSOCK */
int fs_mknod(struct fs_ctx *dir, const char *name, mode_t type, dev_t rdev,
    const struct fs_sattr *sa, struct fs_ctx *child, struct stat *st);
int fs_remove(struct fs_ctx *dir, const char *name);
int fs_rmdir(struct fs_ctx *dir, const char *name);
int fs_rename(struct fs_ctx *from, const char *fname, struct fs_ctx *to, const char *tname);
int fs_link(struct fs_ctx *file, struct fs_ctx *dir, const char *name);

/* MOUNT: the handle for path, checking the client against the export. */
int fs_mount_fh(struct rpc_call *call, const char *path, struct fh *fh);
/* The same, encoded as a v3 handle (*fhlen: room in, length out)... */
int fs_mount(struct rpc_call *call, const char *path, uint8_t *fhbuf, size_t *fhlen);
/* ... or as a 32-byte v2 handle (ENOFH2 when the object has none). */
int fs_mount_v2(struct rpc_call *call, const char *path, uint8_t fhbuf[FH2_LEN]);
/* MOUNT v2 PATHCONF: path's limits, after the same checks as a mount. */
int fs_mount_pathconf(struct rpc_call *call, const char *path, struct fs_pathconf *pc);
/*
 * MOUNT UMNT/UMNTALL: forget host's mount of path (NULL: all of them) in
 * the list DUMP reports and STATEDIR/rmtab.
 */
void fs_umount(struct rpc_call *call, const char *host, const char *path);

/* Housekeeping from the main loop. */
void fs_tick(void);

#endif
