/*
 * The inode cache: file handle -> open object. Each entry holds an O_PATH
 * descriptor, so every operation works on the object itself (openat/fstatat
 * families), never on a path that could be swapped underneath.
 *
 * A miss is resolved with open_by_handle_at when the kernel handle and the
 * privilege are there; otherwise by searching the export for the inode
 * number and checking the candidate's kernel handle or generation. Either
 * way a handle survives daemon restarts and renames of the object or its
 * ancestors.
 *
 * src/icache.c holds the table; src/beneath.c resolves misses;
 * src/fh_build.c builds handles; src/fdcache.c keeps the data descriptors.
 */
#ifndef USERNFSD_ICACHE_H
#define USERNFSD_ICACHE_H

#include <stdint.h>
#include <sys/queue.h>
#include <sys/stat.h>

#include "fh.h"

struct fs_root;
struct creds_state;

struct inode_ent {
	struct fh fh;		/* the handle this entry answers to */
	int fd;			/* O_PATH, owned by the cache */
	int rdfd;		/* O_RDONLY: a file's on first READ, a directory's on first sync */
	int wrfd;		/* O_RDWR, opened on first WRITE */
	int dirty;		/* unstable writes not yet synced (under the cache lock) */
	int wb_err;		/* a write-back error not yet reported to a client */
	int wb_busy;		/* the sweeper is syncing it: COMMIT waits */
	unsigned sweep_pass;	/* the last sweep that looked at it */
	/* durable.c's, under its own lock: metadata syncs, shared by callers */
	uint64_t synced_upto;	/* every change stamped up to this is durable */
	uint64_t failed_upto;	/* a sync covering changes up to this failed ... */
	int failed_err;		/* ... with this errno */
	int syncing;		/* a sync is running */
	long last_used;		/* monotonic seconds, for closing idle data descriptors */
	mode_t type;		/* S_IFMT bits */
	/* cache internals */
	struct inode_ent *hnext;
	struct inode_ent *inext;	/* chain of the inode-number index */
	TAILQ_ENTRY(inode_ent) lru;
	unsigned refs;
	int detached;		/* forgotten: freed by the last icache_put */
};

void icache_init(unsigned capacity);
/*
 * Returns 0 with a referenced entry, or an errno: ESTALE (gone), EBADF (not
 * a handle this export could have issued), or a resource error.
 */
int icache_get(const struct fs_root *root, const struct fh *fh, struct creds_state *cs,
    struct inode_ent **out);
/*
 * Enters an object found by name under dirfd. Fills fh and returns a
 * referenced entry, or an errno; with st, also the object's attributes
 * as the lookup found them (no second stat for the reply).
 */
int icache_enter(const struct fs_root *root, int dirfd, const char *name, struct inode_ent **out,
    struct stat *st);
void icache_put(struct inode_ent *e);
/* Another reference to an entry already held. */
void icache_ref(struct inode_ent *e);
/* Forget an object the server knows is gone. */
void icache_forget(struct inode_ent *e);
/*
 * Data descriptors for a regular file, opened once as the daemon and kept
 * (the caller checks the client's permission first). -1 with errno.
 */
int icache_read_fd(struct inode_ent *e, struct creds_state *cs);
int icache_write_fd(struct inode_ent *e, struct creds_state *cs);
/*
 * Closes the writable descriptor of a file the caller alone holds, when
 * nothing written through it is unstable: 0, or -1 when it stays (a file
 * we hold open for writing cannot be leased; lease.c asks this first).
 */
int icache_drop_write_fd(struct inode_ent *e);
/*
 * A descriptor fsync accepts (it refuses O_PATH ones): the data descriptor
 * of a regular file, a read-only one kept for a directory. EINVAL for
 * objects that cannot be opened to sync (symlinks, devices, FIFOs).
 */
int icache_fsync_fd(struct inode_ent *e, struct creds_state *cs);
void icache_mark_dirty(struct inode_ent *e);
/*
 * A write-back failure seen outside WRITE and COMMIT: the next WRITE or
 * COMMIT on the file reports it, and the write verifier changes.
 */
void icache_note_wb_error(struct inode_ent *e, int err);
/* A write-back error seen since the last call (reported once), or 0. */
int icache_take_error(struct inode_ent *e);
/*
 * Makes everything written through the cache durable (COMMIT). 0 or an
 * errno; a failure also changes the write verifier.
 */
int icache_sync(struct inode_ent *e, int datasync);
/* "/proc/self/fd/N" for the entry's O_PATH descriptor. */
void icache_proc_path(const struct inode_ent *e, char *buf, size_t len);
/* The thread that runs icache_sweep once a second. */
int icache_start_sweeper(void);
void icache_stop_sweeper(void);
/* Deferred write-back failures seen so far (feeds the write verifier). */
unsigned icache_wb_failures(void);
/* Drops entries whose objects were deleted behind our back; closes idle data fds. */
void icache_sweep(void);
/* Entries in the cache now (statistics). */
unsigned icache_entries(void);

#endif
