/* 32-bit NFSv2 directory cookies for 64-bit positions: see cookie2.h. */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cookie2.h"

struct slot {
	uint32_t cookie;	/* COOKIE2_MAPPED | seq; 0 = empty */
	uint32_t export_id;
	uint64_t dir;
	uint64_t pos;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot *slots;	/* allocated on first use: most servers never need it */
static uint32_t next_seq;
static int seeded;

static void
seed_locked(void)
{
	uint32_t r;

	if (seeded)
		return;
	/* A cookie handed out before a restart should not name a position now. */
	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r))
		r = (uint32_t)time(NULL) ^ (uint32_t)getpid() << 16;
	next_seq = r;
	seeded = 1;
}

int
cookie2_from_pos(uint32_t export_id, uint64_t dir, uint64_t pos, uint32_t *cookie)
{
	struct slot *s;

	if (pos < COOKIE2_MAPPED) {
		*cookie = (uint32_t)pos;
		return 0;
	}
	pthread_mutex_lock(&lock);
	if (slots == NULL)
		slots = calloc(COOKIE2_SLOTS, sizeof(*slots));
	if (slots == NULL) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	seed_locked();
	*cookie = COOKIE2_MAPPED | (next_seq++ & ~COOKIE2_MAPPED);
	s = &slots[*cookie & (COOKIE2_SLOTS - 1)];
	s->cookie = *cookie;
	s->export_id = export_id;
	s->dir = dir;
	s->pos = pos;
	pthread_mutex_unlock(&lock);
	return 0;
}

int
cookie2_to_pos(uint32_t export_id, uint64_t dir, uint32_t cookie, uint64_t *pos)
{
	const struct slot *s;
	int found = 0;

	if (!(cookie & COOKIE2_MAPPED)) {
		*pos = cookie;
		return 0;
	}
	pthread_mutex_lock(&lock);
	if (slots) {
		s = &slots[cookie & (COOKIE2_SLOTS - 1)];
		/* The directory must match too: cookies are not transferable. */
		if (s->cookie == cookie && s->export_id == export_id && s->dir == dir) {
			*pos = s->pos;
			found = 1;
		}
	}
	pthread_mutex_unlock(&lock);
	return found ? 0 : -1;
}

void
cookie2_reset(uint32_t seq)
{
	pthread_mutex_lock(&lock);
	if (slots)
		memset(slots, 0, COOKIE2_SLOTS * sizeof(*slots));
	next_seq = seq;
	seeded = 1;
	pthread_mutex_unlock(&lock);
}
