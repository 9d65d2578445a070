/*
 * <sys/queue.h> with the _SAFE iterators the BSDs have and glibc's copy
 * lacks (removing the current element while walking a list).
 */
#ifndef USERNFSD_QUEUE_H
#define USERNFSD_QUEUE_H

#include <sys/queue.h>

#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar) \
	for ((var) = TAILQ_FIRST(head); (var) && ((tvar) = TAILQ_NEXT(var, field), 1); \
	    (var) = (tvar))
#endif

#endif
