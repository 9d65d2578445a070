/*
 * NFSv2 READDIR cookies are 32 bits; file systems hand out 64-bit
 * directory positions (ext4's are hashes with the high bits set). A
 * position below 2^31 is its own cookie; any other is given a cookie
 * 0x80000000 | seq from a bounded ring that remembers (directory,
 * position) for the last COOKIE2_SLOTS such cookies. The sequence starts
 * at a random value each run, so a cookie from before a restart is
 * (almost certainly) not recognised and the caller can say so.
 */
#ifndef USERNFSD_COOKIE2_H
#define USERNFSD_COOKIE2_H

#include <stdint.h>

#define COOKIE2_SLOTS (1u << 16)
#define COOKIE2_MAPPED 0x80000000u

/* The 32-bit cookie for position pos in directory (export_id, dir): 0, or -1 out of memory. */
int cookie2_from_pos(uint32_t export_id, uint64_t dir, uint64_t pos, uint32_t *cookie);
/* The position for a cookie this directory was given: 0, or -1 if it is not known (any more). */
int cookie2_to_pos(uint32_t export_id, uint64_t dir, uint32_t cookie, uint64_t *pos);
/* Tests: restart the sequence at seq and forget every mapping. */
void cookie2_reset(uint32_t seq);

#endif
