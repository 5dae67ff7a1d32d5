/* The trace_bus=PATH target option: a recording bus (bus/record_bus.c) between a target's
 * driver and its bus that logs every access to PATH (the CLI's --trace-bus).
 *
 * A trace nobody can trust is worse than none, so every write of it is checked: the first
 * failure (a full disk, a closed pipe) fails the access that wrote it with a message naming
 * the path and errno, which stops the run, and socmon_target_trace_flush reports a failure
 * of the last buffered bytes at the end. The line is the recording bus's
 * (smn_bus_access_print): "R 0x00000104 = 0x0000002a", "W ...", "F", a failed access ending in
 * " ! SOCMON_EIO". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus_internal.h"
#include "core/error.h"
#include "socmon/target.h"

struct socmon_bus_trace {
    FILE *fp;
    socmon_bus *bus;     /* the tracing bus handed to the driver */
    char *path;
    int err;             /* errno of the first failed write, 0 if none */
};

/* The status of a failed write, with the message that names the file (repeated for every
 * access after the first failure: the trace has a hole from there on). */
static socmon_status write_failed(socmon_bus_trace *t)
{
    return socmon_fail(SOCMON_EIO, "trace_bus: writing '%s': %s", t->path,
                       strerror(t->err));
}

static void note_errno(socmon_bus_trace *t)
{
    if (!t->err)
        t->err = errno ? errno : EIO;
}

/* The recording bus's callback: writes the access's line; the access keeps its own status
 * unless the line failed. */
static socmon_status trace_access(void *user, const socmon_bus_access *acc)
{
    socmon_bus_trace *t = user;
    if (t->err)
        return write_failed(t);
    errno = 0;
    if (smn_bus_access_print(t->fp, acc) < 0 || ferror(t->fp)) {
        note_errno(t);
        return write_failed(t);
    }
    return acc->st;
}

static void trace_free(socmon_bus_trace *t)
{
    if (t->fp && t->fp != stderr)
        fclose(t->fp);
    free(t->path);
    free(t);
}

socmon_status socmon_bus_trace_open(const socmon_kv *opts, size_t nopts, socmon_bus *inner,
                                    socmon_bus **out, socmon_bus_trace **trace)
{
    if (!inner || !out || !trace)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_trace_open: %s is NULL",
                           !inner ? "inner (the bus)" : !out ? "out" : "trace");
    if (nopts && !opts)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_trace_open: opts is NULL with nopts %zu", nopts);
    *out = inner;
    *trace = NULL;
    const char *path = NULL;
    for (size_t i = 0; i < nopts; i++)
        if (strcmp(opts[i].key, "trace_bus") == 0)
            path = opts[i].value;
    if (!path)
        return SOCMON_OK;
    if (!*path)
        return socmon_fail(SOCMON_EINVAL, "trace_bus needs a file name");
    socmon_bus_trace *t = calloc(1, sizeof *t);
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "trace_bus: out of memory");
    }
    t->fp = strcmp(path, "-") == 0 ? stderr : fopen(path, "w");
    if (!t->fp) {
        int e = errno;
        trace_free(t);
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_ENOENT, "trace_bus: cannot write '%s': %s", path,
                           strerror(e));
    }
    socmon_status st = smn_bus_record_checked(inner, trace_access, t, &t->bus);
    if (st != SOCMON_OK) {
        trace_free(t);
        return st;
    }
    *out = t->bus;
    *trace = t;
    return SOCMON_OK;
}

void socmon_bus_trace_close(socmon_bus_trace *trace)
{
    if (!trace)
        return;
    socmon_bus_free(trace->bus);
    trace_free(trace);
}

socmon_status socmon_target_trace_flush(socmon_target *t)
{
    socmon_bus *bus = socmon_target_bus(t);
    socmon_bus_trace *tr = bus ? smn_bus_record_user(bus, trace_access) : NULL;
    if (!tr)
        return SOCMON_OK;
    if (!tr->err) {
        errno = 0;
        if (fflush(tr->fp) != 0 || ferror(tr->fp))
            note_errno(tr);
    }
    return tr->err ? write_failed(tr) : SOCMON_OK;
}
