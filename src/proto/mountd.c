/*
 * MOUNT v1, v2 and v3: hands out root handles after checking the client
 * against the exports (fsops), lists the exports, and answers DUMP from
 * the list of mounts rmtab.c keeps.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "rpc/dispatch.h"
#include "access.h"
#include "errmap.h"
#include "exports/exports.h"
#include "fs/fsops.h"
#include "log.h"
#include "rpc/mount_prot.h"
#include "mountd.h"
#include "exports/rmtab.h"
#include "rpc/rpcproc.h"
#include "rpc/transport.h"

void
mountd_init(const char *statedir)
{
	rmtab_init(statedir);
}

/* ---- procedures ---- */

/* Logs a MNT and, when it succeeded, records it for DUMP. */
static void
mount_record(struct rpc_call *call, const char *path, int err)
{
	char host[64];

	req_peer_str(call->req, host, sizeof(host));
	if (err) {
		log_info("%s: mount %s (v%u) refused: %s", host, path, call->vers,
		    err == EACCES ? "access denied" : strerror(err));
		return;
	}
	log_info("%s: mounted %s (v%u)", host, path, call->vers);
	rmtab_add(host, path);
}

static void
mnt3_mnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	mountres3 *r = resp;
	uint8_t *fh = call_alloc(call, FH3_MAXLEN);
	int *flavors = call_alloc(call, EXP_SEC_COUNT * sizeof(int));
	size_t fhlen = FH3_MAXLEN;
	struct fs_flavors fl;
	int err;

	err = (fh && flavors) ? fs_mount(call, *path, fh, &fhlen, &fl) : ENOMEM;
	r->fhs_status = (mountstat3)errno_to_mnt3(err);
	mount_record(call, *path, err);
	if (err)
		return;
	/* The export's sec= in its order: the client picks the first it can use (RFC 2623 2.7). */
	for (unsigned i = 0; i < fl.n; i++)
		flavors[i] = (int)fs_pseudoflavor(fl.f[i]);
	r->mountres3_u.mountinfo.fhandle.fhandle3_val = (char *)fh;
	r->mountres3_u.mountinfo.fhandle.fhandle3_len = (u_int)fhlen;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_val = flavors;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_len = fl.n;
}

/* MOUNT v1/v2: the same checks, answered with a 32-byte NFSv2 handle. */
static void
mnt1_mnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	fhstatus *r = resp;
	int err = fs_mount_v2(call, *path, (uint8_t *)r->fhstatus_u.fhs_fhandle);

	/* The status is an errno value, in the numbering NFSv2 statuses use. */
	r->fhs_status = (u_int)errno_to_mnt1(err);
	mount_record(call, *path, err);
}

struct dump_fill {
	struct rpc_call *call;
	mountlist *tail;
	int full;
};

static void
dump_one(void *arg, const char *host, const char *path)
{
	struct dump_fill *f = arg;
	struct mountbody *b;
	char *h, *p;

	if (f->full)
		return;
	b = call_alloc(f->call, sizeof(*b));
	h = call_alloc(f->call, strlen(host) + 1);
	p = call_alloc(f->call, strlen(path) + 1);
	if (b == NULL || h == NULL || p == NULL) {
		f->full = 1;
		return;
	}
	strcpy(h, host);
	strcpy(p, path);
	b->ml_hostname = h;
	b->ml_directory = p;
	*f->tail = b;
	f->tail = &b->ml_next;
}

static void
mnt_dump(struct rpc_call *call, void *argp, void *resp)
{
	struct dump_fill f = { .call = call, .tail = resp };

	(void)argp;
	rmtab_foreach(dump_one, &f);
}

static void
mnt_umnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	char host[64];

	(void)resp;
	req_peer_str(call->req, host, sizeof(host));
	fs_umount(call, host, *path);
}

static void
mnt_umntall(struct rpc_call *call, void *argp, void *resp)
{
	char host[64];

	(void)argp; (void)resp;
	req_peer_str(call->req, host, sizeof(host));
	fs_umount(call, host, NULL);
}

static void
mnt_export(struct rpc_call *call, void *argp, void *resp)
{
	exports *r = resp, *tail = r;
	const struct export_table *t = call->exports;

	(void)argp;
	for (size_t i = 0; t && i < t->n; i++) {
		const struct export *e = &t->exports[i];
		struct exportnode *n = call_alloc(call, sizeof(*n));
		groups *gtail;

		if (n == NULL)
			return;
		n->ex_dir = e->path;
		gtail = &n->ex_groups;
		for (size_t k = 0; k < e->nclients; k++) {
			struct groupnode *g = call_alloc(call, sizeof(*g));
			if (g == NULL)
				return;
			g->gr_name = e->clients[k].spec;
			*gtail = g;
			gtail = &g->gr_next;
		}
		*tail = n;
		tail = &n->ex_next;
	}
}

/*
 * v2 PATHCONF (XNFS): the POSIX limits of the file system behind an
 * exported path, for clients mounting with "posix". pc_mask bits are
 * numbered by SunOS's _PC_* values: bit 0 says nothing is valid; the
 * bit of a limit says it has none; CHOWN_RESTRICTED and NO_TRUNC are
 * true when set.
 */
#define PC_ERROR		0
#define PC_LINK_MAX		1
#define PC_MAX_CANON		2
#define PC_MAX_INPUT		3
#define PC_NAME_MAX		4
#define PC_PATH_MAX		5
#define PC_PIPE_BUF		6
#define PC_CHOWN_RESTRICTED	7
#define PC_NO_TRUNC		8

/* A limit into a short field; its mask bit when there is none. */
static short
pc_short(long v, int bit, short *mask)
{
	if (v < 0) {
		*mask |= (short)(1 << bit);
		return 0;
	}
	return v > 32767 ? 32767 : (short)v;
}

static void
mnt2_pathconf(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	ppathcnf *r = resp;
	struct fs_pathconf pc;
	short *mask = &r->pc_mask[0];

	/* The same checks as MNT: only a client that may mount the path learns about it. */
	if (fs_mount_pathconf(call, *path, &pc) != 0) {
		*mask = 1 << PC_ERROR;
		return;
	}
	if (pc.link_max < 0)
		*mask |= 1 << PC_LINK_MAX;
	r->pc_link_max = pc.link_max < 0 ? 0 : pc.link_max > INT32_MAX ? INT32_MAX : (int)pc.link_max;
	r->pc_max_canon = pc_short(pc.max_canon, PC_MAX_CANON, mask);
	r->pc_max_input = pc_short(pc.max_input, PC_MAX_INPUT, mask);
	r->pc_name_max = pc_short(pc.name_max, PC_NAME_MAX, mask);
	r->pc_path_max = pc_short(pc.path_max, PC_PATH_MAX, mask);
	r->pc_pipe_buf = pc_short(pc.pipe_buf, PC_PIPE_BUF, mask);
	r->pc_vdisable = _POSIX_VDISABLE;
	*mask |= 1 << PC_CHOWN_RESTRICTED | 1 << PC_NO_TRUNC;
}

#define MPROC(name, argx, args, resx, res, fn) \
	{ name, XDRPROC(argx), args, XDRPROC(resx), res, fn, 0 }
/* MNT: its result starts with a status, which statistics count. */
#define MPROC_MNT(name, argx, args, resx, res, fn) \
	{ name, XDRPROC(argx), args, XDRPROC(resx), res, fn, PROC_STATUS }

static const struct rpc_proc mount3_procs[] = {
	[MOUNTPROC3_NULL] = RPC_PROC_NULL("NULL"),
	[MOUNTPROC3_MNT] = MPROC_MNT("MNT", xdr_dirpath, sizeof(dirpath), xdr_mountres3,
	    sizeof(mountres3), mnt3_mnt),
	[MOUNTPROC3_DUMP] = MPROC("DUMP", xdr_void, 0, xdr_mountlist, sizeof(mountlist), mnt_dump),
	[MOUNTPROC3_UMNT] = MPROC("UMNT", xdr_dirpath, sizeof(dirpath), xdr_void, 0, mnt_umnt),
	[MOUNTPROC3_UMNTALL] = MPROC("UMNTALL", xdr_void, 0, xdr_void, 0, mnt_umntall),
	[MOUNTPROC3_EXPORT] = MPROC("EXPORT", xdr_void, 0, xdr_exports, sizeof(exports), mnt_export),
};

/* Versions 1 and 2 share these; EXPORTALL is EXPORT (RFC 1094 A.5.7). */
#define MOUNT1_PROCS \
	[MOUNTPROC_NULL] = RPC_PROC_NULL("NULL"), \
	[MOUNTPROC_MNT] = MPROC_MNT("MNT", xdr_dirpath, sizeof(dirpath), xdr_fhstatus, \
	    sizeof(fhstatus), mnt1_mnt), \
	[MOUNTPROC_DUMP] = MPROC("DUMP", xdr_void, 0, xdr_mountlist, sizeof(mountlist), mnt_dump), \
	[MOUNTPROC_UMNT] = MPROC("UMNT", xdr_dirpath, sizeof(dirpath), xdr_void, 0, mnt_umnt), \
	[MOUNTPROC_UMNTALL] = MPROC("UMNTALL", xdr_void, 0, xdr_void, 0, mnt_umntall), \
	[MOUNTPROC_EXPORT] = MPROC("EXPORT", xdr_void, 0, xdr_exports, sizeof(exports), mnt_export), \
	[MOUNTPROC_EXPORTALL] = MPROC("EXPORTALL", xdr_void, 0, xdr_exports, sizeof(exports), \
	    mnt_export)

static const struct rpc_proc mount1_procs[] = {
	MOUNT1_PROCS,
};

static const struct rpc_proc mount2_procs[] = {
	MOUNT1_PROCS,
	[MOUNTPROC_PATHCONF] = MPROC("PATHCONF", xdr_dirpath, sizeof(dirpath), xdr_ppathcnf,
	    sizeof(ppathcnf), mnt2_pathconf),
};

static const struct rpc_version mount_versions[] = {
	{ 1, mount1_procs, ARRAY_SIZE(mount1_procs), 0 },
	{ 2, mount2_procs, ARRAY_SIZE(mount2_procs), 0 },
	{ 3, mount3_procs, ARRAY_SIZE(mount3_procs), 0 },
};

const struct rpc_program mount_program = {
	MOUNT_PROGRAM_NUMBER, "MOUNT", mount_versions, ARRAY_SIZE(mount_versions), RPC_SVC_MOUNT,
};
