/* A simulated Tensix core for the host API and the Python module: an opened
 * "tensix" target (public API only: its bus and its core model), with the
 * three TRISC threads' counter calls around one kernel run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llk_perf_counters.h"
#include "llk_perf_host.h"
#include "socmon/target.h"
#include "socmon/tensix.h"

#define SIM_L1_BASE 0x0ull   /* where the "tensix" target maps L1 */
#define SIM_MAX_OPTIONS 8

struct llk_perf_sim {
    socmon_target *t;
    socmon_tensix_core *core;   /* the target's */
    socmon_bus *bus;            /* the target's */
};

void llk_perf_sim_free(llk_perf_sim *s)
{
    if (!s)
        return;
    socmon_target_close(s->t);
    free(s);
}

/* Checks options ("key=value,...", the keys of socmon_tensix_kernel_params_set; the spec parser
 * cuts them) into p, with messages naming the sim, and makes the target's spec of them: every key
 * but kernel, which the target takes as its workload and the sim sets on the core. */
static socmon_status parse(const char *options, socmon_tensix_kernel_params *p, socmon_spec **target,
                           int *have_kernel)
{
    socmon_spec *given = NULL;
    *target = NULL;
    *have_kernel = 0;
    size_t len = strlen(options ? options : "");
    if (len > 500)
        return socmon_fail(SOCMON_ERANGE, "tensix sim: options longer than 500 characters");
    char text[520];
    snprintf(text, sizeof text, "tensix%s%s", len ? ":" : "", len ? options : "");
    socmon_status st = socmon_spec_parse(text, &given);
    if (st == SOCMON_OK)
        st = socmon_spec_new("tensix", target);
    const socmon_kv *kv = NULL;
    size_t n = socmon_spec_options(given, &kv);
    if (st == SOCMON_OK && n > SIM_MAX_OPTIONS)
        st = socmon_fail(SOCMON_ERANGE, "tensix sim: more than %d options", SIM_MAX_OPTIONS);
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        st = socmon_tensix_kernel_params_set(p, kv[i].key, kv[i].value);
        if (st == SOCMON_OK && strcmp(kv[i].key, "kernel") == 0)
            *have_kernel = 1;
        else if (st == SOCMON_OK)
            st = socmon_spec_set(*target, kv[i].key, kv[i].value);
    }
    socmon_spec_free(given);
    if (st != SOCMON_OK) {
        socmon_spec_free(*target);
        *target = NULL;
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
    socmon_spec *spec = NULL;
    int have_kernel = 0;
    socmon_status st = parse(options, &p, &spec, &have_kernel);
    if (st != SOCMON_OK)
        return st;
    llk_perf_sim *s = calloc(1, sizeof *s);
    if (!s) {
        socmon_spec_free(spec);
        return socmon_fail(SOCMON_ENOMEM, "llk_perf_sim_new: out of memory");
    }
    st = socmon_target_open_spec(spec, &s->t);
    socmon_spec_free(spec);
    if (st != SOCMON_OK) {
        free(s);
        return socmon_fail_prefix(st, "tensix sim: ");
    }
    s->core = socmon_tensix_core_of_target(s->t);
    s->bus = socmon_target_bus(s->t);
    if (have_kernel && (st = socmon_tensix_core_set_kernel(s->core, p.kernel)) != SOCMON_OK) {
        llk_perf_sim_free(s);
        return st;
    }
    /* The target configured its own slots in every thread's L1; the sim starts as a fresh core
     * does, with nothing configured (the host API's configure_counters writes the slots). */
    static const uint32_t none[1];
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; th++)
        st = llk_perf_configure_slots(s->bus, SIM_L1_BASE, th, none, 0);
    if (st != SOCMON_OK) {
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
