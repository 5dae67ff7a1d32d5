/* TEMPORARY: time only; the workload model replaces this file within the hour. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

struct esp_engine { int running; };

socmon_status esp_engine_new(socmon_esp_soc *soc)
{
    soc->eng = calloc(1, sizeof *soc->eng);
    return soc->eng ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "esp: out of memory");
}
void esp_engine_free(socmon_esp_soc *soc) { free(soc->eng); soc->eng = NULL; }
void esp_engine_reset(socmon_esp_soc *soc) { soc->eng->running = 0; }

static const char *const workloads[] = {"multifft", "cpu_stream", "acc_sweep", "noc_stress", "idle", NULL};
const char *const *socmon_esp_workloads(void) { return workloads; }

socmon_status socmon_esp_soc_start(socmon_esp_soc *soc, const char *workload)
{
    if (!soc) return socmon_fail(SOCMON_EINVAL, "esp start: soc is NULL");
    if (!workload) workload = workloads[0];
    for (unsigned i = 0; workloads[i]; i++)
        if (strcmp(workloads[i], workload) == 0) { soc->eng->running = 1; return SOCMON_OK; }
    return socmon_fail(SOCMON_ENOENT, "esp: unknown workload '%s'", workload);
}

socmon_status socmon_esp_soc_advance(socmon_esp_soc *soc, uint64_t ns, int *done)
{
    if (!soc) return socmon_fail(SOCMON_EINVAL, "esp advance: soc is NULL");
    soc->ns += ns;
    uint64_t target = (uint64_t)((double)soc->ns * soc->desc.clock_hz / 1e9);
    if (target > soc->cycles) {
        uint64_t n = target - soc->cycles;
        for (unsigned t = 0; t < soc->ntiles; t++)
            esp_count(soc, t, SOCMON_ESP_MON_DVFS + soc->tiles[t].op_point, n);
        soc->cycles = target;
    }
    if (done) *done = 1;
    return SOCMON_OK;
}

socmon_status socmon_esp_soc_cpu_access(socmon_esp_soc *soc, unsigned cpu_ordinal,
                                        uint64_t loads, uint64_t stores, uint64_t footprint_bytes)
{ return socmon_fail(SOCMON_ENOTSUP, "esp cpu_access: workload model not landed yet"); }
socmon_status socmon_esp_soc_acc_invoke(socmon_esp_soc *soc, unsigned acc_ordinal,
                                        uint64_t bytes, socmon_esp_coherence mode)
{ return socmon_fail(SOCMON_ENOTSUP, "esp acc_invoke: workload model not landed yet"); }
