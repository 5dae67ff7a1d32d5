/* Device-side Tensix counters API (llk_perf_counters.h) over the public
 * Tensix driver (socmon/tensix.h). */
#include <stdio.h>
#include <string.h>

#include "llk_perf_counters.h"
#include "socmon/tensix.h"

_Static_assert(LLK_PERF_COUNTER_SLOT_COUNT == SOCMON_TENSIX_CONFIG_WORDS,
               "a thread's slots are the driver's config words");

socmon_status llk_perf_init(llk_perf_counters *pc, socmon_bus *bus, uint64_t regs_base,
                            uint64_t l1_base, unsigned thread)
{
    if (!pc)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_init: pc is NULL");
    memset(pc, 0, sizeof *pc);
    if (thread >= SOCMON_TENSIX_NTHREADS)
        return pc->status = socmon_fail(SOCMON_ERANGE,
                                        "llk_perf_init: thread %u out of range 0..2 (UNPACK, MATH, PACK)",
                                        thread);
    socmon_tensix_drv *d;
    socmon_status st = socmon_tensix_drv_new(bus, regs_base, l1_base, &d);
    if (st != SOCMON_OK)
        return pc->status = st;
    pc->bus = bus;
    pc->regs_base = regs_base;
    pc->l1_base = l1_base;
    pc->thread = thread;
    pc->drv = d;
    return SOCMON_OK;
}

void llk_perf_release(llk_perf_counters *pc)
{
    if (!pc)
        return;
    socmon_tensix_drv_free(pc->drv);
    pc->drv = NULL;
}

socmon_status llk_perf_start(llk_perf_counters *pc)
{
    if (!pc || !pc->drv)
        return socmon_fail(SOCMON_ESTATE, "llk_perf_start: counters not initialised (call llk_perf_init)");
    socmon_status st = socmon_tensix_drv_thread_start(pc->drv, pc->thread, pc->config);
    if (st != SOCMON_OK)
        st = socmon_fail_prefix(st, "llk_perf_start (thread %s): ",
                                socmon_tensix_thread_name(pc->thread));
    pc->started = st == SOCMON_OK;
    pc->stopped = 0;
    pc->nresults = 0;
    return pc->status = st;
}

socmon_status llk_perf_stop(llk_perf_counters *pc, const llk_perf_counter_result **results, size_t *n)
{
    if (!pc || !pc->drv || !pc->started)
        return socmon_fail(SOCMON_ESTATE, "llk_perf_stop: counters were not started");
    socmon_tensix_result r[SOCMON_TENSIX_CONFIG_WORDS];
    size_t nr = 0;
    /* The driver stops the banks, reads the slots and writes the pairs to L1. */
    socmon_status st = socmon_tensix_drv_thread_stop(pc->drv, pc->thread, pc->config, r,
                                                     SOCMON_TENSIX_CONFIG_WORDS, &nr);
    pc->stopped = 1;
    if (st != SOCMON_OK && st != SOCMON_EUNDEF)
        return pc->status = st;
    for (size_t k = 0; k < nr; k++) {
        llk_perf_counter_result *o = &pc->results[k];
        o->cycles = r[k].cycles;
        o->count = r[k].count;
        o->bank = (llk_perf_counter_bank)r[k].bank;
        o->counter_id = r[k].counter_id;
        o->undefined = r[k].undefined;
    }
    pc->nresults = nr;
    if (results)
        *results = pc->results;
    if (n)
        *n = nr;
    if (st != SOCMON_OK)
        return pc->status = socmon_fail_prefix(st, "llk_perf_stop (thread %s): ",
                                               socmon_tensix_thread_name(pc->thread));
    return pc->status = SOCMON_OK;
}

socmon_status llk_perf_scoped_begin(llk_perf_counters *pc, socmon_bus *bus, uint64_t regs_base,
                                    uint64_t l1_base, unsigned thread)
{
    socmon_status st = llk_perf_init(pc, bus, regs_base, l1_base, thread);
    return st == SOCMON_OK ? llk_perf_start(pc) : st;
}

void llk_perf_scoped_end(llk_perf_counters *pc)
{
    if (pc && pc->started && !pc->stopped)
        (void)llk_perf_stop(pc, NULL, NULL);
    llk_perf_release(pc);
}
