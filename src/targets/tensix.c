/* The "tensix" target: a Tensix core model running one of its kernels
 * (workloads matmul, sfpu, reduce, topk, sync), with the guide's 86 counter
 * slots (or the counters= selection, raw 9-bit ids included) configured on
 * all three threads.
 *
 * As on the device, each kernel thread starts the counters when the kernel
 * starts and stops them when it ends (the driver's thread calls, which the
 * llk_perf compat API is a layer over), so the banks' windows are the
 * kernel's and metrics are not diluted by idle time after it. The device
 * reads OUT_L/OUT_H live while the banks run. */
#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/tensix/tensix_drv.h"
#include "models/tensix/tensix_model.h"
#include "socmon/tensix.h"
#include "targets/model_target.h"

#define L1_BASE 0x0ull

typedef struct tx_opts {
    socmon_tensix_kernel_params kernel;
    int l1_mux;
    const char *counters;
    const char *trace_bus;
    unsigned driver;
} tx_opts;

/* The driver side and the kernel's window; the core is the model. */
typedef struct tx_state {
    socmon_tensix_kernel_params params;
    unsigned l1_mux;
    uint32_t slots[SOCMON_TENSIX_CONFIG_WORDS];   /* what every thread's config holds */
    size_t nslots;
    socmon_tensix_drv *drv;       /* the sampling device's */
    /* Each kernel thread's own driver, as each TRISC runs its own counter calls: a driver
     * remembers the L1 mux it started with, and the device's must not see the threads'. */
    socmon_tensix_drv *thread_drv[SOCMON_TENSIX_NTHREADS];
    uint32_t thread_slots[SOCMON_TENSIX_NTHREADS][SOCMON_TENSIX_CONFIG_WORDS];   /* as each started */
    int armed;                    /* kernel running, counters started */
    int ran;                      /* a kernel has been started */
    uint64_t kernel_end;          /* cycle the kernel ends */
    uint64_t ns;                  /* target time */
    double clock_hz;
} tx_state;

/* The kernel parameters' vocabularies belong to the model: its parser checks them. */
static socmon_status kernel_param(const socmon_option *opt, const char *v, void *out)
{
    return socmon_tensix_kernel_params_set(&((tx_opts *)out)->kernel, opt->name, v);
}

/* For the help; a test checks the model accepts each. */
static const char *const formats[] = {"Float32", "Float16", "Float16_b", "Bfp8_b", "Bfp4_b", NULL};
static const char *const fidelities[] = {"LoFi", "HiFi2", "HiFi3", "HiFi4", NULL};
static const char *const bounds[] = {"natural", "math", "unpack", "pack", "balanced", NULL};
static const char *const platforms[] = {"wormhole_b0", "wormhole", "blackhole", "quasar", NULL};

#define KERNEL_PARAM(n, t, h, d, ch)                                                               \
    {.name = n, .type = t, .help = h, .def = d, .choices = ch, .lo = 1, .hi = 16777216,            \
     .offset = offsetof(tx_opts, kernel), .parse = kernel_param}

static const socmon_option tx_options[] = {
    KERNEL_PARAM("tiles", SOCMON_OPT_UINT, "tiles the kernel processes", "1024", NULL),
    KERNEL_PARAM("format", SOCMON_OPT_CHOICE, "tile data format", "Float16_b", formats),
    KERNEL_PARAM("fidelity", SOCMON_OPT_CHOICE, "math fidelity", "LoFi", fidelities),
    KERNEL_PARAM("bound", SOCMON_OPT_CHOICE, "which stage the kernel's costs make the bottleneck", "natural",
                 bounds),
    KERNEL_PARAM("platform", SOCMON_OPT_CHOICE, "chip generation (clock, NoC and unpack/pack widths)",
                 "wormhole_b0", platforms),
    {.name = "l1_mux", .type = SOCMON_OPT_BOOL, .help = "L1 signal set for the L1 slots: ring 0 or ring 1",
     .def = "0", .offset = offsetof(tx_opts, l1_mux)},
    {.name = "counters", .type = SOCMON_OPT_LIST, .arg = "BANK[:ID]+...",
     .help = "configure only these slots (default: the guide's 86): a bank name for all its documented "
             "counters, BANK:ID for one 9-bit select 0..511, documented or not (FPU:300 reads as "
             "fpu.FPU_UNKNOWN_300)",
     .hi = SOCMON_TENSIX_CONFIG_WORDS, .offset = offsetof(tx_opts, counters)},
    SOCMON_OPTION_TRACE_BUS(tx_opts),
    SOCMON_OPTION_DRIVER(tx_opts),
    {0},
};

static const char *const workloads[] = {"matmul", "sfpu", "reduce", "topk", "sync", NULL};

static socmon_status add_slot(tx_state *t, const char *item, uint32_t w)
{
    if (t->nslots == SOCMON_TENSIX_CONFIG_WORDS)
        return socmon_fail(SOCMON_ERANGE, "tensix: counters=...%s: more than %u slots", item,
                           SOCMON_TENSIX_CONFIG_WORDS);
    t->slots[t->nslots++] = w;
    return SOCMON_OK;
}

/* One item of counters=: "FPU" (the bank's documented counters) or "FPU:300". */
static socmon_status parse_item(tx_state *t, const char *item)
{
    char bank_name[32];
    const char *colon = strchr(item, ':');
    size_t len = colon ? (size_t)(colon - item) : strlen(item);
    if (len == 0 || len >= sizeof bank_name)
        return socmon_fail(SOCMON_EINVAL, "tensix: counters item '%s' must be BANK or BANK:ID", item);
    memcpy(bank_name, item, len);
    bank_name[len] = '\0';
    unsigned bank;
    socmon_status st = socmon_tensix_bank_by_name(bank_name, &bank);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "tensix: counters item '%s': ", item);
    unsigned mux = bank == SOCMON_TENSIX_BANK_L1 ? t->l1_mux : 0;
    if (colon) {
        /* decimal, or hex after 0x: never strtoul's base 0, which reads
         * "010" as octal 8, and never a sign or leading space */
        const char *num = colon + 1;
        int hex = num[0] == '0' && (num[1] == 'x' || num[1] == 'X');
        if (hex)
            num += 2;
        char *end = (char *)num;
        unsigned long id = isxdigit((unsigned char)*num) && (hex || isdigit((unsigned char)*num))
                               ? strtoul(num, &end, hex ? 16 : 10)
                               : 512;
        if (end == num || *end || id > 511)
            return socmon_fail(SOCMON_ERANGE, "tensix: counters item '%s': counter id must be 0..511 (decimal, or hex after 0x)", item);
        return add_slot(t, item, socmon_tensix_slot_encode(bank, (unsigned)id, mux));
    }
    for (size_t i = 0; i < socmon_tensix_nevents() && st == SOCMON_OK; i++) {
        const socmon_tensix_event *e = socmon_tensix_event_at(i);
        if (e->bank == bank && e->l1_mux == mux)
            st = add_slot(t, item, socmon_tensix_slot_encode(bank, e->counter_id, mux));
    }
    return st;
}

static socmon_status tx_prepare(smn_model_target *mt)
{
    const tx_opts *o = mt->opts;
    tx_state *t = mt->priv;
    t->params = o->kernel;
    t->l1_mux = (unsigned)o->l1_mux;
    t->nslots = 0;
    if (!o->counters) {
        /* The guide's configuration, L1 on the chosen mux. */
        t->nslots = socmon_tensix_default_slots(t->slots, SOCMON_TENSIX_CONFIG_WORDS);
        for (size_t i = 0; i < t->nslots; i++) {
            socmon_tensix_slot s;
            socmon_tensix_slot_decode(t->slots[i], &s);
            if (s.bank == SOCMON_TENSIX_BANK_L1)
                t->slots[i] = socmon_tensix_slot_encode(s.bank, s.counter_id, t->l1_mux);
        }
        return SOCMON_OK;
    }
    char item[64];
    for (const char *p = o->counters; *p;) {
        size_t len = strcspn(p, "+");
        if (len >= sizeof item)
            return socmon_fail(SOCMON_EINVAL, "tensix: counters item '%.*s...' too long", 20, p);
        memcpy(item, p, len);
        item[len] = '\0';
        if (len == 0 || (p[len] == '+' && !p[len + 1]))
            return socmon_fail(SOCMON_EINVAL, "tensix: counters '%s' has an empty item (items are "
                               "joined by single '+')", o->counters);
        socmon_status st = parse_item(t, item);
        if (st != SOCMON_OK)
            return st;
        p += len + (p[len] == '+');
    }
    return socmon_tensix_slots_check(t->slots, t->nslots, NULL, NULL);
}

static socmon_status tx_model_new(smn_model_target *mt, void **model)
{
    return smn_tensix_core_new(&((tx_state *)mt->priv)->params, (socmon_tensix_core **)model);
}

static socmon_status tx_map(smn_model_target *mt, socmon_bus *bus)
{
    /* the target's clock is the core's, with or without a driver (driver=none) */
    ((tx_state *)mt->priv)->clock_hz = socmon_tensix_core_params(mt->model)->platform->clock_hz;
    return smn_tensix_core_map(mt->model, bus, SOCMON_TENSIX_REGS_BASE, L1_BASE);
}

static socmon_status tx_device_new(smn_model_target *mt, socmon_bus *bus, socmon_device **dev)
{
    tx_state *t = mt->priv;
    const uint32_t *w = t->slots;
    size_t n = t->nslots;
    socmon_status st = socmon_tensix_drv_new(bus, SOCMON_TENSIX_REGS_BASE, L1_BASE, &t->drv);
    /* What the host's configure_counters does: the same slots on every thread. */
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; th++)
        st = socmon_tensix_drv_store_config(t->drv, th, w, n);
    if (st)
        return st;
    const socmon_tensix_platform *pf = socmon_tensix_core_params(mt->model)->platform;
    t->clock_hz = pf->clock_hz;
    if ((st = smn_tensix_drv_device(t->drv, "tensix", w, n, t->clock_hz, dev)) ||
        (st = socmon_device_set_param(*dev, "clock_hz", pf->clock_hz)) ||
        (st = socmon_device_set_param(*dev, "noc_word_bytes", pf->noc_word_bytes)) ||
        (st = socmon_device_set_param(*dev, "unpack_peak_bpc", pf->unpack_peak_bpc)) ||
        (st = socmon_device_set_param(*dev, "pack_peak_bpc", pf->pack_peak_bpc)))
        return st;
    /* The stage bound= built the kernel to stress (0 math, 1 unpack, 2 pack: the order of the
     * bound metric's labels), so the findings can say when the counts point elsewhere; a
     * natural or balanced kernel, like silicon, states none (metrics/tensix.findings.json). */
    socmon_tensix_bound b = socmon_tensix_core_params(mt->model)->bound;
    if (b == SOCMON_TENSIX_BOUND_MATH || b == SOCMON_TENSIX_BOUND_UNPACK || b == SOCMON_TENSIX_BOUND_PACK)
        st = socmon_device_set_param(*dev, "built_bound", (double)(b - SOCMON_TENSIX_BOUND_MATH));
    if (st)
        return st;
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; th++)
        st = socmon_tensix_drv_new(bus, SOCMON_TENSIX_REGS_BASE, L1_BASE, &t->thread_drv[th]);
    return st;
}

static void tx_unbind(smn_model_target *mt)
{
    tx_state *t = mt->priv;
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS; th++)
        socmon_tensix_drv_free(t->thread_drv[th]);
    socmon_tensix_drv_free(t->drv);
}

static void tx_model_free(void *model)
{
    smn_tensix_core_free(model);
}

static socmon_status tx_start(smn_model_target *mt, const char *workload)
{
    tx_state *t = mt->priv;
    socmon_tensix_core *core = mt->model;
    socmon_tensix_kernel kernel = SOCMON_TENSIX_KERNEL_MATMUL;
    if (workload && socmon_tensix_kernel_parse(workload, &kernel) != SOCMON_OK)
        return socmon_fail(SOCMON_ENOENT, "tensix: workload '%s' unknown (valid: %s)", workload,
                           SOCMON_TENSIX_KERNEL_NAMES);
    socmon_status st;
    if ((st = socmon_tensix_core_set_kernel(core, kernel)) != SOCMON_OK)
        return st;
    /* driver=none: the kernel runs, but nobody starts the counters: the user's driver does */
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && !mt->no_driver; th++)
        if ((st = socmon_tensix_drv_thread_start(t->thread_drv[th], th, t->thread_slots[th])) != SOCMON_OK)
            return socmon_fail_prefix(st, "tensix: thread %s: ", socmon_tensix_thread_name(th));
    if ((st = socmon_tensix_core_kernel_start(core)) != SOCMON_OK)
        return st;
    socmon_tensix_stage_costs k;
    if ((st = socmon_tensix_kernel_costs(socmon_tensix_core_params(core), &k)) != SOCMON_OK)
        return st;
    t->kernel_end = socmon_tensix_core_now(core) + k.total;
    t->armed = t->ran = 1;
    return SOCMON_OK;
}

static socmon_status tx_advance(smn_model_target *mt, uint64_t ns, int *done)
{
    tx_state *t = mt->priv;
    socmon_tensix_core *core = mt->model;
    t->ns += ns;
    uint64_t target_ns = t->ns;
    uint64_t target = (uint64_t)((double)t->ns * t->clock_hz / 1e9);
    uint64_t now = socmon_tensix_core_now(core);
    uint64_t cycles = target > now ? target - now : 0;
    socmon_status st;
    if (t->armed && now + cycles >= t->kernel_end) {
        if ((st = socmon_tensix_core_advance(core, t->kernel_end - now, NULL)) != SOCMON_OK)
            return st;
        /* The kernel ends inside this step: the clock stops at its end (the
         * first whole ns at or after its last cycle), so the run is the
         * kernel's own length whatever the step. */
        cycles = 0;
        t->ns = (uint64_t)ceill((long double)t->kernel_end * 1e9L / t->clock_hz);
        if (t->ns > target_ns)
            t->ns = target_ns;
        t->armed = 0;
        /* Each thread stops at the end of its kernel; the first stop freezes. */
        for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && !mt->no_driver; th++) {
            socmon_tensix_result r[SOCMON_TENSIX_CONFIG_WORDS];
            size_t nr = 0;
            st = socmon_tensix_drv_thread_stop(t->thread_drv[th], th, t->thread_slots[th], r,
                                               SOCMON_TENSIX_CONFIG_WORDS, &nr);
            if (st != SOCMON_OK && st != SOCMON_EUNDEF)
                return st;
        }
    }
    if ((st = socmon_tensix_core_advance(core, cycles, NULL)) != SOCMON_OK)
        return st;
    if (done)
        *done = t->ran && !t->armed;
    return SOCMON_OK;
}

static uint64_t tx_now(smn_model_target *mt)
{
    return ((const tx_state *)mt->priv)->ns;
}

static const smn_model_target_decl tx_decl = {
    .opts_size = sizeof(tx_opts),
    .priv_size = sizeof(tx_state),
    .prepare = tx_prepare,
    .model_new = tx_model_new,
    .map = tx_map,
    .device_new = tx_device_new,
    .start = tx_start,
    .advance = tx_advance,
    .now_ns = tx_now,
    .unbind = tx_unbind,
    .model_free = tx_model_free,
};

const socmon_target_ops smn_target_tensix_ops = {
    .name = "tensix",
    .desc = "Tensix core model: five counter banks, 86 slots on three threads, "
            "kernels matmul, sfpu, reduce, topk, sync",
    .options = tx_options,
    .workloads = workloads,
    .metrics = "tensix",
    .simulated = 1,
    .hotspots = "instrn_thread.WAITING_FOR_*",
    SOCMON_MODEL_TARGET_OPS(tx_decl),
    .min_interval_ns = 1000, /* one sample reads 86 slots, two registers each */
};

socmon_tensix_core *socmon_tensix_core_of_target(const socmon_target *t)
{
    return socmon_target_model(t, "tensix");
}
