/* The "tensix" target: a Tensix core model running one of its kernels
 * (workloads matmul, sfpu, reduce, topk, sync), with the guide's 86 counter
 * slots configured on all three threads.
 *
 * As on the device, each kernel thread starts the counters when the kernel
 * starts and stops them when it ends (llk_perf API over the model bus), so
 * the banks' windows are the kernel's and metrics are not diluted by idle
 * time after it. The device reads OUT_L/OUT_H live while the banks run. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "llk_perf_counters.h"
#include "socmon/target.h"
#include "socmon/tensix.h"

#define L1_BASE 0x0ull

typedef struct tx_target {
    socmon_tensix_core *core;
    socmon_bus *bus;
    socmon_bus_trace *trace;
    socmon_bus *use;              /* bus or its trace wrapper */
    socmon_tensix_drv *drv;
    socmon_device *dev;
    llk_perf_counters pc[3];
    int armed;                    /* kernel running, counters started */
    int ran;                      /* a kernel has been started */
    uint64_t kernel_end;          /* cycle the kernel ends */
    uint64_t ns;                  /* target time */
    double clock_hz;
} tx_target;

static const char *const keys[] = {"tiles", "format", "fidelity", "bound", "platform", "l1_mux",
                                   "trace_bus", NULL};
static const char *const workloads[] = {"matmul", "sfpu", "reduce", "topk", "sync", NULL};

static void tx_close(void *priv)
{
    tx_target *t = priv;
    if (!t)
        return;
    socmon_device_free(t->dev);
    for (unsigned i = 0; i < 3; i++)
        llk_perf_release(&t->pc[i]);
    socmon_tensix_drv_free(t->drv);
    socmon_bus_trace_close(t->trace);
    socmon_bus_free(t->bus);
    socmon_tensix_core_free(t->core);
    free(t);
}

static socmon_status parse(const socmon_kv *o, size_t n, socmon_tensix_kernel_params *p,
                           unsigned *l1_mux)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = o[i].key, *v = o[i].value;
        socmon_status st = SOCMON_OK;
        if (!strcmp(k, "trace_bus"))
            continue;
        if (!strcmp(k, "l1_mux")) {
            if (strcmp(v, "0") && strcmp(v, "1"))
                return socmon_fail(SOCMON_EINVAL, "tensix: l1_mux=%s must be 0 or 1", v);
            *l1_mux = v[0] == '1';
        } else if (!strcmp(k, "tiles") || !strcmp(k, "format") || !strcmp(k, "fidelity") ||
                   !strcmp(k, "bound") || !strcmp(k, "platform")) {
            st = socmon_tensix_kernel_params_set(p, k, v);
        } else {
            return socmon_fail(SOCMON_EINVAL, "tensix: unknown option '%s' (valid: tiles, format, "
                                              "fidelity, bound, platform, l1_mux, trace_bus)", k);
        }
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "tensix: ");
    }
    return SOCMON_OK;
}

static socmon_status tx_open(const socmon_kv *opts, size_t nopts, void **priv, socmon_device **dev)
{
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    p.tiles = 1024;
    unsigned l1_mux = 0;
    socmon_status st = parse(opts, nopts, &p, &l1_mux);
    if (st != SOCMON_OK)
        return st;
    tx_target *t = calloc(1, sizeof *t);
    if (!t)
        return socmon_fail(SOCMON_ENOMEM, "tensix: out of memory");
    uint32_t w[SOCMON_TENSIX_CONFIG_WORDS];
    size_t n = socmon_tensix_default_slots(w, SOCMON_TENSIX_CONFIG_WORDS);
    for (size_t i = 0; i < n; i++) {
        socmon_tensix_slot s;
        socmon_tensix_slot_decode(w[i], &s);
        if (s.bank == SOCMON_TENSIX_BANK_L1)
            w[i] = socmon_tensix_slot_encode(s.bank, s.counter_id, l1_mux);
    }
    if ((st = socmon_bus_model_new(&t->bus)) || (st = socmon_tensix_core_new(&p, &t->core)) ||
        (st = socmon_tensix_core_map(t->core, t->bus, SOCMON_TENSIX_REGS_BASE, L1_BASE)) ||
        (st = socmon_bus_trace_open(opts, nopts, t->bus, &t->use, &t->trace)) ||
        (st = socmon_tensix_drv_new(t->use, SOCMON_TENSIX_REGS_BASE, L1_BASE, &t->drv)))
        goto fail;
    /* What the host's configure_counters does: the same slots on every thread. */
    for (unsigned th = 0; th < SOCMON_TENSIX_NTHREADS && st == SOCMON_OK; th++)
        st = socmon_tensix_drv_store_config(t->drv, th, w, n);
    const socmon_tensix_platform *pf = socmon_tensix_core_params(t->core)->platform;
    t->clock_hz = pf->clock_hz;
    if (st || (st = socmon_tensix_drv_device(t->drv, "tensix", w, n, t->clock_hz, &t->dev)) ||
        (st = socmon_device_set_param(t->dev, "clock_hz", pf->clock_hz)) ||
        (st = socmon_device_set_param(t->dev, "noc_word_bytes", pf->noc_word_bytes)) ||
        (st = socmon_device_set_param(t->dev, "unpack_peak_bpc", pf->unpack_peak_bpc)) ||
        (st = socmon_device_set_param(t->dev, "pack_peak_bpc", pf->pack_peak_bpc)))
        goto fail;
    for (unsigned th = 0; th < 3; th++)
        if ((st = llk_perf_init(&t->pc[th], t->use, SOCMON_TENSIX_REGS_BASE, L1_BASE, th)))
            goto fail;
    *priv = t;
    *dev = t->dev;
    return SOCMON_OK;
fail:
    tx_close(t);
    return st;
}

static socmon_status tx_start(void *priv, const char *workload)
{
    tx_target *t = priv;
    socmon_tensix_kernel kernel = SOCMON_TENSIX_KERNEL_MATMUL;
    if (workload && socmon_tensix_kernel_parse(workload, &kernel) != SOCMON_OK)
        return socmon_fail(SOCMON_ENOENT, "tensix: workload '%s' unknown (valid: %s)", workload,
                           SOCMON_TENSIX_KERNEL_NAMES);
    socmon_status st;
    if ((st = socmon_tensix_core_set_kernel(t->core, kernel)) != SOCMON_OK)
        return st;
    for (unsigned th = 0; th < 3; th++)
        if ((st = llk_perf_start(&t->pc[th])) != SOCMON_OK)
            return st;
    if ((st = socmon_tensix_core_kernel_start(t->core)) != SOCMON_OK)
        return st;
    socmon_tensix_stage_costs k;
    if ((st = socmon_tensix_kernel_costs(socmon_tensix_core_params(t->core), &k)) != SOCMON_OK)
        return st;
    t->kernel_end = socmon_tensix_core_now(t->core) + k.total;
    t->armed = t->ran = 1;
    return SOCMON_OK;
}

static socmon_status tx_advance(void *priv, uint64_t ns, int *done)
{
    tx_target *t = priv;
    t->ns += ns;
    uint64_t target = (uint64_t)((double)t->ns * t->clock_hz / 1e9);
    uint64_t now = socmon_tensix_core_now(t->core);
    uint64_t cycles = target > now ? target - now : 0;
    socmon_status st;
    if (t->armed && now + cycles >= t->kernel_end) {
        if ((st = socmon_tensix_core_advance(t->core, t->kernel_end - now, NULL)) != SOCMON_OK)
            return st;
        cycles -= t->kernel_end - now;
        t->armed = 0;
        /* Each thread stops at the end of its kernel; the first stop freezes. */
        for (unsigned th = 0; th < 3; th++) {
            st = llk_perf_stop(&t->pc[th], NULL, NULL);
            if (st != SOCMON_OK && st != SOCMON_EUNDEF)
                return st;
        }
    }
    if ((st = socmon_tensix_core_advance(t->core, cycles, NULL)) != SOCMON_OK)
        return st;
    if (done)
        *done = t->ran && !t->armed;
    return SOCMON_OK;
}

static uint64_t tx_now(void *priv)
{
    const tx_target *t = priv;
    return t->ns;
}

const socmon_target_ops socmon_target_tensix_ops = {
    .name = "tensix",
    .desc = "Tensix core model: five counter banks, 86 slots on three threads, "
            "kernels matmul, sfpu, reduce, topk, sync",
    .options_help = "bound=B       natural (default), math, unpack, pack or balanced\n"
                    "tiles=N       tiles the kernel processes (default 1024)\n"
                    "format=F      Float32, Float16, Float16_b (default), Bfp8_b, Bfp4_b\n"
                    "fidelity=F    LoFi (default), HiFi2, HiFi3, HiFi4\n"
                    "platform=P    wormhole_b0 (default), blackhole, quasar\n"
                    "l1_mux=M      L1 signal set for the L1 slots: 0 (ring 0, default) or 1\n"
                    "trace_bus=F   log every register access to F ('-' = stderr)\n",
    .option_keys = keys,
    .workloads = workloads,
    .metrics = "tensix",
    .simulated = 1,
    .hotspots = "instrn_thread.WAITING_FOR_*",
    .open = tx_open,
    .start = tx_start,
    .advance = tx_advance,
    .now_ns = tx_now,
    .close = tx_close,
};
