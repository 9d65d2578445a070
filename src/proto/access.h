/*
 * The gate every call that names a file handle passes, whatever its
 * protocol (NFSv2, NFSv3, NLM), like knfsd's fh_verify: the handle is
 * decoded and authenticated, its export found, this client checked
 * against the export, its credentials squashed and installed, and the
 * object resolved through the inode cache. A handle NFS would refuse,
 * NLM refuses too, because both come through here.  MOUNT's path
 * resolution passes the same client checks here.
 */
#ifndef USERNFSD_ACCESS_H
#define USERNFSD_ACCESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "fs/fsops.h"
#include "exports/exports.h"

struct rpc_call;
struct export;
struct export_client;

/*
 * Resolves a wire handle and checks this client may use it: 0, or
 * EBADHANDLE (not ours, or forged), ESTALE (gone, or its export removed),
 * EACCES (this client may not use the export), or a resource error.
 * fs_end releases what fs_begin took, in every case.
 */
int fs_begin(struct rpc_call *call, const void *fh, size_t fhlen, struct fs_ctx *ctx);
void fs_end(struct fs_ctx *ctx);
/*
 * READ into the call's reply: spliced into its pipe when the transport
 * sends the reply from one (rpc/readpipe.c), else into buf (count bytes).
 */
int fs_read_reply(struct rpc_call *call, struct fs_ctx *ctx, uint64_t off, size_t count,
    void *buf, size_t *n, int *eof, struct stat *st);
/* May this call's client use exp? Sets *client to its matching entry. */
int fs_export_access(struct rpc_call *call, const struct export *exp,
    const struct export_client **client);

/*
 * The security flavors a client may reach an object with, in the order
 * its export entry's sec= prefers them: what MOUNT v3 and SECINFO list.
 */
struct fs_flavors {
	unsigned n;
	enum export_flavor f[EXP_SEC_COUNT];
};
void fs_client_flavors(const struct export_client *client, struct fs_flavors *out);
/* A flavor's number in MOUNT v3's list: AUTH_SYS, AUTH_NONE, 390003-390005 for Kerberos (RFC 2623). */
uint32_t fs_pseudoflavor(enum export_flavor f);

/*
 * MOUNT: the handle for path, checking the client against the export
 * (not the call's flavor: MOUNT is AUTH_SYS even for Kerberos mounts),
 * and the flavors the client may then use (fl may be NULL).
 */
int fs_mount_fh(struct rpc_call *call, const char *path, struct fh *fh, struct fs_flavors *fl);
/* The same, encoded as a v3 handle (*fhlen: room in, length out)... */
int fs_mount(struct rpc_call *call, const char *path, uint8_t *fhbuf, size_t *fhlen,
    struct fs_flavors *fl);
/* ... or as a 32-byte v2 handle (ENOFH2 when the object has none). */
int fs_mount_v2(struct rpc_call *call, const char *path, uint8_t fhbuf[FH2_LEN]);
/* MOUNT v2 PATHCONF: path's limits, after the same checks as a mount. */
int fs_mount_pathconf(struct rpc_call *call, const char *path, struct fs_pathconf *pc);
/*
 * MOUNT UMNT/UMNTALL: forget host's mount of path (NULL: all of them) in
 * the list DUMP reports and STATEDIR/rmtab.
 */
void fs_umount(struct rpc_call *call, const char *host, const char *path);

#endif
