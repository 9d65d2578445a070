/* File handle encode/decode/MAC and SipHash test vectors. */
#include "config.h"

#include <string.h>

#include "fs/fh.h"
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

/* The 32-byte NFSv2 layout: kernel-handle form and inode form. */
static void
test_v2_roundtrip(void)
{
	uint8_t key[FH_KEY_LEN] = { 4, 5, 6 }, buf[FH2_LEN];

	fh_set_key(key);
	for (uint8_t k = 0; k <= FH2_KFH_MAX; k++) {
		struct fh in = sample(k), out;

		CHECK(fh_encode_v2(&in, buf) == FH2_LEN);
		CHECK(buf[0] == FH_VERSION_V2);
		CHECK(fh_decode(buf, FH2_LEN, &out) == FH_OK);
		CHECK(out.export_id == in.export_id && out.kfh_len == k);
		if (k) {
			/* Named by its kernel handle alone, as the inode cache expects. */
			CHECK(out.ino == 0 && out.gen == 0);
			CHECK(out.kfh_type == in.kfh_type && memcmp(out.kfh, in.kfh, k) == 0);
		} else {
			CHECK(out.ino == in.ino && out.gen == in.gen);
		}
	}
	/* A kernel handle over 16 bytes has no v2 form. */
	{
		struct fh big = sample(FH2_KFH_MAX + 1);
		CHECK(fh_encode_v2(&big, buf) == 0);
	}
}

/* The v3 and v2 handles of one object decode to what names the same object. */
static void
test_v2_v3_agree(void)
{
	uint8_t key[FH_KEY_LEN] = { 7 }, b3[FH3_MAXLEN], b2[FH2_LEN];
	struct fh in = sample(8), o3, o2;

	fh_set_key(key);
	CHECK(fh_decode(b3, fh_encode(&in, b3, sizeof(b3)), &o3) == FH_OK);
	CHECK(fh_encode_v2(&o3, b2) == FH2_LEN);
	CHECK(fh_decode(b2, FH2_LEN, &o2) == FH_OK);
	CHECK(o2.export_id == o3.export_id && o2.kfh_type == o3.kfh_type &&
	    o2.kfh_len == o3.kfh_len && memcmp(o2.kfh, o3.kfh, o3.kfh_len) == 0);
}

static void
flip_each_bit_v2(const uint8_t *buf)
{
	struct fh out;

	for (size_t i = 0; i < FH2_LEN; i++) {
		for (int b = 0; b < 8; b++) {
			uint8_t t[FH2_LEN];
			memcpy(t, buf, FH2_LEN);
			t[i] ^= (uint8_t)(1 << b);
			CHECK(fh_decode(t, FH2_LEN, &out) != FH_OK);
		}
	}
}

static void
test_v2_rejects(void)
{
	uint8_t key[FH_KEY_LEN] = { 9 }, other[FH_KEY_LEN] = { 8 }, buf[FH2_LEN], t[FH3_MAXLEN];
	struct fh kern = sample(12), plain = sample(0), out;

	fh_set_key(key);
	/* Every single-bit flip anywhere is caught, in both forms. */
	CHECK(fh_encode_v2(&kern, buf) == FH2_LEN);
	flip_each_bit_v2(buf);
	CHECK(fh_encode_v2(&plain, buf) == FH2_LEN);
	flip_each_bit_v2(buf);
	/* Only exactly 32 bytes are a v2 handle; shorter or longer is not one. */
	memset(t, 0, sizeof(t));
	memcpy(t, buf, FH2_LEN);
	CHECK(fh_decode(t, FH2_LEN - 1, &out) != FH_OK);
	CHECK(fh_decode(t, FH2_LEN + 4, &out) != FH_OK);
	/* Another server's key: not ours. */
	fh_set_key(other);
	CHECK(fh_decode(buf, FH2_LEN, &out) == FH_BADMAC);
	fh_set_key(key);
	CHECK(fh_decode(buf, FH2_LEN, &out) == FH_OK);
	/* A v3 handle of 32 bytes (4-byte kernel handle) is still read as v3. */
	{
		struct fh four = sample(4);
		CHECK(fh_encode(&four, t, sizeof(t)) == FH2_LEN);
		CHECK(fh_decode(t, FH2_LEN, &out) == FH_OK && out.ino == four.ino);
	}
}

int
main(void)
{
	test_siphash_vectors();
	test_roundtrip();
	test_rejects();
	test_v2_roundtrip();
	test_v2_v3_agree();
	test_v2_rejects();
	return unit_done("test_fh");
}
