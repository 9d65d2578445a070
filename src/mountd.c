/*
 * MOUNT: hands out root handles after checking the client against the
 * exports, and keeps the list of mounts that DUMP reports (also saved in
 * the state directory, so showmount -a survives a restart).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler.h"
#include "dispatch.h"
#include "errmap.h"
#include "exports.h"
#include "fh.h"
#include "fsops.h"
#include "log.h"
#include "mount_prot.h"
#include "mountd.h"
#include "transport.h"

#define MAX_MOUNT_ENTRIES 4096

struct mount_entry {
	char host[64];
	char path[MNTPATHLEN + 1];
};

static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
static struct mount_entry *mounts;
static size_t nmounts;
static char rmtab_path[4096];

static void
rmtab_save_locked(void)
{
	char tmp[4200];
	FILE *f;

	if (rmtab_path[0] == '\0')
		return;
	snprintf(tmp, sizeof(tmp), "%s.new", rmtab_path);
	f = fopen(tmp, "we");
	if (f == NULL) {
		log_warn("%s", tmp);
		return;
	}
	for (size_t i = 0; i < nmounts; i++)
		fprintf(f, "%s:%s\n", mounts[i].host, mounts[i].path);
	if (fclose(f) != 0 || rename(tmp, rmtab_path) < 0)
		log_warn("%s", rmtab_path);
}

static void
add_mount_locked(const char *host, const char *path)
{
	struct mount_entry *n;

	for (size_t i = 0; i < nmounts; i++)
		if (strcmp(mounts[i].host, host) == 0 && strcmp(mounts[i].path, path) == 0)
			return;
	if (nmounts >= MAX_MOUNT_ENTRIES)
		return;		/* DUMP is advisory; never let it grow without bound */
	n = realloc(mounts, (nmounts + 1) * sizeof(*n));
	if (n == NULL)
		return;
	mounts = n;
	snprintf(mounts[nmounts].host, sizeof(mounts[nmounts].host), "%s", host);
	snprintf(mounts[nmounts].path, sizeof(mounts[nmounts].path), "%s", path);
	nmounts++;
}

void
mountd_init(const char *statedir)
{
	char line[MNTPATHLEN + 128];
	FILE *f;

	snprintf(rmtab_path, sizeof(rmtab_path), "%s/rmtab", statedir);
	f = fopen(rmtab_path, "re");
	if (f == NULL)
		return;
	pthread_mutex_lock(&mlock);
	while (fgets(line, sizeof(line), f)) {
		/* host:path, where the host may be an IPv6 address full of colons */
		char *colon = strstr(line, ":/");
		line[strcspn(line, "\n")] = '\0';
		if (colon == NULL)
			continue;
		*colon = '\0';
		add_mount_locked(line, colon + 1);
	}
	pthread_mutex_unlock(&mlock);
	fclose(f);
}

static void
remove_mounts(const char *host, const char *path)
{
	size_t k = 0;

	pthread_mutex_lock(&mlock);
	for (size_t i = 0; i < nmounts; i++)
		if (strcmp(mounts[i].host, host) != 0 || (path && strcmp(mounts[i].path, path) != 0))
			mounts[k++] = mounts[i];
	if (k != nmounts) {
		nmounts = k;
		rmtab_save_locked();
	}
	pthread_mutex_unlock(&mlock);
}

void
mountd_foreach(void (*fn)(void *arg, const char *host, const char *path), void *arg)
{
	pthread_mutex_lock(&mlock);
	for (size_t i = 0; i < nmounts; i++)
		fn(arg, mounts[i].host, mounts[i].path);
	pthread_mutex_unlock(&mlock);
}

/* ---- procedures ---- */

static void
mnt_null(struct rpc_call *call, void *args, void *res)
{
	(void)call; (void)args; (void)res;
}

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
	pthread_mutex_lock(&mlock);
	add_mount_locked(host, path);
	rmtab_save_locked();
	pthread_mutex_unlock(&mlock);
}

static void
mnt3_mnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	mountres3 *r = resp;
	uint8_t *fh = call_alloc(call, FH3_MAXLEN);
	int *flavors = call_alloc(call, sizeof(int));
	size_t fhlen = FH3_MAXLEN;
	int err;

	err = (fh && flavors) ? fs_mount(call, *path, fh, &fhlen) : ENOMEM;
	r->fhs_status = (mountstat3)errno_to_mnt3(err);
	mount_record(call, *path, err);
	if (err)
		return;
	flavors[0] = AUTH_SYS;
	r->mountres3_u.mountinfo.fhandle.fhandle3_val = (char *)fh;
	r->mountres3_u.mountinfo.fhandle.fhandle3_len = (u_int)fhlen;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_val = flavors;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_len = 1;
}

/*
 * MOUNT v1/v2: the same checks, answered with a 32-byte NFSv2 handle.
 * fs_mount hands out the v3 encoding; it is decoded (our own MAC, so it
 * verifies) and re-encoded in the v2 layout.
 */
static void
mnt1_mnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	fhstatus *r = resp;
	uint8_t buf[FH3_MAXLEN];
	size_t len = sizeof(buf);
	struct fh fh;
	int err = fs_mount(call, *path, buf, &len);

	if (err == 0 && fh_decode(buf, len, &fh) != FH_OK)
		err = EIO;
	if (err == 0 && fh_encode_v2(&fh, (uint8_t *)r->fhstatus_u.fhs_fhandle) != FH2_LEN)
		err = ENOFH2;
	/* The status is an errno value, in the numbering NFSv2 statuses use. */
	r->fhs_status = (u_int)errno_to_mnt1(err);
	mount_record(call, *path, err);
}

static void
mnt_dump(struct rpc_call *call, void *argp, void *resp)
{
	mountlist *r = resp, *tail = r;

	(void)argp;
	pthread_mutex_lock(&mlock);
	for (size_t i = 0; i < nmounts; i++) {
		struct mountbody *b = call_alloc(call, sizeof(*b));
		char *h = call_alloc(call, strlen(mounts[i].host) + 1);
		char *p = call_alloc(call, strlen(mounts[i].path) + 1);

		if (b == NULL || h == NULL || p == NULL)
			break;
		strcpy(h, mounts[i].host);
		strcpy(p, mounts[i].path);
		b->ml_hostname = h;
		b->ml_directory = p;
		*tail = b;
		tail = &b->ml_next;
	}
	pthread_mutex_unlock(&mlock);
}

static void
mnt_umnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	char host[64];

	(void)resp;
	req_peer_str(call->req, host, sizeof(host));
	remove_mounts(host, *path);
}

static void
mnt_umntall(struct rpc_call *call, void *argp, void *resp)
{
	char host[64];

	(void)argp; (void)resp;
	req_peer_str(call->req, host, sizeof(host));
	remove_mounts(host, NULL);
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
pc_short(int fd, int which, int bit, short *mask)
{
	long v = fpathconf(fd, which);

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
	uint8_t buf[FH3_MAXLEN];
	size_t len = sizeof(buf);
	const struct export *exp = NULL;
	const char *rest;
	short *mask = &r->pc_mask[0];
	long v;

	/* The same checks as MNT: only a client that may mount the path learns about it. */
	if (fs_mount(call, *path, buf, &len) == 0)
		exp = exports_find_path(call->exports, *path, &rest);
	if (exp == NULL) {
		*mask = 1 << PC_ERROR;
		return;
	}
	/* Mount points are not crossed, so the export root's file system is the path's. */
	v = fpathconf(exp->rootfd, _PC_LINK_MAX);
	if (v < 0)
		*mask |= 1 << PC_LINK_MAX;
	r->pc_link_max = v < 0 ? 0 : v > INT32_MAX ? INT32_MAX : (int)v;
	r->pc_max_canon = pc_short(exp->rootfd, _PC_MAX_CANON, PC_MAX_CANON, mask);
	r->pc_max_input = pc_short(exp->rootfd, _PC_MAX_INPUT, PC_MAX_INPUT, mask);
	r->pc_name_max = pc_short(exp->rootfd, _PC_NAME_MAX, PC_NAME_MAX, mask);
	r->pc_path_max = pc_short(exp->rootfd, _PC_PATH_MAX, PC_PATH_MAX, mask);
	r->pc_pipe_buf = pc_short(exp->rootfd, _PC_PIPE_BUF, PC_PIPE_BUF, mask);
	r->pc_vdisable = _POSIX_VDISABLE;
	*mask |= 1 << PC_CHOWN_RESTRICTED | 1 << PC_NO_TRUNC;
}

#define MPROC(name, argx, args, resx, res, fn) \
	{ name, XDRPROC(argx), args, XDRPROC(resx), res, fn, 0 }
/* MNT: its result starts with a status, which statistics count. */
#define MPROC_MNT(name, argx, args, resx, res, fn) \
	{ name, XDRPROC(argx), args, XDRPROC(resx), res, fn, PROC_STATUS }

static const struct rpc_proc mount3_procs[] = {
	[MOUNTPROC3_NULL] = MPROC("NULL", xdr_void, 0, xdr_void, 0, mnt_null),
	[MOUNTPROC3_MNT] = MPROC_MNT("MNT", xdr_dirpath, sizeof(dirpath), xdr_mountres3,
	    sizeof(mountres3), mnt3_mnt),
	[MOUNTPROC3_DUMP] = MPROC("DUMP", xdr_void, 0, xdr_mountlist, sizeof(mountlist), mnt_dump),
	[MOUNTPROC3_UMNT] = MPROC("UMNT", xdr_dirpath, sizeof(dirpath), xdr_void, 0, mnt_umnt),
	[MOUNTPROC3_UMNTALL] = MPROC("UMNTALL", xdr_void, 0, xdr_void, 0, mnt_umntall),
	[MOUNTPROC3_EXPORT] = MPROC("EXPORT", xdr_void, 0, xdr_exports, sizeof(exports), mnt_export),
};

/* Versions 1 and 2 share these; EXPORTALL is EXPORT (RFC 1094 A.5.7). */
#define MOUNT1_PROCS \
	[MOUNTPROC_NULL] = MPROC("NULL", xdr_void, 0, xdr_void, 0, mnt_null), \
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
	{ 1, mount1_procs, ARRAY_SIZE(mount1_procs) },
	{ 2, mount2_procs, ARRAY_SIZE(mount2_procs) },
	{ 3, mount3_procs, ARRAY_SIZE(mount3_procs) },
};

const struct rpc_program mount_program = {
	MOUNT_PROGRAM_NUMBER, "MOUNT", mount_versions, ARRAY_SIZE(mount_versions), RPC_SVC_MOUNT,
};
