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
 */
#ifndef USERNFSD_FH_H
#define USERNFSD_FH_H

#include <stddef.h>
#include <stdint.h>

#define FH_VERSION 1
#define FH_F_KERNEL 0x01
#define FH_HDR_LEN 20
#define FH_MAC_LEN 8
#define FH_KFH_MAX 36
#define FH3_MAXLEN 64
#define FH_KEY_LEN 16

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
/* Reads STATEDIR/handle-key, creating it (0600) on first start. 0 or -1 with errno. */
int fh_load_or_create_key(const char *statedir);
/* Returns the encoded length, or 0 if it does not fit in outlen. */
size_t fh_encode(const struct fh *fh, uint8_t *out, size_t outlen);
enum fh_status fh_decode(const uint8_t *in, size_t len, struct fh *out);
const char *fh_status_str(enum fh_status st);

#endif
