/* NFSv3 attributes on the wire, from the fs layer's stat (src/nfs3_attr.c). */
#ifndef USERNFSD_NFS3_ATTR_H
#define USERNFSD_NFS3_ATTR_H

#include <sys/stat.h>

#include "rpc/nfs3_prot.h"

struct fs_ctx;

void fattr3_from_stat(const struct fs_ctx *ctx, const struct stat *st, fattr3 *fa);
void post_attr_stat(const struct fs_ctx *ctx, const struct stat *st, post_op_attr *pa);
/* Attributes of ctx's object if they can be had; absent otherwise (never an error). */
void post_attr(struct fs_ctx *ctx, post_op_attr *pa);
/*
 * Weak cache consistency: the attributes before a change, for the
 * client's cache; st gets the stat they came from.  0, or why there are
 * none (they are then absent).
 */
int wcc_pre_st(struct fs_ctx *ctx, pre_op_attr *pre, struct stat *st);
void wcc_pre(struct fs_ctx *ctx, pre_op_attr *pre);

#endif
