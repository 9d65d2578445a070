/* File handle encode/decode/MAC and SipHash test vectors. */
#include "config.h"

#include <string.h>

#include "fh.h"
#include "siphash.h"
#include "unit.h"

static void
test_siphash_vectors(void)
{
	uint8_t key[16], msg[64];

	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 64; i++)
		msg[i] = (uint8_t)i;
	/* From the SipHash paper's reference vectors. */
	CHECK(siphash24(key, msg, 0) == 0x726fdb47dd0e0e31ULL);
	CHECK(siphash24(key, msg, 15) == 0xa129ca6149be45e5ULL);
	CHECK(siphash24(key, msg, 8) == 0x93f5f5799a932462ULL);
}

static struct fh
sample(uint8_t kfh_len)
{
	struct fh f;

	memset(&f, 0, sizeof(f));
	f.export_id = 0xdeadbeef;
	f.ino = 0x0102030405060708ULL;
	f.gen = 42;
	f.kfh_type = 1;
	f.kfh_len = kfh_len;
	for (int i = 0; i < kfh_len; i++)
		f.kfh[i] = (uint8_t)(0xa0 + i);
	return f;
}

static void
test_roundtrip(void)
{
	uint8_t key[FH_KEY_LEN] = { 1, 2, 3 }, buf[FH3_MAXLEN];

	fh_set_key(key);
	for (uint8_t k = 0; k <= FH_KFH_MAX; k += 4) {
		struct fh in = sample(k), out;
		size_t len = fh_encode(&in, buf, sizeof(buf));

		CHECK(len == (size_t)FH_HDR_LEN + k + FH_MAC_LEN);
		CHECK(len <= FH3_MAXLEN);
		CHECK(fh_decode(buf, len, &out) == FH_OK);
		CHECK(out.export_id == in.export_id && out.ino == in.ino && out.gen == in.gen);
		CHECK(out.kfh_len == k && memcmp(out.kfh, in.kfh, k) == 0);
	}
}

static void
test_rejects(void)
{
	uint8_t key[FH_KEY_LEN] = { 9 }, other[FH_KEY_LEN] = { 8 }, buf[FH3_MAXLEN], big[100];
	struct fh in = sample(8), out;
	size_t len;

	fh_set_key(key);
	len = fh_encode(&in, buf, sizeof(buf));
	CHECK(fh_decode(buf, 0, &out) == FH_BADLEN);
	CHECK(fh_decode(buf, 7, &out) == FH_BADLEN);
	CHECK(fh_decode(buf, len - 1, &out) == FH_BADLEN);
	memset(big, 0, sizeof(big));
	memcpy(big, buf, len);
	CHECK(fh_decode(big, 65, &out) == FH_BADLEN);
	/* Every single-bit flip anywhere is caught. */
	for (size_t i = 0; i < len; i++) {
		for (int b = 0; b < 8; b++) {
			uint8_t t[FH3_MAXLEN];
			memcpy(t, buf, len);
			t[i] ^= (uint8_t)(1 << b);
			CHECK(fh_decode(t, len, &out) != FH_OK);
		}
	}
	buf[0] = 2;
	CHECK(fh_decode(buf, len, &out) == FH_BADVERSION);
	buf[0] = FH_VERSION;
	/* Another server's key: not ours. */
	fh_set_key(other);
	CHECK(fh_decode(buf, len, &out) == FH_BADMAC);
	fh_set_key(key);
	CHECK(fh_decode(buf, len, &out) == FH_OK);
	/* Too small an output buffer. */
	CHECK(fh_encode(&in, buf, 20) == 0);
}

int
main(void)
{
	test_siphash_vectors();
	test_roundtrip();
	test_rejects();
	return unit_done("test_fh");
}
