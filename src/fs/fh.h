/*
 * File handles: the wire format and its integrity check.
 *
 * Layout of an NFSv3 handle (all integers big-endian, version 1):
 *   0  u8   version (FH_VERSION)
 *   1  u8   flags   (FH_F_KERNEL: a kernel file handle follows)
 *   2  u8   kernel handle type (as returned by name_to_handle_at)
 *   3  u8   kernel handle length, 0..FH_KFH_MAX
 *   4  u32  export id (stable: derived from the export path or fsid=)
 *   8  u64  inode number
 *  16  u32  inode generation (0 when the file system does not say)
 *  20  ...  kernel handle bytes
 *  end u64  MAC: SipHash-2-4 under the server secret of all bytes before it
 * The MAC makes handles unforgeable, so a handle can only name an object
 * the server itself handed out inside that export.
 *
 * Layout of an NFSv2 handle (exactly FH2_LEN = 32 bytes, version 2):
 *   0  u8   version (FH_VERSION_V2)
 *   1  u8   flags   (FH_F_KERNEL: the payload is a kernel file handle)
 *   2  u8   kernel handle type (0 without one)
 *   3  u8   kernel handle length, 0..FH2_KFH_MAX
 *   4  u32  export id
 *   8  16   payload: the kernel handle, zero-padded; without one the
 *           inode number (u64), generation (u32) and four zero bytes
 *  24  u64  MAC: SipHash-2-4 under the same secret over bytes 0..23
 * A decoded v2 handle with a kernel handle has ino = gen = 0: the inode
 * cache matches it by kernel handle, so it finds the same object as the
 * v3 handle does. An object whose kernel handle is longer than 16 bytes
 * has no v2 handle at all (fh_encode_v2 says so).
 *
 * Layout of an NFSv4 pseudo file system handle (exactly FH_PSEUDO_LEN =
 * 24 bytes, version 3): a directory on the way to the exports, not a file
 * (proto/nfs4_pseudo.c); fh_decode refuses it, so no v2/v3 call names it.
 *   0  u8   version (FH_VERSION_PSEUDO)
 *   1  7    zero
 *   8  u64  the node's id (a hash of its path)
 *  16  u64  MAC over bytes 0..15
 */
#ifndef USERNFSD_FH_H
#define USERNFSD_FH_H

#include <stddef.h>
#include <stdint.h>

#define FH_VERSION 1
#define FH_VERSION_V2 2
#define FH_VERSION_PSEUDO 3
#define FH_PSEUDO_LEN 24
#define FH_F_KERNEL 0x01
#define FH_HDR_LEN 20
#define FH_MAC_LEN 8
#define FH_KFH_MAX 36
#define FH3_MAXLEN 64
#define FH_KEY_LEN 16
#define FH2_LEN 32
#define FH2_HDR_LEN 8
#define FH2_PAYLOAD_LEN 16
#define FH2_KFH_MAX FH2_PAYLOAD_LEN

struct fh {
	uint32_t export_id;
	uint64_t ino;
	uint32_t gen;
	uint8_t kfh_type;
	uint8_t kfh_len;	/* 0: no kernel handle */
	uint8_t kfh[FH_KFH_MAX];
};

enum fh_status {
	FH_OK = 0,
	FH_BADLEN,		/* too short, too long or lengths disagree */
	FH_BADVERSION,
	FH_BADMAC,
};

void fh_set_key(const uint8_t key[FH_KEY_LEN]);
/*
 * A value of the key, for label: the same on every head that shares the
 * key (--handle-key), which are the servers whose handles mean the same
 * (NFSv4's server scope, RFC 8881 2.10.4). A PRF's output for an input no
 * handle's MAC is of: it tells nothing of the key.
 */
uint64_t fh_key_tag(const char *label);
/* Reads STATEDIR/handle-key, creating it (0600) on first start. 0 or -1 with errno. */
int fh_load_or_create_key(const char *statedir);
/* Returns the encoded length, or 0 if it does not fit in outlen. */
size_t fh_encode(const struct fh *fh, uint8_t *out, size_t outlen);
/*
 * The 32-byte NFSv2 form of fh: returns FH2_LEN, or 0 when the object's
 * kernel handle is longer than FH2_KFH_MAX (it cannot be named in v2).
 */
size_t fh_encode_v2(const struct fh *fh, uint8_t out[FH2_LEN]);
/*
 * Either format: FH2_LEN bytes starting with FH_VERSION_V2 are a v2
 * handle, anything else must be a v3 (version 1) handle.
 */
enum fh_status fh_decode(const uint8_t *in, size_t len, struct fh *out);
/* A pseudo file system node's handle, and its id back (FH_OK only for ours). */
size_t fh_encode_pseudo(uint64_t id, uint8_t out[FH_PSEUDO_LEN]);
enum fh_status fh_decode_pseudo(const uint8_t *in, size_t len, uint64_t *id);

#endif
