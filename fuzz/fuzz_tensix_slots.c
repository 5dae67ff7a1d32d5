/* Fuzzes everything that decodes counter slots and result pairs from L1:
 * slot validation, the device-side start/stop over a core model, the host's
 * read_counters, metrics and printing. Input: up to 3 x 86 config words and
 * the data words that follow, little-endian. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "socmon/tensix.h"
#include "llk_perf_counters.h"
#include "llk_perf_host.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static llk_perf_sim *sim;   /* one core for all runs: L1 is rewritten each time */
    if (!sim && llk_perf_sim_new("tiles=4", &sim) != SOCMON_OK)
        return 0;
    socmon_bus *bus = llk_perf_sim_bus(sim);
    uint32_t w[SOCMON_TENSIX_CONFIG_WORDS + SOCMON_TENSIX_DATA_WORDS];
    for (unsigned t = 0; t < SOCMON_TENSIX_NTHREADS; t++) {
        memset(w, 0, sizeof w);
        size_t take = size < sizeof w ? size : sizeof w;
        memcpy(w, data, take);
        data += take;
        size -= take;
        size_t nv;
        (void)socmon_tensix_slots_check(w, SOCMON_TENSIX_CONFIG_WORDS, NULL, &nv);
        uint64_t a = socmon_tensix_config_addr(t);
        for (size_t i = 0; i < sizeof w / 4; i++)
            socmon_bus_write32(bus, a + 4 * i, w[i]);
    }
    llk_perf_results *r = NULL;
    if (llk_perf_read_counters(bus, 0, &r) == SOCMON_OK) {
        char buf[256];
        llk_perf_format_counters(r, buf, sizeof buf, NULL);
        llk_perf_metrics *m = NULL;
        if (llk_perf_compute_metrics(r, NULL, &m) == SOCMON_OK) {
            llk_perf_format_metrics(m, buf, sizeof buf, NULL);
            llk_perf_metrics_free(m);
        }
        llk_perf_results_free(r);
    }
    /* The device side on the same slots: start, a few cycles, stop. */
    llk_perf_counters pc;
    if (llk_perf_init(&pc, bus, llk_perf_sim_regs_base(sim), 0, SOCMON_TENSIX_THREAD_MATH) == SOCMON_OK) {
        if (llk_perf_start(&pc) == SOCMON_OK)
            (void)llk_perf_stop(&pc, NULL, NULL);
        llk_perf_release(&pc);
    }
    return 0;
}
