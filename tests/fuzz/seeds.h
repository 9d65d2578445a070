/*
 * seeds.h - what the fuzz targets' seed writers share: with
 * FUZZ_WRITE_SEEDS=DIR in the environment a target writes its seed corpus
 * into DIR instead of fuzzing (tests/fuzz/README). Their messages are
 * encoded with the tests' raw RPC client library, tests/rpcraw.h.
 */
#ifndef USERNFSD_FUZZ_SEEDS_H
#define USERNFSD_FUZZ_SEEDS_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Writes DIR/NAME: the PRELEN bytes of PRE (none when 0), then those of P;
 * exits 1 with a message when it cannot. */
static inline void
fuzz_save_seed(const char *dir, const char *name, const void *pre, size_t prelen, const void *p,
    size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (f == NULL || (prelen && fwrite(pre, 1, prelen, f) != prelen) || fwrite(p, 1, n, f) != n ||
	    fclose(f) != 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* From LLVMFuzzerInitialize: with FUZZ_WRITE_SEEDS=DIR, write_seeds(DIR)
 * and exit 0. */
static inline void
fuzz_seeds_if_asked(void (*write_seeds)(const char *dir))
{
	const char *dir = getenv("FUZZ_WRITE_SEEDS");

	if (dir) {
		write_seeds(dir);
		exit(0);
	}
}

/* The LLVMFuzzerInitialize of a target that needs nothing else at start. */
#define FUZZ_SEEDS_INITIALIZE(write_seeds)				\
	int								\
	LLVMFuzzerInitialize(int *argc, char ***argv)			\
	{								\
		(void)argc;						\
		(void)argv;						\
		fuzz_seeds_if_asked(write_seeds);			\
		return 0;						\
	}

#endif
