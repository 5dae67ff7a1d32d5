/* Reading a perf group: one read() of the leader returns every member with the
 * group's time enabled and running (read_format GROUP | TOTAL_TIME_ENABLED |
 * TOTAL_TIME_RUNNING | ID: {nr, time_enabled, time_running, {value, id}[nr]},
 * include/uapi/linux/perf_event.h). The buffer is checked against what was
 * opened before a value is used: a kernel (or model) answer of the wrong shape is
 * an error naming what is wrong, never a wrong count. The fast path, rdpmc, is
 * perf_rdpmc.c's. */
#include <string.h>

#include "core/error.h"
#include "drivers/perf/perf_drv.h"

socmon_status smn_perf_decode_group(const uint64_t *buf, size_t len, size_t n, const uint64_t *ids, uint64_t *values,
                                uint64_t *enabled, uint64_t *running)
{
    if (len % 8 || len < 3 * 8)
        return socmon_fail(SOCMON_EIO, "perf: group read of %zu bytes: too short or not whole words", len);
    uint64_t nr = buf[0];
    if (nr != n)
        return socmon_fail(SOCMON_EIO, "perf: group read holds %llu events, %zu were opened",
                           (unsigned long long)nr, n);
    if (len != (3 + 2 * n) * 8)
        return socmon_fail(SOCMON_EIO, "perf: group read of %zu bytes for %zu events (expected %zu)", len, n,
                           (3 + 2 * n) * 8);
    *enabled = buf[1];
    *running = buf[2];
    if (*running > *enabled)
        return socmon_fail(SOCMON_EIO, "perf: group read says it ran %llu ns of %llu ns enabled",
                           (unsigned long long)*running, (unsigned long long)*enabled);
    /* members come in the order they joined; match by id all the same */
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        if (buf[3 + 2 * k + 1] != ids[i])
            for (k = 0; k < n && buf[3 + 2 * k + 1] != ids[i]; k++)
                ;
        if (k == n)
            return socmon_fail(SOCMON_EIO, "perf: group read lacks event id %llu", (unsigned long long)ids[i]);
        values[i] = buf[3 + 2 * k];
    }
    return SOCMON_OK;
}

socmon_status smn_perf_read_group(perf_drv *d, size_t gi)
{
    const perf_group *g = &d->g[gi];
    uint64_t values[64], ids[64], en = 0, run = 0;
    uint64_t *vals = values, *idv = ids;
    if (g->n > 64)
        return socmon_fail(SOCMON_ERANGE, "perf: a group of %zu events (at most 64)", g->n);
    if (!smn_perf_rdpmc_group(d, gi, vals, &en, &run)) {
        long got = d->sys->read(d->sys->ctx, g->leader_fd, d->buf, d->buflen * 8);
        if (got == 0)
            return socmon_fail(SOCMON_EIO, "perf: the group of '%s' lost the PMU to another user (a pinned group "
                               "was evicted): its counts would be partial", d->ev[g->first].name);
        if (got < 0)
            return socmon_fail(SOCMON_EIO, "perf: reading the group of '%s': %s", d->ev[g->first].name,
                               strerror((int)-got));
        for (size_t i = 0; i < g->n; i++)
            idv[i] = d->ev[g->first + i].id;
        socmon_status st = smn_perf_decode_group(d->buf, (size_t)got, g->n, idv, vals, &en, &run);
        if (st)
            return socmon_fail_prefix(st, "'%s': ", d->ev[g->first].name);
    } else {
        d->used_rdpmc = 1;
    }
    for (size_t i = 0; i < g->n; i++) {
        uint64_t *v = &d->val[3 * (g->first + i)];
        v[0] = vals[i];
        v[1] = en;
        v[2] = run;
    }
    return SOCMON_OK;
}
