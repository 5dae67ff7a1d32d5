/* Opening a regions handle and writing its totals as a recording at close (socmon/region.h):
 * one instance per region, the perf device's counters plus calls and time_ns, two samples. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "region/region_internal.h"
#include "socmon/recording.h"
#include "socmon/sample.h"

#define DEFAULT_EVENTS "task-clock,page-faults,cycles:u,instructions:u"

static uint64_t clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

socmon_status socmon_regions_open(const socmon_regions_opts *o, socmon_regions **out)
{
    if (!o || !out || !o->path || !*o->path)
        return socmon_fail(SOCMON_EINVAL, "socmon_regions_open: %s", !o || !out ? "NULL argument" : "no path");
    *out = NULL;
    socmon_status sz = smn_check_size("socmon_regions_opts", o->size, sizeof *o);
    if (sz != SOCMON_OK)
        return sz;
    socmon_regions *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(o->path))) {
        free(r);
        return socmon_fail(SOCMON_ENOMEM, "regions: out of memory");
    }
    socmon_status st = socmon_perf_event_list_parse(o->events ? o->events : DEFAULT_EVENTS, NULL, &r->ev, &r->nev);
    if (st == SOCMON_OK && r->nev * 3 > REGION_MAX_COUNTERS)
        st = socmon_fail(SOCMON_ERANGE, "regions: %zu events (at most %d)", r->nev, REGION_MAX_COUNTERS / 3);
    /* Events stay as written: each alone unless braced ({cycles,instructions}). Forcing one group
     * is wrong for software events: a page-faults event in a group led by task-clock (another
     * software PMU) counts nothing on Linux 6.18 (seen here: 0 of 256 faults). */
    if (st == SOCMON_OK && pthread_key_create(&r->key, smn_region_thread_exit) != 0)
        st = socmon_fail(SOCMON_ENOMEM, "regions: no thread key left");
    if (st) {
        free(r->ev);
        free(r->path);
        free(r);
        return socmon_fail_prefix(st, "regions: ");
    }
    pthread_mutex_init(&r->lock, NULL);
    r->sys = o->sys;
    r->t_open = clock_ns(CLOCK_MONOTONIC);
    *out = r;
    return SOCMON_OK;
}

socmon_status socmon_regions_open_env(socmon_regions **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_regions_open_env: out is NULL");
    *out = NULL;
    const char *path = getenv("SOCMON_REGIONS");
    if (!path || !*path)
        return SOCMON_OK;
    socmon_regions_opts o = {.path = path, .events = getenv("SOCMON_REGIONS_EVENTS"), .sys = NULL};
    return socmon_regions_open(&o, out);
}

/* The totals as a device: a copy taken when it was made, read by any set over it. */
static socmon_status totals_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    const uint64_t *v = p;
    for (size_t i = 0; i < n; i++)
        out[i] = v[idx[i]];
    return SOCMON_OK;
}

socmon_status socmon_regions_totals(socmon_regions *r, socmon_device **out, uint64_t *t0_ns)
{
    if (!r || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_regions_totals: NULL argument");
    *out = NULL;
    if (!r->tmpl)
        return socmon_fail(SOCMON_ENOENT, "regions: no thread has begun a region yet");
    if (t0_ns)
        *t0_ns = r->t_open;
    pthread_mutex_lock(&r->lock);   /* the threads' list and the names; their sums are read as they are */
    size_t nc = socmon_device_ncounters(r->tmpl), per = nc + 2, n = r->nregions * per;
    uint64_t *v = calloc(n + 1, sizeof *v);
    for (region_thread *t = r->threads; v && t; t = t->next)
        for (size_t g = 0; g < r->nregions; g++) {
            for (size_t i = 0; i < t->n && i < nc; i++)
                v[g * per + i] += t->acc[g].v[i];
            v[g * per + nc] += t->acc[g].calls;
            v[g * per + nc + 1] += t->acc[g].time_ns;
        }
    static const socmon_device_ops ops = {.read = totals_read, .destroy = free};
    socmon_device *dev = NULL;
    socmon_status st = v ? socmon_device_new("regions", &ops, v, &dev) : socmon_fail(SOCMON_ENOMEM, "regions: out of memory");
    if (st != SOCMON_OK)
        free(v);
    for (size_t g = 0; st == SOCMON_OK && g < r->nregions; g++) {
        for (size_t i = 0; st == SOCMON_OK && i < nc; i++) {
            socmon_counter c = *socmon_device_counter(r->tmpl, i);
            c.instance = r->names[g];
            st = socmon_device_add_counter(dev, &c, NULL);
        }
        socmon_counter calls = {.name = "calls", .instance = r->names[g], .desc = "times the region was entered and left",
                                .unit = "calls", .width = 64};
        socmon_counter tm = {.name = "time_ns", .instance = r->names[g],
                             .desc = "wall time inside the region, over all calls and threads", .unit = "ns", .width = 64};
        if (st == SOCMON_OK)
            st = socmon_device_add_counter(dev, &calls, NULL);
        if (st == SOCMON_OK)
            st = socmon_device_add_counter(dev, &tm, NULL);
    }
    pthread_mutex_unlock(&r->lock);
    if (st != SOCMON_OK) {
        socmon_device_free(dev);
        return st;
    }
    *out = dev;
    return SOCMON_OK;
}

/* The totals as a recording of two samples: zeros at open, the totals at close. */
static socmon_status write_recording(socmon_regions *r)
{
    if (!r->tmpl) /* no thread ever began a region: an empty file would say nothing; none is written */
        return SOCMON_OK;
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    socmon_recwriter *w = NULL;
    socmon_sample s = {0};
    socmon_status st = socmon_regions_totals(r, &dev, NULL);
    if (st == SOCMON_OK)
        st = socmon_set_new(dev, NULL, &set);
    int fd = -1;
    if (st == SOCMON_OK && (fd = open(r->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) < 0)
        st = socmon_fail(SOCMON_EIO, "regions: cannot write '%s': %s", r->path, strerror(errno));
    uint64_t t1 = clock_ns(CLOCK_MONOTONIC), span = t1 > r->t_open ? t1 - r->t_open : 1;
    socmon_recwriter_opts wo = {.simulated = -1};
    if (st == SOCMON_OK)
        st = socmon_recwriter_open(fd, set, "regions", span, &wo, &w);
    if (st == SOCMON_OK)
        st = socmon_sample_alloc(set, &s);
    if (st == SOCMON_OK) {
        memset(s.v, 0, s.n * sizeof *s.v);
        s.t_ns = r->t_open;
        st = socmon_recwriter_append(w, &s);
    }
    if (st == SOCMON_OK && (st = socmon_set_read(set, t1, &s)) == SOCMON_OK)
        st = socmon_recwriter_append(w, &s);
    socmon_status cst = w ? socmon_recwriter_close(w) : SOCMON_OK;
    if (st == SOCMON_OK)
        st = cst;
    if (fd >= 0 && close(fd) != 0 && st == SOCMON_OK)
        st = socmon_fail(SOCMON_EIO, "regions: closing '%s': %s", r->path, strerror(errno));
    socmon_sample_free(&s);
    socmon_set_free(set);
    socmon_device_free(dev);
    return st;
}

socmon_status socmon_regions_close(socmon_regions *r)
{
    if (!r)
        return SOCMON_OK;
    socmon_status open_st = SOCMON_OK;
    for (region_thread *t = r->threads; t && open_st == SOCMON_OK; t = t->next)
        if (t->depth)
            open_st = socmon_fail(SOCMON_ESTATE, "regions: region '%s' is still open at close (its open call is not "
                                  "counted)", r->names[t->stack[t->depth - 1].id]);
    socmon_status st = write_recording(r);
    /* no destructor runs once the key is gone (POSIX), so the threads' states are ours to free */
    pthread_key_delete(r->key);
    for (region_thread *t = r->threads, *next; t; t = next) {
        next = t->next;
        socmon_device_free(t->dev);
        free(t);
    }
    pthread_mutex_destroy(&r->lock);
    free(r->ev);
    free(r->path);
    free(r);
    return st ? st : open_st;
}
