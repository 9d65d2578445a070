/* The NFS program: its versions, chosen at start-up (nfs_program.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "compiler.h"
#include "nfs2.h"
#include "nfs3.h"
#include "nfs4.h"
#include "nfs_program.h"

static const struct {
	const char *name;
	unsigned bits;
} version_names[] = {
	{ "2", NFSVERS_2 }, { "3", NFSVERS_3 }, { "4", NFSVERS_4 },
	{ "4.0", NFSVERS_4_0 }, { "4.1", NFSVERS_4_1 }, { "4.2", NFSVERS_4_2 },
};

int
nfs_versions_parse(const char *list, unsigned *out, char *err, size_t errlen)
{
	char buf[128], *word, *save = NULL;
	unsigned bits = 0;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "--nfs-versions: list too long");
		return -1;
	}
	strcpy(buf, list);
	for (word = strtok_r(buf, ", ", &save); word; word = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(version_names); i++)
			if (strcmp(word, version_names[i].name) == 0)
				break;
		if (i == ARRAY_SIZE(version_names)) {
			snprintf(err, errlen, "--nfs-versions: '%s' is not a version served "
			    "(2, 3, 4, 4.0, 4.1, 4.2)", word);
			return -1;
		}
		bits |= version_names[i].bits;
	}
	if (bits == 0) {
		snprintf(err, errlen, "--nfs-versions: no version named");
		return -1;
	}
	*out = bits;
	return 0;
}

static struct rpc_version versions[3];
static struct rpc_program program = { NFS_PROGRAM_NUMBER, "NFS", versions, 0, RPC_SVC_NFS };

const struct rpc_program *
nfs_program_build(unsigned bits)
{
	unsigned n = 0;

	if (bits & NFSVERS_2)
		versions[n++] = (struct rpc_version){ 2, nfs2_procs, NFS2_NPROCS, 0 };
	if (bits & NFSVERS_3)
		versions[n++] = (struct rpc_version){ 3, nfs3_procs, NFS3_NPROCS, 0 };
	if (bits & NFSVERS_4) {
		nfs4_set_minors((bits & NFSVERS_4_0 ? 1u << 0 : 0) |
		    (bits & NFSVERS_4_1 ? 1u << 1 : 0) | (bits & NFSVERS_4_2 ? 1u << 2 : 0));
		versions[n++] = (struct rpc_version){ 4, nfs4_procs, NFS4_NPROCS, RPC_VERS_TCP_ONLY };
	}
	program.nversions = n;
	return &program;
}
