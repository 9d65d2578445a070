/*
 * Who an RPCSEC_GSS context's client is (gss_ctx.h's gss_map_identity):
 * the principal's name, and the local user krb5's auth_to_local rules
 * make of it, with that user's groups. Run once per context, when it is
 * established, never per call. What an unmapped principal may do is the
 * export layer's decision (its anonymous ids), not this file's.
 */
#include "config.h"

#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <gssapi/gssapi.h>
#include <gssapi/gssapi_ext.h>
#include <gssapi/gssapi_krb5.h>

#include "gss_ctx.h"
#include "log.h"

#define PW_BUF_LEN 16384	/* getpwnam_r's scratch: generous for one passwd line */
#define GROUPS_ASKED_MAX 65536	/* getgrouplist's answer we are ready to hold */

/* host/..., nfs/...: a machine's credential, with no user behind it. */
static int
machine_principal(const char *p)
{
	return strncmp(p, "host/", 5) == 0 || strncmp(p, "nfs/", 4) == 0;
}

/* The groups of user (primary first), the first RG_MAX_GIDS of them. */
static void
user_groups(const char *user, gid_t gid, struct gss_identity *id)
{
	gid_t few[RG_MAX_GIDS], *g = few;
	int n = RG_MAX_GIDS;

	if (getgrouplist(user, gid, few, &n) < 0) {
		/* More than fit: ask for all, keep the first ones. */
		if (n <= 0 || n > GROUPS_ASKED_MAX || (g = calloc((size_t)n, sizeof(*g))) == NULL ||
		    getgrouplist(user, gid, g, &n) < 0)
			n = 0;
	}
	id->ngids = 0;
	for (int i = 0; i < n && id->ngids < RG_MAX_GIDS; i++)
		id->gids[id->ngids++] = g[i];
	if (g != few)
		free(g);
}

/* The local user name of client, NUL-terminated in out; -1 if none. */
static int
local_name(gss_name_t client, char *out, size_t cap)
{
	gss_buffer_desc b = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;
	int rc = -1;

	major = gss_localname(&minor, client, (gss_OID)gss_mech_krb5, &b);
	if (major == GSS_S_COMPLETE && b.length > 0 && b.length < cap &&
	    memchr(b.value, '\0', b.length) == NULL) {
		memcpy(out, b.value, b.length);
		out[b.length] = '\0';
		rc = 0;
	}
	gss_release_buffer(&minor, &b);
	return rc;
}

static void
map_user(const char *user, struct gss_identity *id)
{
	struct passwd pw, *res = NULL;
	char *buf = malloc(PW_BUF_LEN);

	if (buf && getpwnam_r(user, &pw, buf, PW_BUF_LEN, &res) == 0 && res != NULL) {
		id->uid = (uint32_t)pw.pw_uid;
		id->gid = (uint32_t)pw.pw_gid;
		user_groups(user, pw.pw_gid, id);
		id->mapped = 1;
	}
	free(buf);
}

void
gss_map_identity(gss_name_t client, struct gss_identity *id)
{
	gss_buffer_desc b = GSS_C_EMPTY_BUFFER;
	OM_uint32 major, minor;
	char user[RG_PRINCIPAL_MAX];

	memset(id, 0, sizeof(*id));
	major = gss_display_name(&minor, client, &b, NULL);
	if (major != GSS_S_COMPLETE || b.length == 0 || b.length >= sizeof(id->principal) ||
	    memchr(b.value, '\0', b.length) != NULL) {
		/* No name we can show: nobody in particular, never mapped. */
		strcpy(id->principal, "(unnamed)");
		gss_release_buffer(&minor, &b);
		return;
	}
	memcpy(id->principal, b.value, b.length);
	id->principal[b.length] = '\0';
	gss_release_buffer(&minor, &b);
	if (machine_principal(id->principal) || local_name(client, user, sizeof(user)) < 0)
		return;
	map_user(user, id);
	if (!id->mapped)
		log_debug("gss: %s is %s here, who has no passwd entry", id->principal, user);
}
