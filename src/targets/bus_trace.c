/* The trace_bus=PATH target option: a bus between a target's driver and its bus that logs
 * every access to PATH (the CLI's --trace-bus).
 *
 * A trace nobody can trust is worse than none, so every write of it is checked: the first
 * failure (a full disk, a closed pipe) fails the access that wrote it with a message naming
 * the path and errno, which stops the run, and socmon_target_trace_flush reports a failure
 * of the last buffered bytes at the end. The line format is the recording bus's
 * (bus/record_bus.c): "R 0x00000104 = 0x0000002a", "W ...", "F", a failed access ending in
 * " ! SOCMON_EIO". */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus_internal.h"
#include "core/error.h"
#include "socmon/target.h"

struct socmon_bus_trace {
    FILE *fp;
    socmon_bus *bus;     /* the tracing bus handed to the driver */
    socmon_bus *inner;   /* not owned */
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

/* Writes one access line; st is the access's own status, returned unless the line failed. */
static socmon_status trace_line(socmon_bus_trace *t, char op, unsigned bits, uint64_t addr, uint64_t val,
                                socmon_status st)
{
    if (t->err)
        return write_failed(t);
    int r;
    errno = 0;
    if (op == 'F')
        r = fputs("F", t->fp);
    else if (bits == 64)
        r = fprintf(t->fp, "%c 0x%08" PRIx64 " = 0x%016" PRIx64, op, addr, val);
    else
        r = fprintf(t->fp, "%c 0x%08" PRIx64 " = 0x%08" PRIx64, op, addr, val);
    if (r >= 0 && st != SOCMON_OK)
        r = fprintf(t->fp, " ! %s", socmon_status_name(st));
    if (r >= 0)
        r = fputc('\n', t->fp);
    if (r < 0 || ferror(t->fp)) {
        note_errno(t);
        return write_failed(t);
    }
    return st;
}

static socmon_status tr_read32(void *priv, uint64_t addr, uint32_t *val)
{
    socmon_bus_trace *t = priv;
    *val = 0;
    socmon_status st = socmon_bus_read32(t->inner, addr, val);
    return trace_line(t, 'R', 32, addr, *val, st);
}

static socmon_status tr_write32(void *priv, uint64_t addr, uint32_t val)
{
    socmon_bus_trace *t = priv;
    return trace_line(t, 'W', 32, addr, val, socmon_bus_write32(t->inner, addr, val));
}

static socmon_status tr_read64(void *priv, uint64_t addr, uint64_t *val)
{
    socmon_bus_trace *t = priv;
    *val = 0;
    socmon_status st = socmon_bus_read64(t->inner, addr, val);
    return trace_line(t, 'R', 64, addr, *val, st);
}

static socmon_status tr_write64(void *priv, uint64_t addr, uint64_t val)
{
    socmon_bus_trace *t = priv;
    return trace_line(t, 'W', 64, addr, val, socmon_bus_write64(t->inner, addr, val));
}

/* A fence has no status to fail with: a failed line is kept for the next access and for
 * socmon_target_trace_flush. */
static void tr_fence(void *priv)
{
    socmon_bus_trace *t = priv;
    socmon_bus_fence(t->inner);
    trace_line(t, 'F', 0, 0, 0, SOCMON_OK);
}

static const socmon_bus_ops trace_ops = {
    .read32 = tr_read32,
    .write32 = tr_write32,
    .fence = tr_fence,
    .read64 = tr_read64,
    .write64 = tr_write64,
};

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
    if (!t || !(t->path = strdup(path))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "trace_bus: out of memory");
    }
    t->inner = inner;
    t->fp = strcmp(path, "-") == 0 ? stderr : fopen(path, "w");
    if (!t->fp) {
        int e = errno;
        trace_free(t);
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_ENOENT, "trace_bus: cannot write '%s': %s", path,
                           strerror(e));
    }
    char name[256];
    snprintf(name, sizeof name, "record:%s", socmon_bus_name(inner));
    socmon_status st = socmon_bus_new(name, &trace_ops, t, &t->bus);
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
    socmon_bus_trace *tr = bus ? socmon_bus_backend_priv(bus, tr_read32) : NULL;
    if (!tr)
        return SOCMON_OK;
    if (!tr->err) {
        errno = 0;
        if (fflush(tr->fp) != 0 || ferror(tr->fp))
            note_errno(tr);
    }
    return tr->err ? write_failed(tr) : SOCMON_OK;
}
