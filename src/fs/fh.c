/*
 * File handle encoding, decoding and MAC; pure functions apart from the key
 * file. Building a handle for an object on disk is fh_build.c's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "be.h"
#include "fh.h"
#include "siphash.h"

static uint8_t fh_key[FH_KEY_LEN];

void
fh_set_key(const uint8_t key[FH_KEY_LEN])
{
	memcpy(fh_key, key, FH_KEY_LEN);
}

uint64_t
fh_key_tag(const char *label)
{
	return siphash24(fh_key, label, strlen(label));
}

static int
read_exact(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EINVAL;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}

static int
create_key(const char *path, uint8_t *key)
{
	char tmp[4096];
	int fd;

	if (getrandom(key, FH_KEY_LEN, 0) != FH_KEY_LEN)
		return -1;
	if (snprintf(tmp, sizeof(tmp), "%s.new", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* Durable before it is used: losing the key would stale every handle. */
	if (write(fd, key, FH_KEY_LEN) != FH_KEY_LEN || fsync(fd) < 0) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	return rename(tmp, path);
}

int
fh_load_or_create_key(const char *statedir)
{
	char path[4096];
	uint8_t key[FH_KEY_LEN];
	struct stat st;
	int fd;

	if (snprintf(path, sizeof(path), "%s/handle-key", statedir) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		if (errno != ENOENT || create_key(path, key) < 0)
			return -1;
	} else {
		if (fstat(fd, &st) < 0 || read_exact(fd, key, FH_KEY_LEN) < 0) {
			close(fd);
			return -1;
		}
		close(fd);
		if (st.st_mode & 077) {
			errno = EPERM;	/* a readable key lets anyone forge handles */
			return -1;
		}
	}
	fh_set_key(key);
	return 0;
}

size_t
fh_encode(const struct fh *fh, uint8_t *out, size_t outlen)
{
	size_t len = FH_HDR_LEN + fh->kfh_len + FH_MAC_LEN;

	if (fh->kfh_len > FH_KFH_MAX || len > outlen)
		return 0;
	out[0] = FH_VERSION;
	out[1] = fh->kfh_len ? FH_F_KERNEL : 0;
	out[2] = fh->kfh_len ? fh->kfh_type : 0;
	out[3] = fh->kfh_len;
	be32_put(out + 4, fh->export_id);
	be64_put(out + 8, fh->ino);
	be32_put(out + 16, fh->gen);
	memcpy(out + FH_HDR_LEN, fh->kfh, fh->kfh_len);
	be64_put(out + FH_HDR_LEN + fh->kfh_len,
	    siphash24(fh_key, out, FH_HDR_LEN + fh->kfh_len));
	return len;
}

/* The version 1 (NFSv3) layout; see fh.h. */
static enum fh_status
decode_v1(const uint8_t *in, size_t len, struct fh *out)
{
	uint64_t mac, want;
	size_t kfh_len;

	if (len < FH_HDR_LEN + FH_MAC_LEN || len > FH3_MAXLEN)
		return FH_BADLEN;
	if (in[0] != FH_VERSION)
		return FH_BADVERSION;
	kfh_len = in[3];
	if (kfh_len > FH_KFH_MAX || len != FH_HDR_LEN + kfh_len + FH_MAC_LEN)
		return FH_BADLEN;
	if (((in[1] & FH_F_KERNEL) != 0) != (kfh_len != 0) || (in[1] & ~FH_F_KERNEL) ||
	    (kfh_len == 0 && in[2] != 0))
		return FH_BADLEN;
	mac = be64_get(in + FH_HDR_LEN + kfh_len);
	want = siphash24(fh_key, in, FH_HDR_LEN + kfh_len);
	/* One 64-bit compare: no byte-by-byte early exit to time. */
	if (mac != want)
		return FH_BADMAC;
	memset(out, 0, sizeof(*out));
	out->kfh_type = in[2];
	out->kfh_len = (uint8_t)kfh_len;
	out->export_id = be32_get(in + 4);
	out->ino = be64_get(in + 8);
	out->gen = be32_get(in + 16);
	memcpy(out->kfh, in + FH_HDR_LEN, kfh_len);
	return FH_OK;
}

size_t
fh_encode_v2(const struct fh *fh, uint8_t out[FH2_LEN])
{
	uint8_t *payload = out + FH2_HDR_LEN;

	if (fh->kfh_len > FH2_KFH_MAX)
		return 0;
	memset(out, 0, FH2_LEN);
	out[0] = FH_VERSION_V2;
	be32_put(out + 4, fh->export_id);
	if (fh->kfh_len) {
		/* The kernel handle alone names the object; ino and gen stay out. */
		out[1] = FH_F_KERNEL;
		out[2] = fh->kfh_type;
		out[3] = fh->kfh_len;
		memcpy(payload, fh->kfh, fh->kfh_len);
	} else {
		be64_put(payload, fh->ino);
		be32_put(payload + 8, fh->gen);
	}
	be64_put(out + FH2_HDR_LEN + FH2_PAYLOAD_LEN,
	    siphash24(fh_key, out, FH2_HDR_LEN + FH2_PAYLOAD_LEN));
	return FH2_LEN;
}

/* Are the n bytes at p all zero? */
static int
all_zero(const uint8_t *p, size_t n)
{
	uint8_t acc = 0;

	while (n--)
		acc |= *p++;
	return acc == 0;
}

/* The version 2 (NFSv2, 32-byte) layout; see fh.h. */
static enum fh_status
decode_v2(const uint8_t *in, struct fh *out)
{
	const uint8_t *payload = in + FH2_HDR_LEN;
	size_t kfh_len = in[3];
	uint64_t mac, want;

	if (in[1] & ~FH_F_KERNEL)
		return FH_BADLEN;
	if (in[1] & FH_F_KERNEL) {
		if (kfh_len == 0 || kfh_len > FH2_KFH_MAX ||
		    !all_zero(payload + kfh_len, FH2_PAYLOAD_LEN - kfh_len))
			return FH_BADLEN;
	} else if (in[2] != 0 || kfh_len != 0 || !all_zero(payload + 12, 4)) {
		return FH_BADLEN;
	}
	mac = be64_get(in + FH2_HDR_LEN + FH2_PAYLOAD_LEN);
	want = siphash24(fh_key, in, FH2_HDR_LEN + FH2_PAYLOAD_LEN);
	if (mac != want)
		return FH_BADMAC;
	memset(out, 0, sizeof(*out));
	out->export_id = be32_get(in + 4);
	if (kfh_len) {
		out->kfh_type = in[2];
		out->kfh_len = (uint8_t)kfh_len;
		memcpy(out->kfh, payload, kfh_len);
	} else {
		out->ino = be64_get(payload);
		out->gen = be32_get(payload + 8);
	}
	return FH_OK;
}

enum fh_status
fh_decode(const uint8_t *in, size_t len, struct fh *out)
{
	/* Byte 0 tells the layouts apart; a v2 handle is exactly 32 bytes. */
	if (len == FH2_LEN && in[0] == FH_VERSION_V2)
		return decode_v2(in, out);
	return decode_v1(in, len, out);
}

size_t
fh_encode_pseudo(uint64_t id, uint8_t out[FH_PSEUDO_LEN])
{
	memset(out, 0, FH_PSEUDO_LEN);
	out[0] = FH_VERSION_PSEUDO;
	be64_put(out + 8, id);
	be64_put(out + 16, siphash24(fh_key, out, 16));
	return FH_PSEUDO_LEN;
}

enum fh_status
fh_decode_pseudo(const uint8_t *in, size_t len, uint64_t *id)
{
	if (len != FH_PSEUDO_LEN)
		return FH_BADLEN;
	if (in[0] != FH_VERSION_PSEUDO)
		return FH_BADVERSION;
	if (be64_get(in + 16) != siphash24(fh_key, in, 16))
		return FH_BADMAC;
	*id = be64_get(in + 8);
	return FH_OK;
}
