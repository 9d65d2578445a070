/*
 * Calls from the server to a client on a connection the client opened
 * (NFSv4.1's back channel, RFC 8881 2.10.3.1): the client's TCP connection
 * carries our CALL records out and its REPLY records back, beside its own
 * calls and our replies. The connection is held by a handle, so that a
 * session can keep it without the rpc layer knowing what a session is,
 * and so that a client that drops it is seen (bc_is_open).
 *
 * A call blocks its thread until the reply or the time limit: for
 * background tasks (tasks.h), never a worker. The reply is taken off the
 * connection by its reader (tcpconn.c hands REPLY records here), so it
 * needs no worker either, and callbacks cannot starve the work queue.
 */
#ifndef USERNFSD_BACKCHANNEL_H
#define USERNFSD_BACKCHANNEL_H

#include <stdint.h>
#include <rpc/rpc.h>

#define BC_MAX_HELD	4096	/* connections held at once (sessions are fewer) */

struct rpc_req;

/* At start-up, before the transport runs. */
void bc_init(void);
/* The connection req came on, held: a handle, or 0 (UDP, closed, the table is full). */
uint64_t bc_hold(const struct rpc_req *req);
void bc_release(uint64_t h);
/* Is the held connection still open? */
int bc_is_open(uint64_t h);

/* The credential our calls carry: what the client's csa_sec_parms accept. */
struct bc_auth {
	uint32_t flavor;		/* AUTH_NONE or AUTH_SYS */
	uint32_t uid, gid;
	char machine[64];
};

/*
 * Calls prog/vers/proc on the held connection and waits up to timeout_ms
 * for the reply, decoded into res with xres. 0, or -1 with the reason in
 * err: the connection is gone, the time ran out, or the reply was not
 * SUCCESS.
 */
int bc_call(uint64_t h, uint32_t prog, uint32_t vers, uint32_t proc, const struct bc_auth *auth,
    xdrproc_t xargs, void *args, xdrproc_t xres, void *res, unsigned timeout_ms,
    char *err, size_t errlen);

/*
 * A REPLY record into res (decoded with xres): 0, or -1 with why (not
 * decodable, refused, not SUCCESS). bc_call's own; the fuzz target's too.
 */
int bc_decode_reply(const uint8_t *rec, size_t len, xdrproc_t xres, void *res, char *err,
    size_t errlen);

#endif
