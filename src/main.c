/* usernfsd: command line. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "admin/ctlsock.h"
#include "daemon.h"
#include "proto/nfs_program.h"
#include "share.h"
#include "rpc/transport.h"

static void
usage(FILE *out)
{
	fprintf(out,
	    "usage: usernfsd [options]\n"
	    "       usernfsd --share DIR [--share DIR2 ...] [--ro] [--allow ADDR/CIDR ...] [options]\n"
	    "  -e, --exports FILE     exports file (default /etc/exports)\n"
	    "  -F, --foreground       stay attached and log to stderr\n"
	    "  -n, --nfs-port N       NFS port (default %d)\n"
	    "  -m, --mount-port N     MOUNT port (default %d)\n"
	    "      --nfs-versions LIST  NFS versions served, of 2,3,4,4.0,4.1,4.2 (default all)\n"
	    "  -b, --bind ADDR        listen on ADDR only (default: all IPv4 and IPv6)\n"
	    "  -R, --no-rpcbind       do not register with rpcbind\n"
	    "  -p, --pidfile FILE     write the process id to FILE once ready\n"
	    "  -s, --state-dir DIR    state directory (default %s/lib/usernfsd)\n"
	    "  -t, --threads N        worker threads (default %d)\n"
	    "      --no-nlm           no lock manager (clients must mount with nolock)\n"
	    "      --nlm-port N       serve NLM on port N (default: on the NFS port)\n"
	    "      --grace SECONDS    after a restart, only reclaims for this long (default %d)\n"
	    "      --lease-time SECONDS  NFSv4's lease (default 90; rpc.nfsd -L)\n"
	    "      --no-delegations   hand out no NFSv4 read delegations\n"
	    "      --idmap            NFSv4 owners as name@domain through libnfsidmap\n"
	    "                         (default: numbers, as knfsd sends them for AUTH_SYS)\n"
	    "      --idmapd-conf FILE  libnfsidmap's configuration (default /etc/idmapd.conf;\n"
	    "                         implies --idmap)\n"
	    "      --keytab FILE      Kerberos keys for RPCSEC_GSS (default: KRB5_KTNAME,\n"
	    "                         else /etc/krb5.keytab; service principal nfs/HOST)\n"
	    "      --handle-key FILE  the handle MAC key, shared by every head over one file\n"
	    "                         system (16 bytes, mode 0600; default: STATE-DIR/handle-key)\n"
	    "      --grace-dir DIR    shared grace record of several heads: while any head's\n"
	    "                         grace period runs, no head grants new locks\n"
	    "      --socket PATH      control socket for usernfsctl (default %s; none: off;\n"
	    "                         --control PATH is the same)\n"
	    "      --metrics ADDR:PORT  serve Prometheus metrics over HTTP there (default: off)\n"
	    "      --reply-memory MIB  replies queued for all TCP clients together (default %d)\n"
	    "  -c, --check-exports    parse the exports file, print the result, exit 0/1\n"
	    "      --share DIR        serve DIR without an exports file, in the foreground,\n"
	    "                         every client acting as the user who runs this; prints\n"
	    "                         the mount command (repeatable)\n"
	    "      --ro               with --share: read-only\n"
	    "      --allow ADDR/CIDR  with --share: who may mount (repeatable; default: this\n"
	    "                         host only, 127.0.0.1 and ::1)\n"
	    "  -d, --debug            log every call\n"
	    "  -V, --version          print the version and exit\n"
	    "  -h, --help             print this help and exit\n",
	    DEFAULT_NFS_PORT, DEFAULT_MOUNT_PORT, LOCALSTATEDIR, DEFAULT_THREADS, DEFAULT_GRACE,
	    CTL_DEFAULT_PATH, REPLY_BUDGET_DEFAULT_MIB);
}

/* A decimal number from min to max. */
static int
parse_num(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end != '\0' || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

enum { OPT_NO_NLM = 256, OPT_NLM_PORT, OPT_GRACE, OPT_CONTROL, OPT_METRICS, OPT_SHARE, OPT_RO, OPT_ALLOW,
	OPT_HANDLE_KEY, OPT_GRACE_DIR, OPT_REPLY_MEMORY, OPT_NFS_VERSIONS, OPT_LEASE_TIME, OPT_IDMAP,
	OPT_IDMAPD_CONF, OPT_KEYTAB, OPT_NO_DELEGATIONS };

/* dirs and allow have room for argc entries: the --share and --allow values. */
static int
run(int argc, char **argv, const char **dirs, const char **allow)
{
	static const struct option longopts[] = {
		{ "exports", required_argument, NULL, 'e' },
		{ "foreground", no_argument, NULL, 'F' },
		{ "nfs-port", required_argument, NULL, 'n' },
		{ "mount-port", required_argument, NULL, 'm' },
		{ "bind", required_argument, NULL, 'b' },
		{ "no-rpcbind", no_argument, NULL, 'R' },
		{ "pidfile", required_argument, NULL, 'p' },
		{ "state-dir", required_argument, NULL, 's' },
		{ "threads", required_argument, NULL, 't' },
		{ "no-nlm", no_argument, NULL, OPT_NO_NLM },
		{ "no-delegations", no_argument, NULL, OPT_NO_DELEGATIONS },
		{ "nlm-port", required_argument, NULL, OPT_NLM_PORT },
		{ "grace", required_argument, NULL, OPT_GRACE },
		{ "socket", required_argument, NULL, OPT_CONTROL },
		{ "control", required_argument, NULL, OPT_CONTROL },	/* its first name */
		{ "handle-key", required_argument, NULL, OPT_HANDLE_KEY },
		{ "keytab", required_argument, NULL, OPT_KEYTAB },
		{ "grace-dir", required_argument, NULL, OPT_GRACE_DIR },
		{ "lease-time", required_argument, NULL, OPT_LEASE_TIME },
		{ "idmap", no_argument, NULL, OPT_IDMAP },
		{ "idmapd-conf", required_argument, NULL, OPT_IDMAPD_CONF },
		{ "metrics", required_argument, NULL, OPT_METRICS },
		{ "reply-memory", required_argument, NULL, OPT_REPLY_MEMORY },
		{ "nfs-versions", required_argument, NULL, OPT_NFS_VERSIONS },
		{ "check-exports", no_argument, NULL, 'c' },
		{ "share", required_argument, NULL, OPT_SHARE },
		{ "ro", no_argument, NULL, OPT_RO },
		{ "allow", required_argument, NULL, OPT_ALLOW },
		{ "debug", no_argument, NULL, 'd' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct daemon_opts o = {
		.exports_file = "/etc/exports",
		.statedir = LOCALSTATEDIR "/lib/usernfsd",
		.nfs_port = DEFAULT_NFS_PORT,
		.mount_port = DEFAULT_MOUNT_PORT,
		.threads = DEFAULT_THREADS,
		.grace_secs = DEFAULT_GRACE,
	};
	struct share_opts so = { .dirs = dirs, .allow = allow };
	char msg[160];
	int check = 0, exports_given = 0, c;
	unsigned long v;

	while ((c = getopt_long(argc, argv, "e:Fn:m:b:Rp:s:t:cdVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e': o.exports_file = optarg; exports_given = 1; break;
		case OPT_SHARE: dirs[so.ndirs++] = optarg; break;
		case OPT_RO: so.ro = 1; break;
		case OPT_ALLOW: allow[so.nallow++] = optarg; break;
		case 'F': o.foreground = 1; break;
		case 'n':
		case 'm':
		case OPT_NLM_PORT:
			if (parse_num(optarg, 1, 65535, &v) < 0) {
				fprintf(stderr, "usernfsd: bad port '%s'\n", optarg);
				return 2;
			}
			if (c == 'n') {
				o.nfs_port = (uint16_t)v;
				so.nfs_port_given = 1;
			} else if (c == 'm') {
				o.mount_port = (uint16_t)v;
				so.mount_port_given = 1;
			}
			else
				o.nlm_port = (uint16_t)v;
			break;
		case OPT_NO_NLM: o.no_nlm = 1; break;
		case OPT_NO_DELEGATIONS: o.no_delegations = 1; break;
		case OPT_GRACE:
			if (parse_num(optarg, 0, 3600, &v) < 0) {
				fprintf(stderr, "usernfsd: bad grace period '%s' (0 to 3600 seconds)\n",
				    optarg);
				return 2;
			}
			o.grace_secs = (unsigned)v;
			break;
		case OPT_LEASE_TIME:
			if (parse_num(optarg, 10, 3600, &v) < 0) {
				fprintf(stderr, "usernfsd: bad --lease-time '%s' (10 to 3600 seconds)\n",
				    optarg);
				return 2;
			}
			o.lease_secs = (unsigned)v;
			break;
		case OPT_IDMAP: o.idmap = 1; break;
		case OPT_IDMAPD_CONF: o.idmap = 1; o.idmapd_conf = optarg; break;
		case OPT_CONTROL: o.control_path = optarg; break;
		case OPT_HANDLE_KEY: o.handle_key = optarg; break;
		case OPT_KEYTAB: o.keytab = optarg; break;
		case OPT_GRACE_DIR: o.grace_dir = optarg; break;
		case OPT_METRICS: o.metrics_addr = optarg; break;
		case OPT_REPLY_MEMORY:
			if (parse_num(optarg, 16, 1u << 20, &v) < 0) {
				fprintf(stderr, "usernfsd: bad --reply-memory '%s' (16 to 1048576 MiB)\n",
				    optarg);
				return 2;
			}
			o.reply_memory_mib = (unsigned)v;
			break;
		case OPT_NFS_VERSIONS:
			if (nfs_versions_parse(optarg, &o.nfs_versions, msg, sizeof(msg)) < 0) {
				fprintf(stderr, "usernfsd: %s\n", msg);
				return 2;
			}
			break;
		case 'b': o.bind_addr = optarg; break;
		case 'R': o.no_rpcbind = 1; break;
		case 'p': o.pidfile = optarg; break;
		case 's': o.statedir = optarg; so.statedir_given = 1; break;
		case 't':
			if (parse_num(optarg, 1, 1024, &v) < 0) {
				fprintf(stderr, "usernfsd: bad thread count '%s'\n", optarg);
				return 2;
			}
			o.threads = (unsigned)v;
			break;
		case 'c': check = 1; break;
		case 'd': o.debug = 1; break;
		case 'V': printf("usernfsd %s\n", PACKAGE_VERSION); return 0;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (so.ndirs == 0 && (so.ro || so.nallow)) {
		fprintf(stderr, "usernfsd: --ro and --allow go with --share\n");
		return 2;
	}
	if (so.ndirs && exports_given) {
		fprintf(stderr, "usernfsd: --share serves without an exports file: not with --exports\n");
		return 2;
	}
	if (so.ndirs)
		return check ? share_check(&so) : share_run(&o, &so);
	if (check)
		return daemon_check_exports(o.exports_file);
	return daemon_run(&o);
}

int
main(int argc, char **argv)
{
	/* --share and --allow values: at most one per argument. */
	const char **dirs = calloc((size_t)argc, sizeof(*dirs));
	const char **allow = calloc((size_t)argc, sizeof(*allow));
	int rc;

	if (dirs == NULL || allow == NULL) {
		perror("usernfsd");
		return 1;
	}
	rc = run(argc, argv, dirs, allow);
	free(dirs);
	free(allow);
	return rc;
}
