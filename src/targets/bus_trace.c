/* The trace_bus=PATH target option: a recording bus between a target's driver and its bus. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/target.h"

struct socmon_bus_trace {
    FILE *fp;
    socmon_bus *bus;
};

socmon_status socmon_bus_trace_open(const socmon_kv *opts, size_t nopts, socmon_bus *inner,
                                    socmon_bus **out, socmon_bus_trace **trace)
{
    if (!inner || !out || !trace)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_trace_open: NULL argument");
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
    if (!t)
        return socmon_fail(SOCMON_ENOMEM, "trace_bus: out of memory");
    t->fp = strcmp(path, "-") == 0 ? stderr : fopen(path, "w");
    if (!t->fp) {
        int e = errno;
        free(t);
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_ENOENT, "trace_bus: cannot write '%s': %s", path,
                           strerror(e));
    }
    socmon_status st = socmon_bus_record_file(inner, t->fp, &t->bus);
    if (st != SOCMON_OK) {
        if (t->fp != stderr)
            fclose(t->fp);
        free(t);
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
    if (trace->fp != stderr)
        fclose(trace->fp);
    free(trace);
}
