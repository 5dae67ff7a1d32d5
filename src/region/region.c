/* The region API (socmon/region.h): per-thread perf groups and region stacks, totals merged at
 * close into a recording.
 *
 * Each thread's state is found through a pthread key of the handle (so two handles never share
 * it) and is registered once in the handle's list under the lock; begin and end touch only the
 * calling thread's state. When a thread exits, the key's destructor closes its perf events (a
 * program that starts a thread per task would otherwise run out of fds) and keeps its sums. A region name gets its index once, under the lock; later begins find
 * it in the thread's own cache first. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "region/region_internal.h"
#include "socmon/delta.h"

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int valid_name(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') || (s[n] >= '0' && s[n] <= '9') ||
              s[n] == '_' || s[n] == '-'))
            return 0;
    return n > 0 && n <= SOCMON_REGION_NAME_MAX;
}

/* The region's index, registered if new (under the lock). */
static socmon_status region_id(socmon_regions *r, const char *name, size_t *id)
{
    pthread_mutex_lock(&r->lock);
    socmon_status st = SOCMON_OK;
    size_t i = 0;
    while (i < r->nregions && strcmp(r->names[i], name) != 0)
        i++;
    if (i == r->nregions) {
        if (r->nregions == REGION_MAX)
            st = socmon_fail(SOCMON_ERANGE, "regions: more than %d region names", REGION_MAX);
        else
            strcpy(r->names[r->nregions++], name);
    }
    pthread_mutex_unlock(&r->lock);
    *id = i;
    return st;
}

static socmon_status thread_state(socmon_regions *r, region_thread **out)
{
    region_thread *t = pthread_getspecific(r->key);
    if (t) {
        *out = t;
        return SOCMON_OK;
    }
    t = calloc(1, sizeof *t);
    if (!t)
        return socmon_fail(SOCMON_ENOMEM, "regions: out of memory");
    socmon_perf_opts po = {.events = r->ev, .nevents = r->nev, .mode = SOCMON_PERF_THREAD, .pid = 0, .sys = r->sys};
    socmon_status st = socmon_perf_device_new("regions", &po, &t->dev);
    if (st) {
        free(t);
        return socmon_fail_prefix(st, "regions: ");
    }
    t->n = socmon_device_ncounters(t->dev);
    if (t->n > REGION_MAX_COUNTERS) {
        socmon_device_free(t->dev);
        free(t);
        return socmon_fail(SOCMON_ERANGE, "regions: more than %d counters", REGION_MAX_COUNTERS / 3);
    }
    for (size_t i = 0; i < t->n; i++)
        t->idx[i] = (uint32_t)i;
    t->owner = r;
    pthread_mutex_lock(&r->lock);
    t->next = r->threads;
    r->threads = t;
    if (!r->tmpl)
        r->tmpl = t->dev;
    pthread_mutex_unlock(&r->lock);
    pthread_setspecific(r->key, t);
    *out = t;
    return SOCMON_OK;
}

void smn_region_thread_exit(void *p)
{
    region_thread *t = p;
    socmon_regions *r = t->owner;
    pthread_mutex_lock(&r->lock);
    if (t->dev != r->tmpl) {
        socmon_device_free(t->dev);
        t->dev = NULL;
    }
    pthread_mutex_unlock(&r->lock);
}

socmon_status socmon_region_begin(socmon_regions *r, const char *name)
{
    if (!r)
        return SOCMON_OK; /* off: the one branch it costs */
    if (!name || !valid_name(name))
        return socmon_fail(SOCMON_EINVAL, "region name '%s' is not 1..%d characters of [A-Za-z0-9_-]",
                           name ? name : "(null)", SOCMON_REGION_NAME_MAX);
    region_thread *t = NULL;
    socmon_status st = thread_state(r, &t);
    if (st)
        return st;
    if (t->depth == SOCMON_REGION_DEPTH)
        return socmon_fail(SOCMON_ERANGE, "region '%s': regions nest at most %d deep (innermost: '%s')", name,
                           SOCMON_REGION_DEPTH, r->names[t->stack[t->depth - 1].id]);
    size_t id = REGION_MAX, k = 0;
    while (k < t->nseen && strcmp(t->seen[k], name) != 0)
        k++;
    if (k < t->nseen) {
        id = t->seen_id[k];
    } else {
        if ((st = region_id(r, name, &id)) != SOCMON_OK)
            return st;
        t->seen[t->nseen] = r->names[id];
        t->seen_id[t->nseen++] = id;
    }
    region_frame *f = &t->stack[t->depth];
    f->id = id;
    if ((st = socmon_device_read(t->dev, t->idx, t->n, f->start)) != SOCMON_OK)
        return st;
    f->t0 = mono_ns();
    t->depth++;
    return SOCMON_OK;
}

socmon_status socmon_region_end(socmon_regions *r, const char *name)
{
    if (!r)
        return SOCMON_OK;
    if (!name)
        return socmon_fail(SOCMON_EINVAL, "socmon_region_end: name is NULL");
    region_thread *t = pthread_getspecific(r->key);
    if (!t || t->depth == 0)
        return socmon_fail(SOCMON_ESTATE, "region '%s' ended but no region is open on this thread", name);
    region_frame *f = &t->stack[t->depth - 1];
    if (strcmp(r->names[f->id], name) != 0)
        return socmon_fail(SOCMON_ESTATE, "region '%s' ended while '%s' is the innermost open region", name,
                           r->names[f->id]);
    uint64_t now[REGION_MAX_COUNTERS];
    socmon_status st = socmon_device_read(t->dev, t->idx, t->n, now);
    if (st)
        return st;
    uint64_t t1 = mono_ns();
    region_acc *a = &t->acc[f->id];
    for (size_t i = 0; i < t->n; i++)
        a->v[i] += socmon_delta(f->start[i], now[i], 64);
    a->calls++;
    a->time_ns += t1 - f->t0;
    t->depth--;
    return SOCMON_OK;
}
