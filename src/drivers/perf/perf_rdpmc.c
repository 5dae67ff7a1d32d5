/* rdpmc: reading a counter from user space through the event's mmap page, the
 * seqlock protocol of struct perf_event_mmap_page (include/uapi/linux/
 * perf_event.h, the comment above it): read lock; read index, offset and the
 * times; if cap_user_rdpmc and index != 0, count = offset + the counter
 * sign-extended from pmc_width bits; repeat while lock changed.
 *
 * Used only where it is right: the device counts the calling thread itself
 * (perf_drv.rdpmc_ok), every member of the group is on a counter now (index !=
 * 0), and the group has never been multiplexed (time_enabled == time_running),
 * so the page's times need no TSC extrapolation to scale: the estimate is the
 * count itself. Anything else, or a lock that does not settle within
 * PERF_RDPMC_RETRIES tries, falls back to read(). The right to rdpmc can vanish
 * at any time (cap_user_rdpmc cleared), which is why it is checked on every read. */
#include <linux/perf_event.h>
#include <stddef.h>

#include "drivers/perf/perf_drv.h"

#if defined(__GNUC__)
#define BARRIER() __asm__ volatile("" ::: "memory")
#else
#define BARRIER()
#endif

/* One member: 1 and its count and times, or 0 (not readable by rdpmc now). */
static int read_one(perf_drv *d, volatile struct perf_event_mmap_page *pg, uint64_t *count, uint64_t *en,
                    uint64_t *run)
{
    for (int tries = 0; tries < PERF_RDPMC_RETRIES; tries++) {
        uint32_t seq = pg->lock;
        BARRIER();
        uint32_t idx = pg->index;
        int64_t offset = pg->offset;
        uint64_t e = pg->time_enabled, r = pg->time_running;
        uint16_t width = pg->pmc_width;
        int cap = pg->cap_user_rdpmc;
        if (!cap || !idx || width == 0 || width > 64 || e != r)
            return 0;
        uint64_t pmc = d->sys->rdpmc(d->sys->ctx, idx - 1);
        if (width < 64) {
            /* sign-extend from pmc_width bits, without shifting a negative value */
            uint64_t sign = 1ull << (width - 1), mask = (1ull << width) - 1;
            pmc &= mask;
            pmc = (pmc ^ sign) - sign;
        }
        BARRIER();
        if (pg->lock == seq) {
            *count = (uint64_t)offset + pmc;
            *en = e;
            *run = r;
            return 1;
        }
    }
    return 0;
}

int smn_perf_rdpmc_group(perf_drv *d, size_t gi, uint64_t *values, uint64_t *enabled, uint64_t *running)
{
    const perf_group *g = &d->g[gi];
    if (!d->rdpmc_ok || !d->sys->rdpmc)
        return 0;
    uint64_t en = 0, run = 0;
    for (size_t i = 0; i < g->n; i++) {
        void *page = d->ev[g->first + i].page;
        uint64_t e, r;
        if (!page || !read_one(d, page, &values[i], &e, &r))
            return 0;
        if (i == 0) {
            en = e;
            run = r;
        }
    }
    *enabled = en;
    *running = run;
    return 1;
}
