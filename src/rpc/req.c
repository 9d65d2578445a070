/*
 * The request object (include/req.h): made by the transport for each call
 * it reads, carried by the work queue, freed by dispatch once the call is
 * answered or dropped.  A TCP request holds a reference to its connection;
 * freeing it tells the connection (conn_request_done), which may then
 * start calls it held back and give back the reply memory the call had
 * reserved.  The fuzz target tests/fuzz/fuzz_rpc.c links this file as the
 * daemon does; only the connection's two functions are its own.
 */
#include "config.h"

#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "req.h"
#include "tcpconn.h"
#include "transport.h"

struct rpc_req *
req_new(uint8_t *buf, size_t len)
{
	struct rpc_req *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return NULL;
	r->buf = buf;
	r->len = len;
	r->bulk = -1;
	return r;
}

void
req_free(struct rpc_req *req)
{
	if (req->conn)
		conn_request_done(req->conn, req->reserved);
	free(req->buf);
	free(req);
}

size_t
req_max_payload(const struct rpc_req *req)
{
	return req->proto == IPPROTO_TCP ? TCP_MAX_PAYLOAD : UDP_MAX_PAYLOAD;
}

void
req_peer_str(const struct rpc_req *req, char *buf, size_t len)
{
	if (getnameinfo((const struct sockaddr *)&req->peer, req->peerlen, buf, (socklen_t)len,
	    NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(buf, len, "?");
}

uint16_t
req_peer_port(const struct rpc_req *req)
{
	if (req->peer.ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)&req->peer)->sin_port);
	if (req->peer.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&req->peer)->sin6_port);
	return 0;
}

int
req_local_addr(const struct rpc_req *req, struct sockaddr_storage *out)
{
	socklen_t len = sizeof(*out);

	memset(out, 0, sizeof(*out));
	if (req->pktinfo_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)out;

		sin->sin_family = AF_INET;
		sin->sin_addr = req->pktinfo.v4.ipi_addr;
		return 0;
	}
	if (req->pktinfo_family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)out;

		sin6->sin6_family = AF_INET6;
		sin6->sin6_addr = req->pktinfo.v6.ipi6_addr;
		return 0;
	}
	if (getsockname(req->conn ? conn_local_fd(req->conn) : req->udp_fd, (struct sockaddr *)out, &len) < 0)
		return -1;
	if (out->ss_family == AF_INET)
		((struct sockaddr_in *)out)->sin_port = 0;
	else if (out->ss_family == AF_INET6)
		((struct sockaddr_in6 *)out)->sin6_port = 0;
	return 0;
}

