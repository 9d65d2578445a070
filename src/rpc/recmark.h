/*
 * RPC record marking (RFC 5531 section 11) for stream transports:
 * reassembles fragments into whole records. Pure data in, records out, so
 * it can be fuzzed on its own. Memory grows with the bytes that actually
 * arrive (plus at most RM_DIRECT_STEP), never with the length a fragment
 * header claims.
 */
#ifndef USERNFSD_RECMARK_H
#define USERNFSD_RECMARK_H

#include <stddef.h>
#include <stdint.h>

#define RM_LAST_FRAG 0x80000000u
#define RM_DIRECT_MIN 16384	/* fragment payload worth reading in place */
#define RM_DIRECT_STEP 65536	/* room made ahead of the bytes that arrived */

struct recmark {
	uint8_t hdr[4];
	unsigned hdr_have;	/* bytes of the current fragment header seen */
	uint32_t frag_left;	/* payload bytes still to come in this fragment */
	int in_frag;
	int last_frag;
	uint8_t *rec;		/* the record being assembled */
	size_t len, cap;
	size_t max;		/* largest record accepted */
	unsigned frags;		/* fragments in the current record */
};

/* Takes ownership of rec (malloc'd). Return non-zero to stop with an error. */
typedef int (*recmark_cb)(void *arg, uint8_t *rec, size_t len);

void recmark_init(struct recmark *rm, size_t max_record);
void recmark_free(struct recmark *rm);
/* 0 on success; -1 on a record over the limit or a callback error. */
int recmark_feed(struct recmark *rm, const uint8_t *p, size_t n, recmark_cb cb, void *arg);
/*
 * Zero-copy alternative for large fragments: recmark_direct says where up
 * to *room payload bytes may be read (1), or that the caller must use
 * recmark_feed (0), or -1; recmark_direct_done accounts for n bytes read
 * there, delivering the record when it is complete (same return as feed).
 */
int recmark_direct(struct recmark *rm, uint8_t **dst, size_t *room);
int recmark_direct_done(struct recmark *rm, size_t n, recmark_cb cb, void *arg);

#endif
