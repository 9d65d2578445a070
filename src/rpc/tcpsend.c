/*
 * The reply path of a TCP connection: a worker's reply goes straight into
 * the socket when nobody else is writing to it, else onto the
 * connection's output queue, which the writer (or the EPOLLOUT edge)
 * drains; READ data waiting in a worker's pipe is spliced into the socket
 * behind its header, never copied, unless the socket is full (then the
 * rest is read from the pipe onto the queue).  Queued bytes count toward
 * the global reply budget (tcpbudget.c).  The connections themselves
 * (slots, reading, limits, closing) are tcpconn.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "be.h"
#include "stats.h"
#include "tcpconn_impl.h"

/*
 * One thread at a time writes to a connection's socket (sending), and it
 * does so outside the lock: a loopback sendmsg runs the peer's receive
 * path too, and replies finishing meanwhile on other threads used to wait
 * for the lock and be woken one by one.  They now leave a copy on the
 * output queue and go on; the sender writes the queue after its own
 * reply, many replies in one sendmsg.  The fast path (nobody sending,
 * nothing queued) still writes straight from the caller's buffers.
 */
#define FLUSH_IOV 64
#define COPY_MAX 16384		/* larger replies wait for the sender instead */

/* Reads exactly n bytes from a pipe that holds them; 0 or -1. */
static int
pipe_take(int pipe, uint8_t *to, size_t n)
{
	while (n > 0) {
		ssize_t r = read(pipe, to, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		to += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * Output chunks of READ data are mapped, not taken from malloc: the
 * daemon's malloc keeps what is freed (M_TRIM_THRESHOLD, one arena per
 * thread), so 200 connections that never read, closed and refilled in
 * turn by the reply budget, left the resident size some 50 MiB above the
 * budget with 64 MiB in use at most; a mapping goes back when it is freed.
 * This is the full-socket path only: a reply the socket takes is never
 * copied at all.
 */
#define OUTCHUNK_MAP_MIN (128u << 10)

static struct outchunk *
outchunk_new(size_t len)
{
	size_t size = sizeof(struct outchunk) + len;
	struct outchunk *o;

	if (size < OUTCHUNK_MAP_MIN) {
		if ((o = malloc(size)) != NULL)
			o->mapped = 0;
		return o;
	}
	o = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
	    -1, 0);
	if (o == MAP_FAILED)
		return NULL;
	o->mapped = size;
	return o;
}

static void
outchunk_free(struct outchunk *o)
{
	if (o->mapped)
		munmap(o, o->mapped);
	else
		free(o);
}

/*
 * Queues what the socket did not take of a record, skip bytes into it, at
 * the tail or the head; 0 or -1.  With data_pipe, the unsent bytes of
 * iov[1] are read from it.
 */
static int
queue_record_locked(struct conn *c, const struct iovec *iov, int niov, size_t skip, int at_head,
    int data_pipe)
{
	size_t total = 0, at = 0;
	struct outchunk *o;

	for (int i = 0; i < niov; i++)
		total += iov[i].iov_len;
	o = outchunk_new(total - skip);
	if (o == NULL)
		return -1;
	for (int i = 0; i < niov; i++) {
		size_t n = iov[i].iov_len, from = 0;

		if (skip >= n) {
			skip -= n;
			continue;
		}
		from = skip;
		skip = 0;
		if (i == 1 && data_pipe >= 0) {
			if (pipe_take(data_pipe, o->data + at, n - from) < 0) {
				outchunk_free(o);
				return -1;
			}
		} else {
			memcpy(o->data + at, (const uint8_t *)iov[i].iov_base + from, n - from);
		}
		at += n - from;
	}
	o->len = at;
	o->off = 0;
	if (STAILQ_EMPTY(&c->outq))
		c->out_moved = time(NULL);
	if (at_head)
		STAILQ_INSERT_HEAD(&c->outq, o, next);
	else
		STAILQ_INSERT_TAIL(&c->outq, o, next);
	c->out_bytes += o->len;
	reply_mem_add(o->len);
	return 0;
}

/* With c->lock held: n bytes of the queue's head went out. */
static void
queue_consume_locked(struct conn *c, size_t n)
{
	c->out_bytes -= n;
	reply_mem_sub(n);
	if (n > 0)
		c->out_moved = time(NULL);
	while (n > 0) {
		struct outchunk *o = STAILQ_FIRST(&c->outq);
		size_t left = o->len - o->off;

		if (n < left) {
			o->off += n;
			return;
		}
		n -= left;
		STAILQ_REMOVE_HEAD(&c->outq, next);
		outchunk_free(o);
	}
}

/*
 * With c->lock held by the sender: writes the queue until it is empty or
 * the socket is full, unlocking around each sendmsg (only the sender
 * removes chunks, so the ones named in v stay).  -1 if the connection broke.
 */
static int
conn_drain_locked(struct conn *c)
{
	while (!STAILQ_EMPTY(&c->outq)) {
		struct iovec v[FLUSH_IOV];
		struct msghdr mh = { .msg_iov = v };
		struct outchunk *o = STAILQ_FIRST(&c->outq);
		ssize_t n;

		for (; o && mh.msg_iovlen < FLUSH_IOV; o = STAILQ_NEXT(o, next)) {
			v[mh.msg_iovlen].iov_base = o->data + o->off;
			v[mh.msg_iovlen++].iov_len = o->len - o->off;
		}
		c->out_kick = 0;
		pthread_mutex_unlock(&c->lock);
		n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		pthread_mutex_lock(&c->lock);
		if (n < 0) {
			if (errno == EINTR || (errno == EAGAIN && c->out_kick))
				continue;	/* room came while we were writing */
			return errno == EAGAIN ? 0 : -1;	/* EAGAIN: EPOLLOUT comes when it drains */
		}
		queue_consume_locked(c, (size_t)n);
	}
	return 0;
}

/*
 * With c->lock held by the sender: after a drain, the output may be back
 * within its limit; returns held requests that may start (see held_start).
 */
static struct rpc_req *
conn_send_done_locked(struct conn *c, int broken)
{
	c->sending = 0;
	/*
	 * The socket is free for one more sender: wake one waiter, not all.
	 * With eight READs in flight a broadcast woke seven threads to find
	 * one of them sending again (some 19 futex calls per READ).  The one
	 * woken either sends, and wakes the next when done, or queues behind
	 * what is queued and wakes the next (conn_reply).  A broken or closed
	 * connection wakes them all: none of them will send.
	 */
	if (c->send_waiters) {
		if (broken || c->closed)
			pthread_cond_broadcast(&c->send_done);
		else
			pthread_cond_signal(&c->send_done);
	}
	if (broken) {
		shutdown(c->fd, SHUT_RDWR);	/* the hang-up reaches an owner, who closes */
		return NULL;
	}
	return conn_resume_locked(c);
}

int
conn_writable(struct conn *c)
{
	struct rpc_req *start = NULL;
	int broken = 0;

	pthread_mutex_lock(&c->lock);
	if (c->sending) {
		c->out_kick = 1;	/* the sender writes again */
	} else {
		c->sending = 1;
		broken = conn_drain_locked(c) < 0;
		start = conn_send_done_locked(c, broken);
	}
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	return broken ? -1 : 0;
}

/*
 * Writes a reply whose data waits in a pipe: the header with MSG_MORE,
 * the data spliced from the pipe (the file's pages, never copied), the
 * tail.  Returns the bytes written (less than all when the socket is
 * full), or -1 if the connection broke.
 */
static ssize_t
send_spliced(int fd, const struct iovec *v, int data_pipe)
{
	size_t sent = 0;

	for (int i = 0; i < 3; i++) {
		size_t left = v[i].iov_len;
		int more = i < 2 && (i == 0 || v[2].iov_len > 0);

		while (left > 0) {
			ssize_t n;

			if (i == 1)
				n = splice(data_pipe, NULL, fd, NULL, left,
				    SPLICE_F_NONBLOCK | (more ? SPLICE_F_MORE : 0));
			else
				n = send(fd, (const uint8_t *)v[i].iov_base + (v[i].iov_len - left), left,
				    MSG_NOSIGNAL | MSG_DONTWAIT | (more ? MSG_MORE : 0));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == EAGAIN)
				return (ssize_t)sent;
			if (n <= 0)
				return -1;
			left -= (size_t)n;
			sent += (size_t)n;
		}
	}
	return (ssize_t)sent;
}

int
conn_reply(struct conn *c, uint8_t *msg, const struct iovec *iov, int niov, int data_pipe)
{
	struct iovec v[REPLY_MAX_IOV];
	struct msghdr mh = { .msg_iov = v, .msg_iovlen = (size_t)niov };
	struct rpc_req *start;
	size_t len = 0, sent;
	ssize_t n;
	int broken, full = 0;

	/* The record mark goes into the headroom in front of the first piece. */
	for (int i = 0; i < niov; i++)
		len += iov[i].iov_len;
	be32_put(msg - REPLY_HEADROOM, RM_LAST_FRAG | (uint32_t)len);
	memcpy(v, iov, (size_t)niov * sizeof(*v));
	v[0].iov_base = msg - REPLY_HEADROOM;
	v[0].iov_len += REPLY_HEADROOM;
	pthread_mutex_lock(&c->lock);
	/* A large reply (READ data) waits for its turn rather than be copied. */
	while (c->sending && (len > COPY_MAX || data_pipe >= 0) && !c->closed) {
		c->send_waiters++;
		pthread_cond_wait(&c->send_done, &c->lock);
		c->send_waiters--;
	}
	if (c->closed) {
		if (c->send_waiters)
			pthread_cond_broadcast(&c->send_done);	/* pass it on: nobody sends any more */
		pthread_mutex_unlock(&c->lock);
		return data_pipe >= 0 ? -1 : 0;
	}
	if (c->sending || !STAILQ_EMPTY(&c->outq)) {
		/*
		 * The sender, or the EPOLLOUT edge, writes it after what is
		 * queued.  A waiter woken to find the socket full queues and
		 * does not send: it passes the wake-up on, or the others would
		 * wait for an EPOLLOUT that a client not reading never brings.
		 */
		if (c->send_waiters && !c->sending)
			pthread_cond_signal(&c->send_done);
		broken = queue_record_locked(c, v, niov, 0, 0, data_pipe) < 0;
		STAT_INC(ST_REPLIES_QUEUED);
		if (broken)
			shutdown(c->fd, SHUT_RDWR);
		pthread_mutex_unlock(&c->lock);
		return broken ? -1 : 0;
	}
	c->sending = 1;
	pthread_mutex_unlock(&c->lock);
	if (data_pipe >= 0) {
		n = send_spliced(c->fd, v, data_pipe);
	} else {
		do
			n = sendmsg(c->fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		while (n < 0 && errno == EINTR);
		if (n < 0 && errno == EAGAIN)
			n = 0;
	}
	broken = n < 0;
	sent = n > 0 ? (size_t)n : 0;
	pthread_mutex_lock(&c->lock);
	if (!broken && sent < len + REPLY_HEADROOM) {
		/* The rest goes first: others queued theirs behind it meanwhile. */
		broken = queue_record_locked(c, v, niov, sent, 1, data_pipe) < 0;	/* a partial record cannot be taken back */
		STAT_INC(ST_REPLIES_QUEUED);
		full = 1;
	}
	if (!broken && !STAILQ_EMPTY(&c->outq) && (!full || c->out_kick))
		broken = conn_drain_locked(c) < 0;
	start = conn_send_done_locked(c, broken);
	pthread_mutex_unlock(&c->lock);
	held_start(c, start);
	return broken && data_pipe >= 0 ? -1 : 0;
}

void
outq_free(struct conn *c)
{
	struct outchunk *o;

	while ((o = STAILQ_FIRST(&c->outq)) != NULL) {
		STAILQ_REMOVE_HEAD(&c->outq, next);
		outchunk_free(o);
	}
	reply_mem_sub(c->out_bytes);
	c->out_bytes = 0;
}
