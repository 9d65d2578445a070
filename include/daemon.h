/* Start-up, the main loop, reload and shutdown. */
#ifndef USERNFSD_DAEMON_H
#define USERNFSD_DAEMON_H

#include <stdint.h>

#define DEFAULT_NFS_PORT 2049
#define DEFAULT_MOUNT_PORT 20048
#define DEFAULT_THREADS 16

struct daemon_opts {
	const char *exports_file;
	const char *bind_addr;
	const char *pidfile;
	const char *statedir;
	uint16_t nfs_port;
	uint16_t mount_port;
	unsigned threads;
	int foreground;
	int no_rpcbind;
	int debug;
};

/* Runs until SIGTERM/SIGINT; returns the process exit status. */
int daemon_run(const struct daemon_opts *o);
/* --check-exports: prints the effective table or the errors; 0 or 1. */
int daemon_check_exports(const char *file);

#endif
