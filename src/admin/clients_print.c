/*
 * `usernfsctl clients`: the table of clients seen (rpc/clients.h), each
 * with the mounts MOUNT recorded for it (exports/rmtab.h), and NFSv4's
 * client records with their owner strings, as text or JSON.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "clients_print.h"
#include "exports/rmtab.h"
#include "rpc/clients.h"
#include "sockaddr.h"
#include "state/nfs4_clients.h"

struct mount_pair {
	char host[64];
	char path[1024];
};

struct mounts {
	struct mount_pair *v;
	size_t n, cap;
};

static void
collect_mount(void *arg, const char *host, const char *path)
{
	struct mounts *m = arg;

	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct mount_pair *v = realloc(m->v, cap * sizeof(*v));
		if (v == NULL)
			return;
		m->v = v;
		m->cap = cap;
	}
	snprintf(m->v[m->n].host, sizeof(m->v[m->n].host), "%s", host);
	snprintf(m->v[m->n].path, sizeof(m->v[m->n].path), "%s", path);
	m->n++;
}

static void
json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			putc(ch, out);
	}
	putc('"', out);
}

static void
print_time(FILE *out, time_t t)
{
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	fputs(buf, out);
}

static void
print_mounts(FILE *out, const struct mounts *m, const char *host, int json)
{
	int first = 1;

	for (size_t k = 0; k < m->n; k++) {
		if (strcmp(m->v[k].host, host) != 0)
			continue;
		if (json) {
			if (!first)
				putc(',', out);
			json_str(out, m->v[k].path);
		} else {
			fprintf(out, "%s%s", first ? "" : ",", m->v[k].path);
		}
		first = 0;
	}
	if (first && !json)
		fputs("-", out);
}

/* ---- NFSv4 client records (state/nfs4_clients.h) ---- */

struct v4_print {
	FILE *out;
	int json;
	unsigned n;
};

/* co_ownerid as text where it is text (Linux: "Linux NFSv4.2 host"), else hex. */
static void
owner_text(const uint8_t *p, size_t len, char *buf, size_t size)
{
	size_t i, o = 0;
	int text = len > 0;

	for (i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] > 0x7e)
			text = 0;
	for (i = 0; i < len && o + 3 < size; i++)
		o += (size_t)snprintf(buf + o, size - o, text ? "%c" : "%02x", p[i]);
	buf[o] = '\0';
}

static void
print_one_v4(void *arg, const struct n4_client_info *ci)
{
	struct v4_print *vp = arg;
	char addr[64], owner[2 * 1024 + 1];

	sockaddr_text(&ci->addr, addr, sizeof(addr));
	owner_text(ci->owner, ci->ownerlen, owner, sizeof(owner));
	if (vp->json) {
		fprintf(vp->out, "%s{\"clientid\":\"%016llx\",\"address\":", vp->n ? "," : "",
		    (unsigned long long)ci->clientid);
		json_str(vp->out, addr);
		fputs(",\"owner\":", vp->out);
		json_str(vp->out, owner);
		fprintf(vp->out, ",\"confirmed\":%s,\"sessions\":%u,\"idle_s\":%u,\"minor\":%d}",
		    ci->confirmed ? "true" : "false", ci->sessions, ci->idle_secs, ci->minor);
	} else {
		if (vp->n == 0)
			fprintf(vp->out, "\nNFSv4 clients:\n%-16s %-4s %-39s %-9s %8s %6s  %s\n",
			    "CLIENTID", "VERS", "ADDRESS", "CONFIRMED", "SESSIONS", "IDLE_S", "OWNER");
		fprintf(vp->out, "%016llx 4.%-2d %-39s %-9s %8u %6u  %s\n",
		    (unsigned long long)ci->clientid, ci->minor, addr,
		    ci->confirmed ? "yes" : "no", ci->sessions, ci->idle_secs, owner);
	}
	vp->n++;
}

static void
print_v4(FILE *out, int json)
{
	struct v4_print vp = { out, json, 0 };

	if (json)
		fputs(",\"nfs4_clients\":[", out);
	n4_clients_foreach(print_one_v4, &vp);
	if (json)
		fputs("]", out);
}

void
clients_print(FILE *out, int json)
{
	struct client_info *v;
	size_t n = clients_list(&v);
	struct mounts m = { 0 };
	time_t now = time(NULL);
	size_t printed = n;

	rmtab_foreach(collect_mount, &m);
	if (json)
		fputs("{\"clients\":[", out);
	else
		fprintf(out, "%-39s %10s %14s %14s %8s  %s\n", "CLIENT", "CALLS", "BYTES_IN",
		    "BYTES_OUT", "IDLE_S", "MOUNTS");
	for (size_t i = 0; i < n; i++) {
		if (json) {
			fprintf(out, "%s{\"address\":", i ? "," : "");
			json_str(out, v[i].host);
			fprintf(out, ",\"calls\":%llu,\"bytes_in\":%llu,\"bytes_out\":%llu,"
			    "\"first_seen\":\"", (unsigned long long)v[i].calls,
			    (unsigned long long)v[i].bytes_in, (unsigned long long)v[i].bytes_out);
			print_time(out, v[i].first_seen);
			fputs("\",\"last_seen\":\"", out);
			print_time(out, v[i].last_seen);
			fputs("\",\"principal\":", out);
			json_str(out, v[i].principal);
			fputs(",\"mounts\":[", out);
			print_mounts(out, &m, v[i].host, 1);
			fputs("]}", out);
		} else {
			fprintf(out, "%-39s %10llu %14llu %14llu %8lld  ", v[i].host,
			    (unsigned long long)v[i].calls, (unsigned long long)v[i].bytes_in,
			    (unsigned long long)v[i].bytes_out, (long long)(now - v[i].last_seen));
			print_mounts(out, &m, v[i].host, 0);
			if (v[i].principal[0])
				fprintf(out, "  krb5:%s", v[i].principal);
			putc('\n', out);
		}
	}
	/* Hosts that hold mounts but sent nothing since the start (the list survives restarts). */
	for (size_t k = 0; k < m.n; k++) {
		int seen = 0;
		for (size_t i = 0; i < n && !seen; i++)
			seen = strcmp(v[i].host, m.v[k].host) == 0;
		for (size_t j = 0; j < k && !seen; j++)
			seen = strcmp(m.v[j].host, m.v[k].host) == 0;
		if (seen)
			continue;
		if (json) {
			fprintf(out, "%s{\"address\":", printed ? "," : "");
			json_str(out, m.v[k].host);
			fputs(",\"calls\":0,\"bytes_in\":0,\"bytes_out\":0,\"mounts\":[", out);
			print_mounts(out, &m, m.v[k].host, 1);
			fputs("]}", out);
			printed++;
		} else {
			fprintf(out, "%-39s %10d %14d %14d %8s  ", m.v[k].host, 0, 0, 0, "-");
			print_mounts(out, &m, m.v[k].host, 0);
			putc('\n', out);
		}
	}
	if (json)
		fputs("]", out);
	print_v4(out, json);
	if (json)
		fputs("}\n", out);
	free(m.v);
	free(v);
}
