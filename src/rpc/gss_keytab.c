/*
 * The keytab, checked when the daemon starts or reloads with an export
 * that asks for Kerberos (sec=krb5, krb5i, krb5p): without a readable
 * keytab holding an nfs/ key no Kerberos client can make a context, and
 * the first to find out would be a user whose mount fails with "access
 * denied". rpc.svcgssd and gssproxy fail the same way, later; here it is
 * said at once, naming the keytab.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <krb5.h>

#include "gss.h"

static const char *keytab_path;

void
gss_set_keytab(const char *path)
{
	keytab_path = path;
}

const char *
gss_keytab_path(void)
{
	return keytab_path;
}

/* Is the principal nfs/SOMETHING? */
static int
is_nfs_principal(krb5_context k, krb5_const_principal p)
{
	const krb5_data *first;

	(void)k;	/* MIT's accessors are macros that do not look at it */
	if (krb5_princ_size(k, p) != 2)
		return 0;
	first = krb5_princ_component(k, p, 0);
	return first->length == 3 && memcmp(first->data, "nfs", 3) == 0;
}

int
gss_keytab_check(char *err, size_t errlen)
{
	const char *path = keytab_path;
	char name[512] = "the default keytab";
	krb5_context k;
	krb5_keytab kt = NULL;
	krb5_kt_cursor cur;
	krb5_keytab_entry e;
	krb5_error_code rc;
	int found = 0;

	if ((rc = krb5_init_context(&k)) != 0) {
		snprintf(err, errlen, "Kerberos: cannot start: error %ld", (long)rc);
		return -1;
	}
	rc = path ? krb5_kt_resolve(k, path, &kt) : krb5_kt_default(k, &kt);
	if (rc == 0)
		(void)krb5_kt_get_name(k, kt, name, sizeof(name));
	if (rc == 0 && (rc = krb5_kt_start_seq_get(k, kt, &cur)) == 0) {
		while (!found && krb5_kt_next_entry(k, kt, &e, &cur) == 0) {
			found = is_nfs_principal(k, e.principal);
			krb5_free_keytab_entry_contents(k, &e);
		}
		krb5_kt_end_seq_get(k, kt, &cur);
	}
	if (rc != 0) {
		const char *msg = krb5_get_error_message(k, rc);

		snprintf(err, errlen, "keytab %s: %s", path ? path : name, msg);
		krb5_free_error_message(k, msg);
	} else if (!found) {
		snprintf(err, errlen, "keytab %s has no nfs/ key (add nfs/HOSTNAME with kadmin ktadd)",
		    path ? path : name);
	}
	if (kt)
		krb5_kt_close(k, kt);
	krb5_free_context(k);
	return rc == 0 && found ? 0 : -1;
}
