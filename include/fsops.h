/*
 * File-system operations shared by every protocol version: handle
 * resolution, export access checks, credentials, and the work itself.
 * Protocol modules (nfs3.c, later nfs2.c) only decode, call these and
 * encode. Every function returns 0 or an errno value; errmap.c turns that
 * into the version's status code.
 */
#ifndef USERNFSD_FSOPS_H
#define USERNFSD_FSOPS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "creds.h"
#include "errmap.h"
#include "fh.h"

struct rpc_call;
struct export;
struct export_client;
struct inode_ent;

struct fs_ctx {
	struct rpc_call *call;
	const struct export *exp;
	const struct export_client *client;
	struct inode_ent *ent;
	struct eff_cred cred;
};

/* Resolves a wire handle and checks this client may use it. */
int fs_begin(struct rpc_call *call, const void *fh, size_t fhlen, struct fs_ctx *ctx);
void fs_end(struct fs_ctx *ctx);
int fs_export_access(struct rpc_call *call, const struct export *exp,
    const struct export_client **client);
int fs_readonly(const struct fs_ctx *ctx);

/* Encodes the handle of ctx's object (or of ent) into buf; returns its length or 0. */
size_t fs_handle(const struct fs_ctx *ctx, const struct inode_ent *ent, uint8_t *buf, size_t len);

int fs_getattr(struct fs_ctx *ctx, struct stat *st);
/* child is a new fs_ctx sharing ctx's export, client and credentials. */
int fs_lookup(struct fs_ctx *dir, const char *name, struct fs_ctx *child, struct stat *st);
int fs_readlink(struct fs_ctx *ctx, char *buf, size_t len, size_t *outlen);
int fs_read(struct fs_ctx *ctx, uint64_t off, size_t count, void *buf, size_t *n, int *eof);
/* want/granted use ACC_* bits */
#define ACC_READ 0x1
#define ACC_WRITE 0x2
#define ACC_EXEC 0x4
int fs_access(struct fs_ctx *ctx, unsigned want, unsigned *granted);
int fs_statfs(struct fs_ctx *ctx, struct statvfs *sv);

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
int fs_dirent_info(struct fs_ctx *dir, const char *name, struct stat *st, struct fh *fh);

/* MOUNT: the handle for path, checking the client against the export. */
int fs_mount(struct rpc_call *call, const char *path, uint8_t *fhbuf, size_t *fhlen);

/* Housekeeping from the main loop. */
void fs_tick(void);

#endif
