/*
 * Stripe locks over directories.  Every change this server makes to a
 * directory's entries holds the directory's stripe from just before it
 * reads the directory's attributes until just after it reads them again
 * (fsops_write.c), so that the pair brackets that change and no other one
 * this server makes: NFSv4's change_info4 can then say atomic, and the
 * client keeps what it cached of the directory instead of looking every
 * name up again (knfsd holds the inode's lock for the same reason).
 *
 * What this cannot hold off: processes on the server and other heads over
 * the same file system (--grace-dir). A change of theirs that falls into
 * the microseconds between the two reads is folded into ours, and a client
 * sees it once the directory changes again or its caches time out; with
 * several heads the pair is therefore never called atomic
 * (dirlock_set_shared).
 */
#ifndef USERNFSD_DIRLOCK_H
#define USERNFSD_DIRLOCK_H

struct inode_ent;

/* Takes the stripes of a and of b (NULL, or a, for one directory), in one order. */
void dirlock_take(const struct inode_ent *a, const struct inode_ent *b);
void dirlock_drop(const struct inode_ent *a, const struct inode_ent *b);

/* Other servers change these file systems too: no pair is atomic. */
void dirlock_set_shared(int shared);
int dirlock_atomic(void);

#endif
