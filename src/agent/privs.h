/* Dropping root after the agent has what it needs (the target's registers
 * mapped, its socket bound): an agent that talks to the network then runs as
 * an unprivileged user. */
#ifndef SOCMON_AGENT_PRIVS_H
#define SOCMON_AGENT_PRIVS_H

#include <stddef.h>

#include "socmon/status.h"

/* When the process runs as root (effective uid 0): clears the supplementary
 * groups and switches gid and uid to user's (NULL: "nobody"), then checks
 * that root cannot be taken back. Not root: does nothing (*dropped = 0)
 * unless user names another user, which is an error (only root can switch).
 * user "root" keeps root (said in *dropped = 0). */
socmon_status agent_drop_privileges(const char *user, int *dropped, char *who, size_t wholen);

#endif
