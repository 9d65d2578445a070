/*
 * Inside the inode cache: what icache.c shares with the data-descriptor
 * cache (fdcache.c) and handle building (fh_build.c), and nobody else.
 */
#ifndef USERNFSD_ICACHE_IMPL_H
#define USERNFSD_ICACHE_IMPL_H

#include <pthread.h>
#include <stdint.h>

#include "icache.h"

/* Guards the cache's tables and every entry's cache fields and descriptors. */
extern pthread_mutex_t icache_lock;

/* Monotonic seconds (entries' last_used). */
long icache_now_sec(void);
/*
 * Up to max entries not yet seen by sweep pass 'pass', least recently used
 * first, each marked seen and referenced (icache_put each).
 */
unsigned icache_pin_unswept(struct inode_ent **batch, unsigned max, unsigned pass);
/* Copies the kernel handle of a cached entry with out's export, inode and generation: 1, or 0. */
int icache_known_kernel_handle(struct fh *out);
/*
 * The O_PATH descriptor of the cached entry for an inode number (with a
 * kernel handle), its handle in *out; -1 when none. The descriptor is not
 * pinned: the caller checks that it still names that inode.
 */
int icache_cached_ino(uint32_t export_id, uint64_t ino, struct fh *out);

/* fdcache.c: closes e's data descriptors, syncing first when dirty; 0 or the sync's errno. */
int fdcache_close(struct inode_ent *e, int dirty);

#endif
