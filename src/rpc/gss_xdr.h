/*
 * RPCSEC_GSS's few XDR structures, read in place (gss_xdr.c): the
 * credential (rpc_gss_cred_vers_1_t), an opaque, and rpc_gss_integ_data's
 * two opaques. No GSS-API here, so tests/fuzz/fuzz_gss reaches every
 * decoder without a KDC; gss.c does the cryptography on what they find.
 */
#ifndef USERNFSD_GSS_XDR_H
#define USERNFSD_GSS_XDR_H

#include <stddef.h>
#include <stdint.h>

struct gss_cred {
	uint32_t vers, gproc, seq, svc;
	const uint8_t *handle;		/* into the credential's body */
	uint32_t hlen;
};

/* The credential body p of len bytes; 0, or -1 if it is not version 1's. */
int gss_cred_decode(const uint8_t *p, size_t len, struct gss_cred *c);

/*
 * An XDR opaque of at most max bytes at *off within buf (len bytes): its
 * bytes (and *olen), *off moved past its padding; NULL, *off unchanged,
 * if it does not fit.
 */
const uint8_t *gss_opaque_at(const uint8_t *buf, size_t len, size_t *off, uint32_t max,
    uint32_t *olen);

/* rpc_gss_integ_data at off: databody_integ (at least its seq_num) and the checksum. */
struct gss_integ {
	const uint8_t *body, *mic;
	uint32_t blen, mlen;
};
int gss_integ_decode(const uint8_t *buf, size_t len, size_t off, uint32_t mic_max,
    struct gss_integ *in);

#endif
