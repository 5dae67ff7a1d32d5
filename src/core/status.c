/* Status names and the per-thread error message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

#define MSG_MAX 512

/* Thread-local, like errno: the failing call and the caller that reads the
 * message run on the same thread, and no other thread can clobber it. */
static _Thread_local char last_msg[MSG_MAX];

static const struct {
    socmon_status st;
    const char *name;
    const char *text;
} table[] = {
    {SOCMON_OK, "SOCMON_OK", "success"},
    {SOCMON_EINVAL, "SOCMON_EINVAL", "invalid argument"},
    {SOCMON_ERANGE, "SOCMON_ERANGE", "value out of range"},
    {SOCMON_ENOMEM, "SOCMON_ENOMEM", "out of memory"},
    {SOCMON_EIO, "SOCMON_EIO", "bus or device access failed"},
    {SOCMON_EPERM, "SOCMON_EPERM", "permission denied"},
    {SOCMON_ENOTSUP, "SOCMON_ENOTSUP", "not supported"},
    {SOCMON_EPARSE, "SOCMON_EPARSE", "malformed input"},
    {SOCMON_ESTATE, "SOCMON_ESTATE", "invalid in the current state"},
    {SOCMON_ENOENT, "SOCMON_ENOENT", "not found"},
    {SOCMON_EUNDEF, "SOCMON_EUNDEF", "result undefined"},
    {SOCMON_EAGAIN, "SOCMON_EAGAIN", "retries exhausted"},
};

const char *socmon_status_name(socmon_status st)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].st == st)
            return table[i].name;
    return "SOCMON_E?";
}

const char *socmon_status_str(socmon_status st)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].st == st)
            return table[i].text;
    return "unknown status";
}

const char *socmon_errmsg(void)
{
    return last_msg;
}

void socmon_clear_error(void)
{
    last_msg[0] = '\0';
}

socmon_status socmon_fail(socmon_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_msg, sizeof last_msg, fmt ? fmt : "(no message)", ap);
    va_end(ap);
    return st;
}

socmon_status socmon_fail_prefix(socmon_status st, const char *fmt, ...)
{
    char prefix[MSG_MAX], old[MSG_MAX];
    va_list ap;
    prefix[0] = '\0';   /* a NULL fmt is an empty prefix */
    if (fmt) {
        va_start(ap, fmt);
        vsnprintf(prefix, sizeof prefix, fmt, ap);
        va_end(ap);
    }
    memcpy(old, last_msg, sizeof old);
    /* Truncation is acceptable: the message is for humans and stays bounded. */
    size_t a = strnlen(prefix, sizeof prefix - 1);
    size_t b = strnlen(old, sizeof old - 1);
    if (a > MSG_MAX - 1)
        a = MSG_MAX - 1;
    if (b > MSG_MAX - 1 - a)
        b = MSG_MAX - 1 - a;
    memcpy(last_msg, prefix, a);
    memcpy(last_msg + a, old, b);
    last_msg[a + b] = '\0';
    return st;
}
