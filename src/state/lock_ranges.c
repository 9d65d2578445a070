/* An owner's byte ranges on one file (lock_ranges.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lock_ranges.h"

int
lr_from_nlm(uint64_t off, uint64_t len, uint64_t *start, uint64_t *end)
{
	if (off > LR_EOF)
		return -1;
	*start = off;
	/* Length 0, or a range past what the kernel can name: to the end. */
	*end = len == 0 || len - 1 > LR_EOF - off ? LR_EOF : off + len - 1;
	return 0;
}

void
lr_to_nlm(uint64_t start, uint64_t end, uint64_t *off, uint64_t *len)
{
	*off = start;
	*len = end == LR_EOF ? 0 : end - start + 1;
}

int
lr_overlaps(const struct lock_range *r, uint64_t start, uint64_t end)
{
	return r->start <= end && start <= r->end;
}

int
lr_reserve(struct lock_ranges *l, unsigned n)
{
	struct lock_range *nr;
	unsigned cap;

	if (l->nr + n <= l->cap)
		return 0;
	if (l->nr + n > LR_MAX)
		return -1;
	cap = l->cap ? l->cap * 2 : 4;
	while (cap < l->nr + n)
		cap *= 2;
	if ((nr = realloc(l->r, cap * sizeof(*nr))) == NULL)
		return -1;
	l->r = nr;
	l->cap = cap;
	return 0;
}

static void
remove_at(struct lock_ranges *l, unsigned i)
{
	memmove(&l->r[i], &l->r[i + 1], (l->nr - i - 1) * sizeof(l->r[0]));
	l->nr--;
}

static void
insert_at(struct lock_ranges *l, unsigned i, struct lock_range r)
{
	memmove(&l->r[i + 1], &l->r[i], (l->nr - i) * sizeof(l->r[0]));
	l->r[i] = r;
	l->nr++;
}

int
lr_clear(struct lock_ranges *l, uint64_t start, uint64_t end)
{
	for (unsigned i = 0; i < l->nr; i++) {
		struct lock_range *r = &l->r[i];

		if (!lr_overlaps(r, start, end))
			continue;
		if (r->start < start && r->end > end) {
			/* A hole in the middle: two ranges. */
			struct lock_range after = { end + 1, r->end, r->exclusive };

			if (lr_reserve(l, 1) < 0)
				return -1;
			l->r[i].end = start - 1;
			insert_at(l, i + 1, after);
			return 0;
		}
		if (r->start < start)
			r->end = start - 1;
		else if (r->end > end)
			r->start = end + 1;
		else
			remove_at(l, i--);
	}
	return 0;
}

int
lr_set(struct lock_ranges *l, uint64_t start, uint64_t end, int exclusive)
{
	unsigned i, need = 1;

	/* One more, and another if it falls inside one range, which splits. */
	for (i = 0; i < l->nr; i++)
		if (l->r[i].start < start && l->r[i].end > end)
			need = 2;
	if (lr_reserve(l, need) < 0 || lr_clear(l, start, end) < 0)
		return -1;
	for (i = 0; i < l->nr && l->r[i].start < start; i++)
		;
	insert_at(l, i, (struct lock_range){ start, end, exclusive });
	/* Merge with neighbours of the same kind that touch it. */
	if (i + 1 < l->nr && l->r[i + 1].exclusive == exclusive && end + 1 == l->r[i + 1].start) {
		l->r[i].end = l->r[i + 1].end;
		remove_at(l, i + 1);
	}
	if (i > 0 && l->r[i - 1].exclusive == exclusive && l->r[i - 1].end + 1 == start) {
		l->r[i - 1].end = l->r[i].end;
		remove_at(l, i);
	}
	return 0;
}

void
lr_free(struct lock_ranges *l)
{
	free(l->r);
	l->r = NULL;
	l->nr = l->cap = 0;
}
