/*
 * libFuzzer target: RPCSEC_GSS's decoders (src/rpc/gss_xdr.c), which read
 * what a client sends before any cryptography looks at it, and the
 * window of src/rpc/gss_ctx.c. No KDC: the GSS-API calls of gss.c are
 * integ_gss.sh's.
 *
 * Input layout:
 *   byte 0     which: 0 the credential, 1 an opaque, 2 rpc_gss_integ_data,
 *              3 the window (the rest: 32-bit sequence numbers)
 *   byte 1     the offset to start at (1 and 2), at most the input's length
 *   the rest   the bytes as they come off the wire
 *
 * Checked on every input: whatever decodes lies inside the input and
 * re-encodes (words, length, bytes, zero padding not required) to the bytes
 * it came from; a credential that decodes is version 1 and its handle ends
 * within the body; the window agrees with a model that remembers every
 * number it was shown.
 *
 * FUZZ_WRITE_SEEDS=DIR: write the seed corpus into DIR and exit (seeds.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpc/gss_ctx.h"
#include "rpc/gss_xdr.h"

#include "../rpcraw.h"
#include "seeds.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_gss: %s\n", what);
	abort();
}

static int
inside(const uint8_t *p, size_t n, const uint8_t *buf, size_t len)
{
	return p >= buf && p <= buf + len && n <= (size_t)(buf + len - p);
}

static void
check_cred(const uint8_t *p, size_t len)
{
	struct gss_cred c;

	if (gss_cred_decode(p, len, &c) < 0)
		return;
	if (c.vers != 1 || !inside(c.handle, c.hlen, p, len) || c.handle != p + 20)
		die("credential outside its body");
	if (rr_get32(p + 4) != c.gproc || rr_get32(p + 8) != c.seq || rr_get32(p + 12) != c.svc ||
	    rr_get32(p + 16) != c.hlen)
		die("credential words do not re-encode");
}

static void
check_opaque(const uint8_t *p, size_t len, size_t off)
{
	size_t at = off;
	uint32_t n;
	const uint8_t *o = gss_opaque_at(p, len, &at, 1024, &n);

	if (o == NULL) {
		if (at != off)
			die("a failed opaque moved the offset");
		return;
	}
	if (n > 1024 || !inside(o, n, p, len) || o != p + off + 4 || rr_get32(p + off) != n ||
	    at != off + 4 + ((n + 3) & ~3u) || at > len)
		die("opaque does not re-encode");
}

static void
check_integ(const uint8_t *p, size_t len, size_t off)
{
	struct gss_integ in;

	if (gss_integ_decode(p, len, off, 400, &in) < 0)
		return;
	if (in.blen < 4 || in.mlen > 400 || !inside(in.body, in.blen, p, len) ||
	    !inside(in.mic, in.mlen, p, len) || in.body != p + off + 4 ||
	    in.mic != in.body + ((in.blen + 3) & ~3u) + 4)
		die("integrity body outside the input");
}

/* The model remembers every number seen: 16-bit numbers, a bitmap of 2^16. */
static void
check_window(const uint8_t *p, size_t len)
{
	static uint8_t seen[1 << 16];
	struct gss_ctx c;
	uint32_t max = 0;
	int any = 0;

	memset(&c, 0, sizeof(c));
	memset(seen, 0, sizeof(seen));
	for (size_t i = 0; i + 2 <= len; i += 2) {
		uint32_t seq = (uint32_t)p[i] << 8 | p[i + 1];
		int want = !(any && seq + RG_SEQ_WINDOW <= max) && !seen[seq];

		if (want) {
			seen[seq] = 1;
			if (!any || seq > max)
				max = seq;
			any = 1;
		}
		if (gss_ctx_window(&c, seq) != want)
			die("the window disagrees with the model");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t off, len;
	const uint8_t *p;

	if (size < 2)
		return 0;
	p = data + 2;
	len = size - 2;
	off = data[1] <= len ? data[1] : len;
	switch (data[0] & 3) {
	case 0: check_cred(p, len); break;
	case 1: check_opaque(p, len, off); break;
	case 2: check_integ(p, len, off); break;
	default: check_window(p, len); break;
	}
	return 0;
}

/* ---- seeds ---- */

static void
seed(const char *dir, const char *name, uint8_t which, uint8_t off, const struct rr_enc *e)
{
	uint8_t pre[2] = { which, off };

	fuzz_save_seed(dir, name, pre, sizeof(pre), e->buf, e->len);
}

static void
write_seeds(const char *dir)
{
	static const uint8_t handle[16] = { 0xa5, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const char *names[] = { "cred-data", "cred-init", "cred-continue", "cred-destroy" };
	struct rr_enc e = { 0 };

	for (uint32_t proc = 0; proc < 4; proc++) {
		e.len = 0;
		rr_enc_u32(&e, 1);
		rr_enc_u32(&e, proc);
		rr_enc_u32(&e, proc ? 0 : 7);
		rr_enc_u32(&e, proc == 3 ? 2 : 1);
		rr_enc_opaque(&e, handle, proc == 1 ? 0 : sizeof(handle));
		seed(dir, names[proc], 0, 0, &e);
	}
	e.len = 0;
	rr_enc_opaque(&e, "an AP-REQ would be here", 23);
	seed(dir, "opaque-token", 1, 0, &e);
	e.len = 0;
	rr_enc_u32(&e, 0xdeadbeef);	/* what came before: the offset skips it */
	rr_enc_u32(&e, 12);
	rr_enc_u32(&e, 7);		/* seq_num */
	rr_enc_u32(&e, 0);		/* NULL's arguments would follow; GETATTR's handle: */
	rr_enc_u32(&e, 0);
	rr_enc_opaque(&e, handle, 16);	/* the checksum */
	seed(dir, "integ-body", 2, 4, &e);
	e.len = 0;
	for (uint32_t s = 1; s < 40; s++)
		rr_enc_bytes(&e, (uint8_t[]){ 0, (uint8_t)(s * 7 % 41) }, 2);
	rr_enc_bytes(&e, (uint8_t[]){ 1, 0, 0, 3, 0, 200, 1, 127, 0, 255 }, 10);
	seed(dir, "window-mixed", 3, 0, &e);
	free(e.buf);
}

FUZZ_SEEDS_INITIALIZE(write_seeds)
