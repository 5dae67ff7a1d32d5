/* Built-in workloads: scripts of activities, built for the SoC at hand.
 *
 * Accelerator runs go through esp_run_like(), which flushes caches the way
 * ESP's esp_run() does before an invocation: L2s and LLC before non-coherent
 * DMA, L2s before LLC-coherent DMA, nothing for coherent DMA and fully
 * coherent mode. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/grow.h"
#include "models/esp/esp_internal.h"

#define KIB 1024u
#define FFT_BUF (32u * KIB)        /* 2^12 complex points of 2x32 bits */
#define GAP 2000u                  /* cycles of CPU "printf" between phases */

static const char *const names[] = {"multifft", "cpu_stream", "acc_sweep", "noc_stress", "idle",
                                    "acc_none",  "acc_llc",    "acc_dma",   "acc_full",   NULL};

const char *const *socmon_esp_workloads(void)
{
    return names;
}

socmon_status smn_esp_script_add(esp_engine *e, const esp_spec *s)
{
    if (SOCMON_GROW(e->script, e->capscript, e->nscript, 64))
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for a workload script");
    e->script[e->nscript++] = *s;
    return SOCMON_OK;
}

typedef struct builder {
    socmon_esp_soc *soc;
    esp_engine *e;
    unsigned g;
    socmon_status st;
    const char *phase;   /* the phase the next activity begins (esp_phases.c), or NULL */
} builder;

static void add(builder *b, esp_spec s)
{
    s.group = b->g;
    s.phase = b->phase;
    b->phase = NULL;
    if (b->st == SOCMON_OK)
        b->st = smn_esp_script_add(b->e, &s);
}

static void next(builder *b)
{
    b->g++;
}

static void cpu(builder *b, unsigned ord, uint64_t loads, uint64_t stores, uint64_t fp, unsigned buf)
{
    add(b, (esp_spec){.kind = ACT_CPU, .ord = ord, .a = loads, .b = stores, .c = fp, .buf = buf});
}

static void idle(builder *b, uint64_t cycles)
{
    add(b, (esp_spec){.kind = ACT_IDLE, .a = cycles});
    next(b);
}

/* The flush esp_run() does for mode, then the invocation, each its own group. */
static void esp_run_like(builder *b, unsigned acc, uint64_t bytes, socmon_esp_coherence mode,
                         unsigned buf)
{
    if (!b->soc->desc.cache_hierarchy)
        mode = SOCMON_ESP_COH_NONE;
    if (b->soc->desc.cache_hierarchy &&
        (mode == SOCMON_ESP_COH_NONE || mode == SOCMON_ESP_COH_LLC)) {
        add(b, (esp_spec){.kind = ACT_FLUSH, .flag = mode == SOCMON_ESP_COH_NONE});
        next(b);
    }
    add(b, (esp_spec){.kind = ACT_ACC, .ord = acc, .a = bytes, .mode = mode, .buf = buf});
}

static int first_acc_with_l2(const builder *b)
{
    for (unsigned i = 0; i < b->e->nacc; i++)
        if (b->soc->desc.tiles[b->e->acc[i]].has_l2)
            return (int)i;
    return -1;
}

/* Like ESP's multifft_mon: the FFT accelerator in non-coherent, LLC-coherent
 * and fully coherent mode, each between a CPU pass that writes the input and
 * one that checks the output, then every accelerator at once in coherent-DMA
 * mode (ESP's example runs three concurrently). */
static void multifft(builder *b)
{
    const uint64_t words = FFT_BUF / 8;
    static const socmon_esp_coherence modes[] = {SOCMON_ESP_COH_NONE, SOCMON_ESP_COH_LLC,
                                                 SOCMON_ESP_COH_FULL};
    /* Each mode is a phase from its input pass to the gap after its check (docs/esp-model.md). */
    static const char *const phase[] = {"non_coherent", "llc_coherent", "fully_coherent"};
    int l2acc = first_acc_with_l2(b);
    for (unsigned m = 0; m < 3 && b->e->nacc; m++) {
        unsigned acc = modes[m] == SOCMON_ESP_COH_FULL ? (unsigned)l2acc : 0;
        if (modes[m] == SOCMON_ESP_COH_FULL && (l2acc < 0 || !b->soc->desc.cache_hierarchy))
            continue;
        b->phase = phase[m];
        cpu(b, 0, 0, words, FFT_BUF, 0);
        next(b);
        esp_run_like(b, acc, 2 * FFT_BUF, modes[m], 0);
        next(b);
        cpu(b, 0, words, 0, FFT_BUF, 0);
        next(b);
        idle(b, GAP);
    }
    unsigned ncpu = b->e->ncpu, nacc = b->e->nacc;
    b->phase = "coherent_dma";
    for (unsigned r = 0; r * ncpu < nacc; r++) {
        for (unsigned c = 0; c < ncpu && r * ncpu + c < nacc; c++)
            cpu(b, c, 0, words, FFT_BUF, 1 + r * ncpu + c);
        next(b);
    }
    socmon_esp_coherence conc = b->soc->desc.cache_hierarchy ? SOCMON_ESP_COH_DMA
                                                             : SOCMON_ESP_COH_NONE;
    for (unsigned a = 0; a < nacc; a++)
        add(b, (esp_spec){.kind = ACT_ACC, .ord = a, .a = 2 * FFT_BUF, .mode = conc, .buf = 1 + a});
    next(b);
    for (unsigned r = 0; r * ncpu < nacc; r++) {
        for (unsigned c = 0; c < ncpu && r * ncpu + c < nacc; c++)
            cpu(b, c, words, 0, FFT_BUF, 1 + r * ncpu + c);
        next(b);
    }
    idle(b, GAP);
}

/* Every CPU streams loads and stores over 512 KiB: L2 and LLC misses, DDR
 * traffic and write-backs. */
static void cpu_stream(builder *b)
{
    for (unsigned c = 0; c < b->e->ncpu; c++)
        cpu(b, c, 65536, 65536, 512u * KIB, 0x10 + c);
    next(b);
}

/* Every accelerator in every coherence mode it supports, in turn, each
 * after a CPU pass that writes its input. */
static void acc_sweep(builder *b)
{
    for (unsigned a = 0; a < b->e->nacc; a++) {
        for (int m = SOCMON_ESP_COH_NONE; m <= SOCMON_ESP_COH_FULL; m++) {
            if (m != SOCMON_ESP_COH_NONE && !b->soc->desc.cache_hierarchy)
                break;
            if (m == SOCMON_ESP_COH_FULL && !b->soc->desc.tiles[b->e->acc[a]].has_l2)
                break;
            cpu(b, 0, 0, 16u * KIB / 8, 16u * KIB, 0x20 + a);
            next(b);
            esp_run_like(b, a, 32u * KIB, (socmon_esp_coherence)m, 0x20 + a);
            next(b);
        }
    }
}

/* acc_sweep's invocations in one coherence mode only (acc_none, acc_llc, acc_dma, acc_full): every
 * accelerator that can use the mode, in turn, after a CPU pass that writes its input, so sweeps
 * compare the modes workload against workload (docs/sweep.md). With the cache hierarchy an
 * accelerator without an L2 is left out of full coherence, as in acc_sweep; without it every mode
 * is non-coherent DMA, as in every workload (esp_run_like). */
static void acc_mode(builder *b, socmon_esp_coherence m, uint64_t bytes)
{
    /* The CPU writes the half the accelerator reads (esp_acts.c: an invocation reads its first
     * ceil(lines/2) lines and writes them back in place). */
    uint64_t in = bytes / 2 ? bytes / 2 : 1;
    for (unsigned a = 0; a < b->e->nacc; a++) {
        if (m == SOCMON_ESP_COH_FULL && b->soc->desc.cache_hierarchy && !b->soc->desc.tiles[b->e->acc[a]].has_l2)
            continue;
        cpu(b, 0, 0, (in + 7) / 8, in, 0x20 + a);
        next(b);
        esp_run_like(b, a, bytes, m, 0x20 + a);
        next(b);
    }
    idle(b, GAP);   /* a workload that ran nothing still takes time */
}

/* All accelerators move 256 KiB by non-coherent DMA at once while the CPUs
 * stream: the memory tiles' queues fill and backpressure builds up. */
static void noc_stress(builder *b)
{
    if (b->soc->desc.cache_hierarchy) {
        add(b, (esp_spec){.kind = ACT_FLUSH, .flag = 1});
        next(b);
    }
    for (unsigned a = 0; a < b->e->nacc; a++)
        add(b, (esp_spec){.kind = ACT_ACC, .ord = a, .a = 256u * KIB, .mode = SOCMON_ESP_COH_NONE,
                          .buf = 0x40 + a});
    for (unsigned c = 0; c < b->e->ncpu; c++)
        cpu(b, c, 32768, 0, 1024u * KIB, 0x10 + c);
    next(b);
}

#define ACC_MODE_FIRST 5      /* names[5..8]: acc_none .. acc_full, which take :bytes=N */
#define ACC_MODE_BYTES (32u * KIB)

/* The argument of acc_MODE:bytes=N: N in bytes, or with a suffix K (KiB) or M (MiB). */
static socmon_status parse_acc_args(const char *name, const char *args, uint64_t *bytes)
{
    const char *v = strncmp(args, "bytes=", 6) == 0 ? args + 6 : NULL;
    if (!v)
        return socmon_fail(SOCMON_EINVAL, "esp: workload '%.64s': argument '%.32s' unknown "
                           "(expected bytes=N, N with an optional K or M suffix)", name, args);
    uint64_t n = 0;
    const char *p = v;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (n > ESP_BUF_MAX)
            break;
        n = n * 10 + (uint64_t)(*p - '0');
    }
    uint64_t mul = 1;
    if (p > v && (*p == 'K' || *p == 'k'))
        mul = KIB, p++;
    else if (p > v && (*p == 'M' || *p == 'm'))
        mul = KIB * KIB, p++;
    if (p == v || *p || n > ESP_BUF_MAX)
        return socmon_fail(SOCMON_EINVAL, "esp: workload '%.64s': bytes '%.32s' is not a number "
                           "of bytes 16..268435456 (a K or M suffix allowed)", name, v);
    n *= mul;
    if (n < 16 || n > ESP_BUF_MAX)
        return socmon_fail(SOCMON_ERANGE, "esp: workload '%.64s': bytes %llu out of range "
                           "16..%llu", name, (unsigned long long)n,
                           (unsigned long long)ESP_BUF_MAX);
    *bytes = n;
    return SOCMON_OK;
}

socmon_status smn_esp_script_build(socmon_esp_soc *soc, const char *name)
{
    builder b = {soc, soc->eng, 0, SOCMON_OK, NULL};
    int traffic = 0;
    socmon_status tst = smn_esp_traffic_build(soc, name, &traffic);   /* noc-trace:FILE, noc:ARGS */
    if (traffic)
        return tst;
    int w = -1;
    uint64_t acc_bytes = ACC_MODE_BYTES;
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(names[i]);
        if (strcmp(name, names[i]) == 0)
            w = i;
        else if (i >= ACC_MODE_FIRST && strncmp(name, names[i], n) == 0 && name[n] == ':') {
            socmon_status st = parse_acc_args(name, name + n + 1, &acc_bytes);
            if (st != SOCMON_OK)
                return st;
            w = i;
        }
    }
    if (w < 0)
        return socmon_fail(SOCMON_ENOENT, "esp: unknown workload '%.64s' (known: multifft, "
                           "cpu_stream, acc_sweep, noc_stress, idle, acc_none, acc_llc, acc_dma, acc_full (each "
                           "with an optional :bytes=N), noc-trace:FILE, noc:pattern=...)", name);
    if (w != 4 && (soc->eng->nmem == 0 || soc->eng->ncpu == 0))
        return socmon_fail(SOCMON_ENOTSUP, "esp: workload '%s' needs a cpu and a mem tile", name);
    soc->eng->nscript = 0;
    switch (w) {
    case 0: multifft(&b); break;
    case 1: cpu_stream(&b); break;
    case 2: acc_sweep(&b); break;
    case 3: noc_stress(&b); break;
    case 4: idle(&b, (uint64_t)(soc->desc.clock_hz / 1000)); break; /* 1 ms */
    default: acc_mode(&b, (socmon_esp_coherence)(SOCMON_ESP_COH_NONE + (w - ACC_MODE_FIRST)), acc_bytes); break;
    }
    return b.st;
}
