/* A minimal check harness for unit tests: prints "N passed, N failed". */
#ifndef USERNFSD_UNIT_H
#define USERNFSD_UNIT_H

#include <stdio.h>

static int unit_pass, unit_fail;

#define CHECK(cond) do {                                                  \
	if (cond) {                                                       \
		unit_pass++;                                              \
	} else {                                                          \
		unit_fail++;                                              \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	}                                                                 \
} while (0)

static inline int
unit_done(const char *test)
{
	printf("%s: %d passed, %d failed\n", test, unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}

#endif
