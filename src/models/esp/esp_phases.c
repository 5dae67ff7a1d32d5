/* Workload phases: the spans of simulated time a script's named parts take (multifft's
 * coherence modes), for the target's op phases. Times are the cycle count in ns, rounded up as
 * now_ns rounds it, so a phase lines up with the samples taken around it. */
#include <math.h>
#include <string.h>

#include "models/esp/esp_internal.h"

static uint64_t cycle_ns(const socmon_esp_soc *soc)
{
    return (uint64_t)ceill((long double)soc->cycles * 1e9L / soc->desc.clock_hz);
}

void smn_esp_phase_end(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    if (!e->phase_open)
        return;
    socmon_phase *p = &e->phases[e->nphases - 1];
    p->t1_ns = cycle_ns(soc);
    e->phase_open = 0;
    if (p->t1_ns <= p->t0_ns)   /* a phase that took no time is no span: drop it */
        e->nphases--;
}

void smn_esp_phase_begin(socmon_esp_soc *soc, const char *name)
{
    esp_engine *e = soc->eng;
    smn_esp_phase_end(soc);
    if (e->nphases == ESP_MAX_PHASES)
        return;   /* the built-in scripts stay well below; a longer one loses its last phases */
    socmon_phase *p = &e->phases[e->nphases++];
    memset(p, 0, sizeof *p);
    strncpy(p->name, name, sizeof p->name - 1);
    p->t0_ns = cycle_ns(soc);
    e->phase_open = 1;
}

size_t smn_esp_soc_phases(const socmon_esp_soc *soc, socmon_phase *out, size_t max)
{
    const esp_engine *e = soc ? soc->eng : NULL;
    if (!e)
        return 0;
    for (size_t i = 0; i < e->nphases && i < max; i++) {
        out[i] = e->phases[i];
        if (e->phase_open && i + 1 == e->nphases)
            out[i].t1_ns = cycle_ns(soc) > out[i].t0_ns ? cycle_ns(soc) : out[i].t0_ns + 1;
    }
    return e->nphases;
}
