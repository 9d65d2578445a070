/*
 * Hands memory freed after a burst of calls back to the system once the
 * server has been idle for a tick (memtrim.c).
 */
#ifndef USERNFSD_MEMTRIM_H
#define USERNFSD_MEMTRIM_H

#include <stdint.h>

/*
 * Once a second, from the main loop, with the count of calls ever queued
 * (workq_pushed): a count that did not move for a tick means idle.
 */
void memtrim_tick(uint64_t pushed);

#endif
