/*
 * The NFSv4 pseudo file system (access_pseudo.h), computed from the export
 * table on every call: there is nothing to keep in step on a reload, and
 * an exports file holds tens of lines, not thousands, so walking it is as
 * cheap as a lookup in anything built from it.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "exports/exports.h"
#include "fs/fsops.h"
#include "access.h"
#include "access_pseudo.h"
#include "rpc/dispatch.h"
#include "fs/fserr.h"
#include "rpc/transport.h"
#include "siphash.h"

/* Time the nodes were "made": the first time one was asked for, so their times never move. */
static time_t born;
static pthread_once_t born_once = PTHREAD_ONCE_INIT;

static void
set_born(void)
{
	born = time(NULL);
}

uint64_t
n4_pseudo_path_id(const char *path)
{
	/* Not a secret: the handle's MAC is what keeps handles unforgeable. */
	static const uint8_t key[SIPHASH_KEY_LEN] = "usernfsd-pseudo";
	uint64_t id = siphash24(key, path, strlen(path));

	return id ? id : 1;
}

static void
set_node(struct n4_pseudo *node, const char *path, size_t len)
{
	if (len == 0) {
		strcpy(node->path, "/");
	} else {
		memcpy(node->path, path, len);
		node->path[len] = '\0';
	}
	node->id = n4_pseudo_path_id(node->path);
}

/* A client sees an export it matches; a submount shows only through its parent. */
static int
visible(struct rpc_call *call, const struct export *e)
{
	return e->parent == NULL &&
	    export_match(e, (const struct sockaddr *)&call->req->peer) != NULL;
}

/*
 * Where below dir (a node's path) the export path p goes on: the offset
 * of the next component in p, or -1 when p is not below dir. "/" is above
 * everything.
 */
static long
below(const char *dir, const char *p)
{
	size_t n = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return p[0] == '/' && p[1] != '\0' ? 1 : -1;
	if (strncmp(p, dir, n) != 0 || p[n] != '/' || p[n + 1] == '\0')
		return -1;
	return (long)n + 1;
}

/* The length of the component at s (up to the next '/'). */
static size_t
component(const char *s)
{
	const char *slash = strchr(s, '/');

	return slash ? (size_t)(slash - s) : strlen(s);
}

int
n4_pseudo_root(struct rpc_call *call, struct n4_pseudo *node, const struct export **exp)
{
	const struct export_table *t = call->exports;

	*exp = NULL;
	for (size_t i = 0; i < t->n; i++)
		/* fsid=0, or "/" itself exported: that export is the root. */
		if ((t->exports[i].pseudo_root || strcmp(t->exports[i].path, "/") == 0) &&
		    visible(call, &t->exports[i])) {
			*exp = &t->exports[i];
			return 0;
		}
	set_node(node, "/", 0);
	return 0;
}

/* Is path a node this client sees: "/" or a directory on the way to an export? */
static int
is_node(struct rpc_call *call, const char *path)
{
	const struct export_table *t = call->exports;

	if (strcmp(path, "/") == 0)
		return 1;
	for (size_t i = 0; i < t->n; i++)
		if (visible(call, &t->exports[i]) && below(path, t->exports[i].path) >= 0)
			return 1;
	return 0;
}

void
n4_pseudo_flavors(struct rpc_call *call, const struct n4_pseudo *node, struct fs_flavors *fl)
{
	const struct sockaddr *peer = (const struct sockaddr *)&call->req->peer;
	const struct export_table *t = call->exports;

	fl->n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct export_client *c = export_match(&t->exports[i], peer);
		struct fs_flavors mine;

		if (c == NULL || t->exports[i].parent || below(node->path, t->exports[i].path) < 0)
			continue;
		fs_client_flavors(c, &mine);
		for (unsigned k = 0; k < mine.n; k++) {
			unsigned j = 0;

			while (j < fl->n && fl->f[j] != mine.f[k])
				j++;
			if (j == fl->n && fl->n < EXP_SEC_COUNT)
				fl->f[fl->n++] = mine.f[k];
		}
	}
	if (fl->n == 0)
		fl->f[fl->n++] = EXP_SEC_SYS;
}

int
n4_pseudo_from_fh(struct rpc_call *call, const void *fh, size_t len, struct n4_pseudo *node)
{
	const struct export_table *t = call->exports;
	uint64_t id;

	if (fh_decode_pseudo(fh, len, &id) != FH_OK)
		return EBADHANDLE;
	if (id == n4_pseudo_path_id("/")) {
		set_node(node, "/", 0);
		return 0;
	}
	/* Every proper prefix of every visible export's path, until one hashes to id. */
	for (size_t i = 0; i < t->n; i++) {
		const char *p = t->exports[i].path;

		if (!visible(call, &t->exports[i]))
			continue;
		for (size_t n = component(p + 1) + 1; p[n] == '/'; n += 1 + component(p + n + 1)) {
			set_node(node, p, n);
			if (node->id == id)
				return 0;
		}
	}
	return ESTALE;
}

size_t
n4_pseudo_fh(const struct n4_pseudo *node, uint8_t out[FH_PSEUDO_LEN])
{
	return fh_encode_pseudo(node->id, out);
}

int
n4_pseudo_lookup(struct rpc_call *call, const struct n4_pseudo *dir, const char *name,
    struct n4_pseudo *child, const struct export **exp)
{
	const struct export_table *t = call->exports;
	size_t dlen = strcmp(dir->path, "/") == 0 ? 0 : strlen(dir->path);
	size_t nlen = strlen(name);
	char path[N4_PSEUDO_PATH_MAX];

	*exp = NULL;
	if (nlen == 0 || strchr(name, '/') || dlen + 1 + nlen >= sizeof(path))
		return ENOENT;
	memcpy(path, dir->path, dlen);
	path[dlen] = '/';
	memcpy(path + dlen + 1, name, nlen + 1);
	for (size_t i = 0; i < t->n; i++)
		if (visible(call, &t->exports[i]) && strcmp(t->exports[i].path, path) == 0) {
			*exp = &t->exports[i];
			return 0;
		}
	if (!is_node(call, path))
		return ENOENT;
	set_node(child, path, strlen(path));
	return 0;
}

int
n4_pseudo_parent(const struct n4_pseudo *node, struct n4_pseudo *parent)
{
	const char *slash = strrchr(node->path, '/');

	if (strcmp(node->path, "/") == 0 || slash == NULL)
		return ENOENT;
	set_node(parent, node->path, (size_t)(slash - node->path));
	return 0;
}

int
n4_pseudo_above(struct rpc_call *call, const struct fs_ctx *root, struct n4_pseudo *parent,
    const struct export **pexp, const char **rest)
{
	const struct export *exp = root->exp, *up;
	const char *slash = strrchr(exp->path, '/');

	*pexp = NULL;
	if (exp->pseudo_root || slash == NULL || strcmp(exp->path, "/") == 0)
		return ENOENT;
	set_node(parent, exp->path, (size_t)(slash - exp->path));
	up = exports_find_path(call->exports, parent->path, rest);
	if (up && visible(call, up))
		*pexp = up;
	return 0;
}

uint64_t
n4_pseudo_mounted_on(const struct fs_ctx *ctx, uint64_t fileid)
{
	const struct export *e = ctx->exp;

	if (e && e->parent == NULL && !e->pseudo_root && strcmp(e->path, "/") != 0 &&
	    fs_handle(ctx)->ino == (uint64_t)ctx->root->ino)
		return n4_pseudo_path_id(e->path);
	return fileid;
}

/* Did an export before index i already give dir the entry name (len bytes)? */
static int
seen_before(struct rpc_call *call, const char *dir, size_t i, const char *name, size_t len)
{
	const struct export_table *t = call->exports;

	for (size_t j = 0; j < i; j++) {
		const char *p = t->exports[j].path;
		long off = below(dir, p);

		if (off >= 0 && visible(call, &t->exports[j]) && component(p + off) == len &&
		    memcmp(p + off, name, len) == 0)
			return 1;
	}
	return 0;
}

int
n4_pseudo_readdir(struct rpc_call *call, const struct n4_pseudo *dir, uint64_t cookie,
    n4_pseudo_fn fn, void *arg, int *eof)
{
	const struct export_table *t = call->exports;

	*eof = 0;
	for (size_t i = 0; i < t->n; i++) {
		const struct export *e = &t->exports[i];
		const char *p = e->path;
		long off = below(dir->path, p);
		char name[N4_PSEUDO_PATH_MAX];
		size_t len;
		uint64_t id;
		int whole;

		if (i + 3 <= cookie || off < 0 || !visible(call, e))
			continue;
		len = component(p + off);
		if (seen_before(call, dir->path, i, p + off, len))
			continue;
		/* The export itself, or a directory on the way to it (named by its path). */
		whole = p[off + (long)len] == '\0';
		memcpy(name, p, (size_t)off + len);
		name[(size_t)off + len] = '\0';
		id = whole ? 0 : n4_pseudo_path_id(name);
		if (fn(arg, name + off, i + 3, whole ? e : NULL, id) != 0)
			return 0;
	}
	*eof = 1;
	return 0;
}

void
n4_pseudo_stat(const struct n4_pseudo *node, struct stat *st)
{
	pthread_once(&born_once, set_born);
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFDIR | 0555;
	st->st_nlink = 2;
	st->st_ino = node->id;
	st->st_size = 4096;
	st->st_blksize = 4096;
	st->st_atim.tv_sec = st->st_mtim.tv_sec = st->st_ctim.tv_sec = born;
}
