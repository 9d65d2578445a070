/*
 * TCP connections: accepting, reading records, writing replies, limits and
 * closing.  Internal to the transport (transport.c owns the epoll set and
 * the listeners, and hands connection events here).
 *
 * Any pool thread may handle a connection's event; a connection is served
 * by one thread at a time (its owner), so its record reassembly needs no
 * lock.  Connections are never freed, only recycled: an event still held
 * by a thread names a slot and a generation, and a stale one is ignored.
 */
#ifndef USERNFSD_TCPCONN_H
#define USERNFSD_TCPCONN_H

#include <stddef.h>
#include <stdint.h>

struct conn;
struct rpc_req;

/* epoll data of a connection: EV_CONN | generation << 32 | slot */
#define EV_CONN (UINT64_C(1) << 63)

void conns_init(int epfd, unsigned max_conns);
/* Accepts what is pending on a listening socket (edge-triggered). */
void conns_accept(int listen_fd, uint16_t port, uint64_t listener_ev);
/* Handles one epoll event of a connection. */
void conn_event(uint64_t data, uint32_t events);
/* Once a second: connections idle too long are shut down. */
void conns_tick(void);
/* Single-threaded, at exit: closes every connection. */
void conns_close_all(void);
/* Connections open now (statistics). */
unsigned conns_open_count(void);
/* The global reply budget (transport_set_reply_budget), and what is used of it. */
void conns_set_reply_budget(size_t bytes);
size_t conns_reply_memory(void);

struct iovec;
/*
 * iov: the reply in at most REPLY_MAX_IOV pieces (header, READ data, tail),
 * the first at msg, with REPLY_HEADROOM in front of it for the record mark.
 * data_pipe: -1, or the pipe that holds the second piece's bytes (then
 * niov is 3 and iov[1] gives only their number).  Returns 0, or -1 when
 * bytes may be left in data_pipe.
 */
#define REPLY_MAX_IOV 3
int conn_reply(struct conn *c, uint8_t *msg, const struct iovec *iov, int niov, int data_pipe);
void conn_shut(struct conn *c);
/* A request of c ended; reserved: the reply memory it held (rpc_req.reserved). */
void conn_request_done(struct conn *c, size_t reserved);
int conn_local_fd(const struct conn *c);

/*
 * Calls back to a client on its own connection (NFSv4.1's back channel,
 * backchannel.c): a reference that keeps the connection's slot (0, or -1
 * when it is closed already), whether it is still open, and the reader's
 * hand-off of records that are REPLYs, not calls: fn takes rec when it
 * returns 1.
 */
int conn_hold(struct conn *c);
void conn_release(struct conn *c);
int conn_is_open(struct conn *c);
/* The same without the connection's lock: a hint, a state change late at worst. */
int conn_seems_open(struct conn *c);
void conns_set_reply_taker(int (*fn)(struct conn *c, uint8_t *rec, size_t len));

#endif
