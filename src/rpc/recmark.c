/* RPC record-marking reassembly for TCP. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "recmark.h"

/* A record made of thousands of tiny fragments is an attack, not a client. */
#define RM_MAX_FRAGS 1024

void
recmark_init(struct recmark *rm, size_t max_record)
{
	memset(rm, 0, sizeof(*rm));
	rm->max = max_record;
}

void
recmark_free(struct recmark *rm)
{
	free(rm->rec);
	rm->rec = NULL;
	rm->len = rm->cap = 0;
}

static int
reserve(struct recmark *rm, size_t extra)
{
	size_t want = rm->len + extra, cap = rm->cap ? rm->cap : 512;
	uint8_t *n;

	if (want <= rm->cap)
		return 0;
	while (cap < want)
		cap *= 2;
	if (cap > rm->max)
		cap = rm->max;
	n = realloc(rm->rec, cap);
	if (n == NULL)
		return -1;
	rm->rec = n;
	rm->cap = cap;
	return 0;
}

static int
start_fragment(struct recmark *rm)
{
	uint32_t h = be32_get(rm->hdr);

	rm->hdr_have = 0;
	rm->last_frag = (h & RM_LAST_FRAG) != 0;
	rm->frag_left = h & ~RM_LAST_FRAG;
	rm->in_frag = 1;
	if (++rm->frags > RM_MAX_FRAGS)
		return -1;
	if (rm->frag_left > rm->max || rm->len + rm->frag_left > rm->max)
		return -1;
	return 0;
}

static int
finish_record(struct recmark *rm, recmark_cb cb, void *arg)
{
	uint8_t *rec = rm->rec;
	size_t len = rm->len;

	rm->rec = NULL;
	rm->len = rm->cap = 0;
	rm->frags = 0;
	rm->in_frag = 0;
	if (rec == NULL) {
		/* An empty record: nothing to dispatch, nothing to keep. */
		return 0;
	}
	return cb(arg, rec, len);
}

int
recmark_feed(struct recmark *rm, const uint8_t *p, size_t n, recmark_cb cb, void *arg)
{
	while (n > 0) {
		if (!rm->in_frag) {
			size_t take = 4 - rm->hdr_have;

			if (take > n)
				take = n;
			memcpy(rm->hdr + rm->hdr_have, p, take);
			rm->hdr_have += (unsigned)take;
			p += take;
			n -= take;
			if (rm->hdr_have < 4)
				return 0;
			if (start_fragment(rm) < 0)
				return -1;
		} else {
			size_t take = rm->frag_left < n ? rm->frag_left : n;

			if (reserve(rm, take) < 0)
				return -1;
			memcpy(rm->rec + rm->len, p, take);
			rm->len += take;
			rm->frag_left -= (uint32_t)take;
			p += take;
			n -= take;
		}
		if (rm->in_frag && rm->frag_left == 0) {
			rm->in_frag = 0;
			if (rm->last_frag && finish_record(rm, cb, arg) != 0)
				return -1;
		}
	}
	return 0;
}

/*
 * Where the next read(2) may put fragment payload directly, skipping the
 * copy through the transport's staging buffer: only inside a fragment
 * with at least RM_DIRECT_MIN bytes still to come.  The buffer is sized to
 * what has arrived so far plus at most RM_DIRECT_STEP, never to the
 * length a header claims.  1 if dst and room are set, 0 if the caller
 * should read into its own buffer and recmark_feed, -1 on no memory.
 */
int
recmark_direct(struct recmark *rm, uint8_t **dst, size_t *room)
{
	size_t want;

	if (!rm->in_frag || rm->frag_left < RM_DIRECT_MIN)
		return 0;
	if (rm->cap - rm->len < RM_DIRECT_MIN) {
		uint8_t *n;
		size_t cap;

		want = rm->len > RM_DIRECT_STEP ? rm->len : RM_DIRECT_STEP;
		if (want > rm->frag_left)
			want = rm->frag_left;
		cap = rm->len + want;	/* <= max: start_fragment checked len + frag_left */
		n = realloc(rm->rec, cap);
		if (n == NULL)
			return -1;
		rm->rec = n;
		rm->cap = cap;
	}
	*dst = rm->rec + rm->len;
	*room = rm->cap - rm->len < rm->frag_left ? rm->cap - rm->len : rm->frag_left;
	return 1;
}

int
recmark_direct_done(struct recmark *rm, size_t n, recmark_cb cb, void *arg)
{
	rm->len += n;
	rm->frag_left -= (uint32_t)n;
	if (rm->frag_left == 0) {
		rm->in_frag = 0;
		if (rm->last_frag && finish_record(rm, cb, arg) != 0)
			return -1;
	}
	return 0;
}
