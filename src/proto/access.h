/*
 * The gate every call that names a file handle passes, whatever its
 * protocol (NFSv2, NFSv3, NLM), like knfsd's fh_verify: the handle is
 * decoded and authenticated, its export found, this client checked
 * against the export, its credentials squashed and installed, and the
 * object resolved through the inode cache. A handle NFS would refuse,
 * NLM refuses too, because both come through here.
 */
#ifndef USERNFSD_ACCESS_H
#define USERNFSD_ACCESS_H

#include <stddef.h>

#include "creds.h"

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

/*
 * Resolves a wire handle and checks this client may use it: 0, or
 * EBADHANDLE (not ours, or forged), ESTALE (gone, or its export removed),
 * EACCES (this client may not use the export), or a resource error.
 * fs_end releases what fs_begin took, in every case.
 */
int fs_begin(struct rpc_call *call, const void *fh, size_t fhlen, struct fs_ctx *ctx);
void fs_end(struct fs_ctx *ctx);
/* May this call's client use exp? Sets *client to its matching entry. */
int fs_export_access(struct rpc_call *call, const struct export *exp,
    const struct export_client **client);

#endif
