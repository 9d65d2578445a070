/*
 * The byte ranges one lock owner holds on one file, as POSIX locks
 * behave: a new range replaces whatever it overlaps, neighbours of the
 * same kind that touch merge, an unlock in the middle splits. The kernel
 * decides every conflict (locks.c); this copy only names holders and
 * tells when nothing is held. Ranges are inclusive [start, end], with
 * LR_EOF for "to the end of the file".
 */
#ifndef USERNFSD_LOCK_RANGES_H
#define USERNFSD_LOCK_RANGES_H

#include <stdint.h>

#define LR_EOF INT64_MAX	/* the largest offset the kernel can lock */
#define LR_MAX 1024		/* ranges per owner and file */

struct lock_range {
	uint64_t start, end;
	int exclusive;
};

struct lock_ranges {
	struct lock_range *r;	/* sorted by start, disjoint */
	unsigned nr, cap;
};

/* NLM's (offset, length 0 = to the end) as a range; -1 if it starts beyond LR_EOF. */
int lr_from_nlm(uint64_t off, uint64_t len, uint64_t *start, uint64_t *end);
void lr_to_nlm(uint64_t start, uint64_t end, uint64_t *off, uint64_t *len);
int lr_overlaps(const struct lock_range *r, uint64_t start, uint64_t end);
/* Room for n more ranges; -1 beyond LR_MAX or without memory. */
int lr_reserve(struct lock_ranges *l, unsigned n);
/* Holds [start, end] now; -1 (nothing changed) without room. */
int lr_set(struct lock_ranges *l, uint64_t start, uint64_t end, int exclusive);
/* Holds nothing of [start, end] now; -1 (nothing changed) without room to split. */
int lr_clear(struct lock_ranges *l, uint64_t start, uint64_t end);
void lr_free(struct lock_ranges *l);

#endif
