/*
 * rpcraw.h - the one raw ONC RPC (RFC 5531) client library of usernfsd's
 * tests: every test program that builds, sends or parses RPC messages by
 * itself takes these pieces from here (tests/rpcraw.c) instead of keeping
 * a copy of its own.
 *
 * Used by: rpcprobe, nfs2probe, nlmprobe (the command-line probes the
 * shell tests run), hostile (the hostile and overloading clients) and the
 * fuzz targets (the seed writers of tests/fuzz/fuzz_rpc.c and
 * fuzz_recmark.c, fuzz_fh.c's big-endian words). tests/bench/nfsbench
 * talks through libnfs and needs none of it. lib.sh's build_tool compiles
 * a tool with rpcraw.c when make has not built it.
 *
 * Three layers, each usable without the next:
 *
 * 1. Bytes of XDR. rr_put32/rr_get32 (big-endian words), an encoder
 *    (struct rr_enc: into a fixed buffer, or a growing one), a decoder
 *    that reads in place and remembers a failure (struct rr_dec), the
 *    call header with an AUTH_NONE or AUTH_SYS credential
 *    (rr_enc_callhdr, rr_auth_sys), and the accepted/denied reply header
 *    (rr_parse_reply). Two xdrproc_t's pass such bytes through a
 *    libtirpc CLIENT unchanged: rr_xdr_send (an rr_enc as the arguments)
 *    and rr_xdr_slurp (the whole result into a growing rr_enc).
 *
 * 2. Sockets with deadlines (seconds of CLOCK_MONOTONIC, rr_now): wait,
 *    send all, receive exactly, and read one record-marked record (RFC
 *    5531 section 11) of any number of fragments (rr_read_record).
 *
 * 3. The command-line probes. They share their target and options (the
 *    global `rr`: HOST PORT udp|tcp|udp6|tcp6, -a none|sys, -u, -g, -P,
 *    -t, -S), the socket they call from (a reserved port as root unless
 *    -P; TCP closes with RST so that thousands of connections leave no
 *    TIME_WAIT on the reserved ports), one cached libtirpc client per
 *    program, version and flavour, the rpc=NAME lines the shell tests
 *    grep, the command table with its usage text, and main's loop over
 *    commands separated by "++" (each after a line "step=N command=NAME").
 *
 * Errors: the probes' layer prints "rpc=CREATE_FAILED ..." and exits 1
 * when it cannot make a client, and exits 2 after "NAME: ..." on stderr
 * for a usage error (rr_die_usage) or an encoder overflow.
 */
#ifndef USERNFSD_TESTS_RPCRAW_H
#define USERNFSD_TESTS_RPCRAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <rpc/rpc.h>

/* xdrproc_t from any XDR routine, without a cast warning */
#define RR_XDRP(f) ((xdrproc_t)(void (*)(void))(f))
#define RR_LAST_FRAG 0x80000000u

/* ---- 1. bytes of XDR ---- */

void rr_put32(void *p, uint32_t v);
uint32_t rr_get32(const void *p);
void rr_put64(void *p, uint64_t v);
uint64_t rr_get64(const void *p);

/* An encoder. rr_enc_init gives it a fixed buffer (overflow: exit 2); a
 * zeroed struct grows with realloc (free(buf) when done). */
struct rr_enc {
	char *buf;
	u_int len, cap;
	int fixed;
};
void rr_enc_init(struct rr_enc *e, void *buf, size_t cap);
void rr_enc_bytes(struct rr_enc *e, const void *p, size_t n);	/* as they are */
void rr_enc_u32(struct rr_enc *e, uint32_t v);
void rr_enc_u64(struct rr_enc *e, uint64_t v);
void rr_enc_fixed(struct rr_enc *e, const void *p, size_t n);	/* + zero padding */
void rr_enc_opaque(struct rr_enc *e, const void *p, u_int len);	/* length, bytes, padding */
void rr_enc_string(struct rr_enc *e, const char *s);

/* An AUTH_SYS credential body (machine name, uid, gid, gids; stamp 0), as
 * an opaque_auth whose body is kept in *buf. */
struct rr_cred {
	struct opaque_auth auth;
	char body[MAX_AUTH_BYTES];
};
void rr_auth_sys(struct rr_cred *c, const char *machname, uint32_t uid, uint32_t gid,
    u_int ngids, const gid_t *gids);

/* xid, CALL, RPC version 2, program, version, procedure, the credential
 * (NULL: AUTH_NONE) and an AUTH_NONE verifier. */
void rr_enc_callhdr(struct rr_enc *e, uint32_t xid, uint32_t prog, uint32_t vers, uint32_t proc,
    const struct opaque_auth *cred);

/* A decoder reading P in place; after a short read every value is 0 and
 * ok stays 0. */
struct rr_dec {
	const uint8_t *p;
	size_t len, pos;
	int ok;
};
void rr_dec_init(struct rr_dec *d, const void *p, size_t n);
uint32_t rr_dec_u32(struct rr_dec *d);
uint64_t rr_dec_u64(struct rr_dec *d);
void rr_dec_skip(struct rr_dec *d, size_t n);			/* n bytes + padding */
/* variable-length opaque of at most max bytes: a pointer into the buffer */
const uint8_t *rr_dec_opaque(struct rr_dec *d, u_int *len, u_int max);
void rr_dec_fixed(struct rr_dec *d, void *out, size_t n);	/* n bytes + padding */

/*
 * A reply header: 0 for an accepted, successful call (its results at
 * *res, *rlen bytes), the accept_stat (1..50) of another accepted reply,
 * 100 + reject_stat of a denied one, -1 for something undecodable.
 */
int rr_parse_reply(const uint8_t *p, size_t n, uint32_t *xid, const uint8_t **res, size_t *rlen);

/* Through a libtirpc CLIENT: the bytes of an rr_enc as the arguments, and
 * the whole result (word by word) appended to a growing rr_enc. */
bool_t rr_xdr_send(XDR *xdrs, void *enc);
bool_t rr_xdr_slurp(XDR *xdrs, void *enc);

/* ---- 2. sockets with deadlines ---- */

double rr_now(void);		/* CLOCK_MONOTONIC seconds */
/* poll() for events until the deadline: the revents, 0 on timeout */
int rr_wait_fd(int fd, short events, double deadline);
/* all of p, before the deadline: 0, or -1 (error, timeout) */
int rr_send_all(int fd, const void *p, size_t n, double deadline);
/* exactly n bytes: 1, 0 on timeout, -1 on EOF or error */
int rr_recv_all(int fd, void *p, size_t n, double deadline);
/* A record of at most max bytes, whatever its fragments, into a growing
 * buffer: 1, 0 on timeout, -1 on EOF, error or a longer record. */
struct rr_rbuf {
	uint8_t *p;
	size_t len, cap;
};
int rr_read_record(int fd, struct rr_rbuf *b, size_t max, double deadline);

/* ---- 3. the command-line probes ---- */

struct rr_opts {
	const char *name;	/* the program's name, for messages */
	const char *host;	/* HOST PORT PROTO */
	unsigned port;
	const char *proto;	/* udp tcp udp6 tcp6 */
	int auth_none;		/* -a none */
	uid_t uid;		/* -u */
	gid_t gid;		/* -g */
	int unpriv;		/* -P: an unprivileged source port */
	int timeout;		/* -t: seconds per call */
	const char *source;	/* -S: the source address (NULL: any) */
	const char *machname;	/* AUTH_SYS machine name (NULL: this host's) */
	int quiet;		/* rr_call prints nothing on success or timeout */
};
extern struct rr_opts rr;	/* .timeout 5 until set */

/* At the start of main: rr.name, stdout line-buffered (the tests read it
 * through pipes), and --help as the first argument prints usage, exit 0. */
void rr_start(int argc, char **argv, const char *name, void (*usage)(FILE *));
/* "NAME: message" on stderr, with "(NAME --help for usage)" when
 * usage_hint is set; exit 2 */
void rr_fail(int usage_hint, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
#define rr_die_usage(...) rr_fail(1, __VA_ARGS__)
#define rr_die(...) rr_fail(0, __VA_ARGS__)
void *rr_xmalloc(size_t n);
/* strtoull in any base, the whole string, no sign; else "bad WHAT 'S'" */
unsigned long long rr_parse_num(const char *s, const char *what);
int rr_hexval(int c);
/* HEX into malloc'ed bytes (NUL after them); a usage error if it is not hex */
char *rr_parse_hex(const char *s, u_int *len);
/* KEY=HEX (no newline); at most max bytes then "...(N bytes)", 0: all */
void rr_print_hex(const char *key, const void *p, u_int len, u_int max);
int rr_is_udp(void);

/*
 * The options every probe takes, for getopt: -a none|sys, -u UID, -g GID,
 * -P, -t SECONDS, -S ADDRESS. Returns 1 when c was one of them.
 */
int rr_option(int c, const char *arg);

/* A socket of rr's family and type, bound as the options say; exits 1
 * (rpc=CREATE_FAILED) when it cannot. */
int rr_socket(int family, int type);
/* rr.host:rr.port for rr.proto; exits 1 when it does not resolve */
void rr_target(struct sockaddr_storage *ss, socklen_t *len, int *family, int *type);

/* The client for PROG/VERS (and AUTH_NONE when auth_none or -a none),
 * cached while consecutive calls ask for the same. */
CLIENT *rr_client(unsigned long prog, unsigned long vers, int auth_none);
CLIENT *rr_cached_client(void);	/* NULL when there is none */
void rr_drop_client(void);

const char *rr_clnt_stat_name(enum clnt_stat st);
const char *rr_auth_stat_name(int why);
/* After a call on the cached client: drops it (the next call reconnects)
 * unless the server answered. */
void rr_call_done(enum clnt_stat st);
/* Prints rpc=SUCCESS or rpc=NAME with the details (PROG_MISMATCH low=
 * high=, AUTH_ERROR why=N(NAME), ...). Returns 1 for RPC_SUCCESS. */
int rr_print_rpc(enum clnt_stat st, const struct rpc_err *err);
/* One call with rr's timeout on the cached client, then rr_call_done and
 * rr_print_rpc. */
int rr_call(unsigned long prog, unsigned long vers, unsigned long proc, xdrproc_t xargs,
    void *args, xdrproc_t xres, void *res);

struct rr_command {
	const char *name;
	int min_args, max_args;
	int (*fn)(char **av);
	const char *args, *help;
};
/* one line per command: name, arguments and help in columns */
void rr_usage_commands(FILE *f, const struct rr_command *c, size_t n, int namew, int argsw);
/* AV (NULL-terminated) by the table; -1 when its name is not there */
int rr_run_command(const struct rr_command *c, size_t n, char **av);
/*
 * The probes' main after their options: HOST PORT PROTO at argv[first],
 * then commands separated by "++", run in order; returns the largest exit
 * status of a command. Prints usage (with usage()) and returns 2 when
 * fewer than four words are left.
 */
int rr_run_steps(int argc, char **argv, int first, const struct rr_command *c, size_t n,
    void (*usage)(FILE *));

#endif
