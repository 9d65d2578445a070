/* Socket addresses compared, printed and parsed, for every module alike. */
#ifndef USERNFSD_SOCKADDR_H
#define USERNFSD_SOCKADDR_H

#include <stddef.h>
#include <sys/socket.h>

/* The same IPv4 or IPv6 host (ports ignored). */
int sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
/* The same host and port. */
int sockaddr_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b);
/* The host as numeric text ("192.0.2.1", "2001:db8::1"); "?" if none. */
void sockaddr_text(const struct sockaddr_storage *a, char *buf, size_t len);
/* The reverse (port 0); -1 for anything but a numeric address. */
int sockaddr_parse(const char *text, struct sockaddr_storage *a);

#endif
