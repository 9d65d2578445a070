/*
 * A worker's pipe for zero-copy READ replies over TCP: the file's pages
 * are spliced into the pipe (which only takes references to them), and
 * from the pipe into the socket behind the reply's header (tcpconn.c).
 * User space never touches the data, where a read() and a send() copy it
 * twice.
 *
 * The pipe is grown to hold a whole READ (F_SETPIPE_SZ; page-aligned
 * reads of up to 1 MiB fit the default pipe-max-size).  Both ends are
 * non-blocking, so a pipe that is somehow full fails fast instead of
 * hanging the worker.  Whatever path leaves data in the pipe discards it
 * by closing the pipe: the next READ makes a new one.
 */
#include "config.h"

#include <fcntl.h>
#include <unistd.h>

#include "readpipe.h"

#define PAGE 4096u

static size_t
pages(size_t n)
{
	return (n + PAGE - 1) / PAGE * PAGE;
}

void
readpipe_init(struct readpipe *p)
{
	p->rd = p->wr = -1;
	p->cap = 0;
	p->held = 0;
}

void
readpipe_discard(struct readpipe *p)
{
	if (p->rd >= 0) {
		close(p->rd);
		close(p->wr);
	}
	readpipe_init(p);
}

int
readpipe_for(struct readpipe *p, size_t count)
{
	int fds[2], sz;

	if (p->held)
		readpipe_discard(p);	/* a reply never took it */
	if (p->rd < 0) {
		if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0)
			return -1;
		p->rd = fds[0];
		p->wr = fds[1];
		sz = fcntl(p->wr, F_GETPIPE_SZ);
		p->cap = sz > 0 ? (size_t)sz : 0;
	}
	if (p->cap < count) {
		/* One page more: a read that starts inside a page spans one more. */
		sz = fcntl(p->wr, F_SETPIPE_SZ, (int)pages(count + PAGE));
		if (sz < 0)	/* beyond pipe-max-size */
			sz = fcntl(p->wr, F_SETPIPE_SZ, (int)pages(count));
		if (sz > 0)
			p->cap = (size_t)sz;
		if (p->cap < count)
			return -1;
	}
	return p->wr;
}
