/* Start-up, the main loop, reload and shutdown. */
#ifndef USERNFSD_DAEMON_H
#define USERNFSD_DAEMON_H

#include <stdint.h>

#define DEFAULT_NFS_PORT 2049
#define DEFAULT_MOUNT_PORT 20048
#define DEFAULT_THREADS 16
#define DEFAULT_GRACE 90	/* seconds, as knfsd's lockd */

struct export_table;

struct daemon_opts {
	const char *exports_file;
	const char *bind_addr;
	const char *pidfile;
	const char *statedir;
	const char *control_path;	/* NULL: CTL_DEFAULT_PATH; "none": no control socket */
	const char *handle_key;		/* --handle-key FILE, or NULL: STATEDIR/handle-key */
	const char *grace_dir;		/* --grace-dir DIR: the heads' shared grace record, or NULL */
	const char *metrics_addr;	/* ADDR:PORT of the Prometheus listener, or NULL */
	uint16_t nfs_port;
	uint16_t mount_port;
	uint16_t nlm_port;	/* 0: NLM on the NFS port */
	unsigned grace_secs;
	unsigned lease_secs;		/* NFSv4's lease; 0: N4_LEASE_DEFAULT */
	int idmap;			/* --idmap: NFSv4 owners as names (idmap.c) */
	const char *keytab;		/* --keytab FILE, or NULL: KRB5_KTNAME, else /etc/krb5.keytab */
	const char *idmapd_conf;	/* --idmapd-conf FILE, or NULL: libnfsidmap's default */
	int no_nlm;
	int no_delegations;		/* --no-delegations */
	unsigned threads;
	unsigned reply_memory_mib;	/* global TCP reply budget; 0: the default */
	unsigned nfs_versions;		/* NFSVERS_* bits; 0: the default (daemon.c's versions) */
	int foreground;
	int no_rpcbind;
	int debug;
	/*
	 * usernfsd --share: the export table, built in code (exports_file is
	 * then only its name in messages, and SIGHUP re-reads nothing); a
	 * failed rpcbind registration is a note, not fatal; ready() is called
	 * once serving, told whether the programs are registered with rpcbind.
	 */
	struct export_table *table;
	int rpcbind_optional;
	void (*ready)(void *arg, int registered);
	void *ready_arg;
};

/* Runs until SIGTERM/SIGINT; returns the process exit status. */
int daemon_run(const struct daemon_opts *o);
/* --check-exports: prints the effective table or the errors; 0 or 1. */
int daemon_check_exports(const char *file);

#endif
