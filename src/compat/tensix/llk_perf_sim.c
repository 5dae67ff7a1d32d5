/* A simulated Tensix core for the host API and the Python module: the core
 * model on a model bus, with the three TRISC threads' counter calls around
 * one kernel run. */
#include <stdlib.h>
#include <string.h>

#include "llk_perf_counters.h"
#include "llk_perf_host.h"
#include "socmon/tensix.h"

#define SIM_L1_BASE 0x0ull

struct llk_perf_sim {
    socmon_tensix_core *core;
    socmon_bus *bus;
};

void llk_perf_sim_free(llk_perf_sim *s)
{
    if (!s)
        return;
    socmon_bus_free(s->bus);
    socmon_tensix_core_free(s->core);
    free(s);
}

static socmon_status parse(const char *options, socmon_tensix_kernel_params *p)
{
    if (!options || !*options)
        return SOCMON_OK;
    char buf[512];
    if (strlen(options) >= sizeof buf)
        return socmon_fail(SOCMON_ERANGE, "tensix sim: options longer than %zu characters", sizeof buf - 1);
    strcpy(buf, options);
    char *save = NULL;
    for (char *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            return socmon_fail(SOCMON_EINVAL, "tensix sim: option '%s' is not key=value", kv);
        *eq = '\0';
        socmon_status st = socmon_tensix_kernel_params_set(p, kv, eq + 1);
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "tensix sim: ");
    }
    return SOCMON_OK;
}

socmon_status llk_perf_sim_new(const char *options, llk_perf_sim **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_sim_new: out is NULL");
    *out = NULL;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    socmon_status st = parse(options, &p);
    if (st != SOCMON_OK)
        return st;
    llk_perf_sim *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "llk_perf_sim_new: out of memory");
    if ((st = socmon_tensix_core_new(&p, &s->core)) || (st = socmon_bus_model_new(&s->bus)) ||
        (st = socmon_tensix_core_map(s->core, s->bus, SOCMON_TENSIX_REGS_BASE, SIM_L1_BASE))) {
        llk_perf_sim_free(s);
        return st;
    }
    *out = s;
    return SOCMON_OK;
}

socmon_bus *llk_perf_sim_bus(const llk_perf_sim *s)
{
    return s ? s->bus : NULL;
}

uint64_t llk_perf_sim_l1_base(const llk_perf_sim *s)
{
    (void)s;
    return SIM_L1_BASE;
}

uint64_t llk_perf_sim_regs_base(const llk_perf_sim *s)
{
    (void)s;
    return SOCMON_TENSIX_REGS_BASE;
}

const char *llk_perf_sim_platform(const llk_perf_sim *s)
{
    return s ? socmon_tensix_core_params(s->core)->platform->name : "";
}

socmon_status llk_perf_sim_kernel(llk_perf_sim *s)
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_sim_kernel: sim is NULL");
    socmon_tensix_stage_costs k;
    socmon_status st = socmon_tensix_kernel_costs(socmon_tensix_core_params(s->core), &k);
    if (st == SOCMON_OK)
        st = socmon_tensix_core_kernel_start(s->core);
    if (st == SOCMON_OK)
        st = socmon_tensix_core_advance(s->core, k.total, NULL);
    return st;
}

socmon_status llk_perf_sim_run(llk_perf_sim *s)
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "llk_perf_sim_run: sim is NULL");
    llk_perf_counters pc[SOCMON_TENSIX_NTHREADS];
    socmon_status st = SOCMON_OK, undef = SOCMON_OK;
    unsigned ninit = 0;
    for (; ninit < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; ninit++)
        if ((st = llk_perf_init(&pc[ninit], s->bus, SOCMON_TENSIX_REGS_BASE, SIM_L1_BASE, ninit)) == SOCMON_OK)
            st = llk_perf_start(&pc[ninit]);
    /* Exactly the kernel: the threads stop the counters the cycle it ends. */
    if (st == SOCMON_OK)
        st = llk_perf_sim_kernel(s);
    char msg[512] = "";
    for (unsigned t = 0; t < ninit; t++) {
        if (st == SOCMON_OK) {
            socmon_status s2 = llk_perf_stop(&pc[t], NULL, NULL);
            if (s2 == SOCMON_EUNDEF && undef == SOCMON_OK) {
                undef = s2;
                snprintf(msg, sizeof msg, "%s", socmon_errmsg());
            } else if (s2 != SOCMON_OK && s2 != SOCMON_EUNDEF) {
                st = s2;
            }
        }
        llk_perf_release(&pc[t]);
    }
    if (st == SOCMON_OK && undef != SOCMON_OK)
        return socmon_fail(undef, "%s", msg);
    return st;
}
