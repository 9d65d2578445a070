/* Socket addresses (sockaddr.h). */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>

#include "sockaddr.h"

int
sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		    ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->ss_family == AF_INET6)
		return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		    &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
	return 0;
}

int
sockaddr_same(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (!sockaddr_same_host(a, b))
		return 0;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_port ==
		    ((const struct sockaddr_in *)b)->sin_port;
	return ((const struct sockaddr_in6 *)a)->sin6_port ==
	    ((const struct sockaddr_in6 *)b)->sin6_port;
}

void
sockaddr_text(const struct sockaddr_storage *a, char *buf, size_t len)
{
	const void *p = a->ss_family == AF_INET6 ?
	    (const void *)&((const struct sockaddr_in6 *)a)->sin6_addr :
	    (const void *)&((const struct sockaddr_in *)a)->sin_addr;

	if ((a->ss_family != AF_INET && a->ss_family != AF_INET6) ||
	    inet_ntop(a->ss_family, p, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

int
sockaddr_parse(const char *text, struct sockaddr_storage *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, text, &((struct sockaddr_in *)a)->sin_addr) == 1) {
		a->ss_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, text, &((struct sockaddr_in6 *)a)->sin6_addr) == 1) {
		a->ss_family = AF_INET6;
		return 0;
	}
	return -1;
}
