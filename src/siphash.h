/* SipHash-2-4 (Aumasson & Bernstein): a keyed PRF for short inputs, used as the file handle MAC. */
#ifndef USERNFSD_SIPHASH_H
#define USERNFSD_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEY_LEN 16

uint64_t siphash24(const uint8_t key[SIPHASH_KEY_LEN], const void *data, size_t len);

#endif
