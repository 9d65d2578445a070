/*
 * An owner's lock ranges (lock_ranges.c) against a byte-by-byte model of
 * what POSIX says the owner holds: random sequences of locks and unlocks
 * of both kinds, and the cases by name.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "state/lock_ranges.h"
#include "unit.h"

#define SPAN 64		/* bytes modelled; a range ending at LR_EOF covers the rest */

/* 0: not held, 1: shared, 2: exclusive; byte SPAN stands for "the rest of the file". */
static char model[SPAN + 1];

static void
model_apply(uint64_t start, uint64_t end, char v)
{
	for (uint64_t b = start; b <= SPAN && b <= end; b++)
		model[b] = v;
}

/* The ranges must be sorted, disjoint, merged where they touch, and equal the model. */
static int
matches(const struct lock_ranges *l)
{
	char seen[SPAN + 1];

	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < l->nr; i++) {
		const struct lock_range *r = &l->r[i];

		if (r->start > r->end)
			return 0;
		if (i > 0 && l->r[i - 1].end >= r->start)
			return 0;
		if (i > 0 && l->r[i - 1].end + 1 == r->start &&
		    l->r[i - 1].exclusive == r->exclusive)
			return 0;	/* should have merged */
		for (uint64_t b = r->start; b <= SPAN && b <= r->end; b++)
			seen[b] = r->exclusive ? 2 : 1;
		if (r->end != LR_EOF && r->end >= SPAN)
			return 0;	/* the model's ranges stay inside it */
	}
	return memcmp(seen, model, sizeof(seen)) == 0;
}

static void
test_by_name(void)
{
	struct lock_ranges l = { 0 };
	uint64_t s, e, off, len;

	CHECK(lr_from_nlm(10, 0, &s, &e) == 0 && s == 10 && e == LR_EOF);
	CHECK(lr_from_nlm(10, 5, &s, &e) == 0 && s == 10 && e == 14);
	CHECK(lr_from_nlm(LR_EOF - 1, 100, &s, &e) == 0 && e == LR_EOF);	/* past the end */
	CHECK(lr_from_nlm((uint64_t)LR_EOF + 1, 1, &s, &e) < 0);
	lr_to_nlm(10, LR_EOF, &off, &len);
	CHECK(off == 10 && len == 0);
	lr_to_nlm(10, 14, &off, &len);
	CHECK(off == 10 && len == 5);

	/* split by an unlock in the middle */
	CHECK(lr_set(&l, 0, 99, 1) == 0 && l.nr == 1);
	CHECK(lr_clear(&l, 40, 59) == 0 && l.nr == 2);
	CHECK(l.r[0].start == 0 && l.r[0].end == 39 && l.r[1].start == 60 && l.r[1].end == 99);
	/* downgrade part of it, then merge back on upgrade */
	CHECK(lr_set(&l, 60, 69, 0) == 0 && l.nr == 3 && !l.r[1].exclusive);
	CHECK(lr_set(&l, 40, 69, 1) == 0 && l.nr == 1 && l.r[0].end == 99);
	/* length 0 swallows everything after */
	CHECK(lr_set(&l, 50, LR_EOF, 0) == 0 && l.nr == 2 && l.r[1].end == LR_EOF);
	CHECK(lr_clear(&l, 0, LR_EOF) == 0 && l.nr == 0);
	lr_free(&l);
}

static void
test_against_model(void)
{
	struct lock_ranges l = { 0 };
	int ok = 1;

	srand(12345);
	memset(model, 0, sizeof(model));
	for (int i = 0; i < 200000 && ok; i++) {
		uint64_t start = (uint64_t)(rand() % SPAN), end;
		int op = rand() % 3;

		end = rand() % 8 == 0 ? LR_EOF : start + (uint64_t)(rand() % (SPAN - (int)start));
		if (end == LR_EOF)
			end = LR_EOF;
		if (op == 2) {
			ok = lr_clear(&l, start, end) == 0;
			model_apply(start, end, 0);
		} else {
			ok = lr_set(&l, start, end, op) == 0;
			model_apply(start, end, op ? 2 : 1);
		}
		ok = ok && matches(&l);
	}
	CHECK(ok);
	lr_free(&l);
}

static void
test_bounded(void)
{
	struct lock_ranges l = { 0 };
	int failed = 0;

	/* Every other byte: LR_MAX ranges fit, the next does not, and nothing changes. */
	for (unsigned i = 0; i < LR_MAX; i++)
		failed |= lr_set(&l, 2 * (uint64_t)i, 2 * (uint64_t)i, 1) != 0;
	CHECK(!failed && l.nr == LR_MAX);
	CHECK(lr_set(&l, 2 * (uint64_t)LR_MAX, 2 * (uint64_t)LR_MAX, 1) < 0 && l.nr == LR_MAX);
	CHECK(lr_clear(&l, 0, LR_EOF) == 0 && l.nr == 0);
	lr_free(&l);
}

int
main(void)
{
	test_by_name();
	test_against_model();
	test_bounded();
	return unit_done("test_lock_ranges");
}
