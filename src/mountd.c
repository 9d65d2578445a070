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

/* ---- procedures ---- */

static void
mnt_null(struct rpc_call *call, void *args, void *res)
{
	(void)call; (void)args; (void)res;
}

static void
mnt3_mnt(struct rpc_call *call, void *argp, void *resp)
{
	dirpath *path = argp;
	mountres3 *r = resp;
	uint8_t *fh = call_alloc(call, FH3_MAXLEN);
	int *flavors = call_alloc(call, sizeof(int));
	size_t fhlen = FH3_MAXLEN;
	char host[64];
	int err;

	req_peer_str(call->req, host, sizeof(host));
	err = (fh && flavors) ? fs_mount(call, *path, fh, &fhlen) : ENOMEM;
	r->fhs_status = (mountstat3)errno_to_mnt3(err);
	if (err) {
		log_info("%s: mount %s refused: %s", host, *path,
		    err == EACCES ? "access denied" : strerror(err));
		return;
	}
	flavors[0] = AUTH_SYS;
	r->mountres3_u.mountinfo.fhandle.fhandle3_val = (char *)fh;
	r->mountres3_u.mountinfo.fhandle.fhandle3_len = (u_int)fhlen;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_val = flavors;
	r->mountres3_u.mountinfo.auth_flavors.auth_flavors_len = 1;
	log_info("%s: mounted %s", host, *path);
	pthread_mutex_lock(&mlock);
	add_mount_locked(host, *path);
	rmtab_save_locked();
	pthread_mutex_unlock(&mlock);
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

#define MPROC(name, argx, args, resx, res, fn) \
	{ name, XDRPROC(argx), args, XDRPROC(resx), res, fn, 0 }

static const struct rpc_proc mount3_procs[] = {
	[MOUNTPROC3_NULL] = MPROC("NULL", xdr_void, 0, xdr_void, 0, mnt_null),
	[MOUNTPROC3_MNT] = MPROC("MNT", xdr_dirpath, sizeof(dirpath), xdr_mountres3,
	    sizeof(mountres3), mnt3_mnt),
	[MOUNTPROC3_DUMP] = MPROC("DUMP", xdr_void, 0, xdr_mountlist, sizeof(mountlist), mnt_dump),
	[MOUNTPROC3_UMNT] = MPROC("UMNT", xdr_dirpath, sizeof(dirpath), xdr_void, 0, mnt_umnt),
	[MOUNTPROC3_UMNTALL] = MPROC("UMNTALL", xdr_void, 0, xdr_void, 0, mnt_umntall),
	[MOUNTPROC3_EXPORT] = MPROC("EXPORT", xdr_void, 0, xdr_exports, sizeof(exports), mnt_export),
};

static const struct rpc_version mount_versions[] = {
	{ 3, mount3_procs, ARRAY_SIZE(mount3_procs) },
};

const struct rpc_program mount_program = {
	MOUNT_PROGRAM_NUMBER, "MOUNT", mount_versions, ARRAY_SIZE(mount_versions),
};
