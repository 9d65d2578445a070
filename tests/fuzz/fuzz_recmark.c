/*
 * libFuzzer target: TCP record-marking reassembly (src/recmark.c).
 *
 * Input layout:
 *   byte 0        k = number of chunk sizes that follow (0..15, taken mod 16)
 *   bytes 1..k    chunk sizes (0 means 1); the list is used round-robin
 *   the rest      the byte stream a client sends
 *
 * The stream is fed in those chunks, as the daemon's read() calls would
 * deliver it, through recmark_direct (reading in place, as the daemon does
 * inside large fragments) where it offers room and recmark_feed elsewhere,
 * with the daemon's limit (RPC_MAX_RECORD) and with a small one. Checked
 * on every input:
 *   - chunking does not matter: the records delivered and the final status
 *     equal those of feeding the whole stream to recmark_feed in one call;
 *   - no record is empty or over the limit;
 *   - memory follows the bytes that arrived, not the lengths claimed:
 *     the buffer never exceeds the limit, nor twice what it holds plus
 *     RM_DIRECT_STEP (or 512).
 * Any violation aborts (a crash for libFuzzer).
 *
 * FUZZ_WRITE_SEEDS=DIR: write the seed corpus into DIR and exit (seeds.h;
 * fragment headers with tests/rpcraw.h's rr_put32).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpc/recmark.h"
#include "rpc/transport.h"

#include "../rpcraw.h"
#include "seeds.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the records of one run were: their concatenation and lengths. */
struct sink {
	size_t max;
	uint8_t *bytes;
	size_t nbytes;
	size_t nrecords;
	size_t lensum;		/* sum of record length * position, order-sensitive */
};

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_recmark: %s\n", what);
	abort();
}

/* The callback owns rec: keep a copy of its bytes, free it. */
static int
on_record(void *arg, uint8_t *rec, size_t len)
{
	struct sink *s = arg;

	if (rec == NULL || len == 0)
		die("empty record delivered");
	if (len > s->max)
		die("record over the limit delivered");
	s->bytes = realloc(s->bytes, s->nbytes + len);
	if (s->bytes == NULL)
		die("out of memory");
	memcpy(s->bytes + s->nbytes, rec, len);
	s->nbytes += len;
	s->nrecords++;
	s->lensum += len * s->nrecords;
	free(rec);
	return 0;
}

static void
check_memory(const struct recmark *rm)
{
	if (rm->cap > rm->max)
		die("buffer larger than the record limit");
	if (rm->cap > 512 && rm->cap >= 2 * rm->len + RM_DIRECT_STEP)
		die("buffer grew beyond the bytes that arrived");
	if (rm->len > rm->cap)
		die("length beyond capacity");
}

/* One chunk, read in place where recmark_direct offers room. */
static int
deliver(struct recmark *rm, const uint8_t *p, size_t n, struct sink *s)
{
	while (n > 0) {
		uint8_t *dst;
		size_t room;
		int d = recmark_direct(rm, &dst, &room);

		if (d < 0)
			return -1;
		if (d == 0)
			return recmark_feed(rm, p, n, on_record, s);
		if (room == 0)
			die("recmark_direct offered no room");
		if (room > n)
			room = n;
		memcpy(dst, p, room);
		if (recmark_direct_done(rm, room, on_record, s) != 0)
			return -1;
		check_memory(rm);
		p += room;
		n -= room;
	}
	return 0;
}

/* Feeds stream in chunks; returns the first failure (or 0). */
static int
run(size_t max, const uint8_t *sizes, size_t nsizes, const uint8_t *stream, size_t n,
    struct sink *s)
{
	struct recmark rm;
	size_t i = 0, off = 0;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	s->max = max;
	recmark_init(&rm, max);
	while (off < n) {
		size_t chunk = nsizes ? sizes[i++ % nsizes] : n;

		if (chunk == 0)
			chunk = 1;
		if (chunk > n - off)
			chunk = n - off;
		rc = nsizes ? deliver(&rm, stream + off, chunk, s) :
		    recmark_feed(&rm, stream + off, chunk, on_record, s);
		off += chunk;
		check_memory(&rm);
		if (rc != 0)
			break;	/* the daemon closes the connection here */
	}
	recmark_free(&rm);
	return rc;
}

static void
differential(size_t max, const uint8_t *sizes, size_t nsizes, const uint8_t *stream, size_t n)
{
	struct sink whole, chunked;
	int rc_whole = run(max, NULL, 0, stream, n, &whole);
	int rc_chunked = run(max, sizes, nsizes, stream, n, &chunked);

	if (rc_whole != rc_chunked)
		die("status depends on how the stream was split");
	if (whole.nrecords != chunked.nrecords || whole.lensum != chunked.lensum ||
	    whole.nbytes != chunked.nbytes ||
	    (whole.nbytes && memcmp(whole.bytes, chunked.bytes, whole.nbytes) != 0))
		die("records depend on how the stream was split");
	free(whole.bytes);
	free(chunked.bytes);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nsizes;

	if (size == 0)
		return 0;
	nsizes = data[0] % 16;
	if (size < 1 + nsizes)
		return 0;
	differential(RPC_MAX_RECORD, data + 1, nsizes, data + 1 + nsizes, size - 1 - nsizes);
	/* A small limit makes the over-limit paths reachable with small inputs. */
	differential(100, data + 1, nsizes, data + 1 + nsizes, size - 1 - nsizes);
	return 0;
}

/* ---- the seed corpus ---- */

struct seed {
	uint8_t b[512];
	size_t n;
};

static void
add(struct seed *s, const void *p, size_t n)
{
	memcpy(s->b + s->n, p, n);
	s->n += n;
}

/* A fragment header: length and the last-fragment bit. */
static void
frag(struct seed *s, uint32_t len, int last)
{
	uint8_t h[4];

	rr_put32(h, len | (last ? RR_LAST_FRAG : 0));
	add(s, h, 4);
}

static void
save(const char *dir, const char *name, const struct seed *s)
{
	fuzz_save_seed(dir, name, NULL, 0, s->b, s->n);
}

static void
write_seeds(const char *dir)
{
	/* An RPC NULL call to NFS v3 with AUTH_NONE: 40 bytes. */
	static const uint8_t null_call[40] = {
		0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0x86, 0xa3,
		0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	};
	static const uint8_t sizes1[] = { 1, 1 }, sizes2[] = { 3, 3, 7, 250 };
	struct seed s;

	memset(&s, 0, sizeof(s));
	add(&s, "\0", 1);			/* whole stream at once */
	frag(&s, 40, 1);
	add(&s, null_call, 40);
	save(dir, "one-record", &s);

	memset(&s, 0, sizeof(s));
	add(&s, sizes1, 2);			/* byte by byte */
	frag(&s, 16, 0);
	add(&s, null_call, 16);
	frag(&s, 24, 1);
	add(&s, null_call + 16, 24);
	save(dir, "two-fragments-bytewise", &s);

	memset(&s, 0, sizeof(s));
	add(&s, sizes2, 4);
	for (int i = 0; i < 3; i++) {
		frag(&s, 40, 1);
		add(&s, null_call, 40);
	}
	save(dir, "three-records-chunked", &s);

	memset(&s, 0, sizeof(s));
	add(&s, "\0", 1);
	frag(&s, 0, 0);				/* zero-length fragments */
	frag(&s, 0, 0);
	frag(&s, 0, 1);				/* an empty record */
	frag(&s, 40, 1);
	add(&s, null_call, 40);
	save(dir, "zero-length-fragments", &s);

	memset(&s, 0, sizeof(s));
	add(&s, "\0", 1);
	frag(&s, 0x7fffffff, 1);		/* claims 2 GiB */
	add(&s, null_call, 40);
	save(dir, "huge-claim", &s);

	memset(&s, 0, sizeof(s));
	add(&s, "\0", 1);
	frag(&s, 60, 0);
	add(&s, null_call, 40);
	add(&s, null_call, 20);
	frag(&s, 50, 1);			/* 110 bytes: over the small limit */
	add(&s, null_call, 40);
	save(dir, "over-small-limit", &s);

	memset(&s, 0, sizeof(s));
	add(&s, sizes1, 2);
	for (int i = 0; i < 60; i++) {		/* many one-byte fragments */
		frag(&s, 1, i == 59);
		add(&s, null_call + i % 40, 1);
	}
	save(dir, "many-fragments", &s);

	memset(&s, 0, sizeof(s));
	add(&s, "\0", 1);
	frag(&s, 40, 1);
	add(&s, null_call, 40);
	add(&s, "\x80\x00", 2);			/* half a header at the end */
	save(dir, "partial-header", &s);
}

/* Start-up: only the seed writer. */
FUZZ_SEEDS_INITIALIZE(write_seeds)
