/*
 * Hands memory freed after a burst of calls back to the system once the
 * server has been idle for a tick (memtrim.c).
 */
#ifndef USERNFSD_MEMTRIM_H
#define USERNFSD_MEMTRIM_H

/* Once a second, from the main loop. */
void memtrim_tick(void);

#endif
