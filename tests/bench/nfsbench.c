/*
 * nfsbench - an NFSv3 benchmark client on libnfs's asynchronous API.
 *
 *   nfsbench [OPTIONS] mix|mix1|getattr|seq|meta|smallcopy|smallfile|walk|hol|lock|all
 *   nfsbench [--tree D,F] [-T THREADS] -D DIR mktree
 *   nfsbench [-t SECONDS] -D DIR fcntl
 *
 * Talks straight to the NFS and MOUNT ports given (no portmapper), keeps
 * many calls in flight on several TCP connections, checks every reply
 * (a run with any error prints the error and no throughput, and exits 1),
 * and prints human tables on stdout plus one key=value line per result
 * (to --results FILE, or stdout after the tables).  It works in a
 * directory nfsbench-WORKLOAD.PID that it creates under the export (or
 * under --dir) and removes at the end unless --keep.  Only walk creates
 * nothing: it walks the tree at --dir that is already there, which
 * mktree (no NFS; run on the server's machine) makes in a local directory.
 */
#include "nfsbench.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct opts O = {
	.host = "127.0.0.1",
	.nfs_port = 2049,
	.mount_port = 20048,
	.threads = 1,
	.depth = 16,
	.max_inflight = 128,
	.duration = 3,
	.warmup = 1,
	.loads = "1000,2000,5000,10000,15000,20000,25000,30000,40000",
	.ws_dirs = 10, .ws_files = 100, .ws_links = 10,
	.io_size = 8192,
	.seq_mib = 256,
	.passes = 1,
	.xfer = MiB,
	.meta_files = 10000,
	.dircount = 8192, .maxcount = 65536,
	.walk_expect = -1,
	.tree_dirs = 1000, .tree_files = 1000,
	.interval_ms = 2,
	.small_files = 1000,
	.small_kib = 64,
	.stall_s = 60,
	.seed = 1,
};

static void usage(FILE *f)
{
	fputs(
"usage: nfsbench [OPTIONS] WORKLOAD\n"
"  WORKLOAD: mix, mix1, getattr, seq, meta, smallcopy, smallfile, walk, hol, lock,\n"
"            or all (mix, seq, meta, smallcopy, hol)\n"
"  mix1: the mix's closed loop only, 1 call in flight per connection (keys mix1.*)\n"
"  getattr: GETATTR of one file, one call at a time on one connection\n"
"  smallfile: smallcopy one file at a time (-c 1 -q 1; keys smallfile.*)\n"
"   or: nfsbench [--tree D,F] [-T THREADS] -D DIR mktree\n"
"  (mktree, no NFS: make the walk's tree in the local directory DIR)\n"
"   or: nfsbench [-t SECONDS] -D DIR fcntl\n"
"  (fcntl, no NFS: F_SETLK/F_UNLCK pairs on a file in DIR, a local path or a mount)\n"
"\n"
"  -e, --export PATH       export to MNT (required)\n"
"  -H, --host HOST         server address (127.0.0.1)\n"
"  -n, --nfs-port N        NFS port, used directly (2049)\n"
"  -m, --mount-port N      MOUNT port, used directly (20048)\n"
"      --nlm-port N        lock: NLM port, used directly (the NFS port)\n"
"  -D, --dir PATH          work below PATH inside the export (its root);\n"
"                          walk: the tree to walk\n"
"  -c, --conns N           TCP connections (mix/mix1/meta/smallcopy/walk 4, seq and\n"
"                          smallfile 1; hol always 2: the stream and the GETATTR\n"
"                          probe; getattr always 1)\n"
"  -T, --threads N         mix: client threads sharing the connections (1);\n"
"                          mktree: directories made at a time (one per CPU)\n"
"  -q, --depth N           calls (smallcopy: files) in flight per connection\n"
"                          (16; seq 8, smallcopy 4, mix1 and smallfile 1;\n"
"                          hol: WRITEs in flight, 16; getattr always 1)\n"
"      --max-inflight N    mix open loop: at most N in flight per connection; later\n"
"                          calls wait, and the wait counts in their latency (128)\n"
"  -t, --duration S        mix, mix1, getattr, lock, fcntl: seconds per measured step (3)\n"
"      --warmup S          mix, mix1, getattr, lock: seconds of load before measuring (1)\n"
"  -l, --loads LIST        mix: offered loads in ops/s, comma-separated\n"
"      --no-peak           mix: skip the closed-loop peak\n"
"      --no-ladder         mix: skip the open-loop ladder\n"
"      --ws D,F,L          mix: D directories of F files and L symlinks each (10,100,10)\n"
"      --io-size BYTES     mix: READ/WRITE size (8192)\n"
"  -s, --size MIB          seq, hol: file size (seq 256, hol 1024)\n"
"  -x, --xfer BYTES        seq/smallcopy/hol: transfer size, capped by FSINFO (1048576)\n"
"      --passes N          seq: read the warm file N times, each pass reported (1)\n"
"      --no-check          seq: do not check the data read against the pattern\n"
"      --drop-cache CMD    seq: shell command that empties the server's page cache\n"
"                          before the cold read, e.g. 'sync; echo 3 > /proc/sys/vm/drop_caches'\n"
"                          (without it the cold read is skipped)\n"
"  -N, --files N           meta: files in the directory (10000)\n"
"      --dircount N        READDIRPLUS dircount (8192)\n"
"      --maxcount N        READDIRPLUS maxcount (65536)\n"
"      --expect N          walk: fail unless exactly N entries are found below --dir\n"
"      --interval MS       hol: one GETATTR every MS milliseconds, open loop (2)\n"
"      --tree D,F          mktree: D directories of F empty files each (1000,1000)\n"
"  -K, --count K           smallcopy, smallfile: files (1000)\n"
"  -S, --kib S             smallcopy, smallfile: file size in KiB (64)\n"
"      --server-pid PID    the server runs on this machine as PID: report its CPU time\n"
"                          per call (mix peak and ladder, mix1, getattr)\n"
"  -o, --results FILE      append key=value results to FILE instead of stdout\n"
"      --tag TAG           prefix every key with TAG.\n"
"      --hook CMD          run 'CMD start' and 'CMD stop' around the measured part\n"
"                          (not the setup), e.g. to switch a profiler on and off\n"
"      --keep              leave the files created\n"
"      --stall S           fail when no reply arrives for S seconds (60)\n"
"      --seed N            random seed (1)\n"
"  -h, --help\n", f);
}

enum { OPT_MAXIN = 256, OPT_WARM, OPT_NOPEAK, OPT_NOLADDER, OPT_WS, OPT_IOSIZE, OPT_DROP,
       OPT_DIRCOUNT, OPT_MAXCOUNT, OPT_TAG, OPT_HOOK, OPT_KEEP, OPT_STALL, OPT_SEED, OPT_EXPECT,
       OPT_PASSES, OPT_NOCHECK,
       OPT_INTERVAL, OPT_TREE, OPT_NLMPORT, OPT_SERVERPID };

static const struct option longopts[] = {
	{ "export", 1, NULL, 'e' }, { "host", 1, NULL, 'H' }, { "nfs-port", 1, NULL, 'n' },
	{ "mount-port", 1, NULL, 'm' }, { "dir", 1, NULL, 'D' }, { "conns", 1, NULL, 'c' },
	{ "threads", 1, NULL, 'T' }, { "depth", 1, NULL, 'q' }, { "max-inflight", 1, NULL, OPT_MAXIN },
	{ "duration", 1, NULL, 't' }, { "warmup", 1, NULL, OPT_WARM }, { "loads", 1, NULL, 'l' },
	{ "no-peak", 0, NULL, OPT_NOPEAK }, { "no-ladder", 0, NULL, OPT_NOLADDER },
	{ "ws", 1, NULL, OPT_WS }, { "io-size", 1, NULL, OPT_IOSIZE }, { "size", 1, NULL, 's' },
	{ "xfer", 1, NULL, 'x' }, { "drop-cache", 1, NULL, OPT_DROP }, { "files", 1, NULL, 'N' },
	{ "dircount", 1, NULL, OPT_DIRCOUNT }, { "maxcount", 1, NULL, OPT_MAXCOUNT },
	{ "count", 1, NULL, 'K' }, { "kib", 1, NULL, 'S' }, { "results", 1, NULL, 'o' },
	{ "tag", 1, NULL, OPT_TAG }, { "hook", 1, NULL, OPT_HOOK }, { "keep", 0, NULL, OPT_KEEP }, { "stall", 1, NULL, OPT_STALL },
	{ "seed", 1, NULL, OPT_SEED }, { "expect", 1, NULL, OPT_EXPECT },
	{ "passes", 1, NULL, OPT_PASSES }, { "no-check", 0, NULL, OPT_NOCHECK },
	{ "interval", 1, NULL, OPT_INTERVAL }, { "tree", 1, NULL, OPT_TREE },
	{ "nlm-port", 1, NULL, OPT_NLMPORT }, { "server-pid", 1, NULL, OPT_SERVERPID },
	{ "help", 0, NULL, 'h' }, { NULL, 0, NULL, 0 },
};

static long num(const char *s, const char *what, long min)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*end || v < min) {
		fprintf(stderr, "nfsbench: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static double fnum(const char *s, const char *what)
{
	char *end;
	double v = strtod(s, &end);

	if (*end || v < 0) {
		fprintf(stderr, "nfsbench: bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

static int explicit_conns, explicit_depth, explicit_size, explicit_threads;

static void parse_opt(int c, const char *a)
{
	switch (c) {
	case 'e': O.export = a; break;
	case 'H': O.host = a; break;
	case 'n': O.nfs_port = (int)num(a, "port", 1); break;
	case 'm': O.mount_port = (int)num(a, "port", 1); break;
	case OPT_NLMPORT: O.nlm_port = (int)num(a, "port", 1); break;
	case 'D': O.dir = a; break;
	case 'c': O.conns = (int)num(a, "connection count", 1); explicit_conns = 1; break;
	case 'T': O.threads = (int)num(a, "thread count", 1); explicit_threads = 1; break;
	case 'q': O.depth = (int)num(a, "depth", 1); explicit_depth = 1; break;
	case OPT_MAXIN: O.max_inflight = (int)num(a, "max-inflight", 1); break;
	case 't': O.duration = fnum(a, "duration"); break;
	case OPT_WARM: O.warmup = fnum(a, "warmup"); break;
	case 'l': O.loads = a; break;
	case OPT_NOPEAK: O.no_peak = 1; break;
	case OPT_NOLADDER: O.no_ladder = 1; break;
	case OPT_WS:
		if (sscanf(a, "%d,%d,%d", &O.ws_dirs, &O.ws_files, &O.ws_links) != 3 ||
		    O.ws_dirs < 1 || O.ws_files < 1 || O.ws_links < 1) {
			fprintf(stderr, "nfsbench: --ws wants D,F,L (all >= 1)\n");
			exit(2);
		}
		break;
	case OPT_IOSIZE: O.io_size = (unsigned)num(a, "io size", 8) & ~7u; break;
	case 's': O.seq_mib = (unsigned)num(a, "size", 1); explicit_size = 1; break;
	case 'x': O.xfer = (unsigned)num(a, "transfer size", 8) & ~7u; break;
	case OPT_DROP: O.drop_cmd = a; break;
	case 'N': O.meta_files = (int)num(a, "file count", 1); break;
	case OPT_DIRCOUNT: O.dircount = (unsigned)num(a, "dircount", 512); break;
	case OPT_MAXCOUNT: O.maxcount = (unsigned)num(a, "maxcount", 1024); break;
	case 'K': O.small_files = (int)num(a, "file count", 1); break;
	case 'S': O.small_kib = (unsigned)num(a, "size", 1); break;
	case 'o': O.results = a; break;
	case OPT_TAG: O.tag = a; break;
	case OPT_HOOK: O.hook = a; break;
	case OPT_SERVERPID: O.server_pid = (int)num(a, "pid", 1); break;
	case OPT_KEEP: O.keep = 1; break;
	case OPT_STALL: O.stall_s = fnum(a, "stall time"); break;
	case OPT_SEED: O.seed = (uint64_t)num(a, "seed", 0); break;
	case OPT_EXPECT: O.walk_expect = num(a, "entry count", 0); break;
	case OPT_PASSES: O.passes = (int)num(a, "pass count", 1); break;
	case OPT_NOCHECK: O.no_check = 1; break;
	case OPT_INTERVAL:
		O.interval_ms = fnum(a, "interval");
		if (O.interval_ms < 0.01) {
			fprintf(stderr, "nfsbench: --interval must be at least 0.01 ms\n");
			exit(2);
		}
		break;
	case OPT_TREE:
		if (sscanf(a, "%u,%u", &O.tree_dirs, &O.tree_files) != 2 || !O.tree_dirs || !O.tree_files ||
		    O.tree_dirs > 100000000 || O.tree_files > 100000000) {
			fprintf(stderr, "nfsbench: --tree wants D,F (both >= 1)\n");
			exit(2);
		}
		break;
	case 'h': usage(stdout); exit(0);
	default: usage(stderr); exit(2);
	}
}

static int is(const char *w, const char *a, const char *b)
{
	return !strcmp(w, a) || (b && !strcmp(w, b));
}

/* Per-workload defaults for what was not given. */
static int run_one(const char *w)
{
	O.conns = explicit_conns ? O.conns : is(w, "seq", "smallfile") ? 1 : 4;
	O.depth = explicit_depth ? O.depth : is(w, "seq", NULL) ? 8 : is(w, "smallcopy", NULL) ? 4 :
		  is(w, "mix1", "smallfile") ? 1 : 16;
	O.seq_mib = explicit_size ? O.seq_mib : (!strcmp(w, "hol") ? 1024 : 256);
	if (!strcmp(w, "mix"))
		return run_mix();
	if (!strcmp(w, "mix1"))
		return run_mix1();
	if (!strcmp(w, "getattr"))
		return run_getattr();
	if (!strcmp(w, "smallfile"))
		return run_smallfile();
	if (!strcmp(w, "seq"))
		return run_seq();
	if (!strcmp(w, "meta"))
		return run_meta();
	if (!strcmp(w, "smallcopy"))
		return run_smallcopy();
	if (!strcmp(w, "walk"))
		return run_walk();
	if (!strcmp(w, "hol"))
		return run_hol();
	if (!strcmp(w, "lock"))
		return run_lock();
	if (!strcmp(w, "fcntl"))
		return run_fcntl();
	if (!strcmp(w, "mktree")) {
		if (!explicit_threads)
			O.threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
		return run_mktree();
	}
	fprintf(stderr, "nfsbench: unknown workload '%s'\n", w);
	usage(stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	static const char *all[] = { "mix", "seq", "meta", "smallcopy", "hol" };
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "e:H:n:m:D:c:T:q:t:l:s:x:N:K:S:o:h", longopts, NULL)) != -1)
		parse_opt(c, optarg);
	if (optind != argc - 1 || (!O.export && strcmp(argv[optind], "mktree") && strcmp(argv[optind], "fcntl"))) {
		usage(stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (O.export)
		printf("nfsbench: %s:%s (NFS port %d, MOUNT port %d)\n", O.host, O.export, O.nfs_port,
		       O.mount_port);
	if (!strcmp(argv[optind], "all")) {
		for (size_t i = 0; i < sizeof(all) / sizeof(all[0]) && rc == 0; i++) {
			rc = run_one(all[i]);
			printf("\n");
		}
	} else {
		rc = run_one(argv[optind]);
	}
	if (bench_failed())
		printf("\nFAILED: %s (no throughput is reported for a run with errors)\n", bench_first_error());
	results_flush();
	return bench_failed() || rc ? 1 : 0;
}
