/*
 * libFuzzer target: the exports(5) parser (src/exports_parse.c).
 *
 * The input is an exports file. Like exports_load, a file containing a NUL
 * byte is refused before parsing. Errors go to a callback that only checks
 * the message is a proper string. A table that parses is printed with
 * exports_print, one line per export and client; each of those lines is
 * itself an exports line that means the same: it must parse on its own and
 * print as exactly that line again. Then everything is freed
 * (LeakSanitizer watches).
 *
 * Host names: the parser resolves them with getaddrinfo(3). A fuzzer must
 * not send DNS queries, so this file defines getaddrinfo/freeaddrinfo itself
 * (the executable's definitions take precedence over libc's): "localhost"
 * and names "hostN..." resolve to fixed addresses, every other name fails
 * with EAI_NONAME. Deterministic, offline, and the multi-address path of the
 * parser still runs.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exports/exports.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *devnull;

/* ---- an offline resolver ---- */

static struct addrinfo *
fake_ai(int family, const char *addr, const struct addrinfo *hints)
{
	struct addrinfo *ai = calloc(1, sizeof(*ai) + sizeof(struct sockaddr_in6));
	struct sockaddr_in *sin = (struct sockaddr_in *)(ai + 1);
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)(ai + 1);

	if (ai == NULL)
		abort();
	ai->ai_family = family;
	ai->ai_socktype = hints ? hints->ai_socktype : 0;
	ai->ai_addr = (struct sockaddr *)(ai + 1);
	if (family == AF_INET) {
		sin->sin_family = AF_INET;
		inet_pton(AF_INET, addr, &sin->sin_addr);
		ai->ai_addrlen = sizeof(*sin);
	} else {
		sin6->sin6_family = AF_INET6;
		inet_pton(AF_INET6, addr, &sin6->sin6_addr);
		ai->ai_addrlen = sizeof(*sin6);
	}
	return ai;
}

int
getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
    struct addrinfo **res)
{
	char v4[32];
	int family = hints ? hints->ai_family : AF_UNSPEC;
	struct addrinfo *a = NULL, *b = NULL;

	(void)service;
	*res = NULL;
	if (node == NULL)
		return EAI_NONAME;
	if (strcmp(node, "localhost") == 0) {
		if (family != AF_INET6)
			a = fake_ai(AF_INET, "127.0.0.1", hints);
		if (family != AF_INET)
			b = fake_ai(AF_INET6, "::1", hints);
	} else if (strncmp(node, "host", 4) == 0) {
		snprintf(v4, sizeof(v4), "192.0.2.%u", (unsigned)strlen(node) % 256);
		if (family != AF_INET6)
			a = fake_ai(AF_INET, v4, hints);
		if (family != AF_INET && strlen(node) % 2)
			b = fake_ai(AF_INET6, "2001:db8::1", hints);
	} else {
		return EAI_NONAME;
	}
	if (a) {
		a->ai_next = b;
		*res = a;
	} else {
		*res = b;
	}
	return *res ? 0 : EAI_NONAME;
}

void
freeaddrinfo(struct addrinfo *ai)
{
	while (ai) {
		struct addrinfo *next = ai->ai_next;

		free(ai);
		ai = next;
	}
}

/* ---- the target ---- */

static void
on_error(void *arg, const char *msg)
{
	(void)arg;
	/* Touch every byte: ASan catches an unterminated or freed message. */
	if (strlen(msg) == (size_t)-1)
		abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	devnull = fopen("/dev/null", "w");
	if (devnull == NULL)
		abort();
	return 0;
}

/* Errors in what exports_print wrote are the finding: show them. */
static void
on_reparse_error(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "fuzz_exports: reparse: %s\n", msg);
}

/* exports_print into a malloc'd string. */
static char *
print_table(const struct export_table *t, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f == NULL)
		abort();
	exports_print(f, t);
	fclose(f);
	return buf;
}

/* Parses one printed line on its own; it must print as itself. */
static void
check_line(const char *line, size_t len)
{
	struct export_table *t;
	char *copy = strndup(line, len), *out;
	size_t outlen;

	if (copy == NULL)
		abort();
	t = exports_parse_text("printed", copy, on_reparse_error, NULL);
	if (t == NULL) {
		fprintf(stderr, "fuzz_exports: exports_print wrote a line that does not parse:\n%s",
		    copy);
		abort();
	}
	out = print_table(t, &outlen);
	if (outlen != len || memcmp(out, line, len) != 0) {
		fprintf(stderr, "fuzz_exports: a printed line prints differently once parsed:\n"
		    "--- printed\n%s--- parsed and printed again\n%s", copy, out);
		abort();
	}
	free(out);
	free(copy);
	exports_free(t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct export_table *t;
	char *text, *out;
	size_t len;

	/* exports_load refuses a file with a NUL byte before parsing it. */
	if (memchr(data, '\0', size))
		return 0;
	text = malloc(size + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';

	t = exports_parse_text("fuzz", text, on_error, NULL);
	free(text);
	if (t == NULL)
		return 0;
	exports_print(devnull, t);

	/* Every line exports_print writes is an exports line that means the same. */
	out = print_table(t, &len);
	for (const char *line = out, *nl; line < out + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(out + len - line));
		if (nl == NULL) {
			fprintf(stderr, "fuzz_exports: printed output does not end a line:\n%s", out);
			abort();
		}
		check_line(line, (size_t)(nl + 1 - line));
	}
	free(out);
	exports_free(t);
	return 0;
}
