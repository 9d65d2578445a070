/*
 * NSM (nsm.h): monitoring through the host's rpc.statd, the list of
 * clients in the state directory, our own state number and SM_NOTIFY
 * after a restart. The files themselves are statefile.c's.
 *
 * Clients are named by address (as text), as the Linux kernel's lockd
 * names them to statd: a name statd can always resolve, and the address
 * a restarted client's notification is checked against.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rpc/dispatch.h"
#include "log.h"
#include "rpc/nlm4_prot.h"
#include "nsm.h"
#include "rpc/rpcclient.h"
#include "rpc/sm_inter_prot.h"
#include "sockaddr.h"
#include "state/statefile.h"
#include "tasks.h"

#define NLM_PROGRAM_NUMBER 100021
#define NSM_PROGRAM_NUMBER 100024
#define NSM_VERSION 1
#define NSM_NOTIFY_PROC 6	/* SM_NOTIFY: not in rpcsvc-proto's sm_inter.x */
#define CLIENTS_MAX 4096
#define STATD_TIMEOUT_MS 5000
#define NOTIFY_TIMEOUT_MS 3000
#define NOTIFY_TRIES 3
#define LIST_FILE "nlm-clients"
#define STATE_FILE "nsm-state"

struct client {
	struct sockaddr_storage addr, local;
	char caller[128];
	int current;		/* holds locks in this run */
	int previous;		/* was listed by the last run: may reclaim */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct client clients[CLIENTS_MAX];
static unsigned nclients;
static char *statedir;
static int our_state;

/* ---- the state number ---- */

static int
bump_state(void)
{
	char buf[32];
	FILE *f = statefile_open(statedir, STATE_FILE);
	int old = 0;

	if (f != NULL) {
		if (fscanf(f, "%d", &old) != 1 || old < 0)
			old = 0;
		fclose(f);
	}
	/* Odd while up (XNFS): each start moves on to the next odd number. */
	our_state = (old | 1) + 2;
	if (our_state < 0)
		our_state = 1;
	snprintf(buf, sizeof(buf), "%d\n", our_state);
	return statefile_replace(statedir, STATE_FILE, buf);
}

/* ---- the list of clients ---- */

static void
save_list_task(void *arg, int cancelled)
{
	char *text = arg;

	if (!cancelled)
		statefile_replace(statedir, LIST_FILE, text);
	free(text);
}

/* With the lock held: queue a write of the list as it is now. */
static void
save_list(void)
{
	size_t cap = (size_t)nclients * 300 + 1, used = 0;
	char *text = malloc(cap);

	if (text == NULL)
		return;
	text[0] = '\0';
	for (unsigned i = 0; i < nclients; i++) {
		char a[64], l[64];

		sockaddr_text(&clients[i].addr, a, sizeof(a));
		sockaddr_text(&clients[i].local, l, sizeof(l));
		used += (size_t)snprintf(text + used, cap - used, "%s %s %s\n", a, l, clients[i].caller);
	}
	if (tasks_push(save_list_task, text) < 0)
		free(text);
}

static void
load_list(void)
{
	char line[512];
	FILE *f = statefile_open(statedir, LIST_FILE);

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) && nclients < CLIENTS_MAX) {
		char a[64], l[64], caller[128] = "";
		struct client *c = &clients[nclients];

		if (sscanf(line, "%63s %63s %127s", a, l, caller) < 2 ||
		    sockaddr_parse(a, &c->addr) < 0 || sockaddr_parse(l, &c->local) < 0)
			continue;	/* a line we cannot use; nothing to reclaim for it */
		snprintf(c->caller, sizeof(c->caller), "%s", caller);
		c->previous = 1;
		nclients++;
	}
	fclose(f);
}

int
nsm_load(const char *dir)
{
	if ((statedir = strdup(dir)) == NULL)
		return -1;
	load_list();
	if (bump_state() < 0)
		return -1;
	return (int)nclients;
}

/* ---- calls to statd and to clients ---- */

static void
statd_target(struct rpc_target *t)
{
	memset(t, 0, sizeof(*t));
	t->addr.ss_family = AF_INET;
	((struct sockaddr_in *)&t->addr)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	t->proto = IPPROTO_UDP;
}

static void
fill_mon_id(mon_id *m, char *name)
{
	m->mon_name = name;
	m->my_id.my_name = (char *)"127.0.0.1";	/* statd calls back on loopback anyway */
	m->my_id.my_prog = NLM_PROGRAM_NUMBER;
	m->my_id.my_vers = NSM_CALLBACK_VERS;
	m->my_id.my_proc = NSM_CALLBACK_PROC;
}

static void
monitor_task(void *arg, int cancelled)
{
	static unsigned last_log;
	struct sockaddr_storage *client = arg;
	struct rpc_target t;
	sm_stat_res out;
	char name[64], err[256];
	mon m;

	if (cancelled) {
		free(arg);
		return;
	}
	sockaddr_text(client, name, sizeof(name));
	free(arg);
	memset(&m, 0, sizeof(m));
	fill_mon_id(&m.mon_id, name);
	memset(&out, 0, sizeof(out));
	statd_target(&t);
	if (rpcclient_call(&t, NSM_PROGRAM_NUMBER, NSM_VERSION, SM_MON, XDRPROC(xdr_mon), &m,
	    XDRPROC(xdr_sm_stat_res), &out, STATD_TIMEOUT_MS, err, sizeof(err)) < 0)
		log_ratelimited(&last_log, "cannot ask rpc.statd to monitor %s (%s): if it "
		    "restarts, its locks stay until it tells us or FREE_ALL", name, err);
	else if (out.res_stat != stat_succ)
		log_ratelimited(&last_log, "rpc.statd refused to monitor %s", name);
}

static void
unmonitor_task(void *arg, int cancelled)
{
	struct sockaddr_storage *client = arg;
	struct rpc_target t;
	struct sm_stat out;
	char name[64], err[256];
	mon_id m;

	if (!cancelled) {
		sockaddr_text(client, name, sizeof(name));
		fill_mon_id(&m, name);
		statd_target(&t);
		rpcclient_call(&t, NSM_PROGRAM_NUMBER, NSM_VERSION, SM_UNMON, XDRPROC(xdr_mon_id),
		    &m, XDRPROC(xdr_sm_stat), &out, STATD_TIMEOUT_MS, err, sizeof(err));
	}
	free(arg);
}

static void
push_addr_task(task_fn fn, const struct sockaddr_storage *addr)
{
	struct sockaddr_storage *a = malloc(sizeof(*a));

	if (a == NULL)
		return;
	*a = *addr;
	if (tasks_push(fn, a) < 0)
		free(a);
}

static struct client *
client_find(const struct sockaddr_storage *addr)
{
	for (unsigned i = 0; i < nclients; i++)
		if (sockaddr_same_host(&clients[i].addr, addr))
			return &clients[i];
	return NULL;
}

void
nsm_monitor(const struct sockaddr_storage *client, const struct sockaddr_storage *local,
    const char *caller)
{
	struct client *c;

	pthread_mutex_lock(&lock);
	if ((c = client_find(client)) != NULL && c->current) {
		pthread_mutex_unlock(&lock);
		return;
	}
	if (c == NULL && nclients < CLIENTS_MAX)
		c = &clients[nclients++];
	if (c) {
		c->addr = *client;
		c->local = *local;
		snprintf(c->caller, sizeof(c->caller), "%s", caller);
		/* One line of three words per client: a caller_name is the client's choice. */
		for (char *p = c->caller; *p; p++)
			if (!isgraph((unsigned char)*p))
				*p = '?';
		c->current = 1;
		save_list();
	}
	pthread_mutex_unlock(&lock);
	push_addr_task(monitor_task, client);
}

static void
client_remove(struct client *c)
{
	*c = clients[--nclients];
}

void
nsm_unmonitor(const struct sockaddr_storage *client)
{
	struct client *c;

	pthread_mutex_lock(&lock);
	if ((c = client_find(client)) != NULL) {
		c->current = 0;
		if (!c->previous) {
			client_remove(c);
			save_list();
		}
	}
	pthread_mutex_unlock(&lock);
	push_addr_task(unmonitor_task, client);
}

void
nsm_prune(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = nclients; i-- > 0;) {
		clients[i].previous = 0;
		if (!clients[i].current)
			client_remove(&clients[i]);
	}
	save_list();
	pthread_mutex_unlock(&lock);
}

struct notify {
	struct sockaddr_storage addr, local;
};

/* SM_NOTIFY to one client's statd: "the server you monitor has restarted". */
static void
notify_task(void *arg, int cancelled)
{
	struct notify *n = arg;
	struct rpc_target t;
	nsm_stat_chge chg;
	char us[64], them[64], err[256];

	if (cancelled) {
		free(n);
		return;
	}
	memset(&t, 0, sizeof(t));
	t.addr = n->addr;
	t.local = n->local;	/* statd checks the sender against the name */
	t.proto = IPPROTO_UDP;
	sockaddr_text(&n->local, us, sizeof(us));
	sockaddr_text(&n->addr, them, sizeof(them));
	chg.mon_name = us;
	chg.state = our_state;
	for (int i = 0; i < NOTIFY_TRIES; i++) {
		if (rpcclient_call(&t, NSM_PROGRAM_NUMBER, NSM_VERSION, NSM_NOTIFY_PROC,
		    XDRPROC(xdr_nsm_stat_chge), &chg, XDRPROC(xdr_void), NULL, NOTIFY_TIMEOUT_MS,
		    err, sizeof(err)) == 0) {
			log_info("told %s we restarted (state %d): it may reclaim its locks", them,
			    our_state);
			free(n);
			return;
		}
	}
	log_warnx("cannot tell %s we restarted (%s): its locks are not reclaimed", them, err);
	free(n);
}

void
nsm_notify_clients(void)
{
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nclients; i++) {
		struct notify *n;

		if (!clients[i].previous || (n = malloc(sizeof(*n))) == NULL)
			continue;
		n->addr = clients[i].addr;
		n->local = clients[i].local;
		if (tasks_push_for(&n->addr, 1, notify_task, n) < 0)
			free(n);
	}
	pthread_mutex_unlock(&lock);
}
