/*
 * Sockets: UDP and TCP listeners (IPv4 and IPv6), TCP connections with record
 * marking (tcpconn.c), and the epoll set the pool threads wait on when they
 * have nothing to run (transport_wait). Whole requests go to the work queue;
 * the thread that read a call usually runs it, and workers send replies
 * themselves (transport_reply), so a slow request never holds up other
 * requests on the same connection. See DESIGN.md.
 */
#ifndef USERNFSD_TRANSPORT_H
#define USERNFSD_TRANSPORT_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Largest TCP record accepted: a 1 MiB WRITE plus RPC and NFS headers. */
#define RPC_MAX_RECORD ((1u << 20) + 8192)
/* Largest payload (READ/WRITE data) per transport, also advertised by FSINFO. */
#define TCP_MAX_PAYLOAD (1u << 20)
#define UDP_MAX_PAYLOAD (32u << 10)
/* Bytes a worker must leave free in front of a reply for the record mark. */
#define REPLY_HEADROOM 4

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
	const uint8_t *p = req->buf + 4 * (size_t)i;

	if (req->len < 4 * ((size_t)i + 1))
		return 0;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return 1;
}

struct listen_spec {
	const char *bind_addr;		/* NULL: all addresses, IPv4 and IPv6 */
	uint16_t ports[3];		/* NFS, MOUNT and NLM: distinct ones */
	unsigned nports;
};

/* One bound socket, reported so rpcbind registration knows what exists. */
struct bound_socket {
	const char *netid;		/* "udp", "tcp", "udp6", "tcp6" */
	struct sockaddr_storage addr;
	socklen_t addrlen;
	uint16_t port;
};

int transport_listen(const struct listen_spec *spec, char *err, size_t errlen);
size_t transport_bound(const struct bound_socket **out);
/*
 * A pool thread with nothing to run: waits for one event and handles it.
 * Returns the number of kicks it took in (0 for any other event).
 */
unsigned transport_wait(void);
/* The same without waiting: handles one event if one is ready. */
unsigned transport_poll(void);
/* Wakes one thread waiting in transport_wait (work was queued for it). */
void transport_kick(void);
/* At shutdown: every thread in transport_wait returns, and any that calls it later. */
void transport_wake_all(void);
/*
 * Replies queued for unread TCP connections, and those that calls running
 * may still queue, of all connections together (--reply-memory): beyond
 * it, connections that have some are paused, and those whose replies
 * stall are closed.  See tcpconn.c.
 */
#define REPLY_BUDGET_DEFAULT_MIB 512
void transport_set_reply_budget(size_t bytes);
/* Periodic housekeeping: idle connections, the reply budget. */
void transport_tick(void);
void transport_close_all(void);

/*
 * Sends a reply for req. msg points REPLY_HEADROOM bytes after the start of
 * a buffer the caller owns; TCP writes the record mark there.
 */
void transport_reply(struct rpc_req *req, uint8_t *msg, size_t len);
/*
 * A reply whose bulk (READ data) was not copied into msg: the len bytes at
 * msg have a hole of gap->len bytes at gap->off, which go out from
 * gap->data instead (one copy less per READ), or, when gap->pipe is not
 * -1, are waiting in that pipe (TCP only: spliced, no copy at all).
 * Returns 0 when the pipe's bytes were all taken, -1 when some may be
 * left in it (the caller discards the pipe).
 */
struct reply_gap {
	size_t off, len;
	const uint8_t *data;
	int pipe;
};
int transport_reply_gap(struct rpc_req *req, uint8_t *msg, size_t len,
    const struct reply_gap *gap);
/* req cannot be answered: its TCP connection is closed (UDP: nothing). */
void transport_drop(struct rpc_req *req);
/* Releases a request (after its reply was sent, or when it is dropped). */
void req_free(struct rpc_req *req);
size_t req_max_payload(const struct rpc_req *req);
/* Printable peer address ("192.0.2.1" or "2001:db8::1"). */
void req_peer_str(const struct rpc_req *req, char *buf, size_t len);
uint16_t req_peer_port(const struct rpc_req *req);
/* The address (port 0) of ours the call was sent to; 0 or -1. */
int req_local_addr(const struct rpc_req *req, struct sockaddr_storage *out);

#endif
