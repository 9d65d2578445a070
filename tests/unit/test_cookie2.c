/* NFSv2 directory cookie translation (cookie2.c). */
#include "config.h"

#include "proto/cookie2.h"
#include "unit.h"

#define EXP 0x1234u
#define DIR 77u

static void
test_small_positions_are_their_own_cookies(void)
{
	uint32_t c;
	uint64_t pos;

	CHECK(cookie2_from_pos(EXP, DIR, 0, &c) == 0 && c == 0);
	CHECK(cookie2_from_pos(EXP, DIR, 12345, &c) == 0 && c == 12345);
	CHECK(cookie2_from_pos(EXP, DIR, 0x7fffffff, &c) == 0 && c == 0x7fffffff);
	CHECK(cookie2_to_pos(EXP, DIR, 12345, &pos) == 0 && pos == 12345);
	/* Any directory: nothing is remembered for them. */
	CHECK(cookie2_to_pos(EXP, DIR + 1, 12345, &pos) == 0 && pos == 12345);
}

static void
test_large_positions_are_mapped(void)
{
	uint64_t big = 0x1234567890abcdefULL, pos;
	uint32_t c, c2;

	cookie2_reset(0);
	CHECK(cookie2_from_pos(EXP, DIR, big, &c) == 0);
	CHECK(c & COOKIE2_MAPPED);
	CHECK(cookie2_to_pos(EXP, DIR, c, &pos) == 0 && pos == big);
	/* Only for that directory of that export. */
	CHECK(cookie2_to_pos(EXP, DIR + 1, c, &pos) < 0);
	CHECK(cookie2_to_pos(EXP + 1, DIR, c, &pos) < 0);
	CHECK(cookie2_from_pos(EXP, DIR, 0x80000000u, &c2) == 0 && c2 != c && (c2 & COOKIE2_MAPPED));
	CHECK(cookie2_to_pos(EXP, DIR, c2, &pos) == 0 && pos == 0x80000000u);
	/* A cookie never handed out, or from before a restart, is unknown. */
	CHECK(cookie2_to_pos(EXP, DIR, COOKIE2_MAPPED | 999999, &pos) < 0);
	cookie2_reset(5000);
	CHECK(cookie2_to_pos(EXP, DIR, c, &pos) < 0);
}

static void
test_bounded(void)
{
	uint64_t pos;
	uint32_t first, c = 0;
	int ok = 1;

	cookie2_reset(0x7fffff00u);	/* also wraps the 31-bit sequence */
	CHECK(cookie2_from_pos(EXP, DIR, 1ULL << 40, &first) == 0);
	/* The last COOKIE2_SLOTS cookies are all known... */
	for (uint32_t i = 1; i < COOKIE2_SLOTS; i++) {
		if (cookie2_from_pos(EXP, DIR, (1ULL << 40) + i, &c) != 0 || c == 0)
			ok = 0;
	}
	CHECK(ok);
	CHECK(cookie2_to_pos(EXP, DIR, first, &pos) == 0 && pos == 1ULL << 40);
	CHECK(cookie2_to_pos(EXP, DIR, c, &pos) == 0 && pos == (1ULL << 40) + COOKIE2_SLOTS - 1);
	/* ...and one more pushes the oldest out. */
	CHECK(cookie2_from_pos(EXP, DIR, 1ULL << 41, &c) == 0);
	CHECK(cookie2_to_pos(EXP, DIR, first, &pos) < 0);
	CHECK(cookie2_to_pos(EXP, DIR, c, &pos) == 0 && pos == 1ULL << 41);
}

int
main(void)
{
	test_small_positions_are_their_own_cookies();
	test_large_positions_are_mapped();
	test_bounded();
	return unit_done("test_cookie2");
}
