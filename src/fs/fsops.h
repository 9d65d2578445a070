/*
 * File-system operations shared by every protocol version, on objects the
 * gate (proto/access.h, knfsd's fh_verify) has admitted into an fs_ctx.
 * This layer knows file systems, handles and identities, never exports,
 * clients or calls: what it needs of them the gate puts into the fs_ctx
 * (the root, the squashed identity, ro/async, the hooks for crossing a
 * mount point).  The protocol rooms only decode, call these and encode: no
 * system call on a file and no look inside an inode cache entry there.
 * Every function returns 0 or an errno value (or one of fserr.h's own
 * codes); proto/errmap.c turns that into the version's status code.
 * Reading is here (fsops.c), modifying in fsops_write.c.
 */
#ifndef USERNFSD_FSOPS_H
#define USERNFSD_FSOPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "creds.h"
#include "fh.h"
#include "fserr.h"
#include "fsroot.h"

struct inode_ent;
struct rpc_call;
struct export;
struct export_client;
struct fs_ctx;

/* What the gate found in the client's export entry, for the fs layer. */
#define FS_CTX_RO	0x1	/* ro: the protocol refuses changes */
#define FS_CTX_ASYNC	0x2	/* async: changes need not be durable before the reply */
#define FS_CTX_NODELEG	0x4	/* no_delegations: NFSv4 hands out none for objects here */

/*
 * How LOOKUP leaves the file system it is on.  Only the gate knows which
 * export serves a mount point and whether this client may enter it, so it
 * supplies these (proto/access.c); each fills child's root, flags, cred
 * and gate fields, and the fs layer then resolves the name itself.
 */
struct fs_cross {
	/* dir's entry is the root of file system (dev, ino): enter it, or EACCES. */
	int (*down)(const struct fs_ctx *dir, dev_t dev, ino_t ino, struct fs_ctx *child);
	/* ".." at dir's root: the export it was entered from, or ENOENT for none. */
	int (*up)(const struct fs_ctx *dir, struct fs_ctx *child);
};

/*
 * A directory's attributes just before and just after a change this call
 * made to its entries (CREATE, REMOVE, RENAME, LINK ...), for NFSv4's
 * change_info4. valid: both were read. atomic: read under the directory's
 * stripe lock (dirlock.h), so that no other change this server makes lies
 * between them; never with several heads.
 */
struct fs_wcc {
	struct stat before, after;
	int valid;
	int atomic;
};

/*
 * One object a call works on, as the gate (proto/access.h's fs_begin)
 * admitted it.  Everything the fs layer needs is in the first fields; the
 * last three are the gate's, which the fs layer only copies to a LOOKUP's
 * child and never looks into.
 */
struct fs_ctx {
	const struct fs_root *root;	/* the exported file system it is on */
	struct inode_ent *ent;		/* the object; NULL until resolved */
	struct creds_state *creds;	/* this worker's identity switch */
	struct eff_cred cred;		/* whom the call acts as, squashed */
	unsigned flags;			/* FS_CTX_* */
	const struct fs_cross *cross;	/* NULL: LOOKUP never leaves root */
	struct fs_wcc *wcc;		/* NULL, or where a change to this directory's entries
					   puts its attributes around the change */
	struct rpc_call *call;
	const struct export *exp;
	const struct export_client *client;
};

int fs_readonly(const struct fs_ctx *ctx);

/*
 * Asked before a change to a regular file's attributes or names
 * (SETATTR, REMOVE, RENAME, LINK) with the file's export id and inode:
 * EAGAIN when a client's delegation of it must be recalled first (the
 * hook has the recall started), else 0. Set once by the protocols, so
 * that every version's change passes it; kernel leases cover writes and
 * truncation, not these.
 */
typedef int (*fs_change_hook)(const struct fs_ctx *ctx, uint32_t export_id, uint64_t ino);
void fs_set_change_hook(fs_change_hook fn);

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
struct fs_readbuf {
	void *buf;		/* count bytes of room */
	int pipe;		/* a pipe with count bytes of room, or -1 */
	int spliced;		/* out: the data went into the pipe, not buf */
};
int fs_read(struct fs_ctx *ctx, uint64_t off, size_t count, struct fs_readbuf *rb, size_t *n,
    int *eof, struct stat *st);
/* want/granted use ACC_* bits */
#define ACC_READ 0x1
#define ACC_WRITE 0x2
#define ACC_EXEC 0x4
/* st: the object's attributes, taken for the checks, for the reply. */
int fs_access(struct fs_ctx *ctx, unsigned want, unsigned *granted, struct stat *st);
/* May the caller's identity access ctx's object with mode (R_OK...)? */
int fs_may(struct fs_ctx *ctx, int mode);

/*
 * Extended attributes of the user. namespace (fsops_xattr.c), named
 * without the prefix as NFSv4.2 names them: errno values as the xattr
 * calls give them (ENODATA: no such attribute, EEXIST, ERANGE: larger
 * than cap, E2BIG, ENOTSUP), EACCES without the data's permission (read
 * for get and list, write for set and remove). how: 0, XATTR_CREATE or
 * XATTR_REPLACE. fs_listxattr fills buf with the names, each
 * NUL-terminated.
 */
int fs_xattr_supported(struct fs_ctx *ctx);
int fs_getxattr(struct fs_ctx *ctx, const char *name, void *buf, size_t cap, size_t *len);
int fs_setxattr(struct fs_ctx *ctx, const char *name, const void *value, size_t len, int how);
int fs_removexattr(struct fs_ctx *ctx, const char *name);
int fs_listxattr(struct fs_ctx *ctx, char *buf, size_t cap, size_t *len);
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

/*
 * MOUNT: the handle of the directory rest names below root (rest relative,
 * "" for root itself), resolved as the daemon.  EXDEV: the path leaves
 * root's file system; EACCES: it leads out of root.
 */
int fs_root_lookup_path(const struct fs_root *root, const char *rest, struct fh *fh);
/* The limits of root's file system. */
void fs_root_pathconf(const struct fs_root *root, struct fs_pathconf *pc);

/* Housekeeping from the main loop. */
void fs_tick(void);

/* ---- NFSv4.2's space and copy operations (fsops_space.c) ---- */

enum fs_seek_what { FS_SEEK_DATA, FS_SEEK_HOLE };
/*
 * SEEK: where the first data (hole) at or after off begins, *eof set when
 * that is the end of the file (every file ends in a hole).  ENXIO for an
 * off at or past the end; no data between off and the end is not an
 * error: *found is the end, *eof set (RFC 7862 15.11.3).
 */
int fs_seek(struct fs_ctx *ctx, uint64_t off, enum fs_seek_what what, uint64_t *found, int *eof);
/*
 * READ_PLUS's map: the data and the holes of [off, off + count) of a
 * regular file, cut at its end, in order, at most max of them (*n); the
 * last may stop short of off + count when max ran out. *size is the file's
 * size as the map saw it. Nothing (*n 0) for an off at or past the end.
 */
struct fs_segment {
	uint64_t off, len;
	int hole;
};
int fs_segments(struct fs_ctx *ctx, uint64_t off, uint64_t count, struct fs_segment *seg,
    unsigned max, unsigned *n, uint64_t *size);
/* ALLOCATE: blocks reserved for [off, off + len); a shorter file grows to off + len. */
int fs_allocate(struct fs_ctx *ctx, uint64_t off, uint64_t len);
/* DEALLOCATE: [off, off + len) becomes a hole (what lies past the end is left); the size stays. */
int fs_deallocate(struct fs_ctx *ctx, uint64_t off, uint64_t len);
/*
 * COPY of count bytes (0: to the source's end) from src at src_off to dst
 * at dst_off, both of one export (EXDEV).  EINVAL: a range past the
 * source's end, or overlapping ranges of one file.  *copied may be short
 * of count: a long copy stops after about a second, an error after some
 * bytes ends it there; the client asks for the rest.  *committed is what
 * fs_write would say (FS_FILE_SYNC: durable, or an async export).
 */
int fs_copy(struct fs_ctx *src, uint64_t src_off, struct fs_ctx *dst, uint64_t dst_off,
    uint64_t count, uint64_t *copied, enum fs_stable *committed);
/*
 * CLONE: the same range shared rather than copied, all or nothing.  The
 * offsets and count are aligned to the clone block size, the source's
 * st_blksize (what FATTR4_CLONE_BLKSIZE says), else EINVAL; EOPNOTSUPP
 * where the file system cannot share extents (ext4, tmpfs).
 */
int fs_clone(struct fs_ctx *src, uint64_t src_off, struct fs_ctx *dst, uint64_t dst_off,
    uint64_t count);

#endif
