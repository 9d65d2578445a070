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

#include "req.h"

/* Largest TCP record accepted: a 1 MiB WRITE plus RPC and NFS headers. */
#define RPC_MAX_RECORD ((1u << 20) + 8192)
/* Largest payload (READ/WRITE data) per transport, also advertised by FSINFO. */
#define TCP_MAX_PAYLOAD (1u << 20)
#define UDP_MAX_PAYLOAD (32u << 10)
/* Bytes a worker must leave free in front of a reply for the record mark. */
#define REPLY_HEADROOM 4

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

#endif
