/*
 * fuzz_rpc.h - what fuzz_rpc.c shares with the parts of the target kept in
 * files of their own (fuzz_rpc_nfs4.c: NFSv4's session fixture, markers
 * and seeds): the scratch tree's objects, the seed writers' message and
 * the calls that build and run one.
 */
#ifndef USERNFSD_FUZZ_RPC_H
#define USERNFSD_FUZZ_RPC_H

#include <stddef.h>
#include <stdint.h>

#include "compiler.h"
#include "../rpcraw.h"

/* Objects with handles; their paths are relative to the scratch directory. */
enum obj {
	O_ROOT, O_FILE, O_EMPTY, O_DIR, O_SUB, O_INNER, O_LINK, O_ESCAPE, O_FIFO,
	O_RO_ROOT, O_RO_FILE, NOBJ
};

/* A seed's message: the input's byte 0 (transport, port, peer), then the call. */
struct msg {
	uint8_t buf[8192];
	struct rr_enc e;	/* the call, after the byte of buf[0] */
	uint32_t prog, vers, proc;
};

void die(const char *fmt, ...) PRINTFLIKE(1, 2) __attribute__((noreturn));
/* A call header with AUTH_SYS (uid 0, gid 0) or AUTH_NONE, over TCP from 127.0.0.1:700. */
void begin(struct msg *m, uint32_t prog, uint32_t vers, uint32_t proc, int auth_sys);
size_t msg_len(struct msg *m);
/* The v3 handle marker of object i (NFSv4 handles are the same bytes). */
void fh3m(struct msg *m, enum obj i);
/* Writes m as seed NAME and runs it; prints what came back. */
void seed(struct msg *m, const char *name);

/* fuzz_rpc_nfs4.c */
/* A client with one session, made anew after every NFSv4 call. */
void n4fx_build(void);
/*
 * The NFSv4 markers at in (n bytes left): FF 'F' 'Z' 'S' + 12 bytes becomes
 * the fixture's session id, FF 'F' 'Z' 'I' + 4 bytes its clientid. The
 * input bytes used (0: no marker here); the bytes written to out in *outlen.
 */
size_t n4fx_expand(const uint8_t *in, size_t n, uint8_t *out, size_t *outlen);
void n4fx_seeds(void);

#endif
