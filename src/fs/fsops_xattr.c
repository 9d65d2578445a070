/*
 * Extended attributes of the user. namespace, for NFSv4.2 (RFC 8276).
 * The protocol names them without the prefix, which is implied (knfsd and
 * the Linux client alike), so "user." is added here and taken off the
 * names LISTXATTRS returns; other namespaces (security., trusted.,
 * system.) are not served.
 *
 * The calls go through /proc/self/fd/N of the object's O_PATH descriptor,
 * as chmod and truncate do (fsops_write.c): by path, so that the kernel
 * checks the caller's permission with the identity the gate installed.
 * The data's permission is asked for explicitly too (RFC 8276 5: read for
 * GETXATTR and LISTXATTRS, write for SETXATTR and REMOVEXATTR), since
 * listing needs none in Linux. On a sync export a change is on stable
 * storage before the reply, as any other change of the inode.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/xattr.h>
#include <linux/limits.h>	/* XATTR_NAME_MAX, XATTR_SIZE_MAX */

#include "durable.h"
#include "fsops.h"
#include "icache.h"

#define USER_PREFIX "user."
#define USER_PREFIX_LEN 5

/* "user." + name, or ENAMETOOLONG / EINVAL for a name no file system could hold. */
static int
full_name(const char *name, char *out, size_t cap)
{
	size_t n = strlen(name);

	if (n == 0)
		return EINVAL;
	if (USER_PREFIX_LEN + n > XATTR_NAME_MAX || USER_PREFIX_LEN + n + 1 > cap)
		return ENAMETOOLONG;
	memcpy(out, USER_PREFIX, USER_PREFIX_LEN);
	memcpy(out + USER_PREFIX_LEN, name, n + 1);
	return 0;
}

/* Regular files and directories hold user. attributes; Linux allows no others. */
static int
holds_xattrs(const struct fs_ctx *ctx)
{
	return ctx->ent->type == S_IFREG || ctx->ent->type == S_IFDIR;
}

int
fs_xattr_supported(struct fs_ctx *ctx)
{
	char path[64];

	if (!holds_xattrs(ctx))
		return 0;
	icache_proc_path(ctx->ent, path, sizeof(path));
	/* ENODATA: the file system has user. attributes, just not this one. */
	return getxattr(path, "user.usernfsd.probe", NULL, 0) >= 0 || errno == ENODATA ||
	    errno == ERANGE;
}

int
fs_getxattr(struct fs_ctx *ctx, const char *name, void *buf, size_t cap, size_t *len)
{
	char full[XATTR_NAME_MAX + 1], path[64];
	ssize_t n;
	int err;

	if ((err = full_name(name, full, sizeof(full))) != 0)
		return err;
	if (!holds_xattrs(ctx))
		return ENODATA;
	if (!fs_may(ctx, R_OK))
		return EACCES;
	icache_proc_path(ctx->ent, path, sizeof(path));
	if ((n = getxattr(path, full, buf, cap)) < 0)
		return errno;	/* ERANGE: larger than cap */
	*len = (size_t)n;
	return 0;
}

int
fs_setxattr(struct fs_ctx *ctx, const char *name, const void *value, size_t len, int how)
{
	char full[XATTR_NAME_MAX + 1], path[64];
	int err;

	if (fs_readonly(ctx))
		return EROFS;
	if ((err = full_name(name, full, sizeof(full))) != 0)
		return err;
	if (!holds_xattrs(ctx))
		return EPERM;	/* what setxattr says of a user. attribute on a link or device */
	if (len > XATTR_SIZE_MAX)
		return E2BIG;
	if (!fs_may(ctx, W_OK))
		return EACCES;
	icache_proc_path(ctx->ent, path, sizeof(path));
	if (setxattr(path, full, value, len, how) < 0)
		return errno;
	return durable_wanted(ctx) ? durable_sync(ctx, ctx->ent) : 0;
}

int
fs_removexattr(struct fs_ctx *ctx, const char *name)
{
	char full[XATTR_NAME_MAX + 1], path[64];
	int err;

	if (fs_readonly(ctx))
		return EROFS;
	if ((err = full_name(name, full, sizeof(full))) != 0)
		return err;
	if (!holds_xattrs(ctx))
		return ENODATA;
	if (!fs_may(ctx, W_OK))
		return EACCES;
	icache_proc_path(ctx->ent, path, sizeof(path));
	if (removexattr(path, full) < 0)
		return errno;
	return durable_wanted(ctx) ? durable_sync(ctx, ctx->ent) : 0;
}

int
fs_listxattr(struct fs_ctx *ctx, char *buf, size_t cap, size_t *len)
{
	char path[64], *in, *out;
	ssize_t n;

	*len = 0;
	if (!holds_xattrs(ctx))
		return 0;
	if (!fs_may(ctx, R_OK))
		return EACCES;
	icache_proc_path(ctx->ent, path, sizeof(path));
	if ((n = listxattr(path, buf, cap)) < 0)
		return errno == ENOTSUP ? 0 : errno;	/* no attributes at all: none to list */
	/* Keep the user. names, without their prefix, in place. */
	for (in = buf, out = buf; in < buf + n; ) {
		size_t l = strnlen(in, (size_t)(buf + n - in));

		if (l > USER_PREFIX_LEN && strncmp(in, USER_PREFIX, USER_PREFIX_LEN) == 0) {
			memmove(out, in + USER_PREFIX_LEN, l - USER_PREFIX_LEN);
			out += l - USER_PREFIX_LEN;
			*out++ = '\0';
		}
		in += l + 1;	/* l measured before out could overwrite it */
	}
	*len = (size_t)(out - buf);
	return 0;
}
