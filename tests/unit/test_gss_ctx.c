/*
 * The RPCSEC_GSS context table and window (src/rpc/gss_ctx.c), without a
 * KDC: the window of 128 against a model that remembers every number
 * (random orders, jumps past 64 and 128, the edges by name), the
 * credential flavors gss_cred_creates tells apart, and the table's caps
 * (half-built contexts, the least recently used going first, handles of
 * evicted and removed contexts unknown).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "rpc/gss.h"
#include "rpc/gss_ctx.h"
#include "unit.h"

/* What the window must answer: new (1) unless seen, or 128 or more below the highest. */
static int
model_window(uint8_t *seen, uint32_t *max, int *any, uint32_t seq)
{
	if (*any && seq + RG_SEQ_WINDOW <= *max)
		return 0;
	if (seen[seq])
		return 0;
	seen[seq] = 1;
	if (!*any || seq > *max)
		*max = seq;
	*any = 1;
	return 1;
}

static void
window_random(unsigned rounds)
{
	enum { SPAN = 4096 };
	static uint8_t seen[SPAN];
	struct gss_ctx c;
	uint32_t max = 0, base = 0;
	int any = 0, agree = 1;

	memset(&c, 0, sizeof(c));
	memset(seen, 0, sizeof(seen));
	for (unsigned i = 0; i < rounds && agree; i++) {
		/* Mostly near the top, sometimes far behind or far ahead. */
		uint32_t seq = base + (uint32_t)(rand() % 300);

		if (seq >= SPAN)
			break;
		if (rand() % 8 == 0 && base + 200 < SPAN - 300)
			base += 150;
		agree = gss_ctx_window(&c, seq) == model_window(seen, &max, &any, seq);
	}
	CHECK(agree);
}

static void
window_edges(void)
{
	struct gss_ctx c;

	memset(&c, 0, sizeof(c));
	CHECK(gss_ctx_window(&c, 1000) == 1);
	CHECK(gss_ctx_window(&c, 1000) == 0);		/* replay of the highest */
	CHECK(gss_ctx_window(&c, 1000 - 127) == 1);	/* the window's last slot */
	CHECK(gss_ctx_window(&c, 1000 - 127) == 0);
	CHECK(gss_ctx_window(&c, 1000 - 128) == 0);	/* just below it */
	CHECK(gss_ctx_window(&c, 1063) == 1);		/* a shift of 63 */
	CHECK(gss_ctx_window(&c, 1000) == 0);		/* still remembered */
	CHECK(gss_ctx_window(&c, 1130) == 1);		/* of 67: past one word */
	CHECK(gss_ctx_window(&c, 1063) == 0);
	CHECK(gss_ctx_window(&c, 1003) == 1);		/* 127 below, never seen */
	CHECK(gss_ctx_window(&c, 5000) == 1);		/* far ahead: everything forgotten */
	CHECK(gss_ctx_window(&c, 4999) == 1);
	CHECK(gss_ctx_window(&c, 4999) == 0);
	CHECK(gss_ctx_window(&c, 1130) == 0);		/* far below */
	memset(&c, 0, sizeof(c));
	CHECK(gss_ctx_window(&c, 0) == 1);		/* 0 is a number like any other */
	CHECK(gss_ctx_window(&c, 0) == 0);
}

static void
cred_kinds(void)
{
	uint8_t body[24] = { 0 };
	struct opaque_auth oa = { RPCSEC_GSS_FLAVOR, (caddr_t)body, sizeof(body) };

	body[3] = 1;			/* version 1 */
	body[7] = RG_PROC_INIT;
	CHECK(gss_cred_creates(&oa));
	body[7] = RG_PROC_CONTINUE_INIT;
	CHECK(gss_cred_creates(&oa));
	body[7] = RG_PROC_DATA;
	CHECK(!gss_cred_creates(&oa));
	body[7] = RG_PROC_INIT;
	body[3] = 2;			/* another version */
	CHECK(!gss_cred_creates(&oa));
	body[3] = 1;
	body[19] = 5;			/* a handle longer than the body */
	CHECK(!gss_cred_creates(&oa));
	oa.oa_length = 16;		/* too short for the fixed words */
	CHECK(!gss_cred_creates(&oa));
}

static void
table_caps(void)
{
	struct gss_ctx *first, *c, *done;
	uint8_t h[RG_HANDLE_LEN];
	unsigned all, half;

	first = gss_ctx_new();
	CHECK(first != NULL);
	memcpy(h, first->handle, sizeof(h));
	gss_ctx_put(first);
	c = gss_ctx_find(h, sizeof(h));
	CHECK(c == first);
	gss_ctx_put(c);
	CHECK(gss_ctx_find(h, sizeof(h) - 1) == NULL);	/* not our length */

	/* One established context, then more half-built ones than the cap. */
	done = gss_ctx_new();
	gss_ctx_established(done, 3600);
	for (unsigned i = 0; i < GSS_CTX_HALF_MAX + 10; i++)
		gss_ctx_put(gss_ctx_new());
	gss_ctx_count(&all, &half);
	CHECK(half == GSS_CTX_HALF_MAX);
	CHECK(all == GSS_CTX_HALF_MAX + 1);
	CHECK(gss_ctx_find(h, sizeof(h)) == NULL);	/* the oldest half-built went */
	c = gss_ctx_find(done->handle, RG_HANDLE_LEN);	/* the established one stayed */
	CHECK(c == done);
	gss_ctx_put(c);

	/* Removed: unknown at once, alive while held. */
	gss_ctx_remove(done);
	CHECK(gss_ctx_find(done->handle, RG_HANDLE_LEN) == NULL);
	CHECK(done->refs == 1);
	gss_ctx_put(done);
	gss_ctx_count(&all, &half);
	CHECK(all == GSS_CTX_HALF_MAX);
}

/* The tick's sweep: contexts past their end go, the others and those in use stay usable. */
static void
sweep(void)
{
	struct gss_ctx *live, *held, *c;
	uint8_t dead_handle[RG_HANDLE_LEN];
	unsigned all, half, before;

	gss_ctx_count(&before, &half);
	live = gss_ctx_new();
	gss_ctx_established(live, 3600);
	c = gss_ctx_new();
	gss_ctx_established(c, 0);		/* its ticket ends now */
	memcpy(dead_handle, c->handle, sizeof(dead_handle));
	gss_ctx_put(c);
	held = gss_ctx_new();
	gss_ctx_established(held, 0);		/* ended, but a call still holds it */
	gss_ctx_sweep();
	gss_ctx_count(&all, &half);
	CHECK(all == before + 1);		/* live only */
	CHECK(gss_ctx_find(dead_handle, RG_HANDLE_LEN) == NULL);
	c = gss_ctx_find(live->handle, RG_HANDLE_LEN);
	CHECK(c == live);
	gss_ctx_put(c);
	CHECK(held->refs == 1 && !held->linked);	/* unlinked, not freed under its holder */
	gss_ctx_put(held);
	gss_ctx_remove(live);
	gss_ctx_put(live);
}

int
main(void)
{
	srand(28);
	window_edges();
	for (int i = 0; i < 200; i++)
		window_random(2000);
	cred_kinds();
	sweep();		/* before table_caps fills the table */
	table_caps();
	return unit_done("test_gss_ctx");
}
