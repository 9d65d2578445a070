/*
 * The NFSv4 pseudo file system (RFC 8881 7.3-7.5): the directories on the
 * way from "/" to each export, as one client sees them. Part of the gate
 * (access.c): which exports a client sees, and where a v4 client leaves
 * one, are questions about the export table, which the rooms do not read. Only exports this
 * client matches show, and only the path components that lead to them;
 * none of it is on a disk. An export with fsid=0 (or fsid=root) is the
 * root instead, as with knfsd, and then there is no pseudo file system.
 */
#ifndef USERNFSD_ACCESS_PSEUDO_H
#define USERNFSD_ACCESS_PSEUDO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fs/fh.h"

struct rpc_call;
struct export;
struct fs_ctx;

#define N4_PSEUDO_PATH_MAX 4096

struct n4_pseudo {
	uint64_t id;			/* in its handle: a hash of the path */
	char path[N4_PSEUDO_PATH_MAX];	/* "/" or "/srv/nfs", no trailing slash */
};

/*
 * PUTROOTFH: 0 with *exp set to the fsid=0 export this client may use,
 * or with *exp NULL and node the pseudo root.
 */
int n4_pseudo_root(struct rpc_call *call, struct n4_pseudo *node, const struct export **exp);
/* The node a pseudo handle names: 0, EBADHANDLE (not a pseudo handle) or ESTALE. */
int n4_pseudo_from_fh(struct rpc_call *call, const void *fh, size_t len, struct n4_pseudo *node);
size_t n4_pseudo_fh(const struct n4_pseudo *node, uint8_t out[FH_PSEUDO_LEN]);
/*
 * LOOKUP of name in dir: 0 with *exp the export whose root it is, or with
 * *exp NULL and child the pseudo directory on the way; ENOENT.
 */
int n4_pseudo_lookup(struct rpc_call *call, const struct n4_pseudo *dir, const char *name,
    struct n4_pseudo *child, const struct export **exp);
/* LOOKUPP: the parent node, ENOENT at the root. */
int n4_pseudo_parent(const struct n4_pseudo *node, struct n4_pseudo *parent);
/*
 * LOOKUPP at the root of root's export: 0 with *pexp NULL and parent the
 * pseudo directory it hangs from, or with *pexp the export the parent
 * directory lies in (nested exports) and *rest its path below that
 * export's root; ENOENT for the root of an fsid=0 export.
 */
int n4_pseudo_above(struct rpc_call *call, const struct fs_ctx *root, struct n4_pseudo *parent,
    const struct export **pexp, const char **rest);
/*
 * mounted_on_fileid of ctx's object (fileid its own): the pseudo
 * directory's fileid at the root of an export that hangs from one.
 */
uint64_t n4_pseudo_mounted_on(const struct fs_ctx *ctx, uint64_t fileid);
/* The fileid of the pseudo directory at path. */
uint64_t n4_pseudo_path_id(const char *path);
/*
 * SECINFO of a pseudo directory, which any flavor may read: every flavor
 * the exports below node list for this client, in the order first seen
 * (the client then meets each export's own list at its root); sys when
 * there are none.
 */
struct fs_flavors;
void n4_pseudo_flavors(struct rpc_call *call, const struct n4_pseudo *node, struct fs_flavors *fl);

/*
 * READDIR: fn for each entry after cookie, in a stable order (cookies are
 * 3 and up, as RFC 8881 reserves 0-2); exp is the export at the entry, or
 * NULL for a pseudo directory (then id is its fileid). fn returns non-zero
 * to stop before an entry.
 */
typedef int (*n4_pseudo_fn)(void *arg, const char *name, uint64_t cookie,
    const struct export *exp, uint64_t id);
int n4_pseudo_readdir(struct rpc_call *call, const struct n4_pseudo *dir, uint64_t cookie,
    n4_pseudo_fn fn, void *arg, int *eof);

/* Its attributes: a directory no one may write, owned by root. */
void n4_pseudo_stat(const struct n4_pseudo *node, struct stat *st);

#endif
