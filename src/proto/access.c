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
#include "rpc/gss_proto.h"
#include "errmap.h"
#include "exports/exports.h"
#include "exports/rmtab.h"
#include "fs/icache.h"
#include "log.h"
#include "stats.h"
#include "exports/submounts.h"
#include "rpc/transport.h"

#define MNTPATHLEN_MAX 4096

_Static_assert(RPC_MAX_GIDS <= CREDS_MAX_GIDS, "an AUTH_SYS call's groups fit an eff_cred");

/* The sec= entry for sys when a list has none (a table built without the parser). */
static const struct export_sec sys_alone = { EXP_SEC_SYS, 0 };

/*
 * The entry of the client's sec= list that admits this call's flavor:
 * AUTH_SYS is sys, AUTH_NONE none or else sys (it can claim no more than
 * sys), RPCSEC_GSS's services krb5, krb5i and krb5p. NULL when the list
 * has no such flavor.
 */
static const struct export_sec *
call_sec(const struct rpc_call *call, const struct export_opts *o)
{
	const struct rpc_cred *c = &call->cred;
	const struct export_sec *s;

	if (o->nsec == 0)
		return c->flavor == AUTH_SYS || c->flavor == AUTH_NONE ? &sys_alone : NULL;
	switch (c->flavor) {
	case AUTH_NONE:
		s = export_sec_find(o, EXP_SEC_NONE);
		return s ? s : export_sec_find(o, EXP_SEC_SYS);
	case AUTH_SYS:
		return export_sec_find(o, EXP_SEC_SYS);
	case RPCSEC_GSS_FLAVOR:
		return export_sec_find(o, c->gss_svc == 3 ? EXP_SEC_KRB5P :
		    c->gss_svc == 2 ? EXP_SEC_KRB5I : EXP_SEC_KRB5);
	}
	return NULL;
}

/*
 * The options this call is served with: the list's, with ro/rw, the
 * squashes and secure as its flavor's entry has them. A call admitted
 * whatever its flavor (call->any_flavor) gets sys's, or the first
 * flavor's when sys is not listed.
 */
static unsigned
call_flags(const struct rpc_call *call, const struct export_opts *o)
{
	const struct export_sec *s = call_sec(call, o);

	if (s == NULL)
		s = export_sec_find(o, EXP_SEC_SYS);
	if (s == NULL)
		s = o->nsec ? &o->sec[0] : NULL;
	if (s == NULL || s == &sys_alone)
		return o->flags;
	return (o->flags & ~EXP_SECINFO_FLAGS) | (s->flags & EXP_SECINFO_FLAGS);
}

/* A client whose uid the call carries: AUTH_SYS's claim, a Kerberos principal's local user. */
static int
has_ids(const struct rpc_cred *in)
{
	return in->flavor == AUTH_SYS ||
	    (in->flavor == RPCSEC_GSS_FLAVOR && in->gss != NULL && in->gss->mapped);
}

/*
 * The call's identity as the client's export entry has it squashed (flags
 * from call_flags): AUTH_NONE, machine principals (host/, nfs/) and
 * principals with no local user are the anonymous ids.
 */
static void
squash(const struct rpc_cred *in, unsigned flags, const struct export_opts *o, struct eff_cred *out)
{
	memset(out, 0, sizeof(*out));
	if (!has_ids(in) || (flags & EXP_ALL_SQUASH)) {
		out->uid = o->anonuid;
		out->gid = o->anongid;
		return;
	}
	out->uid = in->uid;
	out->gid = in->gid;
	for (unsigned i = 0; i < in->ngids && i < CREDS_MAX_GIDS; i++)
		out->gids[out->ngids++] = in->gids[i];
	if (flags & EXP_ROOT_SQUASH) {
		if (out->uid == 0)
			out->uid = o->anonuid;
		if (out->gid == 0)
			out->gid = o->anongid;
		for (unsigned i = 0; i < out->ngids; i++)
			if (out->gids[i] == 0)
				out->gids[i] = o->anongid;
	}
}


/* Is the export root (or the mountpoint= path) where a file system is mounted? */
static int
is_mountpoint(const struct export *exp, const char *path)
{
	struct statx here, up;
	int dirfd = path ? AT_FDCWD : exp->root.rootfd;
	const char *name = path ? path : "";
	char parent[4200];

	if (statx(dirfd, name, path ? 0 : AT_EMPTY_PATH, STATX_MNT_ID | STATX_INO, &here) < 0)
		return 0;
	if (path)
		snprintf(parent, sizeof(parent), "%s/..", path);
	if (statx(path ? AT_FDCWD : exp->root.rootfd, path ? parent : "..", 0,
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
	unsigned flags;

	if (c == NULL) {
		STAT_INC(ST_REJ_ACCESS);
		return EACCES;
	}
	if (call_sec(call, &c->opts) == NULL && !call->any_flavor) {
		STAT_INC(ST_REJ_WRONGSEC);
		return EWRONGSEC;
	}
	flags = call_flags(call, &c->opts);
	/* A GSS call proves who sent it; its port says nothing more (knfsd does not ask either). */
	if ((flags & EXP_SECURE) && call->cred.flavor != RPCSEC_GSS_FLAVOR &&
	    req_peer_port(call->req) >= IPPORT_RESERVED) {
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

/* ctx now stands for exp as client's entry admits this call. */
static void
admit(struct fs_ctx *ctx, struct rpc_call *call, const struct export *exp,
    const struct export_client *client)
{
	ctx->root = &exp->root;
	unsigned flags = call_flags(call, &client->opts);

	ctx->creds = call_creds(call);
	ctx->flags = ((flags & EXP_RO) ? FS_CTX_RO : 0) | ((flags & EXP_ASYNC) ? FS_CTX_ASYNC : 0) |
	    ((client->opts.flags & EXP_NODELEG) ? FS_CTX_NODELEG : 0);
	ctx->call = call;
	ctx->exp = exp;
	ctx->client = client;
	squash(&call->cred, flags, &client->opts, &ctx->cred);
}

/*
 * LOOKUP reached the root of another file system: enter it as the export
 * that serves it (crossmnt, nohide), or refuse.
 */
static int
cross_down(const struct fs_ctx *dir, dev_t dev, ino_t ino, struct fs_ctx *child)
{
	const struct sockaddr *peer = (const struct sockaddr *)&dir->call->req->peer;
	const struct export_client *client;
	const struct export *sub;
	int err;

	sub = submount_enter(dir->call->exports, dir->exp, dir->client, peer, dev, ino);
	if (sub == NULL)
		return EACCES;	/* not crossable: user space cannot show the covered dir */
	if ((err = fs_export_access(dir->call, sub, &client)) != 0)
		return err;
	admit(child, dir->call, sub, client);
	return 0;
}

/* ".." at the root of a crossed submount leads back into its parent export. */
static int
cross_up(const struct fs_ctx *dir, struct fs_ctx *child)
{
	const struct export *up = dir->exp->parent;
	const struct export_client *client;
	int err;

	if (up == NULL)
		return ENOENT;	/* an export's root: ".." is the root itself */
	if ((err = fs_export_access(dir->call, up, &client)) != 0)
		return err;
	admit(child, dir->call, up, client);
	return 0;
}

static const struct fs_cross gate_cross = { cross_down, cross_up };

int
fs_begin(struct rpc_call *call, const void *wire, size_t len, struct fs_ctx *ctx)
{
	static unsigned last_log;
	const struct export_client *client;
	const struct export *exp;
	enum fh_status st;
	struct fh fh;
	int err;

	memset(ctx, 0, sizeof(*ctx));
	ctx->call = call;
	ctx->creds = call_creds(call);
	ctx->cross = &gate_cross;
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
	exp = exports_find_id(call->exports, fh.export_id);
	if (exp == NULL)
		exp = submount_find_id(call->exports, fh.export_id);
	if (exp == NULL) {
		STAT_INC(ST_REJ_STALE);
		return ESTALE;	/* the export was removed */
	}
	if ((err = fs_export_access(call, exp, &client)) != 0)
		return err;
	admit(ctx, call, exp, client);
	err = icache_get(ctx->root, &fh, ctx->creds, &ctx->ent);
	if (err) {
		if (err == ESTALE)
			STAT_INC(ST_REJ_STALE);
		return err;
	}
	if (creds_apply(ctx->creds, &ctx->cred) < 0) {
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

int
fs_read_reply(struct rpc_call *call, struct fs_ctx *ctx, uint64_t off, size_t count, void *buf,
    size_t *n, int *eof, struct stat *st)
{
	struct fs_readbuf rb = { .buf = buf, .pipe = call_read_pipe(call, count) };
	int err = fs_read(ctx, off, count, &rb, n, eof, st);

	if (rb.spliced)
		call_read_spliced(call, *n);
	return err;
}

/* ---- MOUNT ---- */

/*
 * A path below a crossmnt export that lies in a file system mounted below
 * it: the deepest mount point on the path is the export to resolve from.
 */
static const struct export *
mount_path_submount(struct rpc_call *call, const struct export *exp, const char *path,
    const char **rest)
{
	char prefix[MNTPATHLEN_MAX];
	size_t len = strlen(path), top = strlen(exp->path);

	if (len >= sizeof(prefix))
		return NULL;
	memcpy(prefix, path, len + 1);
	while (len > top) {
		const struct export *sub;

		prefix[len] = '\0';
		sub = submount_find_id(call->exports, exports_path_id(prefix));
		if (sub && strcmp(sub->path, prefix) == 0) {
			*rest = path + len;
			while (**rest == '/')
				(*rest)++;
			return sub;
		}
		while (len > top && prefix[len - 1] != '/')
			len--;
		while (len > top && prefix[len - 1] == '/')
			len--;
	}
	return NULL;
}

uint32_t
fs_pseudoflavor(enum export_flavor f)
{
	static const uint32_t num[EXP_SEC_COUNT] = {
		[EXP_SEC_SYS] = AUTH_SYS, [EXP_SEC_NONE] = AUTH_NONE,
		[EXP_SEC_KRB5] = 390003, [EXP_SEC_KRB5I] = 390004, [EXP_SEC_KRB5P] = 390005,
	};

	return (unsigned)f < EXP_SEC_COUNT ? num[f] : AUTH_SYS;
}

void
fs_client_flavors(const struct export_client *client, struct fs_flavors *out)
{
	const struct export_opts *o = &client->opts;

	out->n = 0;
	for (unsigned i = 0; i < o->nsec && i < EXP_SEC_COUNT; i++)
		out->f[out->n++] = o->sec[i].flavor;
	if (out->n == 0)
		out->f[out->n++] = EXP_SEC_SYS;
}

int
fs_mount_fh(struct rpc_call *call, const char *path, struct fh *fh, struct fs_flavors *fl)
{
	const struct export *exp;
	const struct export_client *client;
	const char *rest;
	int err;

	call->any_flavor = 1;
	if (path[0] != '/')
		return ENOENT;
	exp = exports_find_path(call->exports, path, &rest);
	if (exp == NULL)
		return EACCES;
	if ((err = fs_export_access(call, exp, &client)) != 0)
		return err;
	/* mountd looks as itself: the client's uid has no say in which export it mounts. */
	if (creds_root(call_creds(call)) < 0)
		return EPERM;
	err = fs_root_lookup_path(&exp->root, rest, fh);
	if (err == EXDEV && (client->opts.flags & EXP_CROSSMNT)) {
		const struct export *sub = mount_path_submount(call, exp, path, &rest);

		if (sub && (err = fs_export_access(call, sub, &client)) != 0)
			return err;
		if (sub)
			err = fs_root_lookup_path(&sub->root, rest, fh);
	}
	if (err == 0 && fl)
		fs_client_flavors(client, fl);
	return err == EXDEV ? EACCES : err;
}

void
fs_umount(struct rpc_call *call, const char *host, const char *path)
{
	/*
	 * rmtab is the daemon's file: written with whatever identity this
	 * worker's previous call left behind (a squashed client's), replacing
	 * it failed with EACCES and the file kept mounts DUMP had forgotten.
	 */
	if (creds_root(call_creds(call)) < 0) {
		log_warn("umount: cannot return to the daemon's identity");
		return;
	}
	rmtab_remove(host, path);
}

int
fs_mount_v2(struct rpc_call *call, const char *path, uint8_t fhbuf[FH2_LEN])
{
	struct fh fh;
	int err = fs_mount_fh(call, path, &fh, NULL);

	if (err)
		return err;
	return fh_encode_v2(&fh, fhbuf) == FH2_LEN ? 0 : ENOFH2;
}

int
fs_mount_pathconf(struct rpc_call *call, const char *path, struct fs_pathconf *pc)
{
	const struct export *exp;
	const char *rest;
	struct fh fh;
	int err = fs_mount_fh(call, path, &fh, NULL);

	if (err)
		return err;
	exp = exports_find_path(call->exports, path, &rest);
	if (exp == NULL)
		return ENOENT;
	/* Mount points are not crossed, so the export root's file system is the path's. */
	fs_root_pathconf(&exp->root, pc);
	return 0;
}

int
fs_mount(struct rpc_call *call, const char *path, uint8_t *fhbuf, size_t *fhlen,
    struct fs_flavors *fl)
{
	struct fh fh;
	int err = fs_mount_fh(call, path, &fh, fl);

	if (err)
		return err;
	*fhlen = fh_encode(&fh, fhbuf, *fhlen);
	return *fhlen ? 0 : EINVAL;
}
