/* NLM, the network lock manager protocol (program 100021, versions 1, 3, 4). */
#ifndef USERNFSD_NLM_H
#define USERNFSD_NLM_H

#include "rpc/dispatch.h"
#include "state/locks.h"

extern const struct rpc_program nlm_program;
/* What locks.c calls to send a GRANTED (or GRANTED_MSG) to a client. */
lk_grant_fn nlm_grant_sender(void);

#endif
