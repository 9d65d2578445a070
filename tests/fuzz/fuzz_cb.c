/*
 * libFuzzer target: what a client answers to our calls back to it
 * (src/rpc/backchannel.c's bc_decode_reply with rpcgen's CB_COMPOUND4res
 * and CB_NULL's void), the one thing a client sends the server that is
 * not a call. A client is as untrusted on its back channel as on its fore.
 *
 * Input layout:
 *   byte 0     which: even, CB_COMPOUND's reply; odd, CB_NULL's
 *   the rest   the REPLY message as it comes off the connection
 *
 * Checked on every input: no crash, no leak (the results are freed
 * whatever happened), and a reply that decodes re-encodes: its results
 * are within their bounds.
 *
 * FUZZ_WRITE_SEEDS=DIR: write the seed corpus into DIR and exit (seeds.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpc/backchannel.h"
#include "rpc/nfs4_prot.h"
#include "rpc/rpcproc.h"

#include "seeds.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
die(const char *what)
{
	fprintf(stderr, "fuzz_cb: %s\n", what);
	abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t again[70000];
	CB_COMPOUND4res res;
	char err[96];
	XDR x;

	if (size < 1)
		return 0;
	memset(&res, 0, sizeof(res));
	if (data[0] & 1) {
		bc_decode_reply(data + 1, size - 1, XDRPROC(xdr_void), NULL, err, sizeof(err));
		return 0;
	}
	if (bc_decode_reply(data + 1, size - 1, XDRPROC(xdr_CB_COMPOUND4res), &res, err,
	    sizeof(err)) == 0) {
		if (res.resarray.resarray_len > NFS4_LIST_MAX)
			die("more results than the bound");
		xdrmem_create(&x, (char *)again, sizeof(again), XDR_ENCODE);
		if (!xdr_CB_COMPOUND4res(&x, &res))
			die("a decoded reply does not encode");
		xdr_destroy(&x);
		xdr_free(XDRPROC(xdr_CB_COMPOUND4res), (char *)&res);
	}
	return 0;
}

/* ---- seeds ---- */

/* which, then an accepted reply of xid with results enc(arg) (NULL: a refusal). */
static void
write_reply(const char *dir, const char *name, uint8_t which, xdrproc_t enc, void *arg,
    enum accept_stat astat)
{
	uint8_t buf[4096];
	struct rpc_msg m;
	XDR x;

	memset(&m, 0, sizeof(m));
	m.rm_xid = 0x1234;
	m.rm_direction = REPLY;
	if (enc == NULL) {
		m.rm_reply.rp_stat = MSG_DENIED;
		m.rjcted_rply.rj_stat = AUTH_ERROR;
		m.rjcted_rply.rj_why = AUTH_BADCRED;
	} else {
		m.rm_reply.rp_stat = MSG_ACCEPTED;
		m.acpted_rply.ar_verf = _null_auth;
		m.acpted_rply.ar_stat = astat;
		m.acpted_rply.ar_results.where = arg;
		m.acpted_rply.ar_results.proc = enc;
	}
	xdrmem_create(&x, (char *)buf, sizeof(buf), XDR_ENCODE);
	if (!xdr_replymsg(&x, &m)) {
		fprintf(stderr, "fuzz_cb: seed %s does not encode\n", name);
		exit(1);
	}
	fuzz_save_seed(dir, name, &which, 1, buf, xdr_getpos(&x));
	xdr_destroy(&x);
}

static void
write_seeds(const char *dir)
{
	nfs_cb_resop4 ops[2];
	CB_COMPOUND4res res;

	write_reply(dir, "cb-null-ok", 1, XDRPROC(xdr_void), NULL, SUCCESS);
	write_reply(dir, "cb-null-prog-unavail", 1, XDRPROC(xdr_void), NULL, PROG_UNAVAIL);
	write_reply(dir, "cb-refused-auth", 0, NULL, NULL, SUCCESS);
	memset(ops, 0, sizeof(ops));
	memset(&res, 0, sizeof(res));
	ops[0].resop = OP_CB_SEQUENCE;
	memset(ops[0].nfs_cb_resop4_u.opcbsequence.CB_SEQUENCE4res_u.csr_resok4.csr_sessionid,
	    0x5a, NFS4_SESSIONID_SIZE);
	ops[0].nfs_cb_resop4_u.opcbsequence.CB_SEQUENCE4res_u.csr_resok4.csr_sequenceid = 1;
	ops[1].resop = OP_CB_RECALL;
	res.tag.utf8string_val = (char *)"";
	res.resarray.resarray_val = ops;
	res.resarray.resarray_len = 2;
	write_reply(dir, "cb-compound-recall-ok", 0, XDRPROC(xdr_CB_COMPOUND4res), &res, SUCCESS);
	ops[0].nfs_cb_resop4_u.opcbsequence.csr_status = NFS4ERR_BADSESSION;
	res.status = NFS4ERR_BADSESSION;
	res.resarray.resarray_len = 1;
	write_reply(dir, "cb-compound-badsession", 0, XDRPROC(xdr_CB_COMPOUND4res), &res, SUCCESS);
	ops[0].resop = OP_CB_ILLEGAL;
	ops[0].nfs_cb_resop4_u.opcbillegal.status = NFS4ERR_OP_ILLEGAL;
	res.status = NFS4ERR_OP_ILLEGAL;
	write_reply(dir, "cb-compound-illegal", 0, XDRPROC(xdr_CB_COMPOUND4res), &res, SUCCESS);
}

FUZZ_SEEDS_INITIALIZE(write_seeds)
