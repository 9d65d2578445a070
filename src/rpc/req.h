/*
 * The request object: one RPC call as it came off the wire (a datagram or
 * a reassembled TCP record), where it came from, and the connection it
 * holds a reference to.  The transport makes it (req_new), the work queue
 * carries it, dispatch serves it and frees it (req_free), which tells the
 * connection that one of its calls ended.  Its own module so that the
 * transport, the work queue and the fuzz targets share it without
 * including one another.
 */
#ifndef USERNFSD_REQ_H
#define USERNFSD_REQ_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "be.h"

struct conn;

struct rpc_req {
	struct rpc_req *next;		/* work queue link */
	struct conn *conn;		/* TCP: holds a reference; UDP: NULL */
	int udp_fd;
	int proto;			/* IPPROTO_UDP or IPPROTO_TCP */
	uint16_t local_port;		/* the port the call came in on */
	struct sockaddr_storage peer;
	socklen_t peerlen;
	union {
		struct in_pktinfo v4;
		struct in6_pktinfo v6;
	} pktinfo;			/* UDP: reply from the address asked */
	int pktinfo_family;		/* 0 when none */
	uint8_t *buf;			/* the call message (owned) */
	size_t len;
	uint64_t queued_us;		/* when it entered the work queue (statistics) */
	signed char bulk;		/* a bulk call (workq.c); -1 until classified */
	size_t reserved;		/* TCP: reply memory reserved for it (tcpconn.c) */
};

/*
 * Word i of a call as it came off the wire, for a look before the XDR
 * decode: RFC 5531 fixes 0 xid, 1 direction, 2 RPC version, 3 program,
 * 4 version, 5 procedure.  0 if the call is too short to have it.
 */
static inline int
req_call_word(const struct rpc_req *req, unsigned i, uint32_t *v)
{
	if (req->len < 4 * ((size_t)i + 1))
		return 0;
	*v = be32_get(req->buf + 4 * (size_t)i);
	return 1;
}

/* A request for the call in buf (taken over), or NULL. */
struct rpc_req *req_new(uint8_t *buf, size_t len);
/* Releases a request (after its reply was sent, or when it is dropped). */
void req_free(struct rpc_req *req);
size_t req_max_payload(const struct rpc_req *req);
/* Printable peer address ("192.0.2.1" or "2001:db8::1"). */
void req_peer_str(const struct rpc_req *req, char *buf, size_t len);
uint16_t req_peer_port(const struct rpc_req *req);
/* The address (port 0) of ours the call was sent to; 0 or -1. */
int req_local_addr(const struct rpc_req *req, struct sockaddr_storage *out);

#endif
