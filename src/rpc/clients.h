/*
 * The clients seen: per address, calls, bytes and when last seen, for
 * `usernfsctl clients` and the metrics.  A bounded table (CLIENTS_MAX
 * entries): a new address takes the least recently seen entry of its
 * bucket.  Each bucket has its own lock, taken only to find an entry or
 * give one to a new address: a thread counts a run of calls from one
 * client with atomic adds into the entry it remembers (clients.c).
 */
#ifndef USERNFSD_CLIENTS_H
#define USERNFSD_CLIENTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#define CLIENTS_MAX 1024

struct client_info {
	char host[64];		/* numeric address, as req_peer_str prints it */
	uint64_t calls, bytes_in, bytes_out;
	time_t first_seen, last_seen;
	char principal[96];	/* the Kerberos principal of its latest RPCSEC_GSS call, or "" */
};

/*
 * A call from addr (any port) was answered; principal: its Kerberos
 * principal under RPCSEC_GSS, else NULL.
 */
void clients_note_call(const struct sockaddr_storage *addr, size_t bytes_in, size_t bytes_out,
    const char *principal);
/* A copy of the table, most recently seen first; free(*out). Returns the count. */
size_t clients_list(struct client_info **out);
/* How many addresses the table holds (a gauge), without copying it. */
size_t clients_count(void);

#endif
