/*
 * The gate every call that names a file handle passes, whatever its
 * protocol (NFSv2, NFSv3, NLM) — knfsd's fh_verify: decode and
 * authenticate the handle, find its export, check this client against
 * the export (address match, `secure`, `mountpoint`, crossmnt), squash the
 * credentials, resolve the object through the inode cache and take on
 * the client's identity. MOUNT checks clients through fs_export_access.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "access.h"
#include "rpc/dispatch.h"
#include "errmap.h"
#include "exports/exports.h"
#include "fs/icache.h"
#include "log.h"
#include "stats.h"
#include "exports/submounts.h"
#include "rpc/transport.h"

/* Is the export root (or the mountpoint= path) where a file system is mounted? */
static int
is_mountpoint(const struct export *exp, const char *path)
{
	struct statx here, up;
	int dirfd = path ? AT_FDCWD : exp->rootfd;
	const char *name = path ? path : "";
	char parent[4200];

	if (statx(dirfd, name, path ? 0 : AT_EMPTY_PATH, STATX_MNT_ID | STATX_INO, &here) < 0)
		return 0;
	if (path)
		snprintf(parent, sizeof(parent), "%s/..", path);
	if (statx(path ? AT_FDCWD : exp->rootfd, path ? parent : "..", 0,
	    STATX_MNT_ID | STATX_INO, &up) < 0)
		return 0;
	/* Different mounts, or "/" itself (its own parent). */
	return here.stx_mnt_id != up.stx_mnt_id ||
	    (here.stx_ino == up.stx_ino && here.stx_dev_major == up.stx_dev_major &&
	    here.stx_dev_minor == up.stx_dev_minor);
}

int
fs_export_access(struct rpc_call *call, const struct export *exp,
    const struct export_client **client)
{
	static unsigned last_log;
	const struct export_client *c = export_match(exp, (const struct sockaddr *)&call->req->peer);

	if (c == NULL) {
		STAT_INC(ST_REJ_ACCESS);
		return EACCES;
	}
	if ((c->opts.flags & EXP_SECURE) && req_peer_port(call->req) >= IPPORT_RESERVED) {
		char peer[64];

		STAT_INC(ST_REJ_SECURE_PORT);
		req_peer_str(call->req, peer, sizeof(peer));
		log_ratelimited(&last_log, "%s: request from unprivileged port %u refused (export %s is 'secure')",
		    peer, req_peer_port(call->req), exp->path);
		return EACCES;
	}
	/* mountpoint: while nothing is mounted there, the export is not served. */
	if ((c->opts.flags & EXP_MOUNTPOINT) && !is_mountpoint(exp, c->opts.mountpoint)) {
		STAT_INC(ST_REJ_ACCESS);
		return EACCES;
	}
	/* A submount is served only to clients whose entry says crossmnt. */
	if (exp->parent && !(c->opts.flags & EXP_CROSSMNT)) {
		STAT_INC(ST_REJ_ACCESS);
		return EACCES;
	}
	*client = c;
	return 0;
}

int
fs_begin(struct rpc_call *call, const void *wire, size_t len, struct fs_ctx *ctx)
{
	static unsigned last_log;
	enum fh_status st;
	struct fh fh;
	int err;

	memset(ctx, 0, sizeof(*ctx));
	ctx->call = call;
	st = fh_decode(wire, len, &fh);
	if (st != FH_OK) {
		STAT_INC(st == FH_BADMAC ? ST_REJ_BADMAC : ST_REJ_BADHANDLE);
		if (st == FH_BADMAC) {
			char peer[64];
			req_peer_str(call->req, peer, sizeof(peer));
			log_ratelimited(&last_log, "%s: file handle with a bad MAC", peer);
		}
		return EBADHANDLE;
	}
	ctx->exp = exports_find_id(call->exports, fh.export_id);
	if (ctx->exp == NULL)
		ctx->exp = submount_find_id(call->exports, fh.export_id);
	if (ctx->exp == NULL) {
		STAT_INC(ST_REJ_STALE);
		return ESTALE;	/* the export was removed */
	}
	err = fs_export_access(call, ctx->exp, &ctx->client);
	if (err)
		return err;
	creds_squash(&call->cred, &ctx->client->opts, &ctx->cred);
	err = icache_get(ctx->exp, &fh, call_creds(call), &ctx->ent);
	if (err) {
		if (err == ESTALE)
			STAT_INC(ST_REJ_STALE);
		return err;
	}
	if (creds_apply(call_creds(call), &ctx->cred) < 0) {
		log_warn("cannot switch to uid %u", (unsigned)ctx->cred.uid);
		return EPERM;
	}
	return 0;
}

void
fs_end(struct fs_ctx *ctx)
{
	icache_put(ctx->ent);
	ctx->ent = NULL;
}
