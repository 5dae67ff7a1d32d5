/* The live view's reader side (live.h): the HTTP threads' cursors into the history, snapshots
 * for /metrics, and closing. Every read copies what it needs under the view's mutex, so a
 * reader never holds the producer up longer than one copy of a row. */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "serve/live_internal.h"

const smn_live_schema *socmon_live_schema_of(const smn_live *lv)
{
    return &lv->schema;
}

const socmon_metrics *socmon_live_metrics(const smn_live *lv)
{
    return lv->metrics;
}

size_t socmon_live_nmetrics(const smn_live *lv)
{
    return lv->nm;
}

static uint64_t oldest_locked(const smn_live *lv)
{
    return lv->next_id > lv->cap ? lv->next_id - lv->cap : 0;
}

uint64_t socmon_live_oldest(smn_live *lv)
{
    pthread_mutex_lock(&lv->mu);
    uint64_t id = oldest_locked(lv);
    pthread_mutex_unlock(&lv->mu);
    return id;
}

int socmon_live_next(smn_live *lv, uint64_t *cursor, smn_live_entry *e, double *m, uint64_t *d,
                     int timeout_ms)
{
    struct timespec dl;
    clock_gettime(CLOCK_MONOTONIC, &dl);
    dl.tv_sec += timeout_ms / 1000;
    dl.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (dl.tv_nsec >= 1000000000L) {
        dl.tv_sec++;
        dl.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&lv->mu);
    int rc = 0;
    while (!lv->closing && *cursor >= lv->next_id)
        if (pthread_cond_timedwait(&lv->cv, &lv->mu, &dl) == ETIMEDOUT)
            break;
    if (lv->closing) {
        rc = -1;
    } else if (*cursor < lv->next_id) {
        uint64_t oldest = oldest_locked(lv), skipped = 0;
        if (*cursor < oldest) {
            skipped = oldest - *cursor;
            *cursor = oldest;
        }
        size_t slot = (size_t)(*cursor % lv->cap);
        *e = lv->ring[slot];
        e->skipped = skipped;
        if (e->kind == SOCMON_LIVE_ROW) {
            if (m)
                memcpy(m, lv->ring_m + slot * lv->nm, lv->nm * sizeof *m);
            if (d)
                memcpy(d, lv->ring_d + slot * lv->nc, lv->nc * sizeof *d);
        }
        ++*cursor;
        rc = 1;
    }
    pthread_mutex_unlock(&lv->mu);
    return rc;
}

uint64_t socmon_live_snapshot(smn_live *lv, uint64_t *totals, double *m, smn_live_state *state)
{
    pthread_mutex_lock(&lv->mu);
    if (totals)
        memcpy(totals, lv->pub_totals, lv->nc * sizeof *totals);
    if (m)
        memcpy(m, lv->pub_m, lv->nm * sizeof *m);
    if (state)
        *state = (smn_live_state){lv->rows,    lv->pub_elapsed, lv->pub_samples, lv->pub_missed,
                                     lv->pub_ended, lv->pub_started, lv->pub_t0};
    uint64_t rows = lv->rows;
    pthread_mutex_unlock(&lv->mu);
    return rows;
}

void socmon_live_close(smn_live *lv)
{
    if (!lv)
        return;
    pthread_mutex_lock(&lv->mu);
    lv->closing = 1;
    pthread_cond_broadcast(&lv->cv);
    pthread_mutex_unlock(&lv->mu);
}
