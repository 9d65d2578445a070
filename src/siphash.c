/* SipHash-2-4, written from the description in the SipHash paper. */
#include "config.h"

#include "siphash.h"

static inline uint64_t
rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t
load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

struct sipstate {
	uint64_t v0, v1, v2, v3;
};

/* Inlined: every handle issued or checked costs 6 to 8 rounds. */
static inline __attribute__((always_inline)) void
sipround(struct sipstate *s)
{
	s->v0 += s->v1; s->v1 = rotl(s->v1, 13); s->v1 ^= s->v0; s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3; s->v3 = rotl(s->v3, 16); s->v3 ^= s->v2;
	s->v0 += s->v3; s->v3 = rotl(s->v3, 21); s->v3 ^= s->v0;
	s->v2 += s->v1; s->v1 = rotl(s->v1, 17); s->v1 ^= s->v2; s->v2 = rotl(s->v2, 32);
}

static inline __attribute__((always_inline)) void
compress(struct sipstate *s, uint64_t m)
{
	s->v3 ^= m;
	sipround(s);
	sipround(s);
	s->v0 ^= m;
}

uint64_t
siphash24(const uint8_t key[SIPHASH_KEY_LEN], const void *data, size_t len)
{
	const uint8_t *p = data;
	uint64_t k0 = load_le64(key), k1 = load_le64(key + 8);
	struct sipstate s = {
		k0 ^ 0x736f6d6570736575ULL, k1 ^ 0x646f72616e646f6dULL,
		k0 ^ 0x6c7967656e657261ULL, k1 ^ 0x7465646279746573ULL,
	};
	size_t whole = len & ~(size_t)7;
	uint64_t last = (uint64_t)len << 56;

	for (size_t i = 0; i < whole; i += 8)
		compress(&s, load_le64(p + i));
	for (size_t i = whole; i < len; i++)
		last |= (uint64_t)p[i] << (8 * (i - whole));
	compress(&s, last);
	s.v2 ^= 0xff;
	for (int i = 0; i < 4; i++)
		sipround(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
