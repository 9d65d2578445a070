/*
 * Stable storage before the reply.  On a `sync` export (exports(5)'s
 * default) a call that changes the name space or an inode answers only
 * once the change would survive a power cut, as RFC 1813 asks of every
 * modifying call but an UNSTABLE WRITE (and RFC 1094 of every NFSv2
 * call): the file-system operations sync what they changed, through
 * this module, after the change succeeded and before they return.
 *
 * One sync of an object covers every change made to it before the sync
 * began, so callers that changed the same object at about the same time
 * share one (group commit): a caller whose change a finished sync already
 * covers returns at once; one that finds a sync running waits for it,
 * then at most one more runs for everybody who came meanwhile.
 */
#ifndef USERNFSD_DURABLE_H
#define USERNFSD_DURABLE_H

struct fs_ctx;
struct inode_ent;

/* Must ctx's changes be durable before the reply (not an `async` export)? */
int durable_wanted(const struct fs_ctx *ctx);
/*
 * Makes e's object durable: its inode and, for a directory, its entries
 * (fsync of its own descriptor; objects that cannot be opened, such as
 * symlinks and devices, by a sync of the export's file system).
 * 0 or an errno, which the caller must report: the change may be lost.
 */
int durable_sync(struct fs_ctx *ctx, struct inode_ent *e);

#endif
