/*
 * Errno-style codes of the fs layer's own, above the system range, for
 * what only NFS can name: the fs layer returns 0, an errno value or one of
 * these, and proto/errmap.c alone turns them into a protocol's status.
 */
#ifndef USERNFSD_FSERR_H
#define USERNFSD_FSERR_H

/* Not a handle we issued. */
#define EBADHANDLE 10001
/* SETATTR guard mismatch. */
#define ENOTSYNC 10002
/* MKNOD of a type that is not a special file. */
#define EBADTYPE 10003
/* The object has no handle in NFSv2's 32 bytes (its kernel handle is too long). */
#define ENOFH2 10004
/* READDIR: a cookie this directory never gave out. */
#define EBADCOOKIE 10005
/* READDIR: the reply the client allows cannot hold even one entry. */
#define ETOOSMALL 10006
/* The export does not admit the call's security flavor (its sec= list). */
#define EWRONGSEC 10007

#endif
