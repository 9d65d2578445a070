/*
 * libFuzzer target: file handle decoding and verification (src/fh.c), both
 * layouts: version 1 (NFSv3, 28..64 bytes) and version 2 (NFSv2, 32 bytes).
 *
 * Input layout:
 *   byte 0     mode: bit 0 set = first give the handle a correct MAC (so the
 *              structural checks behind the MAC get explored too)
 *   the rest   the handle as it comes off the wire
 *
 * Checked on every input: whatever fh_decode accepts re-encodes (fh_encode
 * or fh_encode_v2, same key) to exactly the bytes that were decoded, so no
 * two wire handles name the same object and nothing unauthenticated is
 * accepted; a handle with a MAC not computed under the key never decodes.
 *
 * FUZZ_WRITE_SEEDS=DIR: write the seed corpus into DIR and exit (seeds.h).
 * The MAC's big-endian words are tests/rpcraw.h's rr_put64/rr_get64.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fs/fh.h"
#include "siphash.h"

#include "../rpcraw.h"
#include "seeds.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t key[FH_KEY_LEN] = {
	0x75, 0x73, 0x65, 0x72, 0x6e, 0x66, 0x73, 0x64,	/* "usernfsd" */
	0x2d, 0x66, 0x75, 0x7a, 0x7a, 0x2d, 0x66, 0x68,	/* "-fuzz-fh" */
};

static void
die(const char *what, const uint8_t *h, size_t len)
{
	fprintf(stderr, "fuzz_fh: %s; handle:", what);
	for (size_t i = 0; i < len; i++)
		fprintf(stderr, " %02x", h[i]);
	fputc('\n', stderr);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *h, out[FH3_MAXLEN];
	size_t len, outlen;
	struct fh fh;
	int mac_ok;

	if (size < 1)
		return 0;
	fh_set_key(key);
	len = size - 1;
	/* An exact-size copy, so ASan sees any read past the handle. */
	h = malloc(len ? len : 1);
	if (h == NULL)
		abort();
	memcpy(h, data + 1, len);
	if ((data[0] & 1) && len >= FH_MAC_LEN)
		rr_put64(h + len - FH_MAC_LEN, siphash24(key, h, len - FH_MAC_LEN));
	mac_ok = len >= FH_MAC_LEN &&
	    rr_get64(h + len - FH_MAC_LEN) == siphash24(key, h, len - FH_MAC_LEN);

	if (fh_decode(h, len, &fh) == FH_OK) {
		if (!mac_ok)
			die("accepted without a valid MAC", h, len);
		if (fh.kfh_len > FH_KFH_MAX)
			die("kernel handle length out of range", h, len);
		if (len == FH2_LEN && h[0] == FH_VERSION_V2)
			outlen = fh_encode_v2(&fh, out);
		else
			outlen = fh_encode(&fh, out, sizeof(out));
		if (outlen != len || memcmp(out, h, len) != 0)
			die("decoded handle does not re-encode to the same bytes", h, len);
	}
	free(h);
	return 0;
}

/* ---- the seed corpus ---- */

static void
write_seed(const char *dir, const char *name, uint8_t mode, const uint8_t *h, size_t len)
{
	fuzz_save_seed(dir, name, &mode, 1, h, len);
}

static void
write_seeds(const char *dir)
{
	struct fh fh = { 0x12345678, 131, 0x9abcdef0, 1, 8, { 131, 0, 0, 0, 0xf0, 0xde, 0xbc, 0x9a } };
	uint8_t h[FH3_MAXLEN];
	size_t len;

	fh_set_key(key);
	len = fh_encode(&fh, h, sizeof(h));
	write_seed(dir, "v3-kernel-handle", 0, h, len);
	h[9] ^= 1;
	write_seed(dir, "v3-altered-fixed-mac", 1, h, len);
	write_seed(dir, "v3-bad-mac", 0, h, len);
	write_seed(dir, "v3-truncated", 0, h, len - 3);
	len = fh_encode_v2(&fh, h);
	write_seed(dir, "v2-kernel-handle", 0, h, len);
	fh.kfh_len = FH_KFH_MAX;
	len = fh_encode(&fh, h, sizeof(h));
	write_seed(dir, "v3-longest", 0, h, len);
	fh.kfh_len = 0;
	len = fh_encode(&fh, h, sizeof(h));
	write_seed(dir, "v3-no-kernel-handle", 0, h, len);
	len = fh_encode_v2(&fh, h);
	write_seed(dir, "v2-no-kernel-handle", 0, h, len);
}

/* Start-up: only the seed writer. */
FUZZ_SEEDS_INITIALIZE(write_seeds)
