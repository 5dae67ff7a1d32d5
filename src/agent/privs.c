/* Dropping root (see privs.h). */
#define _GNU_SOURCE   /* setgroups */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent/privs.h"
#include "socmon/status.h"

socmon_status agent_drop_privileges(const char *user, int *dropped, char *who, size_t wholen)
{
    *dropped = 0;
    const char *name = user ? user : "nobody";
    snprintf(who, wholen, "%s", name);
    struct passwd *pw = getpwnam(name);
    if (!pw && !user)
        return socmon_fail(SOCMON_ENOENT, "the default user '%s' does not exist; give --user NAME", name);
    if (!pw)
        return socmon_fail(SOCMON_ENOENT, "--user '%s': no such user", name);
    if (geteuid() != 0) {
        if (user && pw->pw_uid != geteuid())
            return socmon_fail(SOCMON_EPERM, "--user '%s': only root can switch users (running as uid %u)", name,
                               (unsigned)geteuid());
        return SOCMON_OK;
    }
    if (pw->pw_uid == 0)
        return SOCMON_OK;
    /* Groups first: once the uid is not root, they can no longer be changed. */
    if (setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 || setuid(pw->pw_uid) != 0)
        return socmon_fail(SOCMON_EPERM, "dropping root to user '%s' (uid %u): %s", name, (unsigned)pw->pw_uid,
                           strerror(errno));
    if (setuid(0) == 0 || geteuid() == 0)
        return socmon_fail(SOCMON_EPERM, "dropping root to user '%s': root could be taken back", name);
    *dropped = 1;
    return SOCMON_OK;
}
