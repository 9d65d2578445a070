/*
 * The monotonic clock, for every timeout, lease, expiry and duration:
 * time set back (or forward) by an administrator or NTP must not stretch
 * or cut any of them. One place, so that no module reads it its own way.
 */
#ifndef USERNFSD_MONOTIME_H
#define USERNFSD_MONOTIME_H

#include <stdint.h>
#include <time.h>

static inline int64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline time_t
mono_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

#endif
