/*
 * A worker's pipe for READ data that goes from the page cache to a TCP
 * socket by splice(2), never copied through user space (readpipe.c).
 */
#ifndef READPIPE_H
#define READPIPE_H

#include <stddef.h>

struct readpipe {
	int rd, wr;		/* -1 until first used */
	size_t cap;		/* bytes the pipe holds */
	size_t held;		/* bytes spliced in and not yet sent */
};

void readpipe_init(struct readpipe *p);
/* The write end, made to hold at least count bytes; -1 if it cannot be had. */
int readpipe_for(struct readpipe *p, size_t count);
/* What is still in the pipe cannot be sent: closes it (the next use makes a new one). */
void readpipe_discard(struct readpipe *p);

#endif
