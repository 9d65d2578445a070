/*
 * Duplicate request cache: a retransmitted non-idempotent call (same XID,
 * program, version, procedure, client address and port, transport and
 * argument checksum) is answered with the reply already sent instead of
 * being run twice, so a retransmitted REMOVE does not turn into NOENT.
 * A duplicate of a call still running is dropped; the client retries.
 * Bounded in entries and bytes; oldest entries go first.
 */
#ifndef USERNFSD_DRC_H
#define USERNFSD_DRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct drc_key {
	uint32_t xid, prog, vers, proc;
	int proto;
	struct sockaddr_storage addr;	/* address and port */
	uint64_t csum;			/* of the arguments (unwrapped, for RPCSEC_GSS) */
	/*
	 * RPCSEC_GSS: the context (gss_call_ctx_tag), 0 for other flavors. A
	 * retransmission keeps its context and XID but not its sequence
	 * number, so what is cached for it is the plain result, wrapped anew.
	 */
	uint64_t ctx;
};

enum drc_state {
	DRC_NEW,		/* first sight: run it, then drc_done or drc_forget */
	DRC_IN_PROGRESS,	/* the original is still running: drop this copy */
	DRC_REPLAY,		/* answered before: the reply was copied out */
};

void drc_key_init(struct drc_key *k, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    int proto, const struct sockaddr_storage *addr, const void *args, size_t argslen);
enum drc_state drc_begin(const struct drc_key *k, uint8_t *reply, size_t cap, size_t *len);
void drc_done(const struct drc_key *k, const uint8_t *reply, size_t len);
void drc_forget(const struct drc_key *k);
/* Statistics, for tests and debugging. */
void drc_stats(unsigned *entries, unsigned *hits);

#endif
