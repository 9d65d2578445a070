/* Socket addresses compared, printed and parsed, for every module alike. */
#ifndef USERNFSD_SOCKADDR_H
#define USERNFSD_SOCKADDR_H

#include <stddef.h>
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>

/* The same IPv4 or IPv6 host (ports ignored). */
int sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
/* The same host and port. */
int sockaddr_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
/*
 * A hash of the host's address (FNV-1a; ports ignored), 0 for other
 * families.  Inline: the work queue hashes every call with it.
 */
static inline uint32_t
sockaddr_host_hash(const struct sockaddr_storage *a)
{
	const uint8_t *p;
	size_t n;
	uint32_t h = 2166136261u;

	if (a->ss_family == AF_INET) {
		p = (const uint8_t *)&((const struct sockaddr_in *)a)->sin_addr;
		n = 4;
	} else if (a->ss_family == AF_INET6) {
		p = (const uint8_t *)&((const struct sockaddr_in6 *)a)->sin6_addr;
		n = 16;
	} else {
		return 0;
	}
	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}
/* The host as numeric text ("192.0.2.1", "2001:db8::1"); "?" if none. */
void sockaddr_text(const struct sockaddr_storage *a, char *buf, size_t len);
/* The reverse (port 0); -1 for anything but a numeric address. */
int sockaddr_parse(const char *text, struct sockaddr_storage *a);

#endif
